// `bitpuzzle worker`: serve a Redis queue's parts until Ctrl-C or SIGTERM.
import { Command } from 'commander';
import { defaultThreads } from '../parallel/pool.js';
import { integerOption } from './io.js';
import { queueUrl } from './queue.js';

interface WorkerFlags {
  threads?: string;
  concurrency?: string;
  prefix?: string;
  lock?: string;
}

export function workerCommand(): Command {
  return new Command('worker')
    .summary('run parts from a Redis queue (counts and batches started with --queue)')
    .description(
      'Takes parts from the queue and runs them on this machine until Ctrl-C or SIGTERM: it then stops taking parts, finishes those under way and exits 0 ' +
        '(a second Ctrl-C hands them back at once). Logs one line per part and per error.\n' +
        'URL: redis://[user:password@]host[:port][/db] or rediss:// for TLS; omitted, $BITPUZZLE_QUEUE.',
    )
    .argument('[url]', 'the queue (default: $BITPUZZLE_QUEUE)')
    .option('--queue <URL>', 'the queue (same as the argument)')
    .option('--threads <N>', 'threads that run parts (default: all cores)')
    .option('--concurrency <K>', 'jobs (lists of parts) taken at once (default: the threads)')
    .option('--prefix <P>', 'key prefix shared with the coordinators (default: bitpuzzle)')
    .option('--lock <MS>', "how long a silent worker's part stays claimed before another takes it (default 5000)")
    .addHelpText('after', '\nExamples:\n  redis-server --port 6379 --requirepass secret &\n  BITPUZZLE_QUEUE=redis://:secret@127.0.0.1:6379 bitpuzzle worker --threads 4')
    .action(async (url: string | undefined, flags: WorkerFlags & { queue?: string }) => {
      const threads = integerOption('--threads', flags.threads, 1, 1024) ?? defaultThreads();
      const concurrency = integerOption('--concurrency', flags.concurrency, 1, 4096);
      const lockMs = integerOption('--lock', flags.lock, 500, 3_600_000);
      const { startWorker } = await import('../queue/worker.js');
      const log = (line: string): void => console.error(`${new Date().toISOString()} ${line}`);
      const worker = await startWorker({ queue: queueUrl(url ?? flags.queue ?? true)!, prefix: flags.prefix, threads, concurrency, lockMs, log });
      // The signal handlers go in before the ready line: whoever waits for that line may
      // signal at once (a SIGTERM that came first killed the process, exit status null).
      const stopped = new Promise<void>((resolve) => {
        let stopping = false;
        const stop = (): void => {
          if (stopping) {
            log('stopping now: parts under way go back to the queue');
            void worker.close(true).then(resolve, resolve);
            return;
          }
          stopping = true;
          log('stopping: finishing the parts under way (Ctrl-C again to hand them back)');
          void worker.close().then(resolve, resolve);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      log(`worker ready: ${threads} thread(s)`);
      await stopped;
      log(`worker stopped: ${worker.done} part(s) done, ${worker.failed} failed`);
    });
}
