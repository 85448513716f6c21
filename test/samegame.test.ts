import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { samegame } from '../dist/index.js';
import { join } from 'node:path';
import { BitpuzzleError } from '../dist/index.js';
import { checkPart } from '../dist/queue/worker.js';
import { runScoreTask } from '../dist/samegame/tasks.js';
import { BEAMS } from '../dist/samegame/solve.js';
import { engineCells as engineCellsOf } from '../dist/samegame/board.js';
import { random, rejection, tempDir } from './helpers.js';
import { redisAvailable, startRedis, startWorker } from './redis.js';

// ---- an independent oracle: the rules written plainly over rows of characters ----------

/** Columns from the left, each from the bottom up, of a board given as rows (top first). */
function columnsOf(rows: string[]): string[][] {
  const cols: string[][] = [];
  for (let c = 0; c < rows[0].length; c++) {
    const col: string[] = [];
    for (let r = rows.length - 1; r >= 0; r--) if (rows[r][c] !== '.') col.push(rows[r][c]);
    if (col.length) cols.push(col);
  }
  return cols;
}

/** Every group of 2 or more, as lists of [column, row] from 0. */
function groupsOf(cols: string[][]): Array<Array<[number, number]>> {
  const seen = new Set<string>();
  const out: Array<Array<[number, number]>> = [];
  cols.forEach((col, c) =>
    col.forEach((colour, r) => {
      if (seen.has(`${c},${r}`)) return;
      const group: Array<[number, number]> = [[c, r]];
      seen.add(`${c},${r}`);
      for (let i = 0; i < group.length; i++) {
        const [x, y] = group[i];
        for (const [a, b] of [[x + 1, y], [x - 1, y], [x, y + 1], [x, y - 1]]) {
          if (cols[a]?.[b] !== colour || seen.has(`${a},${b}`)) continue;
          seen.add(`${a},${b}`);
          group.push([a, b]);
        }
      }
      if (group.length >= 2) out.push(group);
    }),
  );
  return out;
}

function removeGroup(cols: string[][], group: Array<[number, number]>): string[][] {
  const gone = new Set(group.map(([c, r]) => `${c},${r}`));
  return cols.map((col, c) => col.filter((_, r) => !gone.has(`${c},${r}`))).filter((col) => col.length > 0);
}

const count = (cols: string[][]): number => cols.reduce((sum, col) => sum + col.length, 0);

/** Plays clicks ({ column, row } from the bottom-left, from 1); the score and blocks left. */
function replayOracle(rows: string[], clicks: Array<{ column: number; row: number }>): { score: number; left: number } {
  let cols = columnsOf(rows);
  let score = 0;
  for (const { column, row } of clicks) {
    const group = groupsOf(cols).find((g) => g.some(([c, r]) => c === column - 1 && r === row - 1));
    if (!group) throw new Error(`click ${column},${row} hits no group`);
    score += (group.length - 2) ** 2;
    cols = removeGroup(cols, group);
  }
  const left = count(cols);
  return { score: score + (left === 0 ? 1000 : 0), left };
}

/**
 * The fewest blocks left and the best score over every line of play (memoised); with `barred`,
 * over the lines that never remove a group of that colour while a group of another is left.
 */
function bruteForce(rows: string[], barred?: string): { minLeft: number; bestScore: number } {
  const memo = new Map<string, { minLeft: number; bestScore: number }>();
  const visit = (cols: string[][]): { minLeft: number; bestScore: number } => {
    const key = cols.map((c) => c.join('')).join('|');
    const known = memo.get(key);
    if (known) return known;
    const all = groupsOf(cols);
    const others = all.filter(([[c, r]]) => cols[c][r] !== barred);
    const groups = others.length > 0 ? others : all;
    let result = { minLeft: count(cols), bestScore: count(cols) === 0 ? 1000 : 0 };
    if (groups.length > 0) {
      // The game goes on while a group is left: the best score is a child's.
      result = { minLeft: Infinity, bestScore: -Infinity };
      for (const group of groups) {
        const below = visit(removeGroup(cols, group));
        result.minLeft = Math.min(result.minLeft, below.minLeft);
        result.bestScore = Math.max(result.bestScore, below.bestScore + (group.length - 2) ** 2);
      }
    }
    memo.set(key, result);
    return result;
  };
  return visit(columnsOf(rows));
}

/** The seed's plain backtracker: every group in turn, first clear wins, cut only by lone colours. */
function plainBacktrackerNodes(rows: string[]): { cleared: boolean; nodes: number } {
  let nodes = 0;
  const visit = (cols: string[][]): boolean => {
    nodes++;
    if (count(cols) === 0) return true;
    const tally = new Map<string, number>();
    for (const col of cols) for (const colour of col) tally.set(colour, (tally.get(colour) ?? 0) + 1);
    if ([...tally.values()].includes(1)) return false;
    return groupsOf(cols).some((group) => visit(removeGroup(cols, group)));
  };
  return { cleared: visit(columnsOf(rows)), nodes };
}

function randomRows(width: number, height: number, colours: number, next: () => number): string[] {
  return Array.from({ length: height }, () =>
    Array.from({ length: width }, () => String(1 + Math.floor(next() * colours))).join(''),
  );
}

// ---- tests -----------------------------------------------------------------------------

describe('rules', () => {
  it('a click removes its group, blocks fall and empty columns close to the left', () => {
    const board = samegame.parseBoard(['1.3', '122', '123'].join('\n'));
    // Column 1 from the bottom: 1 1 1. The 1s go, column 1 empties and the others close up.
    const { board: after, removed, points } = samegame.applyClick(board, { column: 1, row: 2 });
    expect(removed).toBe(3);
    expect(points).toBe(1);
    expect(samegame.picture(after)).toBe(['.3.', '22.', '23.'].join('\n'));
    // The 2s: three in an L. The 3 above falls onto the remaining 3.
    const next = samegame.applyClick(after, { column: 1, row: 2 });
    expect(samegame.picture(next.board)).toBe(['...', '3..', '3..'].join('\n'));
  });

  it('a lone block or an empty cell is not a move', () => {
    const board = samegame.parseBoard(['12', '21'].join('\n'));
    expect(samegame.moves(board)).toEqual([]);
    expect(() => samegame.applyClick(board, { column: 1, row: 1 })).toThrow(/lone block/);
    expect(() => samegame.applyClick(board, { column: 3, row: 1 })).toThrow(/hits no block/);
  });

  it('moves lists one click per group', () => {
    const board = samegame.parseBoard(['112', '122', '333'].join('\n'));
    expect(samegame.moves(board)).toEqual([
      { column: 1, row: 1 },
      { column: 1, row: 2 },
      { column: 2, row: 2 },
    ]);
  });

  it('replay scores (n - 2)² per group and 1000 for clearing', () => {
    const board = samegame.parseBoard(['2222', '1111'].join('\n'));
    const played = samegame.replay(board, [
      { column: 1, row: 1 },
      { column: 1, row: 1 },
    ]);
    expect(played.score).toBe(4 + 4 + 1000);
    expect(played.left).toBe(0);
    expect(() => samegame.replay(board, [{ column: 1, row: 2 }, { column: 4, row: 2 }])).toThrow(/click 2/);
  });

  it('takes a board object back, checked', async () => {
    const board = samegame.parseBoard('1122\n2211');
    expect((await samegame.clear(board)).cleared).toBe(true);
    const error = await rejection(samegame.clear({ ...board, columns: [[1, 1, 1], [2]] }));
    expect(error.message).toMatch(/do not fit its 4×2 frame/);
  });

  it('reads cells separated by spaces and letters as colours', () => {
    const board = samegame.parseBoard('a b\nB a\n');
    expect(board.symbols).toEqual(['B', 'a', 'b']);
    expect(samegame.picture(board)).toBe('ab\nBa');
  });
});

