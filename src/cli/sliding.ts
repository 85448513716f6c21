// `bitpuzzle sliding`: solve sliding-tile puzzles, optimally or constructively, one board or a batch.
import { availableParallelism } from 'node:os';
import { Command, Option } from 'commander';
import { BitpuzzleError } from '../errors.js';
import * as sliding from '../sliding/index.js';
import { onPatternWarning } from '../sliding/patterns.js';
import { EXIT, OutputFile, badUsage, integerOption, outcome, progressBar, readInput, rejectFlags, toJson } from './io.js';
import { QUEUE_OPTION_HELP, queueProgress, queueSignal, queueUrl } from './queue.js';

interface SlidingFlags {
  queue?: string | boolean;
  file?: string;
  size?: string;
  goal?: string;
  optimal?: boolean;
  fast?: boolean;
  batch?: string;
  random?: string;
  seed?: string;
  heuristic?: sliding.Heuristic;
  nodeLimit?: string;
  timeLimit?: string;
  pdb?: sliding.PdbChoice;
  pdbDir?: string;
  cacheDir?: string;
  cache?: boolean;
  movesFile?: string;
  playback?: boolean;
  threads?: string;
  engine?: 'wasm' | 'js';
  json?: boolean;
}

/** Constructive solutions of boards with more cells print their length only (--moves-file writes the moves). */
const MAX_PRINTED_CELLS = 400;
/** Iterations that begin sooner after the search's start are not printed. */
const BOUND_QUIET_MS = 1000;
/** Boards with more cells get no playback. */
const MAX_PLAYBACK_CELLS = 64;

export function slidingCommand(): Command {
  return new Command('sliding')
    .summary('solve sliding-tile puzzles (8, 15, 24 and any W×H)')
    .description(
      'Solves a sliding-tile board: optimally by IDA* (pattern databases for 12 to 25 cells, Manhattan distance with linear conflicts otherwise), or by a constructive solver for boards of any size.\n' +
        'The board: tiles as arguments or in a file, one row per line, 0, _ or . for the blank. The solution is the blank\'s moves (U D L R) and the tiles they slide.\n' +
        'By default boards of up to 16 cells are solved optimally and larger ones constructively.',
    )
    .argument('[tiles...]', 'the tiles in row-major order (give --size unless the board is square)')
    .option('--file <FILE|->', 'read the board from a file (rows of tiles)')
    .option('--size <WxH>', 'columns x rows of the board (width x height)')
    .option('--goal <default|korf|FILE>', 'the goal: blank last (default), blank first (korf), or a board file', 'default')
    .option('--optimal', 'a shortest solution (boards of up to 32 cells)')
    .option('--fast', 'a constructive solution (any size)')
    .option('--batch <FILE|->', 'solve every instance in FILE, one per line (tiles, then optionally the optimal length)')
    .option('--random <WxH>', 'solve a random board of this size (columns x rows)')
    .option('--seed <S>', 'the seed of --random (default 1)')
    .addOption(new Option('--heuristic <h>', 'heuristic of the optimal search').choices(['manhattan', 'conflict', 'patterns']))
    .option('--node-limit <N>', 'stop the optimal search after N nodes (per board): the lower bound proved and a constructive solution, not proved optimal (exit 3)')
    .option('--time-limit <MS>', 'stop the optimal search after MS milliseconds (per board), as --node-limit does')
    .addOption(new Option('--pdb <choice>', "the 15-puzzle's pattern databases: 7-8 (288 MB, built once in minutes; the default where memory allows) or 6-6-3 (12 MB)").choices(['7-8', '6-6-3']))
    .option('--pdb-dir <DIR>', 'where pattern databases are cached (default $BITPUZZLE_CACHE or ~/.cache/bitpuzzle)')
    .addOption(new Option('--cache-dir <DIR>', 'the former name of --pdb-dir').hideHelp())
    .option('--no-cache', 'build pattern databases in memory only')
    .option('--moves-file <FILE|->', "write the moves to FILE ('-': standard output) as they are found")
    .option('--playback', 'print the board after every move (small boards)')
    .option('--threads <N>', 'worker threads: for --batch (default: all cores), or for one board\'s optimal search (default 1)')
    .option('--queue [URL]', `with --batch: ${QUEUE_OPTION_HELP}`)
    .addOption(new Option('--engine <kind>', 'search engine (default wasm)').choices(['wasm', 'js']))
    .option('--json', 'print one JSON object')
    .addHelpText(
      'after',
      '\nExamples:\n  bitpuzzle sliding 8 6 7 2 5 4 3 0 1\n  bitpuzzle sliding --file board.txt --goal korf --json\n' +
        '  bitpuzzle sliding --batch korf100.txt --goal korf --threads 2\n  bitpuzzle sliding --random 100x100 --fast\n' +
        '  bitpuzzle sliding --random 1000x1000 --moves-file moves.txt',
    )
    .action(async (tiles: string[], flags: SlidingFlags) => {
      outcome.status = await runSliding(tiles, flags);
    });
}

