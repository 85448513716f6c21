// N-Queens counted by joining half-boards instead of backtracking every solution: a first
// yardstick of the method issue 37 asks for, in C, before any engine has it.
//   queens-join N [BASE]    prints "total=<count> states=<partial half-boards> joins=<row splits>
//                           pairs=<pairs tested one by one> ms=<milliseconds> cpu=<CPU milliseconds>"
//
// The method. Cut the board between columns h-1 and h (h = N/2): every solution puts k = N-h
// queens in the east columns, on some set R of k rows, and h queens in the west, on the other
// rows. The two halves of a solution only meet on the diagonals that cross the cut, 2(N-1) of
// them, so a solution is a pair (east half on R, west half on the rest) whose crossing
// diagonals are disjoint: count = sum over R of the disjoint pairs of two lists of u64 masks.
//
// The lists are built once for every R, with no search repeated: the rows are decided in order,
// each going east or west, and each node keeps every partial placement of both sides so far
// (columns, and both diagonal families as bits of u64), so a prefix of rows is extended once
// whichever rows follow. The disjoint pairs are counted by splitting both lists on one crossing
// diagonal at a time (a pair where both hold it can never count: three of the four sub-joins
// remain), down to BASE×BASE pairs tested one by one.
//
// The mirror halves the work: for even N the count with row 0's queen east, doubled; for odd N
// twice the count with row 0's queen west (middle column excluded), plus the middle column. At
// the leaves the flip, the half turn or the mirror pairs the splits: half of them are joined.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef unsigned long long u64;
typedef unsigned u32;

// A partial half-board: its columns, and its queens' diagonals (anti r+c, main c-r+N-1) as bits.
typedef struct { u32 anti, main, cols; } Half;

static int n, h, k;
static u32 eastCols, westCols;
static u64 crossMask; // N-1 crossing diagonals of each family
static Half *arena;   // the lists of the nodes on the current path, one after another
static long top, cap;
static u64 *maskE, *maskW;
static long maskCap;
static long base = 48;
static int order[64], orderLength;
static u64 states, joins, pairs;

