// npm run bench:sudoku [-- --sets 17-clue,top1465 --passes 3]: 9×9 Sudoku, every puzzle of the
// public sets solved and proved unique (each search stops at two solutions), one thread:
//   Wasm (the API's sudoku.batch, host included), Wasm through `bitpuzzle sudoku --batch` (the
//   marginal time a puzzle: the whole process on the set, repeated to 20,000 puzzles or more,
//   minus the process on one puzzle),
//   its pure-TS twin, the C yardstick of the same method (bench/native/sudoku.c, the same
//   node counts), sudoku-dlx (npm, dancing links in plain JS, asked for every solution) and
//   the exact-cover path (cover.count on the 729-row matrix, as sudoku.count ran before the
//   dedicated engine); tdoku's figure from the project's known results (measured on this
//   machine kind, not run here). Also one sudoku.solve() call on a 17-clue puzzle.
// Every contender's answers are checked (each puzzle unique). µs a puzzle, best of --passes
// passes after a warm-up; the slow contenders run the first --sample puzzles of a set.
// Prints markdown tables; progress goes to stderr. Run `npm run build` first.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { benchArgs, fail, markdown } from './common.js';
import { buildNativeSudoku } from './native.js';

// tdoku (C++, SIMD, -O3 -march=native), µs a puzzle on this machine kind: known-results.md.
const TDOKU = { '17-clue': 3.1, top1465: 9.3, 'forum-hardest-1106': 81.8, top95: 9.9 };
// The first 3,000 of the 17-clue set, as in known-results; the others whole.
const SETS = { '17-clue': 3000, top1465: Infinity, 'forum-hardest-1106': Infinity, top95: Infinity };

const { values } = benchArgs(import.meta.url, {
  sets: { type: 'string', default: Object.keys(SETS).join(',') },
  passes: { type: 'string', default: '3' },
  sample: { type: 'string', default: '3000' },
  'all-17': { type: 'boolean', default: false },
});
const sets = values.sets.split(',');
for (const set of sets) if (!(set in SETS)) fail(`unknown set ${set}: the sets are ${Object.keys(SETS).join(', ')}`);
const passes = Number(values.passes);
const sample = Number(values.sample);
if (!(passes >= 1 && sample >= 1)) fail('--passes and --sample take positive integers');
if (values['all-17']) SETS['17-clue'] = Infinity;
if (!existsSync(new URL('../dist/index.js', import.meta.url))) fail('dist/ is missing: run `npm run build` first');
const { sudoku, cover } = await import('../dist/index.js');
const { parseGrid } = await import('../dist/sudoku/grid.js');
const { coverOf } = await import('../dist/sudoku/cover.js');
const { solveString } = await import('sudoku-dlx');

