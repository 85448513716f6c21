// Peg solitaire: the fewest moves of the classic problems of the built-in boards, each in its
// own process (so that its peak resident set is its own), with the published figure where
// there is one (a different answer fails the run). Boards past 33 holes go by iterative
// deepening (src/pegs/fewest.ts); up to 33, by the search from both ends.
//   node bench/pegs-fewest.js [name …] [--minutes M] (default: every problem below, 10 minutes
//                                                    each; names as listed)
//   --length-only (with the above or --one): the fewest moves alone by levels of pegs from both
//                 ends (minMoves lengthOnly, levels on disk in --spill-dir DIR or the OS's
//                 temporary folder), not the search for a shortest solution
//   --method M    (with the above or --one): minMoves' method (auto, moves, deepening, levels:
//                 the levels, then a solution through where they met; --spill-dir as above)
//   node bench/pegs-fewest.js --one BOARD START FINISH [SECONDS]  (one problem as JSON: a row)
//   node bench/pegs-fewest.js --split [BOARD]       (countOptimal's time in its search and in its
//                                                    counting passes; default english)
//   node bench/pegs-fewest.js --least BOARD         (the least over every single-vacancy start,
//                                                    finishing anywhere: Bell's a(n) on triangles)
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { pegs } from '../dist/index.js';
import { benchArgs, fail } from './common.js';

// [name, board, start, finish, published moves or null, source]
const PROBLEMS = [
  ['english', 'english', 'd4', 'd4', 18, 'Bergholt 1912, proved minimal by Beasley 1964'],
  ['french-d3-d5', 'french', 'd3', 'd5', null, ''],
  ['triangle8', 'triangle8', 'a1', 'a1', null, ''],
  // The start from which triangle8 takes Bell's least, 13 moves (the README's table).
  ['triangle8-a4', 'triangle8', 'a4', 'any', null, ''],
  ['diamond-e4-e6', 'diamond', 'e4', 'e6', null, ''],
];
// Bell, "Solving triangular peg solitaire" (JIS 11, 2008), OEIS A127500: the shortest solution
// over every single-vacancy problem finishing with one peg, on the triangle of side n.
const BELL_LEAST = { triangle4: 5, triangle5: 9, triangle6: 9, triangle7: 12, triangle8: 13 };

