// Reproducible random SameGame boards for experiments: a fixed generator (mulberry32) seeded by
// a 32-bit integer, so a seed names the same board in every version, host and browser.
import { badInput, describeValue, isDenseArray } from '../errors.js';
import { checkOptions } from '../wasm/options.js';
import { MAX_COLOURS, MAX_SIDE, parseBoard, type SameGameBoard } from './board.js';
import { mulberry32, shuffle } from '../random.js';

/** Options of randomBoard. */
export interface RandomBoardOptions {
  /** Columns, from 1 to 32. */
  width: number;
  /** Rows, from 1 to 32. */
  height: number;
  /** Colours, from 1 to 10 (written 0 to colours − 1, as the standard positions are). */
  colours: number;
  /** Any integer from 0 to 2^32 − 1 (default 1). */
  seed?: number;
  /**
   * The blocks of each colour, counts[k] of colour k (one per colour, together width × height),
   * placed at random; without it each cell's colour is drawn uniformly.
   */
  counts?: number[];
}

function whole(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw badInput(`${name} must be an integer from ${min} to ${max}, got ${describeValue(value)}`);
  }
  return value;
}

/**
 * A full board of `width` × `height` blocks, the cells from the top row down, each row from the
 * left. Each colour drawn uniformly: one draw of mulberry32(seed) a cell (colour = ⌊draw × colours⌋).
 * With `counts`: those blocks, colour 0's first, shuffled by Fisher–Yates from the last cell down
 * (cell i swapped with cell ⌊draw × (i + 1)⌋), so every arrangement is as likely.
 */
export function randomBoard(options: RandomBoardOptions): SameGameBoard {
  const checked = checkOptions(options, ['width', 'height', 'colours', 'seed', 'counts'], 'samegame.randomBoard');
  const width = whole(checked.width, 'width', 1, MAX_SIDE);
  const height = whole(checked.height, 'height', 1, MAX_SIDE);
  const colours = whole(checked.colours, 'colours', 1, MAX_COLOURS);
  const seed = whole(checked.seed ?? 1, 'seed', 0, 2 ** 32 - 1);
  const next = mulberry32(seed);
  const cells: number[] = [];
  if (checked.counts === undefined) {
    for (let i = 0; i < width * height; i++) cells.push(Math.floor(next() * colours));
  } else {
    const counts = checked.counts;
    if (!isDenseArray(counts) || counts.length !== colours) {
      throw badInput(`counts must give the blocks of each of the ${colours} colours (an array of ${colours} integers), got ${describeValue(counts)}`);
    }
    counts.forEach((count, colour) => {
      for (let k = whole(count, `counts[${colour}]`, 0, width * height); k > 0; k--) cells.push(colour);
    });
    if (cells.length !== width * height) {
      throw badInput(`counts must add up to width × height = ${width * height} blocks, got ${cells.length}`);
    }
    shuffle(cells, next);
  }
  const rows: string[] = [];
  for (let r = 0; r < height; r++) rows.push(cells.slice(r * width, (r + 1) * width).join(''));
  return parseBoard(rows.join('\n'));
}
