import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { queens, sliding } from '../dist/index.js';
import { random, rejection, tempDir } from './helpers.js';

// Pattern databases persist across runs here (built once, ~5 s); the cache tests use their own.
const cacheDir = join(tmpdir(), 'bitpuzzle-test-pdb');
const korf = sliding.parseBatch(readFileSync(new URL('./data/korf100.txt', import.meta.url), 'utf8'));
const KORF_GOAL = 'korf' as const;

// ---- independent oracles: plain breadth-first search over permutations --------------------

/** A board of up to 13 cells as one number: 4 bits a tile. */
const keyOf = (tiles: ArrayLike<number>): number => Array.from(tiles).reduce((key, t) => key * 16 + t, 0);
const tilesOf = (key: number, n: number): number[] =>
  Array.from({ length: n }, (_, i) => Math.floor(key / 16 ** (n - 1 - i)) % 16);

/** Distances from the default goal of every state reachable on a rows×cols board (keys: keyOf). */
const searched = new Map<string, Map<number, number>>();
function bfsFromGoal(rows: number, cols: number): Map<number, number> {
  const known = searched.get(`${rows}x${cols}`);
  if (known) return known;
  const n = rows * cols;
  const goal = Array.from({ length: n }, (_, i) => (i + 1) % n);
  const seen = new Map<number, number>([[keyOf(goal), 0]]);
  let frontier = [goal];
  for (let d = 1; frontier.length; d++) {
    const next: number[][] = [];
    for (const state of frontier) {
      const b = state.indexOf(0);
      const r = Math.floor(b / cols);
      const c = b % cols;
      for (const [dr, dc] of [[-1, 0], [1, 0], [0, -1], [0, 1]]) {
        if (r + dr < 0 || r + dr >= rows || c + dc < 0 || c + dc >= cols) continue;
        const t = (r + dr) * cols + c + dc;
        const child = state.slice();
        child[b] = child[t];
        child[t] = 0;
        const key = keyOf(child);
        if (!seen.has(key)) {
          seen.set(key, d);
          next.push(child);
        }
      }
    }
    frontier = next;
  }
  searched.set(`${rows}x${cols}`, seen);
  return seen;
}

function permutations(n: number): number[][] {
  if (n === 1) return [[0]];
  const out: number[][] = [];
  for (const p of permutations(n - 1)) for (let i = 0; i <= p.length; i++) out.push([...p.slice(0, i), n - 1, ...p.slice(i)]);
  return out;
}

const boardOf = (rows: number, cols: number, tiles: number[]): sliding.Board => ({ rows, cols, tiles: Uint32Array.from(tiles) });

function expectSolves(board: sliding.Board, result: sliding.SlidingSolution, goal: sliding.GoalInput = 'default'): void {
  expect(result.moves).not.toBeNull();
  expect(result.length).toBe(result.moves!.length);
  expect(sliding.isSolution(board, result.moves!, sliding.toGoal(goal, board.rows, board.cols))).toBe(true);
  expect(result.tiles).toEqual(sliding.tilesMoved(board, result.moves!));
}

// ---- the 8-puzzle ---------------------------------------------------------------------------

describe('the 8-puzzle against a breadth-first search of all its states', () => {
  const distances = bfsFromGoal(3, 3);
  const byDistance = [...distances.entries()];
  const hardest = byDistance.filter(([, d]) => d === 31);

  it('181,440 states are reachable; the farthest need 31 moves, exactly 2 of them', () => {
    expect(distances.size).toBe(181440);
    let farthest = 0;
    for (const d of distances.values()) farthest = Math.max(farthest, d);
    expect(farthest).toBe(31);
    expect(hardest.length).toBe(2);
  });

  it('the optimal solver finds 31 moves for both hardest states (both engines, two heuristics)', async () => {
    for (const [key] of hardest) {
      const board = boardOf(3, 3, tilesOf(key, 9));
      for (const engine of ['wasm', 'js'] as const) {
        for (const heuristic of ['manhattan', 'conflict'] as const) {
          const result = await sliding.solve(board, { engine, heuristic });
          expect(result.length).toBe(31);
          expect(result.optimal).toBe(true);
          expectSolves(board, result);
        }
      }
    }
  });

  it('optimal lengths equal the breadth-first distances on a random sample', async () => {
    const next = random(8);
    for (let i = 0; i < 60; i++) {
      const [key, distance] = byDistance[Math.floor(next() * byDistance.length)];
      const board = boardOf(3, 3, tilesOf(key, 9));
      const result = await sliding.solve(board, { engine: i % 2 ? 'js' : 'wasm', heuristic: i % 3 ? 'conflict' : 'patterns', cacheDir });
      expect(result.length).toBe(distance);
      expectSolves(board, result);
    }
  });
});

describe('solvability: permutation parity against the blank distance, odd and even widths', () => {
  for (const [rows, cols] of [[2, 3], [3, 2], [2, 4], [4, 2]] as const) {
    it(`${rows}×${cols}: the rule agrees with a breadth-first search over all ${rows * cols}! boards`, () => {
      const reachable = bfsFromGoal(rows, cols);
      const goal = sliding.toGoal('default', rows, cols);
      let solvable = 0;
      for (const tiles of permutations(rows * cols)) {
        const verdict = sliding.solvability(boardOf(rows, cols, tiles), goal);
        expect(verdict.solvable).toBe(reachable.has(keyOf(tiles)));
        if (verdict.solvable) solvable++;
        else expect(verdict.reason).toMatch(/permutation .* blank is \d+ moves from its goal cell/);
      }
      expect(solvable).toBe(reachable.size);
      expect(solvable * 2).toBe(permutations(rows * cols).length);
    });
  }

  it('an unsolvable board is UNSOLVABLE with the reason (odd width and even width)', async () => {
    for (const text of ['2 1 3\n4 5 6\n7 8 _', '2 1 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 _']) {
      const error = await rejection(sliding.solve(text));
      expect(error.code).toBe('UNSOLVABLE');
      expect(error.message).toMatch(/odd permutation of the goal but the blank is 0 moves/);
    }
    // The tiles in reading order with the blank moved up a row: solvable on an odd width,
    // not on an even one (where the blank's row counts).
    expect(sliding.solvability(sliding.parseBoard('1 2 3\n4 5 _\n6 7 8'), sliding.toGoal('default', 3, 3)).solvable).toBe(true);
    expect(sliding.solvability(sliding.parseBoard('1 2 3 4\n5 6 7 8\n9 10 11 _\n12 13 14 15'), sliding.toGoal('default', 4, 4)).solvable).toBe(false);
  });
});

describe('big boards are checked in slices, exactly', () => {
  // 600×600: 360,000 cells, so every check runs in many pieces and the parity's cycles are
  // walked across pieces.
  const rows = 600;
  const cols = 600;

  it('two tiles swapped on a solvable board make it UNSOLVABLE, by the async and the sync checks alike', async () => {
    const board = sliding.randomBoard(rows, cols, 9);
    expect(sliding.solvability(board).solvable).toBe(true);
    // The constructive solver starts on the board: it passed the checks.
    const stream = sliding.moves(board);
    const first = await stream.next();
    await stream.return(undefined);
    expect(first.done).toBe(false);
    expect(first.value).toMatch(/^[UDLR]+$/);
    const tiles = board.tiles.slice();
    const [a, b] = tiles[0] !== 0 && tiles[1] !== 0 ? [0, 1] : [2, 3];
    [tiles[a], tiles[b]] = [tiles[b], tiles[a]];
    const swapped = { rows, cols, tiles };
    expect(sliding.solvability(swapped).solvable).toBe(false);
    const error = await rejection(sliding.solve(swapped, { lengthOnly: true }));
    expect(error.code).toBe('UNSOLVABLE');
    expect(error.message).toMatch(/permutation of the goal but the blank is \d+ moves from its goal cell/);
  });

  it('a duplicated tile in a big text board is named by its line and column', async () => {
    const lines: string[] = [];
    for (let r = 0; r < rows; r++) {
      const row: number[] = [];
      for (let c = 0; c < cols; c++) row.push((r * cols + c + 1) % (rows * cols));
      lines.push(row.join(' '));
    }
    // Tile 7 written again in line 400, column 1 (in place of tile 239,401).
    lines[399] = lines[399].replace(/^\d+/, '7');
    const error = await rejection(sliding.solve(lines.join('\n'), { lengthOnly: true }));
    expect(error.code).toBe('BAD_INPUT');
    expect(error.message).toContain('duplicated tile 7 at line 1, column 13 and line 400, column 1');
    expect(error.message).toContain('missing tile 239401');
  });
});

