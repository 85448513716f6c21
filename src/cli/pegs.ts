// `bitpuzzle pegs`: solve peg solitaire, prove the fewest moves, count the solutions.
import { Command, Option } from 'commander';
import { existsSync } from 'node:fs';
import { pegs } from '../index.js';
import { EXIT, badUsage, integerOption, noSolution, outcome, progressBar, readInput, rejectFlags, toJson } from './io.js';

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
    .option('--min-moves', 'prove the fewest moves and print a shortest solution')
    .option('--count', 'count every solution (jump sequences) exactly')
    .addOption(new Option('--engine <kind>', 'search engine (default wasm; --min-moves: wasm only)').choices(['wasm', 'js']))
    .option('--threads <N>', 'worker threads for --count (default: all cores on boards of 30 holes or more; Wasm only)')
    .option('--json', 'print one JSON object')
    .addHelpText(
      'after',
      '\nExamples:\n  bitpuzzle pegs\n  bitpuzzle pegs --board french --start c1 --finish any\n  bitpuzzle pegs --board triangle5 --finish any --count --json\n  bitpuzzle pegs --board triangle5 --min-moves',
    )
    .action(async (flags: PegsFlags) => {
      outcome.status = await runPegs(flags);
    });
}

async function runPegs(flags: PegsFlags): Promise<number> {
  if (flags.minMoves && flags.count) throw badUsage('give --min-moves or --count, not both');
  if (!flags.count) rejectFlags('without --count (only counting runs on threads)', { '--threads': flags.threads });
  if (flags.engine === 'js') rejectFlags('with --engine js (the TS twin counts on the calling thread)', { '--threads': flags.threads });
  const threads = integerOption('--threads', flags.threads, 1, 1024);
  const input: pegs.PegsInput = {
    board: await fileOrText('--board', flags.board),
    start: await fileOrText('--start', flags.start),
    finish: await fileOrText('--finish', flags.finish),
  };
  const options = { engine: flags.engine };
  if (flags.count) {
    const bar = progressBar('counting', 'levels');
    let counted: pegs.PegsCount;
    try {
      counted = await pegs.count(input, { ...options, threads, onProgress: bar.onProgress });
    } finally {
      bar.stop();
    }
    const board = pegs.toBoard(input.board).name;
    if (flags.json) {
      console.log(toJson({ board, ...counted }));
      return EXIT.ANSWERED;
    }
    const { stats } = counted;
    console.log(`${counted.total} solutions (jump sequences)${counted.reason ? `: ${counted.reason}` : ''}`);
    if (!counted.reason) {
      const levels = counted.levels.map((n, pegCount) => `${pegCount}: ${n}`).filter((_, pegCount) => counted.levels[pegCount] > 0);
      console.log(`positions searched per peg count, up to symmetry: ${levels.reverse().join(', ')}`);
    }
    console.error(`counted in ${(stats.milliseconds / 1000).toFixed(2)} s on ${stats.threads} thread(s), ${stats.nodes} positions`);
    return EXIT.ANSWERED;
  }

  const problem = pegs.toProblem(input);
  let found: pegs.PegsSolution | pegs.PegsMinMoves | null;
  if (flags.minMoves) {
    const bar = progressBar('searching', 'levels');
    try {
      found = await pegs.minMoves(problem, { ...options, onProgress: bar.onProgress });
    } finally {
      bar.stop();
    }
  } else {
    found = await pegs.solve(problem, options);
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
