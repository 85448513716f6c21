// Exact cover (dancing links) and Sudoku: brute-force oracles, published counts, the Wasm
// engine against its pure-TS twin, the text format, the command line and every bad input.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cover, exactCover, loadEngineModule, sudoku } from '../dist/index.js';
import { wasmCoverEngine, type CoverEngine, type CoverMatrix } from '../dist/cover/engine.js';
import { ReferenceCoverEngine } from '../dist/cover/reference.js';
import { instantiateEngine } from '../dist/wasm/module.js';
import { Status } from '../dist/wasm/protocol.js';
import { QUEENS } from './data/known-results.js';
import { queensCover, random, rejection } from './helpers.js';

const ENGINES = ['wasm', 'js'] as const;

/** One test per case: the call rejects with BAD_INPUT and exactly this message (or one matching). */
function badInputCases(cases: Array<[string, () => Promise<unknown>, string | RegExp]>): void {
  for (const [name, run, message] of cases) {
    it(name, async () => {
      const error = await rejection(run());
      expect(error.code).toBe('BAD_INPUT');
      if (typeof message === 'string') expect(error.message).toBe(message);
      else expect(error.message).toMatch(message);
    });
  }
}

const key = (rows: number[]): string => rows.slice().sort((a, b) => a - b).join(',');

// ---- independent oracles -------------------------------------------------------------

interface SmallMatrix {
  primary: number;
  secondary: number;
  rows: number[][];
}

/** Every exact cover, by trying every subset of rows (no shared logic with the library). */
function bruteForceCovers({ primary, rows }: SmallMatrix): string[] {
  const masks = rows.map((row) => row.reduce((mask, c) => mask | (1 << c), 0));
  const full = (1 << primary) - 1;
  const found: string[] = [];
  for (let subset = 0; subset < 1 << rows.length; subset++) {
    let used = 0;
    let clash = false;
    const chosen: number[] = [];
    for (let r = 0; r < rows.length && !clash; r++) {
      if (!(subset & (1 << r))) continue;
      clash = (used & masks[r]) !== 0;
      used |= masks[r];
      chosen.push(r);
    }
    if (!clash && (used & full) === full) found.push(key(chosen));
  }
  return found.sort();
}

/** A random matrix; half of them have a planted solution (a partition of the primary columns). */
function randomMatrix(next: () => number): SmallMatrix {
  const primary = 1 + Math.floor(next() * 8);
  const secondary = Math.floor(next() * 3);
  const columns = primary + secondary;
  const rows: number[][] = [];
  if (next() < 0.5) {
    const order = Array.from({ length: primary }, (_, c) => c).sort(() => next() - 0.5);
    while (order.length > 0) rows.push(order.splice(0, 1 + Math.floor(next() * 3)));
  }
  const extra = Math.floor(next() * (16 - rows.length));
  for (let i = 0; i < extra; i++) {
    const row: number[] = [];
    for (let c = 0; c < columns; c++) if (next() < 0.3) row.push(c);
    if (!row.some((c) => c < primary)) row.unshift(Math.floor(next() * primary));
    rows.push(row);
  }
  // Shuffle rows so planted ones are not always first.
  return { primary, secondary, rows: rows.sort(() => next() - 0.5) };
}

const asProblem = (m: SmallMatrix): cover.CoverProblem => ({ columns: m.primary, secondary: m.secondary, rows: m.rows });

function toMatrix(m: SmallMatrix): CoverMatrix {
  const rowStarts = [0];
  const cells: number[] = [];
  for (const row of m.rows) {
    cells.push(...row);
    rowStarts.push(cells.length);
  }
  return { primary: m.primary, secondary: m.secondary, rowStarts: Int32Array.from(rowStarts), cells: Int32Array.from(cells) };
}

