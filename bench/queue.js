// The queue executor's cost: the round trip of a part through Redis, and two counts run
// locally on 2 threads against a coordinator with 2 one-thread `bitpuzzle worker` processes
// on the same machine (each timed once: the ratio is the figure, absolute times drift). The
// coordinator runs with threads: 1, so that every part goes through the queue.
//   node bench/queue.js [--queens N]    (default n = 17; 16 on a loaded machine)
// Needs redis-server on the PATH; starts its own on a free loopback port, without persistence.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { polyomino, queens } from '../dist/index.js';
import { queueClean } from '../dist/queue/admin.js';
import { fail, markdown, ratio, time } from './common.js';

const at = process.argv.indexOf('--queens');
const n = at < 0 ? 17 : Number(process.argv[at + 1]);
if (!(n >= 8 && n <= 20)) fail('--queens takes n from 8 to 20');

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const up = (port) =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket.destroy() || true)).once('error', () => resolve(false));
  });

const port = await freePort();
const dir = mkdtempSync(join(tmpdir(), 'bitpuzzle-bench-redis-'));
const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
redis.once('error', (error) => fail(`cannot start redis-server: ${error.message}`));
for (let i = 0; i < 100 && !(await up(port)); i++) await new Promise((r) => setTimeout(r, 50));
const url = `redis://127.0.0.1:${port}`;
const workers = [0, 1].map(() => spawn(process.execPath, ['bin/bitpuzzle', 'worker', url, '--threads', '1'], { stdio: ['ignore', 'ignore', 'pipe'] }));
await Promise.all(
  workers.map((w) => new Promise((resolve) => w.stderr.on('data', (chunk) => String(chunk).includes('worker ready') && resolve()))),
);

const timed = async (work) => {
  await queueClean(url);
  const started = performance.now();
  const result = await work();
  return { ms: performance.now() - started, result };
};

const stopAll = setTimeout(() => fail('no answer in 10 minutes'), 600_000);
stopAll.unref();
try {
  // Parts of a few microseconds each: the time per part is the queue's own cost.
  const tiny = await timed(() => queens.count(10, { queue: url }));
  const perPart = tiny.ms / tiny.result.stats.parts;
  console.error(`round trip: ${tiny.result.stats.parts} parts in ${time(tiny.ms)}`);

  const rows = [['workload', 'local, 2 threads', 'queue, 2 workers × 1 thread', 'queue / local', 'parts']];
  for (const [name, count] of [
    [`queens n = ${n}`, (options) => queens.count(n, options)],
    ['6×10 pentominoes', (options) => polyomino.count({ region: '6x10' }, options)],
  ]) {
    const local = await timed(() => count({ threads: 2 }));
    const queued = await timed(() => count({ queue: url, threads: 1 }));
    if (local.result.total !== queued.result.total) fail(`${name}: ${queued.result.total} on the queue, ${local.result.total} locally`);
    console.error(`${name}: ${time(local.ms)} local, ${time(queued.ms)} on the queue`);
    rows.push([name, time(local.ms), time(queued.ms), ratio(queued.ms, local.ms), String(queued.result.stats.parts)]);
  }
  console.log(`Round trip through Redis: ${time(perPart)} a part (${tiny.result.stats.parts} parts of queens n = 10 in ${time(tiny.ms)}, 2 workers)\n`);
  console.log(markdown(rows));
} finally {
  workers.forEach((w) => w.kill('SIGTERM'));
  redis.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
