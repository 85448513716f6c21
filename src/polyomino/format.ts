// Solutions as letter grids (plain or coloured for a terminal) and as SVG drawings; a
// solution in space is drawn as its layers side by side, the top layer first.
import { badInput, describeValue, isDenseArray } from '../errors.js';
import { checkCells, type Cell2 } from './shapes.js';
import { MAX_REGION_CELLS } from './region.js';
import type { TilingSolution } from './solve.js';

/**
 * Checks a solution's shape: { width, height, depth?, pieces: [{ piece, cells }] } with every
 * cell inside the width × height (× depth) frame. With `inFrame` false, cells may lie outside
 * (checkSolution says so).
 */
export function checkTilingSolution(solution: unknown, inFrame = true): TilingSolution {
  const s = solution as TilingSolution;
  if (s === null || typeof s !== 'object' || !isDenseArray(s.pieces)) {
    throw badInput(`a solution is { width, height, pieces }, got ${describeValue(solution)}`);
  }
  const { width, height } = s;
  const depth = s.depth ?? 1;
  const whole = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 1;
  if (!whole(width) || !whole(height) || !whole(depth) || width * height * depth > MAX_REGION_CELLS) {
    const size = s.depth === undefined ? '' : `×${describeValue(s.depth)}`;
    throw badInput(`a solution's width, height (and depth in space) are integers from 1 with at most ${MAX_REGION_CELLS} cells, got ${describeValue(width)}×${describeValue(height)}${size}`);
  }
  const frame = s.depth === undefined ? `${width}×${height}` : `${width}×${height}×${depth}`;
  s.pieces.forEach((placed: TilingSolution['pieces'][number], i: number) => {
    if (placed === null || typeof placed !== 'object' || typeof placed.piece !== 'string' || placed.piece.length === 0) {
      throw badInput(`pieces[${i}] must be { piece, cells } with a piece name, got ${describeValue(placed)}`);
    }
    checkCells(placed.cells, `pieces[${i}]`);
    if (placed.cells.length > 0 && placed.cells[0].length !== (s.depth === undefined ? 2 : 3)) {
      throw badInput(`pieces[${i}]: cells are ${s.depth === undefined ? '[x, y] pairs on a plane' : '[x, y, z] triples in space (the solution has a depth)'}`);
    }
    if (inFrame && placed.cells.some(([x, y, z]) => x < 0 || y < 0 || x >= width || y >= height || (z !== undefined && (z < 0 || z >= depth)))) {
      throw badInput(`pieces[${i}] has a cell outside the ${frame} frame`);
    }
  });
  return s;
}

/** The layers of a solution in space as plane solutions, the top first (a plane solution: itself). */
function layers(solution: TilingSolution): TilingSolution[] {
  if (solution.depth === undefined) return [solution];
  return Array.from({ length: solution.depth }, (_, z) => ({
    width: solution.width,
    height: solution.height,
    pieces: solution.pieces.map((p) => ({ ...p, cells: p.cells.filter((c) => c[2] === z).map((c): Cell2 => [c[0], c[1]]) })),
  }));
}

/** Rows of the layers side by side, `gap` between layers. */
function sideBySide(grids: string[][][], gap: string): string {
  return grids[0]
    .map((_, y) =>
      grids
        .map((grid) => grid[y].join(''))
        .join(gap)
        .trimEnd(),
    )
    .join('\n');
}

/** The letter of each cell of a plane (solution or layer), row by row; ' ' outside the region. */
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

/** The solution as a letter grid, one row per line: `FFIIIII…`; in space, the layers side by side (top first), two spaces apart. */
export function picture(solution: TilingSolution): string {
  checkTilingSolution(solution);
  return sideBySide(layers(solution).map(letters), '  ');
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
  const paint = (letter: string): string => {
    if (letter === ' ') return '  ';
    const [r, g, b] = rgb(palette.get(letter)!);
    return `\x1b[48;2;${r};${g};${b}m\x1b[38;2;0;0;0m${letter} \x1b[0m`;
  };
  return sideBySide(
    layers(solution).map((layer) => letters(layer).map((row) => row.map(paint))),
    '   ',
  );
}

/** Solutions drawn one below the other as one SVG document, a colour per piece; in space, each solution's layers side by side, the top first. */
export function svg(solutions: readonly TilingSolution[], cellSize = 24): string {
  if (!isDenseArray(solutions)) throw badInput(`svg takes a list of solutions, got ${describeValue(solutions)}`);
  solutions.forEach((solution) => checkTilingSolution(solution));
  if (typeof cellSize !== 'number' || !Number.isFinite(cellSize) || cellSize <= 0 || cellSize > 1000) {
    throw badInput(`cellSize must be a number of pixels above 0 and up to 1000, got ${describeValue(cellSize)}`);
  }
  const gap = cellSize;
  const across = (s: TilingSolution): number => (s.depth ?? 1) * (s.width * cellSize + gap) - gap;
  const width = Math.max(cellSize, ...solutions.map(across)) + 2 * gap;
  const height = solutions.reduce((sum, s) => sum + s.height * cellSize + gap, gap);
  const parts: string[] = [];
  let top = gap;
  for (const whole of solutions) {
    const palette = colours(whole);
    layers(whole).forEach((solution, z) => {
      parts.push(drawPlane(solution, palette, cellSize, gap + z * (solution.width * cellSize + gap), top));
    });
    top += whole.height * cellSize + gap;
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">\n` +
    `<rect width="100%" height="100%" fill="#fff"/>\n${parts.join('\n')}\n</svg>\n`
  );
}

/** One plane solution (or layer) as an SVG group at (left, top). */
function drawPlane(solution: TilingSolution, palette: Map<string, string>, cellSize: number, offsetX: number, offsetY: number): string {
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
  return `<g transform="translate(${offsetX} ${offsetY})">${group.join('')}</g>`;
}
