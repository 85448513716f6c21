// `bitpuzzle pegs`: solve peg solitaire, prove the fewest moves, count the solutions.
import { Command, Option } from 'commander';
import { existsSync } from 'node:fs';
import type { Progress } from '../parallel/pool.js';
import * as pegs from '../pegs/index.js';
import { EXIT, abortOnInterrupt, badUsage, eachSolution, integerOption, listLimit, sizeOption, noSolution, outcome, progressBar, readInput, rejectFlags, toJson } from './io.js';

interface PegsFlags {
  board?: string;
  start?: string;
  finish?: string;
  minMoves?: boolean;
  method?: pegs.MinMovesMethod;
  lengthOnly?: boolean;
  count?: boolean;
  engine?: 'wasm' | 'js';
  threads?: string;
  maxMemory?: string;
  spill?: boolean;
  spillDir?: string;
  spillAbove?: string;
  maxDisk?: string;
  checkpoint?: string;
  all?: boolean;
  limit?: string;
  json?: boolean;
}

/** A built-in name or hole name as given; anything naming an existing file (or -) is read. */
async function fileOrText(option: string, value: string | undefined): Promise<string | undefined> {
  if (value === undefined) return undefined;
  if (value === '-' || (existsSync(value) && !pegs.BOARD_NAMES.includes(value))) {
    const text = await readInput(value);
    if (text.trim() === '') {
      const where = value === '-' ? 'standard input' : JSON.stringify(value);
      throw badUsage(`${option}: ${where} is empty; a picture has a line per row: 'o' a peg, '.' an empty hole, space or '#' off the board`);
    }
    return text;
  }
  return value;
}

export function pegsCommand(): Command {
  return new Command('pegs')
    .summary('peg solitaire: a solution, the fewest moves, the number of solutions')
    .description(
      'Solves peg solitaire on a built-in board or a board drawn in a file (o a peg, . an empty hole, space or # off the board).\n' +
        'Holes are named by column letter and row number (a1 top-left; the English centre is d4); a jump is d2-d4, a move d2-d4-f4.',
    )
    .option('--board <NAME|FILE>', `board: ${pegs.BOARD_NAMES.join(', ')}, or a picture file (default english)`)
    .option('--start <HOLES|FILE>', 'holes left empty at the start (e.g. d4 or "d4,c1"), or a picture file (default: the board picture)')
    .option('--finish <HOLE|any|FILE>', 'one peg at HOLE, one peg anywhere, or a picture (default: the hole the start leaves empty, if one)')
    .option('--min-moves', 'prove the fewest moves and print a shortest solution (with --count: count the shortest solutions; with --all or --limit: list them)')
    .addOption(
      new Option(
        '--method <how>',
        'with --min-moves: moves (from both ends, every position in one table), deepening (iterative deepening, within memory), levels (levels of pegs from both ends as --count goes, levels on disk too, then a solution through where they met); default auto: moves up to 33 holes, deepening past them, levels with --length-only',
      ).choices(['auto', 'moves', 'deepening', 'levels']),
    )
    .option('--length-only', 'with --min-moves: prove the fewest moves alone, by levels (--method levels without its solution)')
    .option('--count', 'count every solution (jump sequences) exactly')
    .option('--all', 'with --min-moves: list every fewest-move solution')
    .option('--limit <K>', 'with --min-moves: list the first K fewest-move solutions')
    .option('--max-memory <SIZE>', 'most memory the engine may use, e.g. 4G, 512M, 1.5G or bytes (default 1G)')
    .addOption(new Option('--engine <kind>', 'search engine (default wasm; --min-moves alone: wasm only; with --count, --all or --limit the twin counts another way)').choices(['wasm', 'js']))
    .option('--threads <N>', 'worker threads for --count (default 1: the calling thread, the least memory; Wasm only)')
    .option('--spill-dir <DIR>', 'with --count or --length-only: where levels that do not fit in --max-memory go to disk, in a temporary folder removed at the end (default the OS temporary folder)')
    .option('--no-spill', 'with --count or --length-only: keep every level in memory (OUT_OF_MEMORY when they do not fit)')
    .option('--max-disk <SIZE>', 'with --count or --length-only: the most disk the levels on disk take, e.g. 20G (default: the free space less 64M); a level that would need more is built in rounds')
    .option('--checkpoint <DIR>', 'with --count or --min-moves --length-only: keep checkpoints in DIR (levels on disk in DIR/levels) and resume from the one there; Ctrl-C saves one and exits 3')
    .option('--spill-above <SIZE>', 'with --count: the most memory the levels take before they go to disk, e.g. 2G (default 480M, at most --max-memory)')
    .option('--json', 'print one JSON object')
    .addHelpText(
      'after',
      '\nExamples:\n  bitpuzzle pegs\n  bitpuzzle pegs --board french --start c1 --finish any\n  bitpuzzle pegs --board triangle5 --finish any --count --json\n  bitpuzzle pegs --board triangle5 --min-moves\n  bitpuzzle pegs --board french --start d3 --finish d5 --min-moves --length-only\n  bitpuzzle pegs --board french --start d3 --finish d5 --min-moves --method levels\n  bitpuzzle pegs --board triangle5 --finish any --min-moves --count\n  bitpuzzle pegs --board triangle5 --min-moves --limit 3',
    )
    .action(async (flags: PegsFlags) => {
      outcome.status = await runPegs(flags);
    });
}

