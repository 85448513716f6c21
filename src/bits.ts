// Bit helpers on 32-bit words, for the pure-TS twins of the engines.

/** The index of the lowest set bit (-1 for 0). */
export const ctz32 = (x: number): number => 31 - Math.clz32(x & -x);

/** The number of set bits. */
export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}