/** True when `grid` is a complete valid b²×b² sudoku keeping every non-zero cell of `givens`. */
function isValidSudoku(grid: number[][], givens: number[][]): boolean {
  const n = grid.length;
  const box = Math.round(Math.sqrt(n));
  const units: number[][][] = [];
  for (let i = 0; i < n; i++) {
    units.push(grid[i].map((d, c) => [i, c, d]));
    units.push(grid.map((row, r) => [r, i, row[i]]));
    const br = Math.floor(i / box) * box;
    const bc = (i % box) * box;
    const cells: number[][] = [];
    for (let r = br; r < br + box; r++) for (let c = bc; c < bc + box; c++) cells.push([r, c, grid[r][c]]);
    units.push(cells);
  }
  for (const unit of units) {
    const digits = new Set(unit.map(([, , d]) => d));
    if (digits.size !== n || [...digits].some((d) => !(d >= 1 && d <= n))) return false;
  }
  return givens.every((row, r) => row.every((d, c) => d === 0 || grid[r][c] === d));
}

// Knuth's example from "Dancing Links" (2000): its only exact cover is {AD, BG, CEF}.
const KNUTH = `# Knuth, Dancing Links, figure 3
primary: A B C D E F G
CEF: C E F
ADG: A D G
BCF: B C F
AD: A D
BG: B G
BDG: B D G
`;

// A well-known 17-clue puzzle (the minimum for a unique 9×9 solution).
const HARD = '.......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6...';

// ---- tests ------------------------------------------------------------------------------

describe("Knuth's example matrix", () => {
  for (const engine of ENGINES) {
    it(`has the one cover {AD, BG, CEF} (${engine})`, async () => {
      const all = await exactCover(KNUTH, { engine });
      expect(all).toHaveLength(1);
      expect(all[0].names!.slice().sort()).toEqual(['AD', 'BG', 'CEF']);
      expect(all[0].rows).toEqual([0, 3, 4]);
      expect((await cover.count(KNUTH, { engine })).total).toBe(1n);
    });
  }

  it('gives the same answer as plain data, by names or by indices', async () => {
    const byName = {
      columns: ['A', 'B', 'C', 'D', 'E', 'F', 'G'],
      rows: [['C', 'E', 'F'], ['A', 'D', 'G'], ['B', 'C', 'F'], ['A', 'D'], ['B', 'G'], ['B', 'D', 'G']],
    };
    const byIndex = { columns: 7, rows: [[2, 4, 5], [0, 3, 6], [1, 2, 5], [0, 3], [1, 6], [1, 3, 6]] };
    expect(await cover.solve(byName)).toMatchObject({ rows: [0, 3, 4], names: null });
    expect(await cover.solve(byIndex)).toMatchObject({ rows: [0, 3, 4], names: null });
  });
});

