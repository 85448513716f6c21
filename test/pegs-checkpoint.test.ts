// Checkpoints of peg counts: a count stopped (an abort, SIGKILL) and resumed from its folder
// gives the total of an uninterrupted count, doing less work than a fresh one; a folder of
// another count, or a damaged one, is a clear error, never a wrong count.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { pegs } from '../dist/index.js';
import { rejection, tempDir } from './helpers.js';
import { bruteCount } from './pegs-helpers.js';

const bin = fileURLToPath(new URL('../bin/bitpuzzle', import.meta.url));
const ENGLISH = 40861647040079968n;

/** Counts `problem` with a checkpoint in `dir`, aborted once the count reaches level `stopAt`. */
async function stoppedAt(problem: pegs.PegsProblem, dir: string, stopAt: number): Promise<pegs.CheckpointEvent[]> {
  const events: pegs.CheckpointEvent[] = [];
  const controller = new AbortController();
  const error = await rejection(
    pegs.count(problem, { checkpoint: dir, signal: controller.signal, onCheckpoint: (e) => events.push(e), onProgress: (p) => p.done >= stopAt && controller.abort() }),
  );
  expect(error.code).toBe('ABORTED');
  return events;
}

describe('peg count checkpoints', () => {
  it('stopped at each level and resumed, small boards give the brute force total with less work', async () => {
    // Counts of several steps of work (a small one is done in the first run call, before any stop).
    const problems = [
      ...['c5', 'a1', 'c3'].map((start) => pegs.toProblem({ board: 'triangle6', start, finish: 'any' })),
      ...['c5', 'a1', 'c3'].map((hole) => pegs.toProblem({ board: 'triangle6', start: hole, finish: hole })),
    ];
    let resumedMidway = 0;
    for (const problem of problems) {
      const expected = bruteCount(problem.board.jumps, Number(problem.start), problem.finishes.map(Number));
      const plain = await pegs.count(problem, { checkpoint: tempDir('bitpuzzle-ck-') });
      expect(plain.total).toBe(expected);
      for (const stopAt of [1, 2, 4]) {
        const dir = tempDir('bitpuzzle-ck-');
        const saved = await stoppedAt(problem, dir, stopAt);
        expect(saved.map((e) => e.kind)).toEqual(['saved']);
        const events: pegs.CheckpointEvent[] = [];
        const resumed = await pegs.count(problem, { checkpoint: dir, onCheckpoint: (e) => events.push(e) });
        expect(resumed.total).toBe(expected);
        expect(resumed.stats.nodes).toBe(plain.stats.nodes);
        expect(resumed.levels).toEqual(plain.levels);
        expect(events.map((e) => e.kind)).toEqual(['resumed', 'finished']);
        expect(events[0].step).toBe(saved[0].step);
        if (events[0].nodes > 0n) resumedMidway++;
        // A finished folder answers at once, with the same answer.
        const again: pegs.CheckpointEvent[] = [];
        const answered = await pegs.count(problem, { checkpoint: dir, onCheckpoint: (e) => again.push(e) });
        expect([answered.total, answered.levels]).toEqual([expected, plain.levels]);
        expect(again.map((e) => e.kind)).toEqual(['answered']);
        expect(readdirSync(dir)).toEqual(['checkpoint.json']);
      }
    }
    // The resumed counts went on from work done before the stop (the nodes it had expanded).
    expect(resumedMidway).toBeGreaterThanOrEqual(problems.length);
  });

  it('with the levels on disk: stopped after one save or several (levels in parts, joins), resumed to the total of a count forward', async () => {
    const { countBothEnds } = await import('../dist/pegs/meet.js');
    const problems = [pegs.toProblem({ board: 'triangle6', start: 'c5', finish: 'any' }), pegs.toProblem({ board: 'oooooo\noooooo\noo.ooo\noooooo', start: 'c3', finish: 'c3' })];
    for (const problem of problems) {
      // The count forward from the start alone (the engine's other method, on one thread).
      const expected = (await pegs.count(problem, { threads: 1 })).total;
      // On disk from the first level, in parts, a checkpoint every 20 ms (about 10 a count).
      const options = { spill: 'always', windowBytes: 4096, fewestParts: 3, checkpointEvery: 20 } as const;
      const plain = await countBothEnds(problem, 64 << 20, { ...options, checkpoint: tempDir('bitpuzzle-ck-') });
      expect(plain.total).toBe(expected);
      expect(plain.partFiles).toBeGreaterThan(0);
      for (const stopAfter of [1, 3, 6, 9]) {
        const dir = tempDir('bitpuzzle-ck-');
        const controller = new AbortController();
        let saves = 0;
        const stopped = countBothEnds(problem, 64 << 20, {
          ...options,
          checkpoint: dir,
          signal: controller.signal,
          onCheckpoint: (e: pegs.CheckpointEvent) => e.kind === 'saved' && ++saves >= stopAfter && controller.abort(),
        });
        const error = await stopped.then(() => null, (e: unknown) => e as { code: string });
        if (error === null) continue; // done before that many saves
        expect(error.code).toBe('ABORTED');
        expect(readdirSync(join(dir, 'levels')).length).toBeGreaterThan(0); // the levels stay for the resume
        const events: pegs.CheckpointEvent[] = [];
        const resumed = await countBothEnds(problem, 64 << 20, { ...options, checkpoint: dir, onCheckpoint: (e: pegs.CheckpointEvent) => events.push(e) });
        expect(resumed.total).toBe(expected);
        expect(resumed.nodes).toBe(plain.nodes);
        expect(events[0].kind).toBe('resumed');
        expect(existsSync(join(dir, 'levels'))).toBe(false); // removed once the count is done
      }
    }
  });

  it('OUT_OF_DISK leaves the last checkpoint, which resumes once there is room', async () => {
    const { countBothEnds } = await import('../dist/pegs/meet.js');
    const problem = pegs.toProblem({ board: 'oooooo\noooooo\noo.ooo\noooooo', start: 'c3', finish: 'c3' });
    const expected = (await pegs.count(problem, { threads: 1 })).total;
    const options = { spill: 'always', windowBytes: 4096, fewestParts: 3, checkpointEvery: 10 } as const;
    const dir = tempDir('bitpuzzle-ck-');
    let saves = 0;
    const full = await countBothEnds(problem, 64 << 20, { ...options, checkpoint: dir, maxDisk: 600_000, onCheckpoint: (e: pegs.CheckpointEvent) => e.kind === 'saved' && saves++ }).then(
      () => null,
      (e: unknown) => e as { code: string; message: string },
    );
    expect(full?.code).toBe('OUT_OF_DISK');
    expect(saves).toBeGreaterThan(0);
    expect(existsSync(join(dir, 'checkpoint.json'))).toBe(true);
    const events: pegs.CheckpointEvent[] = [];
    const resumed = await countBothEnds(problem, 64 << 20, { ...options, checkpoint: dir, onCheckpoint: (e: pegs.CheckpointEvent) => events.push(e) });
    expect(resumed.total).toBe(expected);
    expect(events[0]).toMatchObject({ kind: 'resumed' });
    expect(events[0].nodes).toBeGreaterThan(0n);
  });

  it('the fewest moves by levels (lengthOnly) stop and resume the same way', async () => {
    for (const start of ['c5', 'a1']) {
      const problem = pegs.toProblem({ board: 'triangle6', start, finish: 'any' });
      const plain = (await pegs.minMoves(problem, { lengthOnly: true }))!;
      const dir = tempDir('bitpuzzle-ck-');
      const controller = new AbortController();
      const stop = pegs.minMoves(problem, { lengthOnly: true, checkpoint: dir, signal: controller.signal, onProgress: (p) => p.done >= 3 && controller.abort() });
      expect((await rejection(stop)).code).toBe('ABORTED');
      const events: pegs.CheckpointEvent[] = [];
      const resumed = (await pegs.minMoves(problem, { lengthOnly: true, checkpoint: dir, onCheckpoint: (e) => events.push(e) }))!;
      expect([resumed.length, resumed.stats.nodes]).toEqual([plain.length, plain.stats.nodes]);
      expect(events.map((e) => e.kind)).toEqual(['resumed', 'finished']);
      // A count may not take the folder of a search for the fewest moves, nor the other way.
      expect((await rejection(pegs.count(problem, { checkpoint: dir }))).message).toMatch(/another count \(the fewest moves on triangle6/);
    }
    expect((await rejection(pegs.minMoves('triangle5', { checkpoint: tempDir('bitpuzzle-ck-') }))).message).toMatch(/checkpoint goes with lengthOnly: true/);
  });

  it('another count, another maxMemory, a damaged or missing engine file: BAD_INPUT, never a wrong count', async () => {
    const problem = pegs.toProblem({ board: 'triangle6', start: 'c5', finish: 'any' });
    const dir = tempDir('bitpuzzle-ck-');
    await stoppedAt(problem, dir, 3);
    const other = pegs.toProblem({ board: 'triangle6', start: 'a1', finish: 'any' });
    const wrong = await rejection(pegs.count(other, { checkpoint: dir }));
    expect(wrong.code).toBe('BAD_INPUT');
    expect(wrong.message).toMatch(
      /holds the checkpoint of another count \(the count on triangle6 \(21 holes\) from c5 empty to any of \d+ finishes, maxMemory 1073741824\); this one is the count on triangle6 \(21 holes\) from a1 empty/,
    );
    expect((await rejection(pegs.count(problem, { checkpoint: dir, maxMemory: 64 << 20 }))).message).toMatch(/another count/);
    const file = join(dir, readdirSync(dir).find((f) => f.endsWith('.mem'))!);
    const bytes = readFileSync(file);
    bytes[bytes.length >> 1] ^= 0x40;
    writeFileSync(file, bytes);
    const damaged = await rejection(pegs.count(problem, { checkpoint: dir }));
    expect(damaged.code).toBe('BAD_INPUT');
    expect(damaged.message).toMatch(/checkpoint\.json is damaged \(its engine file does not match its checksum\); remove the folder/);
    writeFileSync(file, bytes.subarray(0, 100));
    expect((await rejection(pegs.count(problem, { checkpoint: dir }))).message).toMatch(/its engine file has 100 bytes/);
    writeFileSync(join(dir, 'checkpoint.json'), '{"format":');
    expect((await rejection(pegs.count(problem, { checkpoint: dir }))).message).toMatch(/damaged \(not JSON\)/);
    // How often to save, from the environment: a whole number of milliseconds.
    process.env.BITPUZZLE_CHECKPOINT_MS = 'soon';
    try {
      expect((await rejection(pegs.count(problem, { checkpoint: tempDir('bitpuzzle-ck-') }))).message).toMatch(/BITPUZZLE_CHECKPOINT_MS must be a whole number of milliseconds from 1 up, got "soon"/);
    } finally {
      delete process.env.BITPUZZLE_CHECKPOINT_MS;
    }
    // A first save cut short (an engine file, no checkpoint.json yet): the count starts afresh.
    const cut = tempDir('bitpuzzle-ck-');
    writeFileSync(join(cut, 'engine-0.mem'), 'half');
    writeFileSync(join(cut, 'checkpoint.json.123.tmp'), '{');
    expect((await pegs.count(problem, { checkpoint: cut })).total).toBe(266871356732n);
    expect(readdirSync(cut)).toEqual(['checkpoint.json']);
    // A count killed after it recorded its answer, before it removed its levels: the next run
    // answers from the checkpoint and removes them.
    mkdirSync(join(cut, 'levels'));
    writeFileSync(join(cut, 'levels', 'level-7.bin'), 'stale');
    expect((await pegs.count(problem, { checkpoint: cut })).total).toBe(266871356732n);
    expect(readdirSync(cut)).toEqual(['checkpoint.json']);
    // Options that cannot keep a checkpoint are refused up front.
    for (const [options, message] of [
      [{ checkpoint: dir, threads: 2 }, /checkpoint cannot go with threads: 2/],
      [{ checkpoint: dir, engine: 'js' }, /checkpoint cannot go with engine: 'js'/],
      [{ checkpoint: dir, spillDir: dir }, /checkpoint cannot go with spillDir: checkpoints are of the Wasm count on the calling thread, its levels on disk in the checkpoint's folder/],
      [{ checkpoint: '' }, /checkpoint must be a folder's path/],
      [{ onCheckpoint: () => undefined }, /onCheckpoint goes with checkpoint/],
    ] as const) {
      const error = await rejection(pegs.count(problem, options as pegs.CountOptions));
      expect(error.code).toBe('BAD_INPUT');
      expect(error.message).toMatch(message);
    }
  });

  /**
   * Runs `bitpuzzle ARGS` and kills it with SIGKILL after each of `kills` milliseconds in turn
   * (until a run finishes first); returns the levels it resumed at, and the lines that said so.
   */
  async function killRepeatedly(args: string[], env: NodeJS.ProcessEnv, kills: number[], dir: string): Promise<number[] & { lines?: string[] }> {
    const resumedAt: number[] & { lines?: string[] } = [];
    resumedAt.lines = [];
    for (const killAfter of kills) {
      const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      const timer = setTimeout(() => child.kill('SIGKILL'), killAfter);
      const code = await exited;
      clearTimeout(timer);
      const at = /resuming from the checkpoint in .*: level (\d+) of \d+.*/.exec(stderr);
      if (at) {
        resumedAt.push(Number(at[1]));
        resumedAt.lines!.push(at[0]);
      }
      if (code === 0) break; // finished before the kill: the machine was fast
      expect(readdirSync(dir).filter((f) => f.endsWith('.tmp')).length).toBeLessThanOrEqual(2);
    }
    return resumedAt;
  }

  it('the CLI with the levels on disk: killed again and again (during writes of levels and saves), the English count resumes to its total', async () => {
    const dir = tempDir('bitpuzzle-ck-');
    const args = [bin, 'pegs', '--count', '--spill-above', '16M', '--checkpoint', dir];
    const env = { ...process.env, BITPUZZLE_CHECKPOINT_MS: '300' };
    const resumedAt = await killRepeatedly(args, env, [900, 1500, 2100, 2700, 3300], dir);
    expect(resumedAt.length).toBeGreaterThanOrEqual(2);
    const last = spawnSync(process.execPath, args, { env, encoding: 'utf8', timeout: 120_000 });
    expect(last.status).toBe(0);
    expect(last.stdout).toMatch(new RegExp(`^${ENGLISH} solutions`));
    expect(readdirSync(dir)).toEqual(['checkpoint.json']); // the levels on disk went with the end of the count
    expect(resumedAt.lines!.some((line) => /level \d+ of 16, [\d.]+ MiB of engine state kept and [\d.]+ MiB of levels on disk; [\d.]+ [MG]iB free$/.test(line))).toBe(true);
  }, 180_000);

  it('the CLI: killed with SIGKILL again and again (during levels, saves and the join), the English count resumes to its total', async () => {
    const dir = tempDir('bitpuzzle-ck-');
    const args = [bin, 'pegs', '--count', '--checkpoint', dir, '--json'];
    const env = { ...process.env, BITPUZZLE_CHECKPOINT_MS: '150' };
    const resumedAt = await killRepeatedly(args, env, [700, 1300, 1900, 2500], dir);
    expect(resumedAt.length).toBeGreaterThanOrEqual(2);
    const last = spawnSync(process.execPath, args, { env, encoding: 'utf8', timeout: 120_000 });
    expect(last.status).toBe(0);
    expect(JSON.parse(last.stdout).total).toBe(Number(ENGLISH)); // toJson writes it as a number
    // Ctrl-C (SIGINT) saves a checkpoint and exits 3; the same command then goes on.
    const fresh = tempDir('bitpuzzle-ck-');
    const child = spawn(process.execPath, [bin, 'pegs', '--count', '--checkpoint', fresh], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    await new Promise((r) => setTimeout(r, 1200));
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(code).toBe(3);
    expect(stderr).toMatch(/stopping on SIGINT: saving a checkpoint in/);
    expect(stderr).toMatch(/checkpoint saved in .*: level \d+ of 16/);
    expect(existsSync(join(fresh, 'checkpoint.json'))).toBe(true);
    const after = spawnSync(process.execPath, [bin, 'pegs', '--count', '--checkpoint', fresh], { encoding: 'utf8', timeout: 120_000 });
    expect(after.status).toBe(0);
    expect(after.stdout).toMatch(new RegExp(`^${ENGLISH} solutions`));
    expect(after.stderr).toMatch(/resuming from the checkpoint in .*: level \d+ of 16, [\d.]+ MiB of engine state kept; [\d.]+ [MG]iB free/);
  }, 180_000);
});
