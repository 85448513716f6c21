// Peg solitaire benchmark: the Wasm engine against its pure-TS twin, as ratios from one run.
// Short workloads are timed by benchmark.js; the English count (Wasm on one thread, Wasm on all
// threads, the twin) and the fewest-moves proof run once
// (`--quick` skips the TS twin's English count and the count from d4 to d1; `--french` adds the
// fewest moves on the French board from d3, which take minutes). The C counter in
// bench/native/pegs.c is the yardstick for the English count.
import { pegs } from '../dist/index.js';
import os from 'node:os';
import { fail, timeSuite } from './common.js';
import { buildNativePegs } from './native.js';

const quick = process.argv.includes('--quick');
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

/** One timed call: milliseconds and the engine memory it reported. */
async function once(what, run) {
  console.error(`${what}…`);
  const started = performance.now();
  const result = await run();
  return { ms: performance.now() - started, result };
}

const english = 40861647040079968n;
const all = os.availableParallelism();
const wasmCount = await once('English count, wasm, 1 thread', () => pegs.count({ board: 'english' }, { threads: 1 }));
check(wasmCount.result.total === english, 'english count');
const threadCount = await once(`English count, wasm, ${all} threads`, () => pegs.count({ board: 'english' }, { threads: all }));
check(threadCount.result.total === english, 'english count on threads');
check(threadCount.result.levels.join() === wasmCount.result.levels.join(), 'english levels on threads');
console.log(`\n| English central game, count all ${english.toLocaleString('en')} | time | peak memory | vs Wasm on 1 thread |`);
console.log('|---|---:|---:|---:|');
console.log(`| Wasm, 1 thread | ${fmt(wasmCount.ms)} | ${mib(wasmCount.result.memory)} | 1.00× |`);
console.log(`| Wasm, all threads (${all}) | ${fmt(threadCount.ms)} | ${mib(threadCount.result.memory)} | ${(wasmCount.ms / threadCount.ms).toFixed(2)}× |`);
if (quick) console.log('| TS twin (1 thread) | (skipped) | | |');
else {
  const jsCount = await once('English count, TS twin', () => pegs.count({ board: 'english' }, { engine: 'js' }));
  check(jsCount.result.total === english, 'english count js');
  console.log(`| TS twin (1 thread) | ${fmt(jsCount.ms)} | ${mib(jsCount.result.memory)} | ${(wasmCount.ms / jsCount.ms).toFixed(2)}× |`);
}
const native = buildNativePegs();
if (native) {
  console.error('English count, C…');
  const c = native.run();
  native.dispose();
  check(c.total === english, 'english count in C');
  console.log(`| C yardstick (bench/native/pegs.c, 1 thread) | ${fmt(c.ms)} | ${mib(c.peakBytes)} (process) | ${(wasmCount.ms / c.ms).toFixed(2)}× |`);
} else console.log('| C yardstick | (no gcc) | | |');
console.log('\n| workload | Wasm, 1 thread | TS twin | Wasm vs TS twin |');
console.log('|---|---:|---:|---:|');
const moves = await once('English fewest moves, wasm', () => pegs.minMoves({ board: 'english' }));
check(moves.result.length === 18, 'english 18 moves');
console.log(`| English central game, prove the 18-move minimum | ${fmt(moves.ms)}, ${mib(moves.result.memory)} | (Wasm only) | |`);
const optimal = await once('English every 18-move solution, wasm', () => pegs.countOptimal({ board: 'english' }));
check(optimal.result.length === 18 && optimal.result.distinct * 8n === optimal.result.total, 'english optimal count');
console.log(`| English central game, count every 18-move solution (${optimal.result.total}) | ${fmt(optimal.ms)}, ${mib(optimal.result.memory)} | (Wasm only) | |`);
if (!quick) {
  const edge = await once('English d4 to d1 count, wasm, 1 thread', () => pegs.count({ board: 'english', finish: 'd1' }, { threads: 1 }));
  console.log(`| English, centre to the edge hole d1, count all (${edge.result.total}) | ${fmt(edge.ms)}, ${mib(edge.result.memory)} | (Wasm only) | |`);
}

// French board: the single-vacancy starts whose position class allows one peg at the end,
// and the fewest moves from a hole next to the centre.
const open = pegs.builtinBoard('french').holes.filter((hole) => {
  try {
    pegs.toProblem({ board: 'french', start: hole.name, finish: 'any' });
    return true;
  } catch {
    return false;
  }
});
console.log(`\nFrench board, single-vacancy starts that can end with one peg (position class): ${open.map((h) => h.name).join(' ')}`);
// The holes next to the centre are one class up to symmetry: d3 empty, to each finish its
// class allows (minutes: only with --french).
const finishes = pegs.toProblem({ board: 'french', start: 'd3', finish: 'any' }).finishes;
const names = finishes.map((f) => pegs.builtinBoard('french').holes[f.toString(2).length - 1].name);
for (const finish of process.argv.includes('--french') ? names : []) {
  try {
    const best = await once(`French d3 to ${finish}, fewest moves`, () =>
      pegs.minMoves({ board: 'french', start: 'd3', finish }, { signal: AbortSignal.timeout(180_000) }),
    );
    const m = best.result;
    console.log(`French board, d3 empty to one peg in ${finish}: ${m.length} moves (${fmt(best.ms)}, ${mib(m.memory)}): ${m.moves.join(' ')}`);
  } catch (error) {
    console.log(`French board, d3 empty to one peg in ${finish}: ${error.code}: ${error.message}`);
  }
}
