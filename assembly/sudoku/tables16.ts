// Lookup tables of the 16×16 Sudoku engine (box size 4). A digit's candidates are four 64-bit
// words, one per band (four rows of boxes): row r of the band at bits 16r..16r+15, column c at
// bit c. As in 9×9, a band's 4×4 minirow matrix (bit 4r + k: row r has the digit in box k) and a
// stack's 4×4 minicolumn matrix must contain a permutation matrix.

/** 4×4 matrix → the union of the 24 permutation matrices it contains (0: none). Built on first use. */
const PERMUTATIONS4: usize = memory.data(65536 * 2);
let permutationsBuilt = false;
/** 4-bit box mask → the 16 cells of a row in those boxes. */
const CELLS_OF_BOXES: usize = memory.data(16 * 2);
/** The 24 permutation matrices of four (the box of each row), for building PERMUTATIONS4. */
const PERMS: usize = memory.data(24 * 4);
/** Cell (0..255) → its 39 peers as four band words. */
export const PEERS16: usize = memory.data(256 * 4 * 8);

@inline export function permutations4(matrix: u64): u64 {
  return <u64>load<u16>(PERMUTATIONS4 + (<usize>matrix << 1));
}
@inline export function cellsOfBoxes(boxes: u64): u64 {
  return <u64>load<u16>(CELLS_OF_BOXES + (<usize>boxes << 1));
}
@inline export function peers16(cell: i32, band: i32): u64 {
  return load<u64>(PEERS16 + <usize>(cell * 4 + band) * 8);
}

/** Builds the 4×4 permutation table (a few milliseconds): done by the first 16×16 search, not at start. */
export function buildPermutations4(): void {
  if (permutationsBuilt) return;
  // The 24 permutation matrices: the box of each of the four rows.
  let n = 0;
  for (let a: u32 = 0; a < 4; a++) {
    for (let b: u32 = 0; b < 4; b++) {
      for (let c: u32 = 0; c < 4; c++) {
        if (b == a || c == a || c == b) continue;
        const d = 6 - a - b - c;
        store<u32>(PERMS + <usize>n * 4, (<u32>1 << a) | (<u32>1 << (4 + b)) | (<u32>1 << (8 + c)) | (<u32>1 << (12 + d)));
        n++;
      }
    }
  }
  for (let x: u32 = 0; x < 65536; x++) {
    let union: u32 = 0;
    for (let i = 0; i < 24; i++) {
      const p = load<u32>(PERMS + <usize>i * 4);
      if ((x & p) == p) union |= p;
    }
    store<u16>(PERMUTATIONS4 + (<usize>x << 1), <u16>union);
  }
  permutationsBuilt = true;
}

function buildTables(): void {
  for (let x: u32 = 0; x < 16; x++) {
    let cells: u32 = 0;
    for (let k: u32 = 0; k < 4; k++) if (((x >> k) & 1) != 0) cells |= <u32>15 << (4 * k);
    store<u16>(CELLS_OF_BOXES + (<usize>x << 1), <u16>cells);
  }
  for (let cell = 0; cell < 256; cell++) {
    const row = cell >> 4;
    const col = cell & 15;
    for (let other = 0; other < 256; other++) {
      if (other == cell) continue;
      const r = other >> 4;
      const c = other & 15;
      if (r == row || c == col || (r >> 2 == row >> 2 && c >> 2 == col >> 2)) {
        const at = PEERS16 + <usize>(cell * 4 + (r >> 2)) * 8;
        store<u64>(at, load<u64>(at) | (<u64>1 << <u64>(16 * (r & 3) + c)));
      }
    }
  }
}

buildTables();
