// npm run bench:queens [-- --min N --max N --runs R --twin-max N] [--two-threads N,...]
// N-Queens counting on one thread by both methods: by start constellations (the Wasm engine,
// its pure-TS twin, the same method in C: bench/native/queens.c constellations) and by joining
// half-boards (the Wasm engine, its twin, bench/native/queens-join.c), beside the plain C counter
// with the first-row mirror, as ratios from one run. Each figure is the CPU time of one count
// (the process's, for Node and C alike), the least of R runs taken in turn (A B C D A B C D …),
// so that a machine shared with other work shifts every column alike. The Wasm join also counts
// the symmetric start constellations for the distinct solutions, which the C join leaves out.
// NQueensFAF (Java, the fastest CPU counter by constellations we know of) is not run here:
// data/known-results measured it at 0.39× the time of that plain C counter per thread, so its
// column is that estimate. `--two-threads 18` also times the Wasm engine's default method on 2
// threads once (wall time, with the CPU time beside it).
import { existsSync } from 'node:fs';
import os from 'node:os';
import { benchArgs, fail, markdown, ratio, time } from './common.js';
import { buildNative, buildNativeConstellations, buildNativeQueensJoin } from './native.js';

// OEIS A000170 and A002562; every count of every contender is checked against them.
const KNOWN = {
  10: [724n, 92n], 11: [2680n, 341n], 12: [14200n, 1787n], 13: [73712n, 9233n], 14: [365596n, 45752n],
  15: [2279184n, 285053n], 16: [14772512n, 1846955n], 17: [95815104n, 11977939n],
  18: [666090624n, 83263591n], 19: [4968057848n, 621012754n], 20: [39029188884n, 4878666808n],
};
/** NQueensFAF's CPU solver per thread, as a fraction of the plain C counter's time (known-results.md). */
const FAF_VS_PLAIN_C = 0.39;

const { values } = benchArgs(import.meta.url, {
  min: { type: 'string', default: '13' },
  max: { type: 'string', default: '16' },
  runs: { type: 'string', default: '3' },
  'twin-max': { type: 'string', default: '16' },
  'two-threads': { type: 'string', default: '' },
});
const [min, max, runs, twinMax] = [Number(values.min), Number(values.max), Number(values.runs), Number(values['twin-max'])];
if (!(Number.isInteger(min) && Number.isInteger(max) && 10 <= min && min <= max && max <= 18)) {
  fail(`--min and --max must be integers with 10 ≤ min ≤ max ≤ 18, got ${values.min}..${values.max}`);
}
if (!(Number.isInteger(runs) && runs >= 1 && runs <= 20)) fail(`--runs must be an integer from 1 to 20, got ${values.runs}`);
if (!Number.isInteger(twinMax)) fail(`--twin-max must be an integer, got ${values['twin-max']}`);
const twoThreads = values['two-threads'] ? values['two-threads'].split(',').map(Number) : [];
if (twoThreads.some((n) => !KNOWN[n])) fail('--two-threads takes n from 10 to 20');
if (!existsSync(new URL('../dist/index.js', import.meta.url))) fail('dist/ is missing: run `npm run build` first');
const { queens } = await import('../dist/index.js');
const { constellations } = await import('../dist/queens/constellations.js');

function check(name, n, total, distinct) {
  if (total !== KNOWN[n][0] || (distinct !== undefined && distinct !== KNOWN[n][1])) {
    fail(`${name} counted ${total} (${distinct} distinct) for n = ${n}, expected ${KNOWN[n][0]} (${KNOWN[n][1]})`);
  }
}

const constellationsC = buildNativeConstellations();
const plainC = buildNative();
const joinC = buildNativeQueensJoin();
if (!constellationsC || !plainC || !joinC) fail('gcc not found: this benchmark compares with C');
process.on('exit', () => {
  constellationsC.dispose();
  plainC.dispose();
  joinC.dispose();
});

/** CPU milliseconds of the whole process while `run` counts (one thread: the calling thread). */
async function cpuOf(run) {
  const started = process.cpuUsage();
  await run();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1e3;
}

