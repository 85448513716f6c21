// The worker thread script for batches of sliding-tile solves: optimal searches, or constructive solutions.
import { serveTasks } from '../parallel/worker.js';
import { runFastBatch, type FastBatchTask, type SlidingSolution } from './solve.js';
import { runOptimalBatch, type OptimalBatchTask, type OptimalResult } from './tasks.js';

serveTasks<OptimalBatchTask | FastBatchTask, OptimalResult[] | SlidingSolution[]>((task) =>
  'fast' in task ? runFastBatch(task) : runOptimalBatch(task),
);
