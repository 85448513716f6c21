// Piece sets: the built-in ones, custom pieces as pictures or cell lists, and the checks
// every piece passes before a search (one connected polyomino, no shape given twice).
import { badInput, describeValue } from '../errors.js';
import {
  checkCells,
  freeKey,
  freePolyominoes,
  isConnected,
  isSpatial,
  lift,
  normalize,
  orientations,
  polycubes,
  shapeKey,
  shapePicture,
  transformCell,
  type Cell,
  type Cell2,
  type Cell3,
} from './shapes.js';

/** A piece as the API accepts it. */
export interface PieceSpec {
  /** One character: it fills the piece's cells in letter grids. */
  name: string;
  /**
   * A picture (one character per cell, '.' or space for none; a piece in space is drawn in
   * layers from the top, separated by a line `--`) or a list of [x, y] or [x, y, z] cells.
   */
  shape: string | readonly Cell[];
  /** Rotations only (default: rotations and reflections; in space, the 24 rotations or all 48 symmetries). */
  oneSided?: boolean;
  /** How many copies (default 1). */
  count?: number;
  /** Use at most `count` copies instead of exactly `count`. */
  atMost?: boolean;
}

/** A validated piece: its cells in normal form ([x, y] on a plane, [x, y, z] in space). */
export interface Piece {
  /** One character: it fills the piece's cells in letter grids. */
  name: string;
  /** The cells in normal form: the smallest coordinates 0, in reading order. */
  cells: Cell[];
  /** Rotations only (no reflections). */
  oneSided: boolean;
  /** How many copies. */
  count: number;
  /** Use at most `count` copies instead of exactly `count`. */
  atMost: boolean;
}

const PENTOMINOES: Record<string, string> = {
  F: '.FF/FF./.F.',
  I: 'IIIII',
  L: 'LLLL/L...',
  N: 'NN../.NNN',
  P: 'PP/PP/P.',
  T: 'TTT/.T./.T.',
  U: 'U.U/UUU',
  V: 'V../V../VVV',
  W: 'W../WW./.WW',
  X: '.X./XXX/.X.',
  Y: 'YYYY/.Y..',
  Z: 'ZZ./.Z./.ZZ',
};
const TETROMINOES: Record<string, string> = { I: 'IIII', O: 'OO/OO', T: 'TTT/.T.', S: '.SS/SS.', L: 'LLL/L..' };
const HEXOMINO_NAMES = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghi';

function fromPictures(pictures: Record<string, string>, oneSided = false): Piece[] {
  return Object.entries(pictures).map(([name, picture]) => ({
    name,
    cells: pictureCells(picture.replaceAll('/', '\n')),
    oneSided,
    count: 1,
    atMost: false,
  }));
}

function pictureCells(picture: string): Cell2[] {
  const cells: Cell2[] = [];
  picture.split('\n').forEach((row, y) => {
    for (let x = 0; x < row.length; x++) if (row[x] !== '.' && row[x] !== ' ') cells.push([x, y]);
  });
  return normalize(cells);
}

/** The 18 one-sided pentominoes: the 6 with a mirror symmetry, and both hands of the other 6 (lower case: mirrored). */
function oneSidedPentominoes(): Piece[] {
  const pieces: Piece[] = [];
  for (const piece of fromPictures(PENTOMINOES, true)) {
    pieces.push(piece);
    const mirrored = normalize((piece.cells as Cell2[]).map((c) => transformCell(c, 4)));
    const chiral = orientations(piece.cells, true).every((o) => shapeKey(o) !== shapeKey(mirrored));
    if (chiral) pieces.push({ ...piece, name: piece.name.toLowerCase(), cells: mirrored });
  }
  return pieces;
}

// Pieces in space are physical pieces: rotations only (a mirror image is another piece).
function physical(name: string, cells: readonly Cell[]): Piece {
  return { name, cells: normalize(lift(cells)), oneSided: true, count: 1, atMost: false };
}

/** Cells of the 3-D pieces below: [x, y, z] lists. */
const SOMA: Record<string, Cell3[]> = {
  V: [[0, 0, 0], [1, 0, 0], [0, 1, 0]],
  L: [[0, 0, 0], [1, 0, 0], [2, 0, 0], [0, 1, 0]],
  T: [[0, 0, 0], [1, 0, 0], [2, 0, 0], [1, 1, 0]],
  Z: [[1, 0, 0], [2, 0, 0], [0, 1, 0], [1, 1, 0]],
  // The two screws, mirror images of each other, and the branch.
  A: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 0, 1]],
  B: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 1, 1]],
  P: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]],
};