describe('bad input', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['ragged rows', '123\n12\n', /line 2: 2 cells, expected 3/],
    ['an unknown character', '12\n1#\n', /line 2, column 2: unexpected character "#"/],
    ['a block over a hole', '1.\n.2\n12\n', /line 1, column 1: a block above an empty cell/],
    ['an empty column left of blocks', '1.1\n1.1\n', /line 2, column 2: an empty column/],
    ['an 11th colour', '0123456789a\n', /line 1, column 11: "a" is an 11th colour/],
    ['too wide a board', '1'.repeat(33), /at most 32×32/],
    ['nothing', '\n\n', /the board is empty/],
  ];
  for (const [name, text, message] of cases) {
    it(`${name} is BAD_INPUT`, async () => {
      const error = await rejection(samegame.clear(text));
      expect(error.code).toBe('BAD_INPUT');
      expect(error.message).toMatch(message);
    });
  }

  it('bad options are BAD_INPUT', async () => {
    for (const promise of [
      samegame.clear('11', { time: -1 }),
      samegame.minLeft('11', { maxNodes: 1.5 }),
      samegame.clear('11', { engine: 'gpu' as 'js' }),
      samegame.score('11', { seed: -3 }),
      samegame.score('11', { threads: 0 }),
    ]) {
      expect((await rejection(promise)).code).toBe('BAD_INPUT');
    }
  });
});

describe('random boards', () => {
  it('a seed names one board: full, of the size and colours asked, the same every time', () => {
    const board = samegame.randomBoard({ width: 15, height: 15, colours: 5, seed: 42 });
    expect([board.width, board.height, samegame.blocks(board), board.symbols]).toEqual([15, 15, 225, ['0', '1', '2', '3', '4']]);
    expect(samegame.picture(samegame.randomBoard({ width: 15, height: 15, colours: 5, seed: 42 }))).toBe(samegame.picture(board));
    expect(samegame.picture(samegame.randomBoard({ width: 15, height: 15, colours: 5, seed: 43 }))).not.toBe(samegame.picture(board));
    // The documented generator: mulberry32 (the tests' own `random`), one draw per cell from the top row down.
    const draw = random(42);
    const rows = Array.from({ length: 15 }, () => Array.from({ length: 15 }, () => String(Math.floor(draw() * 5))).join(''));
    expect(samegame.picture(board)).toBe(rows.join('\n'));
    expect(samegame.picture(samegame.randomBoard({ width: 3, height: 1, colours: 10 }))).toBe('605'); // seed 1 by default
    // Colours are about equally likely.
    const big = samegame.randomBoard({ width: 32, height: 32, colours: 4, seed: 9 });
    const tally = [0, 0, 0, 0, 0];
    for (const column of big.columns) for (const colour of column) tally[colour]++;
    for (const n of tally.slice(1)) expect(Math.abs(n - 256)).toBeLessThan(60);
  });

  it('counts: exactly those blocks of each colour, shuffled by the documented generator', () => {
    const tally = (board: samegame.SameGameBoard): Record<string, number> => {
      const t: Record<string, number> = {};
      for (const column of board.columns) for (const colour of column) t[board.symbols[colour - 1]] = (t[board.symbols[colour - 1]] ?? 0) + 1;
      return t;
    };
    const even = samegame.randomBoard({ width: 15, height: 15, colours: 5, seed: 42, counts: [45, 45, 45, 45, 45] });
    expect(tally(even)).toEqual({ 0: 45, 1: 45, 2: 45, 3: 45, 4: 45 });
    const dominant = samegame.randomBoard({ width: 15, height: 15, colours: 5, seed: 7, counts: [40, 65, 40, 40, 40] });
    expect(tally(dominant)).toEqual({ 0: 40, 1: 65, 2: 40, 3: 40, 4: 40 });
    // A colour may have no blocks; the same seed gives the same board, another seed another.
    expect(tally(samegame.randomBoard({ width: 4, height: 3, colours: 3, seed: 5, counts: [6, 0, 6] }))).toEqual({ 0: 6, 2: 6 });
    expect(samegame.picture(samegame.randomBoard({ width: 15, height: 15, colours: 5, seed: 42, counts: [45, 45, 45, 45, 45] }))).toBe(samegame.picture(even));
    expect(samegame.picture(samegame.randomBoard({ width: 15, height: 15, colours: 5, seed: 43, counts: [45, 45, 45, 45, 45] }))).not.toBe(samegame.picture(even));
    // The documented shuffle: colour 0's blocks first, then Fisher–Yates from the last cell down.
    const draw = random(42);
    const cells = [0, 1, 2, 3, 4].flatMap((colour) => Array<number>(45).fill(colour));
    for (let i = cells.length - 1; i > 0; i--) {
      const j = Math.floor(draw() * (i + 1));
      [cells[i], cells[j]] = [cells[j], cells[i]];
    }
    const rows = Array.from({ length: 15 }, (_, r) => cells.slice(r * 15, r * 15 + 15).join(''));
    expect(samegame.picture(even)).toBe(rows.join('\n'));
  });

  it('bad sizes, colours, seeds and counts are BAD_INPUT', () => {
    for (const [options, message] of [
      [{ width: 3, height: 3, colours: 3, counts: [3, 3] }, /counts must give the blocks of each of the 3 colours \(an array of 3 integers\), got \[3, 3\]/],
      [{ width: 3, height: 3, colours: 2, counts: [4, 4] }, /counts must add up to width × height = 9 blocks, got 8/],
      [{ width: 3, height: 3, colours: 2, counts: [10, -1] }, /counts\[0\] must be an integer from 0 to 9, got 10/],
      [{ width: 3, height: 3, colours: 2, counts: [4.5, 4.5] }, /counts\[0\] must be an integer/],
      [{ width: 3, height: 3, colours: 1, counts: 9 }, /counts must give the blocks of each of the 1 colours/],
      // A hole, which forEach would skip (the sum alone would not catch it).
      [{ width: 3, height: 3, colours: 2, counts: [, 9] }, /counts must give the blocks of each of the 2 colours/],
      [{ width: 0, height: 5, colours: 3 }, /width must be an integer from 1 to 32, got 0/],
      [{ width: 5, height: 33, colours: 3 }, /height must be an integer from 1 to 32, got 33/],
      [{ width: 5, height: 5, colours: 11 }, /colours must be an integer from 1 to 10, got 11/],
      [{ width: 5, height: 5, colours: 2.5 }, /colours must be an integer/],
      [{ width: 5, height: 5, colours: 3, seed: -1 }, /seed must be an integer from 0 to 4294967295, got -1/],
      [{ width: 5, height: 5, colours: 3, seed: 2 ** 32 }, /seed must be an integer/],
      [{ width: 5, height: 5, colours: 3, size: 2 }, /unknown option "size"/],
    ] as const) {
      const error = (() => {
        try {
          samegame.randomBoard(options as never);
        } catch (e) {
          return e as { code: string; message: string };
        }
        return null;
      })();
      expect(error?.code).toBe('BAD_INPUT');
      expect(error?.message).toMatch(message);
    }
  });
});

describe('clear and fewest left against a brute force', () => {
  const next = random(20261122);
  const boards: string[][] = [];
  for (let i = 0; i < 60; i++) boards.push(randomRows(2 + Math.floor(next() * 4), 2 + Math.floor(next() * 4), 2 + Math.floor(next() * 3), next));
  for (let i = 0; i < 40; i++) boards.push(randomRows(5, 5, 3, next));

  it('100 random boards: both engines agree with the oracle, node for node, and every line replays', async () => {
    let clearable = 0;
    for (const rows of boards) {
      const truth = bruteForce(rows);
      for (const engine of ['wasm', 'js'] as const) {
        const cleared = await samegame.clear(rows, { engine });
        expect(cleared.proved).toBe(true);
        expect(cleared.cleared).toBe(truth.minLeft === 0);
        const fewest = await samegame.minLeft(rows, { engine });
        expect(fewest.proved).toBe(true);
        expect(fewest.left).toBe(truth.minLeft);
        for (const result of [cleared, fewest]) {
          const played = replayOracle(rows, result.clicks);
          expect(played.left).toBe(result.left);
          expect(played.score).toBe(result.score);
        }
      }
      const [wasm, js] = await Promise.all([samegame.minLeft(rows), samegame.minLeft(rows, { engine: 'js' })]);
      expect(js.stats.nodes).toBe(wasm.stats.nodes);
      expect(js.clicks).toEqual(wasm.clicks);
      if (truth.minLeft === 0) clearable++;
    }
    // Both kinds are well represented.
    expect(clearable).toBeGreaterThan(20);
    expect(clearable).toBeLessThan(90);
  });

  it('a board the plain backtracker wastes nodes on is decided in fewer', async () => {
    const rows = ['32332', '31313', '32323', '22313', '31332'];
    const plain = plainBacktrackerNodes(rows);
    for (const engine of ['wasm', 'js'] as const) {
      const result = await samegame.clear(rows, { engine });
      expect(result.cleared).toBe(plain.cleared);
      expect(result.cleared).toBe(true);
      expect(result.stats.nodes).toBeLessThan(BigInt(plain.nodes));
    }
    expect(plain.nodes).toBeGreaterThan(150);
  });

  it('a lone colour makes a board unclearable at once', async () => {
    const result = await samegame.clear(['1122', '2213', '1122']);
    expect(result).toMatchObject({ cleared: false, proved: true, clicks: [] });
    expect(result.stats.nodes).toBe(1n);
  });

  it('a node budget stops the search with an unproved answer', async () => {
    const rows = randomRows(12, 12, 4, random(5));
    for (const engine of ['wasm', 'js'] as const) {
      const result = await samegame.minLeft(rows, { engine, maxNodes: 50 });
      expect(result.proved).toBe(false);
      expect(result.stats.nodes).toBeLessThanOrEqual(50n);
      expect(replayOracle(rows, result.clicks).left).toBe(result.left);
    }
  });

  it('a time limit stops the search', async () => {
    const rows = randomRows(20, 20, 5, random(9));
    const started = Date.now();
    const result = await samegame.clear(rows, { time: 0.3 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.proved || result.cleared).toBe(result.cleared);
  });

  it('an aborted search rejects with ABORTED', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(samegame.minLeft(randomRows(10, 10, 4, random(3)), { signal: controller.signal }));
    expect(error.code).toBe('ABORTED');
  });
});

