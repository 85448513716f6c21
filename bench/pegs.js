// Peg solitaire benchmark: the Wasm engine against its pure-TS twin on the same workloads,
// as ratios from one run. `--english-count` also times the full English count once (minutes).
import { pegs } from '../dist/index.js';
import { fail, timeSuite } from './common.js';

const check = (ok, what) => {
  if (!ok) fail(`wrong answer: ${what}`);
};

const workloads = [
  {
    title: 'English central game, first solution',
    wasm: async () => check((await pegs.solve({ board: 'english' })).jumps.length === 31, 'english solve'),
    js: async () => check((await pegs.solve({ board: 'english' }, { engine: 'js' })).jumps.length === 31, 'english solve js'),
  },
  {
    title: 'triangle 6, top empty: count every solution',
    wasm: async () => check((await pegs.count({ board: 'triangle6', finish: 'any' })).total === 43419942138n, 'triangle6'),
    js: async () => check((await pegs.count({ board: 'triangle6', finish: 'any' }, { engine: 'js' })).total === 43419942138n, 'triangle6 js'),
  },
  {
    title: 'triangle 7, a2 empty: count every solution',
    wasm: async () => check((await pegs.count({ board: 'triangle7', start: 'a2', finish: 'any' })).total > 0n, 'triangle7'),
    js: async () => check((await pegs.count({ board: 'triangle7', start: 'a2', finish: 'any' }, { engine: 'js' })).total > 0n, 'triangle7 js'),
  },
];

const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);
console.log('| workload | Wasm, 1 thread | TS twin | Wasm vs TS twin |');
console.log('|---|---:|---:|---:|');
for (const w of workloads) {
  const [wasm, js] = await timeSuite(w.title, [
    { name: 'wasm', run: w.wasm },
    { name: 'js', run: w.js },
  ], (name, ms) => console.error(`${w.title}: ${name} ${fmt(ms)}`));
  console.log(`| ${w.title} | ${fmt(wasm)} | ${fmt(js)} | ${(js / wasm).toFixed(2)}× |`);
}

let started = performance.now();
const shortest = await pegs.minMoves({ board: 'triangle6', finish: 'any' });
console.log(`\ntriangle 6, fewest moves: ${shortest.moves} in ${fmt(performance.now() - started)}, ${(shortest.stats.memory / 2 ** 20).toFixed(0)} MiB`);

// French board: the single-vacancy starts whose position class allows one peg at the end.
const french = pegs.builtinBoard('french');
const open = french.holes.filter((hole) => {
  try {
    pegs.toProblem({ board: 'french', start: hole.name, finish: 'any' });
    return true;
  } catch {
    return false;
  }
});
console.log(`French board: single-vacancy starts in a class that can end with one peg: ${open.map((h) => h.name).join(' ')}`);

if (process.argv.includes('--english-count')) {
  started = performance.now();
  const counted = await pegs.count({ board: 'english' });
  check(counted.total === 40861647040079968n, 'english count');
  console.log(`English central game: ${counted.total} solutions in ${fmt(performance.now() - started)}, ${(counted.stats.memory / 2 ** 20).toFixed(0)} MiB of engine memory`);
}
