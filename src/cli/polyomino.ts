// `bitpuzzle polyomino`: tile a region with polyominoes — count, list, draw.
import { Command, Option } from 'commander';
import { BitpuzzleError } from '../errors.js';
import * as polyomino from '../polyomino/index.js';
import { EXIT, OutputFile, eachSolution, integerOption, noSolution, outcome, progressBar, readInput, rejectFlags, toJson } from './io.js';
import { QUEUE_OPTION_HELP, queueProgress, queueSignal, queueUrl } from './queue.js';

interface PolyominoFlags {
  queue?: string | boolean;
  region: string;
  pieces?: string[];
  count?: boolean;
  limit?: string;
  all?: boolean;
  distinct?: boolean;
  json?: boolean;
  svg?: string;
  colour?: boolean;
  threads?: string;
  shard?: string;
  engine?: 'wasm' | 'js';
}

export function polyominoCommand(): Command {
  return new Command('polyomino')
    .summary('fill a region with polyominoes: count, list or draw the tilings')
    .description(
      'Tiles a region with a set of pieces, each used as often as its count says. Without --count it prints the first solution as a letter grid (--limit K for more, --all for every one).\n' +
        'In space (a box like 3x3x3, or a picture of layers separated by a line --) the pieces turn in space and a solution prints as its layers side by side, the top first.\n' +
        `Piece sets: ${polyomino.PIECE_SETS.join(', ')}, or a file of piece pictures (see the README).`,
    )
    .option('--region <WxH|WxHxD|FILE|->', "a rectangle like 6x10, a box like 3x4x5, or a picture file ('.' a cell, '#' or space outside; layers separated by a line --)", '6x10')
    .option('--pieces <SET|FILE>', 'a built-in set or a piece file; repeat to combine (default: pentominoes)', collect)
    .option('--count', 'count all solutions and the distinct ones up to symmetry')
    .option('--limit <K>', 'list at most K solutions (default 1)')
    .option('--all', 'list every solution')
    .option('--distinct', 'list one solution per symmetry class')
    .option('--json', 'print one JSON object')
    .option('--svg <FILE>', 'also draw the listed solutions into an SVG file')
    .option('--no-colour', 'plain letter grids even on a terminal')
    .option('--threads <N>', 'worker threads for --count (default: all cores)')
    .option('--queue [URL]', `with --count: ${QUEUE_OPTION_HELP}`)
    .option('--shard <k/n>', 'with --count: count only the k-th of n deterministic parts')
    .addOption(new Option('--engine <kind>', 'search engine (default wasm)').choices(['wasm', 'js']))
    .addHelpText(
      'after',
      '\nExamples:\n  bitpuzzle polyomino --region 6x10 --count\n  bitpuzzle polyomino --region 5x12 --limit 3 --svg tilings.svg\n' +
        '  bitpuzzle polyomino --region 8x8 --pieces pentominoes --pieces square.txt --count --json\n' +
        '  bitpuzzle polyomino --region 3x3x3 --pieces soma --count',
    )
    .action(async (flags: PolyominoFlags) => {
      outcome.status = await runPolyomino(flags);
    });
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** Text that is a size by its look: digits, signs or points around one or two x. */
const LOOKS_LIKE_SIZE = /^\s*[-+]?[\d.]+\s*[x×]\s*[-+]?[\d.]+\s*([x×]\s*[-+]?[\d.]+\s*)?$/;

async function problemOf(flags: PolyominoFlags): Promise<polyomino.PolyominoProblem> {
  let region: string;
  if (/^\s*\d+\s*[x×]\s*\d+\s*([x×]\s*\d+\s*)?$/.test(flags.region)) region = flags.region;
  else if (LOOKS_LIKE_SIZE.test(flags.region)) {
    throw new BitpuzzleError(
      'BAD_INPUT',
      `--region ${JSON.stringify(flags.region)} is not a size: a rectangle is WxH (width x height) in whole numbers from 1, for example 6x10; a box is WxHxD, for example 3x4x5`,
    );
  } else region = await readInput(flags.region);
  const pieces: string[] = [];
  for (const item of flags.pieces ?? ['pentominoes']) {
    pieces.push(polyomino.PIECE_SETS.includes(item) ? item : await readPieceFile(item));
  }
  return { region, pieces };
}

async function readPieceFile(file: string): Promise<string> {
  try {
    return await readInput(file);
  } catch (error) {
    // A bare word is more likely a misspelt set than a missing file: name the sets.
    if (/^[a-z-]+$/.test(file)) {
      throw new BitpuzzleError('BAD_INPUT', `unknown piece set "${file}" (known: ${polyomino.PIECE_SETS.join(', ')}), and no file of that name`);
    }
    throw error;
  }
}

async function runPolyomino(flags: PolyominoFlags): Promise<number> {
  const threads = integerOption('--threads', flags.threads, 1, 1024);
  const limitOption = integerOption('--limit', flags.limit, 0);
  if (flags.all && limitOption !== undefined) throw new BitpuzzleError('BAD_INPUT', 'give --limit or --all, not both');
  if (flags.shard && !flags.count) throw new BitpuzzleError('BAD_INPUT', '--shard works with --count');
  if (flags.svg && flags.count) throw new BitpuzzleError('BAD_INPUT', '--svg draws listed solutions; it does not work with --count');
  if (flags.count) {
    rejectFlags('with --count (it counts every solution and the distinct ones)', { '--limit': flags.limit, '--all': flags.all, '--distinct': flags.distinct });
  } else {
    rejectFlags('when listing solutions (one thread lists them in order): add --count', { '--threads': flags.threads, '--queue': flags.queue });
  }
  // --no-colour is about letter grids on a terminal: nothing else draws them.
  if (flags.count) rejectFlags('with --count (it draws no grids)', { '--no-colour': flags.colour === false });
  if (flags.json) rejectFlags('with --json (it prints no coloured grids)', { '--no-colour': flags.colour === false });
  const problem = await problemOf(flags);
  const prepared = polyomino.prepare(problem);
  const { width, height, depth } = prepared.region;
  const label = depth === undefined ? `${width}×${height}` : `${width}×${height}×${depth}`;

  if (flags.count) {
    const bar = flags.queue ? queueProgress(`counting ${label}`) : progressBar(`counting ${label}`);
    let result: polyomino.TilingCount;
    try {
      result = await polyomino.count(problem, { threads, shard: flags.shard, engine: flags.engine, onProgress: bar.onProgress, queue: queueUrl(flags.queue), signal: queueSignal(flags.queue) });
    } finally {
      bar.stop();
    }
    if (flags.json) {
      console.log(toJson(result));
      return EXIT.ANSWERED;
    }
    const shard = result.shard ? ` in shard ${result.shard.index}/${result.shard.count}` : '';
    console.log(`${label}, ${prepared.pieces.length} pieces: ${result.total} solutions, ${result.distinct} distinct up to ${result.symmetries} symmetries${group(prepared)}${shard}`);
    if (result.reason) console.log(`no solution: ${result.reason}`);
    console.log(
      `${result.stats.nodes} placements in ${result.stats.milliseconds.toFixed(1)} ms on ${result.stats.threads} thread(s), ${result.stats.parts} part(s)`,
    );
    return EXIT.ANSWERED;
  }

  // A first-solution request with a reason known before any search: UNSOLVABLE (exit 1).
  if (prepared.reason) throw new BitpuzzleError('UNSOLVABLE', prepared.reason);
  const limit = flags.all ? Infinity : (limitOption ?? 1);
  const colour = flags.colour !== false && process.stdout.isTTY === true && !process.env.NO_COLOR;
  const svg = flags.svg ? await OutputFile.open(flags.svg) : null;
  const found: polyomino.TilingSolution[] = [];
  let stats: polyomino.TilingStats;
  try {
    stats = await eachSolution(polyomino.solutions(problem, { limit, distinct: flags.distinct, engine: flags.engine }), (solution) => {
      found.push(solution);
      if (!flags.json) {
        if (found.length > 1) console.log('');
        console.log(`solution ${found.length}:`);
        console.log(colour ? polyomino.colourPicture(solution) : polyomino.picture(solution));
      }
    });
  } catch (error) {
    await svg?.discard();
    throw error;
  }
  if (found.length === 0 && limit > 0) {
    await svg?.discard();
    throw noSolution(`${label}: the search found no tiling`);
  }
  await svg?.write(polyomino.svg(found));
  if (flags.json) {
    const solutions = found.map((s) => ({ grid: polyomino.picture(s).split('\n'), pieces: s.pieces }));
    console.log(toJson({ region: depth === undefined ? { width, height } : { width, height, depth }, solutions, stats }));
    return EXIT.ANSWERED;
  }
  console.error(`${found.length} solution(s) in ${stats.milliseconds.toFixed(1)} ms${flags.svg ? `; drawn in ${flags.svg}` : ''}`);
  return EXIT.ANSWERED;
}

/** In space, which symmetries the distinct count is modulo: rotations only when the piece set is not its own mirror image. */
function group(prepared: polyomino.Prepared): string {
  if (prepared.region.depth === undefined) return '';
  const rotations = 1 + prepared.symmetries.filter((s) => s.transform < polyomino.ROTATIONS3).length;
  const mirrors = prepared.symmetries.length + 1 - rotations;
  return mirrors === 0 ? ' (rotations only)' : ` (${rotations} rotations, ${mirrors} with a mirror)`;
}
