// The queue executor's cost: the round trip of a part through Redis, and two counts run
// locally on 2 threads against a coordinator with 2 one-thread `bitpuzzle worker` processes
// on the same machine (each timed once: the ratio is the figure, absolute times drift). The
// coordinator runs with threads: 1, so that every part goes through the queue.
//   node bench/queue.js [--queens N]    (default n = 17; 16 on a loaded machine)
// Needs redis-server on the PATH; starts its own on a free loopback port, without persistence.
import { polyomino, queens } from '../dist/index.js';
import { queueClean } from '../dist/queue/admin.js';
import { benchArgs, fail, markdown, ratio, time } from './common.js';
import { startRedis, startWorkers } from './redis.js';

const { values } = benchArgs(import.meta.url, { queens: { type: 'string', default: '17' } });
const n = Number(values.queens);
if (!(n >= 8 && n <= 20)) fail('--queens takes n from 8 to 20');

const redis = await startRedis();
const { url } = redis;
const workers = await startWorkers(url, 2);

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
    // Thousands of one-constellation parts, dealt into 128 jobs: a worker runs a job's parts in
    // groups sized by their cost.
    [`queens n = ${n}, constellations`, (options) => queens.count(n, { ...options, method: 'constellations' })],
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
  await workers.stop();
  redis.stop();
}
