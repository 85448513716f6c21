// The queue executor against a real redis-server, with `bitpuzzle worker` child processes;
// and the warm thread pool.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { BitpuzzleError, polyomino, queens, samegame, sliding, sudoku, type Progress } from '../dist/index.js';
import { warmPool } from '../dist/parallel/pool.js';
import { queueClean, queueStatus } from '../dist/queue/admin.js';
import { MAX_JOBS, MAX_PART_BYTES, dealParts, engineVersion } from '../dist/queue/coordinator.js';
import { checkPart } from '../dist/queue/worker.js';
import { REDIS_REQUIRED, freePort, redisAvailable, startRedis, startWorker, type RedisServer, type WorkerProcess } from './redis.js';
import { tempDir } from './helpers.js';

/** A result without its stats (which say how the work ran, not what it found). */
const answer = (result: { stats: unknown }): unknown => ({ ...result, stats: undefined });

/** Sudoku HARD with its first given removed: 507,806 solutions (counted locally in 0.2 s, 1.02 M nodes). */
const SPARSE_SUDOKU = '.........4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6...';

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    expect(error).toBeInstanceOf(BitpuzzleError);
    return (error as BitpuzzleError).code;
  }
}

/** The jobs ("job K of N") a worker logged as finished for `problem`, with the parts each ran. */
const jobsRun = (log: string, problem: string): { job: string; parts: number }[] =>
  log
    .split('\n')
    .map((line) => new RegExp(` ${problem.replace('.', '\\.')} (job \\d+ of \\d+) \\((\\d+) parts?\\): \\d+ ms$`).exec(line))
    .filter((match) => match !== null)
    .map((match) => ({ job: match[1], parts: Number(match[2]) }));

it.runIf(REDIS_REQUIRED && !redisAvailable)('finds redis-server', () => {
  expect(redisAvailable).toBe(true);
});