async function runPegs(flags: PegsFlags): Promise<number> {
  if (!flags.count || flags.minMoves) rejectFlags('without --count, or with --min-moves (only counting every solution runs on threads)', { '--threads': flags.threads });
  if (!flags.minMoves) rejectFlags('without --min-moves (they list the fewest-move solutions)', { '--all': flags.all, '--limit': flags.limit });
  if (flags.count) rejectFlags('with --count (it counts; --all and --limit list)', { '--all': flags.all, '--limit': flags.limit });
  if (flags.engine === 'js') rejectFlags('with --engine js (the TS twin counts on the calling thread)', { '--threads': flags.threads });
  const threads = integerOption('--threads', flags.threads, 1, 1024);
  // Only the count on the calling thread puts levels on disk.
  const diskFlags = { '--spill-dir': flags.spillDir, '--spill-above': flags.spillAbove, '--max-disk': flags.maxDisk };
  const spillFlags = { ...diskFlags, '--no-spill': flags.spill === false ? true : undefined };
  if (flags.spill === false) rejectFlags('with --no-spill (nothing goes to disk)', diskFlags);
  if (!flags.minMoves) rejectFlags('without --min-moves', { '--length-only': flags.lengthOnly, '--method': flags.method });
  const checkpointed = (flags.count && !flags.minMoves) || (flags.minMoves && flags.lengthOnly && !flags.count);
  if (!checkpointed) rejectFlags('without --count, or --min-moves --length-only (checkpoints are of those counts by levels)', { '--checkpoint': flags.checkpoint });
  if (flags.count || flags.all || flags.limit !== undefined) rejectFlags('with --count, --all or --limit (they take the search from both ends)', { '--method': flags.method });
  if (flags.count || flags.all || flags.limit !== undefined) rejectFlags('with --count, --all or --limit (it proves the fewest moves alone)', { '--length-only': flags.lengthOnly });
  // Counting every solution, and the fewest moves by levels, put levels on disk.
  const byLevels = flags.minMoves && (flags.lengthOnly || flags.method === 'levels');
  const levelsOnDisk = (flags.count && !flags.minMoves) || byLevels;
  if (!levelsOnDisk) rejectFlags('without --count, or --min-moves with --method levels or --length-only (only those put levels on disk)', spillFlags);
  if (flags.engine === 'js') rejectFlags('with --engine js (that count keeps its levels in memory)', spillFlags);
  if ((threads ?? 1) > 1) rejectFlags('with --threads above 1 (levels go to disk only where the shared memory does not hold the count, with the defaults; --no-spill keeps them in memory)', diskFlags);
  const maxMemory = sizeOption('--max-memory', flags.maxMemory);
  const spillAbove = sizeOption('--spill-above', flags.spillAbove);
  const maxDisk = sizeOption('--max-disk', flags.maxDisk);
  const input: pegs.PegsInput = {
    board: await fileOrText('--board', flags.board),
    start: await fileOrText('--start', flags.start),
    finish: await fileOrText('--finish', flags.finish),
  };
  // Ctrl-C aborts the run, which ends with ABORTED (as JSON with --json); a count (or the
  // fewest moves by levels) then removes its levels on disk (gigabytes, perhaps).
  const counting = flags.count && !flags.minMoves;
  const interrupt = abortOnInterrupt(
    flags.checkpoint !== undefined ? `saving a checkpoint in ${flags.checkpoint}` : counting || byLevels ? 'removing the levels on disk, if any' : 'ending the search',
  );
  const options = { engine: flags.engine, maxMemory, signal: interrupt.signal };
  try {
    if (flags.minMoves && flags.count) return await countOptimal(input, options, flags);
    if (flags.minMoves && (flags.all || flags.limit !== undefined)) return await listOptimal(input, options, flags);
    const spill = {
      ...(flags.spill === false ? { spill: false } : {}),
      ...(flags.spillDir !== undefined ? { spillDir: flags.spillDir } : {}),
      ...(spillAbove !== undefined ? { spillAbove } : {}),
      ...(maxDisk !== undefined ? { maxDisk } : {}),
    };
    if (counting) return await countAll(input, { ...options, threads, ...spill, ...(flags.checkpoint !== undefined ? { checkpoint: flags.checkpoint, onCheckpoint: sayCheckpoint } : {}) }, flags);
    if (flags.lengthOnly) {
      const checkpoint = flags.checkpoint !== undefined ? { checkpoint: flags.checkpoint, onCheckpoint: sayCheckpoint } : {};
      return await fewestLength(input, { ...options, ...spill, ...checkpoint, method: flags.method }, flags);
    }
    return await solveOne(input, { ...options, ...spill, method: flags.method }, flags);
  } finally {
    interrupt.dispose();
  }
}

