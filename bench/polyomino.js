// npm run bench:polyomino [-- --only 6x10,5x12 --one-sided-shard 1/1000|all]: polyomino tiling
// (and polycubes in space: soma, 2x3x10-flat by default; 2x5x6-flat and a Bedlam shard with --only)
// counts by the Wasm bitboard engine (1 and all threads), its TS twin, the `dancing-links`
// npm package on the exact-cover matrix, and a C twin of the engine, as a markdown table
// with ratios. Every answer of every contender is checked. Progress goes to stderr, the
// tables to stdout.
import { existsSync } from 'node:fs';
import os from 'node:os';
import { DancingLinks } from 'dancing-links';
import { benchArgs, fail, markdown, ratio, time, timeNative, timeSuite } from './common.js';
import { buildNativePolyomino } from './native.js';

const CENTRE_HOLE = ['........', '........', '........', '...##...', '...##...', '........', '........', '........'].join('\n');

// `expected`: published figures (total, distinct). Without them, every contender must agree
// with the first answer of the run.
const WORKLOADS = [
  {
    id: '6x10',
    title: '6×10, pentominoes',
    problem: { region: '6x10', pieces: 'pentominoes' },
    expected: { total: 9356n, distinct: 2339n },
  },
  {
    id: '5x12',
    title: '5×12, pentominoes',
    problem: { region: '5x12', pieces: 'pentominoes' },
    expected: { total: 4040n, distinct: 1010n },
  },
  {
    id: '8x8-centre',
    title: '8×8 minus centre 2×2',
    problem: { region: CENTRE_HOLE, pieces: 'pentominoes' },
    expected: { total: 520n, distinct: 65n },
  },
  {
    id: '8x8-square',
    title: '8×8, pentominoes + 2×2 square',
    problem: { region: '8x8', pieces: ['pentominoes', { name: 'O', shape: 'OO\nOO' }] },
  },
  {
    // The whole count is about an hour of one core's work for the Wasm engine (measured: a
    // 1/200 shard took 9.5 s on two threads), too long for every contender, so by default the
    // table has one deterministic shard of it; --one-sided-shard all counts everything.
    id: '6x15-one-sided',
    title: '6×15, one-sided pentominoes',
    problem: { region: '6x15', pieces: 'one-sided-pentominoes' },
    shardOption: true,
  },
  {
    id: 'soma',
    title: '3×3×3, Soma',
    problem: { region: '3x3x3', pieces: 'soma' },
    expected: { total: 11520n, distinct: 240n },
  },
  {
    id: '2x3x10-flat',
    title: '2×3×10, flat pentacubes',
    problem: { region: '2x3x10', pieces: 'flat-pentacubes' },
    expected: { total: 96n, distinct: 12n },
  },
  {
    // Seconds for the engine, much longer for the DLX contenders: only with --only.
    id: '2x5x6-flat',
    title: '2×5×6, flat pentacubes',
    problem: { region: '2x5x6', pieces: 'flat-pentacubes' },
    expected: { total: 2112n, distinct: 264n },
    optIn: true,
  },
  {
    // The whole count is minutes on two threads: one deterministic shard, only with --only.
    id: 'bedlam',
    title: '4×4×4, Bedlam',
    problem: { region: '4x4x4', pieces: 'bedlam' },
    shard: '1/64',
    optIn: true,
  },
];

const { values } = benchArgs(import.meta.url, {
  only: { type: 'string', multiple: true },
  'one-sided-shard': { type: 'string', default: '1/1000' },
});
const onlyIds = values.only?.flatMap((s) => s.split(',')).map((s) => s.trim());
const unknown = onlyIds?.filter((id) => !WORKLOADS.some((w) => w.id === id));
if (unknown?.length) fail(`unknown workload ${unknown.join(', ')}; the workloads are ${WORKLOADS.map((w) => w.id).join(', ')}`);
const oneSidedShard = values['one-sided-shard'] === 'all' ? null : values['one-sided-shard'];
if (oneSidedShard !== null && !/^\d+\/\d+$/.test(oneSidedShard)) fail(`--one-sided-shard is k/n or all, got ${oneSidedShard}`);
const workloads = WORKLOADS.filter((w) => (onlyIds ? onlyIds.includes(w.id) : !w.optIn)).map((w) => {
  const shard = w.shardOption ? oneSidedShard : (w.shard ?? null);
  return { ...w, shard, title: shard ? `${w.title}, shard ${shard}` : w.title };
});