/** The flags of the optimal search, rejected when the constructive solver runs. */
function rejectOptimalFlags(flags: SlidingFlags, why: string): void {
  rejectFlags(why, {
    '--node-limit': flags.nodeLimit,
    '--time-limit': flags.timeLimit,
    '--heuristic': flags.heuristic,
    '--pdb': flags.pdb,
    '--pdb-dir': flags.pdbDir,
    '--cache-dir': flags.cacheDir,
    '--no-cache': flags.cache === false,
  });
}

/** The pattern-database cache flags, rejected when the optimal search uses no pattern databases. */
function rejectCacheFlags(flags: SlidingFlags, cells: number): void {
  const patterns = cells >= sliding.MIN_PATTERN_CELLS && cells <= sliding.MAX_PATTERN_CELLS;
  const heuristic = flags.heuristic ?? (patterns ? 'patterns' : 'conflict');
  if (heuristic !== 'patterns') {
    rejectFlags(`with the ${heuristic} heuristic (these flags concern pattern databases)`, {
      '--pdb': flags.pdb,
      '--pdb-dir': flags.pdbDir,
      '--cache-dir': flags.cacheDir,
      '--no-cache': flags.cache === false,
    });
  }
}

/** Flags that the chosen source of boards would ignore are rejected. */
function checkFlags(flags: SlidingFlags): void {
  if (flags.optimal && flags.fast) throw badUsage('give --optimal or --fast, not both');
  if (flags.pdbDir !== undefined && flags.cacheDir !== undefined) throw badUsage('give --pdb-dir or --cache-dir (its former name), not both');
  if (flags.cache === false) rejectFlags('with --no-cache (nothing is read or written)', { '--pdb-dir': flags.pdbDir, '--cache-dir': flags.cacheDir });
  if (flags.random === undefined) rejectFlags('without --random', { '--seed': flags.seed });
  else rejectFlags('with --random (it gives the size)', { '--size': flags.size });
  if (flags.batch === undefined) rejectFlags('without --batch (one board is solved on this machine)', { '--queue': flags.queue });
  else rejectFlags('with --batch', { '--moves-file': flags.movesFile, '--playback': flags.playback });
  if (flags.json) rejectFlags('with --json', { '--playback': flags.playback });
  if (flags.movesFile !== undefined) {
    rejectFlags('with --moves-file (the moves go to the file)', { '--playback': flags.playback });
    if (flags.movesFile === '-' && flags.json) throw badUsage('--moves-file - writes the moves on standard output, where --json prints its object: give a file');
  }
  if (flags.fast) rejectOptimalFlags(flags, 'with --fast (the constructive solver has no limits or heuristic)');
}

function options(flags: SlidingFlags, goal: sliding.GoalInput): sliding.SlidingOptions {
  return {
    goal,
    method: flags.optimal ? 'optimal' : flags.fast ? 'fast' : 'auto',
    heuristic: flags.heuristic,
    pdb: flags.pdb,
    nodeLimit: integerOption('--node-limit', flags.nodeLimit, 1),
    timeLimit: integerOption('--time-limit', flags.timeLimit, 1),
    pdbDir: flags.cache === false ? false : (flags.pdbDir ?? flags.cacheDir),
    engine: flags.engine,
  };
}

async function readGoal(text: string | undefined, size: { rows: number; cols: number } | undefined): Promise<sliding.GoalInput> {
  if (text === undefined || text === 'default' || text === 'korf') return text ?? 'default';
  const board = sliding.parseBoard(await readInput(text), size);
  return board;
}