describe('score', () => {
  it('on small boards whose every line the beam follows, the score is the brute-force best', async () => {
    const next = random(77);
    let proved = 0;
    for (let i = 0; i < 12; i++) {
      const rows = randomRows(4, 4, 3, next);
      const result = await samegame.score(rows, { threads: 1, maxNodes: 200_000 });
      const truth = bruteForce(rows);
      expect(replayOracle(rows, result.clicks)).toEqual({ score: result.score, left: result.left });
      expect(result.score).toBeLessThanOrEqual(truth.bestScore);
      if (result.proved) {
        expect(result.score).toBe(truth.bestScore);
        proved++;
      }
    }
    // The beam widens until it drops no child, so on boards this small every run ends proved.
    expect(proved).toBe(12);
  });

  it('a time budget spent before the first line is found answers the empty line (score 0), not an engine failure', async () => {
    const rows = ['32332', '31313', '32323', '22313', '31332'];
    for (const threads of [1, 2]) {
      const result = await samegame.score(rows, { time: 0.000001, threads });
      expect(replayOracle(rows, result.clicks)).toEqual({ score: result.score, left: result.left });
      expect(result.proved).toBe(false);
    }
  });

  const standard = readFileSync(new URL('./data/samegame-standard.txt', import.meta.url), 'utf8')
    .trim()
    .split(/\n\s*\n/);

  it('reads the 20 standard positions (boards 11-15 have 45 blocks of each colour)', () => {
    expect(standard).toHaveLength(20);
    standard.forEach((text, i) => {
      const board = samegame.parseBoard(text);
      expect([board.width, board.height, board.symbols.length]).toEqual([15, 15, 5]);
      if (i >= 10 && i < 15) {
        const tally = new Array(6).fill(0);
        for (const column of board.columns) for (const colour of column) tally[colour]++;
        expect(tally.slice(1)).toEqual([45, 45, 45, 45, 45]);
      }
    });
  });

  it('is deterministic for a seed, thread count and node budget, and its line replays', async () => {
    const rows = standard[0].split('\n');
    const options = { seed: 7, maxNodes: 20_000 };
    const one = await samegame.score(rows, { ...options, threads: 1 });
    const again = await samegame.score(rows, { ...options, threads: 1 });
    expect(again.clicks).toEqual(one.clicks);
    expect(again.score).toBe(one.score);
    const two = await samegame.score(rows, { ...options, threads: 2 });
    const twoAgain = await samegame.score(rows, { ...options, threads: 2 });
    expect(twoAgain.clicks).toEqual(two.clicks);
    for (const result of [one, two]) {
      expect(replayOracle(rows.map((r) => r.replace(/ /g, '')), result.clicks)).toEqual({ score: result.score, left: result.left });
      expect(result.score).toBeGreaterThan(500);
    }
  });
});

