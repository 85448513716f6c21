// The queue executor: enqueues a problem's parts on BullMQ with deterministic job ids, waits
// for `bitpuzzle worker` processes to finish them, and returns their results in part order.
// Finished parts stay in Redis, so running the same problem again (after a crash, or from a
// second coordinator) reuses them.
import { createHash } from 'node:crypto';
import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { BitpuzzleError, aborted, badInput, describeValue, type ErrorCode } from '../errors.js';
import { TASK_KINDS } from '../parallel/kinds.js';
import type { Progress, QueueOption, TaskKindName } from '../parallel/pool.js';
import { engineVersion } from '../wasm/module.js';

export { engineVersion };
import { FORMAT_VERSION, decode, encode } from './codec.js';
import { QUEUE_NAME, bullConnection, openClient, parseQueue, unavailable, withTimeout, type QueueTarget } from './connection.js';

/** The largest part (its JSON) that goes on the queue. */
export const MAX_PART_BYTES = 8 << 20;
/** Finished parts are kept this long (for resume), unless `bitpuzzle queue clean` removes them. */
const KEEP_SECONDS = 7 * 24 * 3600;
/** A Redis that stays unreachable this long fails the run. */
const LOST_MS = 3000;
/** How often every open part is polled, whatever the events say. */
const FULL_POLL_MS = 1000;
/**
 * At most this many jobs a run: more parts are dealt out in turn into this many jobs. A job costs
 * the coordinator and Redis about 0.5 ms (see docs/queue.md), whatever its parts cost; dealing
 * in turn mixes the costly parts (splits list them first) with the cheap ones.
 */
export const MAX_JOBS = 128;

/** What a job holds: its parts, and what the worker checks before running them. */
export interface PartData {
  v: number;
  kind: TaskKindName;
  /** The problem's id: the first part of every one of its job ids. */
  problem: string;
  engine: string;
  /** This job's number, and how many jobs the problem has. */
  index: number;
  of: number;
  /** The parts this job runs (a problem's parts `index`, `index + of`, `index + 2 × of`, …). */
  tasks: unknown[];
}

/**
 * The jobs of `count` parts whose JSON texts are `texts`: at most MAX_JOBS, and more where the
 * parts dealt into that many would make a job bigger than MAX_PART_BYTES.
 */
export function dealParts(texts: string[]): number[][] {
  let jobs = Math.min(texts.length, MAX_JOBS);
  for (;;) {
    const dealt = Array.from({ length: jobs }, (_, job) => texts.map((_, i) => i).filter((i) => i % jobs === job));
    const fits = dealt.every((parts) => parts.reduce((bytes, i) => bytes + texts[i].length + 1, 0) <= MAX_PART_BYTES);
    if (fits || jobs === texts.length) return dealt;
    jobs = Math.min(texts.length, jobs * 2);
  }
}


/** The job id of part `index`: the problem's hash, then the part number. */
export const jobId = (problem: string, index: number): string => `${problem}-${index}`;

/** The error a failed job reported (see the worker), or ENGINE_FAILURE for anything else. */
export function partError(reason: string, index: number, of: number): BitpuzzleError {
  try {
    const { code, message } = JSON.parse(reason) as { code: ErrorCode; message: string };
    if (typeof code === 'string' && typeof message === 'string') return new BitpuzzleError(code, message);
  } catch {
    // not one of ours: BullMQ's own reasons (a part that stalled too often)
  }
  return new BitpuzzleError('ENGINE_FAILURE', `job ${index + 1} of ${of} failed on the queue: ${reason}`);
}

interface Slot {
  id: string;
  /** The parts the job runs. */
  size: number;
  /** JSON of the result, once known. */
  result?: unknown;
}

