// `bitpuzzle queue status|clean`, and what the counting commands share for `--queue`.
import { Command } from 'commander';
import cliProgress from 'cli-progress';
import { BitpuzzleError } from '../errors.js';
import type { Progress } from '../parallel/pool.js';
import { abortOnInterrupt, toJson } from './io.js';

/**
 * The queue URL of `--queue [URL]`: the URL given, or $BITPUZZLE_QUEUE for a bare `--queue`
 * (which keeps a password out of the process list). No flag: no queue, whatever the environment.
 */
export function queueUrl(flag: string | boolean | undefined): string | undefined {
  if (flag === undefined || flag === false) return undefined;
  if (typeof flag === 'string') return flag;
  const url = process.env.BITPUZZLE_QUEUE;
  if (!url) throw new BitpuzzleError('BAD_INPUT', '--queue without a URL reads BITPUZZLE_QUEUE, which is not set');
  return url;
}

/** With a queue, Ctrl-C aborts the run: its waiting parts are taken off the queue. */
export function queueSignal(flag: string | boolean | undefined): AbortSignal | undefined {
  if (flag === undefined || flag === false) return undefined;
  return abortOnInterrupt('taking the waiting parts off the queue').signal;
}

/** The queue URL of a worker or queue command: the argument, or $BITPUZZLE_QUEUE. */
function urlArgument(url: string | undefined): string {
  return queueUrl(url ?? true)!;
}

export const QUEUE_OPTION_HELP = 'run the parts on `bitpuzzle worker` processes through Redis (URL, or $BITPUZZLE_QUEUE when omitted)';

/**
 * The progress of a run on a queue: a bar of parts done and live workers on a terminal, and
 * on stderr in any case how many finished parts an earlier run left to reuse.
 */
export function queueProgress(label: string): { onProgress: (p: Progress) => void; stop: () => void } {
  let bar: cliProgress.SingleBar | undefined;
  let told = false;
  return {
    onProgress(p) {
      if (!told && p.reused !== undefined) {
        told = true;
        if (p.reused > 0) console.error(`bitpuzzle: reusing ${p.reused} of ${p.total} parts finished earlier`);
      }
      if (!process.stderr.isTTY) return;
      if (!bar) {
        bar = new cliProgress.SingleBar(
          { stream: process.stderr, format: `${label} [{bar}] {value}/{total} parts | {workers} worker(s) | {duration_formatted}`, clearOnComplete: true },
          cliProgress.Presets.shades_classic,
        );
        bar.start(p.total, p.done, { workers: p.workers ?? '?' });
      }
      bar.update(p.done, { workers: p.workers ?? '?' });
    },
    stop() {
      bar?.stop();
    },
  };
}

export function queueCommand(): Command {
  const command = new Command('queue').summary('list or remove the problems on a Redis queue').description(
    'Lists the problems on a queue with their jobs by state (status), or removes them (clean). URL: redis://[user:password@]host[:port][/db] or rediss:// for TLS; omitted, $BITPUZZLE_QUEUE.',
  );
  command
    .command('status')
    .description('list the problems on the queue, their jobs by state, and the workers connected')
    .argument('[url]', 'the queue (default: $BITPUZZLE_QUEUE)')
    .option('--prefix <P>', 'key prefix shared with the workers (default: bitpuzzle)')
    .option('--json', 'print one JSON object')
    .action(async (url: string | undefined, flags: { prefix?: string; json?: boolean }) => {
      const { queueStatus } = await import('../queue/admin.js');
      const status = await queueStatus(urlArgument(url), flags.prefix);
      if (flags.json) return console.log(toJson(status));
      console.log(`${status.workers} worker(s) connected, ${status.problems.length} problem(s)`);
      for (const { problem, parts } of status.problems) {
        const states = Object.entries(parts).filter(([, n]) => n > 0).map(([state, n]) => `${n} ${state}`);
        console.log(`${problem}: ${states.join(', ')}`);
      }
    });
  command
    .command('clean')
    .description("remove a problem's parts (finished or not), or every problem's")
    .argument('[url]', 'the queue (default: $BITPUZZLE_QUEUE)')
    .argument('[problem]', 'the problem, as `queue status` names it (default: all)')
    .option('--prefix <P>', 'key prefix shared with the workers (default: bitpuzzle)')
    .option('--json', 'print one JSON object')
    .action(async (url: string | undefined, problem: string | undefined, flags: { prefix?: string; json?: boolean }) => {
      // One argument that is not a URL is the problem, on the queue of $BITPUZZLE_QUEUE.
      if (url !== undefined && problem === undefined && !url.includes('://')) [url, problem] = [undefined, url];
      const { queueClean } = await import('../queue/admin.js');
      const result = await queueClean(urlArgument(url), problem, flags.prefix);
      if (flags.json) return console.log(toJson(result));
      console.log(`removed ${result.removed} part(s)${result.running ? `; ${result.running} under way were left to finish` : ''}`);
    });
  return command;
}
