// npm run bench [-- --min N --max N]: N-Queens counting times of the Wasm engine (1 and all
// threads), its pure-TS twin, the usual plain JS counter and the same counter in C, as a
// markdown table for the README. Progress goes to stderr, the table to stdout.
import { existsSync } from 'node:fs';
import os from 'node:os';
import { countQueens } from './baseline-queens.js';
import { benchArgs, fail, markdown, ratio, time, timeNative, timeSuite } from './common.js';
import { buildNative } from './native.js';

// Published totals (OEIS A000170); every count of every contender is checked against them.
const TOTALS = [1n, 0n, 0n, 2n, 10n, 4n, 40n, 92n, 352n, 724n, 2680n, 14200n, 73712n, 365596n,
  2279184n, 14772512n, 95815104n, 666090624n];
const totalOf = (n) => TOTALS[n - 1];

// Big boards dominate the run time (plain JS takes ~40 s at n = 17 on a slow 2-core machine);
// see OPTIONS in common.js for how samples are taken.

const { values } = benchArgs(import.meta.url, { min: { type: 'string', default: '12' }, max: { type: 'string', default: '17' } });
const [min, max] = [Number(values.min), Number(values.max)];
if (!(Number.isInteger(min) && Number.isInteger(max) && 1 <= min && min <= max && max <= TOTALS.length)) {
  fail(`--min and --max must be integers with 1 ≤ min ≤ max ≤ ${TOTALS.length}, got ${values.min}..${values.max}`);
}
if (!existsSync(new URL('../dist/index.js', import.meta.url))) fail('dist/ is missing: run `npm run build` first');
const { queens } = await import('../dist/index.js');

const threads = os.availableParallelism();
const total = (promise) => promise.then((r) => r.total);
// Threads the library really used per n: it counts small searches on the calling thread.
const usedThreads = [];
const CONTENDERS = [
  { name: 'Wasm, 1 thread', count: (n) => total(queens.count(n, { threads: 1 })) },
  {
    name: `Wasm, ${threads} threads`,
    async count(n) {
      const r = await queens.count(n, { threads });
      usedThreads[n] = r.stats.threads;
      return r.total;
    },
  },
  { name: 'TS twin, 1 thread', count: (n) => total(queens.count(n, { threads: 1, engine: 'js' })) },
  { name: 'plain JS', count: (n) => countQueens(n) },
];

function check(name, n, count) {
  if (BigInt(count) !== totalOf(n)) fail(`${name} counted ${count} solutions for n = ${n}, expected ${totalOf(n)}`);
}

/** Mean milliseconds per call of each contender for one n, timed by benchmark.js. */
function benchJs(n) {
  const runs = CONTENDERS.map(({ name, count }) => ({ name, run: async () => check(name, n, await count(n)) }));
  return timeSuite(`n = ${n}`, runs, (name, ms, calls) => progress(n, name, ms, calls));
}

/** Mean milliseconds of the C counter as it reports them, over runs filling about maxTime. */
function benchNative(native, n) {
  const { ms, runs } = timeNative(() => {
    const result = native.run(n);
    check('C', n, result.total);
    return result;
  });
  progress(n, 'C', ms, runs);
  return ms;
}

function progress(n, name, ms, runs) {
  console.error(`n = ${n}  ${name.padEnd(18)} ${time(ms).padStart(9)}  (${runs} run${runs === 1 ? '' : 's'})`);
}

const native = buildNative();
if (native) process.on('exit', native.dispose);
else console.error('bench: gcc not found, so no native C column');

// Warm-up, so JIT tiers, the Wasm compile and first loads stay out of the first samples.
for (const { name, count } of CONTENDERS) check(name, 10, await count(10));

const rows = [];
for (let n = min; n <= max; n++) {
  const [wasm1, wasmAll, twin, js] = await benchJs(n);
  const c = native && benchNative(native, n);
  const inline = usedThreads[n] < threads ? ` (${usedThreads[n]}T)*` : '';
  rows.push([String(n), time(wasm1), time(wasmAll) + inline, time(twin), time(js), c ? time(c) : 'n/a',
    ratio(js, wasm1), ratio(wasm1, wasmAll), c ? ratio(c, wasm1) : 'n/a']);
}

const cpu = os.cpus()[0]?.model.trim() ?? 'unknown CPU';
console.log(`N-Queens counting, mean time per count. ${cpu}, ${os.cpus().length} cores, Node ${process.version}${
  native ? ', C by gcc -O3 -march=native' : ''}.\n`);
console.log(markdown([
  ['n', ...CONTENDERS.map((c) => c.name), 'C, 1 thread', 'Wasm 1T vs JS', `Wasm ${threads}T vs 1T`, 'Wasm 1T vs C'],
  ...rows,
]));
console.log('\nRatios above 1 mean the first named is faster. Wasm and the TS twin visit one board per' +
  ' symmetry class (about 1/8 of the search); plain JS and C use only the first-row mirror (about 1/2).' +
  (rows.some((r) => r[2].endsWith('*')) ? '\n\n\\* The library ran this small search on fewer threads.' : ''));