describe('score by NRPA, and from a given line', () => {
  const standard = readFileSync(new URL('./data/samegame-standard.txt', import.meta.url), 'utf8').trim().split(/\n\s*\n/);
  // The blocks of a colour on a board.
  const blocks = (board: { columns: number[][] }, colour: number) => board.columns.reduce((sum, column) => sum + column.filter((c) => c === colour).length, 0);
  const oracle = (text: string, clicks: Array<{ column: number; row: number }>) => replayOracle(text.split('\n').map((r) => r.replace(/ /g, '')), clicks);

  it('NRPA may play the colour it keeps for the end early, where the best line does (barring it, as the selective policy did, could not)', async () => {
    const next = random(2026);
    let boards = 0;
    for (let tries = 0; boards < 4 && tries < 500; tries++) {
      const rows = randomRows(4, 4, 3, next);
      // NRPA without a line keeps for the end the colour with the most blocks: boards where one
      // colour has the most, and every best line removes a group of it while others are left.
      const tally = new Map<string, number>();
      for (const ch of rows.join('')) tally.set(ch, (tally.get(ch) ?? 0) + 1);
      const sorted = [...tally].sort((a, b) => b[1] - a[1]);
      if (sorted.length > 1 && sorted[0][1] === sorted[1][1]) continue;
      const best = bruteForce(rows).bestScore;
      if (bruteForce(rows, sorted[0][0]).bestScore >= best) continue;
      boards++;
      const result = await samegame.score(rows, { method: 'nrpa', threads: 1, maxNodes: 100_000, seed: boards });
      expect(replayOracle(rows, result.clicks)).toEqual({ score: result.score, left: result.left });
      expect(result.score).toBe(best);
    }
    expect(boards).toBe(4);
  });

  it('NRPA keeps its list of moves from click to click, and that of the start board from playout to playout, on bitboards and byte boards alike: every listing is that of the board from scratch; adapting by the trace a playout noted plays the same games', async () => {
    const { acquireEngine, releaseEngine } = await import('../dist/wasm/module.js');
    const { wasmSameGameNrpa } = await import('../dist/samegame/engine.js');
    const { engineCells } = await import('../dist/samegame/board.js');
    // A standard position and random boards: 15×15 and 16×15 fit a bitboard; 20×12 and 17×16
    // play on byte boards; few colours empty and close columns often.
    const boards = [
      samegame.parseBoard(standard[0]),
      samegame.randomBoard({ width: 16, height: 15, colours: 3, seed: 5 }),
      samegame.randomBoard({ width: 15, height: 15, colours: 2, seed: 6 }),
      samegame.randomBoard({ width: 20, height: 12, colours: 4, seed: 7 }),
      samegame.randomBoard({ width: 17, height: 16, colours: 2, seed: 8 }),
    ];
    const exports = await acquireEngine();
    try {
      for (const board of boards) {
        const nrpa = wasmSameGameNrpa(exports);
        expect(nrpa.start(engineCells(board), board.width, board.height, 2, 10, 1, 12, 3, [], 0, 1)).toBe(0);
        exports.samegameNrpaCheckListings(1);
        nrpa.run(300); // playouts and adaptations
        expect(nrpa.playouts()).toBeGreaterThan(100n);
        expect(exports.samegameNrpaListingErrors()).toBe(0);
        exports.samegameNrpaCheckListings(0);
        // Unchecked, an adaptation uses the trace its line's playout noted as it played (or
        // one made before) instead of replaying the line: the same weights, so the same games.
        const checked = { playouts: nrpa.playouts(), score: nrpa.score(), line: nrpa.line() };
        expect(nrpa.start(engineCells(board), board.width, board.height, 2, 10, 1, 12, 3, [], 0, 1)).toBe(0);
        nrpa.run(300);
        expect({ playouts: nrpa.playouts(), score: nrpa.score(), line: nrpa.line() }).toEqual(checked);
      }
      // From a known line NRPA keeps that line's colour for the end, after listing the start
      // board under the colour it keeps without one (here the beam's line builds its largest
      // group of colour 2, the board has more of colour 1): every listing after must code the
      // new colour, the start board's kept listing among them.
      const board = boards[2];
      const beam = await samegame.score(board, { method: 'beam', threads: 1, maxNodes: 20_000, seed: 1 });
      const line = beam.clicks.map((click) => (click.column - 1) * board.height + (click.row - 1));
      const nrpa = wasmSameGameNrpa(exports);
      expect(nrpa.start(engineCells(board), board.width, board.height, 2, 10, 1, 12, 3, [], 0, 1)).toBe(0);
      expect(exports.samegameNrpaTabu()).toBe(1);
      exports.samegameNrpaCheckListings(1);
      expect(nrpa.start(engineCells(board), board.width, board.height, 2, 10, 1, 12, 3, line, beam.score, 1)).toBe(0);
      expect(exports.samegameNrpaTabu()).toBe(2);
      nrpa.run(300);
      expect(exports.samegameNrpaListingErrors()).toBe(0);
      exports.samegameNrpaCheckListings(0);
    } finally {
      releaseEngine(exports);
    }
  });

  it("the beam's fixed rule holds back the start board's most common colour, of equals the one in the fewest groups", async () => {
    const { acquireEngine, releaseEngine } = await import('../dist/wasm/module.js');
    const { wasmSameGameBeam } = await import('../dist/samegame/engine.js');
    const { engineCells } = await import('../dist/samegame/board.js');
    // Groups of a colour, single blocks counted, by a flood fill over the columns here.
    const groups = (board: { columns: number[][] }, colour: number) => {
      const seen = new Set<string>();
      let count = 0;
      board.columns.forEach((column, c) => column.forEach((value, r) => {
        if (value !== colour || seen.has(`${c},${r}`)) return;
        count++;
        const stack = [[c, r]];
        seen.add(`${c},${r}`);
        while (stack.length > 0) {
          const [x, y] = stack.pop()!;
          for (const [nx, ny] of [[x + 1, y], [x - 1, y], [x, y + 1], [x, y - 1]]) {
            if (board.columns[nx]?.[ny] !== colour || seen.has(`${nx},${ny}`)) continue;
            seen.add(`${nx},${ny}`);
            stack.push([nx, ny]);
          }
        }
      }));
      return count;
    };
    // Boards of even colours (standard position 11, random ones), of drawn colours, a byte board.
    const boards = [
      samegame.parseBoard(standard[10]),
      ...[1, 2, 3].map((seed) => samegame.randomBoard({ width: 15, height: 15, colours: 5, seed, counts: [45, 45, 45, 45, 45] })),
      samegame.randomBoard({ width: 15, height: 15, colours: 5, seed: 1003 }),
      samegame.randomBoard({ width: 20, height: 12, colours: 4, seed: 7 }),
    ];
    let notLowest = 0;
    const exports = await acquireEngine();
    try {
      for (const board of boards) {
        const colours = [...new Set(board.columns.flat())].sort((a, b) => a - b);
        const most = Math.max(...colours.map((c) => blocks(board, c)));
        const tied = colours.filter((c) => blocks(board, c) === most);
        const gathered = tied.reduce((top, c) => (groups(board, c) < groups(board, top) ? c : top));
        const beam = wasmSameGameBeam(exports);
        expect(beam.start(engineCells(board), board.width, board.height, 4, 1, 0, 1, [], -1, true)).toBe(0);
        expect(exports.samegameBeamTabu()).toBe(gathered);
        if (gathered !== tied[0]) notLowest++;
        expect(beam.start(engineCells(board), board.width, board.height, 4, 1, 0, 1, [], -1, false)).toBe(0);
        expect(exports.samegameBeamTabu()).toBe(0);
      }
    } finally {
      releaseEngine(exports);
    }
    // The tie-break is seen at work: on some board of even colours the lowest is not the one.
    expect(notLowest).toBeGreaterThan(0);
  });

  it("NRPA keeps for the end the colour with the most blocks, or from a known line the colour of the line's largest group", async () => {
    const { acquireEngine, releaseEngine } = await import('../dist/wasm/module.js');
    const { wasmSameGameNrpa } = await import('../dist/samegame/engine.js');
    const { engineCells } = await import('../dist/samegame/board.js');
    // Standard position 11 has 45 blocks of each colour (the first wins the tie); random boards, bit and byte boards.
    const boards = [
      samegame.parseBoard(standard[10]),
      samegame.randomBoard({ width: 15, height: 15, colours: 5, seed: 1003 }),
      samegame.randomBoard({ width: 15, height: 15, colours: 5, seed: 1004 }),
      samegame.randomBoard({ width: 20, height: 12, colours: 4, seed: 7 }),
    ];
    let differ = 0;
    const exports = await acquireEngine();
    try {
      for (const board of boards) {
        const colours = [...new Set(board.columns.flat())].sort((a, b) => a - b);
        const most = colours.reduce((top, c) => (blocks(board, c) > blocks(board, top) ? c : top));
        const nrpa = wasmSameGameNrpa(exports);
        expect(nrpa.start(engineCells(board), board.width, board.height, 2, 10, 1, 12, 3, [], 0, 1)).toBe(0);
        expect(exports.samegameNrpaTabu()).toBe(most);
        // A line of the beam, and the colour and size of each of its groups, replayed here.
        const { clicks, score } = await samegame.score(board, { method: 'beam', maxNodes: 30_000, threads: 1, seed: 2 });
        const played = samegame.replay(board, clicks);
        let largest = { size: 0, colour: 0 };
        clicks.forEach((click, i) => {
          const before = i === 0 ? board : played.boards[i - 1];
          const colour = before.columns[click.column - 1][click.row - 1];
          const size = blocks(before, colour) - blocks(played.boards[i], colour);
          if (size > largest.size) largest = { size, colour };
        });
        const line = clicks.map((click) => (click.column - 1) * board.height + (click.row - 1));
        expect(nrpa.start(engineCells(board), board.width, board.height, 2, 10, 1, 12, 3, line, score, 1)).toBe(0);
        expect(exports.samegameNrpaTabu()).toBe(largest.colour);
        if (largest.colour !== most) differ++;
        nrpa.run(200);
        expect(nrpa.score()).toBeGreaterThanOrEqual(score);
      }
    } finally {
      releaseEngine(exports);
    }
    // The rule is seen at work: some line builds its big group of another colour.
    expect(differ).toBeGreaterThan(0);
  });

  it('every method answers lines that replay to their score, on small and random boards (never above the brute-force best)', async () => {
    const next = random(91);
    for (let i = 0; i < 8; i++) {
      const rows = randomRows(3 + (i % 3), 4, 3, next);
      const truth = bruteForce(rows);
      for (const method of ['beam', 'nrpa', 'hybrid'] as const) {
        const result = await samegame.score(rows, { method, threads: 1, maxNodes: 400, seed: i });
        expect(replayOracle(rows, result.clicks)).toEqual({ score: result.score, left: result.left });
        expect(result.score).toBeLessThanOrEqual(truth.bestScore);
      }
    }
    const board = samegame.randomBoard({ width: 12, height: 9, colours: 4, seed: 3 });
    const result = await samegame.score(board, { method: 'nrpa', threads: 2, maxNodes: 600 });
    expect(replayOracle(samegame.picture(board).split('\n'), result.clicks)).toEqual({ score: result.score, left: result.left });
  });

  it('boards of up to 16 columns of 15 rows play on bitboards, larger ones on byte boards: both replay, by both methods', async () => {
    for (const [width, height] of [[16, 15], [17, 8], [8, 16], [15, 15]]) {
      const board = samegame.randomBoard({ width, height, colours: 4, seed: width * height });
      const rows = samegame.picture(board).split('\n');
      for (const method of ['beam', 'nrpa'] as const) {
        const result = await samegame.score(board, { method, threads: 1, maxNodes: 3000, seed: 4 });
        expect(replayOracle(rows, result.clicks)).toEqual({ score: result.score, left: result.left });
        expect(result.clicks.length).toBeGreaterThan(10);
        // From its own line, a run scores at least as much (the line is read back on either board).
        const again = await samegame.score(board, { method, threads: 1, maxNodes: 300, seed: 5, start: result.clicks });
        expect(again.score).toBeGreaterThanOrEqual(result.score);
        expect(replayOracle(rows, again.clicks)).toEqual({ score: again.score, left: again.left });
      }
    }
  });

  it('NRPA on a standard position: the same seed and thread count give the same line, which replays', async () => {
    const options = { method: 'nrpa' as const, seed: 5, maxNodes: 1200 };
    for (const threads of [1, 2]) {
      const one = await samegame.score(standard[1], { ...options, threads });
      const again = await samegame.score(standard[1], { ...options, threads });
      expect(again.clicks).toEqual(one.clicks);
      expect(oracle(standard[1], one.clicks)).toEqual({ score: one.score, left: one.left });
      expect(one.score).toBeGreaterThan(500);
      expect(one.stats).toMatchObject({ threads, parts: threads });
    }
  });

  it('a run from a given line scores at least as much (both methods), and a line that does not replay is BAD_INPUT', async () => {
    const first = await samegame.score(standard[2], { method: 'beam', threads: 1, maxNodes: 3000, seed: 2 });
    for (const method of ['beam', 'nrpa', 'hybrid'] as const) {
      const again = await samegame.score(standard[2], { method, threads: 1, maxNodes: 300, seed: 9, start: first.clicks });
      expect(again.score).toBeGreaterThanOrEqual(first.score);
      expect(oracle(standard[2], again.clicks)).toEqual({ score: again.score, left: again.left });
    }
    const error = await rejection(samegame.score(standard[2], { method: 'nrpa', maxNodes: 100, start: [{ column: 40, row: 1 }] }));
    expect(error.code).toBe('BAD_INPUT');
    expect(error.message).toMatch(/start: click 1: the click at column 40, row 1 hits no block/);
    expect((await rejection(samegame.score(standard[2], { method: 'mcts' as 'beam', maxNodes: 100 }))).message).toMatch(/method must be 'beam', 'nrpa' or 'hybrid', got "mcts"/);
  });

  it('the hybrid plays the beam for its share of the budget, then NRPA from its best line; a short budget plays the beam alone by default', async () => {
    const updates: samegame.ScoreUpdate[] = [];
    const maxNodes = 64_000;
    const result = await samegame.score(standard[5], { method: 'hybrid', threads: 1, maxNodes, seed: 4, onUpdate: (u) => updates.push(u) });
    expect(oracle(standard[5], result.clicks)).toEqual({ score: result.score, left: result.left });
    // One round of each: the beam's ends with its best line, NRPA's starts from it and ends at least as high.
    const rounds = updates.map((u) => u.method).filter((m, i, all) => m !== all[i - 1]);
    expect(rounds).toEqual(['beam', 'nrpa']);
    const beamBest = updates.filter((u) => u.method === 'beam').at(-1)!.score;
    expect(result.score).toBeGreaterThanOrEqual(beamBest);
    expect(updates.at(-1)).toMatchObject({ score: result.score, method: 'nrpa', level: samegame.NRPA_LEVELS });
    expect(result.stats.parts).toBe(2);
    // maxNodes is in beam nodes: HYBRID_BEAM_SHARE of them for the beam (this budget is too
    // small to size a run, so the beam spends its share), what it left in NRPA nodes of the same CPU.
    const beamAlone = await samegame.score(standard[5], { method: 'beam', threads: 1, maxNodes: maxNodes * samegame.HYBRID_BEAM_SHARE, seed: 4 });
    // NRPA ends the adaptations its last playout set off (a node each, at most one a level, and
    // a restart of the top level), so it may pass its share by that much.
    const nrpaBudget = BigInt(Math.round((maxNodes - Number(beamAlone.stats.nodes)) / samegame.NRPA_NODE_COST));
    const nrpaNodes = result.stats.nodes - beamAlone.stats.nodes;
    expect(nrpaNodes).toBeGreaterThanOrEqual(nrpaBudget);
    expect(nrpaNodes).toBeLessThanOrEqual(nrpaBudget + BigInt(samegame.NRPA_LEVELS + 1));
    // The default for a short budget is the beam alone: one round (test-slow checks a long one's).
    const short = await samegame.score(standard[5], { threads: 1, maxNodes: 2000, seed: 4 });
    expect(short.stats.parts).toBe(1);
    // onUpdate only reports: without it the same budget and seed play the same game.
    const unwatched = await samegame.score(standard[5], { method: 'hybrid', threads: 1, maxNodes, seed: 4 });
    expect(unwatched.clicks).toEqual(result.clicks);
    expect(unwatched.stats.nodes).toBe(result.stats.nodes);
  });

  it("the hybrid's beam stops after its run sized to the budget (sizedOnce), leaving the rest to NRPA", async () => {
    const board = samegame.parseBoard(standard[5]);
    const part = { method: 'beam' as const, cells: Array.from(engineCellsOf(board)), width: 15, height: 15, seed: 4, deadline: null, maxNodes: 600_000, beams: BEAMS, level: 0, playouts: 3, nrpaBeam: 1, maxMemory: 1 << 27, known: [], knownScore: -1 };
    const all = await runScoreTask(part);
    const once = await runScoreTask({ ...part, sizedOnce: true });
    // The same runs up to the sized one, which ends the part; without sizedOnce narrower runs follow it.
    expect(once.runs).toBeLessThan(all.runs);
    expect(once.nodes).toBeLessThan(all.nodes);
    expect(Number(once.nodes)).toBeGreaterThan(0.5 * part.maxNodes);
    expect(samegame.replay(board, once.line.map((cell) => ({ column: Math.floor(cell / 15) + 1, row: (cell % 15) + 1 }))).score).toBe(once.score);
  });

  it("the beam's odd threads hold back the start board's most common colour all game (fixedTabu)", async () => {
    const board = samegame.parseBoard(standard[0]);
    const part = { method: 'beam' as const, cells: Array.from(engineCellsOf(board)), width: 15, height: 15, seed: 1, deadline: null, maxNodes: 150_000, beams: BEAMS, level: 0, playouts: 3, nrpaBeam: 1, maxMemory: 1 << 27, known: [], knownScore: -1 };
    const lineScore = (line: number[]) => samegame.replay(board, line.map((cell) => ({ column: Math.floor(cell / 15) + 1, row: (cell % 15) + 1 }))).score;
    // The two rules play different games, each line replaying to its score.
    const [each, fixed] = await Promise.all([runScoreTask(part), runScoreTask({ ...part, fixedTabu: true })]);
    expect(fixed.line).not.toEqual(each.line);
    expect(lineScore(each.line)).toBe(each.score);
    expect(lineScore(fixed.line)).toBe(fixed.score);
    // score() on 2 threads gives thread 1 the fixed rule: its answer is the better of the two
    // parts, here thread 1's.
    const threads = await Promise.all([0, 1].map((i) => runScoreTask({ ...part, seed: (1 + i * 0x3c6ef372) >>> 0, fixedTabu: i === 1 })));
    expect(threads[1].score).toBeGreaterThan(threads[0].score);
    const two = await samegame.score(board, { method: 'beam', threads: 2, maxNodes: 2 * part.maxNodes, seed: 1 });
    expect(two.score).toBe(threads[1].score);
    expect(lineScore(threads[1].line)).toBe(two.score);
  });

  it('a long run reports its best line while it runs (from the worker threads), each replaying to its score', async () => {
    for (const method of ['beam', 'nrpa'] as const) {
      const updates: samegame.ScoreUpdate[] = [];
      const result = await samegame.score(standard[3], { method, threads: 2, time: 3, seed: 3, onUpdate: (u) => updates.push(u) });
      // At least one report from inside the round (the runs post about every second), then the round's end.
      expect(updates.length).toBeGreaterThanOrEqual(2);
      expect(updates[0].seconds).toBeLessThan(3);
      for (const [i, update] of updates.entries()) {
        expect(oracle(standard[3], update.clicks)).toEqual({ score: update.score, left: expect.any(Number) });
        if (i > 0) expect(update.score).toBeGreaterThanOrEqual(updates[i - 1].score);
        // When the best improved: in time order, up to the update's own time, ending at its score.
        const times = update.timeline.map((t) => t.seconds);
        expect(times).toEqual([...times].sort((a, b) => a - b));
        expect(times.every((t) => t >= 0 && t <= update.seconds + 0.1)).toBe(true);
        expect(update.timeline.at(-1)?.score).toBe(update.score);
      }
      expect(updates.at(-1)).toMatchObject({ score: result.score, clicks: result.clicks, method });
    }
  });

  it('a long run in rounds reports the best line after each round, each as good as the last', async () => {
    const updates: samegame.ScoreUpdate[] = [];
    // Rounds of ROUND_SECONDS are too long for a test: a time budget shorter than a round is one round.
    const result = await samegame.score(standard[0], { method: 'nrpa', threads: 1, time: 0.3, onUpdate: (u) => updates.push(u) });
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({ score: result.score, clicks: result.clicks, method: 'nrpa', level: samegame.NRPA_LEVELS });
    expect(updates[0].playoutsPerSecond).toBeGreaterThan(0);
  });

  it('a run in rounds with both a long time and maxNodes stops when the nodes are spent, not when the time is', async () => {
    const updates: samegame.ScoreUpdate[] = [];
    const controller = new AbortController();
    // Were each round to get the whole node budget again, this would play for 100 s: the abort makes that a failure, not a hang.
    const guard = setTimeout(() => controller.abort(), 20_000);
    const maxNodes = 20_000;
    const result = await samegame.score(standard[0], { method: 'nrpa', threads: 1, time: 100, maxNodes, signal: controller.signal, onUpdate: (u) => updates.push(u) });
    clearTimeout(guard);
    expect(result.stats.nodes).toBeLessThanOrEqual(BigInt(maxNodes + 1_000));
    expect(result.stats.parts).toBe(1);
    // One round; a round that takes over a second (a loaded machine) may also report its
    // best line while it runs, so the end-of-round update is the last, not always the only one.
    expect(updates.length).toBeGreaterThanOrEqual(1);
    expect(updates.at(-1)).toMatchObject({ score: result.score, clicks: result.clicks, method: 'nrpa' });
  });
});

