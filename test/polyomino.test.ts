// Polyomino tiling: published counts, an independent exact-cover oracle, a brute-force
// symmetry oracle, the twin against the engine, and every bad-input path.
import { describe, expect, it } from 'vitest';
import { cover, loadEngineModule, polyomino } from '../dist/index.js';
import { wasmTilingEngine, type TilingEngine } from '../dist/polyomino/engine.js';
import { ReferenceTilingEngine } from '../dist/polyomino/reference.js';
import { runTilingTask, splitParts } from '../dist/polyomino/tasks.js';
import { instantiateEngine } from '../dist/wasm/module.js';
import { Status } from '../dist/wasm/protocol.js';
import { PENTOMINO_REGIONS } from './data/known-results.js';
import { random, rejection } from './helpers.js';

type Problem = polyomino.PolyominoProblem;
type Solution = polyomino.TilingSolution;

async function all<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

// --- an independent symmetry oracle: letter grids under the 8 grid symmetries ---------

/** The letter grid as rows of characters, ' ' outside the region. */
function grid(solution: Solution): string[][] {
  const rows = Array.from({ length: solution.height }, () => new Array<string>(solution.width).fill(' '));
  for (const p of solution.pieces) for (const [x, y] of p.cells) rows[y][x] = p.piece;
  return rows;
}

/** The 8 images of a grid (some change its dimensions); `mirror` renames letters under reflections. */
function gridImages(rows: string[][], mirror: (letter: string) => string): { text: string; w: number; h: number }[] {
  const h = rows.length;
  const w = rows[0].length;
  const maps: Array<[(x: number, y: number) => [number, number], boolean, boolean]> = [
    [(x, y) => [x, y], false, false],
    [(x, y) => [h - 1 - y, x], true, false],
    [(x, y) => [w - 1 - x, h - 1 - y], false, false],
    [(x, y) => [y, w - 1 - x], true, false],
    [(x, y) => [w - 1 - x, y], false, true],
    [(x, y) => [x, h - 1 - y], false, true],
    [(x, y) => [y, x], true, true],
    [(x, y) => [h - 1 - y, w - 1 - x], true, true],
  ];
  return maps.map(([f, swap, reflect]) => {
    const [iw, ih] = swap ? [h, w] : [w, h];
    const out = Array.from({ length: ih }, () => new Array<string>(iw).fill(' '));
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const [nx, ny] = f(x, y);
        const letter = rows[y][x];
        out[ny][nx] = letter === ' ' || !reflect ? letter : mirror(letter);
      }
    }
    return { text: out.map((r) => r.join('')).join('\n'), w: iw, h: ih };
  });
}

/**
 * Distinct tilings among `solutions` (each piece used once, so a letter grid is the tiling):
 * two are the same when a symmetry of the region carries one onto the other.
 */
function distinctByBruteForce(solutions: Solution[], mirror: (letter: string) => string = (l) => l): number {
  const classes = new Set<string>();
  for (const s of solutions) {
    const rows = grid(s);
    const region = rows.map((r) => r.map((c) => (c === ' ' ? ' ' : '.')).join('')).join('\n');
    const keep = gridImages(rows, mirror).filter(
      (image, i) => gridImages(rows.map((r) => r.map((c) => (c === ' ' ? ' ' : '.'))), (l) => l)[i].text === region && image.w === s.width,
    );
    classes.add(keep.map((image) => image.text).sort()[0]);
  }
  return classes.size;
}

// --- random problems ---------------------------------------------------------------------

const SMALL_PIECES: polyomino.PieceSpec[] = [
  { name: 'a', shape: 'aa' },
  { name: 'b', shape: 'bbb' },
  { name: 'c', shape: 'cc\nc.' },
  { name: 'I', shape: 'IIII' },
  { name: 'O', shape: 'OO\nOO' },
  { name: 'T', shape: 'TTT\n.T.' },
  { name: 'S', shape: '.SS\nSS.' },
  { name: 'L', shape: 'LLL\nL..' },
  { name: 'P', shape: 'PP\nPP\nP.' },
  { name: 'X', shape: '.X.\nXXX\n.X.' },
];

