// A throwaway redis-server for the queue tests: a free loopback port, a temporary directory,
// no persistence; and `bitpuzzle worker` child processes that log to a buffer.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Whether Debian's redis-server is on the PATH: the queue tests need it (`.ci/run` installs it). */
export const redisAvailable = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
/** CI sets this so that a missing redis-server fails the run instead of skipping the queue tests. */
export const REDIS_REQUIRED = process.env.BITPUZZLE_QUEUE_TESTS === 'required';

/** A port nothing listens on now (the kernel picks it; redis-server cannot take port 0). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface RedisServer {
  port: number;
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startRedis(options: { password?: string } = {}): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'bitpuzzle-redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
  if (options.password) args.push('--requirepass', options.password);
  const child = spawn('redis-server', args, { stdio: 'ignore' });
  for (let i = 0; i < 100 && !(await listening(port)); i++) await new Promise((r) => setTimeout(r, 50));
  const auth = options.password ? `:${options.password}@` : '';
  return {
    port,
    url: `redis://${auth}127.0.0.1:${port}`,
    process: child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await new Promise((r) => child.once('exit', r));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface WorkerProcess {
  process: ChildProcess;
  /** Everything it logged so far. */
  log(): string;
  /** Resolves once it logged a line matching `pattern`. */
  waitFor(pattern: RegExp, ms?: number): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** A `bitpuzzle worker` on `url` (one thread); `env` adds to its environment. */
export function startWorker(url: string, args: string[] = [], env: Record<string, string> = {}): WorkerProcess {
  const child = spawn(process.execPath, ['bin/bitpuzzle', 'worker', url, '--threads', '1', '--lock', '1500', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let text = '';
  const waiters: Array<() => void> = [];
  const collect = (chunk: Buffer): void => {
    text += chunk.toString();
    waiters.splice(0).forEach((w) => w());
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    process: child,
    log: () => text,
    async waitFor(pattern, ms = 10_000) {
      const deadline = Date.now() + ms;
      while (!pattern.test(text)) {
        if (Date.now() > deadline) throw new Error(`the worker did not log ${pattern}; it logged:\n${text}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 100);
        });
      }
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
