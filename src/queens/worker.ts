// The worker thread script for N-Queens parts.
import { serveTasks } from '../parallel/worker.js';
import { runQueensTask } from './tasks.js';

serveTasks(runQueensTask);