async function runSliding(tileArgs: string[], flags: SlidingFlags): Promise<number> {
  checkFlags(flags);
  onPatternWarning((message) => console.error(`bitpuzzle: warning: ${message}`));
  const size = flags.size ? sizeOption('--size', flags.size) : undefined;
  const sources = [tileArgs.length > 0, flags.file !== undefined, flags.batch !== undefined, flags.random !== undefined];
  if (sources.filter(Boolean).length !== 1) {
    throw new BitpuzzleError('BAD_INPUT', 'give the board as tiles, --file, --random or --batch (exactly one; see bitpuzzle sliding --help)');
  }
  const goal = await readGoal(flags.goal, size);
  if (flags.batch !== undefined) return runBatch(flags, size, goal);

  let board: sliding.Board;
  if (flags.random !== undefined) {
    const { rows, cols } = sizeOption('--random', flags.random);
    board = sliding.randomBoard(rows, cols, integerOption('--seed', flags.seed, 0, 2 ** 32 - 1) ?? 1, goal);
  } else if (flags.file !== undefined) {
    board = sliding.parseBoard(await readInput(flags.file), size);
  } else {
    const text = tileArgs.join(' ');
    const count = text.trim().split(/[\s,]+/).length;
    const side = Math.round(Math.sqrt(count));
    if (!size && side * side !== count) {
      throw new BitpuzzleError('BAD_INPUT', `${count} tiles are not a square board: give --size WxH (columns x rows)`);
    }
    board = sliding.parseBoard(text, size ?? { rows: side, cols: side });
  }
  const opts = options(flags, goal);
  const cells = board.rows * board.cols;
  const bar = progressBar('building pattern databases', 'entries');
  opts.onProgress = bar.onProgress;
  // Long searches say each IDA* iteration on stderr (bound, nodes, rate); quick ones stay quiet.
  opts.onBound = ({ bound, nodes, milliseconds }) => {
    if (milliseconds < BOUND_QUIET_MS) return;
    const rate = milliseconds > 0 ? ` (${(Number(nodes) / milliseconds / 1000).toFixed(1)}M nodes/s)` : '';
    console.error(`bound ${bound}: ${nodes.toLocaleString('en-US')} nodes, ${(milliseconds / 1000).toFixed(1)} s${rate}`);
  };

  if (flags.movesFile !== undefined) {
    if (opts.method === 'optimal') throw new BitpuzzleError('BAD_INPUT', '--moves-file streams the constructive solution: drop --optimal');
    rejectOptimalFlags(flags, 'with --moves-file (it streams the constructive solution)');
    rejectFlags('with --moves-file (the constructive solver runs on one thread)', { '--threads': flags.threads });
    return streamMoves(board, opts, flags);
  }
  if (opts.method === 'auto' && cells > sliding.AUTO_OPTIMAL_CELLS) {
    rejectOptimalFlags(flags, `on a board of more than ${sliding.AUTO_OPTIMAL_CELLS} cells without --optimal (it is solved constructively)`);
    opts.method = 'fast';
  }
  if (opts.method === 'fast') rejectFlags('with the constructive solver (one board, one thread)', { '--threads': flags.threads });
  else opts.threads = integerOption('--threads', flags.threads, 1, 1024);
  if (opts.method !== 'fast') rejectCacheFlags(flags, cells);
  if (opts.method === 'fast' && cells > MAX_PRINTED_CELLS) opts.lengthOnly = true;
  let result: sliding.SlidingSolution;
  try {
    result = await sliding.solve(board, opts);
  } finally {
    bar.stop();
  }
  // A limit that stopped the optimal search: exit 3, with the lower bound and the best path found.
  const status = stoppedEarly(result) ? EXIT.STOPPED : EXIT.ANSWERED;
  if (flags.json) {
    console.log(toJson(result));
    return status;
  }
  console.log(describe(result));
  if (result.moves !== null) {
    console.log(`moves: ${result.moves}`);
    if (result.tiles) console.log(`tiles: ${result.tiles.join(' ')}`);
    if (flags.playback) {
      if (cells > MAX_PLAYBACK_CELLS) console.log(`(no playback for boards of more than ${MAX_PLAYBACK_CELLS} cells)`);
      else console.log(`\n${sliding.playback(board, result.moves)}`);
    }
  } else if (result.method === 'fast') {
    console.log('(moves not printed for a board this large: add --moves-file FILE)');
  }
  return status;
}

/** A size option, WxH (columns x rows), its errors naming the option. */
function sizeOption(name: string, text: string): { rows: number; cols: number } {
  try {
    return sliding.parseSize(text);
  } catch (error) {
    if (error instanceof BitpuzzleError) throw badUsage(`${name}: ${error.message}`);
    throw error;
  }
}

/** An optimal search a limit stopped (its path, if any, is not proved optimal). */
const stoppedEarly = (result: sliding.SlidingSolution): boolean => result.method === 'optimal' && !result.optimal;

