// Executors: a list of independent tasks run inline (the calling thread, in slices), on the
// process's one warm pool of worker threads (Node worker_threads, Web Workers in browsers),
// or on a job queue (BullMQ on Redis, loaded only when asked for). Results come back in task
// order, so any merge over them is the same for every executor and thread count.
import { setMaxListeners } from 'node:events';
import { availableParallelism } from 'node:os';
import { BitpuzzleError, aborted, throwIfAborted, type ErrorCode } from '../errors.js';

/** How far a piece of work has got, passed to `onProgress`. */
export interface Progress {
  /** Tasks finished. */
  done: number;
  /** Tasks in all. */
  total: number;
  /** On a queue: the workers connected to it (absent for local runs). */
  workers?: number;
  /** On a queue: tasks found already finished by an earlier run (absent for local runs). */
  reused?: number;
  /** What the work is doing before `done` moves (say, a stage that comes first), for a progress bar. */
  phase?: string;
}

/** A queue to run the tasks on: its URL (redis:// or rediss://), or the URL and a key prefix. */
export type QueueOption =
  | string
  | {
      /** redis://[user:password@]host[:port][/db], or rediss:// for TLS. */
      url: string;
      /** The Redis key prefix of the queue (default the URL's ?prefix=, else 'bitpuzzle'). */
      prefix?: string;
    };

export interface RunTasksOptions<T, R> {
  tasks: T[];
  /** Worker threads to use; 1 runs the tasks on the calling thread (but see `onWorkers`). */
  threads: number;
  /** Runs even one thread's tasks on a worker thread: for tasks that run long without yielding. */
  onWorkers?: boolean;
  /** The task kind (a name in parallel/runners.ts): which function the worker threads run. */
  kind: TaskKindName;
  /** The task function, for the inline path. */
  runInline: (task: T, signal?: AbortSignal) => Promise<R>;
  /** The compiled engine to hand to each worker; none when the tasks run the pure-TS twins. */
  engineModule?: WebAssembly.Module;
  /** Runs the tasks on this job queue instead of this machine (`threads` is then ignored). */
  queue?: QueueOption;
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
}

/** The kinds of task the worker script serves (one per family that cuts its work). */
export type TaskKindName = 'queens' | 'polyomino' | 'cover' | 'sliding' | 'samegame' | 'sudoku' | 'pegs';

/** What a worker sends back: a result, or an error that keeps its code. */
export type WorkerReply<R> = { ok: R } | { error: { code: ErrorCode; message: string } };

/** What a warm-pool thread sends back for a group of tasks: their results, and its milliseconds on them. */
export interface GroupReply {
  reply: WorkerReply<unknown[]>;
  ms: number;
}