if (!existsSync(new URL('../dist/index.js', import.meta.url))) fail('dist/ is missing: run `npm run build` first');
const library = await import('../dist/index.js');
const { polyomino } = library;
// Not public API: the library's own cut into parts, so that C and dancing-links search the
// very parts a shard holds.
const { splitParts } = await import('../dist/polyomino/tasks.js');
const { partsOfShard } = await import('../dist/parallel/shard.js');

const threads = os.availableParallelism();

/** The parts the library counts for this workload on one thread (its root parts, or a shard's). */
async function partsOf(workload) {
  const prepared = polyomino.prepare(workload.problem);
  if (!workload.shard) return prepared.parts;
  const [index, count] = workload.shard.split('/').map(Number);
  const task = { engine: 'wasm', spec: prepared.spec, maxMemory: 2 ** 30 };
  return partsOfShard((await splitParts(task, prepared.parts, count)).parts, { index, count });
}

/**
 * The exact-cover matrix of each part: the whole matrix, except that each piece placed in
 * advance by the part keeps only the row of that placement. Leaves the solutions below the
 * part, so the DLX solvers search what the engine searches: the same symmetry restriction
 * (the restricted piece at each orbit representative) and the same shard.
 */
function partMatrices(workload, parts) {
  const prepared = polyomino.prepare(workload.problem);
  const matrix = polyomino.toExactCover(workload.problem);
  // toExactCover makes one row per placement, in order, the piece's name first.
  prepared.placements.forEach((p, id) => {
    if (matrix.rows[id][0] !== prepared.pieces[p.kind].name) fail(`row ${id} of the exact-cover matrix is not placement ${id}`);
  });
  return parts.map((part) => {
    const fixed = new Map(part.pre.map((id) => [prepared.placements[id].kind, id]));
    const rows = matrix.rows.filter((_, id) => {
      const kind = prepared.placements[id].kind;
      return !fixed.has(kind) || fixed.get(kind) === id;
    });
    return { columns: matrix.columns, secondary: matrix.secondary, rows, weight: part.weight, mask: part.mask };
  });
}

/**
 * A DLX solver's answer over the part matrices: the total weights each solution by its orbit.
 * Distinct is the plain count only when no part needs the leaf symmetry check (mask 0);
 * otherwise DLX cannot tell it and only the total is checked.
 */
async function dlxCount(matrices, countSolutions) {
  let total = 0n;
  let plain = 0n;
  for (const m of matrices) {
    const solutions = BigInt(await countSolutions(m));
    total += BigInt(m.weight) * solutions;
    plain += solutions;
  }
  return matrices.every((m) => m.mask === 0) ? { total, distinct: plain } : { total };
}

/** Column numbers of each row for `dancing-links` (computed once, outside the timing). */
function sparseRows(m) {
  const primary = new Map(m.columns.map((name, i) => [name, i]));
  const secondary = new Map(m.secondary.map((name, i) => [name, i]));
  return m.rows.map((row) => ({
    primary: row.filter((name) => primary.has(name)).map((name) => primary.get(name)),
    secondary: row.filter((name) => secondary.has(name)).map((name) => secondary.get(name)),
  }));
}

/** All solutions by `dancing-links` through its fastest API (sparse constraints, findAll). */
function dancingLinksCount({ columns, secondary, sparse }) {
  const dlx = new DancingLinks();
  if (secondary.length === 0) {
    const solver = dlx.createSolver({ columns: columns.length });
    solver.addSparseConstraints(sparse.map((row, i) => ({ data: i, columnIndices: row.primary })));
    return solver.findAll().length;
  }
  const solver = dlx.createSolver({ primaryColumns: columns.length, secondaryColumns: secondary.length });
  solver.addSparseConstraints(sparse.map((row, i) => ({ data: i, columnIndices: row })));
  return solver.findAll().length;
}

// The Wasm DLX engine is written on another branch. Once dist/ exports `cover` with
// `cover.count({ columns, secondary, rows }, { threads })` → { total }, it joins the table
// here on the same part matrices as dancing-links (adjust the call if its API differs).
const wasmDlx = library.cover?.count ? library.cover : null;

