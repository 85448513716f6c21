// Published N-Queens counts: OEIS A000170 (total) and A002562 (distinct under the 8 board
// symmetries), as listed in the project's known-results table.
export const QUEENS: Record<number, { total: bigint; distinct: bigint }> = {
  1: { total: 1n, distinct: 1n },
  2: { total: 0n, distinct: 0n },
  3: { total: 0n, distinct: 0n },
  4: { total: 2n, distinct: 1n },
  5: { total: 10n, distinct: 2n },
  6: { total: 4n, distinct: 1n },
  7: { total: 40n, distinct: 6n },
  8: { total: 92n, distinct: 12n },
  9: { total: 352n, distinct: 46n },
  10: { total: 724n, distinct: 92n },
  11: { total: 2680n, distinct: 341n },
  12: { total: 14200n, distinct: 1787n },
  13: { total: 73712n, distinct: 9233n },
  14: { total: 365596n, distinct: 45752n },
  15: { total: 2279184n, distinct: 285053n },
  16: { total: 14772512n, distinct: 1846955n },
  17: { total: 95815104n, distinct: 11977939n },
  18: { total: 666090624n, distinct: 83263591n },
};

// The 12 free pentominoes, each once (the project's known-results table): every tiling and
// the distinct ones up to the region's symmetries.
export const PENTOMINO_REGIONS: Array<{ name: string; region: string; total: bigint; distinct: bigint }> = [
  { name: '6×10', region: '6x10', total: 9356n, distinct: 2339n },
  { name: '5×12', region: '5x12', total: 4040n, distinct: 1010n },
  { name: '4×15', region: '4x15', total: 1472n, distinct: 368n },
  { name: '3×20', region: '3x20', total: 8n, distinct: 2n },
  {
    name: '8×8 minus its central 2×2',
    region: ['........', '........', '........', '...##...', '...##...', '........', '........', '........'].join('\n'),
    total: 520n,
    distinct: 65n,
  },
];
