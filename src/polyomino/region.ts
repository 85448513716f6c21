// Regions to fill: `WxH` rectangles, or pictures where '.' is a cell and '#' or space is not.
import { badInput, describeValue } from '../errors.js';
import type { Cell } from './shapes.js';

/** The most cells a region may have (the engines' limit). */
export const MAX_REGION_CELLS = 1024;

export interface Region {
  width: number;
  height: number;
  /** The cells, row by row; the smallest x and y are 0. */
  cells: Cell[];
}

export type RegionInput = string | { width: number; height: number };

export function parseRegion(input: RegionInput): Region {
  if (typeof input === 'object' && input !== null) return rectangle(input.width, input.height, 'width and height');
  if (typeof input !== 'string') throw badInput(`a region is "WxH", a picture, or { width, height }, got ${describeValue(input)}`);
  const size = /^\s*(\d+)\s*[x×]\s*(\d+)\s*$/.exec(input);
  if (size) return rectangle(Number(size[1]), Number(size[2]), `"${input.trim()}"`);
  return parsePicture(input);
}

function rectangle(width: number, height: number, what: string): Region {
  if (!Number.isSafeInteger(width) || !Number.isSafeInteger(height) || width < 1 || height < 1) {
    throw badInput(`${what}: a rectangle needs a width and height of at least 1, got ${describeValue(width)}×${describeValue(height)}`);
  }
  if (width * height > MAX_REGION_CELLS) {
    throw badInput(`${what}: ${width}×${height} has ${width * height} cells; regions have at most ${MAX_REGION_CELLS}`);
  }
  const cells: Cell[] = [];
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) cells.push([x, y]);
  return { width, height, cells };
}

function parsePicture(text: string): Region {
  const lines = text.split(/\r?\n/);
  const cells: Cell[] = [];
  lines.forEach((line, y) => {
    for (let x = 0; x < line.length; x++) {
      const c = line[x];
      if (c === '.') cells.push([x, y]);
      else if (c !== '#' && c !== ' ' && !(c === '\t' && line.slice(x).trim() === '')) {
        const hint = /^[a-z-]+$/i.test(text.trim()) ? ` (a region is "WxH" like 6x10, or a picture)` : '';
        throw badInput(`line ${y + 1}, column ${x + 1}: "${c}" in the region picture ('.' is a cell, '#' or space is not)${hint}`);
      }
    }
  });
  if (cells.length === 0) throw badInput('the region has no cells (draw them with ".")');
  if (cells.length > MAX_REGION_CELLS) throw badInput(`the region has ${cells.length} cells; regions have at most ${MAX_REGION_CELLS}`);
  const minX = Math.min(...cells.map((c) => c[0]));
  const minY = Math.min(...cells.map((c) => c[1]));
  const moved = cells.map(([x, y]): Cell => [x - minX, y - minY]);
  return {
    width: Math.max(...moved.map((c) => c[0])) + 1,
    height: Math.max(...moved.map((c) => c[1])) + 1,
    cells: moved,
  };
}

/** The region as a picture in the input format. */
export function regionPicture(region: Region): string {
  const rows = Array.from({ length: region.height }, () => new Array<string>(region.width).fill('#'));
  for (const [x, y] of region.cells) rows[y][x] = '.';
  return rows.map((row) => row.join('')).join('\n');
}