/** The Bedlam cube's 12 pentacubes and one tetracube (named A to M here). */
const BEDLAM: Cell3[][] = [
  [[0, 1, 0], [1, 0, 0], [1, 1, 0], [1, 2, 0], [2, 1, 0]],
  [[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 2, 0], [2, 1, 0]],
  [[0, 0, 0], [0, 1, 0], [1, 1, 0], [1, 2, 0], [2, 2, 0]],
  [[0, 0, 0], [0, 1, 0], [0, 2, 0], [0, 0, 1], [1, 0, 0]],
  [[0, 0, 0], [0, 1, 0], [0, 2, 0], [0, 1, 1], [1, 0, 0]],
  [[0, 0, 0], [0, 1, 0], [0, 2, 0], [0, 1, 1], [1, 1, 0]],
  [[0, 0, 0], [0, 0, 1], [1, 0, 0], [1, 1, 0], [1, 2, 0]],
  [[0, 0, 0], [0, 1, 0], [0, 2, 0], [0, 2, 1], [1, 0, 0]],
  [[0, 0, 0], [0, 1, 0], [0, 2, 0], [1, 1, 0], [1, 1, 1]],
  [[0, 1, 0], [0, 2, 0], [1, 0, 0], [1, 0, 1], [1, 1, 0]],
  [[0, 1, 0], [0, 2, 0], [0, 1, 1], [1, 0, 0], [1, 1, 0]],
  [[0, 1, 0], [0, 1, 1], [0, 2, 1], [1, 0, 0], [1, 1, 0]],
  [[0, 0, 0], [0, 1, 0], [1, 0, 0], [1, 0, 1]],
];

/**
 * The 29 pentacubes up to rotation: the 12 flat ones named as their pentominoes, the 5
 * others that equal their mirror image A to E, and the 6 mirror pairs G/g, H/h, J/j, K/k,
 * M/m, O/o (lower case: the mirror image of the upper-case piece).
 */
function pentacubes(): Piece[] {
  const flat = new Map(fromPictures(PENTOMINOES).map((p) => [freeKey(lift(p.cells), true), p.name]));
  const achiral = 'ABCDE';
  const chiral = 'GHJKMO';
  const pieces: Piece[] = [];
  const named = new Set<string>();
  for (const cells of polycubes(5, true)) {
    const key = freeKey(cells, true);
    if (named.has(key)) continue;
    named.add(key);
    const name = flat.get(key);
    if (name) {
      pieces.push(physical(name, cells));
      continue;
    }
    const mirror = normalize(cells.map(([x, y, z]): Cell3 => [-x, y, z]));
    const mirrorKey = freeKey(mirror, true);
    if (mirrorKey === key) pieces.push(physical(achiral[pieces.filter((p) => achiral.includes(p.name)).length], cells));
    else {
      const letter = chiral[pieces.filter((p) => chiral.includes(p.name)).length];
      pieces.push(physical(letter, cells), physical(letter.toLowerCase(), mirror));
      named.add(mirrorKey);
    }
  }
  const order = (p: Piece): number => (flat.has(freeKey(p.cells, true)) ? 0 : 1);
  return pieces.sort((a, b) => order(a) - order(b));
}

const SETS: Record<string, () => Piece[]> = {
  pentominoes: () => fromPictures(PENTOMINOES),
  tetrominoes: () => fromPictures(TETROMINOES),
  hexominoes: () =>
    freePolyominoes(6).map((cells, i) => ({ name: HEXOMINO_NAMES[i], cells, oneSided: false, count: 1, atMost: false })),
  'one-sided-pentominoes': oneSidedPentominoes,
  soma: () => Object.entries(SOMA).map(([name, cells]) => physical(name, cells)),
  tetracubes: () => [...fromPictures(TETROMINOES).map((p) => physical(p.name, p.cells)), ...['A', 'B', 'P'].map((name) => physical(name, SOMA[name]))],
  'flat-pentacubes': () => fromPictures(PENTOMINOES).map((p) => physical(p.name, p.cells)),
  pentacubes,
  bedlam: () => BEDLAM.map((cells, i) => physical('ABCDEFGHIJKLM'[i], cells)),
};

/** The names of the built-in piece sets. */
export const PIECE_SETS = Object.keys(SETS);

