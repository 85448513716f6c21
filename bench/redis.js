// A Redis of the bench's own on a free loopback port (no persistence), and `bitpuzzle worker`
// processes serving it: what bench/queue.js and bench/scaling.js run the queue on.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fail } from './common.js';

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

/** Starts redis-server (on the PATH): `{ url, stop() }`. */
export async function startRedis() {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'bitpuzzle-bench-redis-'));
  const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
  redis.once('error', (error) => fail(`cannot start redis-server: ${error.message}`));
  for (let i = 0; i < 100 && !(await up(port)); i++) await new Promise((r) => setTimeout(r, 50));
  return {
    url: `redis://127.0.0.1:${port}`,
    stop() {
      redis.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts `count` workers of `threads` threads each on the queue at `url`, resolved once all are
 * ready. `stop()` ends them (SIGTERM) and resolves with what each wrote to stderr.
 */
export async function startWorkers(url, count, threads = 1, nodeArgs = []) {
  const workers = Array.from({ length: count }, () =>
    spawn(process.execPath, [...nodeArgs, 'bin/bitpuzzle', 'worker', url, '--threads', String(threads)], { stdio: ['ignore', 'ignore', 'pipe'] }),
  );
  const logs = workers.map(() => '');
  await Promise.all(
    workers.map(
      (w, i) =>
        new Promise((resolve) =>
          w.stderr.on('data', (chunk) => {
            logs[i] += chunk;
            if (logs[i].includes('worker ready')) resolve();
          }),
        ),
    ),
  );
  return {
    stop: () =>
      Promise.all(
        workers.map(
          (w, i) =>
            new Promise((resolve) => {
              w.once('exit', () => resolve(logs[i]));
              w.kill('SIGTERM');
            }),
        ),
      ),
  };
}
