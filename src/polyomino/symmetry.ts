// The symmetries of a tiling problem and the root restriction that counts each class of
// solutions once.
//
// A symmetry of the problem is a grid symmetry that maps the region onto itself and the
// piece set onto itself (a one-sided piece may turn into its mirror piece, if the set has
// it with the same count). Counting: pick a piece P used exactly once that every symmetry
// maps to itself. Its placements fall into orbits; fixing P at one representative r of an
// orbit O finds N(r) solutions, and the solutions with P anywhere in O number |O|·N(r).
// Two solutions with P at r are the same up to symmetry only by a symmetry that fixes r;
// when r lies on a mirror line or at the centre such symmetries exist, and a leaf counts as
// distinct only when none of them maps it to a smaller labelling. Without such a piece, no
// placement is fixed and every leaf is compared with all its images.
import { directionsOf, isSpatial, normalize, orientations, shapeKey, transformAny, transformCount, transformDirectionAny, type Cell } from './shapes.js';
import type { Piece } from './pieces.js';
import type { Steps } from '../wasm/protocol.js';

/** A symmetry of a problem: how it maps cells, pieces and directions. */
export interface Symmetry {
  /** Index into TRANSFORMS (on a plane) or TRANSFORMS3 (in space). */
  transform: number;
  /** The cell each cell is mapped to. */
  cellImage: Int32Array;
  /** The piece each piece is mapped to. */
  pieceImage: number[];
  /** The direction (up, right, down, left; in space also above, below) each direction is mapped to. */
  directionImage: number[];
}

/** A part of the work: placements fixed in advance, the weight of each leaf, the symmetries to compare with. */
export interface Part {
  /** Placements (indices into Prepared.placements) put down before the search. */
  pre: number[];
  /** The solutions each solution found in the part stands for (the size of its orbit). */
  weight: number;
  /** Bit s: compare leaves with their image under symmetry s. */
  mask: number;
}

/**
 * The non-identity symmetries of the region that map the piece set onto itself. In space,
 * a symmetry that moves no cell (a flat box turned over) or moves them as an earlier one
 * does is left out: the list holds each permutation of the cells once.
 */
export function* problemSymmetries(cells: readonly Cell[], index: (cell: Cell) => number, pieces: readonly Piece[]): Steps<Symmetry[]> {
  const symmetries: Symmetry[] = [];
  const spatial = isSpatial(cells);
  const { all, rotations } = transformCount(spatial);
  const keys = pieceKeys(pieces, rotations);
  yield;
  const seen = new Set<string>();
  if (spatial) seen.add(cells.map((_, c) => c).join(','));
  for (let t = 1; t < all; t++) {
    yield; // a transform of every cell: on a large region, a step
    const images = cells.map((c) => transformAny(c, t));
    const mins = [0, 1, 2].slice(0, spatial ? 3 : 2).map((i) => Math.min(...images.map((c) => c[i]!)));
    const cellImage = new Int32Array(cells.length);
    let regionMaps = true;
    images.forEach((image, c) => {
      const target = index(image.map((v, i) => v - mins[i]) as unknown as Cell);
      if (target < 0) regionMaps = false;
      cellImage[c] = target;
    });
    if (!regionMaps) continue;
    const key = cellImage.join(',');
    if (spatial && seen.has(key)) continue;
    const pieceImage = pieceImages(pieces, keys, t < rotations);
    if (!pieceImage) continue;
    seen.add(key);
    const directionImage = directionsOf(spatial).map((_, d) => transformDirectionAny(d, t, spatial));
    symmetries.push({ transform: t, cellImage, pieceImage, directionImage });
  }
  return symmetries;
}

function orientationSetKey(cells: readonly Cell[], oneSided: boolean): string {
  return orientations(cells, oneSided).map(shapeKey).sort().join('|');
}

/**
 * Each piece's set of orientations as a key, and that of its mirror image. A transform maps a
 * piece's orientations onto those of its image: a free piece's set is the same under every
 * transform, a one-sided piece's under the rotations, and its mirror's under every reflection
 * (the rotations followed by one reflection are all the reflections). So two keys a piece
 * serve for every transform, found once rather than once a transform.
 */
function pieceKeys(pieces: readonly Piece[], rotations: number): { own: string[]; mirrored: string[] } {
  const reflection = rotations; // the first transform after the rotations is a reflection
  const own = pieces.map((p) => orientationSetKey(p.cells, p.oneSided));
  const mirrored = pieces.map((p, i) => (p.oneSided ? orientationSetKey(normalize(p.cells.map((c) => transformAny(c, reflection))), true) : own[i]));
  return { own, mirrored };
}

/** Where a transform (a rotation or not) takes each piece: the piece of the same orientations, count and bound; null when one has none. */
function pieceImages(pieces: readonly Piece[], keys: { own: string[]; mirrored: string[] }, rotation: boolean): number[] | null {
  const images: number[] = [];
  for (const [p, piece] of pieces.entries()) {
    const key = rotation ? keys.own[p] : keys.mirrored[p];
    const image = pieces.findIndex((q, i) => keys.own[i] === key && q.count === piece.count && q.atMost === piece.atMost);
    if (image < 0) return null;
    images.push(image);
  }
  return images;
}

interface PlacementLike {
  kind: number;
  cells: number[];
}

/**
 * The parts of a count or a distinct listing: one per orbit representative of the
 * restricted piece's placements, or the whole search when there is no symmetry or no
 * piece to restrict.
 */
export function rootParts(
  pieces: readonly Piece[],
  placements: readonly PlacementLike[],
  symmetries: readonly Symmetry[],
): Part[] {
  if (symmetries.length === 0) return [{ pre: [], weight: 1, mask: 0 }];
  const counts = new Array<number>(pieces.length).fill(0);
  for (const p of placements) counts[p.kind]++;
  let restricted: number | null = null;
  pieces.forEach((piece, k) => {
    const fixed = symmetries.every((s) => s.pieceImage[k] === k);
    if (piece.count === 1 && !piece.atMost && fixed && counts[k] > 0 && (restricted === null || counts[k] < counts[restricted])) {
      restricted = k;
    }
  });
  if (restricted === null) {
    return [{ pre: [], weight: 1, mask: 2 ** symmetries.length - 1 }];
  }
  const byCells = new Map<string, number>();
  placements.forEach((p, id) => {
    if (p.kind === restricted) byCells.set(p.cells.join(','), id);
  });
  const done = new Set<number>();
  const parts: Part[] = [];
  placements.forEach((p, id) => {
    if (p.kind !== restricted || done.has(id)) return;
    const orbit = new Set([id]);
    let mask = 0;
    symmetries.forEach((s, i) => {
      const image = byCells.get(
        p.cells
          .map((c) => s.cellImage[c])
          .sort((a, b) => a - b)
          .join(','),
      )!;
      orbit.add(image);
      if (image === id) mask += 2 ** i; // masks have up to 63 bits: no 32-bit `|`
    });
    orbit.forEach((o) => done.add(o));
    parts.push({ pre: [id], weight: orbit.size, mask });
  });
  return parts;
}
