// The 9×9 Sudoku engine: the public sets (every puzzle unique, its solution valid), the same
// answers as the exact-cover engine on thousands of puzzles with one solution and with many,
// the Wasm engine and its TS twin in step (counts, nodes, solutions), counts split over
// threads and shards, batches (format, bad lines, limits, threads, progress, abort) and the
// generator (reproducible, unique and minimal by exact cover, symmetric).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BitpuzzleError, cover, sudoku } from '../dist/index.js';
import { expectAbortedPromptly, random, rejection } from './helpers.js';
import { spawnCli } from './cli-run.js';

/** The puzzles of a set in test/data/sudoku/ (NAME.txt, or NAME.txt.gz for the large one): the first 81 characters of each puzzle line. */
function puzzleSet(name: string, count = Infinity): string[] {
  const gz = new URL(`./data/sudoku/${name}.txt.gz`, import.meta.url);
  const text = existsSync(gz) ? gunzipSync(readFileSync(gz)).toString('utf8') : readFileSync(new URL(`./data/sudoku/${name}.txt`, import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((line) => /^[0-9.]{81}/.test(line))
    .slice(0, count)
    .map((line) => line.slice(0, 81));
}

/** Whether `solution` (81 digits) is a valid grid that keeps every given of `puzzle`. */
function solves(puzzle: string, solution: string): boolean {
  if (!/^[1-9]{81}$/.test(solution)) return false;
  for (let i = 0; i < 81; i++) if (puzzle[i] !== '.' && puzzle[i] !== '0' && puzzle[i] !== solution[i]) return false;
  for (let u = 0; u < 9; u++) {
    const row = new Set<string>();
    const col = new Set<string>();
    const box = new Set<string>();
    for (let k = 0; k < 9; k++) {
      row.add(solution[u * 9 + k]);
      col.add(solution[k * 9 + u]);
      box.add(solution[(3 * Math.floor(u / 3) + Math.floor(k / 3)) * 9 + 3 * (u % 3) + (k % 3)]);
    }
    if (row.size !== 9 || col.size !== 9 || box.size !== 9) return false;
  }
  return true;
}

/** The 9×9 grid as an exact-cover problem built here, independently of the library's own. */
function coverProblem(puzzle: string) {
  const rows: number[][] = [];
  for (let r = 0; r < 9; r++) {
    for (let c = 0; c < 9; c++) {
      for (let d = 0; d < 9; d++) rows.push([r * 9 + c, 81 + r * 9 + d, 162 + c * 9 + d, 243 + (Math.floor(r / 3) * 3 + Math.floor(c / 3)) * 9 + d]);
    }
  }
  const given: number[] = [];
  for (let i = 0; i < 81; i++) if (puzzle[i] >= '1' && puzzle[i] <= '9') given.push(i * 9 + Number(puzzle[i]) - 1);
  return { columns: 324, rows, given };
}

/** The exact-cover engine's solutions of a puzzle, up to `limit`, as 81-digit strings. */
async function coverSolutions(puzzle: string, limit: number): Promise<string[]> {
  const found: string[] = [];
  for await (const { rows } of cover.solutions(coverProblem(puzzle), { limit })) {
    const cells = new Array<number>(81);
    for (const row of rows) cells[Math.floor(row / 9)] = (row % 9) + 1;
    found.push(cells.join(''));
  }
  return found;
}

/** Puzzles of the sets with 0 to 3 clues taken away (seeded): unique ones and ones with many solutions. */
function derivedPuzzles(count: number, seed: number): string[] {
  const next = random(seed);
  const pool = [...puzzleSet('top1465'), ...puzzleSet('forum-hardest-1106'), ...puzzleSet('17-clue', 500)];
  return Array.from({ length: count }, () => {
    const cells = pool[Math.floor(next() * pool.length)].split('');
    const remove = Math.floor(next() * 4);
    for (let k = 0; k < remove; k++) {
      const clues = cells.flatMap((ch, i) => (ch !== '.' ? [i] : []));
      cells[clues[Math.floor(next() * clues.length)]] = '.';
    }
    return cells.join('');
  });
}

const HARD = '.......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6...';
/** HARD with its first given removed: 507,806 solutions. */
const SPARSE = '.........4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6...';

describe('the public sets: every puzzle unique, its solution valid', () => {
  for (const [name, count] of [['top95', 95], ['top1465', 1465], ['forum-hardest-1106', 375], ['17-clue', 3000]] as const) {
    it(`${name} (${count} puzzles)`, async () => {
      const puzzles = puzzleSet(name, count);
      expect(puzzles).toHaveLength(count);
      const result = await sudoku.batch(puzzles, { threads: 1 });
      expect(result).toMatchObject({ puzzles: count, unique: count, none: 0, multiple: 0, invalid: 0 });
      result.results.forEach((answer, i) => {
        expect(answer.line).toBe(i + 1);
        expect(solves(puzzles[i], answer.solution!), `${name} ${i + 1}`).toBe(true);
      });
    });
  }
});

describe('the same answers as the exact-cover engine', () => {
  it('2,000 puzzles, unique and not: counts up to 20 and the solutions', async () => {
    const puzzles = derivedPuzzles(2000, 34);
    const result = await sudoku.batch(puzzles, { limit: 20, threads: 1 });
    expect(result.invalid).toBe(0);
    let many = 0;
    for (let i = 0; i < puzzles.length; i++) {
      const expected = await coverSolutions(puzzles[i], 20);
      const answer = result.results[i];
      expect(answer.count, puzzles[i]).toBe(expected.length);
      // Below the limit both engines found every solution: ours is among them.
      if (expected.length > 0 && expected.length < 20) expect(expected).toContain(answer.solution);
      else if (expected.length === 20) expect(solves(puzzles[i], answer.solution!)).toBe(true);
      if (expected.length === 1) expect(answer.solution).toBe(expected[0]);
      if (expected.length >= 2) many++;
    }
    // The sample holds plenty of puzzles with several solutions, and some at the limit.
    expect(many).toBeGreaterThan(500);
    expect(result.results.filter((r) => r.count === 20).length).toBeGreaterThan(100);
  });

  it('whole counts of puzzles with hundreds of solutions, and every solution listed', async () => {
    const puzzles = derivedPuzzles(400, 7).filter((p) => p.split('').filter((ch) => ch !== '.').length >= 22);
    let checked = 0;
    for (const puzzle of puzzles.slice(0, 60)) {
      const total = (await sudoku.count(puzzle, { threads: 1 })).total;
      expect(total).toBe((await cover.count(coverProblem(puzzle), { threads: 1 })).total);
      if (total <= 300n) {
        const listed: string[] = [];
        for await (const s of sudoku.solutions(puzzle)) listed.push(s.grid.flat().join(''));
        expect(new Set(listed).size).toBe(Number(total));
        expect(listed.every((s) => solves(puzzle, s))).toBe(true);
        expect(listed.sort()).toEqual((await coverSolutions(puzzle, Infinity)).sort());
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('grids with no solution: none, and null from solve', async () => {
    // Row 1 holds 1-8 and column 9 holds a 9 lower down: the last cell of row 1 has no digit left.
    const broken = `12345678.${'........9'}${'.'.repeat(63)}`;
    expect((await cover.count(coverProblem(broken))).total).toBe(0n);
    expect((await sudoku.count(broken, { threads: 1 })).total).toBe(0n);
    expect(await sudoku.solve(broken)).toBeNull();
    expect((await sudoku.batch([broken])).none).toBe(1);
  });
});

describe('the Wasm engine and its TS twin run the same search', () => {
  it('the same counts, nodes and first solutions on 1,000 puzzles', async () => {
    const puzzles = derivedPuzzles(1000, 99);
    const wasm = await sudoku.batch(puzzles, { limit: 5, threads: 1 });
    const js = await sudoku.batch(puzzles, { limit: 5, threads: 1, engine: 'js' });
    expect(js.results).toEqual(wasm.results);
    expect(js.stats.nodes).toBe(wasm.stats.nodes);
  });

  it('the same solutions in the same order, and the same count of a sparse grid', async () => {
    const puzzle = derivedPuzzles(50, 3).find((p) => p.split('').filter((ch) => ch === '.').length > 60)!;
    const list = async (engine: 'wasm' | 'js') => {
      const out: string[] = [];
      for await (const s of sudoku.solutions(puzzle, { engine, limit: 50 })) out.push(s.text);
      return out;
    };
    expect(await list('js')).toEqual(await list('wasm'));
    const [w, j] = await Promise.all([sudoku.count(SPARSE, { threads: 1 }), sudoku.count(SPARSE, { threads: 1, engine: 'js' })]);
    expect(w.total).toBe(507806n);
    expect(j.total).toBe(507806n);
    expect(j.stats.nodes).toBe(w.stats.nodes);
  });
});

describe('nodes', () => {
  it('a puzzle solved by propagation alone is one node; each digit tried in a branching cell is one more', async () => {
    expect((await sudoku.solve(HARD))!.stats.nodes).toBe(1n);
    const hardest = puzzleSet('forum-hardest-1106', 1)[0];
    const counted = await sudoku.count(hardest, { threads: 1 });
    expect(counted.total).toBe(1n);
    expect(counted.stats.nodes).toBeGreaterThan(1n);
    // A puzzle's nodes are the same through every entry point.
    expect((await sudoku.batch([hardest])).results[0].nodes).toBe(Number(counted.stats.nodes));
  });

  it('a count split over threads and shards: the same total and nodes for every thread count', async () => {
    const one = await sudoku.count(SPARSE, { threads: 1 });
    const two = await sudoku.count(SPARSE, { threads: 2 });
    expect(two.total).toBe(507806n);
    expect(two.stats.nodes).toBe(one.stats.nodes);
    expect(two.stats.parts).toBeGreaterThanOrEqual(64);
    const shards = await Promise.all([1, 2, 3].map((index) => sudoku.count(SPARSE, { shard: { index, count: 3 } })));
    expect(shards.reduce((sum, s) => sum + s.total, 0n)).toBe(507806n);
    // A shard counts only its own parts: the levels above them belong to none.
    expect(shards.reduce((sum, s) => sum + s.stats.nodes, 0n)).toBeLessThan(one.stats.nodes);
    for (const s of shards) expect(s.shard).toEqual(expect.objectContaining({ count: 3 }));
  });
});

describe('16×16 grids on the engine', () => {
  const SYMBOLS = '.123456789ABCDEFG';
  /** 16×16 puzzles: a full grid's digits relabelled, with 120 to 190 cells emptied (seeded). */
  async function puzzles16(count: number, seed: number): Promise<number[][][]> {
    const next = random(seed);
    const full = (await sudoku.solve(Array.from({ length: 16 }, () => new Array<number>(16).fill(0))))!.grid;
    return Array.from({ length: count }, () => {
      const labels = Array.from({ length: 16 }, (_, i) => i + 1).sort(() => next() - 0.5);
      const grid = full.map((row) => row.map((d) => labels[d - 1]));
      const holes = 120 + Math.floor(next() * 70);
      for (let k = 0; k < holes; k++) grid[Math.floor(next() * 16)][Math.floor(next() * 16)] = 0;
      return grid;
    });
  }
  /** A 16×16 grid as exact cover, built here. */
  function coverOf16(grid: number[][]) {
    const rows: number[][] = [];
    for (let r = 0; r < 16; r++) {
      for (let c = 0; c < 16; c++) {
        for (let d = 0; d < 16; d++) rows.push([r * 16 + c, 256 + r * 16 + d, 512 + c * 16 + d, 768 + ((r >> 2) * 4 + (c >> 2)) * 16 + d]);
      }
    }
    const given = grid.flatMap((row, r) => row.flatMap((d, c) => (d ? [(r * 16 + c) * 16 + d - 1] : [])));
    return { columns: 1024, rows, given };
  }
  /** The exact-cover engine's solutions of a 16×16 grid, up to `limit`, as text. */
  async function coverSolutions16(grid: number[][], limit: number): Promise<string[]> {
    const found: string[] = [];
    for await (const { rows: chosen } of cover.solutions(coverOf16(grid), { limit })) {
      const cells = new Array<string>(256);
      for (const row of chosen) cells[row >> 4] = SYMBOLS[(row & 15) + 1];
      found.push(Array.from({ length: 16 }, (_, r) => cells.slice(r * 16, r * 16 + 16).join('')).join('\n'));
    }
    return found;
  }

  it('the same solutions as exact cover (up to 30 each), and the twin the same in the same order', async () => {
    let several = 0;
    for (const grid of await puzzles16(30, 16)) {
      const wasm: string[] = [];
      for await (const s of sudoku.solutions(grid, { limit: 30 })) wasm.push(s.text);
      const js: string[] = [];
      for await (const s of sudoku.solutions(grid, { limit: 30, engine: 'js' })) js.push(s.text);
      expect(js).toEqual(wasm);
      const expected = await coverSolutions16(grid, 30);
      expect(wasm.length).toBe(expected.length);
      if (expected.length < 30) expect(wasm.sort()).toEqual(expected.sort());
      if (wasm.length > 1) several++;
    }
    expect(several).toBeGreaterThan(5);
  });

  it('counts: the same total and nodes on both engines, on 1 and 2 threads and over shards', async () => {
    const grids = await puzzles16(40, 5);
    let checked = 0;
    for (const grid of grids) {
      const one = await sudoku.count(grid, { threads: 1 });
      if (one.total > 5000n) continue;
      const js = await sudoku.count(grid, { threads: 1, engine: 'js' });
      expect(js.total).toBe(one.total);
      expect(js.stats.nodes).toBe(one.stats.nodes);
      checked++;
    }
    expect(checked).toBeGreaterThan(10);
    // A grid big enough to be split (a full grid with its first three rows emptied: 331,776
    // completions, about 650,000 nodes): the same total and nodes on two threads; shards sum up.
    const full = (await sudoku.solve(Array.from({ length: 16 }, () => new Array<number>(16).fill(0))))!.grid;
    const wide = full.map((row, r) => (r < 3 ? row.map(() => 0) : row));
    const one = await sudoku.count(wide, { threads: 1 });
    expect(one.total).toBe(331776n);
    expect((await cover.count(coverOf16(wide), { threads: 1 })).total).toBe(331776n);
    const two = await sudoku.count(wide, { threads: 2 });
    expect(two.total).toBe(one.total);
    expect(two.stats.nodes).toBe(one.stats.nodes);
    const halves = await Promise.all([1, 2].map((index) => sudoku.count(wide, { shard: { index, count: 2 } })));
    expect(halves[0].total + halves[1].total).toBe(one.total);
  });
});

describe('sudoku.batch', () => {
  const [a, b, c] = puzzleSet('top95', 3);

  it('reads the format: comments, blank lines, text after the cells, 0 for empty, CRLF', async () => {
    const text = `# a header\n\n${a} // a comment\r\n${b.replace(/\./g, '0')}\n   \n#${c}\n${c}`;
    const result = await sudoku.batch(text);
    expect(result.puzzles).toBe(3);
    expect(result.results.map((r) => r.line)).toEqual([3, 4, 7]);
    expect(result.results.every((r) => r.count === 1 && r.nodes >= 1)).toBe(true);
    expect(solves(a, result.results[0].solution!)).toBe(true);
    expect(solves(b, result.results[1].solution!)).toBe(true);
  });

  it('reports a line that is not a puzzle with its line number, and answers the others', async () => {
    const clash = '55' + a.slice(2);
    const text = [a, 'x'.repeat(81), a.slice(0, 40), b, clash, `${a.slice(0, 10)}A${a.slice(11)}`, c].join('\n');
    const result = await sudoku.batch(text);
    expect(result.puzzles).toBe(7);
    expect(result.invalid).toBe(4);
    expect(result.unique).toBe(3);
    expect(result.results.map((r) => r.line)).toEqual([1, 4, 7]);
    expect(result.errors).toEqual([
      { line: 2, message: 'line 2, column 1: unexpected character "x" (expected 1-9, \'.\' or \'0\')' },
      { line: 3, message: "line 3: 40 cells, expected 81 (a puzzle a line: 1-9, '.' or '0' for an empty cell)" },
      { line: 5, message: 'line 5, column 1 and line 5, column 2 both hold 5 in row 1' },
      { line: 6, message: 'line 6, column 11: unexpected character "A" (expected 1-9, \'.\' or \'0\')' },
    ]);
  });

  it('limits: 1 finds a solution without proving it unique, K counts up to K', async () => {
    // a's solution with its first four rows emptied: 1,548 completions.
    const open = '.'.repeat(36) + (await sudoku.solve(a))!.grid.flat().join('').slice(36);
    const one = await sudoku.batch([a, open], { limit: 1 });
    expect(one.unique).toBeNull();
    expect(one.results.map((r) => r.count)).toEqual([1, 1]);
    const two = await sudoku.batch([a, open]);
    expect(two).toMatchObject({ unique: 1, multiple: 1 });
    expect(two.results[1].count).toBe(2);
    const many = await sudoku.batch([open], { limit: 1000 });
    expect((await sudoku.count(open, { threads: 1 })).total).toBe(1548n);
    expect(many.results[0].count).toBe(1000);
    expect(solves(open, many.results[0].solution!)).toBe(true);
  });

  it('the same answers and nodes on 1 and 2 threads; threads only where the first puzzles say they pay', async () => {
    // 9,000 hard puzzles (about 0.9 s): the first 1,024 on this thread, the rest on two threads.
    const puzzles = Array.from({ length: 24 }, () => puzzleSet('forum-hardest-1106')).flat();
    const one = await sudoku.batch(puzzles, { threads: 1 });
    const progress: number[] = [];
    const two = await sudoku.batch(puzzles, { threads: 2, onProgress: (p) => progress.push(p.done) });
    expect(two.results).toEqual(one.results);
    expect(two.stats.nodes).toBe(one.stats.nodes);
    expect(two.stats.threads).toBe(2);
    expect(two.stats.parts).toBeGreaterThan(2);
    expect(progress.at(-1)).toBe(9000);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    // 2,000 easy ones (about 10 ms): all on this thread, threads or not.
    const easy = puzzleSet('17-clue', 2000);
    const quick = await sudoku.batch(easy, { threads: 2 });
    expect(quick.stats.threads).toBe(1);
    expect(quick.results).toEqual((await sudoku.batch(easy, { threads: 1 })).results);
  });

  it('bad calls are BAD_INPUT', async () => {
    const cases: Array<[() => Promise<unknown>, RegExp]> = [
      [() => sudoku.batch('# only a comment\n\n'), /the batch has no puzzles/],
      [() => sudoku.batch([a, 5 as unknown as string]), /puzzles\[1\] must be a string/],
      [() => sudoku.batch(42 as unknown as string), /takes the text of a batch or an array/],
      [() => sudoku.batch(a, { limit: 0 }), /limit must be an integer from 1/],
      [() => sudoku.batch(a, { limit: Infinity }), /limit must be an integer from 1/],
      [() => sudoku.batch(a, { thread: 2 } as never), /unknown option "thread"/],
    ];
    for (const [call, message] of cases) {
      const error = await rejection(call());
      expect(error.code).toBe('BAD_INPUT');
      expect(error.message).toMatch(message);
    }
  });

  it('a big batch reports its progress, keeps the event loop turning and stops on an abort', async () => {
    const puzzles = puzzleSet('forum-hardest-1106');
    const big = Array.from({ length: 8 }, () => puzzles).flat();
    let calls = 0;
    await expectAbortedPromptly((signal) => sudoku.batch(big, { threads: 1, signal, onProgress: () => calls++ }), 150);
    expect(calls).toBeGreaterThan(2);
    await expectAbortedPromptly((signal) => sudoku.batch(big, { threads: 2, signal }), 150);
    await expectAbortedPromptly((signal) => sudoku.batch(big, { threads: 1, signal, engine: 'js' }), 150);
  });

  it('fuzzed batch files: every puzzle line answered or reported once, by its number; answers valid', async () => {
    const pool = puzzleSet('top95');
    const line = fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...pool) },
      { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...pool), fc.integer({ min: 0, max: 80 }), fc.constantFrom('.', '0', '1', '5', '9', 'x', ' ', '#')).map(([p, i, ch]) => p.slice(0, i) + ch + p.slice(i + 1)) },
      { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...pool), fc.integer({ min: 0, max: 90 })).map(([p, n]) => p.slice(0, n)) },
      { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...pool), fc.string({ maxLength: 12 })).map(([p, tail]) => p + tail) },
      { weight: 1, arbitrary: fc.constantFrom('', '# a comment', '   ', '\r', '.'.repeat(81)) },
      { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...'123456789.0x# '), maxLength: 100 }) },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 12 }), fc.constantFrom(1, 2, 3), fc.constantFrom(1, 2), async (lines, limit, threads) => {
        const text = lines.join('\n');
        const isPuzzleLine = (l: string) => l.replace(/\r$/, '').trim() !== '' && !l.startsWith('#');
        const expected = lines.flatMap((l, i) => (isPuzzleLine(l) ? [i + 1] : []));
        let result: Awaited<ReturnType<typeof sudoku.batch>>;
        try {
          result = await sudoku.batch(text, { limit, threads });
        } catch (error) {
          expect((error as BitpuzzleError).code).toBe('BAD_INPUT');
          expect(expected).toEqual([]);
          return;
        }
        const seen = [...result.results.map((r) => r.line), ...result.errors.map((e) => e.line)].sort((x, y) => x - y);
        expect(seen).toEqual(expected);
        expect(result.puzzles).toBe(expected.length);
        for (const e of result.errors) expect(e.message.startsWith(`line ${e.line}`)).toBe(true);
        for (const r of result.results) {
          expect(r.count).toBeLessThanOrEqual(limit);
          if (r.count > 0) expect(solves(lines[r.line - 1].slice(0, 81), r.solution!)).toBe(true);
          else expect(r.solution).toBeNull();
        }
      }),
      { seed: 34, numRuns: 150 },
    );
  });

  it('memory: a limit too small for the engine is OUT_OF_MEMORY', async () => {
    const error = await rejection(sudoku.batch([a], { maxMemory: 65536 }));
    expect(error.code).toBe('OUT_OF_MEMORY');
    expect((await sudoku.batch([a], { maxMemory: 1 << 20 })).unique).toBe(1);
  });
});