describe.runIf(redisAvailable)('counts and batches on a queue', () => {
  let redis: RedisServer;
  let workers: WorkerProcess[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    workers = [startWorker(redis.url), startWorker(redis.url)];
    await Promise.all(workers.map((w) => w.waitFor(/worker ready/)));
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop('SIGKILL')));
    await redis?.stop();
  });

  it('through 2 workers equal the local counts (queens, polyomino, sudoku, a sliding batch, a SameGame score)', async () => {
    const url = redis.url;
    const progress: Progress[] = [];
    const q = await queens.count(13, { queue: url, onProgress: (p) => progress.push(p) });
    expect(answer(q)).toEqual(answer(await queens.count(13, { threads: 1 })));
    expect(q.total).toBe(73712n);
    expect(q.stats.parts).toBeGreaterThanOrEqual(64);
    expect(progress.at(-1)).toMatchObject({ done: q.stats.parts, total: q.stats.parts, reused: 0 });
    const joined = await queens.count(14, { queue: url, method: 'join' });
    expect(answer(joined)).toEqual(answer(await queens.count(14, { threads: 1, method: 'join' })));
    expect([joined.total, joined.distinct, joined.method]).toEqual([365596n, 45752n, 'join']);

    const region = { region: '6x10' };
    const p = await polyomino.count(region, { queue: url, threads: 1 });
    expect(answer(p)).toEqual(answer(await polyomino.count(region, { threads: 1 })));
    expect(p.total).toBe(9356n);
    expect(p.stats.parts).toBeGreaterThan(1);

    const s = await sudoku.count(SPARSE_SUDOKU, { queue: url });
    expect(s.total).toBe(507806n);
    expect(s.stats.parts).toBeGreaterThanOrEqual(64);
    expect(s.stats.nodes).toBe((await sudoku.count(SPARSE_SUDOKU, { threads: 1 })).stats.nodes);

    // A batch of 1,465 puzzles, a part of at most 4,096 puzzles, the first with a bad line.
    const set = readFileSync('test/data/sudoku/top1465.txt', 'utf8');
    const first = set.search(/^[0-9.]{81}/m);
    const withBad = `${set.slice(0, first)}x${set.slice(first + 1)}`;
    const batched = await sudoku.batch(withBad, { queue: url });
    expect(batched).toMatchObject({ puzzles: 1465, unique: 1464, invalid: 1 });
    expect(answer(batched)).toEqual(answer(await sudoku.batch(withBad, { threads: 1 })));

    const boards = ['1 2 3 4 5 6 7 8 0', '1 2 3 4 5 6 0 7 8', '8 6 7 2 5 4 3 0 1', '0 1 2 3 4 5 6 7 8'].map((text) => ({ rows: 3, cols: 3, tiles: text.split(' ').map(Number) }));
    const onQueue = await sliding.solveBatch(boards, { queue: url });
    const local = await sliding.solveBatch(boards, { threads: 1 });
    expect(onQueue.map(answer)).toEqual(local.map(answer));
    expect(local.slice(0, 3).map((r) => r.length)).toEqual([0, 2, 31]);

    const board = readFileSync('test/data/samegame-standard.txt', 'utf8').split(/\n\s*\n/)[0];
    const played = await samegame.score(board, { maxNodes: 4000, threads: 2, queue: url });
    expect(answer(played)).toEqual(answer(await samegame.score(board, { maxNodes: 4000, threads: 2 })));
  });

  it.runIf(process.platform === 'linux')('a worker that serves thousands of parts keeps a flat RSS', async () => {
    // A worker of its own whose JavaScript heap may not pass 32 MiB: a leak of what it served
    // would end it (heap out of memory) or show in its RSS. Without the cap V8 lets the heap grow
    // lazily, and the RSS with it, so a leak could not be told from that.
    await Promise.all(workers.map((w) => w.stop('SIGTERM')));
    const capped = startWorker(redis.url, [], { NODE_OPTIONS: '--max-old-space-size=32' });
    try {
      await capped.waitFor(/worker ready/);
      const rss = (): number => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${capped.process.pid}/status`, 'utf8'))![1]) * 1024;
      const expected = (await queens.count(14, { threads: 1 })).total;
      const after: number[] = [];
      let parts = 0;
      for (let round = 0; round < 7; round++) {
        await queueClean(redis.url); // else the finished jobs would be reused, not run again
        const result = await queens.count(14, { queue: redis.url, threads: 1 });
        expect(result.total).toBe(expected);
        parts += result.stats.parts;
        after.push(rss());
      }
      expect(parts).toBeGreaterThan(7000);
      expect(capped.process.exitCode).toBe(null);
      // After the first rounds (the engine, the pool, the heap up to its cap), flat within a few MiB.
      expect(after[6] - after[2]).toBeLessThan(12 << 20);
    } finally {
      await capped.stop('SIGKILL');
      workers = [startWorker(redis.url), startWorker(redis.url)];
      await Promise.all(workers.map((w) => w.waitFor(/worker ready/)));
    }
  });

  it('a worker killed with SIGKILL mid-run: its part goes to another worker, counted once', async () => {
    const extra = startWorker(redis.url);
    await extra.waitFor(/worker ready/);
    const counting = queens.count(15, { queue: redis.url });
    await extra.waitFor(/queens\.\S+ job \d+ of \d+ \(\d+ parts?\): \d+ ms/);
    extra.process.kill('SIGKILL');
    const result = await counting;
    expect(result.total).toBe(2279184n);
    expect(result.distinct).toBe(285053n);
  });

  it('after the coordinator is killed, the same command again recomputes no finished part', async () => {
    const before = new Set((await queueStatus(redis.url)).problems.map((p) => p.problem));
    const args = ['bin/bitpuzzle', 'queens', '16', '--count', '--json', '--method', 'constellations', '--queue', redis.url];
    const first = spawn(process.execPath, args, { stdio: 'ignore' });
    // Wait until some of its parts are done, then kill the coordinator.
    let problem = '';
    for (let i = 0; i < 400 && !problem; i++) {
      await new Promise((r) => setTimeout(r, 50));
      problem = (await queueStatus(redis.url)).problems.find((p) => !before.has(p.problem) && p.parts.completed >= 20)?.problem ?? '';
    }
    first.kill('SIGKILL');
    expect(problem).toMatch(/^queens\./);
    const progress: Progress[] = [];
    const again = await queens.count(16, { queue: redis.url, method: 'constellations', onProgress: (p) => progress.push(p) });
    expect(again.total).toBe(14772512n);
    const reused = progress.find((p) => p.reused !== undefined)!.reused!;
    expect(reused).toBeGreaterThanOrEqual(20);
    // Every job was run exactly once over both runs, by one worker or the other, and the
    // jobs together ran every part (thousands of constellation runs dealt into at most 128 jobs).
    const runs = workers.flatMap((w) => jobsRun(w.log(), problem));
    expect(new Set(runs.map((run) => run.job)).size).toBe(runs.length);
    expect(runs.length).toBeLessThanOrEqual(128);
    expect(runs.reduce((sum, run) => sum + run.parts, 0)).toBe(again.stats.parts);
    expect(again.stats.parts).toBeGreaterThan(1000);
  });

  it('a bad payload fails its job with BAD_INPUT and the worker goes on serving', async () => {
    const queue = new Queue('parts', { connection: { host: '127.0.0.1', port: redis.port }, prefix: 'bitpuzzle' });
    try {
      const engine = await engineVersion();
      const part = { v: 2, kind: 'queens', problem: 'hostile', engine, index: 0, of: 1 };
      const good = { engine: 'wasm', n: 8, mode: 0, allowed: Array(8).fill(255) };
      const payloads = [
        { ...part, tasks: [{ ...good, n: 1e9 }] }, // a huge n
        { ...part, tasks: [{ ...good, allowed: 'all' }] }, // wrong types
        { ...part, kind: 'chess', tasks: [good] }, // an unknown family
        { ...part, v: 1, tasks: [good] }, // another format version
        { ...part, tasks: [{ ...good, extra: 'x'.repeat(9 << 20) }] }, // an oversized body
        { ...part, kind: 'cover', tasks: [{ engine: 'wasm', matrix: { primary: 2, secondary: 0, rowStarts: { $int32: [0, 5] }, cells: { $int32: [0, 1, 2, 3, 4] } }, forced: [], maxMemory: 1 << 20 }] },
        { ...part, tasks: [good, good, { ...good, n: -1 }] }, // one bad part among good ones
        { ...part, tasks: [] }, // no parts
        { ...part, task: good }, // the format of version 1
      ];
      const jobs = await Promise.all(payloads.map((data, i) => queue.add('evil', data, { jobId: `hostile-${i}` })));
      const reasons: string[] = [];
      for (const job of jobs) {
        for (let i = 0; i < 100 && (await queue.getJobState(job.id!)) !== 'failed'; i++) await new Promise((r) => setTimeout(r, 50));
        reasons.push((await queue.getJob(job.id!))!.failedReason);
      }
      for (const reason of reasons) expect(JSON.parse(reason).code).toBe('BAD_INPUT');
      expect(JSON.parse(reasons[0]).message).toMatch(/n must be an integer from 1 to 32/);
      expect(JSON.parse(reasons[2]).message).toMatch(/unknown kind of part "chess"/);
      expect(JSON.parse(reasons[3]).message).toMatch(/format 1; this worker reads format 2/);
      expect(JSON.parse(reasons[6]).message).toMatch(/^part 3 of the job: n must be an integer/);
      expect(JSON.parse(reasons[7]).message).toMatch(/must list from 1 to \d+ parts/);
      expect(JSON.parse(reasons[8]).message).toMatch(/must list from 1 to \d+ parts/);
      // The workers are still serving.
      expect(workers.every((w) => w.process.exitCode === null)).toBe(true);
      expect((await queens.count(10, { queue: redis.url })).total).toBe(724n);
      expect(workers.map((w) => w.log()).join('')).toMatch(/error BAD_INPUT/);
    } finally {
      await queue.close();
    }
  });

  it('abort at the coordinator removes its waiting parts', async () => {
    // A prefix no worker serves: every part stays waiting.
    const url = `${redis.url}?prefix=idle`;
    const controller = new AbortController();
    const counting = sudoku.count(SPARSE_SUDOKU, { queue: url, signal: controller.signal }).catch((e: unknown) => e);
    // The coordinator adds its parts in batches: wait until all of them are there.
    let waiting = 0;
    for (let i = 0; i < 200 && waiting < 64; i++) {
      await new Promise((r) => setTimeout(r, 50));
      waiting = (await queueStatus(url)).problems.reduce((sum, p) => sum + p.parts.waiting, 0);
    }
    expect(waiting).toBeGreaterThanOrEqual(64);
    controller.abort();
    const error = await counting;
    expect(error).toBeInstanceOf(BitpuzzleError);
    expect((error as BitpuzzleError).code).toBe('ABORTED');
    expect((await queueStatus(url)).problems.reduce((sum, p) => sum + p.parts.waiting, 0)).toBe(0);
  });

  it('the CLI: a count and a SameGame batch through the queue, then queue status and queue clean', async () => {
    const cli = (args: string[], env: Record<string, string> = {}) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['bin/bitpuzzle', ...args], { env: { ...process.env, ...env } });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk) => (stdout += chunk));
        child.stderr.on('data', (chunk) => (stderr += chunk));
        child.on('close', (status) => resolve({ status, stdout, stderr }));
      });
    const url = `${redis.url}?prefix=cli`;
    const workerOnPrefix = startWorker(redis.url, ['--prefix', 'cli', '--threads', '1']);
    try {
      await workerOnPrefix.waitFor(/worker ready/);
      // The URL from the environment, so no password would show in the process list.
      const counted = await cli(['queens', '11', '--count', '--queue', '--json'], { BITPUZZLE_QUEUE: url });
      expect(counted.status, counted.stderr).toBe(0);
      expect(JSON.parse(counted.stdout)).toMatchObject({ n: 11, total: 2680, distinct: 341 });
      // Run again: every part is reused, and said so.
      const again = await cli(['queens', '11', '--count', '--queue', url]);
      expect(again.status).toBe(0);
      expect(again.stderr).toMatch(/reusing (\d+) of \1 parts finished earlier/);

      const games = readFileSync('test/data/samegame-standard.txt', 'utf8').split(/\n\s*\n/).slice(0, 2).join('\n\n');
      const file = `${tempDir('bitpuzzle-queue-')}/games.txt`;
      writeFileSync(file, games + '\n');
      const args = ['samegame', '--batch', file, '--score', '--nodes', '3000', '--threads', '1', '--json'];
      const onQueue = await cli([...args, '--queue', url]);
      const local = await cli(args);
      expect(onQueue.status, onQueue.stderr).toBe(0);
      const strip = (text: string) => {
        const { stats: _, boards, ...rest } = JSON.parse(text);
        return { ...rest, boards: boards.map(({ stats: __, ...board }: { stats: unknown }) => board) };
      };
      expect(strip(onQueue.stdout)).toEqual(strip(local.stdout));

      const status = JSON.parse((await cli(['queue', 'status', url, '--json'])).stdout);
      const problem = status.problems.find((p: { problem: string }) => p.problem.startsWith('queens.'));
      expect(problem.parts.completed).toBeGreaterThanOrEqual(64);
      const cleaned = await cli(['queue', 'clean', problem.problem], { BITPUZZLE_QUEUE: url });
      expect(cleaned.status, cleaned.stderr).toBe(0);
      expect(cleaned.stdout).toMatch(new RegExp(`removed ${problem.parts.completed} part`));
      const after = JSON.parse((await cli(['queue', 'status', url, '--json'])).stdout);
      expect(after.problems.map((p: { problem: string }) => p.problem)).not.toContain(problem.problem);
    } finally {
      await workerOnPrefix.stop('SIGTERM');
    }
  });

  it('a SIGTERM stops a worker cleanly with exit status 0', async () => {
    const w = startWorker(redis.url);
    await w.waitFor(/worker ready/);
    const code = await w.stop('SIGTERM');
    expect({ code, signal: w.process.signalCode, log: w.log() }).toMatchObject({ code: 0, signal: null });
    expect(w.log()).toMatch(/worker stopped/);
  });
});

describe.runIf(redisAvailable)('an unusable queue fails promptly with QUEUE_UNAVAILABLE', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis({ password: 'right' });
  });
  afterAll(async () => redis?.stop());

  it('a wrong password, an unreachable port, and Redis gone mid-run', async () => {
    const started = Date.now();
    expect(await codeOf(queens.count(12, { queue: `redis://:wrong@127.0.0.1:${redis.port}` }))).toBe('QUEUE_UNAVAILABLE');
    expect(await codeOf(queens.count(12, { queue: `redis://127.0.0.1:${await freePort()}` }))).toBe('QUEUE_UNAVAILABLE');
    expect(Date.now() - started).toBeLessThan(10_000);
    // The right password works (no worker: the parts wait), until the server dies.
    let added = (): void => undefined;
    const enqueued = new Promise<void>((resolve) => (added = resolve));
    const counting = queens.count(12, { queue: redis.url, onProgress: () => added() });
    await enqueued;
    await new Promise((r) => setTimeout(r, 200));
    redis.process.kill('SIGKILL');
    expect(await codeOf(counting)).toBe('QUEUE_UNAVAILABLE');
  });

  it('the CLI says so in one line, without a stack trace or the password', async () => {
    const child = spawn(process.execPath, ['bin/bitpuzzle', 'queens', '12', '--count', '--queue'], {
      env: { ...process.env, BITPUZZLE_QUEUE: `redis://:hunter2@127.0.0.1:${await freePort()}` },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/QUEUE_UNAVAILABLE/);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stderr).not.toMatch(/hunter2/);
  });
});

