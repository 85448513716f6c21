// Solutions as letter grids (plain or coloured for a terminal) and as SVG drawings.
import { badInput, describeValue, isDenseArray } from '../errors.js';
import { checkCells } from './shapes.js';
import { MAX_REGION_CELLS } from './region.js';
import type { TilingSolution } from './solve.js';

/**
 * Checks a solution's shape: { width, height, pieces: [{ piece, cells }] } with every cell
 * inside the width × height frame. With `inFrame` false, cells may lie outside (checkSolution says so).
 */
export function checkTilingSolution(solution: unknown, inFrame = true): TilingSolution {
  const s = solution as TilingSolution;
  if (s === null || typeof s !== 'object' || !isDenseArray(s.pieces)) {
    throw badInput(`a solution is { width, height, pieces }, got ${describeValue(solution)}`);
  }
  const { width, height } = s;
  if (typeof width !== 'number' || typeof height !== 'number' || !Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width * height > MAX_REGION_CELLS) {
    throw badInput(`a solution's width and height are integers from 1 with at most ${MAX_REGION_CELLS} cells, got ${describeValue(width)}×${describeValue(height)}`);
  }
  s.pieces.forEach((placed: TilingSolution['pieces'][number], i: number) => {
    if (placed === null || typeof placed !== 'object' || typeof placed.piece !== 'string' || placed.piece.length === 0) {
      throw badInput(`pieces[${i}] must be { piece, cells } with a piece name, got ${describeValue(placed)}`);
    }
    checkCells(placed.cells, `pieces[${i}]`);
    if (inFrame && placed.cells.some(([x, y]) => x < 0 || y < 0 || x >= width || y >= height)) {
      throw badInput(`pieces[${i}] has a cell outside the ${width}×${height} frame`);
    }
  });
  return s;
}

/** The letter of each cell, row by row; ' ' outside the region. */
function letters(solution: TilingSolution): string[][] {
  const rows = Array.from({ length: solution.height }, () => new Array<string>(solution.width).fill(' '));
  for (const placed of solution.pieces) for (const [x, y] of placed.cells) rows[y][x] = placed.piece;
  return rows;
}

/** Which placed piece covers each cell (-1 outside), to draw the borders between pieces. */
function owners(solution: TilingSolution): number[][] {
  const rows = Array.from({ length: solution.height }, () => new Array<number>(solution.width).fill(-1));
  solution.pieces.forEach((placed, i) => placed.cells.forEach(([x, y]) => (rows[y][x] = i)));
  return rows;
}

/** The solution as a letter grid, one row per line: `FFIIIII…`. */
export function picture(solution: TilingSolution): string {
  checkTilingSolution(solution);
  return letters(solution)
    .map((row) => row.join('').trimEnd())
    .join('\n');
}

// Distinct, readable colours for the first pieces; later ones walk the hue circle.
const PALETTE = [
  '#e6194b', '#3cb44b', '#ffe119', '#4363d8', '#f58231', '#911eb4',
  '#46f0f0', '#f032e6', '#bcf60c', '#fabebe', '#008080', '#e6beff',
  '#9a6324', '#fffac8', '#800000', '#aaffc3', '#808000', '#ffd8b1',
];

/** A colour per piece name, stable for a given set of names. */
function colours(solution: TilingSolution): Map<string, string> {
  const names = [...new Set(solution.pieces.map((p) => p.piece))].sort();
  return new Map(names.map((name, i) => [name, i < PALETTE.length ? PALETTE[i] : `hsl(${(i * 137.5) % 360} 70% 60%)`]));
}

function rgb(colour: string): [number, number, number] {
  if (colour.startsWith('#')) return [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16)) as [number, number, number];
  const [, h, s, l] = /hsl\(([\d.]+) (\d+)% (\d+)%\)/.exec(colour)!.map(Number);
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100);
  const f = (n: number): number => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l / 100 - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

/** The letter grid with a background colour per piece (24-bit ANSI escapes), for terminals. */
export function colourPicture(solution: TilingSolution): string {
  checkTilingSolution(solution);
  const palette = colours(solution);
  return letters(solution)
    .map((row) =>
      row
        .map((letter) => {
          if (letter === ' ') return '  ';
          const [r, g, b] = rgb(palette.get(letter)!);
          return `\x1b[48;2;${r};${g};${b}m\x1b[38;2;0;0;0m${letter} \x1b[0m`;
        })
        .join('')
        .trimEnd(),
    )
    .join('\n');
}

/** Solutions drawn one below the other as one SVG document, a colour per piece. */
export function svg(solutions: readonly TilingSolution[], cellSize = 24): string {
  if (!isDenseArray(solutions)) throw badInput(`svg takes a list of solutions, got ${describeValue(solutions)}`);
  solutions.forEach((solution) => checkTilingSolution(solution));
  if (typeof cellSize !== 'number' || !Number.isFinite(cellSize) || cellSize <= 0 || cellSize > 1000) {
    throw badInput(`cellSize must be a number of pixels above 0 and up to 1000, got ${describeValue(cellSize)}`);
  }
  const gap = cellSize;
  const width = Math.max(1, ...solutions.map((s) => s.width)) * cellSize + 2 * gap;
  const height = solutions.reduce((sum, s) => sum + s.height * cellSize + gap, gap);
  const parts: string[] = [];
  let top = gap;
  for (const solution of solutions) {
    const palette = colours(solution);
    const owner = owners(solution);
    const group: string[] = [];
    solution.pieces.forEach((placed) => {
      for (const [x, y] of placed.cells) {
        group.push(`<rect x="${x * cellSize}" y="${y * cellSize}" width="${cellSize}" height="${cellSize}" fill="${palette.get(placed.piece)}"/>`);
      }
    });
    // Borders where neighbouring cells belong to different pieces, or to none.
    const lines: string[] = [];
    for (let y = 0; y <= solution.height; y++) {
      for (let x = 0; x <= solution.width; x++) {
        const here = owner[y]?.[x] ?? -1;
        const above = owner[y - 1]?.[x] ?? -1;
        const left = owner[y]?.[x - 1] ?? -1;
        if (x < solution.width && here !== above) lines.push(`M${x * cellSize} ${y * cellSize}h${cellSize}`);
        if (y < solution.height && here !== left) lines.push(`M${x * cellSize} ${y * cellSize}v${cellSize}`);
      }
    }
    group.push(`<path d="${lines.join('')}" stroke="#222" stroke-width="2" stroke-linecap="square" fill="none"/>`);
    parts.push(`<g transform="translate(${gap} ${top})">${group.join('')}</g>`);
    top += solution.height * cellSize + gap;
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">\n` +
    `<rect width="100%" height="100%" fill="#fff"/>\n${parts.join('\n')}\n</svg>\n`
  );
}
