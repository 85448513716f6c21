// Slow checks of polycube packing (minutes on a shared machine): run by `npm run test:slow`.
import { describe, expect, it } from 'vitest';
import { polyomino } from '../dist/index.js';

/** Every cell of the box once, every piece once and in a rotation of its own shape (checked here, not by the library). */
function replay(s: polyomino.TilingSolution, pieces: polyomino.Piece[]): void {
  const key = (cells: readonly (readonly number[])[]): string => {
    const min = [0, 1, 2].map((i) => Math.min(...cells.map((c) => c[i])));
    return cells.map((c) => c.map((v, i) => v - min[i]).join(',')).sort().join(' ');
  };
  // The 24 rotations: a permutation of the axes with signs whose determinant is +1.
  const rotations: ((c: readonly number[]) => number[])[] = [];
  for (const p of [[0, 1, 2], [1, 2, 0], [2, 0, 1], [1, 0, 2], [0, 2, 1], [2, 1, 0]]) {
    const even = p[0] === 0 ? p[1] === 1 : p[0] === 1 ? p[1] === 2 : p[1] === 0;
    for (let bits = 0; bits < 8; bits++) {
      const sign = [0, 1, 2].map((i) => ((bits >> i) & 1 ? -1 : 1));
      if ((even ? 1 : -1) * sign[0] * sign[1] * sign[2] === 1) rotations.push((c) => p.map((axis, i) => sign[i] * c[axis]));
    }
  }
  const seen = new Set<string>();
  for (const placed of s.pieces) {
    const piece = pieces.find((p) => p.name === placed.piece)!;
    expect(rotations.some((r) => key(piece.cells.map(r)) === key(placed.cells))).toBe(true);
    for (const c of placed.cells) seen.add(c.join(','));
  }
  expect(seen.size).toBe(s.width * s.height * s.depth!);
  expect(new Set(s.pieces.map((p) => p.piece)).size).toBe(pieces.length);
}

describe('polycubes (published figures)', () => {
  it('the 12 flat pentacubes fill a 3×4×5 box in 3,940 distinct ways', async () => {
    const result = await polyomino.count({ region: '3x4x5', pieces: 'flat-pentacubes' }, { threads: 2 });
    expect([result.total, result.distinct, result.symmetries]).toEqual([31520n, 3940n, 8]);
  });

  it('Bedlam cube: 19,186 distinct up to the cube\'s 24 rotations (460,464 in all); the first distinct solutions replay', async () => {
    const problem = { region: '4x4x4', pieces: 'bedlam' };
    const result = await polyomino.count(problem, { threads: 2 });
    expect([result.total, result.distinct, result.symmetries]).toEqual([460464n, 19186n, 24]);
    const pieces = polyomino.pieceSet('bedlam');
    let n = 0;
    for await (const s of polyomino.solutions(problem, { distinct: true, limit: 50 })) {
      replay(s, pieces);
      n++;
    }
    expect(n).toBe(50);
  });
});