describe('sudoku.generate', () => {
  /** Minimal by the exact-cover engine: removing any one clue leaves two solutions or more. */
  async function expectMinimalAndUnique(puzzle: string): Promise<void> {
    expect(await coverSolutions(puzzle, 2)).toHaveLength(1);
    for (let i = 0; i < 81; i++) {
      if (puzzle[i] === '.') continue;
      const fewer = `${puzzle.slice(0, i)}.${puzzle.slice(i + 1)}`;
      expect(await coverSolutions(fewer, 2), `clue ${i + 1} of ${puzzle}`).toHaveLength(2);
    }
  }

  it('puzzles unique and minimal (checked by exact cover), reproducible from the seed on either engine', async () => {
    const made = await sudoku.generate({ count: 5, seed: 2026 });
    expect(made.seed).toBe(2026);
    expect(made.puzzles).toHaveLength(5);
    for (const p of made.puzzles) {
      expect(p.puzzle).toMatch(/^[1-9.]{81}$/);
      expect(p.clues).toBe(p.puzzle.replace(/\./g, '').length);
      expect(solves(p.puzzle, p.solution)).toBe(true);
      expect(p.nodes).toBeGreaterThanOrEqual(1);
      await expectMinimalAndUnique(p.puzzle);
    }
    expect(new Set(made.puzzles.map((p) => p.puzzle)).size).toBe(5);
    expect((await sudoku.generate({ count: 5, seed: 2026, engine: 'js' })).puzzles).toEqual(made.puzzles);
    // Puzzle i depends on the seed and i alone.
    expect((await sudoku.generate({ count: 2, seed: 2026 })).puzzles).toEqual(made.puzzles.slice(0, 2));
    expect((await sudoku.generate({ count: 1, seed: 2027 })).puzzles[0].puzzle).not.toBe(made.puzzles[0].puzzle);
    // Each puzzle's figures are the batch's for it.
    const checked = await sudoku.batch(made.puzzles.map((p) => p.puzzle));
    expect(checked.results.map((r) => [r.count, r.solution, r.nodes])).toEqual(made.puzzles.map((p) => [1, p.solution, p.nodes]));
  });

  it('symmetric puzzles: clues symmetric under the half-turn, still unique and minimal', async () => {
    const made = await sudoku.generate({ count: 3, seed: 5, symmetric: true });
    for (const p of made.puzzles) {
      for (let i = 0; i < 81; i++) expect(p.puzzle[i] === '.').toBe(p.puzzle[80 - i] === '.');
      expect(p.attempts).toBeGreaterThanOrEqual(1);
      await expectMinimalAndUnique(p.puzzle);
    }
  });

  it('a seed when none is given, and bad options are BAD_INPUT', async () => {
    const made = await sudoku.generate();
    expect(Number.isInteger(made.seed)).toBe(true);
    expect((await sudoku.generate({ seed: made.seed })).puzzles).toEqual(made.puzzles);
    for (const options of [{ count: 0 }, { count: 100_001 }, { count: 1.5 }, { seed: -1 }, { seed: 2 ** 32 }, { symmetric: 'yes' }, { counts: 2 }]) {
      const error = await rejection(sudoku.generate(options as never));
      expect(error).toBeInstanceOf(BitpuzzleError);
      expect(error.code).toBe('BAD_INPUT');
    }
  });

  it('stops on an abort', async () => {
    await expectAbortedPromptly((signal) => sudoku.generate({ count: 10_000, signal }), 150);
  });
});

