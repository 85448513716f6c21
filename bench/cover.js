// node bench/cover.js: exact cover (dancing links), the Wasm engine against its pure-TS twin on
// one thread: hard 9×9 Sudoku (a full search, which proves the solution unique), every 4×4
// grid, the first fill of an empty 16×16 grid and N-Queens as exact cover with secondary
// diagonals. Prints a markdown table; progress goes to stderr. Run `npm run build` first.
import { existsSync } from 'node:fs';
import os from 'node:os';
import Benchmark from 'benchmark';
import { benchArgs, fail } from './common.js';

benchArgs(import.meta.url, {});
if (!existsSync(new URL('../dist/index.js', import.meta.url))) fail('dist/ is missing: run `npm run build` first');
const { cover } = await import('../dist/index.js');
// Sudoku as exact cover: the 729-row matrix the sudoku family builds for box sizes other
// than 3 (9×9 grids have their own engine now, timed by bench/sudoku.js).
const { parseGrid } = await import('../dist/sudoku/grid.js');
const { coverOf } = await import('../dist/sudoku/cover.js');
const asCover = (grid) => coverOf(parseGrid(grid));

// Famous hard puzzles, each with one solution; the bench checks that count.
const PUZZLES = {
  '17-clue': '.......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6...',
  'AI Escargot': '1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..',
  'Inkala 2012': '8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..',
  'Easter Monster': '1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1',
};

/** N-Queens as exact cover: ranks and files primary, diagonals secondary. */
function queensCover(n) {
  const rows = [];
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) rows.push([r, n + c, 2 * n + r + c, 4 * n - 1 + r - c + n - 1]);
  return { columns: 2 * n, secondary: 4 * n - 2, rows };
}

const WORKLOADS = [
  ...Object.entries(PUZZLES).map(([name, grid]) => ({ name: `${name}, count`, expect: 1n, run: (engine) => cover.count(asCover(grid), { engine, threads: 1 }) })),
  { name: 'every 4×4 grid, count', expect: 288n, run: (engine) => cover.count(asCover('.'.repeat(16)), { engine, threads: 1 }) },
  { name: 'empty 16×16, first fill', expect: 1n, run: (engine) => cover.solve(asCover('.'.repeat(256)), { engine }).then((s) => ({ total: s ? 1n : 0n })) },
  { name: 'N-Queens 12 as cover, count', expect: 14200n, run: (engine) => cover.count(queensCover(12), { engine, threads: 1 }) },
];
const ENGINES = [['Wasm', 'wasm'], ['TS twin', 'js']];
const OPTIONS = { defer: true, minSamples: 5, maxTime: 1, minTime: 0, delay: 0 };

/** Mean milliseconds per call for each engine on one workload. */
function bench(workload) {
  const suite = new Benchmark.Suite(workload.name);
  for (const [label, engine] of ENGINES) {
    suite.add(label, (deferred) => {
      workload.run(engine).then(({ total: answer }) => {
        if (answer !== workload.expect) fail(`${label} answered ${answer} for ${workload.name}, expected ${workload.expect}`);
        deferred.resolve();
      }, (error) => fail(`${label} failed on ${workload.name}: ${error.stack ?? error}`));
    }, OPTIONS);
  }
  return new Promise((resolve) => {
    suite
      .on('cycle', ({ target: b }) => console.error(`${workload.name.padEnd(30)} ${b.name.padEnd(8)} ${(b.stats.mean * 1e3).toFixed(2)} ms`))
      .on('complete', () => resolve(suite.map((b) => b.stats.mean * 1e3)))
      .run({ async: true });
  });
}

// Warm-up, so JIT tiers and the Wasm compile stay out of the samples; the counts' node totals.
const nodes = new Map();
for (const workload of WORKLOADS) for (const [, engine] of ENGINES) nodes.set(workload, (await workload.run(engine)).stats?.nodes);

const rows = [];
for (const workload of WORKLOADS) {
  const [wasm, twin] = await bench(workload);
  rows.push([workload.name, String(nodes.get(workload) ?? 'n/a'), `${wasm.toFixed(2)} ms`, `${twin.toFixed(2)} ms`, `${(twin / wasm).toFixed(2)}×`]);
}

const HEADER = ['workload', 'nodes', 'Wasm', 'TS twin', 'Wasm vs twin'];
const widths = HEADER.map((_, i) => Math.max(...[HEADER, ...rows].map((r) => r[i].length)));
const line = (r) => `| ${r.map((cell, i) => (i ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join(' | ')} |`;
console.log(`Exact cover (dancing links), mean time per call on one thread. ${os.cpus()[0]?.model.trim()}, Node ${process.version}.\n`);
console.log(line(HEADER));
console.log(`|${widths.map((w, i) => (i ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`);
for (const r of rows) console.log(line(r));
console.log('\nRatios above 1 mean the Wasm engine is faster. Both run the same search (equal node counts);' +
  ' times include building the matrix and loading the links (most of the 17-clue time).');
