// Regions to fill: `WxH` rectangles, or pictures where '.' is a cell and '#' or space is not;
// in space, `WxHxD` boxes, or pictures of layers from the top separated by a line `--`.
import { badInput, describeValue } from '../errors.js';
import type { Cell, Cell3 } from './shapes.js';

/** The most cells a region may have (the engines' limit). */
export const MAX_REGION_CELLS = 1024;

/** A checked region: its cells and the size of the box around them. */
export interface Region {
  /** Columns of the box around the cells. */
  width: number;
  /** Rows of the box around the cells. */
  height: number;
  /** Layers of a region in space (absent on a plane). */
  depth?: number;
  /** The cells, row by row (layer by layer in space); the smallest coordinates are 0. */
  cells: Cell[];
}

/** A region: "WxH", "WxHxD", a picture, or its size as an object. */
export type RegionInput =
  | string
  | {
      /** Columns, from 1. */
      width: number;
      /** Rows, from 1. */
      height: number;
      /** Layers, for a box in space. */
      depth?: number;
    };

/** Reads a region; BAD_INPUT for a malformed one or one of more than MAX_REGION_CELLS cells. */
export function parseRegion(input: RegionInput): Region {
  if (typeof input === 'object' && input !== null) {
    if (input.depth !== undefined) return box(input.width, input.height, input.depth, 'width, height and depth');
    return rectangle(input.width, input.height, 'width and height');
  }
  if (typeof input !== 'string') throw badInput(`a region is "WxH", "WxHxD", a picture, or { width, height, depth? }, got ${describeValue(input)}`);
  const size = /^\s*(\d+)\s*[x×]\s*(\d+)\s*$/.exec(input);
  if (size) return rectangle(Number(size[1]), Number(size[2]), `"${input.trim()}"`);
  const size3 = /^\s*(\d+)\s*[x×]\s*(\d+)\s*[x×]\s*(\d+)\s*$/.exec(input);
  if (size3) return box(Number(size3[1]), Number(size3[2]), Number(size3[3]), `"${input.trim()}"`);
  if (input.split(/\r?\n/).some((line) => line.trim() === '--')) return parseLayers(input);
  return parsePicture(input);
}

function box(width: number, height: number, depth: number, what: string): Region {
  const sides = [width, height, depth];
  if (!sides.every((v) => Number.isSafeInteger(v) && v >= 1)) {
    throw badInput(`${what}: a box needs a width, height and depth of at least 1, got ${sides.map(describeValue).join('×')}`);
  }
  if (width * height * depth > MAX_REGION_CELLS) {
    throw badInput(`${what}: ${sides.join('×')} has ${width * height * depth} cells; regions have at most ${MAX_REGION_CELLS}`);
  }
  const cells: Cell3[] = [];
  for (let z = 0; z < depth; z++) for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) cells.push([x, y, z]);
  return { width, height, depth, cells };
}

/** Layers from the top, separated by a line `--`, each drawn like a plane region. */
function parseLayers(text: string): Region {
  const cells: [number, number, number][] = [];
  let z = 0;
  let y = 0;
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '--') {
      z++;
      y = 0;
      return;
    }
    for (let x = 0; x < line.length; x++) {
      const c = line[x];
      if (c === '.') cells.push([x, y, z]);
      else if (c !== '#' && c !== ' ' && !(c === '\t' && line.slice(x).trim() === '')) {
        throw badInput(`line ${i + 1}, column ${x + 1}: "${c}" in the region picture ('.' is a cell, '#' or space is not, a line -- between layers)`);
      }
    }
    y++;
  });
  if (cells.length === 0) throw badInput('the region has no cells (draw them with ".")');
  if (cells.length > MAX_REGION_CELLS) throw badInput(`the region has ${cells.length} cells; regions have at most ${MAX_REGION_CELLS}`);
  const mins = [0, 1, 2].map((i) => Math.min(...cells.map((c) => c[i])));
  const moved = cells.map((c): Cell3 => [c[0] - mins[0], c[1] - mins[1], c[2] - mins[2]]);
  const extent = (i: number): number => Math.max(...moved.map((c) => c[i])) + 1;
  return { width: extent(0), height: extent(1), depth: extent(2), cells: moved };
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

/** The region as a picture in the input format (layers in space separated by a line `--`). */
export function regionPicture(region: Region): string {
  const layers = Array.from({ length: region.depth ?? 1 }, () => Array.from({ length: region.height }, () => new Array<string>(region.width).fill('#')));
  for (const c of region.cells) layers[c[2] ?? 0][c[1]][c[0]] = '.';
  return layers.map((rows) => rows.map((row) => row.join('')).join('\n')).join('\n--\n');
}