describe('random small matrices against brute force', () => {
  const next = random(1957);
  const matrices = Array.from({ length: 200 }, () => randomMatrix(next));

  it('counts and lists the same covers as trying every subset of rows (wasm and twin)', async () => {
    let withSolutions = 0;
    let withSeveral = 0;
    for (const m of matrices) {
      const expected = bruteForceCovers(m);
      if (expected.length > 0) withSolutions++;
      if (expected.length > 1) withSeveral++;
      for (const engine of ENGINES) {
        const counted = await cover.count(asProblem(m), { engine, threads: 1 });
        expect(counted.total).toBe(BigInt(expected.length));
        const listed = (await exactCover(asProblem(m), { engine })).map((s) => key(s.rows));
        expect(listed.slice().sort()).toEqual(expected);
      }
    }
    // The sample must exercise both answers, or the comparison proves little.
    expect(withSolutions).toBeGreaterThan(60);
    expect(withSeveral).toBeGreaterThan(10);
    expect(withSolutions).toBeLessThan(200);
  });

  it('the twin visits the same nodes and lists in the same order as the Wasm engine', async () => {
    for (const m of matrices) {
      const wasm = await cover.count(asProblem(m), { threads: 1 });
      const js = await cover.count(asProblem(m), { engine: 'js', threads: 1 });
      expect(js.stats.nodes).toBe(wasm.stats.nodes);
      expect(await exactCover(asProblem(m), { engine: 'js' })).toEqual(await exactCover(asProblem(m)));
    }
  });

  it('a search run one node at a time counts what one long run counts', async () => {
    const module = await loadEngineModule();
    const engines: Array<() => CoverEngine> = [() => wasmCoverEngine(instantiateEngine(module)), () => new ReferenceCoverEngine()];
    for (const m of matrices.slice(0, 40)) {
      const expected = BigInt(bruteForceCovers(m).length);
      for (const make of engines) {
        const engine = make();
        expect(engine.load(toMatrix(m))).toBe(Status.DONE);
        expect(engine.start(false, 0)).toBe(Status.DONE);
        let calls = 0;
        let status;
        while ((status = engine.run(1)) === Status.MORE) calls++;
        expect(status).toBe(Status.DONE);
        expect(engine.solutions()).toBe(expected);
        // Every MORE spent its budget of one node; the final call at most one more.
        expect(engine.nodes() - BigInt(calls)).toBeGreaterThanOrEqual(0n);
        expect(engine.nodes() - BigInt(calls)).toBeLessThanOrEqual(1n);
      }
    }
  });

  it('givens restrict the covers to those containing them', async () => {
    for (const m of matrices.slice(0, 80)) {
      const covers = bruteForceCovers(m);
      if (covers.length === 0) continue;
      const given = covers[0].split(',').map(Number).slice(0, 1);
      const expected = covers.filter((c) => c.split(',').map(Number).includes(given[0]));
      for (const engine of ENGINES) {
        const listed = await exactCover({ ...asProblem(m), given }, { engine });
        expect(listed.map((s) => key(s.rows)).sort()).toEqual(expected);
      }
    }
  });
});

describe('secondary columns and splitting: N-Queens as exact cover', () => {
  for (const n of [1, 4, 6, 8]) {
    it(`n = ${n} has the published number of solutions (wasm and twin)`, async () => {
      for (const engine of ENGINES) expect((await cover.count(queensCover(n), { engine, threads: 1 })).total).toBe(QUEENS[n].total);
    });
  }

  it('n = 11 split over two threads gives the same total and nodes as one thread', async () => {
    const one = await cover.count(queensCover(11), { threads: 1 });
    const two = await cover.count(queensCover(11), { threads: 2 });
    expect(one.total).toBe(QUEENS[11].total);
    expect(two.total).toBe(one.total);
    expect(two.stats.nodes).toBe(one.stats.nodes);
    expect(two.stats.parts).toBeGreaterThan(1);
    expect(two.stats.threads).toBe(2);
  });

  it('the shards of n = 10 sum to the whole, and progress reaches every part', async () => {
    let total = 0n;
    for (let index = 1; index <= 3; index++) {
      const seen: number[] = [];
      const part = await cover.count(queensCover(10), { shard: `${index}/3`, threads: 1, engine: 'js', onProgress: (p) => seen.push(p.done) });
      expect(part.shard).toEqual({ index, count: 3 });
      expect(seen.at(-1)).toBe(part.stats.parts);
      total += part.total;
    }
    expect(total).toBe(QUEENS[10].total);
  });
});

