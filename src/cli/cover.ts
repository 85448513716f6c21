// `bitpuzzle cover`: exact cover of a matrix in the text format (see the README), and the
// search flags (count or list, threads, shards, a queue) it shares with `bitpuzzle sudoku`.
import { Command, Option } from 'commander';
import * as cover from '../cover/index.js';
import { BitpuzzleError } from '../errors.js';
import type * as sudoku from '../sudoku/index.js';
import { EXIT, eachSolution, integerOption, listLimit, noSolution, outcome, progressBar, readInput, rejectFlags, toJson } from './io.js';
import { QUEUE_OPTION_HELP, queueProgress, queueSignal, queueUrl } from './queue.js';

export interface SearchFlags {
  queue?: string | boolean;
  count?: boolean;
  limit?: string;
  all?: boolean;
  threads?: string;
  shard?: string;
  engine?: 'wasm' | 'js';
  json?: boolean;
}

/** The options both commands share. */
export function searchCommand(name: string, argument = '<FILE|->', about = "the input file, or '-' for standard input"): Command {
  return new Command(name)
    .argument(argument, about)
    .option('--count', 'count solutions instead of listing them')
    .option('--limit <K>', name === 'sudoku' ? 'list at most K solutions (default 1); with --batch, search each puzzle up to K (default 2)' : 'list at most K solutions (default 1)')
    .option('--all', 'list every solution')
    .option('--threads <N>', `worker threads for --count${name === 'sudoku' ? ' or --batch' : ''} (default: all cores)`)
    .option('--queue [URL]', `with --count${name === 'sudoku' ? ' or --batch' : ''}: ${QUEUE_OPTION_HELP}`)
    .option('--shard <k/n>', 'with --count: count only the k-th of n deterministic parts')
    .addOption(new Option('--engine <kind>', 'search engine (default wasm)').choices(['wasm', 'js']))
    .option('--json', 'print one JSON object');
}

export function coverCommand(): Command {
  return searchCommand('cover')
    .summary('exact cover of a matrix given as text')
    .description(
      'Finds sets of rows that cover every primary column exactly once and every secondary column at most once (Knuth\'s Algorithm X with dancing links).\n' +
        'Input: "primary: a b c" (and optionally "secondary: x y"), then one row per line naming its columns, optionally after a row name and a colon ("r1: a b"); "#" starts a comment.\n' +
        'Without --count it prints the first solution (--limit K for more, --all for every one).',
    )
    .addHelpText('after', '\nExamples:\n  bitpuzzle cover knuth.txt --all\n  bitpuzzle cover - --count --json < matrix.txt')
    .action(async (file: string, flags: SearchFlags) => {
      outcome.status = await runCover(file, flags);
    });
}

async function runCover(file: string, flags: SearchFlags): Promise<number> {
  checkFlags(flags);
  const problem = cover.parseCover(await readInput(file));
  // A listing with a reason known before any search: UNSOLVABLE (exit 1); a count is 0 with the reason.
  if (problem.reason && !flags.count) throw new BitpuzzleError('UNSOLVABLE', problem.reason);
  const lines = problem.lines ?? [];
  // A row as written: its name, if any, then its columns.
  const rowText = (row: number): string => {
    const { rowStarts, cells } = problem.matrix;
    const columns = Array.from(cells.subarray(rowStarts[row], rowStarts[row + 1]), (c) => problem.columnNames[c]).join(' ');
    return problem.rowNames ? `${problem.rowNames[row]}: ${columns}` : columns;
  };
  return search(flags, {
    label: 'exact cover',
    count: (options) => cover.count(problem, options),
    solutions: (options) => cover.solutions(problem, options),
    picture: (solution) => solution.rows.map((row) => `  ${rowText(row)}`).join('\n'),
    json: (solution) => ({ ...solution, lines: solution.rows.map((row) => lines[row]) }),
  });
}

export interface Search<S> {
  label: string;
  count: (options: cover.CountOptions) => Promise<cover.CoverCount | sudoku.SudokuCount>;
  solutions: (options: cover.SolutionsOptions) => AsyncGenerator<S, cover.CoverStats, undefined>;
  picture: (solution: S) => string;
  json: (solution: S) => unknown;
}

/** Flags that the mode would ignore are rejected. */
export function checkFlags(flags: SearchFlags): void {
  if (flags.shard && !flags.count) throw new BitpuzzleError('BAD_INPUT', '--shard works with --count');
  if (flags.count) rejectFlags('with --count (it counts every solution)', { '--limit': flags.limit, '--all': flags.all });
  else rejectFlags('when listing solutions (one thread lists them in order): add --count', { '--threads': flags.threads, '--queue': flags.queue });
}

/** Counts (--count) or lists solutions, as text or one JSON object; the exit status. */
export async function search<S>(flags: SearchFlags, how: Search<S>): Promise<number> {
  const limit = listLimit(flags);
  const threads = integerOption('--threads', flags.threads, 1, 1024);
  if (flags.count) {
    const bar = flags.queue ? queueProgress(how.label) : progressBar(how.label);
    let result: Awaited<ReturnType<Search<S>['count']>>;
    try {
      result = await how.count({ threads, shard: flags.shard, engine: flags.engine, onProgress: bar.onProgress, queue: queueUrl(flags.queue), signal: queueSignal(flags.queue) });
    } finally {
      bar.stop();
    }
    if (flags.json) {
      console.log(toJson(result));
      return EXIT.ANSWERED;
    }
    const { stats } = result;
    const shard = flags.shard ? ` in shard ${flags.shard}` : '';
    console.log(`${result.total} solution${result.total === 1n ? '' : 's'}${shard}${result.reason ? `: ${result.reason}` : ''}`);
    console.log(`${stats.nodes} nodes in ${stats.milliseconds.toFixed(1)} ms on ${stats.threads} thread(s), ${stats.parts} part(s)`);
    return EXIT.ANSWERED;
  }
  const found: unknown[] = [];
  const stats = await eachSolution(how.solutions({ limit, engine: flags.engine }), (solution) => {
    found.push(how.json(solution));
    if (!flags.json) {
      if (found.length > 1) console.log('');
      console.log(`solution ${found.length}:\n${how.picture(solution)}`);
    }
  });
  if (found.length === 0 && limit > 0) throw noSolution(`${how.label}: the search found no solution`);
  if (flags.json) {
    console.log(toJson({ solutions: found, stats }));
    return EXIT.ANSWERED;
  }
  console.error(`${found.length} solution(s) in ${stats.milliseconds.toFixed(1)} ms`);
  return EXIT.ANSWERED;
}
