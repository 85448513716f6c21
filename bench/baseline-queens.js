// The usual JS baseline: a plain recursive bitmask N-Queens counter with only the
// half-first-row mirror (no symmetry classes), to compare the engines against.

function solve(full, ld, cols, rd) {
  if (cols === full) return 1;
  let count = 0;
  let poss = full & ~(ld | cols | rd);
  while (poss !== 0) {
    const bit = poss & -poss;
    poss ^= bit;
    count += solve(full, (ld | bit) << 1, cols | bit, (rd | bit) >>> 1);
  }
  return count;
}

/** The number of solutions of the n×n board (1 ≤ n ≤ 30, so every mask stays a small int). */
export function countQueens(n) {
  const full = (1 << n) - 1;
  let total = 0;
  // First-row columns left of the middle count twice (mirror image); the middle one (odd n) once.
  for (let c = 0; c < n >> 1; c++) {
    const bit = 1 << c;
    total += solve(full, bit << 1, bit, bit >>> 1);
  }
  total *= 2;
  if (n & 1) {
    const bit = 1 << (n >> 1);
    total += solve(full, bit << 1, bit, bit >>> 1);
  }
  return total;
}