describe('Sudoku', () => {
  it('the 4×4 grids (Shidoku) number 288', async () => {
    for (const engine of ENGINES) {
      expect((await sudoku.count('....\n....\n....\n....', { engine, threads: 1 })).total).toBe(288n);
    }
    expect((await sudoku.count('................', { threads: 2 })).total).toBe(288n);
  });

  it('solves a 17-clue puzzle: a valid grid keeping the givens, and the only one', async () => {
    const givens = Array.from({ length: 9 }, (_, r) => Array.from(HARD.slice(9 * r, 9 * r + 9), (ch) => (ch === '.' ? 0 : Number(ch))));
    for (const engine of ENGINES) {
      const solution = await sudoku.solve(HARD, { engine });
      expect(isValidSudoku(solution!.grid, givens)).toBe(true);
      expect(solution!.text).toBe(sudoku.picture(solution!.grid));
      expect((await sudoku.count(HARD, { engine })).total).toBe(1n);
    }
    // The same grid as rows of numbers.
    expect((await sudoku.solve(givens))!.grid).toEqual((await sudoku.solve(HARD))!.grid);
  });

  it('a grid with an unavoidable rectangle emptied has exactly its two completions', async () => {
    const full = (await sudoku.solve(HARD))!.grid;
    // Cells (r1,c1) (r1,c2) (r2,c1) (r2,c2) in two boxes holding a b / b a: emptied, only
    // those four cells are open and each row and column lacks exactly {a, b}.
    let rectangle: number[] | undefined;
    for (let r1 = 0; r1 < 9 && !rectangle; r1++) {
      for (let r2 = r1 + 1; r2 < 9 && Math.floor(r2 / 3) === Math.floor(r1 / 3) && !rectangle; r2++) {
        for (let c1 = 0; c1 < 9 && !rectangle; c1++) {
          for (let c2 = c1 + 1; c2 < 9; c2++) {
            if (full[r1][c1] === full[r2][c2] && full[r1][c2] === full[r2][c1]) {
              rectangle = [r1, r2, c1, c2];
              break;
            }
          }
        }
      }
    }
    expect(rectangle).toBeDefined();
    const [r1, r2, c1, c2] = rectangle!;
    const puzzle = full.map((row) => row.slice());
    for (const [r, c] of [[r1, c1], [r1, c2], [r2, c1], [r2, c2]]) puzzle[r][c] = 0;
    const listed = [];
    for await (const s of sudoku.solutions(puzzle, { limit: 10 })) listed.push(s.grid);
    expect(listed).toHaveLength(2);
    expect(JSON.stringify(listed[0])).not.toBe(JSON.stringify(listed[1]));
    for (const grid of listed) expect(isValidSudoku(grid, puzzle)).toBe(true);
    expect((await sudoku.count(puzzle, { engine: 'js' })).total).toBe(2n);
  });

  it('a grid with no completion and no clashing givens has none', async () => {
    const puzzle = '12..\n....\n..3.\n..4.'; // the cell at line 1, column 3 has no digit left
    expect((await sudoku.count(puzzle)).total).toBe(0n);
    expect(await sudoku.solve(puzzle)).toBeNull();
  });

  it('solves an empty 16×16 grid (box size 4) and accepts separators and letters', async () => {
    const empty = Array.from({ length: 16 }, () => new Array(16).fill(0));
    const solution = await sudoku.solve(empty);
    expect(isValidSudoku(solution!.grid, empty)).toBe(true);
    expect(solution!.text.split('\n')[0]).toMatch(/^[1-9A-G]{16}$/);
    const framed = await sudoku.count('12|..\n..|..\n--+--\n..|..\n..|21');
    expect(framed.total).toBe((await sudoku.count('12..\n....\n....\n..21')).total);
    expect(framed.total).toBeGreaterThan(0n);
    expect((await sudoku.solve(solution!.text.toLowerCase()))!.grid).toEqual(solution!.grid);
  });
});