static double now(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

// Disjoint pairs of two lists of crossing masks. Both are sorted into 2^t buckets by t key bits
// (the diagonals most often held on both sides); a pair of buckets whose keys meet never counts,
// so only 3^t of the 4^t bucket pairs are looked at. Within a pair the larger list's items go in
// blocks of 64, held bit-sliced: for each remaining bit, a word of the block's items without it,
// and for each group of 4 bits, the 16 ANDs of those words; a query ANDs one word per group its
// bits touch and counts the bits left: 64 pairs in a few operations.
#define MAXT 14
static u64 *sortedA, *sortedB; static long sortCap;
static long startA[(1 << MAXT) + 1], startB[(1 << MAXT) + 1];
static int keyBits;
static u64 keyMask;

static inline long keyOf(u64 x) {
  long key = 0;
  for (int i = 0; i < keyBits; i++) key |= (long)((x >> order[i]) & 1) << i;
  return key;
}

// Counting sort by key; the key bits are cleared from the items (they were settled by the bucket).
static void bucketSort(const u64 *in, long length, u64 *out, long *start) {
  long size = 1L << keyBits;
  for (long b = 0; b <= size; b++) start[b] = 0;
  for (long i = 0; i < length; i++) start[keyOf(in[i]) + 1]++;
  for (long b = 0; b < size; b++) start[b + 1] += start[b];
  for (long i = 0; i < length; i++) out[start[keyOf(in[i])]++] = in[i] & ~keyMask;
  for (long b = size; b > 0; b--) start[b] = start[b - 1];
  start[0] = 0;
}

static int maskBits; // 2(n-1): anti-diagonals low, main diagonals above

static u64 disjointPairs(u64 *a, long na, u64 *b, long nb) {
  if (!na || !nb) return 0;
  if (na < nb) { u64 *x = a; a = b; b = x; long y = na; na = nb; nb = y; }
  keyBits = 0;
  while (keyBits < orderLength && keyBits < MAXT && (na >> (keyBits + 1)) >= base) keyBits++;
  keyMask = 0;
  for (int i = 0; i < keyBits; i++) keyMask |= 1ULL << order[i];
  if (na > sortCap) {
    sortCap = na * 2;
    sortedA = realloc(sortedA, sortCap * 8); sortedB = realloc(sortedB, sortCap * 8);
  }
  bucketSort(a, na, sortedA, startA);
  bucketSort(b, nb, sortedB, startB);
  int chunks = (maskBits + 3) / 4;
  u64 tables[16 * 16];
  u64 count = 0;
  long size = 1L << keyBits, all = size - 1;
  for (long i = 0; i < size; i++) {
    for (long from = startA[i]; from < startA[i + 1]; from += 64) {
      long items = startA[i + 1] - from < 64 ? startA[i + 1] - from : 64;
      u64 valid = items == 64 ? ~0ULL : (1ULL << items) - 1;
      // the block bit-sliced: with[j] = the items that hold bit j
      u64 with[64] = {0};
      for (long x = 0; x < items; x++)
        for (u64 bits = sortedA[from + x]; bits; bits &= bits - 1) with[__builtin_ctzll(bits)] |= 1ULL << x;
      for (int c = 0; c < chunks; c++) {
        u64 *tab = tables + c * 16;
        tab[0] = valid;
        for (int v = 1; v < 16; v++) tab[v] = tab[v & (v - 1)] & ~with[c * 4 + __builtin_ctz(v)];
      }
      // every bucket of b whose key misses key i
      long free = all & ~i;
      for (long jb = free;; jb = (jb - 1) & free) {
        for (long q = startB[jb]; q < startB[jb + 1]; q++) {
          u64 acc = valid, x = sortedB[q];
          for (int c = 0; x; c++, x >>= 4) acc &= tables[c * 16 + (x & 15)];
          count += __builtin_popcountll(acc);
        }
        pairs += (startB[jb + 1] - startB[jb]) * 64;
        if (!jb) break;
      }
    }
  }
  return count;
}

// A side's diagonals are kept from its first possible one (east: h, west: 0), in 32 bits for N ≤ 22.
static u64 crossing(const Half *s, int offset) {
  return ((s->anti >> (h - offset)) & crossMask) | (((u64)(s->main >> (h - offset)) & crossMask) << (n - 1));
}

static u64 join(const Half *east, long ne, const Half *west, long nw) {
  if (ne + nw > maskCap) {
    maskCap = (ne + nw) * 2;
    maskE = realloc(maskE, maskCap * 8);
    maskW = realloc(maskW, maskCap * 8);
  }
  u64 onE[64] = {0}, onW[64] = {0};
  for (long i = 0; i < ne; i++) maskE[i] = crossing(&east[i], h);
  for (long i = 0; i < ne; i += 1 + ne / 512) for (u64 x = maskE[i]; x; x &= x - 1) onE[__builtin_ctzll(x)]++;
  for (long i = 0; i < nw; i++) maskW[i] = crossing(&west[i], 0);
  for (long i = 0; i < nw; i += 1 + nw / 512) for (u64 x = maskW[i]; x; x &= x - 1) onW[__builtin_ctzll(x)]++;
  // Split first on the diagonals most often held by both sides: they prune the most pairs.
  double score[64];
  orderLength = 0;
  for (int b = 0; b < 64; b++)
    if (onE[b] && onW[b]) score[b] = (double)onE[b] * onW[b], order[orderLength++] = b;
  for (int x = 1; x < orderLength; x++) {
    int v = order[x], y = x;
    for (; y > 0 && score[order[y - 1]] < score[v]; y--) order[y] = order[y - 1];
    order[y] = v;
  }
  joins++;
  return disjointPairs(maskE, ne, maskW, nw);
}

// The list (at the arena's top) of list[from..from+length) each with a queen in row r on `columns`.
static inline u64 shiftRight(u64 x, int by) { return by >= 0 ? x >> by : x << -by; }

static long extend(long from, long length, int r, u32 columns, int offset) {
  long start = top;
  int antiShift = r - offset, mainShift = n - 1 - r - offset;
  for (long i = 0; i < length; i++) {
    Half s = arena[from + i];
    u32 free = columns & ~s.cols & ~(u32)shiftRight(s.anti, antiShift) & ~(u32)shiftRight(s.main, mainShift);
    if (top + 16 > cap) arena = realloc(arena, (cap *= 2) * sizeof(Half));
    for (; free; free &= free - 1) {
      int c = __builtin_ctz(free);
      arena[top++] = (Half){s.anti | 1u << (c + antiShift), s.main | 1u << (c + mainShift), s.cols | 1u << c};
    }
  }
  states += top - start;
  return top - start;
}

static u32 reverse(u32 rows) {
  u32 out = 0;
  for (int r = 0; r < n; r++) if (rows >> r & 1) out |= 1u << (n - 1 - r);
  return out;
}

// The count of the row splits after row r: `rows` the east rows so far. At a leaf a symmetry
// pairs the split with a partner of equal count (see assembly/queens/join.ts): of the two only
// the lesser is joined, counted twice. `symmetric`: the part is doubled by the mirror (all but
// odd N's row 0 in the middle column).
static int symmetric;
static u32 partnerOf(u32 rows) {
  u32 all = (1u << n) - 1, last = rows >> (n - 1) & 1;
  if (n % 2 == 0) return last ? reverse(rows) : reverse(all & ~rows); // the flip, or the half turn
  if (symmetric) return last ? rows : reverse(rows);                   // the flip, row 0 and N-1 west
  return 1 | (all & ~rows); // row 0 in the middle column: the mirror keeps it there
}

static u64 count(int r, u32 rows, long east, long ne, int eastRows, long west, long nw, int westRows) {
  if (r == n) {
    u32 partner = partnerOf(rows);
    if (partner < rows) return 0;
    return (partner == rows ? 1 : 2) * join(arena + east, ne, arena + west, nw);
  }
  u64 total = 0;
  long mark = top;
  // The last row makes a leaf: one whose partner is joined instead is not made at all.
  if (r == n - 1) {
    u32 leaf = eastRows < k ? rows | 1u << r : rows;
    if (partnerOf(leaf) < leaf) return 0;
  }
  if (eastRows < k) {
    long length = extend(east, ne, r, eastCols, h);
    if (length) total += count(r + 1, rows | 1u << r, mark, length, eastRows + 1, west, nw, westRows);
    top = mark;
  }
  if (westRows < h) {
    long length = extend(west, nw, r, westCols, 0);
    if (length) total += count(r + 1, rows, east, ne, eastRows, mark, length, westRows + 1);
    top = mark;
  }
  return total;
}

int main(int argc, char **argv) {
  n = argc > 1 ? atoi(argv[1]) : 0;
  if (n < 4 || n > 22) { fprintf(stderr, "usage: queens-join N [BASE], N from 4 to 22\n"); return 2; }
  if (argc > 2) base = atol(argv[2]);
  h = n / 2, k = n - h;
  westCols = (1u << h) - 1;
  eastCols = ((1u << n) - 1) & ~westCols;
  crossMask = (1ULL << (n - 1)) - 1;
  maskBits = 2 * (n - 1);
  arena = malloc((cap = 1 << 20) * sizeof(Half));
  double wall = now(CLOCK_MONOTONIC), cpu = now(CLOCK_PROCESS_CPUTIME_ID);
  arena[0] = (Half){0, 0, 0}; // the empty half-board, both sides' list at the root
  top = 1;
  u64 total;
  if (n % 2 == 0) {
    long length = extend(0, 1, 0, eastCols, h);
    symmetric = 1;
    total = 2 * count(1, 1, 1, length, 1, 0, 1, 0);
  } else {
    long length = extend(0, 1, 0, westCols, 0);
    symmetric = 1;
    u64 west = count(1, 0, 0, 1, 0, 1, length, 1);
    top = 1;
    length = extend(0, 1, 0, 1u << h, h);
    symmetric = 0;
    total = 2 * west + count(1, 1, 1, length, 1, 0, 1, 0);
  }
  printf("total=%llu states=%llu joins=%llu pairs=%llu ms=%.3f cpu=%.3f\n", total, states, joins, pairs,
         now(CLOCK_MONOTONIC) - wall, now(CLOCK_PROCESS_CPUTIME_ID) - cpu);
  return 0;
}
