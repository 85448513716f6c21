// Peg solitaire benchmark: the Wasm engine against its pure-TS twin and the C counter of
// bench/native/pegs.c, as ratios from one run. Short workloads are timed by benchmark.js; the
// long ones (the English central count on one thread and on all threads, the twin's, the count
// from d4 to the edge hole d1 on one thread and on all, the 18-move proof and the count of every 18-move solution) run
// once each in a child process, with its peak resident set. `--quick` skips the twin's English
// count. Every start x finish on the English board: bench/pegs-table.js; the fewest moves on the
// other boards (French, triangles, with time limits): bench/pegs-fewest.js.
import { pegs } from '../dist/index.js';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { benchArgs, fail, timeSuite } from './common.js';
import { buildNativePegs } from './native.js';

// --child JSON: one workload, run by this script in a child process (see once() below).
const { values } = benchArgs(import.meta.url, { quick: { type: 'boolean', default: false }, child: { type: 'string' } });
const quick = values.quick;
if (values.child !== undefined) {
  // One workload, timed, with this process's peak resident set.
  const { kind, problem, options } = JSON.parse(values.child);
  const started = performance.now();
  const result = await pegs[kind](problem, options);
  const ms = performance.now() - started;
  const json = JSON.stringify({ ms, result, rss: process.resourceUsage().maxRSS * 1024 }, (_, v) => (typeof v === 'bigint' ? String(v) : v));
  console.log(json);
  process.exit(0);
}
const check = (ok, what) => {
  if (!ok) fail(`wrong answer: ${what}`);
};
const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);
const mib = (bytes) => `${Math.round(bytes / 2 ** 20)} MiB`;

const suites = [
  {
    title: 'English central game, first solution',
    run: (engine) => async () => check((await pegs.solve({ board: 'english' }, { engine })).jumps.length === 31, 'solve'),
  },
  {
    title: 'triangle 6 (top empty), count every solution',
    run: (engine) => async () => check((await pegs.count({ board: 'triangle6', finish: 'any' }, { engine })).total === 43419942138n, 'count'),
  },
];

console.log('| workload | Wasm, 1 thread | TS twin | Wasm vs TS twin |');
console.log('|---|---:|---:|---:|');
for (const s of suites) {
  const [wasm, js] = await timeSuite(s.title, [
    { name: 'wasm', run: s.run('wasm') },
    { name: 'js', run: s.run('js') },
  ], (name, ms) => console.error(`${s.title}: ${name} ${fmt(ms)}`));
  console.log(`| ${s.title} | ${fmt(wasm)} | ${fmt(js)} | ${(js / wasm).toFixed(2)}× |`);
}

/**
 * One long workload in a child process (this script with --child), so that its peak resident
 * set is its own: { ms, result, rss }.
 */
function once(what, kind, problem, options = {}) {
  console.error(`${what}…`);
  const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', JSON.stringify({ kind, problem, options })], { encoding: 'utf8' });
  const { ms, result, rss } = JSON.parse(out);
  for (const key of ['total', 'distinct']) if (typeof result[key] === 'string') result[key] = BigInt(result[key]);
  return { ms, result, rss };
}

const english = 40861647040079968n;
const edge = 10215411760019992n; // d4 to d1: checked by the twin (forward only) and the C counter
const all = os.availableParallelism();
const wasmCount = once('English count, wasm, 1 thread', 'count', { board: 'english' }, { threads: 1 });
check(wasmCount.result.total === english, 'english count');
const threadCount = once(`English count, wasm, ${all} threads`, 'count', { board: 'english' }, { threads: all });
check(threadCount.result.total === english, 'english count on threads');
const row = (name, r, base) => `| ${name} | ${fmt(r.ms)} | ${mib(r.rss)} | ${mib(r.result.memory)} | ${(base.ms / r.ms).toFixed(2)}× |`;
console.log(`\n| English central game, count all ${english.toLocaleString('en')} | time | peak RSS | engine memory | speed vs Wasm on 1 thread |`);
console.log('|---|---:|---:|---:|---:|');
console.log(row('Wasm, 1 thread (from both ends, one engine)', wasmCount, wasmCount));
console.log(row(`Wasm, ${all} threads (one table a level in a shared memory)`, threadCount, wasmCount));
if (quick) console.log('| TS twin (1 thread) | (skipped) | | | |');
else {
  const jsCount = once('English count, TS twin', 'count', { board: 'english' }, { engine: 'js' });
  check(jsCount.result.total === english, 'english count js');
  console.log(row('TS twin (1 thread, forward to the middle)', jsCount, wasmCount));
}
const native = buildNativePegs();
const nativeRow = (start, finish, expected, base) => {
  console.error(`${start} to ${finish} count, C…`);
  const c = native.run(start, finish);
  check(c.total === expected, `${start} to ${finish} count in C`);
  return `| C yardstick (bench/native/pegs.c, 1 thread, level by level) | ${fmt(c.ms)} | ${mib(c.peakBytes)} | | ${(base.ms / c.ms).toFixed(2)}× |`;
};
console.log(native ? nativeRow('d4', 'd4', english, wasmCount) : '| C yardstick | (no gcc) | | | |');
const hard = once('English d4 to d1 count, wasm, 1 thread', 'count', { board: 'english', finish: 'd1' });
check(hard.result.total === edge, 'english d4 to d1 count');
console.log(`\n| English, centre to the edge hole d1, count all ${edge.toLocaleString('en')} | time | peak RSS | engine memory | speed vs Wasm |`);
console.log('|---|---:|---:|---:|---:|');
console.log(row('Wasm, 1 thread (from both ends, one engine)', hard, hard));
const hardThreads = once(`English d4 to d1 count, wasm, ${all} threads`, 'count', { board: 'english', finish: 'd1' }, { threads: all });
check(hardThreads.result.total === edge, 'english d4 to d1 count on threads');
console.log(row(`Wasm, ${all} threads (one table a level in a shared memory)`, hardThreads, hard));
console.log(native ? nativeRow('d4', 'd1', edge, hard) : '| C yardstick | (no gcc) | | | |');
native?.dispose();
console.log('\n| English central game | time | peak RSS | engine memory |');
console.log('|---|---:|---:|---:|');
const moves = once('English fewest moves, wasm', 'minMoves', { board: 'english' });
check(moves.result.length === 18, 'english 18 moves');
console.log(`| prove the 18-move minimum, Wasm | ${fmt(moves.ms)} | ${mib(moves.rss)} | ${mib(moves.result.memory)} |`);
const optimal = once('English every 18-move solution, wasm', 'countOptimal', { board: 'english' });
check(optimal.result.length === 18 && optimal.result.distinct * 8n === optimal.result.total, 'english optimal count');
console.log(`| count every 18-move solution (${optimal.result.total}), Wasm | ${fmt(optimal.ms)} | ${mib(optimal.rss)} | ${mib(optimal.result.memory)} |`);

// French board: the single-vacancy starts whose position class allows one peg at the end
// (their fewest moves: bench/pegs-fewest.js).
const open = pegs.builtinBoard('french').holes.filter((hole) => {
  try {
    pegs.toProblem({ board: 'french', start: hole.name, finish: 'any' });
    return true;
  } catch {
    return false;
  }
});
console.log(`\nFrench board, single-vacancy starts that can end with one peg (position class): ${open.map((h) => h.name).join(' ')}`);