describe('the warm pool', () => {
  it('is reused by later calls, across families', async () => {
    const pool = await warmPool();
    expect((await queens.count(15, { threads: 2 })).stats.threads).toBe(2);
    const started = pool.started;
    expect(started).toBeGreaterThanOrEqual(1);
    expect((await sudoku.count(SPARSE_SUDOKU, { threads: 2 })).stats.threads).toBe(2);
    expect((await queens.count(15, { threads: 2 })).total).toBe(2279184n);
    expect(pool.started).toBe(started);
  });

  it('lets a process with only idle threads exit by itself', async () => {
    const script = "const { queens } = await import('./dist/index.js'); const r = await queens.count(15, { threads: 2 }); console.log(String(r.total));";
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const code = await new Promise((resolve) => child.once('exit', (c, signal) => resolve(signal ?? c)));
    clearTimeout(timer);
    expect(code).toBe(0);
    expect(out.trim()).toBe('2279184');
  });
});

describe('parts dealt into jobs (no Redis needed)', () => {
  it('at most 128 jobs, each part in one of them, dealt in turn; more where a job would pass the byte limit', () => {
    const small = Array.from({ length: 1000 }, (_, i) => `part ${i}`);
    const jobs = dealParts(small);
    expect(jobs.length).toBe(MAX_JOBS);
    expect(jobs.flat().sort((a, b) => a - b)).toEqual(small.map((_, i) => i));
    expect(jobs[3].slice(0, 3)).toEqual([3, 3 + MAX_JOBS, 3 + 2 * MAX_JOBS]);
    expect(dealParts(small.slice(0, 5))).toEqual([[0], [1], [2], [3], [4]]);
    // 1,000 parts of 1/200 of the limit: 128 jobs of 8 would fit, 16 would not.
    const big = Array.from({ length: 1000 }, () => 'x'.repeat(Math.floor(MAX_PART_BYTES / 200)));
    expect(dealParts(big).length).toBe(MAX_JOBS);
    const bigger = Array.from({ length: 1000 }, () => 'x'.repeat(Math.floor(MAX_PART_BYTES / 5)));
    const dealt = dealParts(bigger);
    expect(dealt.length).toBeGreaterThan(MAX_JOBS);
    for (const job of dealt) expect(job.reduce((sum, i) => sum + bigger[i].length + 1, 0)).toBeLessThanOrEqual(MAX_PART_BYTES);
  });
});

describe('a part checked as untrusted input (no Redis needed)', () => {
  it('a BigInt where an integer belongs is BAD_INPUT with a readable message, not a crash of the message', () => {
    const part = (task: unknown) => ({ v: 2, kind: 'queens', engine: 'e', index: 0, of: 1, problem: 'p', tasks: [task] });
    const good = checkPart(part({ engine: 'wasm', n: 8, mode: 0, allowed: Array(8).fill(255) }), 'e');
    expect(good.tasks[0]).toMatchObject({ n: 8 });
    for (const task of [
      { engine: 'wasm', n: { $bigint: '8' }, mode: 0, allowed: Array(8).fill(255) },
      { engine: 'wasm', n: 8, mode: 0, allowed: [{ $bigint: '255' }] },
    ]) {
      let error: unknown;
      try {
        checkPart(part(task), 'e');
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(BitpuzzleError);
      expect((error as BitpuzzleError).code).toBe('BAD_INPUT');
      expect((error as BitpuzzleError).message).toMatch(/must be an integer from \d+ to \d+, got 8|got 255/);
    }
  });
});

