// The worker thread script for SameGame score runs.
import { serveTasks } from '../parallel/worker.js';
import { runScoreTask } from './tasks.js';

serveTasks(runScoreTask);