describe('the records on the standard positions (bench/data/samegame-records.json)', () => {
  const standard = readFileSync(new URL('../bench/data/samegame-standard.txt', import.meta.url), 'utf8').trim().split(/\n\s*\n/);
  const records = JSON.parse(readFileSync(new URL('../bench/data/samegame-records.json', import.meta.url), 'utf8')) as {
    positions: Array<{ position: number; score: number; left: number; clicks: string }>;
    total: number;
  };

  it("every saved line replays on its position to its score (the engine's replay and the oracle agree)", () => {
    expect(records.positions.map((r) => r.position)).toEqual(standard.map((_, i) => i + 1));
    for (const record of records.positions) {
      const clicks = record.clicks.split(' ').map((pair) => {
        const [column, row] = pair.split(',').map(Number);
        return { column, row };
      });
      const text = standard[record.position - 1];
      expect(replayOracle(text.split('\n').map((r) => r.replace(/ /g, '')), clicks)).toEqual({ score: record.score, left: record.left });
      expect(samegame.replay(text, clicks)).toMatchObject({ score: record.score, left: record.left });
    }
    expect(records.total).toBe(records.positions.reduce((sum, r) => sum + r.score, 0));
  });

  it("the README's records table lists the same scores and total", () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('Records on the 20 standard positions'));
    const listed = new Map<number, number>();
    for (const m of section.matchAll(/^\| (\d+) \| ([\d,]+) \| (\d+) \| ([\d,]+) \|$/gm)) {
      listed.set(Number(m[1]), Number(m[2].replace(/,/g, '')));
      listed.set(Number(m[3]), Number(m[4].replace(/,/g, '')));
    }
    expect([...listed.entries()].sort((a, b) => a[0] - b[0])).toEqual(records.positions.map((r) => [r.position, r.score]));
    expect(section).toContain(`**${records.total.toLocaleString('en')}**`);
  });
});

