// A queue worker: takes parts from the queue, checks each like any input, runs it on this
// process's warm thread pool, and stores the result. A part that fails fails its job only
// (with its error code, never retried); the worker goes on serving.
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { BitpuzzleError, badInput } from '../errors.js';
import { taskKind } from '../parallel/kinds.js';
import { warmPool, type QueueOption, type TaskKindName } from '../parallel/pool.js';
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
  /** Parts taken at once (default: threads). */
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
  /** Parts finished and failed so far. */
  readonly done: number;
  readonly failed: number;
}

/** Checks a job's data as untrusted input: the task the engines may run, or BAD_INPUT. */
export function checkPart(data: unknown, engine: string): { kind: TaskKindName; task: unknown; index: number; of: number; problem: string } {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw badInput('a part must be a JSON object');
  const part = data as Partial<PartData>;
  if (part.v !== FORMAT_VERSION) throw badInput(`a part of format ${JSON.stringify(part.v)}; this worker reads format ${FORMAT_VERSION}`);
  const kind = taskKind(part.kind);
  if (JSON.stringify(data).length > MAX_PART_BYTES) throw badInput(`a part of more than ${MAX_PART_BYTES} bytes`);
  if (part.engine !== engine) {
    throw badInput(`a part made for engine ${JSON.stringify(part.engine)}; this worker runs ${engine} (run the same bitpuzzle everywhere)`);
  }
  if (typeof part.of !== 'number' || !Number.isInteger(part.of) || part.of < 1) throw badInput('a part must say how many parts there are');
  if (typeof part.index !== 'number' || !Number.isInteger(part.index) || part.index < 0 || part.index >= part.of) throw badInput('a part index out of range');
  if (typeof part.problem !== 'string' || part.problem.length > 100) throw badInput('a part must name its problem');
  return { kind: part.kind as TaskKindName, task: kind.check(decode(part.task)), index: part.index, of: part.of, problem: part.problem };
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
  let running = 0;
  const waiting: Array<() => void> = [];
  const slot = async (): Promise<void> => {
    if (running < threads) {
      running++;
      return;
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const free = (): void => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };

  let done = 0;
  let failed = 0;
  const processor = async (job: Job): Promise<unknown> => {
    const started = performance.now();
    const where = `part ${typeof job.data?.index === 'number' ? job.data.index + 1 : '?'} of ${job.data?.of ?? '?'}`;
    const name = `${String(job.data?.problem ?? job.name).slice(0, 40)} ${where}`;
    try {
      const part = checkPart(job.data, engine);
      await slot();
      let result: unknown;
      try {
        result = await pool.run(part.kind, part.task, module);
      } finally {
        free();
      }
      done++;
      log(`${name}: ${Math.round(performance.now() - started)} ms`);
      return encode(result);
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
      await worker.close(force);
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