// Threads the library really used, per workload.
const usedThreads = new Map();

const libraryCount = async (workload, options) => {
  const r = await polyomino.count(workload.problem, { ...options, shard: workload.shard ?? undefined });
  return { total: r.total, distinct: r.distinct, nodes: r.stats.nodes, threads: r.stats.threads };
};

// `sameSearch`: the contender runs the engine's search on one thread, so its node count must
// be the Wasm engine's.
const CONTENDERS = [
  { key: 'wasm1', name: 'Wasm, 1 thread', sameSearch: true, count: (w) => libraryCount(w, { threads: 1 }) },
  {
    key: 'wasmAll',
    name: `Wasm, ${threads} threads`,
    async count(w) {
      const r = await libraryCount(w, { threads });
      usedThreads.set(w.id, r.threads);
      // Split deeper for the threads: the nodes above the cut are not counted, so they differ.
      return { total: r.total, distinct: r.distinct };
    },
  },
  { key: 'twin', name: 'TS twin, 1 thread', sameSearch: true, count: (w) => libraryCount(w, { threads: 1, engine: 'js' }) },
  ...(wasmDlx
    ? [{
      key: 'wasmDlx',
      name: 'Wasm DLX, 1 thread',
      // Only the matrix's own keys: the exact-cover API rejects any other.
      count: (w) => dlxCount(w.matrices, async (m) => (await wasmDlx.count({ columns: m.columns, secondary: m.secondary, rows: m.rows }, { threads: 1 })).total),
    }]
    : []),
  { key: 'dancingLinks', name: 'dancing-links', count: (w) => dlxCount(w.matrices, dancingLinksCount) },
];

/** Checks an answer against the published figures, or else against the run's first answer. */
function check(workload, name, answer) {
  const expected = workload.expected ?? (workload.expected = { total: answer.total, distinct: answer.distinct, by: name });
  const against = expected.by ? `${expected.by}'s` : 'the published';
  if (answer.total !== expected.total) fail(`${name} counted ${answer.total} for ${workload.title}, ${against} total is ${expected.total}`);
  if (answer.distinct !== undefined && answer.distinct !== expected.distinct) {
    fail(`${name} counted ${answer.distinct} distinct for ${workload.title}, ${against} figure is ${expected.distinct}`);
  }
  if (answer.nodes !== undefined) {
    workload.nodes ??= answer.nodes;
    if (answer.nodes !== workload.nodes) fail(`${name} made ${answer.nodes} placements for ${workload.title}, the Wasm engine ${workload.nodes}`);
  }
}

function progress(workload, name, ms, runs) {
  console.error(`${workload.id.padEnd(14)}  ${name.padEnd(20)} ${time(ms).padStart(9)}  (${runs} run${runs === 1 ? '' : 's'})`);
}

/** Mean milliseconds of each contender (keyed), C last. */
async function benchWorkload(workload) {
  const suite = CONTENDERS.map(({ name, count }) => ({ name, run: async () => check(workload, name, await count(workload)) }));
  const means = await timeSuite(workload.title, suite, (name, ms, calls) => progress(workload, name, ms, calls));
  const ms = Object.fromEntries(CONTENDERS.map((c, i) => [c.key, means[i]]));
  if (native) {
    const { ms: c, runs } = timeNative(() => {
      const result = native.run(polyomino.prepare(workload.problem).input, workload.parts);
      check(workload, 'C', result);
      return result;
    });
    progress(workload, 'C', c, runs);
    ms.c = c;
  }
  return ms;
}

const native = buildNativePolyomino();
if (native) process.on('exit', native.dispose);
else console.error('bench: gcc not found, so no native C column');

for (const w of workloads) {
  w.parts = await partsOf(w);
  w.matrices = partMatrices(w, w.parts).map((m) => ({ ...m, sparse: sparseRows(m) }));
}

// Warm-up, so JIT tiers, the Wasm compile, the worker pool and first loads stay out of the
// first samples: every contender once on the smallest workload (its answer checked too).
const warmUp = { ...WORKLOADS.find((w) => w.id === '8x8-centre'), shard: null };
warmUp.parts = await partsOf(warmUp);
warmUp.matrices = partMatrices(warmUp, warmUp.parts).map((m) => ({ ...m, sparse: sparseRows(m) }));
for (const { name, count } of CONTENDERS) check(warmUp, name, await count(warmUp));

