// Piece sets: the built-in ones, custom pieces as pictures or cell lists, and the checks
// every piece passes before a search (one connected polyomino, no shape given twice).
import { badInput, describeValue } from '../errors.js';
import { checkCells, freeKey, freePolyominoes, isConnected, normalize, orientations, shapeKey, shapePicture, transformCell, type Cell } from './shapes.js';

/** A piece as the API accepts it. */
export interface PieceSpec {
  /** One character: it fills the piece's cells in letter grids. */
  name: string;
  /** A picture (one character per cell, '.' or space for none) or a list of [x, y] cells. */
  shape: string | readonly Cell[];
  /** Rotations only (default: rotations and reflections). */
  oneSided?: boolean;
  /** How many copies (default 1). */
  count?: number;
  /** Use at most `count` copies instead of exactly `count`. */
  atMost?: boolean;
}

/** A validated piece: its cells in normal form. */
export interface Piece {
  name: string;
  cells: Cell[];
  oneSided: boolean;
  count: number;
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

function pictureCells(picture: string): Cell[] {
  const cells: Cell[] = [];
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
    const mirrored = normalize(piece.cells.map((c) => transformCell(c, 4)));
    const chiral = orientations(piece.cells, true).every((o) => shapeKey(o) !== shapeKey(mirrored));
    if (chiral) pieces.push({ ...piece, name: piece.name.toLowerCase(), cells: mirrored });
  }
  return pieces;
}

const SETS: Record<string, () => Piece[]> = {
  pentominoes: () => fromPictures(PENTOMINOES),
  tetrominoes: () => fromPictures(TETROMINOES),
  hexominoes: () =>
    freePolyominoes(6).map((cells, i) => ({ name: HEXOMINO_NAMES[i], cells, oneSided: false, count: 1, atMost: false })),
  'one-sided-pentominoes': oneSidedPentominoes,
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
  const cells: Cell[] = [];
  rows.forEach(({ line, text }, y) => {
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
      cells.push([x, y]);
    }
  });
  const first = rows[0].line;
  if (char === undefined) throw badInput(`${at(first, 1)}: the picture has no cells`);
  const name = spec.name ?? char;
  if (!isConnected(cells)) throw badInput(`${at(first, 1)}: piece "${name}" is not one connected polyomino`);
  return { name, cells: normalize(cells), oneSided: spec.oneSided, count: spec.count, atMost: spec.atMost };
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
      if (new Set(spec.shape.map((c) => `${c[0]},${c[1]}`)).size !== spec.shape.length) {
        throw badInput(`piece "${spec.name}" lists a cell twice`);
      }
      cells = normalize(spec.shape);
    } else {
      throw badInput(`piece "${spec.name}": the shape must be a picture or a non-empty list of [x, y] cells`);
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
  for (const piece of pieces) {
    if (names.has(piece.name)) throw badInput(`two pieces are named "${piece.name}"`);
    names.set(piece.name, piece);
    for (const shape of orientations(piece.cells, piece.oneSided)) {
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
