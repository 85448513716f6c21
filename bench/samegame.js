// npm run bench:samegame [-- --only clear|score --time 30 | --nodes N --threads N --positions 1-20 --method beam|nrpa|hybrid
//   --seed S --nrpa-beam B]:
// 1. clear: seeded random boards (3 colours 5×5, 8×8, 10×10; 4 colours 10×10), each decided
//    with a node budget by the Wasm engine and by its TS twin: share cleared, proved
//    impossible, unknown; nodes and time per board; the twin's time over Wasm's.
// 2. score: the 20 standard SameGame positions, --time seconds each on every thread, by
//    --method (default: the API's choice for the budget); each position's score and when it was
//    reached (the timeline onUpdate reports), the totals reached by 1, 5, 10, 30 … s, and the total
//    beside the published totals (SP-MCTS 73,998; nested Monte-Carlo level 3 77,934; NRPA 80,030).
//    --nodes N gives each position a budget of N nodes (over every thread) instead of a time:
//    the same scores on any machine and under any load (for comparing variants), and the CPU
//    seconds they took. --seed S plays thread S's seeds, so that runs of --threads 1 with
//    --seed 1 and --seed 2 are the two threads of a --threads 2 run, one core at a time.
//    --nrpa-beam B: NRPA's top level keeps B policies (Beam NRPA; with nrpa or hybrid).
// --nrpa-shared: NRPA's top level shared by the threads (nrpaShared; with nrpa or hybrid).
// --queue-workers W: with --nodes, the parts run on W one-thread `bitpuzzle worker` processes
//    through a Redis of the bench's own (redis-server on the PATH); --threads (the parts a
//    position, default W) and --nodes as without it. The scores are those of the same run on
//    threads (a node budget does not depend on where the parts run); the wall time is the queue's.
// --random N: instead of the standard positions, N random 15×15 boards of 5 colours
//    (samegame.randomBoard with seeds 1001 to 1000 + N): the held-apart set to tune on, so that
//    the standard positions stay a test, not a training set. --positions then picks among them.
// --kind uniform|even|dominant|mixed: with --random, the kind of board (default uniform: each
//    cell's colour drawn uniformly); even: 45 blocks of each colour, as standard positions 11-15;
//    dominant: one colour 65 and the others 40, as 16-20; mixed: uniform, uniform, even, dominant
//    in turn, the standard set's proportions (its uniform boards are those of --kind uniform).
// --records: a position's line better than its record in bench/data/samegame-records.json
//    (the README's SameGame records table; the replay test checks every line there) replaces
//    it, with how it was found; the file is written after each position.
// Every line found is replayed and re-scored. Progress goes to stderr, tables to stdout.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { startRedis, startWorkers } from './redis.js';
import { benchArgs, fail, markdown, ratio, time, timeSuite } from './common.js';

const { values } = benchArgs(import.meta.url, {
  only: { type: 'string' },
  time: { type: 'string', default: '30' },
  threads: { type: 'string' },
  positions: { type: 'string', default: '1-20' },
  method: { type: 'string' },
  nodes: { type: 'string' },
  seed: { type: 'string', default: '1' },
  'nrpa-beam': { type: 'string' },
  records: { type: 'boolean', default: false },
  random: { type: 'string' },
  kind: { type: 'string', default: 'uniform' },
  'nrpa-shared': { type: 'boolean', default: false },
  'queue-workers': { type: 'string' },
});
if (values.only && !['clear', 'score'].includes(values.only)) fail(`--only is clear or score, got ${values.only}`);
if (values.method && !['beam', 'nrpa', 'hybrid'].includes(values.method)) fail(`--method is beam, nrpa or hybrid, got ${values.method}`);
const seconds = Number(values.time);
const nodeBudget = values.nodes === undefined ? null : Number(values.nodes);
if (nodeBudget !== null && !(Number.isSafeInteger(nodeBudget) && nodeBudget > 0)) fail(`--nodes must be a positive integer, got ${values.nodes}`);
const queueWorkers = values['queue-workers'] === undefined ? null : Number(values['queue-workers']);
if (queueWorkers !== null && !(Number.isSafeInteger(queueWorkers) && queueWorkers >= 1)) fail(`--queue-workers must be a positive integer, got ${values['queue-workers']}`);
if (queueWorkers !== null && nodeBudget === null) fail('--queue-workers needs --nodes (a queue takes a node budget, not a time)');
const threads = Number(values.threads ?? queueWorkers ?? os.availableParallelism());
const nrpaBeam = values['nrpa-beam'] === undefined ? undefined : Number(values['nrpa-beam']);
// --seed S: position i is played with seed i + (S − 1) × 0x3c6ef372, the seed that thread S of a
// run with S or more threads gets, so that one-thread runs of seeds 1 and 2 are the two threads.
const seedSet = Number(values.seed);
if (!(Number.isSafeInteger(seedSet) && seedSet >= 1)) fail(`--seed must be a positive integer, got ${values.seed}`);
const seedOf = (position) => (position + (seedSet - 1) * 0x3c6ef372) >>> 0;
const range = /^(\d+)-(\d+)$/.exec(values.positions) ?? fail(`--positions is a range like 1-20, got ${values.positions}`);
if (!(seconds > 0) || !(threads >= 1)) fail('--time and --threads must be positive');