/** Runs a search with a progress bar on stderr, cleared when it ends. */
async function withBar<R>(label: string, unit: string, search: (onProgress: (p: Progress) => void) => Promise<R>): Promise<R> {
  const bar = progressBar(label, unit);
  try {
    return await search(bar.onProgress);
  } finally {
    bar.stop();
  }
}

/** With --json, prints the result after the board's name: true when printed. */
function printedJson(input: pegs.PegsInput, result: object, flags: PegsFlags): boolean {
  if (flags.json) console.log(toJson({ board: pegs.toBoard(input.board).name, ...result }));
  return flags.json === true;
}

/** What a count with --checkpoint says on stderr: where it resumed from, and each save. */
function sayCheckpoint(event: pegs.CheckpointEvent): void {
  const size = (bytes: number): string => (bytes >= 2 ** 30 ? `${(bytes / 2 ** 30).toFixed(1)} GiB` : `${(bytes / 2 ** 20).toFixed(1)} MiB`);
  const disk = `${event.levelBytes > 0 ? ` and ${size(event.levelBytes)} of levels on disk` : ''}; ${size(event.free)} free`;
  if (event.kind === 'resumed') console.error(`bitpuzzle: resuming from the checkpoint in ${event.dir}: level ${event.step} of ${event.steps}, ${size(event.bytes)} of engine state kept${disk}`);
  else if (event.kind === 'saved') console.error(`bitpuzzle: checkpoint saved in ${event.dir}: level ${event.step} of ${event.steps}, ${size(event.bytes)} of engine state${disk}`);
  else if (event.kind === 'answered') console.error(`bitpuzzle: ${event.dir} holds a finished answer: it is printed again`);
}

/** --count: every jump sequence from the start to the finish. */
async function countAll(input: pegs.PegsInput, options: pegs.CountOptions, flags: PegsFlags): Promise<number> {
  const counted = await withBar('counting', 'levels', (onProgress) => pegs.count(input, { ...options, onProgress }));
  if (printedJson(input, counted, flags)) return EXIT.ANSWERED;
  const { stats } = counted;
  console.log(`${counted.total} solutions (jump sequences)${counted.reason ? `: ${counted.reason}` : ''}`);
  if (!counted.reason) {
    const levels = counted.levels.map((n, pegCount) => `${pegCount}: ${n}`).filter((_, pegCount) => counted.levels[pegCount] > 0);
    console.log(`positions searched per peg count, up to symmetry: ${levels.reverse().join(', ')}`);
  }
  console.error(`counted in ${(stats.milliseconds / 1000).toFixed(2)} s on ${stats.threads} thread(s), ${stats.nodes} positions`);
  return EXIT.ANSWERED;
}

/** --min-moves --length-only: the fewest moves, proved by levels, without a solution. */
async function fewestLength(input: pegs.PegsInput, options: pegs.MinMovesOptions, flags: PegsFlags): Promise<number> {
  const found = await withBar('searching', 'levels', (onProgress) => pegs.minMoves(input, { ...options, lengthOnly: true, onProgress }));
  if (!found) throw noSolution('no sequence of jumps reaches the finish');
  if (printedJson(input, found, flags)) return EXIT.ANSWERED;
  console.log(`${found.length} moves at fewest (proved by levels of pegs from both ends; no solution listed)`);
  console.error(`in ${(found.stats.milliseconds / 1000).toFixed(2)} s, ${found.stats.nodes} positions, ${found.memory} bytes of engine memory`);
  return EXIT.ANSWERED;
}