// ---- the 15-puzzle ------------------------------------------------------------------------

describe("Korf's 15-puzzle instances", () => {
  it('instance 1 with plain Manhattan distance: 57 moves and exactly 276,361,933 nodes', async () => {
    const result = await sliding.solve(korf[0].board, { goal: KORF_GOAL, heuristic: 'manhattan' });
    expect(result.length).toBe(57);
    expect(result.stats.nodes).toBe(276361933n);
    expectSolves(korf[0].board, result, KORF_GOAL);
  });

  const quick = [2, 9, 12, 13, 19, 28, 30, 31, 42, 46, 47, 48, 55, 61, 65, 71, 73, 74, 79, 81, 85, 86, 93, 95, 96, 97];
  it(`${quick.length} instances solved optimally with the 6-6-3 pattern databases match the published lengths`, async () => {
    for (const number of quick) {
      const { board, expected } = korf[number - 1];
      const result = await sliding.solve(board, { goal: KORF_GOAL, cacheDir });
      expect(result.heuristic).toBe('patterns');
      expect(result.length).toBe(expected);
      expect(result.optimal).toBe(true);
      expectSolves(board, result, KORF_GOAL);
    }
  });

  it('the TS twin visits the same nodes and finds the same moves', async () => {
    for (const number of [42, 93, 97]) {
      const { board } = korf[number - 1];
      const wasm = await sliding.solve(board, { goal: KORF_GOAL, cacheDir });
      const js = await sliding.solve(board, { goal: KORF_GOAL, cacheDir, engine: 'js' });
      expect(js.moves).toBe(wasm.moves);
      expect(js.stats.nodes).toBe(wasm.stats.nodes);
    }
  });

  it('tables survive other engines: after another family resets the shared arena they are reloaded', async () => {
    const { board } = korf[41];
    const before = await sliding.solve(board, { goal: KORF_GOAL, cacheDir });
    // The same Wasm instance goes back to the pool; N-Queens resets its arena.
    expect((await queens.count(8, { threads: 1 })).total).toBe(92n);
    const after = await sliding.solve(board, { goal: KORF_GOAL, cacheDir });
    expect(after.moves).toBe(before.moves);
    expect(after.stats.nodes).toBe(before.stats.nodes);
  });

  it('a batch on two threads gives the results of one thread, in input order', async () => {
    const boards = [9, 12, 30, 42, 47, 55, 93, 97].map((i) => korf[i - 1].board);
    const one = await sliding.solveBatch(boards, { goal: KORF_GOAL, threads: 1, cacheDir });
    const progress: number[] = [];
    const two = await sliding.solveBatch(boards, { goal: KORF_GOAL, threads: 2, cacheDir, onProgress: (p) => progress.push(p.done) });
    expect(two.map((r) => r.moves)).toEqual(one.map((r) => r.moves));
    expect(two.map((r) => r.stats.nodes)).toEqual(one.map((r) => r.stats.nodes));
    expect(one.map((r) => r.length)).toEqual([9, 12, 30, 42, 47, 55, 93, 97].map((i) => korf[i - 1].expected));
    expect(progress.at(-1)).toBe(boards.length);
  });

  it('a batch on 8 threads hands a big board over to every thread: the moves and nodes of one thread', async () => {
    // Instance 60 (10.9 M nodes) comes last: it starts once others have finished, so its last
    // iterations (millions of nodes) go on across the threads.
    const numbers = [9, 12, 30, 42, 47, 55, 93, 97, 60];
    const boards = numbers.map((i) => korf[i - 1].board);
    const one = await sliding.solveBatch(boards, { goal: KORF_GOAL, threads: 1, pdb: '6-6-3', cacheDir });
    const progress: number[] = [];
    const eight = await sliding.solveBatch(boards, { goal: KORF_GOAL, threads: 8, pdb: '6-6-3', cacheDir, onProgress: (p) => progress.push(p.done) });
    expect(eight.map((r) => r.moves)).toEqual(one.map((r) => r.moves));
    expect(eight.map((r) => r.stats.nodes)).toEqual(one.map((r) => r.stats.nodes));
    expect(one.map((r) => r.length)).toEqual(numbers.map((i) => korf[i - 1].expected));
    expect(one.at(-1)!.stats.parts).toBe(1);
    expect(eight.at(-1)!.stats).toMatchObject({ threads: 8 });
    expect(eight.at(-1)!.stats.parts).toBeGreaterThan(1);
    expect(progress.at(-1)).toBe(boards.length);
    // Limits keep every board on one thread (a limit is per board).
    const limited = await sliding.solveBatch(boards, { goal: KORF_GOAL, threads: 8, pdb: '6-6-3', cacheDir, timeLimit: 60_000 });
    expect(limited.map((r) => r.stats.parts)).toEqual(boards.map(() => 1));
  });

  it('the engine pauses as each iteration begins, with the nodes before it: Wasm and the TS twin alike', async () => {
    const { wasmOptimalEngine } = await import('../dist/sliding/engine.js');
    const { ReferenceOptimalEngine } = await import('../dist/sliding/reference.js');
    const { acquireEngine, releaseEngine } = await import('../dist/wasm/module.js');
    // Instance 1 with Manhattan distance (no tables), through its first iterations.
    const labels = korf[0].board.tiles;
    const iterations = (engine: import('../dist/sliding/engine.js').OptimalEngine): Array<[number, bigint, bigint]> => {
      expect(engine.start(labels, 4, 4, 0, 0, 0, false)).toBe(0); // DONE: started
      engine.pauseAtIterations();
      const seen: Array<[number, bigint, bigint]> = [[engine.bound(), engine.nodes(), engine.iterationNodes()]];
      while (engine.bound() < 49) {
        // MORE: paused as the next iteration begins (its bound set); the twin also stops a call
        // that has held the thread TWIN_CALL_MS, and goes on from there.
        const bound = engine.bound();
        do expect(engine.run(1 << 30)).toBe(2);
        while (engine.bound() === bound);
        seen.push([engine.bound(), engine.nodes(), engine.iterationNodes()]);
      }
      return seen;
    };
    const exports = await acquireEngine();
    let wasm: Array<[number, bigint, bigint]>;
    try {
      wasm = iterations(wasmOptimalEngine(exports));
    } finally {
      releaseEngine(exports);
    }
    expect(wasm.map(([bound]) => bound)).toEqual([41, 43, 45, 47, 49]);
    for (const [, nodes, before] of wasm) expect(nodes).toBe(before); // nothing of the new iteration searched
    expect(wasm[0][1]).toBe(1n); // the root
    for (let i = 1; i < wasm.length; i++) expect(wasm[i][1]).toBeGreaterThan(wasm[i - 1][1]);
    expect(iterations(new ReferenceOptimalEngine())).toEqual(wasm);
  });

  it('a limit gives an anytime answer: the proved lower bound and a path, not marked optimal', async () => {
    const { board, expected } = korf[0];
    const goal = sliding.toGoal(KORF_GOAL, 4, 4);
    const result = await sliding.solve(board, { goal: KORF_GOAL, heuristic: 'conflict', nodeLimit: 100_000 });
    expect(result.method).toBe('optimal');
    expect(result.optimal).toBe(false);
    expect(result.lowerBound).toBeGreaterThan(40);
    expect(result.lowerBound).toBeLessThanOrEqual(expected!);
    expect(result.lowerBound % 2).toBe(expected! % 2); // raised to the parity of every solution
    expect(result.stats.nodes).toBeLessThanOrEqual(100_000n);
    // The path is a real solution, no shorter than the optimum; tiles match the moves.
    expect(sliding.isSolution(board, result.moves!, goal)).toBe(true);
    expect(result.length).toBe(result.moves!.length);
    expect(result.length!).toBeGreaterThanOrEqual(expected!);
    expect(result.tiles).toEqual(sliding.tilesMoved(board, result.moves!));
    const timed = await sliding.solve(board, { goal: KORF_GOAL, heuristic: 'manhattan', timeLimit: 50 });
    expect(timed.optimal).toBe(false);
    expect(timed.lowerBound).toBeLessThanOrEqual(expected!);
    expect(sliding.isSolution(board, timed.moves!, goal)).toBe(true);
    // A batch the limit stops answers the same way, per board, in input order.
    const batch = await sliding.solveBatch([korf[0].board, korf[1].board], { goal: KORF_GOAL, heuristic: 'conflict', nodeLimit: 1000, threads: 1 });
    batch.forEach((r, i) => {
      expect(r.optimal).toBe(false);
      expect(r.lowerBound).toBeLessThanOrEqual(korf[i].expected!);
      expect(sliding.isSolution(korf[i].board, r.moves!, goal)).toBe(true);
    });
    // A bound the path meets proves it optimal: a 3×3 board, the limit past its last iteration's start.
    const easy = await sliding.solve('1 2 3\n4 5 6\n_ 7 8', { nodeLimit: 1 });
    expect(easy).toMatchObject({ length: 2, optimal: true, lowerBound: 2 });
  });

  it('onBound reports each IDA* iteration as it begins: bounds rising by two, nodes growing', async () => {
    const { board, expected } = korf[0];
    const seen: Array<{ bound: number; nodes: bigint; milliseconds: number }> = [];
    const result = await sliding.solve(board, { goal: KORF_GOAL, heuristic: 'manhattan', nodeLimit: 3_000_000, onBound: (p) => seen.push(p) });
    expect(seen.length).toBeGreaterThan(1);
    expect(seen[0]).toMatchObject({ bound: 41, nodes: 1n, milliseconds: 0 }); // instance 1's Manhattan distance
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i].bound).toBeGreaterThan(seen[i - 1].bound);
      expect((seen[i].bound - seen[0].bound) % 2).toBe(0);
      expect(seen[i].nodes).toBeGreaterThan(seen[i - 1].nodes);
    }
    expect(seen.at(-1)!.bound).toBeLessThanOrEqual(result.lowerBound);
    expect(result.lowerBound).toBeLessThanOrEqual(expected!);
    expect((await rejection(sliding.solve(board, { onBound: 1 as never }))).message).toMatch(/onBound must be a function/);
    expect((await rejection(sliding.solveBatch([board], { onBound: () => {} } as never))).message).toMatch(/onBound/);
  });

  it('more than 10 threads raise no MaxListenersExceededWarning (a lane listens to one signal each)', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const controller = new AbortController();
      // The pool's lanes (a count's parts) and a board's split parts, 12 at a time.
      expect((await queens.count(15, { method: 'constellations', threads: 12, signal: controller.signal })).total).toBe(2279184n);
      const split = await sliding.solve(korf[59].board, { goal: KORF_GOAL, pdb: '6-6-3', threads: 12, cacheDir, signal: controller.signal });
      expect(split.length).toBe(korf[59].expected);
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on a later tick
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
  });

  it('one board on two threads (the tree split into parts) finds the same moves with the same node count', async () => {
    for (const i of [0, 8, 9]) {
      const { board, expected } = korf[i];
      const one = await sliding.solve(board, { goal: KORF_GOAL, cacheDir });
      const two = await sliding.solve(board, { goal: KORF_GOAL, cacheDir, threads: 2 });
      expect(two).toMatchObject({ length: expected, optimal: true, moves: one.moves });
      expect(two.stats.nodes).toBe(one.stats.nodes);
      expect(two.stats.threads).toBe(2);
      expect(two.stats.parts).toBeGreaterThan(1);
    }
    // The TS twin splits the same way (a 3×4 board and a 3×3 one, Manhattan distance).
    for (const [rows, cols, seed] of [[3, 4, 2], [3, 3, 5]]) {
      const board = sliding.randomBoard(rows, cols, seed);
      const one = await sliding.solve(board, { method: 'optimal', heuristic: 'manhattan' });
      const js = await sliding.solve(board, { method: 'optimal', heuristic: 'manhattan', engine: 'js', threads: 2 });
      const wasm = await sliding.solve(board, { method: 'optimal', heuristic: 'manhattan', threads: 2 });
      expect([js.moves, wasm.moves]).toEqual([one.moves, one.moves]);
      expect([js.stats.nodes, wasm.stats.nodes]).toEqual([one.stats.nodes, one.stats.nodes]);
    }
    // A time limit on threads gives the anytime answer; a node limit is for one thread.
    const stopped = await sliding.solve(korf[0].board, { goal: KORF_GOAL, heuristic: 'manhattan', timeLimit: 300, threads: 2 });
    expect(stopped.optimal).toBe(false);
    expect(stopped.lowerBound).toBeLessThanOrEqual(korf[0].expected!);
    expect(sliding.isSolution(korf[0].board, stopped.moves!, sliding.toGoal(KORF_GOAL, 4, 4))).toBe(true);
    expect((await rejection(sliding.solve(korf[0].board, { goal: KORF_GOAL, nodeLimit: 10, threads: 2 }))).message).toMatch(/with threads, give timeLimit/);
  });

  it('an aborted search rejects with ABORTED', async () => {
    const controller = new AbortController();
    const pending = sliding.solve(korf[0].board, { goal: KORF_GOAL, heuristic: 'manhattan', signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    expect((await rejection(pending)).code).toBe('ABORTED');
  });
});