const nodeCount = (engine, method = 'constellations') => async (n) => {
  const r = await queens.count(n, { threads: 1, engine, method });
  check(`${engine === 'js' ? 'the TS twin' : 'Wasm'} (${method})`, n, r.total, r.distinct);
  return r.stats.nodes;
};
const CONTENDERS = [
  { name: 'Wasm', run: nodeCount('wasm') },
  { name: 'TS twin', run: nodeCount('js'), upTo: twinMax },
  { name: 'Wasm join', run: nodeCount('wasm', 'join') },
  { name: 'TS twin join', run: nodeCount('js', 'join'), upTo: twinMax },
  {
    name: 'C, same method',
    native: (n) => {
      const r = constellationsC.run(n);
      check('C constellations', n, r.total, r.distinct);
      return r;
    },
  },
  {
    name: 'C, join',
    native: (n) => {
      const r = joinC.run(n);
      check('C join', n, r.total);
      return { ...r, nodes: undefined };
    },
  },
  {
    name: 'C, plain mirror',
    native: (n) => {
      const r = plainC.run(n);
      check('C plain', n, r.total);
      return r;
    },
  },
];
// Warm-up: JIT tiers and the Wasm compile stay out of the samples.
await queens.count(12, { threads: 1 });
await queens.count(12, { threads: 1, engine: 'js' });

const rows = [];
for (let n = min; n <= max; n++) {
  await constellations(n); // the list of n's constellations, made once per process
  const best = CONTENDERS.map(() => Infinity);
  const nodes = {};
  for (let round = 0; round < runs; round++) {
    for (const [index, contender] of CONTENDERS.entries()) {
      if (contender.upTo !== undefined && n > contender.upTo) continue;
      let ms;
      if (contender.native) {
        const r = contender.native(n);
        ms = r.cpu;
        if (r.nodes !== undefined) nodes.c = r.nodes;
      } else {
        ms = await cpuOf(async () => (nodes[contender.name] = await contender.run(n)));
      }
      best[index] = Math.min(best[index], ms);
      console.error(`n = ${n}  ${contender.name.padEnd(16)} ${time(ms).padStart(9)} CPU  (run ${round + 1} of ${runs})`);
    }
  }
  if (nodes.Wasm !== nodes.c || (nodes['TS twin'] !== undefined && nodes['TS twin'] !== nodes.Wasm)) {
    fail(`n = ${n}: the node counts differ (Wasm ${nodes.Wasm}, twin ${nodes['TS twin']}, C ${nodes.c})`);
  }
  if (nodes['TS twin join'] !== undefined && nodes['TS twin join'] !== nodes['Wasm join']) {
    fail(`n = ${n}: the join's node counts differ (Wasm ${nodes['Wasm join']}, twin ${nodes['TS twin join']})`);
  }
  const [wasm, twin, wasmJoin, twinJoin, c, join, plain] = best;
  const faf = FAF_VS_PLAIN_C * plain;
  const twinCell = (value, f) => (Number.isFinite(value) ? f() : '–');
  rows.push([String(n), time(wasm), twinCell(twin, () => time(twin)), time(wasmJoin), twinCell(twinJoin, () => time(twinJoin)), time(c), time(join), time(plain), `≈ ${time(faf)}`,
    ratio(wasm, c), ratio(wasmJoin, join), ratio(wasmJoin, wasm), twinCell(twinJoin, () => ratio(twinJoin, wasmJoin)), twinCell(twin, () => ratio(twin, wasm)),
    ratio(wasm, plain), ratio(Math.min(wasm, wasmJoin), faf)]);
}

const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
console.log(`N-Queens counting on one thread, by start constellations and by joining half-boards, CPU time per count (least of ${runs} runs). ${cpu}, ${os.cpus().length} cores, Node ${process.version}, C by gcc -O3 -march=native.\n`);
console.log(markdown([
  ['n', 'Wasm', 'TS twin', 'Wasm join', 'TS twin join', 'C, constellations', 'C, join', 'C, plain mirror', 'NQueensFAF (est.)', 'Wasm / C', 'Wasm join / C join', 'Wasm join / Wasm', 'twin join / Wasm join', 'twin / Wasm', 'Wasm / plain C', 'best Wasm / NQueensFAF'],
  ...rows,
]));
console.log(`\nRatios are times: below 1 the first named is faster. NQueensFAF's column is ${FAF_VS_PLAIN_C} × the plain C counter's time (its ratio measured on this machine kind), not a run of it; Wasm / plain C below ${FAF_VS_PLAIN_C} is ahead of it. Node counts: the constellations' equal C's; the join's twin equals its engine.`);

for (const n of twoThreads) {
  const started = performance.now();
  const usage = process.cpuUsage();
  const r = await queens.count(n, { threads: 2 });
  const ms = performance.now() - started;
  const used = process.cpuUsage(usage);
  check('Wasm, 2 threads', n, r.total, r.distinct);
  console.log(`\nn = ${n} on 2 threads (Wasm, ${r.method}): ${time(ms)} wall, ${time((used.user + used.system) / 1e3)} CPU, ${r.stats.parts} parts, ${r.stats.nodes} nodes (one run).`);
}