const results = [];
for (const w of workloads) results.push({ workload: w, ms: await benchWorkload(w) });

// dancing-links with no symmetry restriction on the whole 6×10 matrix (all 9,356 solutions),
// the comparison the issue names: one timed call.
let wholeMatrix = null;
const sixByTen = workloads.find((w) => w.id === '6x10');
if (sixByTen) {
  const matrix = { ...polyomino.toExactCover(sixByTen.problem), weight: 1, mask: 0 };
  matrix.sparse = sparseRows(matrix);
  const started = performance.now();
  const answer = { total: BigInt(dancingLinksCount(matrix)) };
  wholeMatrix = performance.now() - started;
  check(sixByTen, 'dancing-links, whole matrix', answer);
  progress(sixByTen, 'dancing-links, whole', wholeMatrix, 1);
}

const figure = (n) => n.toLocaleString('en-US');
const names = Object.fromEntries(CONTENDERS.map((c) => [c.key, c.name]));
const orNa = (a, b) => (a === undefined || b === undefined ? 'n/a' : ratio(a, b));
const header = ['workload', 'solutions (distinct)', ...CONTENDERS.map((c) => c.name), 'C, 1 thread', 'Wasm 1T vs TS twin',
  ...(wasmDlx ? ['Wasm 1T vs Wasm DLX'] : []), 'Wasm 1T vs dancing-links', 'Wasm 1T vs C', `Wasm ${threads}T vs 1T`];
const rows = results.map(({ workload: w, ms }) => {
  const used = usedThreads.get(w.id);
  return [
    w.title,
    `${figure(w.expected.total)} (${figure(w.expected.distinct)})`,
    ...CONTENDERS.map((c) => time(ms[c.key]) + (c.key === 'wasmAll' && used < threads ? ` (${used}T)*` : '')),
    ms.c === undefined ? 'n/a' : time(ms.c),
    ratio(ms.twin, ms.wasm1),
    ...(wasmDlx ? [ratio(ms.wasmDlx, ms.wasm1)] : []),
    ratio(ms.dancingLinks, ms.wasm1),
    orNa(ms.c, ms.wasm1),
    ratio(ms.wasm1, ms.wasmAll),
  ];
});
const perNode = results.map(({ workload: w, ms }) => {
  const ns = (key) => (ms[key] === undefined ? 'n/a' : ((ms[key] * 1e6) / Number(w.nodes)).toFixed(1));
  return [w.title, figure(w.nodes), ns('wasm1'), ns('twin'), ns('c')];
});

const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
console.log(`Polyomino tiling counts, mean time per count. ${cpu}, ${os.cpus().length} cores, Node ${process.version}${
  native ? ', C by gcc -O3 -march=native' : ''}.\n`);
console.log(markdown([header, ...rows]));
const dlxNames = wasmDlx ? `${names.dancingLinks} and ${names.wasmDlx} get` : `${names.dancingLinks} gets`;
console.log(`
Ratios above 1 mean the first named is faster. Every contender counts the same parts: the X
pentomino fixed at one placement per orbit of the problem's symmetries, each solution found
weighted by the orbit's size. ${dlxNames} the same restriction as one exact-cover
matrix per part (X keeps only the row of that part's placement; building the solver is timed
too); its distinct count is checked only where no part needs the leaf symmetry check. The
library's times are whole count() calls; the C time is what the program reports for building
its tables and searching (no process start-up, no file reading). A shard is the library's own
deterministic cut; its count() calls include making that cut (about 0.1 s), which the C and DLX
runs are given ready-made.`);
if (wholeMatrix !== null) {
  console.log(`\n${names.dancingLinks} on the whole 6×10 matrix, no restriction (all 9,356 solutions): ${time(wholeMatrix)}, ${
    ratio(wholeMatrix, results.find((r) => r.workload === sixByTen).ms.wasm1)} the time of Wasm 1T above.`);
}
if ([...usedThreads.values()].some((t) => t < threads)) console.log('\n\\* The library ran this search on fewer threads.');
console.log('\nPlacements (nodes) of the engine\'s search and nanoseconds per placement:\n');
console.log(markdown([['workload', 'nodes', 'Wasm 1T', 'TS twin', 'C'], ...perNode]));