const { values, positionals: args } = benchArgs(import.meta.url, {
  one: { type: 'boolean', default: false },
  split: { type: 'boolean', default: false },
  least: { type: 'boolean', default: false },
  minutes: { type: 'string', default: '10' },
  'length-only': { type: 'boolean', default: false },
  method: { type: 'string' },
  'spill-dir': { type: 'string' },
}, true);
const lengthOnly = values['length-only'];
const spillDir = values['spill-dir'];
const method = values.method;
const byLevels = lengthOnly || method === 'levels';
if (values.one) {
  const [board, start, finish, seconds] = args;
  const started = performance.now();
  let proved = 0;
  const signal = AbortSignal.timeout(Number(seconds ?? 600) * 1000);
  let result = null;
  let stopped = false;
  try {
    // Progress: the bound proved (the search), or the levels built (lengthOnly).
    result = await pegs.minMoves({ board, start, finish }, {
      signal,
      ...(lengthOnly ? { lengthOnly } : {}),
      ...(method ? { method } : {}),
      ...(byLevels && spillDir ? { spillDir } : {}),
      onProgress: ({ done, total }) => {
        if (done === proved) return;
        proved = done;
        const what = byLevels ? `level ${done} of ${total}` : `bound ${done}`;
        process.stderr.write(`  ${board} ${start} -> ${finish}: ${what}, ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
      },
    });
  } catch (error) {
    if (error.code !== 'ABORTED') throw error;
    stopped = true; // out of time: fewer than `proved` moves is impossible, no more is known
  }
  console.log(JSON.stringify({
    moves: result ? result.length : null,
    stopped,
    proved,
    jumps: result ? result.jumps : null,
    ms: performance.now() - started,
    memory: result ? result.memory : 0,
    rss: process.resourceUsage().maxRSS * 1024,
  }));
  process.exit(0);
}

/** One problem in a child process. */
function runOne(board, start, finish, seconds) {
  const more = [...(lengthOnly ? ['--length-only'] : []), ...(method ? ['--method', method] : []), ...(spillDir ? ['--spill-dir', spillDir] : [])];
  const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--one', board, start, finish, String(seconds), ...more], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(out);
}

const fmt = (ms) => `${(ms / 1000).toFixed(1)} s`;
const mb = (bytes) => `${Math.round(bytes / 1e6)} MB`;

if (values.split) {
  // countOptimal's two phases on one board's default problem: the search by moves (progress up
  // to the most moves there can be), then the counting passes over its table, which are what
  // threads could share (README: why countOptimal has none).
  const boardName = args[0] ?? 'english';
  const problem = pegs.toProblem({ board: boardName });
  const started = performance.now();
  let searched = null;
  let bound = null;
  const r = await pegs.countOptimal(problem, {
    onProgress: ({ done, total }) => {
      bound ??= (total - 2) / 2; // bound + 2 + bound (the count, no listing)
      if (searched === null && done > bound) searched = performance.now() - started;
    },
  });
  const all = performance.now() - started;
  console.log(`${boardName}: ${r.length} moves, ${r.total} solutions; the search by moves ${fmt(searched)}, the counting ${fmt(all - searched)} (${Math.round((100 * (all - searched)) / all)}%), engine memory ${mb(r.memory)}, peak RSS ${mb(process.resourceUsage().maxRSS * 1024)}`);
  process.exit(0);
}

if (values.least) {
  const boardName = args[0];
  const board = pegs.builtinBoard(boardName) ?? fail(`no built-in board ${boardName}; the boards: ${pegs.BOARD_NAMES.join(', ')}`);
  const orbit = (i) => [...new Set(board.symmetries.map((perm) => perm[i]))].sort((a, b) => a - b);
  const published = BELL_LEAST[boardName];
  let least = null;
  for (let i = 0; i < board.holes.length; i++) {
    if (orbit(i)[0] !== i) continue;
    let problem;
    try {
      problem = pegs.toProblem({ board: boardName, start: board.holes[i].name, finish: 'any' });
    } catch {
      continue; // no single-peg finish in its position class
    }
    // Past 33 holes (the deepening, whose progress is the bound proved), a start is given up
    // once Bell's figure is proved impossible for it: it cannot be the least.
    const stop = new AbortController();
    const onProgress = ({ done }) => {
      if (published !== undefined && board.holes.length > 33 && done > published) stop.abort();
    };
    const started = performance.now();
    let answer;
    try {
      const r = await pegs.minMoves(problem, { signal: stop.signal, onProgress });
      answer = r ? r.length : 'none';
      if (r && (least === null || r.length < least)) least = r.length;
    } catch (error) {
      if (error.code !== 'ABORTED') throw error;
      answer = `> ${published}`;
    }
    console.log(`| ${boardName} | ${board.holes[i].name} | any | ${answer} | ${fmt(performance.now() - started)} |`);
  }
  console.log(`\nLeast over every start: ${least} moves (Bell: ${published ?? 'not published'}); peak RSS ${mb(process.resourceUsage().maxRSS * 1024)}.`);
  if (published !== undefined && least !== published) fail(`${boardName}: ${least} moves, Bell has ${published}`);
  process.exit(0);
}

// Each problem gets `--minutes M` (default 10); one still open then is reported as more than
// the moves its search proved impossible.
const seconds = Number(values.minutes) * 60;
const names = args;
console.log('| problem | board | start → finish | fewest moves | published | time | engine memory | peak RSS |');
console.log('|---|---|---|---:|---|---:|---:|---:|');
for (const [name, board, start, finish, published, source] of PROBLEMS) {
  if (names.length > 0 && !names.includes(name)) continue;
  const r = runOne(board, start, finish, seconds);
  const moves = r.stopped ? (lengthOnly ? `stopped after ${r.proved} levels` : `> ${r.proved - 1} (stopped)`) : (r.moves ?? 'none');
  console.log(`| ${name} | ${board} | ${start} → ${finish} | ${moves} | ${published === null ? '' : `${published} (${source})`} | ${fmt(r.ms)} | ${mb(r.memory)} | ${mb(r.rss)} |`);
  if (published !== null && !r.stopped && r.moves !== published) fail(`${name}: ${r.moves} moves, published ${published}`);
  if (published !== null && r.stopped && !lengthOnly && r.proved > published) fail(`${name}: ${published} moves proved impossible, but published`);
  const problem = pegs.toProblem({ board, start, finish });
  if (r.jumps) {
    const after = pegs.replay(problem.board, problem.start, r.jumps);
    if (!problem.finishes.includes(after[after.length - 1])) fail(`${name}: the solution does not replay to the finish`);
  }
}
