// `bitpuzzle samegame`: clear a Clickomania board, leave the fewest blocks, or play SameGame for score.
import { Command, Option } from 'commander';
import { BitpuzzleError } from '../errors.js';
import * as samegame from '../samegame/index.js';
import { EXIT, OutputFile, integerOption, noSolution, outcome, progressBar, readInput, rejectFlags, toJson } from './io.js';
import { QUEUE_OPTION_HELP, queueSignal, queueUrl } from './queue.js';

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
  batch?: string;
  queue?: string | boolean;
  random?: string;
  colours?: string;
  counts?: string;
  method?: samegame.ScoreMethod;
  nrpaBeam?: string;
  nrpaShared?: boolean;
  save?: string;
  resume?: string;
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
    .argument('[FILE|-]', "the board file, or '-' for standard input (none with --batch or --random)")
    .option('--random <WxH>', 'a random board of W columns and H rows (reproducible: --seed, default 1); alone, print it; with a mode, play it')
    .option('--colours <K>', 'with --random: colours from 1 to 10 (default 5, or as many as --counts gives)')
    .option('--counts <N,N,...>', 'with --random: the blocks of each colour, adding up to W×H (like 45,45,45,45,45), placed at random')
    .option('--clear', 'decide whether the board can be cleared')
    .option('--min-left', 'find the fewest blocks that must remain')
    .option('--score', 'play for the best score')
    .option('--time <SECONDS>', 'stop after this many seconds with the best found so far')
    .option('--nodes <N>', 'stop after this many search nodes (deterministic)')
    .option('--seed <S>', 'with --score: the seed of the search; with --random: of the board (and the search) (default 1)')
    .option('--threads <N>', 'with --score: independent runs on N threads (default: all cores)')
    .addOption(new Option('--method <name>', `with --score: beam (Monte-Carlo beam search), nrpa (nested rollout policy adaptation) or hybrid (the beam for up to a quarter of the budget, then NRPA from its best line); default hybrid from ${samegame.HYBRID_FROM_SECONDS} s or ${samegame.HYBRID_FROM_NODES.toLocaleString('en')} nodes a thread, else beam`).choices(['beam', 'nrpa', 'hybrid']))
    .option('--nrpa-shared', 'with --method nrpa or hybrid on 2 threads or more: the threads share one NRPA\'s top level (parallel NRPA) instead of playing independent runs')
    .option('--nrpa-beam <B>', 'with --method nrpa or hybrid: the policies NRPA\'s top level keeps, 1 (NRPA, default) to 16 (Beam NRPA)')
    .option('--save <FILE>', 'with --score: keep the best line so far in FILE (JSON, rewritten atomically after every round of 60 s)')
    .option('--resume <FILE>', 'with --score: start from the line saved in FILE (it must be for the same board)')
    .addOption(new Option('--engine <kind>', 'search engine for --clear and --min-left (default wasm)').choices(['wasm', 'js']))
    .option('--final', 'print only the final board, not the board after each click')
    .option('--batch <FILE>', 'play every board of FILE (boards separated by blank lines): one result per board and the total')
    .option('--queue [URL]', `with --batch --score --nodes: ${QUEUE_OPTION_HELP}`)
    .option('--json', 'print one JSON object: clicks, left, cleared, score, proved, stats')
    .addHelpText(
      'after',
      '\nExamples:\n  bitpuzzle samegame board.txt\n  bitpuzzle samegame board.txt --min-left --time 10\n  bitpuzzle samegame board.txt --score --time 30 --seed 2 --json',
    )
    .action(async (file: string | undefined, flags: SameGameFlags) => {
      outcome.status = await (flags.batch !== undefined ? runBatch(file, flags) : runSameGame(file, flags));
    });
}

/** The limits and seed every mode takes, after the checks that reject flags the mode would ignore. */
function settings(flags: SameGameFlags): { time?: number; maxNodes?: number; seed?: number; threads?: number; nrpaBeam?: number; nrpaShared?: boolean } {
  const modes = [flags.clear, flags.minLeft, flags.score].filter(Boolean).length;
  if (modes > 1) throw new BitpuzzleError('BAD_INPUT', 'give one of --clear, --min-left and --score');
  if (flags.random === undefined) rejectFlags('without --random', { '--colours': flags.colours, '--counts': flags.counts });
  if (!flags.score) {
    rejectFlags('without --score', {
      '--seed': flags.random === undefined ? flags.seed : undefined,
      '--threads': flags.threads,
      '--method': flags.method,
      '--nrpa-beam': flags.nrpaBeam,
      '--nrpa-shared': flags.nrpaShared,
      '--save': flags.save,
      '--resume': flags.resume,
    });
  }
  else rejectFlags('with --score (it runs on the Wasm engine)', { '--engine': flags.engine });
  if (flags.method !== 'nrpa' && flags.method !== 'hybrid') rejectFlags('without --method nrpa or hybrid', { '--nrpa-beam': flags.nrpaBeam, '--nrpa-shared': flags.nrpaShared });
  if (flags.json || flags.batch !== undefined) {
    rejectFlags(flags.json ? 'with --json (it prints only the final board)' : 'with --batch (it prints one line a board)', { '--final': flags.final });
  }
  const time = flags.time === undefined ? undefined : Number(flags.time);
  if (time !== undefined && !(time > 0 && Number.isFinite(time) && /^\s*[\d.]+\s*$/.test(flags.time!))) {
    throw new BitpuzzleError('BAD_INPUT', `--time must be a positive number of seconds, got ${JSON.stringify(flags.time)}`);
  }
  return {
    time,
    maxNodes: integerOption('--nodes', flags.nodes, 1),
    seed: integerOption('--seed', flags.seed, 0, 2 ** 32 - 1),
    threads: integerOption('--threads', flags.threads, 1, 1024),
    nrpaBeam: integerOption('--nrpa-beam', flags.nrpaBeam, 1, samegame.NRPA_MAX_BEAM),
    nrpaShared: flags.nrpaShared,
  };
}

