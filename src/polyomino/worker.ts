// The worker thread script for tiling parts.
import { serveTasks } from '../parallel/worker.js';
import { runTilingTask } from './tasks.js';

serveTasks(runTilingTask);