/** A random region (a blob grown from one cell, holes allowed) and a random piece set that fits its area. */
function randomProblem(next: () => number, options: { maxCells: number; counts: boolean }): Problem {
  const pieces: polyomino.PieceSpec[] = [];
  let area = 0;
  const target = 6 + Math.floor(next() * (options.maxCells - 6));
  for (const spec of [...SMALL_PIECES].sort(() => next() - 0.5)) {
    const size = (spec.shape as string).replace(/[^A-Za-z]/g, '').length;
    const count = options.counts ? 1 + Math.floor(next() * 2) : 1;
    if (area + size * count > target) continue;
    pieces.push({ ...spec, count, oneSided: next() < 0.2, atMost: options.counts && next() < 0.2 });
    area += size * count;
  }
  const cells = new Set(['0,0']);
  const list: Array<[number, number]> = [[0, 0]];
  while (cells.size < area) {
    const [x, y] = list[Math.floor(next() * list.length)];
    const [dx, dy] = [[1, 0], [-1, 0], [0, 1], [0, -1]][Math.floor(next() * 4)];
    const key = `${x + dx},${y + dy}`;
    if (!cells.has(key)) {
      cells.add(key);
      list.push([x + dx, y + dy]);
    }
  }
  const minX = Math.min(...list.map((c) => c[0]));
  const minY = Math.min(...list.map((c) => c[1]));
  const w = Math.max(...list.map((c) => c[0])) - minX + 1;
  const h = Math.max(...list.map((c) => c[1])) - minY + 1;
  const rows = Array.from({ length: h }, () => new Array<string>(w).fill('#'));
  for (const [x, y] of list) rows[y - minY][x - minX] = '.';
  return { region: rows.map((r) => r.join('')).join('\n'), pieces };
}

async function wasmEngine(): Promise<TilingEngine> {
  return wasmTilingEngine(instantiateEngine(await loadEngineModule()));
}

/** Runs every root part of a problem on an engine; totals, distinct, nodes and the emitted placements. */
function runParts(engine: TilingEngine, prepared: polyomino.Prepared, emit: boolean, budget = 1 << 20) {
  let total = 0n;
  let distinct = 0n;
  let nodes = 0n;
  const emitted: number[][] = [];
  expect(engine.load(prepared.input)).toBe(Status.DONE);
  for (const part of prepared.parts) {
    expect(engine.start(part.pre, part.weight, part.mask, emit, 0)).toBe(Status.DONE);
    let status;
    while ((status = engine.run(budget)) !== Status.DONE) if (status === Status.SOLUTION) emitted.push(engine.output());
    total += engine.total();
    distinct += engine.distinct();
    nodes += engine.nodes();
  }
  return { total, distinct, nodes, emitted };
}

// --- the tests ----------------------------------------------------------------------------

