// A queue worker: takes jobs (lists of parts) from the queue, checks each part like any input, runs them on this
// process's warm thread pool, and stores their results. A part that fails fails its job only
// (with its error code, never retried); the worker goes on serving.
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { BitpuzzleError, badInput } from '../errors.js';
import { taskKind } from '../parallel/kinds.js';
import { Slots, runInGroups, warmPool, type QueueOption, type TaskKindName } from '../parallel/pool.js';
import { loadEngineModule } from '../wasm/module.js';
import { FORMAT_VERSION, decode, encode } from './codec.js';
import { QUEUE_NAME, bullConnection, openClient, parseQueue, unavailable, withTimeout } from './connection.js';
import { MAX_PART_BYTES, engineVersion, type PartData } from './coordinator.js';

export interface WorkerOptions {
  queue: QueueOption;
  /** Overrides the URL's ?prefix. */
  prefix?: string;
  /** Threads that run parts (default 1). */
  threads?: number;
  /** Jobs (each a list of parts) taken at once (default: threads). */
  concurrency?: number;
  /**
   * How long a part stays claimed by a worker that stopped answering (ms, default 5000); the
   * stalled check runs as often. A killed worker's part goes to another within about twice this.
   */
  lockMs?: number;
  /** One line per part and per error. */
  log?: (line: string) => void;
}

export interface QueueWorker {
  /** Stops taking parts and waits for those under way (`force`: hands them back at once). */
  close(force?: boolean): Promise<void>;
  /** Parts finished, and jobs failed, so far. */
  readonly done: number;
  readonly failed: number;
}

/** How long a stopping worker waits for Redis once its jobs are done. */
const CLOSE_MS = 3000;

/** The most parts one job may carry. */
const MAX_JOB_PARTS = 1 << 16;

/** Checks a job's data as untrusted input: the parts the engines may run, or BAD_INPUT. */
export function checkPart(data: unknown, engine: string): { kind: TaskKindName; tasks: unknown[]; index: number; of: number; problem: string } {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw badInput('a job must be a JSON object');
  const part = data as Partial<PartData>;
  if (part.v !== FORMAT_VERSION) throw badInput(`a job of format ${JSON.stringify(part.v)}; this worker reads format ${FORMAT_VERSION}`);
  const kind = taskKind(part.kind);
  if (JSON.stringify(data).length > MAX_PART_BYTES) throw badInput(`a job of more than ${MAX_PART_BYTES} bytes`);
  if (part.engine !== engine) {
    throw badInput(`a job made for engine ${JSON.stringify(part.engine)}; this worker runs ${engine} (run the same bitpuzzle everywhere)`);
  }
  if (typeof part.of !== 'number' || !Number.isInteger(part.of) || part.of < 1) throw badInput('a job must say how many jobs there are');
  if (typeof part.index !== 'number' || !Number.isInteger(part.index) || part.index < 0 || part.index >= part.of) throw badInput('a job index out of range');
  if (typeof part.problem !== 'string' || part.problem.length > 100) throw badInput('a job must name its problem');
  if (!Array.isArray(part.tasks) || part.tasks.length < 1 || part.tasks.length > MAX_JOB_PARTS) throw badInput(`a job must list from 1 to ${MAX_JOB_PARTS} parts`);
  const tasks = part.tasks.map((task, i) => {
    try {
      return kind.check(decode(task));
    } catch (error) {
      // Which part of the job is wrong, when there are several.
      if (error instanceof BitpuzzleError && part.tasks!.length > 1) throw new BitpuzzleError(error.code, `part ${i + 1} of the job: ${error.message}`);
      throw error;
    }
  });
  return { kind: part.kind as TaskKindName, tasks, index: part.index, of: part.of, problem: part.problem };
}

