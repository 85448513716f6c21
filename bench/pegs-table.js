// Peg solitaire: every single-vacancy start of a board × every single-peg finish its position
// class allows, and × "any", counted with the default options (one process per count, so that
// each row's peak resident set is its own). Starts and finishes are taken once per class of
// the board's symmetries (the finishes up to the symmetries that keep the start), and each
// start's counts over its finishes, times the size of each finish class, must add up to its
// "any" count. With --reachable, each start's pegs.reachable too (every sequence that ends with
// one peg, counted forward; 2 threads, 4 GiB), whose total must equal the "any" count. Prints a
// markdown table to stdout (progress on stderr).
//   node bench/pegs-table.js [board] [--starts d4,c1] [--reachable]  (default: english, every
//                                                         start class; --starts: these, in this order)
//   node bench/pegs-table.js --one BOARD START FINISH [BYTES]  (one count as JSON: what each row
//                                                         runs; BYTES: maxMemory, default 1 GiB;
//                                                         FINISH reachable: pegs.reachable)
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { pegs } from '../dist/index.js';
import { benchArgs, fail } from './common.js';

const options = { one: { type: 'boolean', default: false }, starts: { type: 'string' }, reachable: { type: 'boolean', default: false } };
const { values, positionals: args } = benchArgs(import.meta.url, options, true);
if (values.one) {
  const [board, start, finish, bytes] = args;
  const started = performance.now();
  const result =
    finish === 'reachable'
      ? await pegs.reachable({ board, start }, { threads: 2, maxMemory: Number(bytes ?? 4 * 2 ** 30) })
      : await pegs.count({ board, start, finish }, bytes ? { maxMemory: Number(bytes) } : {});
  console.log(JSON.stringify({
    total: String(result.total),
    ms: performance.now() - started,
    memory: result.memory,
    rss: process.resourceUsage().maxRSS * 1024,
    threads: result.stats.threads,
    levels: result.levels,
  }));
  process.exit(0);
}

const only = values.starts === undefined ? null : values.starts.split(',');
const boardName = args[0] ?? 'english';
const board = pegs.builtinBoard(boardName) ?? fail(`no built-in board ${boardName}; the boards: ${pegs.BOARD_NAMES.join(', ')}`);
const name = (i) => board.holes[i].name;
const orbit = (group, i) => [...new Set(group.map((perm) => perm[i]))].sort((a, b) => a - b);

/** One count in a child process (null when it failed: the error is printed in the row). */
function countOne(start, finish) {
  try {
    const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--one', boardName, start, finish], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const r = JSON.parse(out);
    return { ...r, total: BigInt(r.total) };
  } catch (error) {
    const message = /BitpuzzleError: (.*)/.exec(String(error.stderr))?.[1] ?? String(error.message).split('\n')[0];
    console.log(`| ${start} | ${finish} | failed: ${message} | | | |`);
    return null;
  }
}

const fmt = (ms) => `${(ms / 1000).toFixed(1)} s`;
const mb = (bytes) => `${Math.round(bytes / 1e6)} MB`;
console.log(`| start | finish | jump sequences | time | engine memory | peak RSS |`);
console.log('|---|---|---:|---:|---:|---:|');
const starts = [];
for (let i = 0; i < board.holes.length; i++) if (orbit(board.symmetries, i)[0] === i) starts.push(i);
// --starts gives the order too (the cheap ones first, say).
if (only) starts.sort((a, b) => only.indexOf(name(a)) - only.indexOf(name(b)));
let hardest = null;
for (const s of starts) {
  if (only && !only.includes(name(s))) continue;
  let any;
  try {
    any = pegs.toProblem({ board: boardName, start: name(s), finish: 'any' });
  } catch (error) {
    console.log(`| ${name(s)} | any | 0 (${error.code}: another position class) | | | |`);
    continue;
  }
  const keep = any.symmetries; // the symmetries that keep the start
  const finishes = any.finishes.map((f) => f.toString(2).length - 1).filter((f) => orbit(keep, f)[0] === f);
  let sum = 0n;
  for (const f of [...finishes, 'any', ...(values.reachable ? ['reachable'] : [])]) {
    const finish = typeof f === 'string' ? f : name(f);
    console.error(`${name(s)} → ${finish}…`);
    const r = countOne(name(s), finish);
    if (r === null) {
      sum = null; // no sum check for this start
      continue;
    }
    const size = typeof f === 'string' ? 1 : orbit(keep, f).length;
    if (typeof f !== 'string') sum = sum === null ? null : sum + r.total * BigInt(size);
    else if (sum !== null && sum !== r.total) fail(`${name(s)}: the finishes add up to ${sum}, the count to ${f} is ${r.total}`);
    const label =
      f === 'any' ? 'any (= the sum of the rows above, each times its class)' : f === 'reachable' ? 'reachable (forward, 2 threads, 4 GiB: = any)' : size > 1 ? `${finish} (class of ${size})` : finish;
    console.log(`| ${name(s)} | ${label} | ${r.total.toLocaleString('en')} | ${fmt(r.ms)} | ${mb(r.memory)} | ${mb(r.rss)} |`);
    // The counts with the default options (reachable's row runs with its own).
    if (f !== 'reachable' && (!hardest || r.rss > hardest.rss)) hardest = { ...r, what: `${name(s)} → ${finish}` };
  }
}
if (hardest) console.log(`\nLargest peak: ${hardest.what}, ${mb(hardest.rss)} resident, ${fmt(hardest.ms)}.`);
