// The worker thread script for batches of optimal sliding-tile searches.
import { serveTasks } from '../parallel/worker.js';
import { runOptimalBatch } from './tasks.js';

serveTasks(runOptimalBatch);