describe('zero without an error', () => {
  it('a primary column no row covers: total 0 with the reason, no solution', async () => {
    const problem = { columns: ['a', 'b', 'c'], rows: [['a'], ['b']] };
    for (const engine of ENGINES) {
      const result = await cover.count(problem, { engine });
      expect(result.total).toBe(0n);
      expect(result.reason).toBe('column "c" is in no row, so it cannot be covered');
      // A first-solution request whose answer a check settles before any search: UNSOLVABLE.
      await expect(cover.solve(problem, { engine })).rejects.toMatchObject({ code: 'UNSOLVABLE', message: result.reason });
    }
    expect((await cover.count({ columns: 2, rows: [[0, 1]] })).reason).toBeNull();
  });

  it('secondary columns are covered at most once', async () => {
    const problem = { columns: ['a', 'b'], secondary: ['x'], rows: [{ name: 'ax', columns: ['a', 'x'] }, { name: 'bx', columns: ['b', 'x'] }, { name: 'a', columns: ['a'] }, { name: 'b', columns: ['b'] }] };
    expect((await exactCover(problem)).map((s) => s.names)).toEqual([['ax', 'b'], ['bx', 'a'], ['a', 'b']]);
  });
});

describe('bad problems are BAD_INPUT with the place named', () => {
  const cases: Array<[string, () => Promise<unknown>, string | RegExp]> = [
    ['unknown column name', () => cover.count({ columns: ['a', 'b'], rows: [['a'], ['b', 'q']] }), 'rows[1][1]: unknown column "q"'],
    ['column index out of range', () => cover.count({ columns: 3, rows: [[0, 3]] }), 'rows[0][1]: column index 3 is out of range (0 to 2)'],
    ['column repeated in a row', () => cover.count({ columns: ['a', 'b'], rows: [{ name: 'r', columns: ['a', 'b', 'a'] }] }), 'rows[0].columns[2]: column "a" is repeated in the row'],
    ['empty row', () => cover.count({ columns: 2, rows: [[0], []] }), 'rows[1] covers no column (a row needs at least one)'],
    ['row of secondary columns only', () => cover.count({ columns: ['a'], secondary: ['x'], rows: [['a'], ['x']] }), 'rows[1] covers no primary column (a row needs at least one)'],
    ['column declared twice', () => cover.count({ columns: ['a', 'b'], secondary: ['a'], rows: [] }), 'secondary[0]: column "a" is declared twice'],
    ['no primary column', () => cover.count({ columns: 0, secondary: 2, rows: [] }), 'an exact cover problem needs at least one primary column'],
    ['bad column count', () => cover.count({ columns: -1, rows: [] }), /columns must be an integer from 0 to 1048576 or an array of names, got -1/],
    ['too many columns', () => cover.count({ columns: 2 ** 20 + 1, rows: [] }), /columns must be an integer from 0 to 1048576/],
    ['empty column name', () => cover.count({ columns: ['a', ''], rows: [] }), 'columns[1]: a column name must be a non-empty string, got ""'],
    ['rows not an array', () => cover.count({ columns: 1, rows: 'a' as unknown as [] }), 'rows must be an array of rows, got "a"'],
    ['row not an array', () => cover.count({ columns: 1, rows: [5 as unknown as number[]] }), 'rows[0] must be an array of columns or { name, columns }, got 5'],
    ['row name not a string', () => cover.count({ columns: 1, rows: [{ name: 3 as unknown as string, columns: [0] }] }), 'rows[0].name must be a string, got 3'],
    ['unknown given', () => cover.count({ columns: 1, rows: [{ name: 'r', columns: [0] }], given: ['s'] }), 'given[0]: unknown row "s"'],
    ['given out of range', () => cover.count({ columns: 1, rows: [[0]], given: [1] }), 'given[0]: row index 1 is out of range (0 to 0)'],
    ['given twice', () => cover.count({ columns: 1, rows: [[0]], given: [0, 0] }), 'rows[0] is given twice'],
    ['givens that clash', () => cover.count({ columns: ['a', 'b'], rows: [['a'], ['a', 'b']], given: [0, 1] }), 'the given rows[0] and rows[1] both cover column "a"'],
    ['not a problem', () => cover.count(null as unknown as string), /expected an exact cover problem/],
    ['bad engine', () => cover.count(KNUTH, { engine: 'gpu' as 'js' }), "engine must be 'wasm' or 'js', got \"gpu\""],
    ['negative limit', () => exactCover(KNUTH, { limit: -1 }), 'limit must be a non-negative integer, got -1'],
    ['threads = 0', () => cover.count(KNUTH, { threads: 0 }), 'threads must be an integer from 1 to 1024, got 0'],
    ['maxMemory too small', () => cover.count(KNUTH, { maxMemory: 100 }), 'maxMemory must be at least 65536 bytes, got 100'],
    ['more shards than parts', () => cover.count(KNUTH, { shard: '2/5' }), /splits into only \d parts?, fewer than the 5 shards asked for: /],
  ];
  badInputCases(cases);
});