describe('pattern databases', () => {
  it('the engine and the TS twin build the same tables (3×4 with the blank, 3×6 without), and they are lower bounds', async () => {
    const { acquireEngine, releaseEngine } = await import('../dist/wasm/module.js');
    const { wasmOptimalEngine } = await import('../dist/sliding/engine.js');
    const { ReferenceOptimalEngine } = await import('../dist/sliding/reference.js');
    const { PATTERNS } = await import('../dist/sliding/engine.js');
    const exports = await acquireEngine();
    try {
      const wasm = wasmOptimalEngine(exports);
      const js = new ReferenceOptimalEngine();
      // Both engines build the tables of `patterns` on a board: the same bytes, every entry filled.
      const buildBoth = (cells: number, width: number, patterns: number[][]): void => {
        for (const engine of [wasm, js]) {
          engine.clearPatterns();
          patterns.forEach((pattern, slot) => {
            expect(engine.definePattern(slot, cells, width, pattern)).toBe(true);
            engine.buildStart(slot, 0);
            while (engine.buildRun(1 << 16) !== 0);
            expect(engine.filled()).toBe(engine.table(slot).length); // every placement is reachable
          });
        }
        for (let slot = 0; slot < patterns.length; slot++) expect(Buffer.from(js.table(slot)).equals(Buffer.from(wasm.table(slot)))).toBe(true);
      };
      buildBoth(12, 4, [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11]]);
      // The tables' sum is a lower bound: IDA* with it finds the shortest solutions.
      for (let seed = 1; seed <= 10; seed++) {
        // Korf's goal (blank at cell 0): labels are the tiles themselves.
        const board = sliding.randomBoard(3, 4, seed, 'korf');
        const status = wasm.start(board.tiles, 3, 4, 0, PATTERNS, 2, false);
        expect(status).toBe(0);
        while (wasm.run(1 << 20) === 2);
        const moves = wasm.solution();
        const solved = sliding.solve(board, { goal: 'korf', method: 'optimal', heuristic: 'manhattan' });
        expect(moves.length).toBe((await solved).length);
      }
      // Boards above 16 cells build tables that ignore the blank (small patterns on 3×6): one
      // tile's entry is its grid distance; several tiles' entries are at least their sum.
      buildBoth(18, 6, [[7], [1, 2, 8]]);
      const grid = (a: number, b: number): number => Math.abs(Math.floor(a / 6) - Math.floor(b / 6)) + Math.abs((a % 6) - (b % 6));
      for (let c = 0; c < 18; c++) expect(wasm.table(0)[c]).toBe(grid(c, 7));
      const three = wasm.table(1);
      for (let a = 0; a < 18; a++) {
        for (let b = 0; b < 18; b++) {
          for (let c = 0; c < 18; c++) {
            if (a === b || a === c || b === c) continue;
            // The rank: each cell's number among those the earlier tiles leave free.
            const index = (a * 17 + (b - (a < b ? 1 : 0))) * 16 + (c - (a < c ? 1 : 0) - (b < c ? 1 : 0));
            expect(three[index]).toBeGreaterThanOrEqual(grid(a, 1) + grid(b, 2) + grid(c, 8));
          }
        }
      }
      wasm.clearPatterns();
    } finally {
      releaseEngine(exports);
    }
  });

  it('packed tables (the 7-8 builder on small boards) hold the byte tables as Manhattan + 2 × entry, and IDA* with them is optimal', async () => {
    const { acquireEngine, releaseEngine } = await import('../dist/wasm/module.js');
    const { wasmOptimalEngine, PATTERNS } = await import('../dist/sliding/engine.js');
    const exports = await acquireEngine();
    try {
      const engine = wasmOptimalEngine(exports);
      const build = (cells: number, width: number, patterns: number[][], packed: boolean, blank: number): Uint8Array[] => {
        engine.clearPatterns();
        return patterns.map((pattern, slot) => {
          expect(engine.definePattern(slot, cells, width, pattern, packed)).toBe(true);
          expect(engine.buildStart(slot, blank)).toBe(2);
          let status;
          while ((status = engine.buildRun(1 << 14)) === 2);
          expect(status).toBe(0);
          expect(engine.filled()).toBe(pattern.reduce((n, _, i) => n * (cells - i), 1)); // every placement reached
          if (packed) expect(exports.pdbPackedClamped()).toBe(0);
          return engine.table(slot).slice();
        });
      };
      // Every entry of the packed tables against the byte tables (the older builder, also
      // following the blank), on boards and blank goals of several shapes.
      const cases: Array<[number, number, number[][], number]> = [
        [12, 4, [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11]], 0],
        [12, 3, [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11]], 0],
        [12, 4, [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10]], 11],
        [9, 3, [[1, 2, 3, 4], [5, 6, 7, 8]], 0],
      ];
      for (const [cells, width, patterns, blank] of cases) {
        const bytes = build(cells, width, patterns, false, blank);
        const packed = build(cells, width, patterns, true, blank);
        patterns.forEach((pattern, slot) => {
          expect(packed[slot].length).toBe(Math.ceil(bytes[slot].length / 2));
          // Walk every placement in rank order (each cell's number among those still free).
          let index = 0;
          const place = (i: number, used: number, md: number): void => {
            if (i === pattern.length) {
              const entry = (packed[slot][index >> 1] >> ((index & 1) * 4)) & 15;
              if (bytes[slot][index] !== md + 2 * entry) expect([index, bytes[slot][index]]).toEqual([index, md + 2 * entry]);
              index++;
              return;
            }
            const g = pattern[i];
            for (let c = 0; c < cells; c++) {
              if (used & (1 << c)) continue;
              place(i + 1, used | (1 << c), md + Math.abs(Math.floor(c / width) - Math.floor(g / width)) + Math.abs((c % width) - (g % width)));
            }
          };
          place(0, 0, 0);
          expect(index).toBe(bytes[slot].length);
        });
      }
      // Above 16 cells there is no byte table that follows the blank: a 0-1 breadth-first search
      // over the tiles' cells and the blank's (a move of a pattern tile costs 1, others 0) is the oracle.
      const oracle = (cells: number, width: number, pattern: number[], blank: number): Map<string, number> => {
        const neighbours = (c: number): number[] =>
          [c - width, c % width ? c - 1 : -1, c % width < width - 1 ? c + 1 : -1, c + width].filter((q) => q >= 0 && q < cells);
        const best = new Map<string, number>();
        const seen = new Map<string, number>([[[...pattern, blank].join(','), 0]]);
        const deque: Array<[number[], number]> = [[[...pattern, blank], 0]];
        while (deque.length) {
          const [state, d] = deque.shift()!;
          const key = state.join(',');
          if (seen.get(key)! < d) continue;
          const place = state.slice(0, -1).join(',');
          if (!best.has(place) || best.get(place)! > d) best.set(place, d);
          const b = state[state.length - 1];
          for (const q of neighbours(b)) {
            const tile = state.indexOf(q);
            const next = state.slice();
            if (tile >= 0 && tile < pattern.length) next[tile] = b;
            next[next.length - 1] = q;
            const cost = d + (tile >= 0 && tile < pattern.length ? 1 : 0);
            const nextKey = next.join(',');
            if (seen.has(nextKey) && seen.get(nextKey)! <= cost) continue;
            seen.set(nextKey, cost);
            if (cost === d) deque.unshift([next, cost]);
            else deque.push([next, cost]);
          }
        }
        return best;
      };
      for (const [cells, width, pattern] of [[18, 6, [7, 8, 13]], [20, 5, [6, 12, 18]]] as const) {
        const [table] = build(cells, width, [[...pattern]], true, 0);
        const distances = oracle(cells, width, [...pattern], 0);
        let index = 0;
        let checked = 0;
        for (let a = 0; a < cells; a++) {
          for (let b = 0; b < cells; b++) {
            for (let c = 0; c < cells; c++) {
              if (a === b || a === c || b === c) continue;
              const md = [a, b, c].reduce((sum, cell, i) => sum + Math.abs(Math.floor(cell / width) - Math.floor(pattern[i] / width)) + Math.abs((cell % width) - (pattern[i] % width)), 0);
              const entry = (table[index >> 1] >> ((index & 1) * 4)) & 15;
              const d = distances.get(`${a},${b},${c}`);
              if (d !== md + 2 * entry) expect([a, b, c, md + 2 * entry]).toEqual([a, b, c, d]);
              index++;
              checked++;
            }
          }
        }
        expect(checked).toBe(distances.size);
      }
      // IDA* on the packed tables of the 3×3 board, with the mirrored lookup: the optimal lengths.
      build(9, 3, [[1, 2, 3, 4], [5, 6, 7, 8]], true, 0);
      for (let seed = 1; seed <= 12; seed++) {
        const board = sliding.randomBoard(3, 3, seed, 'korf');
        expect(engine.start(board.tiles, 3, 3, 0, PATTERNS, 2, true)).toBe(0);
        let status;
        while ((status = engine.run(1 << 20)) === 2);
        expect(status).toBe(1);
        const expected = (await sliding.solve(board, { goal: 'korf', heuristic: 'manhattan' })).length;
        expect(engine.solution().length).toBe(expected);
      }
      engine.clearPatterns();
    } finally {
      releaseEngine(exports);
    }
  });

  it('tables shared by the threads hold the bytes an engine of its own builds, from a build or the disk', async () => {
    const { acquireEngine, releaseEngine } = await import('../dist/wasm/module.js');
    const { wasmOptimalEngine } = await import('../dist/sliding/engine.js');
    const { loadPatterns } = await import('../dist/sliding/patterns.js');
    const { loadSharedTables } = await import('../dist/sliding/shared.js');
    const { onPatternWarning } = await import('../dist/sliding/patterns.js');
    const warnings: string[] = [];
    onPatternWarning((message) => warnings.push(message));
    const dir = tempDir('bitpuzzle-shared-');
    for (const packed of [true, false]) {
      const set = { rows: 3, cols: 4, patterns: [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11]], blank: 0, reflect: false, packed, name: '6-5', key: `3x4b0-shared-${packed}` };
      const exports = await acquireEngine();
      try {
        const engine = wasmOptimalEngine(exports);
        await loadPatterns(engine, { ...set, key: `${set.key}-own` }, { cacheDir: false });
        const own = set.patterns.map((_, slot) => engine.table(slot).slice());
        engine.clearPatterns();
        // Built (no cache), read from the cache folder the build wrote, then from a damaged file:
        // the read is checked while the threads may search, then rebuilt in place. Byte tables
        // this small are kept in memory after the first build: read from there.
        for (const cache of packed ? (['none', 'disk', 'damaged'] as const) : (['none', 'kept'] as const)) {
          if (cache === 'damaged') {
            const file = join(dir, 'sliding-3x4-b0-6-7-8-9-10-11.packed.pdb');
            const bytes = readFileSync(file);
            bytes[bytes.length - 3] ^= 0x21;
            writeFileSync(file, bytes);
          }
          const { shared, verified } = await loadSharedTables({ ...set, key: `${set.key}-${cache}` }, { cacheDir: cache === 'none' ? false : dir });
          expect(shared.memory.buffer).toBeInstanceOf(SharedArrayBuffer);
          expect(await verified).toBe(cache !== 'damaged');
          own.forEach((table, slot) => {
            expect(Buffer.from(new Uint8Array(shared.memory.buffer, shared.tables[slot], table.length)).equals(Buffer.from(table))).toBe(true);
          });
          if (cache === 'disk') {
            // Read by 3 readers at once, in chunks: the same bytes.
            const three = await loadSharedTables({ ...set, key: `${set.key}-readers` }, { cacheDir: dir, readers: 3 });
            expect(await three.verified).toBe(true);
            own.forEach((table, slot) => {
              expect(Buffer.from(new Uint8Array(three.shared.memory.buffer, three.shared.tables[slot], table.length)).equals(Buffer.from(table))).toBe(true);
            });
          }
          if (cache === 'none') await loadPatterns(engine, set, { cacheDir: dir });
        }
        engine.clearPatterns();
      } finally {
        releaseEngine(exports);
      }
    }
    onPatternWarning(null);
    expect(warnings).toEqual([expect.stringMatching(/sliding-3x4-b0-6-7-8-9-10-11\.packed\.pdb does not match its checksum \(corrupt\): rebuilding it$/)]);
  });

  it('tables missing from the cache are built on several threads at once (within maxMemory): the bytes of one engine, saved to the cache', async () => {
    const { acquireEngine, releaseEngine } = await import('../dist/wasm/module.js');
    const { wasmOptimalEngine } = await import('../dist/sliding/engine.js');
    const { loadPatterns, slotBuildBytes } = await import('../dist/sliding/patterns.js');
    const { loadSharedTables, sharedBytes } = await import('../dist/sliding/shared.js');
    const set = { rows: 3, cols: 4, patterns: [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11]], blank: 0, reflect: false, packed: true, name: '6-5', key: '3x4b0-builders' };
    const exports = await acquireEngine();
    let own: Uint8Array[];
    try {
      const engine = wasmOptimalEngine(exports);
      await loadPatterns(engine, { ...set, key: `${set.key}-own` }, { cacheDir: false });
      own = set.patterns.map((_, slot) => engine.table(slot).slice());
      engine.clearPatterns();
    } finally {
      releaseEngine(exports);
    }
    const entries = [12 * 11 * 10 * 9 * 8, 12 * 11 * 10 * 9 * 8 * 7];
    const dir = tempDir('bitpuzzle-builders-');
    const same = (shared: { memory: WebAssembly.Memory; tables: number[] }): boolean[] =>
      own.map((table, slot) => Buffer.from(new Uint8Array(shared.memory.buffer, shared.tables[slot], table.length)).equals(Buffer.from(table)));
    // Two builders: progress only as each table ends (the pool's count, from 0), in entries.
    const progress: number[] = [];
    const two = await loadSharedTables({ ...set, key: `${set.key}-2` }, { cacheDir: dir, builders: 2, onProgress: (p) => progress.push(p.done) });
    expect(await two.verified).toBe(true);
    expect(same(two.shared)).toEqual([true, true]);
    expect(progress).toEqual([0, entries[0], entries[0] + entries[1]]);
    // What they saved reads back whole.
    const read = await loadSharedTables({ ...set, key: `${set.key}-read` }, { cacheDir: dir, builders: 2 });
    expect(await read.verified).toBe(true);
    expect(same(read.shared)).toEqual([true, true]);
    // A maxMemory that holds one build beside the shared tables but not two (each counts a
    // thread's 48 MB besides its table and scratch): one thread builds (progress in the build's slices).
    const maxMemory = sharedBytes(set) + slotBuildBytes(set, 1) + (48 << 20) + 1024;
    const serial: number[] = [];
    const limited = await loadSharedTables({ ...set, key: `${set.key}-limited` }, { cacheDir: false, builders: 2, maxMemory, onProgress: (p) => serial.push(p.done) });
    expect(same(limited.shared)).toEqual([true, true]);
    expect(serial.length).toBeGreaterThan(3);
    // Built on threads of this machine only: a queue's worker refuses such a part, and a split part.
    const { taskKind } = await import('../dist/parallel/kinds.js');
    expect(() => taskKind('sliding').check({ table: { set, slot: 0, maxMemory: 1 << 30 } })).toThrow(/pattern database is built on this machine's threads, not on a queue/);
    expect(() => taskKind('sliding').check({ split: true })).toThrow(/search run on this machine's threads, not on a queue/);
    expect(serial.at(-1)).toBe(entries[0] + entries[1]);
  });

  it('threads share one copy of the tables: a maxMemory that holds one copy but not one per thread', async () => {
    const boards = [9, 12, 30, 42].map((i) => korf[i - 1].board);
    // The 6-6-3 tables are 11.5 MB; 20 MB held them once, not three times.
    const one = await sliding.solveBatch(boards, { goal: KORF_GOAL, pdb: '6-6-3', threads: 1, cacheDir });
    const three = await sliding.solveBatch(boards, { goal: KORF_GOAL, pdb: '6-6-3', threads: 3, cacheDir, maxMemory: 20 << 20 });
    expect(three.map((r) => r.moves)).toEqual(one.map((r) => r.moves));
    expect(three.map((r) => r.stats.nodes)).toEqual(one.map((r) => r.stats.nodes));
    const split = await sliding.solve(korf[29].board, { goal: KORF_GOAL, pdb: '6-6-3', threads: 3, cacheDir, maxMemory: 20 << 20 });
    expect([split.moves, split.stats.nodes]).toEqual([one[2].moves, one[2].stats.nodes]);
    // Less than one copy: refused, naming the tables.
    const error = await rejection(sliding.solveBatch(boards, { goal: KORF_GOAL, pdb: '6-6-3', threads: 3, cacheDir, maxMemory: 8 << 20 }));
    expect(error.code).toBe('OUT_OF_MEMORY');
    expect(error.message).toMatch(/pattern databases of the 4×4 puzzle/);
  });

  it('packed tables go through the cache like the others: written, read back, rebuilt when damaged', async () => {
    const { acquireEngine, releaseEngine } = await import('../dist/wasm/module.js');
    const { wasmOptimalEngine } = await import('../dist/sliding/engine.js');
    const { loadPatterns, onPatternWarning } = await import('../dist/sliding/patterns.js');
    const dir = tempDir('bitpuzzle-packed-');
    // The 7-8's code path on a 3×4 board (the real tables take minutes): a packed set by hand.
    const set = { rows: 3, cols: 4, patterns: [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11]], blank: 0, reflect: false, packed: true, name: '6-5', key: '3x4b0p-test' };
    const warnings: string[] = [];
    onPatternWarning((message) => warnings.push(message));
    const exports = await acquireEngine();
    try {
      const engine = wasmOptimalEngine(exports);
      const first = await loadPatterns(engine, set, { cacheDir: dir });
      expect([first.built, first.onDisk]).toEqual([true, true]);
      const built = set.patterns.map((_, slot) => engine.table(slot).slice());
      const files = readdirSync(dir).sort();
      expect(files).toEqual(['sliding-3x4-b0-1-2-3-4-5-6.packed.pdb', 'sliding-3x4-b0-7-8-9-10-11.packed.pdb']);
      expect(readFileSync(join(dir, files[0])).length).toBe(48 + 665280 / 2);
      engine.clearPatterns();
      const again = await loadPatterns(engine, set, { cacheDir: dir });
      expect(again.built).toBe(false);
      set.patterns.forEach((_, slot) => expect(Buffer.from(engine.table(slot)).equals(Buffer.from(built[slot]))).toBe(true));
      // One flipped bit: found by the checksum, rebuilt to the same bytes.
      const bytes = readFileSync(join(dir, files[1]));
      bytes[bytes.length - 7] ^= 0x10;
      writeFileSync(join(dir, files[1]), bytes);
      engine.clearPatterns();
      const rebuilt = await loadPatterns(engine, set, { cacheDir: dir });
      expect(rebuilt.built).toBe(true);
      expect(warnings.join('\n')).toMatch(/7-8-9-10-11\.packed\.pdb does not match its checksum \(corrupt\): rebuilding it/);
      expect(Buffer.from(engine.table(1)).equals(Buffer.from(built[1]))).toBe(true);
      engine.clearPatterns();
    } finally {
      onPatternWarning(null);
      releaseEngine(exports);
    }
  });

  it("pdb: '6-6-3' or '7-8' (the 15-puzzle's, Wasm only), checked; the default follows memory and $BITPUZZLE_PDB", async () => {
    const fifteen = korf[0].board;
    for (const [options, message] of [
      [{ pdb: '8-7' }, /pdb must be '6-6-3' or '7-8', got "8-7"/],
      [{ pdb: '7-8', engine: 'js' }, /pdb '7-8' needs the Wasm engine/],
    ] as const) {
      const error = await rejection(sliding.solve(fifteen, { goal: KORF_GOAL, ...(options as sliding.SlidingOptions) }));
      expect([error.code, error.message]).toEqual(['BAD_INPUT', expect.stringMatching(message)]);
    }
    const small = await rejection(sliding.solve(sliding.randomBoard(3, 4, 1), { method: 'optimal', heuristic: 'patterns', pdb: '7-8' }));
    expect([small.code, small.message]).toEqual(['BAD_INPUT', expect.stringMatching(/pdb '7-8' is for the 15-puzzle/)]);
    expect(sliding.patternSet(4, 4, 0, '7-8')).toMatchObject({ patterns: [[1, 2, 3, 4, 5, 8, 12], [6, 7, 9, 10, 11, 13, 14, 15]], packed: true, reflect: true });
    expect(() => sliding.patternSet(3, 4, 0, '7-8')).toThrow(/7-8 pattern databases are for the 15-puzzle/);
    // 6-6-3 solves and says so (npm test sets BITPUZZLE_PDB=6-6-3: the 7-8 build takes minutes).
    const result = await sliding.solve(fifteen, { goal: KORF_GOAL, pdb: '6-6-3', cacheDir });
    expect([result.length, result.patterns]).toEqual([korf[0].expected, '6-6-3']);
    expect(run(['sliding', ...Array.from(fifteen.tiles, String), '--goal', 'korf', '--pdb', '8-7']).stderr).toMatch(/--pdb.*'8-7' is invalid/);
    const threeByThree = run(['sliding', '1', '2', '3', '4', '5', '6', '7', '8', '0', '--pdb', '7-8']);
    expect([threeByThree.status, threeByThree.stderr]).toEqual([2, expect.stringMatching(/--pdb does not work with the conflict heuristic \(these flags concern pattern databases\)/)]);
    const { defaultPdb } = await import('../dist/sliding/patterns.js');
    const forced = process.env.BITPUZZLE_PDB;
    try {
      delete process.env.BITPUZZLE_PDB;
      expect(defaultPdb('wasm', 1 << 30)).toBe('7-8');
      expect(defaultPdb('wasm', 1 << 30, 2)).toBe('7-8'); // each thread's 512 MiB holds the 288 MB tables
      expect(defaultPdb('wasm', 1 << 30, 4)).toBe('6-6-3');
      expect(defaultPdb('wasm', 512 << 20)).toBe('6-6-3'); // too small to build them
      expect(defaultPdb('js', 1 << 30)).toBe('6-6-3');
      process.env.BITPUZZLE_PDB = '7-8';
      expect(defaultPdb('wasm', 1 << 20)).toBe('7-8');
    } finally {
      if (forced === undefined) delete process.env.BITPUZZLE_PDB;
      else process.env.BITPUZZLE_PDB = forced;
    }
  });

  it('a truncated, foreign or other-version file is rebuilt with a warning; an unwritable folder costs only a warning', () => {
    const dir = tempDir('bitpuzzle-pdb-');
    const tiles = Array.from(sliding.randomBoard(3, 4, 5).tiles, String);
    const args = (pdbDir: string, ...more: string[]): string[] => ['sliding', ...tiles, '--size', '4x3', '--optimal', '--pdb-dir', pdbDir, '--json', ...more];
    const first = run(args(dir));
    expect(first.status).toBe(0);
    expect(first.stderr).toBe('');
    const files = readdirSync(dir).filter((f) => f.endsWith('.pdb')).sort();
    expect(files.length).toBe(2);
    const original = files.map((f) => readFileSync(join(dir, f)));
    // Two runs, each damaging both files: truncated and of another version, then foreign and empty.
    const damages: Array<Array<[(bytes: Buffer) => Buffer, RegExp]>> = [
      [
        [(b) => b.subarray(0, b.length - 1000), /has \d+ bytes, not \d+ \(truncated/],
        [(b) => Buffer.concat([Buffer.from('bitpuzzle-pdb-1\n'), b.subarray(16)]), /of another version \("bitpuzzle-pdb-1"/],
      ],
      [
        [() => Buffer.from('not a table at all'), /is not a bitpuzzle pattern database/],
        [() => Buffer.alloc(0), /is not a bitpuzzle pattern database/],
      ],
    ];
    for (const pair of damages) {
      pair.forEach(([damage], i) => writeFileSync(join(dir, files[i]), damage(Buffer.from(original[i]))));
      const again = run(args(dir));
      expect(again.status).toBe(0);
      expect(JSON.parse(again.stdout).moves).toBe(JSON.parse(first.stdout).moves);
      pair.forEach(([, warning]) => expect(again.stderr).toMatch(warning));
      expect(again.stderr).toMatch(/^(bitpuzzle: warning: the pattern database .* rebuilding it\n){2}$/);
      files.forEach((f, i) => expect(readFileSync(join(dir, f)).equals(original[i])).toBe(true));
    }
    // A "folder" that is a file: the answer, from tables built in memory, and a warning; a batch
    // on two threads hands the tables to its workers instead of having each rebuild them.
    const file = join(dir, 'plain-file');
    writeFileSync(file, 'x');
    const unwritable = run(args(file));
    expect(unwritable.status).toBe(0);
    expect(JSON.parse(unwritable.stdout).moves).toBe(JSON.parse(first.stdout).moves);
    expect(unwritable.stderr).toMatch(/^bitpuzzle: warning: cannot write the pattern database \S+ to .*plain-file \(E[A-Z]+\): it is kept in memory/);
    const batchFile = join(dir, 'batch.txt');
    writeFileSync(batchFile, [1, 2, 3].map((seed) => sliding.randomBoard(3, 4, seed).tiles.join(' ')).join('\n'));
    const batch = run(['sliding', '--batch', batchFile, '--size', '4x3', '--threads', '2', '--pdb-dir', file, '--json']);
    expect(batch.status).toBe(0);
    expect(JSON.parse(batch.stdout).instances.every((r: sliding.SlidingSolution) => r.optimal)).toBe(true);
    expect(batch.stderr.match(/warning/g)?.length).toBe(2); // one per table, from the one build
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('a file holds a CRC-32 and a SHA-256 prefix; one of the version before is read, checked and given the new header in place', async () => {
    const { createHash } = await import('node:crypto');
    const { crc32 } = await import('node:zlib');
    const dir = tempDir('bitpuzzle-pdb-');
    const tiles = Array.from(sliding.randomBoard(3, 4, 7).tiles, String);
    const args = ['sliding', ...tiles, '--size', '4x3', '--optimal', '--pdb-dir', dir, '--json'];
    const first = run(args);
    expect([first.status, first.stderr]).toEqual([0, '']);
    const files = readdirSync(dir).filter((f) => f.endsWith('.pdb')).sort();
    const current = files.map((f) => readFileSync(join(dir, f)));
    for (const bytes of current) {
      const table = bytes.subarray(48);
      expect(bytes.toString('latin1', 0, 16)).toBe('bitpuzzle-pdb-3\n');
      expect(bytes.readUInt32LE(16)).toBe(crc32(table));
      expect(bytes.subarray(20, 48).equals(createHash('sha256').update(table).digest().subarray(0, 28))).toBe(true);
    }
    // The version before: the same table under a whole SHA-256. Read without a rebuild or a
    // warning, and its header rewritten as version 3: the very bytes a build writes.
    const older = (bytes: Buffer): Buffer => Buffer.concat([Buffer.from('bitpuzzle-pdb-2\n'), createHash('sha256').update(bytes.subarray(48)).digest(), bytes.subarray(48)]);
    files.forEach((f, i) => writeFileSync(join(dir, f), older(current[i])));
    const second = run(args);
    expect([second.status, second.stderr]).toEqual([0, '']);
    expect(JSON.parse(second.stdout).moves).toBe(JSON.parse(first.stdout).moves);
    files.forEach((f, i) => expect(readFileSync(join(dir, f)).equals(current[i])).toBe(true));
    // A damaged file of the version before is found by its SHA-256 and rebuilt as version 3.
    const damaged = older(current[0]);
    damaged[damaged.length - 3] ^= 0x20;
    writeFileSync(join(dir, files[0]), damaged);
    const third = run(args);
    expect(third.status).toBe(0);
    expect(third.stderr).toMatch(/does not match its checksum \(corrupt\): rebuilding it/);
    expect(readFileSync(join(dir, files[0])).equals(current[0])).toBe(true);
  });

  it('a Node without zlib.crc32 writes the version before, and checks version-3 files by their SHA-256 prefix', async () => {
    const { createHash } = await import('node:crypto');
    const dir = tempDir('bitpuzzle-pdb-');
    // Node before 20.15 has no zlib.crc32: this process's zlib loses it before bitpuzzle loads.
    const preload = join(dir, 'no-crc32.cjs');
    writeFileSync(preload, "require('node:zlib').crc32 = undefined;\nrequire('node:module').syncBuiltinESMExports();\n");
    const tables = join(dir, 'tables');
    const tiles = Array.from(sliding.randomBoard(3, 4, 11).tiles, String);
    const args = ['sliding', ...tiles, '--size', '4x3', '--optimal', '--pdb-dir', tables, '--json'];
    const withoutCrc = (): { status: number | null; stdout: string; stderr: string } => {
      const result = spawnSync(process.execPath, ['--require', preload, bin, ...args], { encoding: 'utf8', timeout: 60_000 });
      return { status: result.status, stdout: result.stdout, stderr: result.stderr };
    };
    const first = withoutCrc();
    expect([first.status, first.stderr]).toEqual([0, '']);
    const files = readdirSync(tables).filter((f) => f.endsWith('.pdb')).sort();
    expect(files.length).toBeGreaterThan(0);
    const sha = (bytes: Buffer): Buffer => createHash('sha256').update(bytes.subarray(48)).digest();
    for (const f of files) {
      const bytes = readFileSync(join(tables, f));
      expect(bytes.toString('latin1', 0, 16)).toBe('bitpuzzle-pdb-2\n');
      expect(bytes.subarray(16, 48).equals(sha(bytes))).toBe(true);
    }
    // A Node with zlib.crc32 reads them and gives them the version-3 header.
    const second = run(args);
    expect([second.status, second.stderr]).toEqual([0, '']);
    expect(JSON.parse(second.stdout).moves).toBe(JSON.parse(first.stdout).moves);
    const current = files.map((f) => readFileSync(join(tables, f)));
    for (const bytes of current) expect(bytes.toString('latin1', 0, 16)).toBe('bitpuzzle-pdb-3\n');
    // Without zlib.crc32 a version-3 file is checked by its SHA-256 prefix: whole, it is read
    // as it is (no warning, no rewrite); damaged, it is found and rebuilt (as version 2 there).
    const third = withoutCrc();
    expect([third.status, third.stderr]).toEqual([0, '']);
    files.forEach((f, i) => expect(readFileSync(join(tables, f)).equals(current[i])).toBe(true));
    const damaged = Buffer.from(current[0]);
    damaged[damaged.length - 5] ^= 0x11;
    writeFileSync(join(tables, files[0]), damaged);
    const fourth = withoutCrc();
    expect(fourth.status).toBe(0);
    expect(fourth.stderr).toMatch(/does not match its checksum \(corrupt\): rebuilding it/);
    expect(JSON.parse(fourth.stdout).moves).toBe(JSON.parse(first.stdout).moves);
    const rebuilt = readFileSync(join(tables, files[0]));
    expect(rebuilt.toString('latin1', 0, 16)).toBe('bitpuzzle-pdb-2\n');
    expect(rebuilt.subarray(48).equals(current[0].subarray(48))).toBe(true);
  });

  it('two processes building the same tables at once both answer and leave whole files', async () => {
    const dir = tempDir('bitpuzzle-pdb-');
    const { spawn } = await import('node:child_process');
    const tiles = Array.from(sliding.randomBoard(3, 4, 9).tiles, String);
    const once = (): Promise<{ status: number | null; stdout: string }> =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [bin, 'sliding', ...tiles, '--size', '4x3', '--optimal', '--pdb-dir', dir, '--json']);
        let stdout = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.on('close', (status) => resolve({ status, stdout }));
      });
    const [a, b] = await Promise.all([once(), once()]);
    expect([a.status, b.status]).toEqual([0, 0]);
    expect(JSON.parse(a.stdout).moves).toBe(JSON.parse(b.stdout).moves);
    expect(readdirSync(dir).sort().filter((f) => !f.endsWith('.pdb'))).toEqual([]);
    const third = run(['sliding', ...tiles, '--size', '4x3', '--optimal', '--pdb-dir', dir, '--json']);
    expect(third.stderr).toBe(''); // the files read back whole (no warning)
    expect(JSON.parse(third.stdout).patternMilliseconds).toBeLessThan(JSON.parse(a.stdout).patternMilliseconds);
  });

  it('pdbDir and cacheDir (its former name) are one option: not both', async () => {
    expect((await rejection(sliding.solve('1 2\n3 _', { pdbDir: '/tmp/a', cacheDir: '/tmp/b' }))).message).toMatch(/give pdbDir or cacheDir/);
    expect((await rejection(sliding.solve('1 2\n3 _', { pdbDir: '' }))).message).toMatch(/pdbDir must be a folder name or false/);
    const both = run(['sliding', '--random', '4x3', '--pdb-dir', 'a', '--cache-dir', 'b']);
    expect(both.status).toBe(2);
    expect(both.stderr).toMatch(/give --pdb-dir or --cache-dir/);
    expect(run(['sliding', '--random', '4x3', '--pdb-dir', 'a', '--no-cache']).stderr).toMatch(/--pdb-dir does not work with --no-cache/);
  });

  it('tables are cached on disk; a corrupt cache file is detected and rebuilt', () => {
    const dir = tempDir('bitpuzzle-pdb-');
    const tiles = Array.from(sliding.randomBoard(2, 6, 3).tiles, String);
    const args = ['sliding', ...tiles, '--size', '6x2', '--heuristic', 'patterns', '--cache-dir', dir, '--json'];
    const first = run(args);
    expect(first.status).toBe(0);
    const files = readdirSync(dir).filter((f) => f.endsWith('.pdb'));
    expect(files.length).toBe(2);
    const original = files.map((f) => readFileSync(join(dir, f)));
    for (const [i, name] of files.entries()) {
      const bytes = Buffer.from(original[i]);
      bytes[bytes.length - 1] ^= 0x55;
      writeFileSync(join(dir, name), bytes);
    }
    const second = run(args);
    expect(second.status).toBe(0);
    expect(JSON.parse(second.stdout).moves).toBe(JSON.parse(first.stdout).moves);
    files.forEach((f, i) => expect(readFileSync(join(dir, f)).equals(original[i])).toBe(true));
  });
});