function describe(result: sliding.SlidingSolution): string {
  const { rows, cols, stats } = result;
  const seconds = `${(stats.milliseconds / 1000).toFixed(2)} s`;
  const how =
    result.method === 'optimal'
      ? `IDA* with ${result.heuristic}${result.patterns ? ` ${result.patterns}` : ''}, ${stats.nodes} nodes, ${seconds}` +
        (result.patternMilliseconds >= 1 ? ` (pattern databases ${(result.patternMilliseconds / 1000).toFixed(2)} s)` : '')
      : `constructive, ${seconds}`;
  if (stoppedEarly(result)) {
    const found = result.length === null ? '' : `; best found ${result.length} moves (constructive, not proved optimal)`;
    return `${cols}×${rows}: stopped by the limit; no solution is shorter than ${result.lowerBound} moves${found} (${how})`;
  }
  const quality = result.optimal ? 'optimal' : `lower bound ${result.lowerBound}`;
  return `${cols}×${rows}: ${result.length} ${result.length === 1 ? 'move' : 'moves'}, ${quality} (${how})`;
}

/** Streams the constructive solution's moves to a file (written whole or not at all) or to standard output. */
async function streamMoves(board: sliding.Board, opts: sliding.SlidingOptions, flags: SlidingFlags): Promise<number> {
  const started = performance.now();
  let length = 0;
  const counted = async function* (): AsyncGenerator<string> {
    for await (const chunk of sliding.moves(board, opts)) {
      length += chunk.length;
      yield chunk;
    }
  };
  if (flags.movesFile === '-') {
    for await (const chunk of counted()) {
      if (!process.stdout.write(chunk)) await new Promise((resolve) => process.stdout.once('drain', resolve));
    }
  } else {
    await (await OutputFile.open(flags.movesFile!)).pipe(counted());
  }
  const summary = { rows: board.rows, cols: board.cols, length, method: 'fast', stats: { nodes: 0n, milliseconds: performance.now() - started, threads: 1, parts: 1 } };
  const line = flags.json ? toJson(summary) : `${board.cols}×${board.rows}: ${length} moves (constructive, ${(summary.stats.milliseconds / 1000).toFixed(2)} s)`;
  // The moves own standard output when they go there.
  if (flags.movesFile === '-') console.error(line);
  else console.log(line);
  return EXIT.ANSWERED;
}

async function runBatch(flags: SlidingFlags, size: { rows: number; cols: number } | undefined, goal: sliding.GoalInput): Promise<number> {
  const instances = sliding.parseBatch(await readInput(flags.batch!), size);
  const opts: sliding.BatchOptions = { ...options(flags, goal), threads: integerOption('--threads', flags.threads, 1, 1024), queue: queueUrl(flags.queue), signal: queueSignal(flags.queue) };
  if (opts.method === 'auto') opts.method = 'optimal';
  if (opts.method === 'optimal' && instances.length > 0) rejectCacheFlags(flags, instances[0].board.rows * instances[0].board.cols);
  const bar = flags.queue ? queueProgress('solving') : progressBar('solving', 'boards');
  opts.onProgress = bar.onProgress;
  const started = performance.now();
  let results: sliding.SlidingSolution[];
  try {
    results = await sliding.solveBatch(
      instances.map((i) => i.board),
      opts,
    );
  } finally {
    bar.stop();
  }
  let mismatches = 0;
  const milliseconds = performance.now() - started;
  const nodes = results.reduce((sum, r) => sum + r.stats.nodes, 0n);
  const threads = Math.max(1, Math.min(opts.threads ?? availableParallelism(), results.length));
  const stopped = results.some(stoppedEarly);
  results.forEach((result, i) => {
    const { expected } = instances[i];
    if (expected !== null && result.optimal && result.length !== expected) mismatches++;
  });
  // Lengths that differ from the file's expected ones are a failed check (4); a board a limit stopped, 3.
  const status = mismatches ? EXIT.FAILURE : stopped ? EXIT.STOPPED : EXIT.ANSWERED;
  if (flags.json) {
    const solved = results.map((result, i) => ({ line: instances[i].line, expected: instances[i].expected, ...result }));
    console.log(toJson({ instances: solved, mismatches, stats: { nodes, milliseconds, threads, parts: results.length } }));
    return status;
  }
  results.forEach((result, i) => {
    const { line, expected } = instances[i];
    const check = expected === null ? '' : result.length === expected ? ' (as expected)' : ` (EXPECTED ${expected})`;
    const text = stoppedEarly(result)
      ? `stopped, no solution shorter than ${result.lowerBound}; best found ${result.length} (not proved optimal) ${result.moves}`
      : `${result.length}${result.optimal ? '' : ' (not proved optimal)'}${check} ${result.moves}`;
    console.log(`line ${line}: ${text}`);
  });
  const summary = `${results.length} instance(s) in ${(milliseconds / 1000).toFixed(2)} s, ${nodes} nodes`;
  console.error(mismatches ? `${summary}; ${mismatches} length(s) differ from the expected` : summary);
  return status;
}
