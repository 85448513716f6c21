// npm run bench:sliding24 [-- --node-limit N --instances 1,2,40 --cache-dir DIR]: which of Korf &
// Felner's 50 24-puzzles are within reach. With --solve 40,25,… [--threads 2 --time-limit MS]
// it solves those instead, each on the threads with a time limit (default 10 minutes), and lists
// length, nodes and time (an instance the limit stops gets its anytime answer: not solved). Each instance is searched in this process (the tables
// loaded once) on one thread up to a node limit; the nodes of each IDA* iteration begun are
// recorded (onBound), and the work to the published length is estimated from the last two
// iterations' growth: the iteration at bound B + 2 takes about g = n(B) / n(B - 2) times the one at
// B, so the iterations up to the optimal length L take about n(B) · (g + g² + … + g^((L-B)/2))
// more nodes (an upper estimate: the last iteration stops at its solution). Node counts do not
// depend on the machine; the time is the estimate divided by the node rate measured here.
// Instances that finish within the limit are solved (their length checked). A table ordered by
// the estimate goes to stdout, progress to stderr.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { benchArgs, fail, markdown, time } from './common.js';

const { values } = benchArgs(import.meta.url, {
  'node-limit': { type: 'string', default: '20000000' },
  instances: { type: 'string', default: '' },
  'cache-dir': { type: 'string', default: join(os.tmpdir(), 'bitpuzzle-bench-pdb') },
  solve: { type: 'string', default: '' },
  threads: { type: 'string', default: '2' },
  'time-limit': { type: 'string', default: '600000' },
});
const { sliding } = await import('../dist/index.js');
const all = sliding.parseBatch(readFileSync(new URL('../test/data/korf24.txt', import.meta.url), 'utf8'));
const numbers = values.instances ? values.instances.split(',').map(Number) : all.map((_, i) => i + 1);
if (numbers.some((n) => !Number.isInteger(n) || n < 1 || n > all.length)) fail(`--instances takes numbers from 1 to ${all.length}`);
const nodeLimit = Number(values['node-limit']);
if (!(nodeLimit > 0)) fail('--node-limit takes a positive number');

if (values.solve) {
  const chosen = values.solve.split(',').map(Number);
  if (chosen.some((n) => !Number.isInteger(n) || n < 1 || n > all.length)) fail(`--solve takes numbers from 1 to ${all.length}`);
  const threads = Number(values.threads);
  const timeLimit = Number(values['time-limit']);
  const table = [['instance', 'optimal', 'length', 'nodes', 'search', 'loading tables', 'within the limit']];
  for (const number of chosen) {
    const { board, expected } = all[number - 1];
    console.error(`instance ${number} (${expected} moves) on ${threads} threads…`);
    const r = await sliding.solve(board, { goal: 'korf', method: 'optimal', threads, timeLimit, pdbDir: values['cache-dir'] });
    if (r.optimal && r.length !== expected) fail(`instance ${number}: ${r.length} moves, published ${expected}`);
    const search = r.stats.milliseconds - r.patternMilliseconds;
    table.push([String(number), String(expected), r.optimal ? String(r.length) : `≥ ${r.lowerBound}`, r.stats.nodes.toLocaleString('en-US'), time(search), time(r.patternMilliseconds), r.optimal ? 'yes' : 'no']);
    console.error(`instance ${number}: ${r.optimal ? `${r.length} moves` : `stopped at bound ${r.lowerBound}`}, ${r.stats.nodes.toLocaleString('en-US')} nodes, ${time(search)}`);
  }
  console.log(`\nKorf & Felner's 24-puzzles solved on ${threads} threads, at most ${time(timeLimit)} each (search: without loading the tables):\n`);
  console.log(markdown(table));
  process.exit(0);
}

const rows = [];
let totalNodes = 0;
let totalMs = 0;
for (const number of numbers) {
  const { board, expected } = all[number - 1];
  const iterations = [];
  const started = performance.now();
  const result = await sliding.solve(board, {
    goal: 'korf',
    method: 'optimal',
    nodeLimit,
    pdbDir: values['cache-dir'],
    onBound: ({ bound, nodes }) => iterations.push({ bound, nodes: Number(nodes) }),
    onProgress: ({ done, total }) => process.stderr.write(`\rthe 5×5 tables (loaded, or built once): ${((100 * done) / total).toFixed(1)}%`),
  });
  const ms = result.stats.milliseconds - result.patternMilliseconds;
  const nodes = Number(result.stats.nodes);
  totalNodes += nodes;
  totalMs += ms;
  if (result.optimal && result.length !== expected) fail(`instance ${number}: ${result.length} moves, published ${expected}`);
  // Nodes of each completed iteration: the difference between the starts of consecutive ones.
  const done = iterations.slice(0, -1).map((it, i) => ({ bound: it.bound, nodes: iterations[i + 1].nodes - it.nodes }));
  let estimate = nodes;
  let growth = null;
  if (!result.optimal && done.length >= 2) {
    const [a, b] = done.slice(-2);
    growth = b.nodes / Math.max(1, a.nodes);
    let iteration = b.nodes;
    for (let bound = b.bound + 2; bound <= expected; bound += 2) {
      iteration *= growth;
      estimate += iteration;
    }
  } else if (!result.optimal) {
    estimate = Infinity;
  }
  const row = { number, expected, h: iterations[0]?.bound ?? result.lowerBound, reached: result.lowerBound, solved: result.optimal, nodes, growth, estimate, ms };
  rows.push(row);
  console.error(`\rinstance ${number}: ${result.optimal ? `solved, ${expected} moves` : `bound ${result.lowerBound} of ${expected}`}, ${nodes.toLocaleString('en-US')} nodes, ${time(ms)}${growth ? `, growth ${growth.toFixed(1)}, estimate ${estimate.toExponential(2)} nodes` : ''}`);
}
const rate = totalNodes / totalMs; // nodes a millisecond, one thread
rows.sort((a, b) => a.estimate - b.estimate);
console.log(`\nKorf & Felner's 24-puzzles: IDA* with 6-6-6-6 tables following the blank (packed) and the mirrored lookup, one thread, at most ${nodeLimit.toLocaleString('en-US')} nodes each; ${(rate / 1000).toFixed(1)}M nodes a second here.\n`);
console.log(
  markdown([
    ['instance', 'optimal', 'h (root)', 'bound reached', 'nodes', 'growth per iteration', 'estimated nodes to the end', 'estimated time, 1 thread'],
    ...rows.map((r) => [
      String(r.number),
      String(r.expected),
      String(r.h),
      r.solved ? 'solved' : String(r.reached),
      r.nodes.toLocaleString('en-US'),
      r.growth ? r.growth.toFixed(1) : '',
      Number.isFinite(r.estimate) ? (r.solved ? r.nodes : Math.round(r.estimate)).toLocaleString('en-US') : '',
      Number.isFinite(r.estimate) ? time((r.solved ? r.nodes : r.estimate) / rate) : '',
    ]),
  ]),
);