// ---- differential: engine against twin on random small boards ------------------------------

describe('the Wasm engine and the TS twin agree on random boards', () => {
  const shapes: Array<[number, number, sliding.Heuristic]> = [
    [2, 2, 'manhattan'],
    [2, 3, 'conflict'],
    [3, 2, 'manhattan'],
    [3, 3, 'conflict'],
    [2, 5, 'conflict'],
    [3, 4, 'patterns'],
    [4, 3, 'conflict'],
    [2, 5, 'patterns'],
  ];
  for (const [rows, cols, heuristic] of shapes) {
    it(`${rows}×${cols} with ${heuristic}: same moves, same nodes, optimal`, async () => {
      const oracle = rows * cols <= 9 ? bfsFromGoal(rows, cols) : null;
      for (let seed = 1; seed <= 6; seed++) {
        const board = sliding.randomBoard(rows, cols, seed);
        const wasm = await sliding.solve(board, { method: 'optimal', heuristic, cacheDir });
        const js = await sliding.solve(board, { method: 'optimal', heuristic, cacheDir, engine: 'js' });
        expect(js.moves).toBe(wasm.moves);
        expect(js.stats.nodes).toBe(wasm.stats.nodes);
        expectSolves(board, wasm);
        if (oracle) expect(wasm.length).toBe(oracle.get(keyOf(board.tiles)));
      }
    });
  }

  it('goals: Korf\'s, and a custom goal with the blank in the middle (optimal and constructive)', async () => {
    const middle = sliding.parseBoard('1 2 3\n4 _ 5\n6 7 8');
    for (let seed = 1; seed <= 8; seed++) {
      const board = sliding.randomBoard(3, 3, seed, middle);
      const optimal = await sliding.solve(board, { goal: middle });
      expectSolves(board, optimal, middle);
      const fast = await sliding.solve(board, { goal: middle, method: 'fast' });
      expectSolves(board, fast, middle);
      expect(fast.length!).toBeGreaterThanOrEqual(optimal.length!);
      const korfBoard = sliding.randomBoard(3, 4, seed, 'korf');
      expectSolves(korfBoard, await sliding.solve(korfBoard, { goal: 'korf' }), 'korf');
    }
  });
});

