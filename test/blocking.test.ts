// Never block: the heaviest call of each family keeps the event loop turning (no gap of a
// whole search), and an abort fired during the call rejects with ABORTED soon after. The
// bounds are generous on purpose: they catch a search held on the main thread (seconds), not
// a slow machine. Each case is cut short by its abort, so none runs long.
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cover, pegs, polyomino, queens, samegame, sliding, sudoku } from '../dist/index.js';
import { isConstellation } from '../dist/queens/constellations.js';
import { runQueensTask } from '../dist/queens/tasks.js';
import { MAX_ABORT_MS, MAX_DELAY_MS, expectAbortedPromptly, watch } from './helpers.js';

const empty64 = (): number[][] => Array.from({ length: 64 }, () => new Array<number>(64).fill(0));

/** A random SameGame board (a small linear congruential generator, so it is the same every run). */
function randomSameGame(width: number, height: number, colours: number, seed: number): string {
  let state = seed;
  const rows: string[] = [];
  for (let r = 0; r < height; r++) {
    let row = '';
    for (let c = 0; c < width; c++) {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      row += String(1 + ((state >> 8) % colours));
    }
    rows.push(row);
  }
  return rows.join('\n');
}

describe('no call holds the event loop, and an abort stops it', () => {
  it('queens: count(17) on the calling thread, by constellations and by the join', async () => {
    await expectAbortedPromptly((signal) => queens.count(17, { threads: 1, signal, method: 'constellations' }), 400);
    await expectAbortedPromptly((signal) => queens.count(17, { threads: 1, signal }), 400);
  });

  it('queens: one start constellation of n = 32, the widest board, on the calling thread', async () => {
    // Queens (0, 5), (31, 20), (10, 0) and (25, 31): a search of days, cut into slices.
    const code = (5 << 15) | (20 << 10) | (10 << 5) | 25;
    expect(isConstellation(32, code)).toBe(true);
    for (const engine of ['wasm', 'js'] as const) {
      await expectAbortedPromptly((signal) => runQueensTask({ engine, n: 32, constellations: [code] }, signal), 300);
    }
  });

  it('queens: construct(30,000,000) writes its columns in slices', async () => {
    // It takes about 70 ms here: the abort comes well before its end.
    await expectAbortedPromptly((signal) => queens.construct(30_000_000, { signal }), 30);
  });

  it('polyomino: count of 6x15 by L-trominoes on the calling thread', async () => {
    const L = { name: 'L', shape: [[0, 0], [0, 1], [1, 1]], oneSided: true, count: 30 };
    await expectAbortedPromptly((signal) => polyomino.count({ region: '6x15', pieces: [L] }, { threads: 1, signal }), 400);
  });

  it('polyomino: a region of 1,000 cubes prepared in slices (placements, symmetries, the engine input)', async () => {
    // Its preparation held the thread 555 ms in one piece before; the abort comes during it.
    await expectAbortedPromptly((signal) => polyomino.count({ region: '10x10x9', pieces: 'flat-pentacubes' }, { threads: 1, signal }), 60);
    const { maxDelay, error } = await watch((signal) => polyomino.count({ region: '10x10x10', pieces: 'flat-pentacubes' }, { threads: 1, signal }), 60_000);
    expect([error, maxDelay < MAX_DELAY_MS]).toEqual([null, true]);
    expect((await polyomino.count({ region: '10x10x10', pieces: 'flat-pentacubes' })).reason).toMatch(/60 cells.*1000/);
  });

  it('cover: a matrix of 150,000 rows read in slices, as text and as data', async () => {
    // 2,000 columns, 3 a row, the last column in none: read whole (the text held the thread
    // 341 ms in one piece before), then answered by its reason.
    const names = Array.from({ length: 2000 }, (_, c) => `c${c}`);
    const rows = Array.from({ length: 150_000 }, (_, r) => [r % 1999, (r * 7 + 1) % 1999, (r * 13 + 2) % 1999].filter((c, i, all) => all.indexOf(c) === i).map((c) => names[c]));
    const text = `primary: ${names.join(' ')}\n${rows.map((row) => row.join(' ')).join('\n')}`;
    for (const input of [text, { columns: names, rows }]) {
      const { maxDelay, error } = await watch((signal) => cover.count(input, { signal }), 60_000);
      expect([error, maxDelay < MAX_DELAY_MS]).toEqual([null, true]);
      await expectAbortedPromptly((signal) => cover.count(input, { signal }), 50);
    }
    expect((await cover.count(text)).reason).toMatch(/"c1999" is in no row/);
  });

  it('sudoku: an empty 16×16 grid counted and listed on the engine, both engines', async () => {
    const empty16 = Array.from({ length: 16 }, () => new Array<number>(16).fill(0));
    for (const engine of ['wasm', 'js'] as const) {
      await expectAbortedPromptly((signal) => sudoku.count(empty16, { threads: 1, signal, engine }), 300);
      await expectAbortedPromptly(async (signal) => {
        for await (const _ of sudoku.solutions(empty16, { signal, engine })) void _;
      }, 300);
    }
  });

  it('sudoku: an empty 25×25 grid counted', async () => {
    const empty25 = Array.from({ length: 25 }, () => new Array<number>(25).fill(0));
    await expectAbortedPromptly((signal) => sudoku.count(empty25, { threads: 1, signal }), 500);
  });

  it('sudoku: an empty 64×64 grid (a 262,144-row matrix, loaded in slices), counted and solved', async () => {
    await expectAbortedPromptly((signal) => sudoku.count(empty64(), { threads: 1, signal }), 1500);
    await expectAbortedPromptly((signal) => sudoku.solve(empty64(), { signal }), 1500);
  });

  it('pegs: minMoves on the English board', async () => {
    await expectAbortedPromptly((signal) => pegs.minMoves({ board: 'english' }, { signal }), 800);
  });

  it('pegs: count on the English board, on the calling thread and on 2 threads; reachable on one worker thread', async () => {
    await expectAbortedPromptly((signal) => pegs.count({ board: 'english' }, { threads: 1, signal }), 800);
    await expectAbortedPromptly((signal) => pegs.count({ board: 'english' }, { threads: 2, signal }), 1200);
    // Forward on one thread: the shared module's phases on one worker thread.
    await expectAbortedPromptly((signal) => pegs.reachable({ board: 'english' }, { threads: 1, signal }), 1200);
  });

  it('pegs: solve on the French board, its dead-position sets growing past 2^21 slots in pieces', async () => {
    // From c4 to any hole: a set's growth in one piece held the thread 321 ms here.
    const { maxDelay, abortLatency } = await watch((signal) => pegs.solve({ board: 'french', start: 'c4', finish: 'any' }, { signal }), 3000);
    expect(maxDelay).toBeLessThan(MAX_DELAY_MS);
    expect(abortLatency).toBeLessThan(MAX_ABORT_MS); // whether it was aborted or had solved it
  });

  it('sliding: a 4×4 pattern database build, a 5×5 optimal search, a 300×300 constructive solution', async () => {
    const board4 = sliding.randomBoard(4, 4, 5);
    await expectAbortedPromptly((signal) => sliding.solve(board4, { cacheDir: false, signal }), 600);
    const board5 = sliding.randomBoard(5, 5, 5);
    await expectAbortedPromptly((signal) => sliding.solve(board5, { method: 'optimal', heuristic: 'conflict', signal }), 600);
    const board300 = sliding.randomBoard(300, 300, 5);
    await expectAbortedPromptly((signal) => sliding.solve(board300, { lengthOnly: true, signal }), 400);
  });

  it('sliding: a batch on 8 threads whose big boards go on across the threads', async () => {
    const korf = sliding.parseBatch(readFileSync(new URL('./data/korf100.txt', import.meta.url), 'utf8'));
    const boards = [9, 12, 30, 42, 47, 55, 93, 97, 60, 22, 88].map((i) => korf[i - 1].board);
    const options = { goal: 'korf', pdb: '6-6-3', threads: 8, cacheDir: join(tmpdir(), 'bitpuzzle-test-pdb') } as const;
    await sliding.solveBatch(boards.slice(0, 1), options); // the tables built or loaded first
    await expectAbortedPromptly((signal) => sliding.solveBatch(boards, { ...options, signal }), 400);
  });

  it('sliding: a 2048×2048 board checked and handed to the constructive solver in slices', async () => {
    // 4 million cells: the host's checks (tiles, parity, goal labels) take over a second; the
    // first abort comes during them, the second later, when the engine has (on this machine)
    // prepared its memory and tables, in slices too, and is writing moves.
    const board = sliding.randomBoard(2048, 2048, 3);
    await expectAbortedPromptly((signal) => sliding.solve(board, { lengthOnly: true, signal }), 1500);
    await expectAbortedPromptly(async (signal) => {
      for await (const chunk of sliding.moves(board, { signal })) expect(chunk.length).toBeGreaterThan(0);
    }, 3500);
  });

  it('samegame: score on a 20×20 board', async () => {
    const board = randomSameGame(20, 20, 4, 7);
    await expectAbortedPromptly((signal) => samegame.score(board, { time: 30, threads: 1, signal }), 500);
  });

  it('samegame: score on a 32×32 board, its second run on the widest beam', async () => {
    const board = randomSameGame(32, 32, 5, 11);
    // The first run (width 1) takes about 2.5 s, and the node budget sizes the second to the
    // widest beam (16,384 positions): its tables are cleared in pieces, and its first calls
    // are small (a node there is a playout of up to 100 µs). The abort comes during it.
    await expectAbortedPromptly((signal) => samegame.score(board, { maxNodes: 2_000_000_000, threads: 1, signal }), 4000);
  });

  it('samegame: score by NRPA on a 32×32 board (a playout there takes milliseconds)', async () => {
    const board = randomSameGame(32, 32, 5, 13);
    await expectAbortedPromptly((signal) => samegame.score(board, { method: 'nrpa', time: 30, threads: 1, signal }), 600);
  });

  it('samegame: score by Beam NRPA on a 32×32 board', async () => {
    const board = randomSameGame(32, 32, 5, 14);
    await expectAbortedPromptly((signal) => samegame.score(board, { method: 'nrpa', nrpaBeam: 8, time: 30, threads: 1, signal }), 600);
  });

  it('samegame: parallel NRPA (nrpaShared) on 2 threads, aborted after its first batches', async () => {
    const board = randomSameGame(15, 15, 5, 15);
    await expectAbortedPromptly((signal) => samegame.score(board, { method: 'nrpa', nrpaShared: true, time: 30, threads: 2, signal }), 1500);
  });

  it('a call that finishes before the abort does not stall either', async () => {
    const { maxDelay, error } = await watch((signal) => polyomino.count({ region: '6x10' }, { threads: 1, signal }), 60_000);
    expect(error).toBeNull();
    expect(maxDelay).toBeLessThan(MAX_DELAY_MS);
  });
});

describe('yielding', () => {
  it('lets due timers run before the search goes on, also from an I/O callback (a count reading its levels on disk)', async () => {
    const { runSliced, Status } = await import('../dist/wasm/protocol.js');
    const { stat } = await import('node:fs/promises');
    // Resumed from an I/O callback, in the loop's poll phase: an immediate set there runs
    // before the loop's next timers, so one alone would give a due timer no turn.
    await stat('.');
    const order: string[] = [];
    setTimeout(() => order.push('timer'), 0);
    // The timer is due and the last yield at least 30 ms old: runSliced yields first.
    for (const until = performance.now() + 30; performance.now() < until; );
    await runSliced(() => {
      order.push('step');
      return Status.DONE;
    });
    expect(order).toEqual(['timer', 'step']);
  });
});
