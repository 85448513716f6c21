// Runs independent tasks, inline or on a pool of worker threads (Node worker_threads, Web
// Workers in browsers), with progress and cancellation. Results come back in task order, so
// any merge over them is the same for every thread count.
import workerpool from 'workerpool';
import { BitpuzzleError, aborted, throwIfAborted, type ErrorCode } from '../errors.js';

export interface Progress {
  /** Tasks finished. */
  done: number;
  /** Tasks in all. */
  total: number;
}

export interface RunTasksOptions<T, R> {
  tasks: T[];
  /** Worker threads to use; 1 runs the tasks on the calling thread. */
  threads: number;
  /** The family's worker script (it calls serveTasks with the same task function). */
  workerUrl: URL;
  /** The task function, for the inline path. */
  runInline: (task: T, signal?: AbortSignal) => Promise<R>;
  /** The compiled engine to hand to each worker; none when the tasks run the pure-TS twins. */
  engineModule?: WebAssembly.Module;
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
}

/** What a worker sends back: a result, or an error that keeps its code. */
export type WorkerReply<R> = { ok: R } | { error: { code: ErrorCode; message: string } };

/** The number of hardware threads, the default for `threads`. */
export function defaultThreads(): number {
  const nav = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator;
  return Math.max(1, nav?.hardwareConcurrency ?? workerpool.cpus ?? 1);
}

export function checkThreads(threads: unknown): number {
  if (threads === undefined) return defaultThreads();
  if (typeof threads !== 'number' || !Number.isInteger(threads) || threads < 1 || threads > 1024) {
    throw new BitpuzzleError('BAD_INPUT', `threads must be an integer from 1 to 1024, got ${String(threads)}`);
  }
  return threads;
}

export async function runTasks<T, R>(options: RunTasksOptions<T, R>): Promise<R[]> {
  const { tasks, signal, onProgress } = options;
  throwIfAborted(signal);
  const threads = Math.min(options.threads, tasks.length);
  const results: R[] = new Array(tasks.length);
  let done = 0;
  const finished = (): void => {
    done++;
    onProgress?.({ done, total: tasks.length });
  };
  onProgress?.({ done: 0, total: tasks.length });

  if (threads <= 1) {
    for (let i = 0; i < tasks.length; i++) {
      results[i] = await options.runInline(tasks[i], signal);
      finished();
    }
    return results;
  }

  const pool = await openPool({ threads, workerUrl: options.workerUrl, engineModule: options.engineModule, signal });
  try {
    await Promise.all(
      tasks.map(async (task, i) => {
        results[i] = await pool.run<T, R>(task);
        finished();
      }),
    );
    return results;
  } finally {
    await pool.close();
  }
}

export interface TaskPool {
  /** Runs one task on a worker; `transfer` lists ArrayBuffers handed over instead of copied. */
  run<T, R>(task: T, transfer?: ArrayBuffer[]): Promise<R>;
  /** Stops the workers. */
  close(): Promise<void>;
}

/**
 * A pool kept open for several rounds of tasks (a level-by-level search sends a round per
 * level), for work that `runTasks` cannot cut up front. Any task rejects with ABORTED once the
 * signal fires; the caller closes the pool.
 */
export async function openPool(options: {
  threads: number;
  workerUrl: URL;
  engineModule?: WebAssembly.Module;
  signal?: AbortSignal;
}): Promise<TaskPool> {
  const { signal } = options;
  throwIfAborted(signal);
  const pool = workerpool.pool(await scriptPath(options.workerUrl), {
    maxWorkers: options.threads,
    workerType: 'auto',
    // Worker scripts are ES modules: Web Workers must be told so; Node infers it from the package.
    workerOpts: { type: 'module' },
  });
  let onAbort = (): void => undefined;
  const stop = new Promise<never>((_, reject) => {
    onAbort = () => reject(aborted(signal!));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  stop.catch(() => undefined);
  return {
    async run<T, R>(task: T, transfer?: ArrayBuffer[]): Promise<R> {
      throwIfAborted(signal);
      const exec = pool.exec('run', [task, options.engineModule], transfer?.length ? { transfer } : undefined);
      exec.catch(() => undefined);
      const reply = (await Promise.race([exec, stop])) as WorkerReply<R>;
      if ('error' in reply) throw new BitpuzzleError(reply.error.code, reply.error.message);
      return reply.ok;
    },
    async close(): Promise<void> {
      signal?.removeEventListener('abort', onAbort);
      await pool.terminate(true);
    },
  };
}

/** Node's workers take a path; browsers take the URL. */
async function scriptPath(url: URL): Promise<string> {
  if (url.protocol !== 'file:') return url.href;
  const { fileURLToPath } = await import('node:url');
  return fileURLToPath(url);
}

/** The sums of the parts' counts (merged in task order, so any thread count gives the same). */
export function sumCounts(results: readonly { total: bigint; distinct: bigint; nodes: bigint }[]): {
  total: bigint;
  distinct: bigint;
  nodes: bigint;
} {
  const sum = { total: 0n, distinct: 0n, nodes: 0n };
  for (const r of results) {
    sum.total += r.total;
    sum.distinct += r.distinct;
    sum.nodes += r.nodes;
  }
  return sum;
}