describe('the 12 pentominoes: published counts', () => {
  for (const { name, region, total, distinct } of PENTOMINO_REGIONS) {
    it(`${name}: ${total} solutions, ${distinct} distinct (Wasm, one thread)`, async () => {
      const result = await polyomino.count({ region }, { threads: 1 });
      expect(result.total).toBe(total);
      expect(result.distinct).toBe(distinct);
      expect(result.reason).toBeNull();
    });
    it(`${name}: the same with the TS twin`, async () => {
      const result = await polyomino.count({ region }, { threads: 1, engine: 'js' });
      expect([result.total, result.distinct]).toEqual([total, distinct]);
    });
  }

  it('6×10 on two threads and in shards gives the same counts', async () => {
    // A small count finishes on the calling thread; shards skip that and use the pool.
    const whole = await polyomino.count({ region: '6x10' }, { threads: 2 });
    expect([whole.total, whole.distinct]).toEqual([9356n, 2339n]);
    const halves = await Promise.all(['1/2', '2/2'].map((shard) => polyomino.count({ region: '6x10' }, { threads: 2, shard })));
    expect(halves.every((h) => h.stats.threads === 2 && h.stats.parts >= 32)).toBe(true);
    expect([halves[0].total + halves[1].total, halves[0].distinct + halves[1].distinct]).toEqual([9356n, 2339n]);
    let total = 0n;
    let distinct = 0n;
    for (let k = 1; k <= 3; k++) {
      const shard = await polyomino.count({ region: '5x12' }, { threads: 1, shard: `${k}/3` });
      expect(shard.shard).toEqual({ index: k, count: 3 });
      total += shard.total;
      distinct += shard.distinct;
    }
    expect([total, distinct]).toEqual([4040n, 1010n]);
  });

  it('counts the same placements (stats.nodes) on any number of threads: a split counts its own', async () => {
    // Threaded counts run a trial of 4M placements first; 5×12 needs fewer, so the split
    // that follows a longer trial is checked directly: its placements plus its parts' sum
    // to the placements of the search uncut.
    const problem = { region: '5x12' };
    const one = await polyomino.count(problem, { threads: 1 });
    const two = await polyomino.count(problem, { threads: 2 });
    expect(two.stats.nodes).toBe(one.stats.nodes);
    const prepared = polyomino.prepare(problem);
    const base = { engine: 'wasm' as const, spec: prepared.spec, maxMemory: 1 << 30 };
    const split = await splitParts(base, prepared.parts, 1);
    expect(split.parts.length).toBeGreaterThanOrEqual(64);
    expect(split.nodes).toBeGreaterThan(0n);
    let nodes = split.nodes;
    let total = 0n;
    for (const part of split.parts) {
      const counted = await runTilingTask({ ...base, part });
      nodes += counted.nodes;
      total += counted.total;
    }
    expect(total).toBe(one.total);
    expect(nodes).toBe(one.stats.nodes);
  });

  it('the fixed orientations of the built-in sets number 63, 19, 216 and 63', () => {
    const fixed = (set: string): number =>
      polyomino.pieceSet(set).reduce((sum, p) => sum + polyomino.orientations(p.cells, p.oneSided).length, 0);
    expect(fixed('pentominoes')).toBe(63);
    expect(fixed('tetrominoes')).toBe(19);
    expect(fixed('hexominoes')).toBe(216);
    expect(fixed('one-sided-pentominoes')).toBe(63);
    expect(polyomino.pieceSet('hexominoes')).toHaveLength(35);
    expect(polyomino.pieceSet('one-sided-pentominoes')).toHaveLength(18);
    expect(polyomino.pieceSet('pentominoes').map((p) => p.name).join('')).toBe('FILNPTUVWXYZ');
  });

  it('lists all 8 solutions of 3×20 and the 2 distinct ones, each a real tiling', async () => {
    const every = await all(polyomino.solutions({ region: '3x20' }, { limit: Infinity }));
    expect(every).toHaveLength(8);
    for (const s of every) expect(polyomino.checkSolution({ region: '3x20' }, s)).toBeNull();
    expect(new Set(every.map(polyomino.picture)).size).toBe(8);
    expect(distinctByBruteForce(every)).toBe(2);
    const distinct = await all(polyomino.solutions({ region: '3x20' }, { distinct: true }));
    expect(distinct).toHaveLength(2);
    expect(distinctByBruteForce(distinct)).toBe(2);
  });

  it('distinct listings of 8×8 minus its centre: 65 tilings, no two equivalent, one per class of all 520', async () => {
    const region = PENTOMINO_REGIONS.find((r) => r.name.startsWith('8×8'))!.region;
    const every = await all(polyomino.solutions({ region }, { limit: Infinity }));
    expect(every).toHaveLength(520);
    expect(distinctByBruteForce(every)).toBe(65);
    const distinct = await all(polyomino.solutions({ region }, { distinct: true, limit: Infinity }));
    expect(distinct).toHaveLength(65);
    expect(distinctByBruteForce(distinct)).toBe(65);
    expect(distinctByBruteForce([...distinct, ...every])).toBe(65);
  });
});