if (!existsSync(new URL('../dist/index.js', import.meta.url))) fail('dist/ is missing: run `npm run build` first');
const { samegame } = await import('../dist/index.js');

/** xorshift32: the same boards on every run. */
function generator(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 4294967296;
  };
}

function randomBoards(width, height, colours, count, seed) {
  const next = generator(seed);
  return Array.from({ length: count }, () =>
    Array.from({ length: height }, () => Array.from({ length: width }, () => String(1 + Math.floor(next() * colours))).join('')),
  );
}

function checkLine(board, result) {
  const played = samegame.replay(board, result.clicks);
  if (played.left !== result.left || played.score !== result.score) fail('a line does not replay to its result');
}

const NODE_BUDGET = 1_000_000;
const CLEAR_WORKLOADS = [
  { title: '5×5, 3 colours', boards: randomBoards(5, 5, 3, 200, 1) },
  { title: '8×8, 3 colours', boards: randomBoards(8, 8, 3, 50, 2) },
  { title: '10×10, 3 colours', boards: randomBoards(10, 10, 3, 20, 3) },
  { title: '10×10, 4 colours', boards: randomBoards(10, 10, 4, 20, 4) },
];

async function benchClear() {
  const rows = [['workload', 'boards', 'cleared', 'impossible', 'unknown', 'nodes/board', 'Wasm/board', 'TS twin/board', 'Wasm vs twin']];
  for (const { title, boards } of CLEAR_WORKLOADS) {
    const parsed = boards.map((rows) => samegame.parseBoard(rows.join('\n')));
    const outcomes = {};
    const solveAll = (engine) => async () => {
      const results = [];
      for (const board of parsed) results.push(await samegame.clear(board, { engine, maxNodes: NODE_BUDGET }));
      results.forEach((r, i) => checkLine(parsed[i], r));
      outcomes[engine] = results;
    };
    const [wasmMs, jsMs] = await timeSuite(title, [
      { name: 'wasm', run: solveAll('wasm') },
      { name: 'js', run: solveAll('js') },
    ], (name, ms, calls) => console.error(`${title}: ${name} ${time(ms)} per set (${calls} runs)`));
    const wasm = outcomes.wasm;
    wasm.forEach((r, i) => {
      const twin = outcomes.js[i];
      if (r.cleared !== twin.cleared || r.proved !== twin.proved || r.stats.nodes !== twin.stats.nodes) fail(`${title}: the engines disagree on board ${i + 1}`);
    });
    const cleared = wasm.filter((r) => r.cleared).length;
    const impossible = wasm.filter((r) => !r.cleared && r.proved).length;
    const nodes = wasm.reduce((sum, r) => sum + r.stats.nodes, 0n);
    const share = (k) => `${((100 * k) / boards.length).toFixed(0)}%`;
    rows.push([
      title,
      String(boards.length),
      share(cleared),
      share(impossible),
      share(boards.length - cleared - impossible),
      String(nodes / BigInt(boards.length)),
      time(wasmMs / boards.length),
      time(jsMs / boards.length),
      ratio(jsMs, wasmMs),
    ]);
  }
  console.log(`Clear: random boards, each with a budget of ${NODE_BUDGET.toLocaleString('en')} nodes (unknown: the budget ran out)\n`);
  console.log(markdown(rows));
}

const PUBLISHED = [
  ['SP-MCTS', 73998],
  ['nested Monte-Carlo level 3', 77934],
  ['NRPA', 80030],
];