// ---- the constructive solver ---------------------------------------------------------------

describe('the constructive solver', () => {
  it('solves large and lopsided boards (50×50, 7×30, 30×7, 2×40), replayed to the goal, both engines', async () => {
    for (const [rows, cols] of [[50, 50], [7, 30], [30, 7], [2, 40], [40, 2], [3, 3], [2, 2]]) {
      for (const seed of [1, 2]) {
        const board = sliding.randomBoard(rows, cols, seed);
        const wasm = await sliding.solve(board, { method: 'fast' });
        expectSolves(board, wasm);
        expect(wasm.length!).toBeGreaterThanOrEqual(wasm.lowerBound);
        const js = await sliding.solve(board, { method: 'fast', engine: 'js' });
        expect(js.moves).toBe(wasm.moves);
      }
    }
  });

  it('many random small boards of every shape reach the goal', async () => {
    for (let rows = 2; rows <= 6; rows++) {
      for (let cols = 2; cols <= 6; cols++) {
        for (let seed = 1; seed <= 15; seed++) {
          const board = sliding.randomBoard(rows, cols, seed * 31 + rows);
          expectSolves(board, await sliding.solve(board, { method: 'fast' }));
        }
      }
    }
  });

  it('streams huge solutions in chunks: moves() adds up to lengthOnly', async () => {
    const board = sliding.randomBoard(150, 120, 4);
    const counted = await sliding.solve(board, { method: 'fast', lengthOnly: true });
    expect(counted.moves).toBeNull();
    let length = 0;
    let chunks = 0;
    for await (const chunk of sliding.moves(board)) {
      expect(chunk).toMatch(/^[UDLR]+$/);
      length += chunk.length;
      chunks++;
    }
    expect(length).toBe(counted.length);
    expect(chunks).toBeGreaterThan(1);
  });

  it('short: under 2.3 n³ moves on random 60×60 boards', async () => {
    let total = 0;
    for (let seed = 1; seed <= 3; seed++) total += (await sliding.solve(sliding.randomBoard(60, 60, seed), { method: 'fast', lengthOnly: true })).length!;
    expect(total / 3 / 60 ** 3).toBeLessThan(2.3);
  });

  it('batches on the thread pool: 2 threads give the same moves as 1, in input order, replayed to the goal', async () => {
    const boards = [7, 8, 9, 10, 11].map((seed) => sliding.randomBoard(24, 31, seed));
    const one = await sliding.solveBatch(boards, { method: 'fast', threads: 1 });
    const progress: number[] = [];
    const two = await sliding.solveBatch(boards, { method: 'fast', threads: 2, onProgress: (p) => progress.push(p.done) });
    expect(two.map((r) => r.moves)).toEqual(one.map((r) => r.moves));
    two.forEach((result, i) => {
      expect(result.method).toBe('fast');
      expect([result.rows, result.cols]).toEqual([boards[i].rows, boards[i].cols]);
      expectSolves(boards[i], result);
    });
    expect(progress.at(-1)).toBe(boards.length);
    const twin = await sliding.solveBatch(boards.slice(0, 2), { method: 'fast', threads: 2, engine: 'js' });
    expect(twin.map((r) => r.moves)).toEqual(one.slice(0, 2).map((r) => r.moves));
  });
});

