// npm run bench:queens [-- --min N --max N] [--two-threads N,...]: N-Queens counting by start
// constellations on one thread: the Wasm engine, its pure-TS twin and the same method in C
// (bench/native/queens.c), beside the plain C counter with the first-row mirror, as ratios from
// one run. NQueensFAF (Java, the fastest CPU counter we know) cannot run here; data/known-results
// measured it at 0.39× the time of that plain C counter per thread, so its column is that
// estimate, not a measurement. `--two-threads 18` also times the Wasm engine on 2 threads once.
import { existsSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { fail, markdown, ratio, time, timeNative, timeSuite } from './common.js';
import { buildNative, buildNativeConstellations } from './native.js';

// OEIS A000170 and A002562; every count of every contender is checked against them.
const KNOWN = {
  10: [724n, 92n], 11: [2680n, 341n], 12: [14200n, 1787n], 13: [73712n, 9233n], 14: [365596n, 45752n],
  15: [2279184n, 285053n], 16: [14772512n, 1846955n], 17: [95815104n, 11977939n],
  18: [666090624n, 83263591n], 19: [4968057848n, 621012754n], 20: [39029188884n, 4878666808n],
};
/** NQueensFAF's CPU solver per thread, as a fraction of the plain C counter's time (known-results.md). */
const FAF_VS_PLAIN_C = 0.39;

const { values } = parseArgs({
  options: {
    min: { type: 'string', default: '13' },
    max: { type: 'string', default: '16' },
    'two-threads': { type: 'string', default: '' },
  },
});
const [min, max] = [Number(values.min), Number(values.max)];
if (!(Number.isInteger(min) && Number.isInteger(max) && 10 <= min && min <= max && max <= 17)) {
  fail(`--min and --max must be integers with 10 ≤ min ≤ max ≤ 17, got ${values.min}..${values.max}`);
}
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
const progress = (n, name, ms, runs) =>
  console.error(`n = ${n}  ${name.padEnd(22)} ${time(ms).padStart(9)}  (${runs} run${runs === 1 ? '' : 's'})`);

const constellationsC = buildNativeConstellations();
const plainC = buildNative();
if (!constellationsC || !plainC) fail('gcc not found: this benchmark compares with C');
process.on('exit', () => {
  constellationsC.dispose();
  plainC.dispose();
});

const CONTENDERS = [
  { name: 'Wasm, 1 thread', engine: 'wasm' },
  { name: 'TS twin, 1 thread', engine: 'js' },
];
// Warm-up: JIT tiers, the Wasm compile and the constellation lists stay out of the samples.
for (const { engine } of CONTENDERS) await queens.count(12, { threads: 1, engine });

const rows = [];
for (let n = min; n <= max; n++) {
  await constellations(n); // the list of n's constellations, made once per process
  const [wasm, twin] = await timeSuite(`n = ${n}`, CONTENDERS.map(({ name, engine }) => ({
    name,
    run: async () => {
      const r = await queens.count(n, { threads: 1, engine });
      check(name, n, r.total, r.distinct);
    },
  })), (name, ms, calls) => progress(n, name, ms, calls));
  const c = timeNative(() => {
    const r = constellationsC.run(n);
    check('C constellations', n, r.total, r.distinct);
    return r;
  });
  progress(n, 'C constellations', c.ms, c.runs);
  const plain = timeNative(() => {
    const r = plainC.run(n);
    check('C plain', n, r.total);
    return r;
  });
  progress(n, 'C plain (mirror)', plain.ms, plain.runs);
  const faf = FAF_VS_PLAIN_C * plain.ms;
  rows.push([String(n), time(wasm), time(twin), time(c.ms), time(plain.ms), `≈ ${time(faf)}`,
    ratio(wasm, c.ms), ratio(twin, wasm), ratio(wasm, plain.ms), ratio(wasm, faf)]);
}

const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
console.log(`N-Queens counting by start constellations, one thread, mean time per count. ${cpu}, ${os.cpus().length} cores, Node ${process.version}, C by gcc -O3 -march=native.\n`);
console.log(markdown([
  ['n', 'Wasm', 'TS twin', 'C, same method', 'C, plain mirror', 'NQueensFAF (est.)', 'Wasm / C', 'twin / Wasm', 'Wasm / plain C', 'Wasm / NQueensFAF'],
  ...rows,
]));
console.log(`\nRatios are times: below 1 the first named is faster. NQueensFAF's column is ${FAF_VS_PLAIN_C} × the plain C counter's time (its ratio measured on this machine kind), not a run of it.`);

for (const n of twoThreads) {
  const started = performance.now();
  const r = await queens.count(n, { threads: 2 });
  const ms = performance.now() - started;
  check('Wasm, 2 threads', n, r.total, r.distinct);
  console.log(`\nn = ${n} on 2 threads (Wasm): ${time(ms)}, ${r.stats.parts} parts, ${r.stats.nodes} nodes (one run).`);
}
