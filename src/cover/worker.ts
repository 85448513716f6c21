// The worker thread script for exact-cover parts.
import { serveTasks } from '../parallel/worker.js';
import { runCoverTask } from './tasks.js';

serveTasks(runCoverTask);
