// `bitpuzzle pegs`: solve peg solitaire, prove the fewest moves, count the solutions.
import { Command, Option } from 'commander';
import { existsSync } from 'node:fs';
import { pegs } from '../index.js';
import { integerOption, progressBar, readInput, toJson } from './io.js';

interface PegsFlags {
  board?: string;
  start?: string;
  finish?: string;
  minMoves?: boolean;
  count?: boolean;
  engine?: 'wasm' | 'js';
  threads?: string;
  json?: boolean;
}

/** A built-in name or hole name as given; anything naming an existing file (or -) is read. */
async function fileOrText(value: string | undefined): Promise<string | undefined> {
  if (value === undefined) return undefined;
  if (value === '-' || (existsSync(value) && !pegs.BOARD_NAMES.includes(value))) return readInput(value);
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
    .option('--min-moves', 'prove the fewest moves and print a shortest solution')
    .option('--count', 'count every solution (jump sequences) exactly')
    .addOption(new Option('--engine <kind>', 'search engine (--min-moves: wasm only)').choices(['wasm', 'js']).default('wasm'))
    .option('--threads <N>', 'worker threads for --count (default: all cores on boards of 30 holes or more; Wasm only)')
    .option('--json', 'print one JSON object')
    .addHelpText(
      'after',
      '\nExamples:\n  bitpuzzle pegs\n  bitpuzzle pegs --board french --start c1 --finish any\n  bitpuzzle pegs --board triangle5 --finish any --count --json\n  bitpuzzle pegs --board triangle5 --min-moves',
    )
    .action(async (flags: PegsFlags) => runPegs(flags));
}

async function runPegs(flags: PegsFlags): Promise<void> {
  const input: pegs.PegsInput = {
    board: await fileOrText(flags.board),
    start: await fileOrText(flags.start),
    finish: await fileOrText(flags.finish),
  };
  const threads = flags.threads === undefined ? undefined : integerOption('--threads', flags.threads, 1, 1024);
  const problem = pegs.toProblem(input);
  const options = { engine: flags.engine };
  const out: Record<string, unknown> = { board: problem.board.name };
  const bar = progressBar('searching', 'levels');
  let jumps: string[] | null = null;
  try {
    if (flags.minMoves) {
      const best = await pegs.minMoves(problem, { ...options, onProgress: bar.onProgress });
      jumps = best.jumps;
      Object.assign(out, { moves: best.moves, jumps, stats: best.stats });
    } else {
      const found = await pegs.solve(problem, options);
      jumps = found?.jumps ?? null;
      Object.assign(out, { jumps, stats: found?.stats });
    }
    if (flags.count) {
      const counted = await pegs.count(problem, { ...options, threads, onProgress: bar.onProgress });
      Object.assign(out, { total: counted.total, levels: counted.levels, countStats: counted.stats });
    }
  } finally {
    bar.stop();
  }
  if (flags.json) {
    console.log(toJson(out));
    return;
  }
  if (!jumps) console.log('no solution');
  else {
    const moves = pegs.groupMoves(jumps);
    console.log(`${jumps.length} jumps in ${moves.length} moves${flags.minMoves ? ' (the fewest possible)' : ''}:`);
    console.log(moves.join(' '));
    const pictures = pegs.movePictures(problem.board, problem.start, jumps);
    pictures.forEach((picture, i) => console.log(`\n${i === 0 ? 'start' : `after move ${i} (${moves[i - 1]})`}:\n${picture}`));
  }
  if (flags.count) {
    const stats = out.countStats as pegs.PegsCount['stats'];
    console.log(`\n${out.total} solutions (jump sequences), counted in ${(stats.milliseconds / 1000).toFixed(2)} s on ${stats.threads} thread(s)`);
    const levels = (out.levels as number[]).map((n, pegCount) => `${pegCount}: ${n}`).filter((_, pegCount) => (out.levels as number[])[pegCount] > 0);
    console.log(`positions searched per peg count, up to symmetry: ${levels.reverse().join(', ')}`);
  }
}
