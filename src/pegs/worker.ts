// The worker thread script for peg solitaire counting shards.
import { serveTasks } from '../parallel/worker.js';
import { runShardTask } from './shards.js';

serveTasks(runShardTask, (result) => result.buckets.flat());