// ---- bad input ----------------------------------------------------------------------------

describe('bad boards are BAD_INPUT naming the tiles and places', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['a duplicated tile', '1 2 3\n4 5 5\n7 8 _', /duplicated tile 5 at line 2, column 3 and line 2, column 5; missing tile 6/],
    ['an out-of-range tile', '1 2 3\n4 9 6\n7 8 _', /line 2, column 3: tile 9 is out of range \(0..8, 0 the blank\); missing tile 5/],
    ['two blanks', '1 2 _\n4 0 6\n7 8 3', /duplicated tile the blank \(0\) at line 1, column 5 and line 2, column 3; missing tile 5/],
    ['a word', '1 2 3\n4 x 6\n7 8 _', /line 2, column 3: "x" is not a tile/],
    ['a short row', '1 2 3\n4 5\n7 8 _', /line 2: 2 tiles, expected 3 like the first row/],
    ['one row', '1 2 _', /at least 2 columns and 2 rows, got 3×1/],
    ['empty', '\n# nothing\n', /the board is empty/],
  ];
  for (const [name, text, message] of cases) {
    it(name, async () => {
      const error = await rejection(sliding.solve(text));
      expect(error.code).toBe('BAD_INPUT');
      expect(error.message).toMatch(message);
    });
  }

  it('arrays, sizes, goals and options', async () => {
    // Each call made only when its rejection is awaited: one made earlier and rejected while another
    // is awaited would be an unhandled rejection.
    const bad: Array<[() => Promise<unknown>, RegExp]> = [
      [() => sliding.solve({ rows: 2, cols: 2, tiles: [1, 2, 3] }), /a 2×2 board has 4 cells, got 3 tiles/],
      [() => sliding.solve([[1, 2], [3, 3]]), /duplicated tile 3 at row 2, column 1 and row 2, column 2; missing tile the blank/],
      [() => sliding.solve('1 2 3 0', { size: { rows: 2, cols: 3 } }), /a 3×2 board has 6 cells, the text gives 4 tiles/],
      [() => sliding.solve('1 2\n3 _', { goal: '1 2 3\n4 5 6\n7 8 _' }), /the goal/],
      [() => sliding.solve('1 2\n3 _', { method: 'best' as never }), /method must be/],
      [() => sliding.solve('1 2\n3 _', { nodeLimit: -1 }), /nodeLimit must be a positive number/],
      [() => sliding.solve(sliding.randomBoard(6, 6, 1), { method: 'optimal' }), /up to 32 cells; this one has 36/],
      [() => sliding.solve(sliding.randomBoard(4, 7, 1), { method: 'optimal', heuristic: 'patterns' }), /up to 25 cells; this one has 28/],
      [() => sliding.solve(sliding.randomBoard(300, 300, 1)), /too long to return as one string: pass lengthOnly, or stream it with moves\(\)/],
    ];
    for (const [call, message] of bad) {
      const error = await rejection(call());
      expect(error.code).toBe('BAD_INPUT');
      expect(error.message).toMatch(message);
    }
  });

  it('a batch reads the blank written 0, _ or . alike, as single boards do', () => {
    const [zero, under, dot] = sliding.parseBatch('1 2 3 0\n1 2 3 _\n1 2 3 .');
    expect(under.board).toEqual(zero.board);
    expect(dot.board).toEqual(zero.board);
    expect(dot.board).toEqual(sliding.parseBoard('1 2\n3 .'));
  });

  it('a batch line with the wrong number of tiles names the line', () => {
    expect(() => sliding.parseBatch('1 2 3 0\n1 2 3')).toThrow(/line 2: 3 numbers are not a square board/);
  });
});