describe('against independent oracles', () => {
  it('counts equal the exact-cover engine on random regions and piece sets (one-sided pieces, holes)', async () => {
    const next = random(11);
    for (let i = 0; i < 40; i++) {
      const problem = randomProblem(next, { maxCells: i < 30 ? 24 : 40, counts: false });
      const tiling = await polyomino.count(problem, { threads: 1 });
      const matrix = polyomino.toExactCover(problem);
      const dlx = await cover.count({ columns: matrix.columns, secondary: matrix.secondary, rows: matrix.rows }, { threads: 1 });
      expect(tiling.total, String(problem.region)).toBe(dlx.total);
      if (dlx.total === 0n) continue;
      // Every listed solution is a real tiling, and the distinct count is the brute-force one.
      const every = await all(polyomino.solutions(problem, { limit: 2000 }));
      for (const s of every.slice(0, 50)) expect(polyomino.checkSolution(problem, s)).toBeNull();
      if (every.length < 2000 && !(problem.pieces as polyomino.PieceSpec[]).some((p) => p.oneSided)) {
        expect(BigInt(every.length)).toBe(tiling.total);
        expect(BigInt(distinctByBruteForce(every))).toBe(tiling.distinct);
      }
    }
  });

  it('above 64 cells (spans of words) counts equal the exact-cover engine: pentominoes and a 2×3 block in 22×3', async () => {
    const problem = { region: '22x3', pieces: ['pentominoes', { name: 'R', shape: 'RR\nRR\nRR' }] };
    expect(polyomino.prepare(problem).cellXY).toHaveLength(66);
    const tiling = await polyomino.count(problem, { threads: 1 });
    const matrix = polyomino.toExactCover(problem);
    const dlx = await cover.count({ columns: matrix.columns, rows: matrix.rows }, { threads: 1 });
    expect(tiling.total).toBe(dlx.total);
    expect(tiling.total).toBeGreaterThan(0n);
    const every = await all(polyomino.solutions(problem, { limit: Infinity }));
    expect(BigInt(every.length)).toBe(tiling.total);
    expect(BigInt(distinctByBruteForce(every))).toBe(tiling.distinct);
  });

  it('one-sided pieces: reflections swap mirror pieces, and the distinct count follows', async () => {
    // Six one-sided tetrominoes (J and Z are mirrored L and S; T would break the
    // chessboard balance) into a 6×4 rectangle.
    const pieces: polyomino.PieceSpec[] = [
      { name: 'I', shape: 'IIII', oneSided: true },
      { name: 'O', shape: 'OO\nOO', oneSided: true },
      { name: 'S', shape: '.SS\nSS.', oneSided: true },
      { name: 'Z', shape: 'ZZ.\n.ZZ', oneSided: true },
      { name: 'L', shape: 'LLL\nL..', oneSided: true },
      { name: 'J', shape: 'JJJ\n..J', oneSided: true },
    ];
    const problem = { region: '6x4', pieces };
    const result = await polyomino.count(problem, { threads: 1 });
    const every = await all(polyomino.solutions(problem, { limit: Infinity }));
    expect(BigInt(every.length)).toBe(result.total);
    expect(result.total).toBeGreaterThan(0n);
    const mirror = (l: string): string => ({ S: 'Z', Z: 'S', L: 'J', J: 'L' })[l] ?? l;
    expect(BigInt(distinctByBruteForce(every, mirror))).toBe(result.distinct);
    expect(result.symmetries).toBe(4);
  });

  it('the twin and the engine agree on random problems with counts and at-most pieces: totals, distinct, nodes, solutions', async () => {
    const wasm = await wasmEngine();
    const twin = new ReferenceTilingEngine();
    const next = random(5);
    let solved = 0;
    for (let i = 0; i < 60; i++) {
      const problem = randomProblem(next, { maxCells: i < 45 ? 30 : 44, counts: true });
      const prepared = polyomino.prepare(problem);
      const a = runParts(wasm, prepared, true);
      const b = runParts(twin, prepared, true);
      expect(a).toEqual(b);
      if (a.total > 0n) solved++;
      // Replayed from the placements: each emitted solution is a real tiling.
      for (const placements of a.emitted.slice(0, 20)) {
        expect(polyomino.checkSolution(problem, polyomino.decode(prepared, placements))).toBeNull();
      }
    }
    expect(solved).toBeGreaterThan(10);
  });

  it('a search run one placement at a time counts what one long run counts', async () => {
    const prepared = polyomino.prepare({ region: '3x20' });
    for (const engine of [await wasmEngine(), new ReferenceTilingEngine()]) {
      const whole = runParts(engine, prepared, false);
      const stepped = runParts(engine, prepared, false, 1);
      expect(stepped).toEqual(whole);
      expect(whole.total).toBe(8n);
    }
  });

  it('regions above 64 cells search on spans of words: pentominoes and a 2×3 block in 11×6, engine and twin', async () => {
    const problem = { region: '11x6', pieces: ['pentominoes', { name: 'R', shape: 'RR\nRR\nRR' }] };
    expect(polyomino.prepare(problem).cellXY).toHaveLength(66);
    const wasm = await polyomino.count(problem, { threads: 1, shard: '1/64' });
    const twin = await polyomino.count(problem, { threads: 1, shard: '1/64', engine: 'js' });
    expect([wasm.total, wasm.distinct, wasm.stats.nodes]).toEqual([twin.total, twin.distinct, twin.stats.nodes]);
    expect(wasm.total).toBeGreaterThan(0n);
    for (const s of await all(polyomino.solutions(problem, { limit: 5 }))) expect(polyomino.checkSolution(problem, s)).toBeNull();
  });
});