const bin = fileURLToPath(new URL('../bin/bitpuzzle', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'bitpuzzle-sudoku-bench-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const native = buildNativeSudoku();
if (!native) console.error('bench: no gcc: the C column is left empty');

function puzzlesOf(set, count) {
  // The large set is kept gzip-compressed (SET.txt.gz), the others as text.
  const gz = new URL(`../test/data/sudoku/${set}.txt.gz`, import.meta.url);
  const text = existsSync(gz) ? gunzipSync(readFileSync(gz)).toString('utf8') : readFileSync(new URL(`../test/data/sudoku/${set}.txt`, import.meta.url), 'utf8');
  return text.split('\n').filter((line) => /^[0-9.]{81}/.test(line)).slice(0, count).map((line) => line.slice(0, 81));
}

/** Best µs a puzzle over `passes` passes after one warm-up; `run(puzzles)` checks its answers. */
async function best(puzzles, run, times = passes) {
  await run(puzzles);
  let ms = Infinity;
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await run(puzzles);
    ms = Math.min(ms, performance.now() - started);
  }
  return (ms * 1000) / puzzles.length;
}

const expectUnique = (what, answers) => {
  const bad = answers.findIndex((n) => n !== 1);
  if (bad >= 0) fail(`${what}: puzzle ${bad + 1} answered ${answers[bad]} solutions, expected 1`);
};

async function batchRun(puzzles, engine) {
  const result = await sudoku.batch(puzzles, { threads: 1, engine });
  expectUnique(`sudoku.batch (${engine})`, result.results.map((r) => r.count));
  return result;
}

/** Wall ms of `bitpuzzle sudoku --batch FILE --threads 1`, best of the passes, its answers checked. */
function cliMs(file, puzzles) {
  let ms = Infinity;
  for (let i = 0; i <= passes; i++) {
    const started = performance.now();
    const out = execFileSync(process.execPath, [bin, 'sudoku', '--batch', file, '--threads', '1'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    if (i > 0) ms = Math.min(ms, performance.now() - started);
    if (!out.includes(`# ${puzzles} puzzles: ${puzzles} unique,`)) fail(`bitpuzzle sudoku --batch ${file}: ${out.slice(-200)}`);
  }
  return ms;
}

const rows = [];
const oneFile = join(dir, 'one.txt');
for (const set of sets) {
  const puzzles = puzzlesOf(set, SETS[set]);
  const slow = puzzles.slice(0, sample);
  const n = puzzles.length;
  const file = join(dir, `${set}.txt`);
  writeFileSync(file, puzzles.join('\n') + '\n');
  writeFileSync(oneFile, puzzles[0] + '\n');
  // The command's marginal time a puzzle: the set repeated to at least 20,000 puzzles, so that
  // the process's start (about 0.1 s) and its noise are spread thin.
  const copies = Math.ceil(20000 / n);
  const cliFile = join(dir, `${set}-x${copies}.txt`);
  writeFileSync(cliFile, Array.from({ length: copies }, () => puzzles.join('\n')).join('\n') + '\n');
  console.error(`${set}: ${n} puzzles`);
  const nodes = Number((await batchRun(puzzles, 'wasm')).stats.nodes);
  const wasm = await best(puzzles, (p) => batchRun(p, 'wasm'));
  console.error(`  Wasm ${wasm.toFixed(2)} µs`);
  const cli = ((cliMs(cliFile, n * copies) - cliMs(oneFile, 1)) * 1000) / (n * copies - 1);
  console.error(`  --batch ${cli.toFixed(2)} µs`);
  const twin = await best(puzzles, (p) => batchRun(p, 'js'));
  console.error(`  TS twin ${twin.toFixed(2)} µs`);
  let c = null;
  if (native) {
    c = Infinity;
    for (let i = 0; i <= passes; i++) {
      const r = native.run(file);
      if (r.unique !== n || r.nodes !== BigInt(nodes)) fail(`the C yardstick answered ${r.unique} unique with ${r.nodes} nodes, the engine ${n} with ${nodes}`);
      if (i > 0) c = Math.min(c, (r.ms * 1000) / n);
    }
    console.error(`  C ${c.toFixed(2)} µs`);
  }
  const dlx = await best(slow, (p) => expectUnique('sudoku-dlx', p.map((q) => solveString(q, true).length)), 1);
  console.error(`  sudoku-dlx ${dlx.toFixed(2)} µs (${slow.length} puzzles)`);
  const exact = await best(slow, async (p) => {
    const totals = [];
    for (const q of p) totals.push(Number((await cover.count(coverOf(parseGrid(q)), { threads: 1 })).total));
    expectUnique('exact cover', totals);
  }, 1);
  console.error(`  exact cover ${exact.toFixed(2)} µs (${slow.length} puzzles)`);
  rows.push({ set, n, slowN: slow.length, nodes: nodes / n, wasm, cli, twin, c, dlx, exact, tdoku: TDOKU[set] });
}

// One sudoku.solve() call, host included: a 17-clue puzzle after another.
const calls = puzzlesOf('17-clue', 3000);
const solveUs = await best(calls, async (p) => {
  for (const q of p) if (!(await sudoku.solve(q))) fail('sudoku.solve found no solution');
});
native?.dispose();

const us = (x) => (x === null ? 'n/a' : x < 100 ? x.toFixed(2) : x.toFixed(0));
const x = (a, b) => (a === null || b === null ? 'n/a' : `${(a / b).toFixed(2)}×`);
console.log(`Sudoku 9×9, one thread, µs a puzzle (each proved unique), best of ${passes} passes, ${new Date().toISOString().slice(0, 10)}:\n`);
console.log(
  markdown([
    ['set', 'puzzles', 'nodes a puzzle', 'Wasm (API)', 'Wasm (--batch)', 'TS twin', 'C, same method', 'sudoku-dlx', 'exact cover', 'tdoku (known)'],
    ...rows.map((r) => [r.set, String(r.n), r.nodes.toFixed(1), us(r.wasm), us(r.cli), us(r.twin), us(r.c), us(r.dlx), us(r.exact), us(r.tdoku)]),
  ]),
);
console.log('\nRatios (of the times above):\n');
console.log(
  markdown([
    ['set', 'TS twin / Wasm', 'Wasm / C', 'sudoku-dlx / Wasm', 'exact cover / Wasm', 'Wasm / tdoku', '--batch / tdoku'],
    ...rows.map((r) => [r.set, x(r.twin, r.wasm), x(r.wasm, r.c), x(r.dlx, r.wasm), x(r.exact, r.wasm), x(r.wasm, r.tdoku), x(r.cli, r.tdoku)]),
  ]),
);
console.log(`\nsudoku-dlx and exact cover ran the first ${sample} puzzles of each set (all of the smaller sets).`);
console.log(`One sudoku.solve() call on a 17-clue puzzle (the first 3,000 in turn): ${solveUs.toFixed(2)} µs.`);
