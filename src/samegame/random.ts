// Reproducible random SameGame boards for experiments: a fixed generator (mulberry32) seeded by
// a 32-bit integer, so a seed names the same board in every version, host and browser.
import { badInput, describeValue } from '../errors.js';
import { checkOptions } from '../wasm/options.js';
import { MAX_COLOURS, MAX_SIDE, parseBoard, type SameGameBoard } from './board.js';
import { mulberry32 } from '../random.js';

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
}

function whole(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw badInput(`${name} must be an integer from ${min} to ${max}, got ${describeValue(value)}`);
  }
  return value;
}

/**
 * A full board of `width` × `height` blocks, each colour drawn uniformly: the cells from the top
 * row down, each row from the left, one draw of mulberry32(seed) each (colour = ⌊draw × colours⌋).
 */
export function randomBoard(options: RandomBoardOptions): SameGameBoard {
  const checked = checkOptions(options, ['width', 'height', 'colours', 'seed'], 'samegame.randomBoard');
  const width = whole(checked.width, 'width', 1, MAX_SIDE);
  const height = whole(checked.height, 'height', 1, MAX_SIDE);
  const colours = whole(checked.colours, 'colours', 1, MAX_COLOURS);
  const seed = whole(checked.seed ?? 1, 'seed', 0, 2 ** 32 - 1);
  const next = mulberry32(seed);
  const rows: string[] = [];
  for (let r = 0; r < height; r++) {
    let row = '';
    for (let c = 0; c < width; c++) row += String(Math.floor(next() * colours));
    rows.push(row);
  }
  return parseBoard(rows.join('\n'));
}