describe('problems with no solution are answered without a search', () => {
  it('area that cannot match gives zero with the reason', async () => {
    const result = await polyomino.count({ region: '7x9' });
    expect(result.total).toBe(0n);
    expect(result.reason).toBe('the pieces cover 60 cells; the region has 63');
    expect(result.stats.nodes).toBe(0n);
    // A first-solution request settled by a check before any search: UNSOLVABLE with the reason.
    await expect(polyomino.solve({ region: '7x9' })).rejects.toMatchObject({ code: 'UNSOLVABLE', message: result.reason });
  });

  it('a piece that fits nowhere, and a part of the region no pieces fit', async () => {
    const long = await polyomino.count({ region: '3x4', pieces: [{ name: 'I', shape: 'IIIIII' }, { name: 'O', shape: 'OO\nOO\nOO' }] });
    expect(long.reason).toBe('piece "I" fits nowhere in the region');
    const split = await polyomino.count({ region: '..#...\n..#...', pieces: [{ name: 'P', shape: 'PP\nPP\nP.' }, { name: 'U', shape: 'U.U\nUUU' }] });
    expect(split.reason).toBe('the part of the region at column 1, row 1 has 4 cells, which no choice of the pieces covers');
    expect(split.total).toBe(0n);
  });

  it('at-most pieces: monomino fillers used as needed', async () => {
    const problem = { region: '3x3', pieces: [{ name: 'L', shape: 'LL\nL.', atMost: true }, { name: 'o', shape: 'o', count: 9, atMost: true }] };
    const result = await polyomino.count(problem, { threads: 1 });
    // Without L: 1 tiling by monominoes; with L: 4 orientations × 4 positions each.
    expect(result.total).toBe(17n);
    const every = await all(polyomino.solutions(problem, { limit: Infinity }));
    expect(every).toHaveLength(17);
    for (const s of every) expect(polyomino.checkSolution(problem, s)).toBeNull();
  });
});

describe('output', () => {
  it('letter grids, JSON placements and SVG drawings', async () => {
    const solution = (await polyomino.solve({ region: '6x10' }))!;
    const picture = polyomino.picture(solution);
    expect(picture.split('\n')).toHaveLength(10);
    expect(picture.split('\n').every((row) => /^[FILNPTUVWXYZ]{6}$/.test(row))).toBe(true);
    expect(solution.pieces).toHaveLength(12);
    for (const p of solution.pieces) expect(p.cells).toHaveLength(5);
    const svg = polyomino.svg([solution, solution]);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.match(/<rect x=/g)).toHaveLength(120);
    expect(polyomino.colourPicture(solution)).toMatch(/\x1b\[48;2;\d+;\d+;\d+m/);
  });

  it('holes print as spaces in the grid', async () => {
    const region = PENTOMINO_REGIONS.find((r) => r.name.startsWith('8×8'))!.region;
    const rows = polyomino.picture((await polyomino.solve({ region }))!).split('\n');
    expect(rows[3].slice(3, 5)).toBe('  ');
    expect(rows[0]).toMatch(/^[A-Z]{8}$/);
  });
});