/** A built-in set by name: each piece once, free unless the set is one-sided. */
export function pieceSet(name: string): Piece[] {
  const make = typeof name === 'string' && Object.hasOwn(SETS, name) ? SETS[name] : undefined;
  if (!make) throw badInput(`unknown piece set ${describeValue(name)} (known: ${PIECE_SETS.join(', ')})`);
  return make();
}

/**
 * Pieces from text: blocks separated by blank lines, '#' lines are comments. A block is a
 * picture drawn with one letter or digit ('.' or space for gaps), named by that character,
 * optionally after a header line `NAME: [free|one-sided] [count=K|count<=K]`.
 */
export function parsePieces(text: string): Piece[] {
  if (typeof text !== 'string') throw badInput(`piece text must be a string, got ${describeValue(text)}`);
  const pieces: Piece[] = [];
  const lines = text.split(/\r?\n/);
  let block: { line: number; text: string }[] = [];
  const flush = (): void => {
    if (block.length > 0) pieces.push(parseBlock(block));
    block = [];
  };
  lines.forEach((raw, i) => {
    const line = raw.trimEnd();
    if (line.startsWith('#')) return;
    if (line.trim() === '') flush();
    else block.push({ line: i + 1, text: line });
  });
  flush();
  if (pieces.length === 0) throw badInput('the piece list has no pieces');
  return pieces;
}

function parseBlock(block: { line: number; text: string }[]): Piece {
  const spec: { name?: string; oneSided: boolean; count: number; atMost: boolean } = { oneSided: false, count: 1, atMost: false };
  let rows = block;
  const colon = block[0].text.indexOf(':');
  if (colon >= 0) {
    parseHeader(block[0], colon, spec);
    rows = block.slice(1);
  }
  const at = (line: number, column: number): string => `line ${line}, column ${column}`;
  if (rows.length === 0) throw badInput(`${at(block[0].line, 1)}: the piece "${spec.name}" has no picture`);
  let char: string | undefined;
  const cells: Cell3[] = [];
  // Layers from the top, separated by a line `--`: a piece in space.
  let z = 0;
  let y = 0;
  let layered = false;
  rows.forEach(({ line, text }) => {
    if (text.trim() === '--') {
      layered = true;
      z++;
      y = 0;
      return;
    }
    if (text.includes(':')) throw badInput(`${at(line, text.indexOf(':') + 1)}: a header line must come first in its block`);
    for (let x = 0; x < text.length; x++) {
      const c = text[x];
      if (c === '.' || c === ' ') continue;
      if (!/^[A-Za-z0-9]$/.test(c)) {
        throw badInput(`${at(line, x + 1)}: "${c}" cannot draw a piece (use one letter or digit per piece, '.' or space for gaps)`);
      }
      if (char !== undefined && c !== char) {
        throw badInput(`${at(line, x + 1)}: "${c}" in the picture of piece "${char}" (one character per piece; separate pieces by a blank line)`);
      }
      char = c;
      cells.push([x, y, z]);
    }
    y++;
  });
  const first = rows[0].line;
  if (char === undefined) throw badInput(`${at(first, 1)}: the picture has no cells`);
  const name = spec.name ?? char;
  const shape: Cell[] = layered ? cells : cells.map(([x, y]): Cell2 => [x, y]);
  if (!isConnected(shape)) throw badInput(`${at(first, 1)}: piece "${name}" is not one connected ${layered ? 'polycube' : 'polyomino'}`);
  return { name, cells: normalize(shape), oneSided: spec.oneSided, count: spec.count, atMost: spec.atMost };
}

function parseHeader(
  { line, text }: { line: number; text: string },
  colon: number,
  spec: { name?: string; oneSided: boolean; count: number; atMost: boolean },
): void {
  const name = text.slice(0, colon).trim();
  if (!/^[A-Za-z0-9]$/.test(name)) {
    throw badInput(`line ${line}, column 1: a piece name is one letter or digit, got "${name}"`);
  }
  spec.name = name;
  const optionsStart = colon + 1;
  for (const match of text.slice(optionsStart).matchAll(/\S+/g)) {
    const word = match[0];
    const column = optionsStart + match.index + 1;
    const count = /^count(<=|=)(\d+)$/.exec(word);
    if (word === 'free') spec.oneSided = false;
    else if (word === 'one-sided') spec.oneSided = true;
    else if (count) {
      spec.count = Number(count[2]);
      spec.atMost = count[1] === '<=';
      if (!Number.isSafeInteger(spec.count) || spec.count > 1024) {
        throw badInput(`line ${line}, column ${column}: a count is at most 1024, got ${count[2]}`);
      }
    } else {
      throw badInput(`line ${line}, column ${column}: unknown piece option "${word}" (free, one-sided, count=K, count<=K)`);
    }
  }
}

