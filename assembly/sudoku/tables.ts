// Lookup tables of the 9×9 Sudoku engine, built once when the module starts.
//
// A digit's candidates are three 27-bit words, one per band (a band is three rows of boxes):
// row r of the band at bits 9r..9r+8, column c at bit c. Within a band a digit sits once in
// each row and once in each box, so the band's 3×3 "minirow" matrix (bit 3r + k: row r has
// the digit somewhere in box k) must contain a permutation matrix; the same holds for a
// stack (three columns of boxes) with "minicolumns". Tables below map those matrices.

/** 9-bit row → its three minirows (bit k: some cell of box k). */
export const MINIROW: usize = memory.data(512);
/** 3×3 matrix → the union of the six permutation matrices it contains (0: none, a contradiction). */
export const PERMUTATIONS: usize = memory.data(512 * 2);
/** 3×3 minirow matrix → the 27 cells of those minirows. */
export const CELLS_OF_MINIROWS: usize = memory.data(512 * 4);
/** 9-bit row → itself when it holds exactly one bit, else 0. */
export const LONE: usize = memory.data(512 * 2);
/** Cell (0..80) → its 20 peers as three band words. */
export const PEERS: usize = memory.data(81 * 3 * 4);

@inline export function minirowOf(row: u32): u32 {
  return <u32>load<u8>(MINIROW + row);
}
@inline export function permutationsOf(matrix: u32): u32 {
  return <u32>load<u16>(PERMUTATIONS + (matrix << 1));
}
@inline export function cellsOfMinirows(matrix: u32): u32 {
  return load<u32>(CELLS_OF_MINIROWS + (matrix << 2));
}
@inline export function lone(row: u32): u32 {
  return <u32>load<u16>(LONE + (row << 1));
}
@inline export function peers(cell: i32, band: i32): u32 {
  return load<u32>(PEERS + <usize>(cell * 3 + band) * 4);
}

/** Rows of a band word spread to all three rows: a 9-bit column mask times this. */
export const ALL_ROWS: u32 = 0x40201;
export const BAND: u32 = 0x7ffffff;

function buildTables(): void {
  for (let x: u32 = 0; x < 512; x++) {
    store<u8>(MINIROW + x, <u8>(((x & 7) != 0 ? 1 : 0) | ((x & 0x38) != 0 ? 2 : 0) | ((x & 0x1c0) != 0 ? 4 : 0)));
    store<u16>(LONE + (x << 1), <u16>(x != 0 && (x & (x - 1)) == 0 ? x : 0));
    let cells: u32 = 0;
    for (let r: u32 = 0; r < 3; r++) {
      for (let k: u32 = 0; k < 3; k++) if (((x >> (3 * r + k)) & 1) != 0) cells |= <u32>7 << (9 * r + 3 * k);
    }
    store<u32>(CELLS_OF_MINIROWS + (x << 2), cells);
    // The six permutations of three: box of row 0, row 1, row 2.
    let union: u32 = 0;
    for (let a: u32 = 0; a < 3; a++) {
      for (let b: u32 = 0; b < 3; b++) {
        if (b == a) continue;
        const c = 3 - a - b;
        const p = (<u32>1 << a) | (<u32>1 << (3 + b)) | (<u32>1 << (6 + c));
        if ((x & p) == p) union |= p;
      }
    }
    store<u16>(PERMUTATIONS + (x << 1), <u16>union);
  }
  for (let cell = 0; cell < 81; cell++) {
    const row = cell / 9;
    const col = cell % 9;
    for (let other = 0; other < 81; other++) {
      if (other == cell) continue;
      const r = other / 9;
      const c = other % 9;
      if (r == row || c == col || (r / 3 == row / 3 && c / 3 == col / 3)) {
        const at = PEERS + <usize>(cell * 3 + r / 3) * 4;
        store<u32>(at, load<u32>(at) | (<u32>1 << <u32>(9 * (r % 3) + c)));
      }
    }
  }
}

buildTables();
