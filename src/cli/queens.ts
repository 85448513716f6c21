// `bitpuzzle queens`: count, list or complete N-Queens boards.
import { once } from 'node:events';
import { Command, Option } from 'commander';
import { BitpuzzleError } from '../errors.js';
import * as queens from '../queens/index.js';
import { EXIT, eachSolution, integerOption, noSolution, outcome, progressBar, readInput, rejectFlags, sizeOption, toJson } from './io.js';
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
  method?: 'join' | 'constellations';
  maxMemory?: string;
}

export function queensCommand(): Command {
  return new Command('queens')
    .summary('count, list or complete N-Queens boards')
    .description(
      'Counts the solutions of the n×n board (and the distinct ones up to rotation and reflection), lists solutions, or completes a board with queens already placed.\n' +
        'Without --count it prints the first solution (--limit K for more, --all for every one). For n > 32 it prints one solution built directly (any n up to 100,000,000).',
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
    .addOption(
      new Option('--method <name>', 'with --count on an empty board: join half-boards (5 ≤ n ≤ 22) or search from start constellations (default: join from n = 16 to 22)').choices(['join', 'constellations']),
    )
    .option('--max-memory <SIZE>', 'with --count: most memory the engines may use, e.g. 512M (default 1G; a join that needs more falls back to constellations)')
    .addOption(new Option('--engine <kind>', 'search engine (default wasm)').choices(['wasm', 'js']))
    .option('--json', 'print one JSON object')
    .addHelpText(
      'after',
      '\nExamples:\n  bitpuzzle queens 8\n  bitpuzzle queens 14 --count --json\n  bitpuzzle queens 18 --count --method constellations\n  bitpuzzle queens --board board.txt --count\n  bitpuzzle queens 1000000 --json > solution.json',
    )
    .action(async (nText: string | undefined, flags: QueensFlags) => {
      outcome.status = await runQueens(nText, flags);
    });
}

async function runQueens(nText: string | undefined, flags: QueensFlags): Promise<number> {
  const n = integerOption('n', nText, 1, 2 ** 31 - 1);
  const threads = integerOption('--threads', flags.threads, 1, 1024);
  const limitOption = integerOption('--limit', flags.limit, 0);
  if (flags.all && limitOption !== undefined) throw new BitpuzzleError('BAD_INPUT', 'give --limit or --all, not both');
  if (flags.shard && !flags.count) throw new BitpuzzleError('BAD_INPUT', '--shard works with --count');
  if (flags.count) {
    rejectFlags('with --count (it counts every solution and, on an empty board, the distinct ones)', {
      '--limit': flags.limit,
      '--all': flags.all,
      '--distinct': flags.distinct,
    });
  } else {
    rejectFlags('when listing solutions (one thread lists them in order): add --count', {
      '--threads': flags.threads,
      '--queue': flags.queue,
      '--method': flags.method,
      '--max-memory': flags.maxMemory,
    });
  }
  if (!flags.count && flags.board === undefined && n !== undefined && n > queens.MAX_SEARCH_N) {
    rejectFlags(`for n > ${queens.MAX_SEARCH_N}: one solution is built by construction (listing and counting work up to n = ${queens.MAX_SEARCH_N})`, {
      '--limit': flags.limit,
      '--all': flags.all,
      '--distinct': flags.distinct,
    });
  }
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
        method: flags.method,
        maxMemory: sizeOption('--max-memory', flags.maxMemory),
        onProgress: bar.onProgress,
        queue: queueUrl(flags.queue), signal: queueSignal(flags.queue),
      });
    } finally {
      bar.stop();
    }
    if (flags.json) {
      console.log(toJson(result));
      return EXIT.ANSWERED;
    }
    const what = problem.queens.length ? 'completions' : 'solutions';
    const shard = result.shard ? ` in shard ${result.shard.index}/${result.shard.count}` : '';
    const distinct = result.distinct === null ? '' : `, ${result.distinct} distinct up to symmetry`;
    console.log(`n = ${result.n}: ${result.total} ${what}${distinct}${shard}`);
    console.log(
      `${result.stats.nodes} nodes in ${result.stats.milliseconds.toFixed(1)} ms on ${result.stats.threads} thread(s), ${result.stats.parts} part(s)`,
    );
    return EXIT.ANSWERED;
  }

  if (problem.n > queens.MAX_SEARCH_N && problem.queens.length === 0) {
    const started = performance.now();
    const columns = await queens.construct(problem.n, { engine: flags.engine });
    const stats = { nodes: 0n, milliseconds: performance.now() - started, threads: 1, parts: 1 };
    if (flags.json) {
      await writeConstructedJson(problem.n, columns, stats);
      return EXIT.ANSWERED;
    }
    return report(flags, problem.n, [columns], stats, 'construction', 1);
  }
  const limit = flags.all ? Infinity : limitOption ?? 1;
  const found: number[][] = [];
  const stats = await eachSolution(queens.solutions(problem, { limit, distinct: flags.distinct, engine: flags.engine }), (solution) => {
    found.push(solution.columns);
    if (!flags.json) {
      if (found.length > 1) console.log('');
      console.log(`solution ${found.length}: ${solution.columns.join(' ')}`);
      console.log(queens.picture(solution));
    }
  });
  return report(flags, problem.n, found, stats, 'search', limit);
}

/**
 * The JSON of a constructed solution, written a million columns at a time: the text of a
 * 100,000,000-queen solution is longer than the longest string JavaScript can hold.
 */
async function writeConstructedJson(n: number, columns: Int32Array, stats: queens.QueensStats): Promise<void> {
  // Waits for the pipe to drain when it is full, so at most a piece is held in memory.
  const write = async (text: string): Promise<void> => {
    if (!process.stdout.write(text)) await once(process.stdout, 'drain');
  };
  await write(`{"n":${n},"method":"construction","solutions":[[`);
  const chunk = 1_000_000;
  for (let from = 0; from < columns.length; from += chunk) {
    await write((from > 0 ? ',' : '') + columns.subarray(from, from + chunk).join(','));
  }
  await write(`]],"stats":${toJson(stats)}}\n`);
  console.error(`1 solution(s) by construction in ${stats.milliseconds.toFixed(1)} ms`);
}

/** Prints the listing's JSON or its summary; none found is UNSOLVABLE (exit 1). */
function report(
  flags: QueensFlags,
  n: number,
  solutions: (number[] | Int32Array)[],
  found: queens.QueensStats | null,
  method: 'search' | 'construction',
  limit: number,
): number {
  const stats = found ?? { nodes: 0n, milliseconds: 0, threads: 1, parts: 1 };
  if (solutions.length === 0 && limit > 0) throw noSolution(`n = ${n}: the ${method} found no solution`);
  if (flags.json) {
    console.log(toJson({ n, method, solutions, stats }));
    return EXIT.ANSWERED;
  }
  const { milliseconds } = stats;
  if (method === 'construction') {
    const [columns] = solutions;
    if (n <= MAX_PICTURE_N) console.log(`${columns.join(' ')}\n${queens.picture(columns)}`);
    else {
      const head = columns.slice(0, 16).join(' ');
      const verified = queens.isSolution(columns) ? 'verified' : 'NOT VALID';
      console.log(`n = ${n}: columns ${head} … (${columns.length} rows, ${verified}; --json prints them all)`);
    }
  }
  console.error(`${solutions.length} solution(s) by ${method} in ${milliseconds.toFixed(1)} ms`);
  return EXIT.ANSWERED;
}