/** Checks and normalizes pieces given as API objects. */
export function piecesFromSpecs(specs: readonly PieceSpec[]): Piece[] {
  return specs.map((spec, i) => {
    const what = `piece ${i + 1}`;
    if (typeof spec !== 'object' || spec === null) throw badInput(`${what} must be an object with a name and a shape`);
    if (typeof spec.name !== 'string' || !/^[A-Za-z0-9]$/.test(spec.name)) {
      throw badInput(`${what}: the name must be one letter or digit, got ${describeValue(spec.name)}`);
    }
    let cells: Cell[];
    if (typeof spec.shape === 'string') {
      const [piece] = parsePieces(`${spec.name}:\n${spec.shape}`);
      cells = piece.cells;
    } else if (Array.isArray(spec.shape) && spec.shape.length > 0) {
      checkCells(spec.shape, `piece "${spec.name}"`);
      if (new Set(spec.shape.map((c) => c.join(','))).size !== spec.shape.length) {
        throw badInput(`piece "${spec.name}" lists a cell twice`);
      }
      cells = normalize(spec.shape);
    } else {
      throw badInput(`piece "${spec.name}": the shape must be a picture or a non-empty list of [x, y] or [x, y, z] cells`);
    }
    if (!isConnected(cells)) throw badInput(`piece "${spec.name}" is not one connected polyomino`);
    const count = spec.count ?? 1;
    if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0 || count > 1024) {
      throw badInput(`piece "${spec.name}": count must be an integer from 0 to 1024, got ${describeValue(spec.count)}`);
    }
    for (const flag of ['oneSided', 'atMost'] as const) {
      if (spec[flag] !== undefined && typeof spec[flag] !== 'boolean') {
        throw badInput(`piece "${spec.name}": ${flag} must be true or false, got ${describeValue(spec[flag])}`);
      }
    }
    return { name: spec.name, cells, oneSided: spec.oneSided ?? false, count, atMost: spec.atMost ?? false };
  });
}

/** Checks a piece object as pieceSet() and parsePieces() return them (passed back in by a caller). */
export function checkPiece(piece: Piece, index: number): Piece {
  const what = `piece ${index + 1}`;
  if (typeof piece.name !== 'string' || !/^[A-Za-z0-9]$/.test(piece.name)) {
    throw badInput(`${what}: the name must be one letter or digit, got ${describeValue(piece.name)}`);
  }
  checkCells(piece.cells, `piece "${piece.name}"`);
  if (piece.cells.length === 0 || !isConnected(piece.cells)) throw badInput(`piece "${piece.name}" is not one connected polyomino`);
  if (typeof piece.count !== 'number' || !Number.isSafeInteger(piece.count) || piece.count < 0 || piece.count > 1024) {
    throw badInput(`piece "${piece.name}": count must be an integer from 0 to 1024, got ${describeValue(piece.count)}`);
  }
  if (typeof piece.oneSided !== 'boolean' || typeof piece.atMost !== 'boolean') {
    throw badInput(`piece "${piece.name}": oneSided and atMost must be true or false`);
  }
  return { name: piece.name, cells: normalize(piece.cells), oneSided: piece.oneSided, count: piece.count, atMost: piece.atMost };
}

/**
 * Checks a whole set: names unique, and no fixed shape reachable by two pieces (a shape
 * given twice should be one piece with a count).
 */
export function checkPieceSet(pieces: readonly Piece[]): void {
  if (pieces.length === 0) throw badInput('the piece set is empty');
  const names = new Map<string, Piece>();
  const shapes = new Map<string, Piece>();
  // With a piece in space, every piece may turn in space (a plane piece's mirror image is a turn).
  const spatial = pieces.some((p) => isSpatial(p.cells));
  for (const piece of pieces) {
    if (names.has(piece.name)) throw badInput(`two pieces are named "${piece.name}"`);
    names.set(piece.name, piece);
    for (const shape of orientations(spatial ? lift(piece.cells) : piece.cells, piece.oneSided)) {
      const other = shapes.get(shapeKey(shape));
      if (other) {
        throw badInput(
          `pieces "${other.name}" and "${piece.name}" have the same shape (${freeKey(shape).split(' ').length} cells):\n` +
            `${shapePicture(shape, piece.name)}\ngive it once, with a count`,
        );
      }
      shapes.set(shapeKey(shape), piece);
    }
  }
}