export async function runOnQueue(options: {
  kind: TaskKindName;
  tasks: unknown[];
  queue: QueueOption;
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
}): Promise<unknown[]> {
  const { kind, tasks, signal, onProgress } = options;
  const target = parseQueue(options.queue);
  const portable = TASK_KINDS[kind].portable as ((task: unknown) => unknown) | undefined;
  const encoded = tasks.map((task) => encode(portable ? portable(task) : task));
  const engine = await engineVersion();
  const texts = encoded.map((task) => JSON.stringify(task));
  const big = texts.findIndex((text) => text.length > MAX_PART_BYTES);
  if (big >= 0) throw badInput(`part ${big + 1} is ${texts[big].length} bytes, more than the queue takes (${MAX_PART_BYTES})`);
  const hash = createHash('sha256').update(JSON.stringify({ v: FORMAT_VERSION, kind, engine, parts: tasks.length }));
  for (const text of texts) hash.update('\n').update(text);
  const jobs = dealParts(texts);
  hash.update(`\n${jobs.length} jobs`);
  const problem = `${kind}.${hash.digest('hex').slice(0, 20)}`;
  const slots: Slot[] = jobs.map((parts, index) => ({ id: jobId(problem, index), size: parts.length }));
  const job = (index: number) => ({
    name: kind,
    data: { v: FORMAT_VERSION, kind, problem, engine, index, of: jobs.length, tasks: jobs[index].map((i) => encoded[i]) } satisfies PartData,
    opts: { jobId: slots[index].id, attempts: 1, removeOnComplete: { age: KEEP_SECONDS }, removeOnFail: { age: KEEP_SECONDS } },
  });

  const client = await openClient(target);
  const queue = new Queue(QUEUE_NAME, { connection: bullConnection(target, false), prefix: target.prefix });
  queue.on('error', () => undefined); // failures surface through the polls below
  // The coordinator learns of finished parts from the queue's events, and reads those parts at
  // once; a slow poll of every open part remains, for what events cannot tell (a part removed
  // by someone else, an event missed while Redis was away).
  const events = new QueueEvents(QUEUE_NAME, { connection: bullConnection(target, true), prefix: target.prefix });
  events.on('error', () => undefined);
  const finished = new Set<string>();
  let wake = (): void => undefined;
  const onFinished = ({ jobId }: { jobId: string }): void => {
    if (!jobId.startsWith(`${problem}-`)) return;
    finished.add(jobId);
    wake();
  };
  events.on('completed', onFinished);
  events.on('failed', onFinished);
  try {
    await withTimeout(Promise.all([queue.waitUntilReady(), events.waitUntilReady()]), 5000, 'no answer').catch((error) => {
      throw unavailable(target, error);
    });
    const poller = new Poller(client, queue, target, slots);
    // Parts finished earlier are reused; parts that failed earlier are tried again.
    await poller.poll(slots);
    // Progress counts parts: a job counts as many as it runs.
    const partsOf = (list: Slot[]): number => list.reduce((sum, slot) => sum + slot.size, 0);
    const reused = partsOf(slots.filter((slot) => 'result' in slot));
    const failed = poller.failed.splice(0);
    for (const slot of failed) delete slot.result;
    if (failed.length) await withTimeout(Promise.all(failed.map((slot) => queue.remove(slot.id))), 5000, 'no answer');
    poller.open = slots.filter((slot) => !('result' in slot));
    poller.missing = [];
    const missing = slots.map((slot, index) => ({ slot, index })).filter(({ slot }) => !('result' in slot));
    await withTimeout(queue
      .addBulk(
        missing.map(({ index }) => job(index)),
      ), 30_000, 'no answer')
      .catch((error: unknown) => {
        throw unavailable(target, error, 'cannot add the parts to the queue');
      });
    let workers: number | undefined;
    const report = (): void => onProgress?.({ done: tasks.length - partsOf(poller.open), total: tasks.length, workers, reused });
    report();
    let lastWorkers = 0;
    let lastFullPoll = Date.now();
    while (poller.open.length > 0) {
      // Woken by an event (or the signal); every FULL_POLL_MS a poll of every open part.
      if (finished.size === 0) await pause(Math.max(0, FULL_POLL_MS - (Date.now() - lastFullPoll)), signal, (done) => (wake = done));
      wake = () => undefined;
      if (signal?.aborted) break;
      if (Date.now() - lastFullPoll >= FULL_POLL_MS) {
        lastFullPoll = Date.now();
        finished.clear();
        await poller.poll(poller.open);
      } else {
        const ids = new Set(finished);
        finished.clear();
        await poller.poll(poller.open.filter((slot) => ids.has(slot.id)));
      }
      if (poller.failed.length) {
        const slot = poller.failed[0];
        throw partError(String(slot.result), slots.indexOf(slot), slots.length);
      }
      if (poller.missing.length) {
        // Removed by someone else (another coordinator stopped, or a clean): add them again.
        await withTimeout(queue.addBulk(
          poller.missing.splice(0).map((slot) => job(slots.indexOf(slot))),
        ), 5000, 'no answer');
      }
      if (Date.now() - lastWorkers > 2000) {
        lastWorkers = Date.now();
        workers = await withTimeout(queue.getWorkersCount(), 2000, 'no answer').catch(() => workers);
      }
      report();
    }
    if (signal?.aborted) {
      // Parts not started yet are taken off the queue; a part under way finishes and is kept.
      await withTimeout(Promise.all(poller.open.map((slot) => queue.remove(slot.id).catch(() => 0))), 3000, 'timeout').catch(() => undefined);
      throw aborted(signal);
    }
    const results: unknown[] = new Array(tasks.length);
    slots.forEach((slot, job) => {
      const list = decode(slot.result);
      if (!Array.isArray(list) || list.length !== jobs[job].length) throw new BitpuzzleError('ENGINE_FAILURE', `job ${job + 1} of ${slots.length} returned ${describeValue(list)}`);
      jobs[job].forEach((part, i) => (results[part] = list[i]));
    });
    return results;
  } catch (error) {
    if (error instanceof BitpuzzleError) throw error;
    throw unavailable(target, error, 'the queue failed');
  } finally {
    // A queue whose Redis is gone may never finish closing: it is left to the garbage collector.
    await withTimeout(events.close(), 1000, 'timeout').catch(() => void events.disconnect().catch(() => undefined));
    await withTimeout(queue.close(), 1000, 'timeout').catch(() => void queue.disconnect().catch(() => undefined));
    client.disconnect();
  }
}

