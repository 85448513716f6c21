// Peg solitaire: a count with its levels on disk, under shrinking disk limits (maxDisk): each
// count runs in its own process, forced to disk by a small spillAbove, while this script samples
// the bytes its folder holds every 200 ms (the peak can pass a sample by one write: the files
// grow in pieces of a few MB). Rounds (one more pass over a level's parents each) trade time for
// disk; below what the levels themselves need, the count stops with OUT_OF_DISK. Prints a
// markdown table to stdout (progress on stderr).
//   node bench/pegs-disk.js [BOARD START FINISH] [--spill-above SIZE] [--limits none,500M,300M]
//   (default: english d4 d1, --spill-above 64M, limits none,500M,300M,250M,200M)
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs, fail, markdown, ratio, time } from './common.js';

const { values, positionals } = benchArgs(import.meta.url, {
  'spill-above': { type: 'string', default: '64M' },
  limits: { type: 'string', default: 'none,500M,300M,250M,200M' },
}, true);
const spillAbove = values['spill-above'];
const limits = values.limits.split(',');
const [board = 'english', start = 'd4', finish = 'd1'] = positionals;
const cli = fileURLToPath(new URL('../bin/bitpuzzle', import.meta.url));

/** Bytes of the files under dir (the count's folder inside it), 0 when it is gone. */
function bytesUnder(dir) {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    try {
      bytes += statSync(join(entry.parentPath ?? entry.path, entry.name)).size;
    } catch {
      // removed between the listing and the look
    }
  }
  return bytes;
}

/** One count: its JSON answer, wall milliseconds and the peak bytes sampled on disk. */
function countOnce(limit) {
  const dir = mkdtempSync(join(tmpdir(), 'bitpuzzle-bench-disk-'));
  const flags = ['pegs', '--board', board, '--start', start, '--finish', finish, '--count', '--json', '--spill-above', spillAbove, '--spill-dir', dir];
  if (limit !== 'none') flags.push('--max-disk', limit);
  const started = performance.now();
  const child = spawn(process.execPath, [cli, ...flags], { stdio: ['ignore', 'pipe', 'ignore'] });
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, bytesUnder(dir))), 200);
  return new Promise((resolve) => {
    child.on('close', () => {
      clearInterval(sampler);
      const ms = performance.now() - started;
      rmSync(dir, { recursive: true, force: true });
      // The total as printed (past 2^53 a JSON number loses digits).
      const answer = JSON.parse(stdout);
      if (answer.error === undefined) answer.total = /"total":(\d+)/.exec(stdout)[1];
      resolve({ answer, ms, peak });
    });
  });
}

const rows = [['max disk', 'answer', 'time', 'vs none', 'peak on disk (sampled)']];
let unlimited;
for (const limit of limits) {
  console.error(`${board} ${start} -> ${finish}, maxDisk ${limit} ...`);
  const { answer, ms, peak } = await countOnce(limit);
  const counted = answer.error === undefined;
  if (counted && unlimited && answer.total !== unlimited.total) fail(`maxDisk ${limit} counted ${answer.total}, not ${unlimited.total}`);
  if (limit === 'none') unlimited = { total: answer.total, ms };
  rows.push([
    limit === 'none' ? 'none (free space)' : limit,
    counted ? answer.total : answer.error.code,
    time(ms),
    unlimited && counted ? ratio(ms, unlimited.ms) : '',
    `${(peak / 1e6).toFixed(0)} MB`,
  ]);
}
console.log(`${board} ${start} -> ${finish}, levels on disk from --spill-above ${spillAbove}; one run each\n`);
console.log(markdown(rows));