/** The board of `--random WxH --colours K --counts N,N,... --seed S`. */
function randomBoard(flags: SameGameFlags): samegame.SameGameBoard {
  const size = /^\s*(\d+)\s*[x×]\s*(\d+)\s*$/.exec(flags.random!);
  if (!size) throw new BitpuzzleError('BAD_INPUT', `--random takes a size WxH (like 15x15), got ${JSON.stringify(flags.random)}`);
  const [width, height] = [Number(size[1]), Number(size[2])];
  let counts: number[] | undefined;
  if (flags.counts !== undefined) {
    if (!/^\s*\d+(\s*,\s*\d+)*\s*$/.test(flags.counts)) {
      throw new BitpuzzleError('BAD_INPUT', `--counts takes the blocks of each colour separated by commas (like 45,45,45,45,45), got ${JSON.stringify(flags.counts)}`);
    }
    counts = flags.counts.split(',').map(Number);
  }
  const colours = integerOption('--colours', flags.colours, 1, 10) ?? counts?.length ?? 5;
  const seed = integerOption('--seed', flags.seed, 0, 2 ** 32 - 1) ?? 1;
  return samegame.randomBoard({ width, height, colours, seed, ...(counts ? { counts } : {}) });
}

async function runSameGame(file: string | undefined, flags: SameGameFlags): Promise<number> {
  if (file !== undefined && flags.random !== undefined) throw new BitpuzzleError('BAD_INPUT', 'give a board file or --random, not both');
  if (file === undefined && flags.random === undefined) throw new BitpuzzleError('BAD_INPUT', 'give a board file (or --random WxH, or --batch FILE)');
  if (flags.queue) throw new BitpuzzleError('BAD_INPUT', '--queue works with --batch');
  if (flags.random !== undefined && !flags.clear && !flags.minLeft && !flags.score) return printRandom(flags);
  const { time, maxNodes, seed, threads, nrpaBeam, nrpaShared } = settings(flags);
  const board = flags.random !== undefined ? randomBoard(flags) : samegame.toBoard(await readInput(file!));

  let result: samegame.SameGameResult;
  if (flags.score) {
    const start = flags.resume === undefined ? undefined : await readSaved(flags.resume, board);
    const save = flags.save;
    // Opened first, so that a path that cannot be written fails before the search.
    let opened = save === undefined ? undefined : await OutputFile.open(save);
    // A progress line (stderr) and the saved file after every round of a long run.
    const showProgress = process.stderr.isTTY || save !== undefined;
    const onUpdate = async (update: samegame.ScoreUpdate): Promise<void> => {
      if (process.stderr.isTTY) {
        const where = update.method === 'nrpa' ? `NRPA level ${update.level}, iteration ${update.iteration + 1}/${samegame.NRPA_ITERATIONS}` : 'beam';
        console.error(`${update.seconds.toFixed(0)} s: best ${update.score} | ${where} | ${Math.round(update.playoutsPerSecond).toLocaleString('en')} playouts/s`);
      }
      if (save !== undefined) await (opened ?? (await OutputFile.open(save))).write(savedLine(board, update.score, update.clicks));
      opened = undefined;
    };
    // Saves run one after another, each awaited before the command ends.
    let saving: Promise<void> = Promise.resolve();
    try {
      result = await samegame.score(board, {
        time,
        maxNodes,
        seed,
        threads,
        method: flags.method,
        nrpaBeam,
        nrpaShared,
        start,
        onUpdate: showProgress ? (update) => void (saving = saving.then(() => onUpdate(update))) : undefined,
      });
    } finally {
      await saving;
      await opened?.discard();
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

/** The file --save writes: the board, the score and the clicks of the best line. */
function savedLine(board: samegame.SameGameBoard, score: number, clicks: samegame.Click[]): string {
  return `${JSON.stringify({ format: 'bitpuzzle-samegame-line', version: 1, board: samegame.picture(board).split('\n'), score, clicks })}\n`;
}

/** The clicks saved in FILE by --save, checked: the same board, and the clicks score what the file says. */
async function readSaved(file: string, board: samegame.SameGameBoard): Promise<samegame.Click[]> {
  const text = await readInput(file);
  let saved: { format?: unknown; version?: unknown; board?: unknown; score?: unknown; clicks?: unknown };
  try {
    saved = JSON.parse(text);
  } catch {
    throw new BitpuzzleError('BAD_INPUT', `${file}: not a line saved by --save (not JSON)`);
  }
  if (saved === null || typeof saved !== 'object' || saved.format !== 'bitpuzzle-samegame-line' || saved.version !== 1 || !Array.isArray(saved.board) || !Array.isArray(saved.clicks)) {
    throw new BitpuzzleError('BAD_INPUT', `${file}: not a line saved by --save (expected format "bitpuzzle-samegame-line", version 1, with board and clicks)`);
  }
  if (saved.board.join('\n') !== samegame.picture(board)) {
    throw new BitpuzzleError('BAD_INPUT', `${file}: the saved line is for another board (resume with the board it was saved for)`);
  }
  let played;
  try {
    played = samegame.replay(board, saved.clicks as samegame.Click[]);
  } catch (error) {
    if (error instanceof BitpuzzleError) throw new BitpuzzleError('BAD_INPUT', `${file}: ${error.message}`);
    throw error;
  }
  if (played.score !== saved.score) throw new BitpuzzleError('BAD_INPUT', `${file}: the clicks score ${played.score}, not ${JSON.stringify(saved.score)} as the file says`);
  return saved.clicks as samegame.Click[];
}

/** `--random WxH` without a mode: prints the board (text, or with --json its rows). */
function printRandom(flags: SameGameFlags): number {
  rejectFlags('with --random and no mode (it prints the board)', {
    '--time': flags.time,
    '--nodes': flags.nodes,
    '--threads': flags.threads,
    '--engine': flags.engine,
    '--final': flags.final,
  });
  const board = randomBoard(flags);
  const text = samegame.picture(board);
  if (flags.json) {
    console.log(toJson({ mode: 'random', width: board.width, height: board.height, colours: board.symbols.length, board: text.split('\n') }));
  } else console.log(text);
  return EXIT.ANSWERED;
}

/**
 * `--batch FILE`: every board of the file in the chosen mode, one line (or JSON object) per
 * board and the total score. On a queue all boards' runs go out at once.
 */
async function runBatch(file: string | undefined, flags: SameGameFlags): Promise<number> {
  if (file !== undefined) throw new BitpuzzleError('BAD_INPUT', 'give the boards with --batch FILE, not also a board file');
  rejectFlags('with --batch', { '--random': flags.random, '--save': flags.save, '--resume': flags.resume });
  const queue = queueUrl(flags.queue);
  const signal = queueSignal(flags.queue);
  if (queue && !flags.score) throw new BitpuzzleError('BAD_INPUT', '--queue works with --score');
  const { time, maxNodes, seed, threads, nrpaBeam, nrpaShared } = settings(flags);
  const started = performance.now();
  const text = await readInput(flags.batch!);
  const chunks = text.replace(/\r/g, '').split(/\n\s*\n/).filter((chunk) => chunk.trim() !== '');
  if (chunks.length === 0) throw new BitpuzzleError('BAD_INPUT', `${flags.batch}: no boards (boards are separated by blank lines)`);
  const boards = chunks.map((chunk, i) => {
    try {
      return samegame.toBoard(chunk);
    } catch (error) {
      if (error instanceof BitpuzzleError) throw new BitpuzzleError(error.code, `board ${i + 1}: ${error.message}`);
      throw error;
    }
  });
  const playOne = (board: samegame.SameGameBoard): Promise<samegame.SameGameResult> =>
    flags.score
      ? samegame.score(board, { time, maxNodes, seed, threads, queue, signal, method: flags.method, nrpaBeam, nrpaShared })
      : (flags.minLeft ? samegame.minLeft : samegame.clear)(board, { time, maxNodes, engine: flags.engine });
  const bar = progressBar('playing', 'boards');
  const results: samegame.SameGameResult[] = [];
  try {
    if (queue) results.push(...(await Promise.all(boards.map(playOne))));
    else for (const board of boards) {
      results.push(await playOne(board));
      bar.onProgress({ done: results.length, total: boards.length });
    }
  } finally {
    bar.stop();
  }
  const total = results.reduce((sum, r) => sum + r.score, 0);
  if (flags.json) {
    const mode = flags.score ? 'score' : flags.minLeft ? 'min-left' : 'clear';
    const stats = {
      nodes: results.reduce((sum, r) => sum + r.stats.nodes, 0n),
      milliseconds: performance.now() - started,
      threads: Math.max(...results.map((r) => r.stats.threads)),
      parts: results.reduce((sum, r) => sum + r.stats.parts, 0),
    };
    const played = results.map(({ boards: _, ...rest }) => rest);
    console.log(toJson({ mode, boards: played, total: { score: total, cleared: results.filter((r) => r.cleared).length }, stats }));
    return EXIT.ANSWERED;
  }
  results.forEach((r, i) => console.log(`board ${i + 1}: score ${r.score}, ${r.left} block(s) left${r.proved ? ' (proved)' : ''}`));
  console.log(`total: score ${total} over ${results.length} boards, ${results.filter((r) => r.cleared).length} cleared`);
  return EXIT.ANSWERED;
}