describe('score by Beam NRPA (nrpaBeam)', () => {
  const standard = readFileSync(new URL('./data/samegame-standard.txt', import.meta.url), 'utf8').trim().split(/\n\s*\n/);
  const oracle = (text: string, clicks: Array<{ column: number; row: number }>) => replayOracle(text.split('\n').map((r) => r.replace(/ /g, '')), clicks);
  const levels = samegame.NRPA_LEVELS;
  // Nodes of one run of the level below the top (NRPA_ITERATIONS iterations a level, 4 playouts
  // and an adaptation an iteration at level 1, a policy copy per run), so that a budget of
  // a few of these passes through the beam's choices.
  const below = (samegame.NRPA_ITERATIONS + 2) ** (levels - 1) * 5;

  it('its lines replay to their score, never above the brute-force best of small boards, past several choices of the beam', async () => {
    const next = random(17);
    for (let i = 0; i < 6; i++) {
      const rows = randomRows(3 + (i % 2), 4, 3, next);
      const truth = bruteForce(rows);
      const result = await samegame.score(rows, { method: 'nrpa', nrpaBeam: 3, threads: 1, maxNodes: 6 * below, seed: i });
      expect(replayOracle(rows, result.clicks)).toEqual({ score: result.score, left: result.left });
      expect(result.score).toBeLessThanOrEqual(truth.bestScore);
    }
  });

  it('the same seed and thread count give the same line; from a given line it scores at least as much', async () => {
    const board = samegame.randomBoard({ width: 6, height: 6, colours: 4, seed: 6 });
    const rows = samegame.picture(board).split('\n');
    for (const threads of [1, 2]) {
      const options = { method: 'nrpa' as const, nrpaBeam: 4, seed: 3, threads, maxNodes: 2 * threads * below };
      const one = await samegame.score(board, options);
      const again = await samegame.score(board, options);
      expect(again.clicks).toEqual(one.clicks);
      expect(replayOracle(rows, one.clicks)).toEqual({ score: one.score, left: one.left });
      expect(one.stats).toMatchObject({ threads, parts: threads });
    }
    const first = await samegame.score(standard[4], { method: 'beam', threads: 1, maxNodes: 3000, seed: 2 });
    const resumed = await samegame.score(standard[4], { method: 'nrpa', nrpaBeam: 2, threads: 1, maxNodes: 300, seed: 9, start: first.clicks });
    expect(resumed.score).toBeGreaterThanOrEqual(first.score);
    expect(oracle(standard[4], resumed.clicks)).toEqual({ score: resumed.score, left: resumed.left });
  });

  it('nrpaBeam is an integer from 1 to NRPA_MAX_BEAM, for method nrpa only (BAD_INPUT)', async () => {
    for (const [options, message] of [
      [{ method: 'nrpa', nrpaBeam: 0 }, /nrpaBeam must be an integer from 1 to 16, got 0/],
      [{ method: 'nrpa', nrpaBeam: samegame.NRPA_MAX_BEAM + 1 }, /nrpaBeam must be an integer from 1 to 16, got 17/],
      [{ method: 'nrpa', nrpaBeam: 2.5 }, /nrpaBeam must be an integer from 1 to 16, got 2.5/],
      [{ method: 'beam', nrpaBeam: 2 }, /nrpaBeam is for method 'nrpa' or 'hybrid'/],
      [{ nrpaBeam: 2 }, /nrpaBeam is for method 'nrpa' or 'hybrid'/],
    ] as const) {
      const error = await rejection(samegame.score(standard[0], { maxNodes: 10, ...(options as object) }));
      expect(error.code).toBe('BAD_INPUT');
      expect(error.message).toMatch(message);
    }
  });
});