export async function startWorker(options: WorkerOptions): Promise<QueueWorker> {
  const target = parseQueue(options.queue, options.prefix);
  const threads = options.threads ?? 1;
  const concurrency = options.concurrency ?? threads;
  const lockMs = options.lockMs ?? 5000;
  const log = options.log ?? (() => undefined);
  // Reachable, with these credentials, before anything else.
  (await openClient(target)).disconnect();
  const engine = await engineVersion();
  const module = await loadEngineModule();
  const pool = await warmPool();
  pool.allow(threads);
  // At most `threads` parts run at once, whatever the concurrency.
  const { take: slot, free } = new Slots(threads);

  let done = 0;
  let failed = 0;
  let jobsUnderWay = 0;
  let whenIdle: (() => void) | undefined;
  const processor = async (job: Job): Promise<unknown> => {
    jobsUnderWay++;
    try {
      return await runJob(job);
    } finally {
      if (--jobsUnderWay === 0) whenIdle?.();
    }
  };
  const runJob = async (job: Job): Promise<unknown> => {
    const started = performance.now();
    const where = `job ${typeof job.data?.index === 'number' ? job.data.index + 1 : '?'} of ${job.data?.of ?? '?'}`;
    const name = `${String(job.data?.problem ?? job.name).slice(0, 40)} ${where}`;
    try {
      const part = checkPart(job.data, engine);
      // The job's parts run in groups sized by their cost (parallel/pool.ts) on as many of the
      // pool's threads as are free.
      const results: unknown[] = new Array(part.tasks.length);
      await runInGroups({
        pool,
        kind: part.kind,
        tasks: part.tasks,
        module,
        lanes: threads,
        slot,
        free,
        onResults: (start, groupResults) => groupResults.forEach((result, k) => (results[start + k] = result)),
      });
      done += results.length;
      log(`${name} (${results.length} part${results.length === 1 ? '' : 's'}): ${Math.round(performance.now() - started)} ms`);
      return encode(results);
    } catch (error) {
      failed++;
      const known = error instanceof BitpuzzleError ? error : new BitpuzzleError('ENGINE_FAILURE', error instanceof Error ? error.message : String(error));
      log(`${name}: error ${known.code}: ${known.message}`);
      // Never retried: a part fails the same way every time.
      throw new UnrecoverableError(JSON.stringify({ code: known.code, message: known.message }));
    }
  };

  const worker = new Worker(QUEUE_NAME, processor, {
    connection: bullConnection(target, true),
    prefix: target.prefix,
    concurrency,
    lockDuration: lockMs,
    stalledInterval: lockMs,
    maxStalledCount: 3,
    autorun: false,
  });
  let lastError = '';
  worker.on('error', (error) => {
    // One line per distinct error (a lost Redis would repeat one every reconnect).
    const message = error instanceof Error ? error.message : String(error);
    if (message !== lastError) log(`error QUEUE_UNAVAILABLE: ${target.display}: ${message}`);
    lastError = message;
  });
  worker.on('ready', () => (lastError = ''));
  await withTimeout(worker.waitUntilReady(), 5000, 'no answer').catch((error) => {
    void worker.close(true);
    throw unavailable(target, error);
  });
  void worker.run().catch((error) => log(`error QUEUE_UNAVAILABLE: ${target.display}: ${error instanceof Error ? error.message : String(error)}`));
  return {
    async close(force = false) {
      const closing = worker.close(force);
      // BullMQ's close waits on Redis, and on a Redis gone away it waits for ever (it reconnects):
      // once no job is under way, it has CLOSE_MS more, then the connections are dropped.
      if (!force && jobsUnderWay > 0) await new Promise<void>((resolve) => (whenIdle = resolve));
      const closed = await withTimeout(closing, CLOSE_MS, 'timeout').then(() => true, () => false);
      if (!closed) void worker.disconnect().catch(() => undefined); // may never settle either
      await pool.close();
    },
    get done() {
      return done;
    },
    get failed() {
      return failed;
    },
  };
}