/** The number of hardware threads, the default for `threads`. */
export function defaultThreads(): number {
  const nav = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator;
  // Browsers tell through navigator; Node 20 has no navigator (node:os is a stub in the browser build).
  return Math.max(1, nav?.hardwareConcurrency ?? availableParallelism());
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
  if (options.queue !== undefined && tasks.length > 0) {
    if (!(globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node) {
      throw new BitpuzzleError('BAD_INPUT', 'a queue is used from Node only (browsers run parts on their own threads)');
    }
    // Loaded on demand: no Redis code runs (or is bundled for browsers) without a queue.
    const { runOnQueue } = await import(/* @vite-ignore */ queueModule);
    return (await runOnQueue({ kind: options.kind, tasks, queue: options.queue, signal, onProgress })) as R[];
  }
  const threads = Math.min(options.threads, tasks.length);
  const results: R[] = new Array(tasks.length);
  let done = 0;
  const finished = (): void => {
    done++;
    onProgress?.({ done, total: tasks.length });
  };
  onProgress?.({ done: 0, total: tasks.length });

  if (threads === 0 || (threads === 1 && !options.onWorkers)) {
    for (let i = 0; i < tasks.length; i++) {
      results[i] = await options.runInline(tasks[i], signal);
      finished();
    }
    return results;
  }

  // `threads` lanes pull groups of tasks in order; the first failure (or the caller's abort)
  // cancels the groups under way, so the warm threads are free again at once.
  const pool = await warmPool();
  pool.allow(threads);
  await runInGroups<T, R>({
    pool,
    kind: options.kind,
    tasks,
    module: options.engineModule,
    lanes: threads,
    signal,
    onResults: (start, groupResults) => {
      for (let k = 0; k < groupResults.length; k++) {
        results[start + k] = groupResults[k];
        finished();
      }
    },
  });
  return results;
}

/**
 * Runs `tasks` on the warm pool's threads in `lanes` lanes, each lane taking the next group of
 * consecutive tasks as one message (GroupSizer says how many), so that small parts do not each
 * pay a round trip to a thread. `onResults` hears each group's results with the index of its
 * first task. The first failure (or `signal`) cancels the groups under way and rejects;
 * `slot`, when given, is awaited before each group and `free` called after it (a queue worker's
 * bound on the parts running at once across its jobs).
 */
export async function runInGroups<T, R>(options: {
  pool: WarmPool;
  kind: TaskKindName;
  tasks: readonly T[];
  module?: WebAssembly.Module;
  lanes: number;
  signal?: AbortSignal;
  onResults: (start: number, results: R[]) => void;
  slot?: () => Promise<void>;
  free?: () => void;
}): Promise<void> {
  const { pool, tasks, signal } = options;
  throwIfAborted(signal);
  const sizer = new GroupSizer(tasks.length, options.lanes);
  // One signal for every lane's group under way: the caller's abort, or the first failure.
  const stop = new AbortController();
  setMaxListeners(options.lanes + 10, stop.signal);
  const onAbort = (): void => stop.abort(signal!.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const lane = async (): Promise<void> => {
    while (!stop.signal.aborted) {
      await options.slot?.();
      try {
        const group = sizer.next();
        if (!group) return;
        const { results, ms } = await pool.runGroup<T, R>(options.kind, tasks.slice(group.start, group.end), options.module, stop.signal);
        sizer.record(group.end - group.start, ms);
        options.onResults(group.start, results);
      } finally {
        options.free?.();
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.lanes, tasks.length)) }, () => lane().catch((error: unknown) => {
      stop.abort(error);
      throw error;
    })));
    throwIfAborted(signal);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/** At most `count` holders at once: `take` waits in turn for a free slot, `free` gives one back. */
export class Slots {
  private held = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly count: number) {}

  take = async (): Promise<void> => {
    if (this.held < this.count) {
      this.held++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  };

  free = (): void => {
    const next = this.waiting.shift();
    if (next) next();
    else this.held--;
  };

  /** Runs `work` holding a slot. */
  async run<R>(work: () => Promise<R>): Promise<R> {
    await this.take();
    try {
      return await work();
    } finally {
      this.free();
    }
  }
}

/** How long a group of tasks should keep a thread busy: long against a round trip (about 0.1 ms), short against an abort (100 ms). */
export const GROUP_TARGET_MS = 20;

/**
 * Sizes groups of consecutive tasks by their learned cost. Each run starts with one task a
 * group (nothing is known of its parts yet); after each finished group the cost of a task is
 * re-estimated (a running mean of the threads' own timings, halfway towards the newest), and the
 * next group holds about GROUP_TARGET_MS of work, but at most twice the last group (the first
 * parts of a run may be cheaper than the rest: growth is gradual, while a costlier estimate
 * shrinks the next group at once) and at most half a lane's share of what is left (so the last
 * groups are small and the threads finish together).
 */
export class GroupSizer {
  private handedOut = 0;
  private size = 1;
  /** Milliseconds a task, learned; undefined until the first group is back. */
  perTask: number | undefined;

  constructor(
    private readonly total: number,
    private readonly lanes: number,
  ) {}

  /** The next group (tasks start … end - 1), or undefined when every task is handed out. */
  next(): { start: number; end: number } | undefined {
    if (this.handedOut >= this.total) return undefined;
    const left = this.total - this.handedOut;
    const share = Math.max(1, Math.floor(left / (2 * this.lanes)));
    const size = Math.max(1, Math.min(this.size, share, left));
    const start = this.handedOut;
    this.handedOut += size;
    return { start, end: this.handedOut };
  }

  /** A group of `tasks` tasks took `ms` on its thread. */
  record(tasks: number, ms: number): void {
    const each = Math.max(ms, 0.001) / tasks;
    this.perTask = this.perTask === undefined ? each : (this.perTask + each) / 2;
    const wanted = Math.max(1, Math.floor(GROUP_TARGET_MS / this.perTask));
    this.size = Math.min(wanted, Math.max(this.size, tasks) * 2);
  }
}

// A variable, so that bundlers do not follow it into bullmq (browsers have no queue).
const queueModule = '../queue/coordinator.js';

// ---- the warm pool ------------------------------------------------------------------------

/** Idle threads are stopped after this long (their engines may hold much memory). */
const IDLE_MS = 30_000;
/** A thread that does not answer a cancel within this long is stopped. */
const CANCEL_GRACE_MS = 1_000;

/** The part of a Node worker thread or a Web Worker that the pool uses. */
interface ThreadHandle {
  postMessage(message: unknown): void;
  terminate(): unknown;
  /** Node only: whether the thread keeps the process alive. */
  ref?(): void;
  unref?(): void;
}

interface Thread {
  id: number;
  handle: ThreadHandle;
  busy: boolean;
  module?: WebAssembly.Module;
  idleTimer?: ReturnType<typeof setTimeout>;
  /** The task under way: settles its promise with the thread's reply or failure. */
  settle?: (reply: GroupReply | Error) => void;
  /** Told once the thread is free again (a cancelled task's thread: once it has stopped). */
  freed?: () => void;
}

/** Messages to a thread. */
export type ThreadMessage =
  | { type: 'run'; id: number; kind: TaskKindName; tasks: unknown[]; module?: WebAssembly.Module }
  | { type: 'cancel'; id: number };

/** The process's pool: threads start on first use, are reused by every call, and stop when idle. */
export class WarmPool {
  private readonly threads: Thread[] = [];
  private readonly waiting: Array<(thread: Thread) => void> = [];
  private nextThreadId = 1;
  private nextTaskId = 1;
  /** Threads started since the process began (for tests: a warm pool starts none for a second call). */
  started = 0;
  /** Threads being started (counted against the limit). */
  private starting = 0;

  constructor(private limit: number) {}

  /** Lets the pool grow to `threads` threads. */
  allow(threads: number): void {
    this.limit = Math.max(this.limit, threads);
  }

  /** Threads alive now. */
  get size(): number {
    return this.threads.length;
  }

  /**
   * Starts idle threads up to `threads` (within the limit) without waiting for them, so that
   * they boot while the caller prepares its tasks (a table to load, say).
   */
  prestart(threads: number): void {
    this.allow(threads);
    for (let i = this.threads.length + this.starting; i < Math.min(threads, this.limit); i++) {
      this.spawn().then(
        (thread) => this.release(thread),
        () => undefined, // a thread that cannot start fails the first task that needs one
      );
    }
  }

  /** Runs one task of `kind` on a thread; rejects at once (and cancels it there) when `signal` fires. */
  async run<T, R>(kind: TaskKindName, task: T, module?: WebAssembly.Module, signal?: AbortSignal, freed?: () => void): Promise<R> {
    return (await this.runGroup<T, R>(kind, [task], module, signal, freed)).results[0];
  }

  /**
   * Runs a group of tasks of `kind` on one thread, in order, as one message: their results and
   * the thread's milliseconds on them. Rejects at once (and cancels the group there) when
   * `signal` fires, and with the first task's error that fails. `freed`, when given, is called
   * once the thread is free again, which after a cancel may be later than the rejection (at
   * once when no thread was taken): a caller that bounds the threads it keeps busy waits for it.
   */
  async runGroup<T, R>(kind: TaskKindName, tasks: T[], module?: WebAssembly.Module, signal?: AbortSignal, freed?: () => void): Promise<{ results: R[]; ms: number }> {
    let thread: Thread;
    try {
      throwIfAborted(signal);
      thread = await this.acquire(signal);
    } catch (error) {
      freed?.();
      throw error;
    }
    thread.freed = freed;
    // An abort while the thread was being handed over has fired already: no task is sent.
    if (signal?.aborted) {
      this.release(thread);
      throw aborted(signal);
    }
    const id = this.nextTaskId++;
    let onAbort = (): void => undefined;
    let answered = false;
    try {
      const { reply, ms } = await new Promise<GroupReply>((resolve, reject) => {
        thread.settle = (reply) => {
          answered = true;
          if (reply instanceof Error) reject(reply);
          else resolve(reply);
        };
        onAbort = () => {
          if (answered) return; // the thread is free already: nothing to cancel
          reject(aborted(signal!));
          this.cancel(thread, id);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        const send = thread.module === module ? undefined : module;
        thread.module = module;
        thread.handle.postMessage({ type: 'run', id, kind, tasks, module: send } satisfies ThreadMessage);
      });
      if ('error' in reply) throw new BitpuzzleError(reply.error.code, reply.error.message);
      return { results: reply.ok as R[], ms };
    } finally {
      signal?.removeEventListener('abort', onAbort);
      // A task cancelled unanswered frees its thread when the thread answers the cancel.
      if (answered || !signal?.aborted) this.release(thread);
    }
  }

  /** Stops every thread (tasks under way reject with ABORTED). */
  async close(): Promise<void> {
    for (const thread of this.threads.splice(0)) {
      thread.settle?.(new BitpuzzleError('ABORTED', 'the thread pool was closed'));
      await thread.handle.terminate();
    }
  }

  private async acquire(signal?: AbortSignal): Promise<Thread> {
    const idle = this.threads.find((t) => !t.busy);
    if (idle) return this.claim(idle);
    if (this.threads.length + this.starting < this.limit) return this.claim(await this.spawn());
    return new Promise<Thread>((resolve, reject) => {
      const take = (thread: Thread): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve(this.claim(thread));
      };
      const onAbort = (): void => {
        this.waiting.splice(this.waiting.indexOf(take), 1);
        reject(aborted(signal!));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(take);
    });
  }

  private claim(thread: Thread): Thread {
    clearTimeout(thread.idleTimer);
    thread.busy = true;
    thread.handle.ref?.();
    return thread;
  }

  private release(thread: Thread): void {
    thread.settle = undefined;
    this.tellFreed(thread);
    if (!this.threads.includes(thread)) return;
    const next = this.waiting.shift();
    if (next) return next(thread);
    thread.busy = false;
    // An idle thread never keeps a Node process alive, and stops after a while.
    thread.handle.unref?.();
    thread.idleTimer = setTimeout(() => this.retire(thread), IDLE_MS);
    (thread.idleTimer as { unref?: () => void }).unref?.();
  }

  /** Calls the task's `freed`, once. */
  private tellFreed(thread: Thread): void {
    const freed = thread.freed;
    thread.freed = undefined;
    freed?.();
  }

  /** Asks the thread to stop a task; stops the thread if it does not answer in time. */
  private cancel(thread: Thread, id: number): void {
    thread.handle.postMessage({ type: 'cancel', id } satisfies ThreadMessage);
    const timer = setTimeout(() => this.retire(thread), CANCEL_GRACE_MS);
    (timer as { unref?: () => void }).unref?.();
    thread.settle = () => {
      clearTimeout(timer);
      this.release(thread);
    };
  }

  private retire(thread: Thread): void {
    const i = this.threads.indexOf(thread);
    if (i < 0) return;
    this.threads.splice(i, 1);
    clearTimeout(thread.idleTimer);
    thread.settle?.(new BitpuzzleError('ABORTED', 'the thread was stopped'));
    this.tellFreed(thread);
    void thread.handle.terminate();
    this.refill();
  }

  /** A thread was lost: tasks waiting for one get a new thread. */
  private refill(): void {
    if (this.waiting.length === 0 || this.threads.length >= this.limit) return;
    const take = this.waiting.shift()!;
    this.spawn().then(take, () => undefined);
  }

  private async spawn(): Promise<Thread> {
    this.starting++;
    let started: ThreadHandle;
    try {
      started = await startThread();
    } finally {
      this.starting--;
    }
    const thread: Thread = { id: this.nextThreadId++, handle: started, busy: false };
    this.threads.push(thread);
    this.started++;
    const onReply = (data: GroupReply): void => thread.settle?.(data);
    const onFailure = (error: unknown): void => {
      const i = this.threads.indexOf(thread);
      if (i >= 0) {
        this.threads.splice(i, 1);
        this.refill();
      }
      const message = error instanceof Error ? error.message : String((error as { message?: unknown })?.message ?? error);
      thread.settle?.(new BitpuzzleError('ENGINE_FAILURE', `a worker thread failed: ${message}`));
    };
    const handle = thread.handle as ThreadHandle & {
      on?: (event: string, listener: (value: never) => void) => void;
      addEventListener?: (event: string, listener: (event: never) => void) => void;
    };
    if (handle.on) {
      handle.on('message', onReply);
      handle.on('error', onFailure);
      handle.on('exit', (code: number) => onFailure(new Error(`it exited with code ${code}`)));
    } else {
      handle.addEventListener!('message', (event: MessageEvent) => onReply(event.data));
      handle.addEventListener!('error', (event: ErrorEvent) => onFailure(event.message ?? 'error'));
    }
    return thread;
  }
}

const threadScript = new URL('./tasks-worker.js', import.meta.url);

async function startThread(): Promise<ThreadHandle> {
  if (threadScript.protocol === 'file:') {
    const { Worker } = await import('node:worker_threads');
    const { fileURLToPath } = await import('node:url');
    // Flags for the main script (such as --input-type) make a worker thread fail to start, and
    // so do V8's flags (--max-old-space-size, --expose-gc …), which the thread shares with the
    // process anyway: those Node names in its error are left out and the thread started again.
    let execArgv = process.execArgv.filter((flag) => !flag.startsWith('--input-type') && flag !== '--eval' && flag !== '-e');
    try {
      return new Worker(fileURLToPath(threadScript), { execArgv });
    } catch (error) {
      if ((error as { code?: string }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error;
      const refused = (error as Error).message.replace(/^[^:]*:\s*/, '').split(/,\s*/);
      execArgv = execArgv.filter((flag) => !refused.includes(flag));
      return new Worker(fileURLToPath(threadScript), { execArgv });
    }
  }
  return new Worker(threadScript, { type: 'module' });
}

let pool: WarmPool | undefined;

/** The process's warm pool (as many threads as the largest `threads` asked for, at most the cores × 4). */
export async function warmPool(): Promise<WarmPool> {
  pool ??= new WarmPool(Math.max(4, defaultThreads() * 4));
  return pool;
}

// ---- a pool for rounds of tasks (peg solitaire's level-by-level search) ----------------------

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
  // workerpool is loaded with the first such pool (browsers then fetch it as a chunk of its own).
  const { default: workerpool } = await import('workerpool');
  const pool = workerpool.pool(await scriptPath(options.workerUrl), {
    maxWorkers: options.threads,
    workerType: 'auto',
    // Worker scripts are ES modules: Web Workers must be told so; Node infers it from the package.
    workerOpts: { type: 'module' },
    // A worker busy in a long step does not hear the request to stop: kill it soon after
    // (workerpool waits 1 s by default), so that an aborted count frees its threads at once.
    workerTerminateTimeout: 20,
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