/** A solution, or with --min-moves one of the fewest moves. */
async function solveOne(input: pegs.PegsInput, options: SolveOptions, flags: PegsFlags): Promise<number> {
  const problem = pegs.toProblem(input);
  let found: pegs.PegsSolution | pegs.PegsMinMoves | null;
  if (flags.minMoves) {
    found = await withBar('searching', 'levels', (onProgress) => pegs.minMoves(problem, { ...options, onProgress }));
  } else {
    found = await pegs.solve(problem, { engine: options.engine, maxMemory: options.maxMemory, signal: options.signal });
  }
  // A search that ends without a solution: no solution (exit 1), as the error object with --json.
  if (!found) throw noSolution('the search found no sequence of jumps from the start to the finish');
  if (flags.json) {
    console.log(toJson({ board: problem.board.name, ...found }));
    return EXIT.ANSWERED;
  }
  const { jumps, moves } = found;
  console.log(`${jumps.length} jumps in ${moves.length} moves${flags.minMoves ? ' (the fewest possible)' : ''}:`);
  console.log(moves.join(' '));
  const pictures = pegs.movePictures(problem.board, problem.start, jumps);
  pictures.forEach((picture, i) => console.log(`\n${i === 0 ? 'start' : `after move ${i} (${moves[i - 1]})`}:\n${picture}`));
  return EXIT.ANSWERED;
}

type CliOptions = { engine?: 'wasm' | 'js'; maxMemory?: number; signal?: AbortSignal };
/** A solve, or --min-moves by the method given (levels on disk with --method levels). */
type SolveOptions = CliOptions & Pick<pegs.MinMovesOptions, 'method' | 'spill' | 'spillDir' | 'spillAbove' | 'maxDisk'>;

/** --min-moves --count: the fewest moves and how many solutions take that many. */
async function countOptimal(input: pegs.PegsInput, options: CliOptions, flags: PegsFlags): Promise<number> {
  const counted = await withBar('counting', 'passes', (onProgress) => pegs.countOptimal(input, { ...options, onProgress }));
  if (printedJson(input, counted, flags)) return EXIT.ANSWERED;
  if (counted.length === null) {
    console.log(`0 solutions${counted.reason ? `: ${counted.reason}` : ' (no sequence of jumps reaches the finish)'}`);
  } else {
    const up = counted.distinct === null ? '' : `, ${counted.distinct} up to the ${counted.symmetries} symmetries the start and finish share`;
    console.log(`${counted.length} moves at fewest; ${counted.total} solutions (jump sequences) take ${counted.length} moves${up}`);
  }
  const { stats } = counted;
  console.error(`counted in ${(stats.milliseconds / 1000).toFixed(2)} s, ${stats.nodes} positions, ${counted.memory} bytes of engine memory`);
  return EXIT.ANSWERED;
}

/** --min-moves --all / --limit K: the fewest-move solutions, in a stable order. */
async function listOptimal(input: pegs.PegsInput, options: CliOptions, flags: PegsFlags): Promise<number> {
  const limit = listLimit(flags);
  const found: pegs.PegsOptimalSolution[] = [];
  const bar = progressBar('searching', 'passes');
  let stats: pegs.PegsStats;
  try {
    stats = await eachSolution(pegs.optimalSolutions(input, { ...options, limit, onProgress: bar.onProgress }), (solution) => {
      bar.stop();
      found.push(solution);
      if (!flags.json) console.log(`${found.length}: ${solution.moves.map((move) => move.join('-')).join(' ')}`);
    });
  } finally {
    bar.stop();
  }
  if (found.length === 0 && limit > 0) throw noSolution('the search found no sequence of jumps from the start to the finish');
  const board = pegs.toBoard(input.board).name;
  if (flags.json) {
    console.log(toJson({ board, length: found[0]?.length ?? null, solutions: found, stats }));
    return EXIT.ANSWERED;
  }
  console.error(`${found.length} solution(s) of ${found[0]?.length ?? 0} moves in ${stats.milliseconds.toFixed(1)} ms`);
  return EXIT.ANSWERED;
}