describe('bad text is BAD_INPUT naming line and column', () => {
  const cases: Array<[string, string, string]> = [
    ['unknown column', 'primary: a b\n\n# rows\nr1: a   q\n', 'line 4, column 9: unknown column "q"'],
    ['column repeated in a row', 'primary: a b\na b a\n', 'line 2, column 5: column "a" is repeated in the row'],
    ['row of secondary columns only', 'primary: a\nsecondary: x\na\n  x\n', 'line 4, column 3: the row covers no primary column (a row needs at least one)'],
    ['named row without columns', 'primary: a\nr1:   # nothing\n', 'line 2, column 1: row "r1" covers no column (a row needs at least one)'],
    ['row before the header', '# matrix\n  a b\nprimary: a b\n', 'line 2, column 3: declare the primary columns ("primary: a b c") before the first row'],
    ['no header at all', '# only comments\n\n', 'no "primary:" header: the text must declare its primary columns, as in "primary: a b c"'],
    ['header after a row', 'primary: a\na\nsecondary: x\n', 'line 3, column 1: the "secondary:" header must come before the first row'],
    ['header naming nothing', 'primary: a\nsecondary:\n', 'line 2, column 1: "secondary:" names no columns'],
    ['column declared twice', 'primary: a b\nsecondary: x b\n', 'line 2, column 14: column "b" is declared twice (first on line 1)'],
    ['primary after secondary', 'secondary: x\nprimary: a\n', 'line 2, column 10: primary columns must be declared before the secondary ones'],
    ['name missing before the colon', 'primary: a\n  : a\n', 'line 2, column 3: a name is missing before ":"'],
    ['name of two words', 'primary: a\nrow one: a\n', 'line 2, column 5: a name is one word, but "row one" has 2'],
    ['second colon', 'primary: a b\nr: a b: c\n', 'line 2, column 7: unexpected ":" (a line has at most one name)'],
  ];
  badInputCases(cases.map(([name, text, message]) => [name, () => cover.count(text), message]));

  it('accepts CRLF line ends, tabs, comments after rows and repeated headers', async () => {
    const text = 'primary: A B C D\r\nprimary: E F G # more\r\nCEF:\tC E F\r\nADG: A D G\r\nBCF: B C F\r\nAD: A D # the one\r\nBG: B G\r\nBDG: B D G\r\n';
    expect(await cover.solve(text)).toMatchObject({ rows: [0, 3, 4], names: ['CEF', 'AD', 'BG'] });
    expect(cover.parseCover(text).lines).toEqual([3, 4, 5, 6, 7, 8]);
  });
});

