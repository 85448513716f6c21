// How the work scales with cores: one representative count or batch of each family, run as a
// whole `bitpuzzle` process at 1, 2, 4, … threads up to the machine's cores, and queens on the
// queue with W one-thread `bitpuzzle worker` processes; speed-up and efficiency against one
// thread, and the peak resident set (of the process; on the queue, the coordinator's plus every
// worker's). Each point runs once: the ratios are the figures, absolute times drift. Every
// point's answer is checked against the one-thread answer (all of `--json` but timings).
//   node bench/scaling.js [--only queens,polycubes,sudoku,sliding,pegs,queue] [--max-threads N]
//                         [--large] [--pdb 7-8]
// --large: bigger workloads for machines with many cores (queens 18, Korf's 100 with the 7-8
// tables); --pdb 7-8: Korf's 100 with the 7-8 tables (built once,
// minutes, into the cache). The queue rows need redis-server on the PATH (skipped without it).
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { benchArgs, fail, markdown, ratio, time } from './common.js';
import { startRedis, startWorkers } from './redis.js';

const { values } = benchArgs(import.meta.url, {
  only: { type: 'string' },
  'max-threads': { type: 'string' },
  large: { type: 'boolean', default: false },
  pdb: { type: 'string' },
});
const cores = availableParallelism();
const maxThreads = values['max-threads'] ? Number(values['max-threads']) : cores;
if (!(Number.isInteger(maxThreads) && maxThreads >= 1)) fail('--max-threads takes a whole number');
const large = values.large;
const data = (name) => fileURLToPath(new URL(`../test/data/${name}`, import.meta.url));
// Reports each process's peak resident set on exit, on stderr.
const rssHook = fileURLToPath(new URL('./peak-rss.cjs', import.meta.url));

const WORKLOADS = {
  queens: { name: `queens ${large ? 18 : 17} count`, args: ['queens', large ? '18' : '17', '--count'] },
  polycubes: { name: '3×4×5 box, flat pentacubes, count', args: ['polyomino', '--region', '3x4x5', '--pieces', 'flat-pentacubes', '--count'] },
  sudoku: { name: 'Sudoku, the 49,158 17-clue puzzles, batch', args: ['sudoku', '--batch', data('sudoku/17-clue.txt.gz')] },
  sliding: {
    name: `Korf's 100, optimal, ${values.pdb === '7-8' || large ? '7-8' : '6-6-3'} tables`,
    args: ['sliding', '--batch', data('korf100.txt'), '--goal', 'korf', '--pdb', values.pdb === '7-8' || large ? '7-8' : '6-6-3'],
  },
  pegs: { name: 'English peg solitaire, count all', args: ['pegs', '--board', 'english', '--count'] },
};
const families = values.only ? values.only.split(',') : [...Object.keys(WORKLOADS), 'queue'];
for (const f of families) if (!WORKLOADS[f] && f !== 'queue') fail(`--only: no workload ${f}`);

const points = [];
for (let t = 1; t < maxThreads; t *= 2) points.push(t);
points.push(maxThreads);

// The answer without what depends on timing or the thread count (a peg count's engine memory and
// the levels it kept, which depend on where the threaded count meets).
function answer(stdout) {
  const strip = (value) => {
    if (Array.isArray(value)) return value.map(strip);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).filter(([k]) => !['stats', 'patternMilliseconds', 'milliseconds', 'memory', 'levels'].includes(k)).map(([k, v]) => [k, strip(v)]));
    }
    return value;
  };
  return JSON.stringify(strip(JSON.parse(stdout)));
}

const peakOf = (stderr) => Math.max(0, ...[...stderr.matchAll(/^peak-rss-kib (\d+)$/gm)].map((m) => Number(m[1]) * 1024));
const mib = (bytes) => `${Math.round(bytes / 2 ** 20)} MiB`;

/** Runs the CLI once with `args` (as a whole process): wall milliseconds, peak RSS, answer. */
function runCli(args) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--require', rssHook, 'bin/bitpuzzle', ...args, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => {
      const ms = performance.now() - started;
      if (status !== 0) fail(`bitpuzzle ${args.join(' ')} exited with ${status}: ${stderr.trim().split('\n').at(-1)}`);
      resolve({ ms, rss: peakOf(stderr), answer: answer(stdout) });
    });
  });
}

function row(label, point, base) {
  const speedUp = base.ms / point.ms;
  return [label, time(point.ms), `${speedUp.toFixed(2)}×`, `${Math.round((speedUp / point.threads) * 100)}%`, mib(point.rss), ratio(point.rss, base.rss)];
}

const machine = `${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cores} hardware threads, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}`;
console.log(`Machine: ${machine}; ${new Date().toISOString().slice(0, 10)}\n`);

for (const family of families.filter((f) => f !== 'queue')) {
  const { name, args } = WORKLOADS[family];
  const rows = [['threads', 'wall', 'speed-up', 'efficiency', 'peak RSS', 'RSS vs 1 thread']];
  let base;
  for (const threads of points) {
    console.error(`${name}: ${threads} thread${threads > 1 ? 's' : ''}…`);
    const point = { ...(await runCli([...args, '--threads', String(threads)])), threads };
    base ??= point;
    if (point.answer !== base.answer) fail(`${name}: the answer on ${threads} threads differs from one thread's`);
    rows.push(row(String(threads), point, base));
  }
  console.log(`${name} (\`bitpuzzle ${args.map((a) => a.replace(/^.*test\/data\//, 'test/data/')).join(' ')} --threads T\`)\n`);
  console.log(markdown(rows) + '\n');
}

if (families.includes('queue')) {
  const hasRedis = spawnSync('redis-server', ['--version']).status === 0;
  if (!hasRedis) {
    console.log('The queue: skipped (no redis-server on the PATH).');
  } else {
    const n = large ? '18' : '17';
    const args = ['queens', n, '--count', '--threads', '1'];
    const local = { ...(await runCli(args)), threads: 1 };
    const rows = [['workers × 1 thread', 'wall', 'speed-up', 'efficiency', 'peak RSS (all processes)', 'RSS vs 1 thread']];
    rows.push(row('none (1 local thread)', local, local));
    const redis = await startRedis();
    try {
      for (const count of points) {
        console.error(`queens ${n} on the queue: ${count} worker${count > 1 ? 's' : ''}…`);
        const workers = await startWorkers(redis.url, count, 1, ['--require', rssHook]);
        const point = { ...(await runCli([...args, '--queue', redis.url])), threads: count };
        const logs = await workers.stop();
        point.rss += logs.reduce((sum, log) => sum + peakOf(log), 0);
        if (point.answer !== local.answer) fail(`queens ${n} on the queue differs from the local count`);
        rows.push(row(String(count), point, local));
        spawnSync(process.execPath, ['bin/bitpuzzle', 'queue', 'clean', redis.url]);
      }
    } finally {
      redis.stop();
    }
    console.log(`queens ${n} count on the queue, a coordinator and W one-thread workers on this machine (\`bitpuzzle queens ${n} --count --threads 1 --queue URL\`)\n`);
    console.log(markdown(rows));
  }
}