describe('bad input is BAD_INPUT naming the problem', () => {
  const cases: Array<[string, Problem, RegExp]> = [
    ['an unknown set', { region: '6x10', pieces: 'pentomino' }, /unknown piece set "pentomino" \(known: pentominoes, tetrominoes, hexominoes, one-sided-pentominoes, soma, tetracubes, flat-pentacubes, pentacubes, bedlam\)/],
    ['a bad region character', { region: '...\n.x.' }, /line 2, column 2: "x" in the region picture/],
    ['an empty region', { region: '###\n# #' }, /the region has no cells/],
    ['a zero-width rectangle', { region: '0x5' }, /at least 1, got 0×5/],
    ['a region too large', { region: '40x40' }, /1600 cells; regions have at most 1024/],
    ['a piece not connected', { region: '2x2', pieces: 'AA\n..\nAA' }, /line 1, column 1: piece "A" is not one connected polyomino/],
    ['two characters in one picture', { region: '2x2', pieces: 'AB\nAA' }, /line 1, column 2: "B" in the picture of piece "A"/],
    ['a bad piece character', { region: '2x2', pieces: 'A*' }, /line 1, column 2: "\*" cannot draw a piece/],
    ['an unknown piece option', { region: '2x2', pieces: 'A: twice\nAA' }, /line 1, column 4: unknown piece option "twice"/],
    ['a long piece name', { region: '2x2', pieces: 'AB: free\nAA' }, /line 1, column 1: a piece name is one letter or digit, got "AB"/],
    ['a duplicate shape', { region: '4x4', pieces: 'LLL\nL..\n\nJJJ\n..J' }, /pieces "L" and "J" have the same shape/],
    ['a duplicate name', { region: '4x4', pieces: [{ name: 'A', shape: 'AA' }, { name: 'A', shape: 'AAA' }] }, /two pieces are named "A"/],
    ['a bad count', { region: '4x4', pieces: [{ name: 'A', shape: 'AA', count: -1 }] }, /count must be an integer from 0 to 1024, got -1/],
    ['bad cells', { region: '4x4', pieces: [{ name: 'A', shape: [[0, 0], [0, 0.5]] as never }] }, /cells must be \[x, y\] integer pairs/],
    ['an empty piece list', { region: '4x4', pieces: '# nothing\n' }, /the piece list has no pieces/],
  ];
  for (const [what, problem, message] of cases) {
    it(what, async () => {
      const error = await rejection(polyomino.count(problem));
      expect(error.code).toBe('BAD_INPUT');
      expect(error.message).toMatch(message);
      const listing = await rejection(all(polyomino.solutions(problem)));
      expect(listing.code).toBe('BAD_INPUT');
    });
  }

  it('a one-line picture of one letter is a piece, not a set name', async () => {
    expect((await polyomino.count({ region: '1x3', pieces: 'aaa' }, { threads: 1 })).total).toBe(1n);
  });

  it('bad options', async () => {
    expect((await rejection(polyomino.count({ region: '3x20' }, { engine: 'c' as never }))).message).toMatch(/engine must be 'wasm' or 'js'/);
    expect((await rejection(all(polyomino.solutions({ region: '3x20' }, { limit: -1 }))))).toMatchObject({ code: 'BAD_INPUT' });
    expect((await rejection(polyomino.count({ region: '3x20' }, { shard: '4/3' }))).message).toMatch(/shard/);
    expect((await rejection(polyomino.count({ region: '3x20' }, { threads: 0 }))).message).toMatch(/threads must be/);
  });

  it('engines reject malformed input words and parts with BAD_INPUT', async () => {
    const prepared = polyomino.prepare({ region: '3x20' });
    for (const engine of [await wasmEngine(), new ReferenceTilingEngine()]) {
      const broken = prepared.input.slice();
      broken[5] = 1; // flood limit below 2
      expect(engine.load(broken)).toBe(Status.BAD_INPUT);
      expect(engine.start([], 1, 0, false, 0)).toBe(Status.BAD_INPUT); // nothing loaded
      expect(engine.load(prepared.input)).toBe(Status.DONE);
      expect(engine.start([prepared.placements.length], 1, 0, false, 0)).toBe(Status.BAD_INPUT);
      expect(engine.start([], 0, 0, false, 0)).toBe(Status.BAD_INPUT);
      expect(engine.start([], 1, 1 << prepared.symmetries.length, false, 0)).toBe(Status.BAD_INPUT);
      const [first] = prepared.placements.keys();
      expect(engine.start([first, first], 1, 0, false, 0)).toBe(Status.BAD_INPUT);
    }
  });
});

describe('limits, cancellation and memory', () => {
  it('a small maxMemory is OUT_OF_MEMORY, and the instance works afterwards', async () => {
    // The 35 hexominoes and a 14×15 rectangle: the same area, ~30,000 placements to load.
    const problem = { region: '14x15', pieces: 'hexominoes' };
    const error = await rejection(polyomino.count(problem, { threads: 1, maxMemory: 1 << 18 }));
    expect(error.code).toBe('OUT_OF_MEMORY');
    expect(error.message).toMatch(/maxMemory \(262144 bytes\)/);
    expect((await polyomino.count({ region: '3x20' }, { threads: 1 })).total).toBe(8n);
  });

  it('an abort stops a count inline, on workers, and an iterator', async () => {
    for (const threads of [1, 2]) {
      const error = await rejection(polyomino.count({ region: '6x10' }, { threads, signal: AbortSignal.timeout(30) }));
      expect(error.code).toBe('ABORTED');
    }
    const controller = new AbortController();
    const iterator = polyomino.solutions({ region: '6x10' }, { limit: Infinity, signal: controller.signal });
    await iterator.next();
    controller.abort();
    expect((await rejection(iterator.next())).code).toBe('ABORTED');
  });

  it('progress reaches every part', async () => {
    const seen: Array<{ done: number; total: number }> = [];
    await polyomino.count({ region: '4x15' }, { threads: 1, onProgress: (p) => seen.push(p) });
    expect(seen.at(-1)!.done).toBe(seen.at(-1)!.total);
    expect(seen.at(0)!.done).toBe(0);
  });
});
