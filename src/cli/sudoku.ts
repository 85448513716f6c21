// `bitpuzzle sudoku`: one grid of any box size (solve, list, count), a batch of 9×9 puzzles
// (--batch), or new puzzles (--generate).
import type { Command } from 'commander';
import { BitpuzzleError } from '../errors.js';
import * as sudoku from '../sudoku/index.js';
import { EXIT, integerOption, outcome, progressBar, readInput, rejectFlags, toJson } from './io.js';
import { queueProgress, queueSignal, queueUrl } from './queue.js';
import { checkFlags, search, searchCommand, type SearchFlags } from './cover.js';

interface SudokuFlags extends SearchFlags {
  batch?: string;
  generate?: string;
  seed?: string;
  symmetric?: boolean;
}

export function sudokuCommand(): Command {
  // The grid is optional: --batch and --generate take none.
  return searchCommand('sudoku', '[FILE|-]', "the grid's file, or '-' for standard input (none with --batch or --generate)")
    .option('--batch <FILE|->', '9×9 puzzles, one a line: answer each (solutions up to --limit, default 2) and sum up')
    .option('--generate <K>', 'make K minimal 9×9 puzzles with one solution each, one a line')
    .option('--seed <S>', 'with --generate: the seed (0 to 4294967295; default random, printed)')
    .option('--symmetric', 'with --generate: clues symmetric under the half-turn')
    .summary('solve, count, batch-check or generate Sudoku')
    .description(
      "Solves a b²×b² Sudoku (4×4, 9×9, 16×16, 25×25): 9×9 and 16×16 on a dedicated engine, other sizes through exact cover. Input: a line of cells per row, '.' or '0' for an empty cell, digits 1-9 then letters A-Z; spaces, '|' and lines of '-' and '+' are ignored. One line of n² cells also works.\n" +
        'Without --count it prints the first solution (--limit K for more, --all for every one).\n' +
        '--batch FILE answers every 9×9 puzzle of FILE (81 cells a line; blank lines and lines starting with # skipped; anything after the 81st character ignored) with a line PUZZLE:COUNT:SOLUTION, then a summary line starting with #. ' +
        'A line that is not a puzzle is reported on stderr with its number, the others are still answered, and the exit status is then 2.\n' +
        '--generate K prints K puzzles in the batch format, each with its clues and the nodes of its uniqueness proof (a difficulty figure).',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  bitpuzzle sudoku puzzle.txt\n  bitpuzzle sudoku - --count --json < puzzle.txt\n' +
        '  bitpuzzle sudoku --batch top1465.txt --threads 2\n  bitpuzzle sudoku --generate 10 --seed 7 --symmetric',
    )
    .action(async (file: string | undefined, flags: SudokuFlags) => {
      outcome.status = await runSudoku(file, flags);
    });
}

async function runSudoku(file: string | undefined, flags: SudokuFlags): Promise<number> {
  const modes = [file !== undefined, flags.batch !== undefined, flags.generate !== undefined].filter(Boolean).length;
  if (modes !== 1) throw new BitpuzzleError('BAD_INPUT', 'give a grid FILE (or -), --batch FILE or --generate K (exactly one; see bitpuzzle sudoku --help)');
  if (flags.batch !== undefined) return runBatch(flags);
  if (flags.generate !== undefined) return runGenerate(flags);
  rejectFlags('with one grid (they go with --generate)', { '--seed': flags.seed, '--symmetric': flags.symmetric });
  checkFlags(flags);
  const grid = await readInput(file!);
  return search(flags, {
    label: 'sudoku',
    count: (options) => sudoku.count(grid, options),
    solutions: (options) => sudoku.solutions(grid, options),
    picture: (solution) => solution.text,
    json: (solution) => solution.grid,
  });
}

/** Lines written to stdout at a time: a big batch's answer is never one huge string. */
const LINES_PER_WRITE = 4096;

async function runBatch(flags: SudokuFlags): Promise<number> {
  rejectFlags('with --batch', { '--count': flags.count, '--all': flags.all, '--shard': flags.shard, '--seed': flags.seed, '--symmetric': flags.symmetric });
  const limit = integerOption('--limit', flags.limit, 1);
  const threads = integerOption('--threads', flags.threads, 1, 1024);
  const text = await readInput(flags.batch!);
  const bar = flags.queue ? queueProgress('sudoku batch') : progressBar('sudoku batch', 'puzzles');
  let result: sudoku.BatchResult;
  try {
    result = await sudoku.batch(text, { limit, threads, engine: flags.engine, onProgress: bar.onProgress, queue: queueUrl(flags.queue), signal: queueSignal(flags.queue) });
  } finally {
    bar.stop();
  }
  for (const { line, message } of result.errors) console.error(`bitpuzzle: BAD_INPUT: ${message.startsWith('line ') ? message : `line ${line}: ${message}`}`);
  const status = result.errors.length > 0 ? EXIT.BAD_INPUT : EXIT.ANSWERED;
  if (flags.json) {
    console.log(toJson(result));
    return status;
  }
  // Each answer as PUZZLE:COUNT:SOLUTION: the puzzle is the line's first 81 characters.
  const lines = text.split('\n');
  const { results } = result;
  for (let from = 0; from < results.length; from += LINES_PER_WRITE) {
    let chunk = '';
    for (const r of results.slice(from, from + LINES_PER_WRITE)) chunk += `${lines[r.line - 1].slice(0, 81)}:${r.count}:${r.solution ?? ''}\n`;
    process.stdout.write(chunk);
  }
  const { stats } = result;
  const unique = result.unique === null ? `${results.length - result.none} solved (uniqueness not checked with --limit 1)` : `${result.unique} unique`;
  console.log(
    `# ${result.puzzles} puzzles: ${unique}, ${result.none} none, ${result.multiple} multiple, ${result.invalid} invalid; ` +
      `${stats.nodes} nodes in ${stats.milliseconds.toFixed(1)} ms on ${stats.threads} thread(s), ${stats.parts} part(s)`,
  );
  return status;
}

async function runGenerate(flags: SudokuFlags): Promise<number> {
  rejectFlags('with --generate', {
    '--count': flags.count,
    '--all': flags.all,
    '--limit': flags.limit,
    '--shard': flags.shard,
    '--threads': flags.threads,
    '--queue': flags.queue,
  });
  const count = integerOption('--generate', flags.generate, 1, sudoku.MAX_GENERATE)!;
  const seed = integerOption('--seed', flags.seed, 0, 0xffffffff);
  const bar = progressBar('sudoku generate', 'puzzles');
  let result: sudoku.GenerateResult;
  try {
    result = await sudoku.generate({ count, seed, symmetric: flags.symmetric === true, engine: flags.engine, onProgress: bar.onProgress });
  } finally {
    bar.stop();
  }
  if (flags.json) {
    console.log(toJson(result));
    return EXIT.ANSWERED;
  }
  console.log(`# bitpuzzle sudoku --generate ${count} --seed ${result.seed}${result.symmetric ? ' --symmetric' : ''}`);
  for (const p of result.puzzles) console.log(`${p.puzzle} ${p.clues} clues, ${p.nodes} nodes`);
  return EXIT.ANSWERED;
}