/** --random boards are seeds 1001 and up: apart from the seeds the tests use. */
const RANDOM_SEEDS = 1000;
/**
 * --kind: the blocks of each colour of a --random board k (from 1), or undefined for colours
 * drawn uniformly. The standard set has three kinds: positions 1-10 drawn so, 11-15 45 blocks of
 * each colour, 16-20 one colour 65 and the others 40; `mixed` cycles uniform, uniform, even,
 * dominant (the standard set's proportions), `dominant` gives colour k mod 5 the 65.
 */
const KINDS = {
  uniform: () => undefined,
  even: () => [45, 45, 45, 45, 45],
  dominant: (k) => [0, 1, 2, 3, 4].map((colour) => (colour === k % 5 ? 65 : 40)),
  mixed: (k) => KINDS[['uniform', 'uniform', 'even', 'dominant'][(k - 1) % 4]](k),
};

/** Random board k (from 1) of --random: seed RANDOM_SEEDS + k, with `counts` blocks of each colour if given. */
function randomBoard(k, counts) {
  return samegame.randomBoard({ width: 15, height: 15, colours: 5, seed: RANDOM_SEEDS + k, ...(counts ? { counts } : {}) });
}

const RECORDS = new URL('./data/samegame-records.json', import.meta.url);

/** The records file: { positions: [{ position, score, left, clicks: 'column,row …', found }] }. */
function readRecords() {
  return existsSync(RECORDS) ? JSON.parse(readFileSync(RECORDS, 'utf8')) : { positions: [] };
}

/** Keeps `result` as position `i`'s record if it scores more; true when it does. */
function keepRecord(records, i, result, found) {
  const old = records.positions.find((r) => r.position === i);
  if (old && old.score >= result.score) return false;
  const record = { position: i, score: result.score, left: result.left, clicks: result.clicks.map((c) => `${c.column},${c.row}`).join(' '), found };
  records.positions = records.positions.filter((r) => r.position !== i).concat(record).sort((a, b) => a.position - b.position);
  const total = records.positions.reduce((sum, r) => sum + r.score, 0);
  writeFileSync(RECORDS, JSON.stringify({ ...records, total }, null, 1) + '\n');
  return true;
}

/** The method a run played, from the methods its rounds named (the hybrid's: beam, then nrpa). */
const methodPlayed = (methods) => values.method ?? (methods.size > 1 ? 'hybrid' : [...methods].join(''));