/** Reads the states of jobs straight from their hashes, many per round trip. */
class Poller {
  /** Slots without a result yet. */
  open: Slot[];
  /** Slots whose job failed (`result` holds the reason). */
  failed: Slot[] = [];
  /** Slots whose job is gone. */
  missing: Slot[] = [];
  private lostSince = 0;

  constructor(
    private readonly client: Redis,
    private readonly queue: Queue,
    private readonly target: QueueTarget,
    slots: Slot[],
  ) {
    this.open = slots.slice();
  }

  async poll(slots: Slot[]): Promise<void> {
    let replies: [Error | null, unknown][];
    try {
      const pipeline = this.client.pipeline();
      for (const slot of slots) pipeline.hmget(this.queue.toKey(slot.id), 'name', 'finishedOn', 'returnvalue', 'failedReason');
      replies = (await withTimeout(pipeline.exec(), 5000, 'no answer')) ?? [];
      const failure = replies.find(([error]) => error);
      if (failure) throw failure[0];
      this.lostSince = 0;
    } catch (error) {
      // A short outage is waited out; a longer one fails the run (finished parts are kept).
      this.lostSince ||= Date.now();
      if (Date.now() - this.lostSince < LOST_MS) return;
      const lost = unavailable(this.target, error, 'lost the queue');
      throw new BitpuzzleError(lost.code, `${lost.message} (finished parts are kept: run the same command again to resume)`);
    }
    slots.forEach((slot, i) => {
      const [name, finishedOn, returnvalue, failedReason] = replies[i][1] as (string | null)[];
      if (name === null) {
        if (!this.missing.includes(slot)) this.missing.push(slot);
        return;
      }
      if (finishedOn === null) return;
      if (returnvalue !== null && returnvalue !== 'null') {
        slot.result = JSON.parse(returnvalue);
      } else if (failedReason !== null) {
        slot.result = failedReason;
        this.failed.push(slot);
      }
    });
    this.open = this.open.filter((slot) => !('result' in slot));
  }
}

/** Waits `ms`, or until the signal aborts, or until the function given to `onWake` is called. */
function pause(ms: number, signal?: AbortSignal, onWake?: (wake: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
    onWake?.(done);
  });
}