// ---- the command line ---------------------------------------------------------------------

const bin = fileURLToPath(new URL('../bin/bitpuzzle', import.meta.url));
function run(args: string[], input?: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [bin, ...args], { input, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('bitpuzzle sliding', () => {
  it('solves tiles given as arguments, with --json', () => {
    const { status, stdout } = run(['sliding', '8', '6', '7', '2', '5', '4', '3', '0', '1', '--json']);
    expect(status).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.length).toBe(31);
    expect(result.optimal).toBe(true);
    expect(result.moves).toMatch(/^[UDLR]{31}$/);
    expect(result.stats.nodes).toBeGreaterThan(0);
  });

  it('prints moves, tiles and a playback', () => {
    const { status, stdout } = run(['sliding', '1', '2', '3', '4', '5', '6', '0', '7', '8', '--playback']);
    expect(status).toBe(0);
    expect(stdout).toMatch(/3×3: 2 moves, optimal/);
    expect(stdout).toMatch(/moves: RR\ntiles: 7 8/);
    expect(stdout).toMatch(/2: R\n1 2 3\n4 5 6\n7 8 _/);
  });

  it('--batch in the format of korf100.txt prints one line per instance', () => {
    const dir = tempDir('bitpuzzle-cli-');
    const file = join(dir, 'batch.txt');
    writeFileSync(file, ['# three of Korf', ...[42, 93, 97].map((i) => readFileSync(new URL('./data/korf100.txt', import.meta.url), 'utf8').split('\n').filter((l) => l && !l.startsWith('#'))[i - 1])].join('\n'));
    const { status, stdout } = run(['sliding', '--batch', file, '--goal', 'korf', '--threads', '1', '--cache-dir', cacheDir]);
    expect(status).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines.length).toBe(3);
    expect(lines[0]).toMatch(/^line 2: 42 \(as expected\) [UDLR]{42}$/);
    expect(lines[2]).toMatch(/^line 4: 44 \(as expected\) [UDLR]{44}$/);
  });

  it('writes huge constructive solutions to a file as a stream', () => {
    const dir = tempDir('bitpuzzle-cli-');
    const file = join(dir, 'moves.txt');
    const { status, stdout } = run(['sliding', '--random', '40x40', '--seed', '3', '--moves-file', file]);
    expect(status).toBe(0);
    const length = Number(/40×40: (\d+) moves/.exec(stdout)![1]);
    expect(existsSync(file)).toBe(true);
    const moves = readFileSync(file, 'utf8');
    expect(moves.length).toBe(length);
    expect(sliding.isSolution(sliding.randomBoard(40, 40, 3), moves, sliding.toGoal('default', 40, 40))).toBe(true);
  });

  it('exit status 2 with the reason for bad and unsolvable boards', () => {
    const bad = run(['sliding', '1', '2', '3', '3']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/BAD_INPUT: not a 2×2 board: duplicated tile 3/);
    const unsolvable = run(['sliding', '2', '1', '3', '0']);
    expect(unsolvable.status).toBe(1);
    expect(unsolvable.stderr).toMatch(/UNSOLVABLE: this board cannot reach the goal/);
    const none = run(['sliding']);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/give the board/);
  });
});
