// Lookup tables of the 16×16 Sudoku engine (box size 4). A digit's candidates are four 64-bit
// words, one per band (four rows of boxes): row r of the band at bits 16r..16r+15, column c at
// bit c. As in 9×9, a band's 4×4 minirow matrix (bit 4r + k: row r has the digit in box k) and a
// stack's 4×4 minicolumn matrix must contain a permutation matrix.

/**
 * The permutation matrices inside a 4×4 matrix, by halves: a permutation gives rows 0-1 two of
 * the four columns and rows 2-3 the other two. For a two-row matrix (8 bits), byte s of TOP is
 * the union of its 2×2 permutations on the columns of pair s (pairs 0-5: {0,1} {0,2} {0,3}
 * {1,2} {1,3} {2,3}), and byte s of BOTTOM the same on the columns pair s leaves (pair 5 - s).
 */
const TOP: usize = memory.data(256 * 8);
const BOTTOM: usize = memory.data(256 * 8);
/** 4-bit box mask → the 16 cells of a row in those boxes. */
const CELLS_OF_BOXES: usize = memory.data(16 * 2);

const LOW7: u64 = 0x7f7f7f7f7f7f7f7f;
const HIGH: u64 = 0x8080808080808080;

/** 4×4 matrix → the union of the 24 permutation matrices it contains (0: none, a contradiction). */
@inline export function permutations4(matrix: u64): u64 {
  const top = load<u64>(TOP + (<usize>(matrix & 0xff) << 3));
  const bottom = load<u64>(BOTTOM + (<usize>(matrix >> 8) << 3));
  // The pairs whose two halves are both possible (a byte's high bit set when it is not zero),
  // then each side's bytes of those pairs ORed together.
  const both = ((top & LOW7) + LOW7 | top) & ((bottom & LOW7) + LOW7 | bottom) & HIGH;
  const keep = (both >> 7) * 0xff;
  let t = top & keep;
  let b = bottom & keep;
  t |= t >> 32;
  t |= t >> 16;
  t |= t >> 8;
  b |= b >> 32;
  b |= b >> 16;
  b |= b >> 8;
  return (t & 0xff) | ((b & 0xff) << 8);
}
@inline export function cellsOfBoxes(boxes: u64): u64 {
  return <u64>load<u16>(CELLS_OF_BOXES + (<usize>boxes << 1));
}
/** A cell's 39 peers in a band's word, worked out (a table would take 8 KB of every instance's memory). */
@inline export function peers16(cell: i32, band: i32): u64 {
  const column: u64 = <u64>0x0001000100010001 << <u64>(cell & 15);
  if (band != cell >> 6) return column;
  const row: u64 = <u64>0xffff << <u64>(cell & 48);
  const box: u64 = <u64>0x000f000f000f000f << <u64>(cell & 12);
  return (column | row | box) & ~(<u64>1 << <u64>(cell & 63));
}

function buildTables(): void {
  const pairs: u64 = 0x323121302010; // pair s: columns a (low nibble of byte s) and b (high nibble)
  for (let x: u32 = 0; x < 256; x++) {
    let top: u64 = 0;
    let bottom: u64 = 0;
    for (let s: u64 = 0; s < 6; s++) {
      const a = <u32>((pairs >> (8 * s)) & 15);
      const b = <u32>((pairs >> (8 * s + 4)) & 15);
      let union: u32 = 0;
      const straight = (<u32>1 << a) | (<u32>1 << (4 + b)); // row 0 in column a, row 1 in b
      const crossed = (<u32>1 << b) | (<u32>1 << (4 + a));
      if ((x & straight) == straight) union |= straight;
      if ((x & crossed) == crossed) union |= crossed;
      top |= <u64>union << (8 * s);
      bottom |= <u64>union << (8 * (5 - s));
    }
    store<u64>(TOP + (<usize>x << 3), top);
    store<u64>(BOTTOM + (<usize>x << 3), bottom);
  }
  for (let x: u32 = 0; x < 16; x++) {
    let cells: u32 = 0;
    for (let k: u32 = 0; k < 4; k++) if (((x >> k) & 1) != 0) cells |= <u32>15 << (4 * k);
    store<u16>(CELLS_OF_BOXES + (<usize>x << 1), <u16>cells);
  }
}

buildTables();