describe('bitpuzzle sudoku --batch and --generate', () => {
  const [a, b] = puzzleSet('top95', 2);

  it('a line PUZZLE:COUNT:SOLUTION a puzzle, then a summary; its output reads back as a batch', () => {
    const run = spawnCli(['sudoku', '--batch', '-'], `${a}\n# skipped\n${b} trailing text\n`);
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    const [puzzle, count, solution] = lines[0].split(':');
    expect([puzzle, count]).toEqual([a, '1']);
    expect(solves(a, solution)).toBe(true);
    expect(lines[1].startsWith(`${b}:1:`)).toBe(true);
    expect(lines[2]).toMatch(/^# 2 puzzles: 2 unique, 0 none, 0 multiple, 0 invalid; \d+ nodes in [\d.]+ ms on 1 thread\(s\), 1 part\(s\)$/);
    const again = spawnCli(['sudoku', '--batch', '-', '--json'], run.stdout);
    expect(JSON.parse(again.stdout)).toMatchObject({ puzzles: 2, unique: 2 });
  });

  it('--json: one object; a bad line is reported on stderr, the rest answered, exit 2', () => {
    const run = spawnCli(['sudoku', '--batch', '-', '--json', '--limit', '3'], `${a}\n${a.slice(0, 80)}\n${'.'.repeat(60)}${b.slice(60)}\n`);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('line 2: 80 cells, expected 81');
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ puzzles: 3, unique: 1, none: 0, multiple: 1, invalid: 1 });
    expect(result.results[1]).toMatchObject({ line: 3, count: 3 });
    expect(result.errors).toEqual([{ line: 2, message: expect.stringContaining('80 cells') }]);
  });

  it('a gzip-compressed FILE (known by its first bytes) is read as its text; a damaged or too large one is bad input', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bitpuzzle-gzip-'));
    try {
      const text = `${a}\n${b}\n`;
      const file = (name: string, bytes: string | Buffer): string => {
        writeFileSync(join(dir, name), bytes);
        return join(dir, name);
      };
      const plain = spawnCli(['sudoku', '--batch', file('two.txt', text), '--json']);
      expect(plain.status).toBe(0);
      const answers = JSON.parse(plain.stdout).results;
      expect(answers).toHaveLength(2);
      for (const name of ['two.txt.gz', 'two-no-suffix']) {
        const packed = spawnCli(['sudoku', '--batch', file(name, gzipSync(text)), '--json']);
        expect(packed.status, name).toBe(0);
        expect(JSON.parse(packed.stdout).results).toEqual(answers);
      }
      const cut = spawnCli(['sudoku', '--batch', file('cut.gz', gzipSync(text).subarray(0, 30))]);
      expect(cut.status).toBe(2);
      expect(cut.stderr).toMatch(/cannot read .*cut\.gz \(gzip-compressed\): unexpected end of file/);
      // Inflating stops at 512 MiB of text, with an error (not a crash or a string too long).
      const bomb = spawnCli(['sudoku', '--batch', file('bomb.gz', gzipSync(Buffer.alloc(513 * 2 ** 20, 46), { level: 1 }))]);
      expect(bomb.status).toBe(2);
      expect(bomb.stderr).toMatch(/bomb\.gz \(gzip-compressed\): it inflates to more than 512 MiB/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--generate K: a header, then a puzzle a line with its clues and nodes; the same with the same seed', () => {
    const run = spawnCli(['sudoku', '--generate', '3', '--seed', '11']);
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toBe('# bitpuzzle sudoku --generate 3 --seed 11');
    expect(lines).toHaveLength(4);
    for (const line of lines.slice(1)) expect(line).toMatch(/^[1-9.]{81} \d+ clues, \d+ nodes$/);
    expect(spawnCli(['sudoku', '--generate', '3', '--seed', '11']).stdout).toBe(run.stdout);
    const json = JSON.parse(spawnCli(['sudoku', '--generate', '3', '--seed', '11', '--json']).stdout);
    expect(json.puzzles.map((p: { puzzle: string }) => p.puzzle)).toEqual(lines.slice(1).map((l) => l.slice(0, 81)));
    // The generated lines are a batch: each unique.
    expect(spawnCli(['sudoku', '--batch', '-'], run.stdout).stdout).toContain('# 3 puzzles: 3 unique');
  });

  it('modes and flags that do not go together are usage errors', () => {
    const cases: Array<[string[], RegExp]> = [
      [['sudoku'], /exactly one/],
      [['sudoku', '-', '--batch', '-'], /exactly one/],
      [['sudoku', '--batch', '-', '--generate', '2'], /exactly one/],
      [['sudoku', '--batch', '-', '--count'], /--count does not work with --batch/],
      [['sudoku', '--batch', '-', '--limit', '0'], /--limit must be an integer of at least 1/],
      [['sudoku', '--generate', '2', '--threads', '2'], /--threads does not work with --generate/],
      [['sudoku', '--generate', '0'], /--generate must be an integer from 1/],
      [['sudoku', '--generate', '1', '--seed', 'x'], /--seed must be an integer/],
      [['sudoku', '-', '--seed', '3'], /--seed does not work with one grid/],
    ];
    for (const [args, message] of cases) {
      const run = spawnCli(args, `${a}\n`);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
    }
  });
});
