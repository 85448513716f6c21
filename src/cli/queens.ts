// `bitpuzzle queens`: count, list or complete N-Queens boards.
import { Command, Option } from 'commander';
import { BitpuzzleError, queens } from '../index.js';
import { integerOption, progressBar, readInput, toJson } from './io.js';
import { QUEUE_OPTION_HELP, queueProgress, queueSignal, queueUrl } from './queue.js';

/** Boards wider than this print as columns only. */
const MAX_PICTURE_N = 64;

interface QueensFlags {
  count?: boolean;
  limit?: string;
  all?: boolean;
  distinct?: boolean;
  board?: string;
  threads?: string;
  shard?: string;
  engine?: 'wasm' | 'js';
  json?: boolean;
  queue?: string | boolean;
}

export function queensCommand(): Command {
  return new Command('queens')
    .summary('count, list or complete N-Queens boards')
    .description(
      'Counts the solutions of the n×n board (and the distinct ones up to rotation and reflection), lists solutions, or completes a board with queens already placed.\n' +
        'Without --count it prints the first solution (--limit K for more, --all for every one). For n > 32 it prints one solution built directly (any n up to 2^31-1).',
    )
    .argument('[n]', 'board size (optional with --board)')
    .option('--count', 'count solutions instead of listing them')
    .option('--limit <K>', 'list at most K solutions (default 1)')
    .option('--all', 'list every solution')
    .option('--distinct', 'count or list one solution per symmetry class (empty boards)')
    .option('--board <FILE|->', "a board to complete: n lines of '.' and 'Q'")
    .option('--threads <N>', 'worker threads for --count (default: all cores)')
    .option('--shard <k/n>', 'with --count: count only the k-th of n deterministic parts')
    .option('--queue [URL]', `with --count: ${QUEUE_OPTION_HELP}`)
    .addOption(new Option('--engine <kind>', 'search engine').choices(['wasm', 'js']).default('wasm'))
    .option('--json', 'print one JSON object')
    .addHelpText(
      'after',
      '\nExamples:\n  bitpuzzle queens 8\n  bitpuzzle queens 14 --count --json\n  bitpuzzle queens --board board.txt --count\n  bitpuzzle queens 1000000 --json > solution.json',
    )
    .action(async (nText: string | undefined, flags: QueensFlags) => runQueens(nText, flags));
}

async function runQueens(nText: string | undefined, flags: QueensFlags): Promise<void> {
  const n = integerOption('n', nText, 1, 2 ** 31 - 1);
  const threads = integerOption('--threads', flags.threads, 1, 1024);
  const limitOption = integerOption('--limit', flags.limit, 0);
  if (flags.all && limitOption !== undefined) throw new BitpuzzleError('BAD_INPUT', 'give --limit or --all, not both');
  if (flags.shard && !flags.count) throw new BitpuzzleError('BAD_INPUT', '--shard works with --count');
  let input: queens.QueensInput;
  if (flags.board !== undefined) input = { board: await readInput(flags.board), n };
  else if (n !== undefined) input = n;
  else throw new BitpuzzleError('BAD_INPUT', 'give the board size n or a board with --board (see bitpuzzle queens --help)');
  const problem = queens.toProblem(input);

  if (flags.count) {
    const bar = flags.queue ? queueProgress(`counting n=${problem.n}`) : progressBar(`counting n=${problem.n}`);
    let result: queens.QueensCount;
    try {
      result = await queens.count(problem, {
        threads,
        shard: flags.shard,
        engine: flags.engine,
        onProgress: bar.onProgress,
        queue: queueUrl(flags.queue), signal: queueSignal(flags.queue),
      });
    } finally {
      bar.stop();
    }
    if (flags.json) {
      console.log(toJson(result));
      return;
    }
    const what = problem.queens.length ? 'completions' : 'solutions';
    const shard = result.shard ? ` in shard ${result.shard.index}/${result.shard.count}` : '';
    const distinct = result.distinct === null ? '' : `, ${result.distinct} distinct up to symmetry`;
    console.log(`n = ${result.n}: ${result.total} ${what}${distinct}${shard}`);
    console.log(
      `${result.stats.nodes} nodes in ${result.stats.milliseconds.toFixed(1)} ms on ${result.stats.threads} thread(s), ${result.stats.parts} part(s)`,
    );
    return;
  }

  const started = performance.now();
  if (problem.n > queens.MAX_SEARCH_N && problem.queens.length === 0) {
    const columns = await queens.construct(problem.n, { engine: flags.engine });
    report(flags, problem.n, columns ? [Array.from(columns)] : [], performance.now() - started, 'constructed');
    return;
  }
  const limit = flags.all ? Infinity : limitOption ?? 1;
  const found: number[][] = [];
  for await (const solution of queens.solutions(problem, { limit, distinct: flags.distinct, engine: flags.engine })) {
    found.push(solution.columns);
    if (!flags.json) {
      if (found.length > 1) console.log('');
      console.log(`solution ${found.length}: ${solution.columns.join(' ')}`);
      console.log(queens.picture(solution));
    }
  }
  report(flags, problem.n, found, performance.now() - started, 'searched');
}

function report(flags: QueensFlags, n: number, solutions: number[][], milliseconds: number, method: string): void {
  if (flags.json) {
    console.log(toJson({ n, solutions, stats: { milliseconds, method } }));
    return;
  }
  if (method === 'constructed') {
    const [columns] = solutions;
    if (!columns) console.log(`n = ${n}: no solution exists`);
    else if (n <= MAX_PICTURE_N) console.log(`${columns.join(' ')}\n${queens.picture(columns)}`);
    else {
      const head = columns.slice(0, 16).join(' ');
      const verified = queens.isSolution(columns) ? 'verified' : 'NOT VALID';
      console.log(`n = ${n}: columns ${head} … (${columns.length} rows, ${verified}; --json prints them all)`);
    }
  } else if (solutions.length === 0) {
    console.log(`n = ${n}: no solution`);
  }
  console.error(`${solutions.length} solution(s) ${method} in ${milliseconds.toFixed(1)} ms`);
}
