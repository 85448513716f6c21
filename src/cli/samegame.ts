// `bitpuzzle samegame`: clear a Clickomania board, leave the fewest blocks, or play SameGame for score.
import { Command, Option } from 'commander';
import { BitpuzzleError, samegame } from '../index.js';
import { EXIT, integerOption, noSolution, outcome, progressBar, readInput, rejectFlags, toJson } from './io.js';

interface SameGameFlags {
  clear?: boolean;
  minLeft?: boolean;
  score?: boolean;
  time?: string;
  nodes?: string;
  seed?: string;
  threads?: string;
  engine?: 'wasm' | 'js';
  final?: boolean;
  json?: boolean;
}

export function samegameCommand(): Command {
  return new Command('samegame')
    .summary('clear a Clickomania board, leave the fewest blocks, or play SameGame for score')
    .description(
      'Reads a board (one line per row, top row first; a digit or letter per colour, . for empty) and prints the clicks with the board after each.\n' +
        'A click is "column C, row R": C from the left, R from the bottom, both from 1, on the board as it is at that click.\n' +
        '--clear (default): can the board be emptied? (proved, or "unknown" when --time/--nodes stop it)\n' +
        '--min-left: the fewest blocks that must remain.\n' +
        '--score: the best SameGame score found in --time seconds (default 10): (n-2)² per group of n, 1000 for clearing.',
    )
    .argument('<FILE|->', "the board file, or '-' for standard input")
    .option('--clear', 'decide whether the board can be cleared')
    .option('--min-left', 'find the fewest blocks that must remain')
    .option('--score', 'play for the best score')
    .option('--time <SECONDS>', 'stop after this many seconds with the best found so far')
    .option('--nodes <N>', 'stop after this many search nodes (deterministic)')
    .option('--seed <S>', 'with --score: the seed (default 1)')
    .option('--threads <N>', 'with --score: independent runs on N threads (default: all cores)')
    .addOption(new Option('--engine <kind>', 'search engine for --clear and --min-left (default wasm)').choices(['wasm', 'js']))
    .option('--final', 'print only the final board, not the board after each click')
    .option('--json', 'print one JSON object: clicks, left, cleared, score, proved, stats')
    .addHelpText(
      'after',
      '\nExamples:\n  bitpuzzle samegame board.txt\n  bitpuzzle samegame board.txt --min-left --time 10\n  bitpuzzle samegame board.txt --score --time 30 --seed 2 --json',
    )
    .action(async (file: string, flags: SameGameFlags) => {
      outcome.status = await runSameGame(file, flags);
    });
}

async function runSameGame(file: string, flags: SameGameFlags): Promise<number> {
  const modes = [flags.clear, flags.minLeft, flags.score].filter(Boolean).length;
  if (modes > 1) throw new BitpuzzleError('BAD_INPUT', 'give one of --clear, --min-left and --score');
  if (!flags.score) rejectFlags('without --score', { '--seed': flags.seed, '--threads': flags.threads });
  else rejectFlags('with --score (it runs on the Wasm engine)', { '--engine': flags.engine });
  if (flags.json) rejectFlags('with --json (it prints only the final board)', { '--final': flags.final });
  const time = flags.time === undefined ? undefined : Number(flags.time);
  if (time !== undefined && !(time > 0 && Number.isFinite(time) && /^\s*[\d.]+\s*$/.test(flags.time!))) {
    throw new BitpuzzleError('BAD_INPUT', `--time must be a positive number of seconds, got ${JSON.stringify(flags.time)}`);
  }
  const maxNodes = integerOption('--nodes', flags.nodes, 1);
  const seed = integerOption('--seed', flags.seed, 0, 2 ** 32 - 1);
  const threads = integerOption('--threads', flags.threads, 1, 1024);
  const board = samegame.toBoard(await readInput(file));

  let result: samegame.SameGameResult;
  if (flags.score) {
    const bar = progressBar('playing', 'runs');
    try {
      result = await samegame.score(board, { time, maxNodes, seed, threads, onProgress: bar.onProgress });
    } finally {
      bar.stop();
    }
  } else {
    const search = flags.minLeft ? samegame.minLeft : samegame.clear;
    result = await search(board, { time, maxNodes, engine: flags.engine });
  }

  // clear: a board proved impossible to clear has no solution (1); one a limit stopped before
  // an answer, 3. min-left and score always answer (the best found within a limit the user set).
  const mode = flags.score ? 'score' : flags.minLeft ? 'min-left' : 'clear';
  const status = mode !== 'clear' || result.cleared ? EXIT.ANSWERED : result.proved ? EXIT.NO_SOLUTION : EXIT.STOPPED;
  if (status === EXIT.NO_SOLUTION) throw noSolution('the board cannot be cleared (proved)');
  if (flags.json) {
    const { boards, ...rest } = result;
    console.log(toJson({ mode, ...rest, final: samegame.picture(boards.at(-1) ?? board).split('\n') }));
    return status;
  }
  if (!flags.final) {
    result.clicks.forEach((click, i) => {
      console.log(`click ${i + 1}: column ${click.column}, row ${click.row}`);
      console.log(samegame.picture(result.boards[i]));
      console.log('');
    });
  } else if (result.clicks.length > 0) {
    console.log(`clicks: ${result.clicks.map((c) => `${c.column},${c.row}`).join(' ')}`);
    console.log(samegame.picture(result.boards.at(-1)!));
  }
  const proof = result.proved ? 'proved' : 'not proved';
  if (flags.score) console.log(`score ${result.score} with ${result.left} block(s) left${result.proved ? ' (the best possible)' : ''}`);
  else if (flags.minLeft) console.log(`fewest blocks left: ${result.left} (${proof})`);
  else if (result.cleared) console.log(`the board clears in ${result.clicks.length} clicks`);
  else console.log('unknown: no clear found before the limit');
  const { nodes, milliseconds, threads: used } = result.stats;
  console.error(`${nodes} nodes in ${milliseconds.toFixed(1)} ms on ${used} thread(s)`);
  return status;
}
