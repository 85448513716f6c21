// `bitpuzzle queue status` and `clean`: the problems on a queue, their parts by state, and
// removing them.
import { Queue } from 'bullmq';
import type { QueueOption } from '../parallel/pool.js';
import { QUEUE_NAME, bullConnection, openClient, parseQueue, unavailable, withTimeout } from './connection.js';

const STATES = ['waiting', 'active', 'completed', 'failed', 'delayed', 'prioritized'] as const;
type State = (typeof STATES)[number];

export interface ProblemStatus {
  problem: string;
  parts: Record<State, number>;
}

export interface QueueStatus {
  workers: number;
  problems: ProblemStatus[];
}

async function withQueue<R>(option: QueueOption, prefix: string | undefined, work: (queue: Queue) => Promise<R>): Promise<R> {
  const target = parseQueue(option, prefix);
  (await openClient(target)).disconnect();
  const queue = new Queue(QUEUE_NAME, { connection: bullConnection(target, false), prefix: target.prefix });
  queue.on('error', () => undefined);
  try {
    return await work(queue);
  } catch (error) {
    throw unavailable(target, error, 'the queue failed');
  } finally {
    await withTimeout(queue.close(), 1000, 'timeout').catch(() => undefined);
  }
}

/** The problem a job id belongs to (ids are PROBLEM-INDEX). */
const problemOf = (id: string): string => id.replace(/-\d+$/, '');

export function queueStatus(option: QueueOption, prefix?: string): Promise<QueueStatus> {
  return withQueue(option, prefix, async (queue) => {
    const problems = new Map<string, ProblemStatus>();
    for (const state of STATES) {
      for (const id of await queue.getRanges([state], 0, -1)) {
        const problem = problemOf(id);
        let entry = problems.get(problem);
        if (!entry) {
          entry = { problem, parts: Object.fromEntries(STATES.map((s) => [s, 0])) as Record<State, number> };
          problems.set(problem, entry);
        }
        entry.parts[state]++;
      }
    }
    return { workers: await queue.getWorkersCount(), problems: [...problems.values()].sort((a, b) => a.problem.localeCompare(b.problem)) };
  });
}

/**
 * Removes a problem's parts (every problem's without one). Parts under way are left to
 * finish; the count of those removed is returned.
 */
export function queueClean(option: QueueOption, problem?: string, prefix?: string): Promise<{ removed: number; running: number }> {
  return withQueue(option, prefix, async (queue) => {
    let removed = 0;
    let running = 0;
    for (const state of STATES) {
      for (const id of await queue.getRanges([state], 0, -1)) {
        if (problem !== undefined && problemOf(id) !== problem) continue;
        if ((await queue.remove(id)) === 1) removed++;
        else running++;
      }
    }
    return { removed, running };
  });
}