async function benchScore() {
  const randomCount = values.random === undefined ? null : Number(values.random);
  if (randomCount !== null && !(Number.isSafeInteger(randomCount) && randomCount >= 1)) fail(`--random must be a positive integer, got ${values.random}`);
  if (randomCount !== null && values.records) fail('--records keeps lines of the standard positions, not of --random boards');
  const countsOf = Object.hasOwn(KINDS, values.kind) ? KINDS[values.kind] : fail(`--kind is ${Object.keys(KINDS).join(', ')}, got ${values.kind}`);
  if (randomCount === null && values.kind !== 'uniform') fail('--kind is for --random boards');
  const positions =
    randomCount === null
      ? readFileSync(new URL('./data/samegame-standard.txt', import.meta.url), 'utf8').trim().split(/\n\s*\n/)
      : Array.from({ length: randomCount }, (_, k) => samegame.picture(randomBoard(k + 1, countsOf(k + 1))));
  const first = Number(range[1]);
  const last = Math.min(Number(range[2]), positions.length);
  // Milestones: the total of the scores each position had reached by these times.
  const marks = nodeBudget !== null ? [] : [...[1, 5, 10, 30, 60, 120, 300, 600, 1800, 3600].filter((m) => m < seconds), seconds];
  const rows = [['position', 'score', 'left', 'found at', ...marks.map((m) => `by ${m} s`), 'nodes']];
  const totals = marks.map(() => 0);
  let total = 0;
  let cpuSeconds = 0;
  // The methods the runs played (onUpdate names each round's: the hybrid's are beam, then nrpa).
  const played = new Set();
  const records = values.records ? readRecords() : null;
  const improved = [];
  const queue = queueWorkers === null ? null : await startRedis();
  const workers = queue && (await startWorkers(queue.url, queueWorkers, 1));
  let wallSeconds = 0;
  try {
    for (let i = first; i <= last; i++) {
      const board = samegame.parseBoard(positions[i - 1]);
      let timeline = [];
      const methods = new Set();
      const cpuBefore = process.cpuUsage();
      const common = {
        threads,
        seed: seedOf(i),
        onUpdate: (update) => {
          played.add(update.method);
          methods.add(update.method);
          timeline = update.timeline;
        },
      };
      const limit = nodeBudget === null ? { time: seconds } : { maxNodes: nodeBudget };
      const wallStarted = performance.now();
      const result = await samegame.score(board, { ...limit, ...common, method: values.method, ...(nrpaBeam ? { nrpaBeam } : {}), ...(values['nrpa-shared'] ? { nrpaShared: true } : {}), ...(queue ? { queue: queue.url } : {}) });
      wallSeconds += (performance.now() - wallStarted) / 1000;
      checkLine(board, result);
      const cpu = process.cpuUsage(cpuBefore);
      cpuSeconds += (cpu.user + cpu.system) / 1e6;
      total += result.score;
      const found = timeline.find((m) => m.score === result.score)?.seconds ?? result.stats.milliseconds / 1000;
      const byMark = marks.map((m) => timeline.filter((t) => t.seconds <= m).at(-1)?.score ?? 0);
      if (byMark.length > 0) byMark[byMark.length - 1] = result.score;
      byMark.forEach((score, k) => (totals[k] += score));
      console.error(`position ${i}: ${result.score} (${result.left} left) found at ${found.toFixed(1)} s, running total ${total}`);
      if (records) {
        const how = `${new Date().toISOString().slice(0, 10)}: ${nodeBudget === null ? `${seconds} s` : `${nodeBudget} nodes`} on ${threads} thread(s), method ${methodPlayed(methods)}${nrpaBeam ? `, nrpaBeam ${nrpaBeam}` : ''}, seed ${seedOf(i)}${seedSet > 1 ? ` (--seed ${seedSet})` : ''}`;
        if (keepRecord(records, i, result, how)) improved.push(i);
      }
      rows.push([String(i), String(result.score), String(result.left), `${found.toFixed(1)} s`, ...byMark.map(String), String(result.stats.nodes)]);
    }
  } finally {
    await workers?.stop();
    queue?.stop();
  }
  rows.push(['total', String(total), '', '', ...totals.map(String), '']);
  if (records) console.error(`records: ${improved.length > 0 ? `positions ${improved.join(', ')} improved` : 'none improved'}; their total is ${records.positions.reduce((sum, r) => sum + r.score, 0)} over ${records.positions.length} positions`);
  const budget = nodeBudget === null ? `${seconds} s` : `${nodeBudget.toLocaleString('en')} nodes`;
  console.log(`\nScore: ${randomCount === null ? 'standard positions' : `random 15×15 boards of 5 colours, ${values.kind} (seeds ${RANDOM_SEEDS + first} to ${RANDOM_SEEDS + last})`} ${first}-${last}, ${budget} each on ${threads} thread(s), method ${methodPlayed(played)}${nrpaBeam ? `, nrpaBeam ${nrpaBeam}` : ''}${values['nrpa-shared'] ? ', top level shared' : ''}, seed = position${seedSet > 1 ? ` (seed set ${seedSet})` : ''}${nodeBudget === null ? '' : queue ? `; on the queue with ${queueWorkers} one-thread worker(s): ${wallSeconds.toFixed(1)} s of wall time` : `; ${cpuSeconds.toFixed(1)} s of CPU (this process and its worker threads)`}\n`);
  console.log(markdown(rows));
  if (randomCount === null && first === 1 && last === 20) {
    console.log(`\ntotal ${total}: ${PUBLISHED.map(([name, figure]) => `${ratio(total, figure)} ${name} (${figure.toLocaleString('en')})`).join(', ')}`);
    // The milestones by time (a node budget has no time marks: the table's total is all there is).
    for (const [name, figure] of nodeBudget === null ? PUBLISHED : []) {
      const k = totals.findIndex((t) => t >= figure);
      console.log(`  ${name} (${figure.toLocaleString('en')}): ${k < 0 ? 'not reached' : `reached by ${marks[k]} s a position`}`);
    }
  }
  // At a time budget the beam's width comes from timing, which is steady on a quiet machine:
  // runs of one build and seed play nearly the same games (docs/benchmarks.md).
  if (nodeBudget === null) console.log('\nA time budget: runs with the same --seed are not independent draws; compare builds over several seeds, or at --nodes N.');
}

if (values.only !== 'score') await benchClear();
if (values.only !== 'clear') await benchScore();