describe('bad sudoku grids are BAD_INPUT naming the cells', () => {
  const cases: Array<[string, sudoku.SudokuGrid, string]> = [
    ['same digit in a row', '3..3\n....\n....\n....', 'line 1, column 1 and line 1, column 4 both hold 3 in row 1'],
    ['same digit in a column', '....\n.2..\n....\n.2..', 'line 2, column 2 and line 4, column 2 both hold 2 in column 2'],
    ['same digit in a box', '1...\n.1..\n....\n....', 'line 1, column 1 and line 2, column 2 both hold 1 in the same box'],
    ['clash in arrays', [[0, 4, 0, 0], [4, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], 'grid[0][1] and grid[1][0] both hold 4 in the same box'],
    ['digit beyond the grid', '....\n..5.\n....\n....', "line 2, column 3: unexpected character \"5\" (expected 1-4, '.' or '0')"],
    ['stray character', '1 2 . .\n. . x .\n....\n....', "line 2, column 5: unexpected character \"x\" (expected 1-4, '.' or '0')"],
    ['short line', '....\n...\n....\n....', 'line 2: 3 cells, expected 4 (one per column of a 4×4 sudoku)'],
    ['not a square number of rows', '...\n...\n...', 'the grid: a sudoku has b² rows for a box size b from 1 to 8 (4, 9, 16, 25, …), got 3'],
    ['one line of the wrong length', '\n' + '.'.repeat(80), 'line 2: a grid on one line has n² cells (16, 81, 256, …), got 80'],
    ['empty text', '\n \n', 'the sudoku is empty: expected a line of cells per row'],
    ['value out of range', [[0, 5, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], 'grid[0][1] must be an integer from 0 (empty) to 4, got 5'],
    ['ragged arrays', [[0, 0, 0, 0], [0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], 'grid[1] must have 4 cells, got 3'],
  ];
  badInputCases(cases.map(([name, grid, message]) => [name, () => sudoku.count(grid), message]));
});

describe('the engines refuse what the host should have rejected', () => {
  const engines: Array<[string, () => Promise<CoverEngine>]> = [
    ['wasm', async () => wasmCoverEngine(instantiateEngine(await loadEngineModule()))],
    ['js', async () => new ReferenceCoverEngine()],
  ];
  const bad: Array<[string, CoverMatrix]> = [
    ['a column out of range', toMatrix({ primary: 2, secondary: 0, rows: [[0, 2]] })],
    ['a column repeated in a row', toMatrix({ primary: 2, secondary: 0, rows: [[1], [0, 1, 0]] })],
    ['an empty row', toMatrix({ primary: 2, secondary: 0, rows: [[0], []] })],
  ];
  for (const [kind, make] of engines) {
    it(`loading, forcing and starting out of order give BAD_INPUT (${kind})`, async () => {
      const engine = await make();
      for (const [, matrix] of bad) expect(engine.load(matrix)).toBe(Status.BAD_INPUT);
      expect(engine.start(false, 0)).toBe(Status.BAD_INPUT); // nothing loaded
      const good = toMatrix({ primary: 2, secondary: 1, rows: [[0, 2], [1, 2], [0], [1]] });
      expect(engine.load(good)).toBe(Status.DONE);
      expect(engine.force(4)).toBe(Status.BAD_INPUT);
      expect(engine.force(0)).toBe(Status.DONE);
      expect(engine.force(1)).toBe(Status.BAD_INPUT); // shares the secondary column with row 0
      expect(engine.start(true, 0)).toBe(Status.DONE);
      expect(engine.force(3)).toBe(Status.BAD_INPUT); // the search has started
      expect(engine.run(100)).toBe(Status.SOLUTION);
      expect(engine.output()).toEqual([0, 3]);
      expect(engine.run(100)).toBe(Status.DONE);
      // Loading again forgets the forced rows.
      expect(engine.load(good)).toBe(Status.DONE);
      expect(engine.start(false, 0)).toBe(Status.DONE);
      expect(engine.run(100)).toBe(Status.DONE);
      expect(engine.solutions()).toBe(3n);
    });
  }
});

describe('memory and cancellation', () => {
  it('a matrix beyond maxMemory is OUT_OF_MEMORY on both engines, and the engine stays usable', async () => {
    const empty = '.'.repeat(256); // 16×16: 16,384 entries, about 600 KB of links
    for (const engine of ENGINES) {
      const error = await rejection(sudoku.count(empty, { engine, maxMemory: 65536 }));
      expect(error.code).toBe('OUT_OF_MEMORY');
      expect(error.message).toMatch(/maxMemory \(65536 bytes\)/);
      expect((await sudoku.count('................', { engine })).total).toBe(288n);
    }
  });

  it('a signal aborted before the start rejects at once', async () => {
    expect((await rejection(cover.count(KNUTH, { signal: AbortSignal.abort() }))).code).toBe('ABORTED');
    expect((await rejection(exactCover(KNUTH, { signal: AbortSignal.abort() }))).code).toBe('ABORTED');
  });

  for (const threads of [1, 2]) {
    it(`stops an endless count (every 9×9 grid) on ${threads} thread(s)`, async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const error = await rejection(sudoku.count('.'.repeat(81), { threads, signal: controller.signal }));
      expect(error.code).toBe('ABORTED');
    });
  }

  it('stops an iterator between solutions', async () => {
    const controller = new AbortController();
    let seen = 0;
    const error = await rejection(
      (async () => {
        for await (const _ of sudoku.solutions('.'.repeat(16), { signal: controller.signal })) {
          if (++seen === 5) controller.abort();
        }
      })(),
    );
    expect(error.code).toBe('ABORTED');
    expect(seen).toBe(5);
  });
});

describe('bitpuzzle cover and bitpuzzle sudoku', () => {
  const bin = fileURLToPath(new URL('../bin/bitpuzzle', import.meta.url));
  const run = (args: string[], input?: string) => spawnSync(process.execPath, [bin, ...args], { input, encoding: 'utf8', timeout: 60_000 });

  it('cover lists the solution as the rows written, and counts as JSON', () => {
    const listed = run(['cover', '-', '--all'], KNUTH);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toBe('solution 1:\n  CEF: C E F\n  AD: A D\n  BG: B G\n');
    const counted = run(['cover', '-', '--count', '--json'], KNUTH);
    expect(counted.status).toBe(0);
    expect(JSON.parse(counted.stdout)).toMatchObject({ total: 1, reason: null, stats: { nodes: expect.any(Number) } });
    const json = JSON.parse(run(['cover', '-', '--json', '--engine', 'js'], KNUTH).stdout);
    expect(json.solutions).toEqual([{ rows: [0, 3, 4], names: ['CEF', 'AD', 'BG'], lines: [3, 6, 7] }]);
  });

  it('cover prints unnamed rows by their columns, and the reason for zero', () => {
    expect(run(['cover', '-', '--limit', '5'], 'primary: a b\na\nb\na b\n').stdout).toBe('solution 1:\n  a\n  b\n\nsolution 2:\n  a b\n');
    expect(run(['cover', '-', '--count'], 'primary: a b\na\n').stdout).toMatch(/^0 solutions: column "b" is in no row/);
  });

  it('sudoku solves and counts', () => {
    const solved = run(['sudoku', '-'], HARD);
    expect(solved.status).toBe(0);
    expect(solved.stdout).toMatch(/^solution 1:\n(\d{9}\n){9}$/);
    expect(JSON.parse(run(['sudoku', '-', '--count', '--json'], '....\n....\n....\n....\n').stdout).total).toBe(288);
  });

  it('bad input exits 2 with the line and column on stderr', () => {
    const unknown = run(['cover', '-'], 'primary: a b\nr1: a q\n');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('BAD_INPUT: line 2, column 7: unknown column "q"');
    expect(unknown.stdout).toBe('');
    const clash = run(['sudoku', '-'], '11..\n....\n....\n....\n');
    expect(clash.status).toBe(2);
    expect(clash.stderr).toContain('line 1, column 1 and line 1, column 2 both hold 1 in row 1');
    expect(run(['cover', '/no/such/file']).stderr).toContain('cannot read /no/such/file');
    expect(run(['cover', '-', '--all', '--limit', '2'], KNUTH).status).toBe(2);
    expect(run(['sudoku', '-', '--shard', '1/2'], HARD).stderr).toContain('--shard works with --count');
    expect(run(['cover', '-', '--count', '--threads', 'many'], KNUTH).status).toBe(2);
  });
});