describe('bitpuzzle samegame', () => {
  const bin = fileURLToPath(new URL('../bin/bitpuzzle', import.meta.url));
  const run = (args: string[], input?: string) => {
    const result = spawnSync(process.execPath, [bin, 'samegame', ...args], { input, encoding: 'utf8', timeout: 60_000 });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  const rows = ['32332', '31313', '32323', '22313', '31332'];

  it('--clear --json gives the clicks, and they replay', () => {
    const { status, stdout } = run(['-', '--clear', '--json'], rows.join('\n'));
    expect(status).toBe(0);
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ cleared: true, proved: true, left: 0 });
    expect(replayOracle(rows, result.clicks)).toEqual({ score: result.score, left: 0 });
    expect(result.stats.nodes).toBeGreaterThan(0);
  });

  it('--min-left prints each click and the board after it', () => {
    const { status, stdout } = run(['-', '--min-left'], '1122\n2213\n1122\n');
    expect(status).toBe(0);
    expect(stdout).toMatch(/click 1: column \d+, row \d+/);
    expect(stdout).toMatch(/fewest blocks left: \d+ \(proved\)/);
  });

  it('--score --json is deterministic with a seed and node budget', () => {
    const args = ['-', '--score', '--seed', '3', '--nodes', '2000', '--threads', '1', '--json'];
    const first = JSON.parse(run(args, rows.join('\n')).stdout);
    const second = JSON.parse(run(args, rows.join('\n')).stdout);
    expect(second.clicks).toEqual(first.clicks);
    expect(replayOracle(rows, first.clicks).score).toBe(first.score);
  });

  it('--random prints a reproducible board, plays it with a mode, and rejects bad sizes', () => {
    const printed = run(['--random', '6x4', '--colours', '3', '--seed', '5']);
    expect(printed.status).toBe(0);
    expect(printed.stdout.trim()).toBe(samegame.picture(samegame.randomBoard({ width: 6, height: 4, colours: 3, seed: 5 })));
    const json = JSON.parse(run(['--random', '6x4', '--colours', '3', '--seed', '5', '--json']).stdout);
    expect(json).toEqual({ mode: 'random', width: 6, height: 4, colours: 3, board: printed.stdout.trim().split('\n') });
    const played = JSON.parse(run(['--random', '6x4', '--colours', '3', '--seed', '5', '--min-left', '--json']).stdout);
    expect(replayOracle(printed.stdout.trim().split('\n'), played.clicks).left).toBe(played.left);
    // --counts: the blocks of each colour (their number the colours unless --colours says).
    const counted = run(['--random', '6x4', '--counts', '12, 0,12', '--seed', '5']);
    expect(counted.status).toBe(0);
    expect(counted.stdout.trim()).toBe(samegame.picture(samegame.randomBoard({ width: 6, height: 4, colours: 3, seed: 5, counts: [12, 0, 12] })));
    expect([...counted.stdout].filter((c) => c === '0').length).toBe(12);
    for (const [args, message] of [
      [['--random', '6x4', '--counts', '12,12', '--colours', '3'], /counts must give the blocks of each of the 3 colours/],
      [['--random', '6x4', '--counts', '12,11'], /counts must add up to width × height = 24 blocks, got 23/],
      [['--random', '6x4', '--counts', '12;12'], /--counts takes the blocks of each colour separated by commas/],
      [['-', '--counts', '3'], /--counts does not work without --random/],
      [['--random', '6by4'], /--random takes a size WxH/],
      [['--random', '33x4'], /width must be an integer from 1 to 32, got 33/],
      [['--random', '6x4', '--colours', '11'], /--colours must be an integer from 1 to 10/],
      [['--random', '6x4', '--seed', '-1'], /--seed must be an integer from 0/],
      [['-', '--colours', '3'], /--colours does not work without --random/],
      [['board.txt', '--random', '6x4'], /a board file or --random, not both/],
      [['--random', '6x4', '--time', '2'], /--time does not work with --random and no mode/],
    ] as const) {
      const { status, stderr } = run([...args]);
      expect(status).toBe(2);
      expect(stderr).toMatch(message);
    }
  });

  it('--save keeps the best line on disk, --resume starts from it and keeps its score; a file for another board is BAD_INPUT', () => {
    const dir = tempDir('bitpuzzle-samegame-');
    const board = join(dir, 'board.txt');
    const other = join(dir, 'other.txt');
    const saved = join(dir, 'best.json');
    writeFileSync(board, samegame.picture(samegame.randomBoard({ width: 10, height: 10, colours: 4, seed: 1 })));
    writeFileSync(other, samegame.picture(samegame.randomBoard({ width: 10, height: 10, colours: 4, seed: 2 })));
    const first = run([board, '--score', '--method', 'nrpa', '--nodes', '400', '--threads', '1', '--save', saved, '--json']);
    expect(first.status, first.stderr).toBe(0);
    const result = JSON.parse(first.stdout);
    const file = JSON.parse(readFileSync(saved, 'utf8'));
    expect(file).toMatchObject({ format: 'bitpuzzle-samegame-line', version: 1, score: result.score, clicks: result.clicks });
    expect(replayOracle(file.board, file.clicks).score).toBe(file.score);
    // A short run from the saved line, by either method, never scores less.
    for (const method of ['beam', 'nrpa']) {
      const resumed = run([board, '--score', '--method', method, '--nodes', '50', '--threads', '1', '--seed', '4', '--resume', saved, '--save', saved, '--json']);
      expect(resumed.status, resumed.stderr).toBe(0);
      expect(JSON.parse(resumed.stdout).score).toBeGreaterThanOrEqual(result.score);
      expect(JSON.parse(readFileSync(saved, 'utf8')).score).toBe(JSON.parse(resumed.stdout).score);
    }
    const wrong = run([other, '--score', '--nodes', '50', '--resume', saved]);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(/the saved line is for another board/);
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ ...file, score: file.score + 1 }));
    expect(run([board, '--score', '--nodes', '50', '--resume', join(dir, 'bad.json')]).stderr).toMatch(/the clicks score \d+, not \d+ as the file says/);
    expect(run([board, '--score', '--nodes', '50', '--save', join(dir, 'missing', 'x.json')]).status).toBe(2);
    expect(run([board, '--save', saved]).stderr).toMatch(/--save does not work without --score/);
  });

  it('--nrpa-beam B plays Beam NRPA (its line replays); without --method nrpa it exits 2', () => {
    const board = samegame.picture(samegame.randomBoard({ width: 7, height: 6, colours: 3, seed: 8 }));
    const { status, stdout, stderr } = run(['-', '--score', '--method', 'nrpa', '--nrpa-beam', '3', '--nodes', '2000', '--threads', '1', '--json'], board);
    expect(status, stderr).toBe(0);
    const result = JSON.parse(stdout);
    expect(replayOracle(board.split('\n'), result.clicks)).toEqual({ score: result.score, left: result.left });
    const wrong = run(['-', '--score', '--nrpa-beam', '3', '--nodes', '200'], board);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(/--nrpa-beam does not work without --method nrpa or hybrid/);
    expect(run(['-', '--score', '--method', 'nrpa', '--nrpa-beam', '17', '--nodes', '200'], board).status).toBe(2);
  });

  it('--nrpa-shared plays parallel NRPA (its line replays, a part a thread a batch); without --method nrpa or with --nrpa-beam it exits 2', () => {
    const board = samegame.picture(samegame.randomBoard({ width: 8, height: 7, colours: 3, seed: 12 }));
    const { status, stdout, stderr } = run(['-', '--score', '--method', 'nrpa', '--nrpa-shared', '--nodes', '3000', '--threads', '2', '--json'], board);
    expect(status, stderr).toBe(0);
    const result = JSON.parse(stdout);
    expect(replayOracle(board.split('\n'), result.clicks)).toEqual({ score: result.score, left: result.left });
    expect(result.stats.parts % 2).toBe(0);
    const wrong = run(['-', '--score', '--nrpa-shared', '--nodes', '200'], board);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(/--nrpa-shared does not work without --method nrpa or hybrid/);
    expect(run(['-', '--score', '--method', 'nrpa', '--nrpa-shared', '--nrpa-beam', '2', '--nodes', '200'], board).status).toBe(2);
  });

  it('--method hybrid (with --nrpa-beam) plays the beam, then NRPA: its line replays, parts count both rounds; an unknown method exits 2', () => {
    const board = samegame.picture(samegame.randomBoard({ width: 7, height: 6, colours: 3, seed: 8 }));
    const { status, stdout, stderr } = run(['-', '--score', '--method', 'hybrid', '--nrpa-beam', '2', '--nodes', '4000', '--threads', '1', '--json'], board);
    expect(status, stderr).toBe(0);
    const result = JSON.parse(stdout);
    expect(replayOracle(board.split('\n'), result.clicks)).toEqual({ score: result.score, left: result.left });
    expect(result.stats.parts).toBe(2);
    const unknown = run(['-', '--score', '--method', 'mcts', '--nodes', '200'], board);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/mcts/);
  });

  it('bad input exits 2 with the line and column', () => {
    const { status, stderr } = run(['-'], '12\n1x?\n');
    expect(status).toBe(2);
    expect(stderr).toMatch(/BAD_INPUT: line 2, column 3/);
    expect(run(['-', '--clear', '--score'], '11').status).toBe(2);
  });
});

