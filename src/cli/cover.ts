// `bitpuzzle cover`: exact cover of a matrix in the text format (see the README), and
// `bitpuzzle sudoku`: Sudoku grids of any box size, solved through exact cover.
import { Command, Option } from 'commander';
import { BitpuzzleError, cover, sudoku } from '../index.js';
import { integerOption, listLimit, progressBar, readInput, toJson } from './io.js';

interface SearchFlags {
  count?: boolean;
  limit?: string;
  all?: boolean;
  threads?: string;
  shard?: string;
  engine?: 'wasm' | 'js';
  json?: boolean;
}

/** The options both commands share. */
function searchCommand(name: string): Command {
  return new Command(name)
    .argument('<FILE|->', "the input file, or '-' for standard input")
    .option('--count', 'count solutions instead of listing them')
    .option('--limit <K>', 'list at most K solutions (default 1)')
    .option('--all', 'list every solution')
    .option('--threads <N>', 'worker threads for --count (default: all cores)')
    .option('--shard <k/n>', 'with --count: count only the k-th of n deterministic parts')
    .addOption(new Option('--engine <kind>', 'search engine').choices(['wasm', 'js']).default('wasm'))
    .option('--json', 'print one JSON object');
}

async function countWith<R>(label: string, flags: SearchFlags, count: (options: cover.CountOptions) => Promise<R>): Promise<R> {
  const threads = integerOption('--threads', flags.threads, 1, 1024);
  const bar = progressBar(label);
  try {
    return await count({ threads, shard: flags.shard, engine: flags.engine, onProgress: bar.onProgress });
  } finally {
    bar.stop();
  }
}

function checkFlags(flags: SearchFlags): number {
  if (flags.shard && !flags.count) throw new BitpuzzleError('BAD_INPUT', '--shard works with --count');
  return listLimit(flags);
}

const statsLine = (stats: cover.CoverStats): string =>
  `${stats.nodes} nodes in ${stats.milliseconds.toFixed(1)} ms on ${stats.threads} thread(s), ${stats.parts} part(s)`;

export function coverCommand(): Command {
  return searchCommand('cover')
    .summary('exact cover of a matrix given as text')
    .description(
      'Finds sets of rows that cover every primary column exactly once and every secondary column at most once (Knuth\'s Algorithm X with dancing links).\n' +
        'Input: "primary: a b c" (and optionally "secondary: x y"), then one row per line naming its columns, optionally after a row name and a colon ("r1: a b"); "#" starts a comment.\n' +
        'Without --count it prints the first solution (--limit K for more, --all for every one).',
    )
    .addHelpText('after', '\nExamples:\n  bitpuzzle cover knuth.txt --all\n  bitpuzzle cover - --count --json < matrix.txt')
    .action(async (file: string, flags: SearchFlags) => runCover(file, flags));
}

async function runCover(file: string, flags: SearchFlags): Promise<void> {
  const limit = checkFlags(flags);
  const problem = cover.parseCover(await readInput(file));
  if (flags.count) {
    const result = await countWith('exact cover', flags, (options) => cover.count(problem, options));
    if (flags.json) {
      console.log(toJson(result));
      return;
    }
    const shard = result.shard ? ` in shard ${result.shard.index}/${result.shard.count}` : '';
    console.log(`${result.total} solutions${shard}${result.reason ? `: ${result.reason}` : ''}`);
    console.log(statsLine(result.stats));
    return;
  }
  const started = performance.now();
  const lines = problem.lines ?? [];
  // A row as written: its name, if any, then its columns.
  const rowText = (row: number): string => {
    const { rowStarts, cells } = problem.matrix;
    const columns = Array.from(cells.subarray(rowStarts[row], rowStarts[row + 1]), (c) => problem.columnNames[c]).join(' ');
    return problem.rowNames ? `${problem.rowNames[row]}: ${columns}` : columns;
  };
  const found: Array<cover.CoverSolution & { lines: number[] }> = [];
  for await (const solution of cover.solutions(problem, { limit, engine: flags.engine })) {
    found.push({ ...solution, lines: solution.rows.map((row) => lines[row]) });
    if (!flags.json) {
      if (found.length > 1) console.log('');
      console.log(`solution ${found.length}:`);
      for (const row of solution.rows) console.log(`  ${rowText(row)}`);
    }
  }
  const milliseconds = performance.now() - started;
  if (flags.json) {
    console.log(toJson({ solutions: found, stats: { milliseconds } }));
    return;
  }
  if (found.length === 0) console.log(`no solution${problem.reason ? `: ${problem.reason}` : ''}`);
  console.error(`${found.length} solution(s) in ${milliseconds.toFixed(1)} ms`);
}

export function sudokuCommand(): Command {
  return searchCommand('sudoku')
    .summary('solve or count Sudoku grids of any box size')
    .description(
      "Solves a b²×b² Sudoku (4×4, 9×9, 16×16, 25×25) through exact cover. Input: a line of cells per row, '.' or '0' for an empty cell, digits 1-9 then letters A-Z; spaces, '|' and lines of '-' and '+' are ignored. One line of n² cells also works.\n" +
        'Without --count it prints the first solution (--limit K for more, --all for every one).',
    )
    .addHelpText('after', '\nExamples:\n  bitpuzzle sudoku puzzle.txt\n  bitpuzzle sudoku - --count --json < puzzle.txt')
    .action(async (file: string, flags: SearchFlags) => runSudoku(file, flags));
}

async function runSudoku(file: string, flags: SearchFlags): Promise<void> {
  const limit = checkFlags(flags);
  const grid = await readInput(file);
  if (flags.count) {
    const result = await countWith('sudoku', flags, (options) => sudoku.count(grid, options));
    if (flags.json) {
      console.log(toJson(result));
      return;
    }
    console.log(`${result.total} solutions`);
    console.log(statsLine(result.stats));
    return;
  }
  const started = performance.now();
  const found: number[][][] = [];
  for await (const solution of sudoku.solutions(grid, { limit, engine: flags.engine })) {
    found.push(solution.grid);
    if (!flags.json) {
      if (found.length > 1) console.log('');
      console.log(`solution ${found.length}:\n${solution.text}`);
    }
  }
  const milliseconds = performance.now() - started;
  if (flags.json) {
    console.log(toJson({ solutions: found, stats: { milliseconds } }));
    return;
  }
  if (found.length === 0) console.log('no solution');
  console.error(`${found.length} solution(s) in ${milliseconds.toFixed(1)} ms`);
}
