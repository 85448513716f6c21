// The xorshift64 generator (Marsaglia 2003, shifts 13, 7, 17) the engines draw their random
// numbers and Zobrist keys from: fast, and the same sequence from the same seed everywhere.

/** The state after `x` (not 0): the next number of the sequence. */
@inline export function xorshift64(x: u64): u64 {
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return x;
}