describe('parallel NRPA: the threads share the top level', () => {
  const standardBoard = samegame.parseBoard(readFileSync(fileURLToPath(new URL('../bench/data/samegame-standard.txt', import.meta.url)), 'utf8').trim().split(/\n\s*\n/)[3]);
  const cells = Array.from(engineCellsOf(standardBoard));
  const part = (extra: object) => ({ method: 'nrpa' as const, cells, width: 15, height: 15, seed: 11, deadline: null, maxNodes: 1_000_000, beams: [1], level: 1, playouts: 4, nrpaBeam: 1, maxMemory: 1 << 26, known: [], knownScore: -1, ...extra });

  it('a part runs its top level once and stops by itself: 400 playouts and 100 adaptations at level 1', async () => {
    const once = await runScoreTask(part({ above: [] }));
    expect(once.nodes).toBe(500n);
    expect(once.playouts).toBe(400);
    // Without `above` the same run goes on to the budget (the top level restarts).
    const on = await runScoreTask(part({ maxNodes: 1200 }));
    expect(on.nodes).toBe(1200n);
  });

  it("a part's policy is adapted toward the level above's lines first, as a run from a known line adapts toward it", async () => {
    const line = (await runScoreTask(part({ seed: 3, maxNodes: 300 }))).line;
    const played = samegame.replay(standardBoard, line.map((cell) => ({ column: Math.floor(cell / 15) + 1, row: (cell % 15) + 1 })));
    // The same seed and one adaptation toward the line before the first playout: the same 4
    // playouts up to the first adaptation at level 1 (after which the known run adapts toward the
    // known line, the other toward its own best).
    const above = await runScoreTask(part({ maxNodes: 5, above: [line] }));
    const known = await runScoreTask(part({ maxNodes: 5, known: line, knownScore: played.score }));
    expect(above.playouts).toBe(4);
    expect(above.nodes).toBe(known.nodes);
    expect(above.playouts).toBe(known.playouts);
    expect(known.line).toEqual(above.score > played.score ? above.line : line);
    // Without the adaptation the playouts differ.
    const fresh = await runScoreTask(part({ maxNodes: 4 }));
    expect(fresh.line).not.toEqual(above.line);
    // A line that hits no group is refused.
    const error = await rejection(runScoreTask(part({ above: [line, [0, 0, 0]] })));
    expect((error as BitpuzzleError).code).toBe('BAD_INPUT');
    expect((error as Error).message).toMatch(/above\[1\]: a click of the line hits no group/);
  });

  it('on 2 threads: the same seed gives the same line; a run from a line scores at least as much; parts are batches of one a thread', async () => {
    // A part at 3 levels is 50,200 nodes; those of the second batch first replay the top level's
    // 2 adaptations (a node each). So two batches spend the budget exactly.
    const options = { method: 'nrpa' as const, nrpaShared: true, threads: 2, seed: 4, maxNodes: 2 * 50_200 + 2 * 50_202 };
    const one = await samegame.score(standardBoard, options);
    const again = await samegame.score(standardBoard, options);
    expect(again.clicks).toEqual(one.clicks);
    expect(samegame.replay(standardBoard, one.clicks).score).toBe(one.score);
    expect(one.stats).toMatchObject({ nodes: 200_804n, parts: 4, threads: 2 });
    const beam = await samegame.score(standardBoard, { method: 'beam', threads: 1, maxNodes: 20_000, seed: 2 });
    const from = await samegame.score(standardBoard, { method: 'nrpa', nrpaShared: true, threads: 2, maxNodes: 2000, seed: 2, start: beam.clicks });
    expect(from.score).toBeGreaterThanOrEqual(beam.score);
    expect(samegame.replay(standardBoard, from.clicks).score).toBe(from.score);
  });

  it('nrpaShared is true or false, for method nrpa or hybrid, without a beam (BAD_INPUT)', async () => {
    for (const [options, message] of [
      [{ method: 'nrpa', nrpaShared: 1 }, /nrpaShared must be true or false, got 1/],
      [{ method: 'beam', nrpaShared: true }, /nrpaShared is for method 'nrpa' or 'hybrid'/],
      [{ nrpaShared: false }, /nrpaShared is for method 'nrpa' or 'hybrid'/],
      [{ method: 'hybrid', nrpaShared: true, nrpaBeam: 2 }, /nrpaShared plays NRPA without a beam/],
    ] as const) {
      const error = await rejection(samegame.score(standardBoard, { maxNodes: 100, ...(options as object) }));
      expect((error as BitpuzzleError).code).toBe('BAD_INPUT');
      expect((error as Error).message).toMatch(message);
    }
  });
});

describe('NRPA parts on the queue', () => {
  it('a part is checked like any input: NRPA levels from 1 to 6, a known line of cells', () => {
    const part = (task: unknown) => ({ v: 2, kind: 'samegame', engine: 'e', index: 0, of: 1, problem: 'p', tasks: [task] });
    const task = { method: 'nrpa', cells: [1, 1, 2, 2], width: 2, height: 2, seed: 1, deadline: null, maxNodes: 10, beams: [1], level: 3, playouts: 1, nrpaBeam: 4, maxMemory: 1 << 24, known: [0], knownScore: 0 };
    expect(checkPart(part(task), 'e').tasks[0]).toMatchObject({ method: 'nrpa', level: 3 });
    expect(checkPart(part({ ...task, method: 'beam', level: 0, nrpaBeam: 1, sizedOnce: true, fixedTabu: true }), 'e').tasks[0]).toMatchObject({ method: 'beam', sizedOnce: true, fixedTabu: true });
    for (const [bad, message] of [
      [{ ...task, method: 'beam', level: 0, nrpaBeam: 1, sizedOnce: 1 }, /sizedOnce must be true or false/],
      [{ ...task, sizedOnce: true }, /sizedOnce is for beam parts/],
      [{ ...task, method: 'beam', level: 0, nrpaBeam: 1, fixedTabu: 'yes' }, /fixedTabu must be true or false/],
      [{ ...task, fixedTabu: true }, /fixedTabu is for beam parts/],
      [{ ...task, level: 7 }, /level must be an integer from 1 to 6/],
      [{ ...task, nrpaBeam: 17 }, /nrpaBeam must be an integer from 1 to 16/],
      [{ ...task, method: 'beam', level: 0, nrpaBeam: 2 }, /nrpaBeam must be an integer from 1 to 1/],
      [{ ...task, method: 'mcts' }, /method must be one of "beam", "nrpa"/],
      [{ ...task, known: [4] }, /known\[0\] must be an integer from 0 to 3/],
      [{ ...task, above: [[0], [5]] }, /above\[1\]\[0\] must be an integer from 0 to 3/],
      [{ ...task, above: Array.from({ length: 101 }, () => [0]) }, /above must be a list of at most 100 lines/],
      [{ ...task, method: 'beam', level: 0, nrpaBeam: 1, above: [] }, /above is for NRPA parts/],
    ] as const) {
      let error: unknown;
      try {
        checkPart(part(bad), 'e');
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(BitpuzzleError);
      expect((error as Error).message).toMatch(message);
    }
  });

  it.runIf(redisAvailable)('samegame --batch --method nrpa --queue: the positions and seeds as parts on a worker give the local answer', async () => {
    const redis = await startRedis();
    const worker = startWorker(redis.url);
    try {
      await worker.waitFor(/worker ready/);
      const dir = tempDir('bitpuzzle-samegame-');
      const file = join(dir, 'games.txt');
      writeFileSync(file, readFileSync(new URL('./data/samegame-standard.txt', import.meta.url), 'utf8').trim().split(/\n\s*\n/).slice(0, 2).join('\n\n') + '\n');
      const args = ['samegame', '--batch', file, '--score', '--method', 'nrpa', '--nodes', '600', '--threads', '2', '--json'];
      const cli = (extra: string[]) => spawnSync(process.execPath, [fileURLToPath(new URL('../bin/bitpuzzle', import.meta.url)), ...args, ...extra], { encoding: 'utf8', timeout: 60_000 });
      const onQueue = cli(['--queue', redis.url]);
      const local = cli([]);
      expect(onQueue.status, onQueue.stderr).toBe(0);
      const strip = (text: string) => JSON.parse(text).boards.map(({ stats: _, ...board }: { stats: unknown }) => board);
      expect(strip(onQueue.stdout)).toEqual(strip(local.stdout));
      expect(JSON.parse(onQueue.stdout).stats.parts).toBe(4);
      // Parallel NRPA over the queue: two batches of a part a thread per board (small boards, so
      // that whole parts are quick), the second carrying the top level's lines; the local answer.
      const small = join(dir, 'small.txt');
      writeFileSync(small, [21, 22].map((seed) => samegame.picture(samegame.randomBoard({ width: 6, height: 5, colours: 3, seed }))).join('\n\n') + '\n');
      const shared = (extra: string[]) =>
        spawnSync(process.execPath, [fileURLToPath(new URL('../bin/bitpuzzle', import.meta.url)), 'samegame', '--batch', small, '--score', '--method', 'nrpa', '--nrpa-shared', '--nodes', String(2 * 50_200 + 2 * 50_202), '--threads', '2', '--json', ...extra], { encoding: 'utf8', timeout: 60_000 });
      const sharedQueue = shared(['--queue', redis.url]);
      expect(sharedQueue.status, sharedQueue.stderr).toBe(0);
      expect(strip(sharedQueue.stdout)).toEqual(strip(shared([]).stdout));
      expect(JSON.parse(sharedQueue.stdout).stats.parts).toBe(8);
    } finally {
      await worker.stop('SIGKILL');
      await redis.stop();
    }
  }, 60_000);
});
