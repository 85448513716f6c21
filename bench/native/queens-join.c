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
// twice the count with row 0's queen west (middle column excluded), plus the middle column.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef unsigned long long u64;
typedef unsigned u32;

// A partial half-board: its columns, and its queens' diagonals (anti r+c, main c-r+N-1) as bits.
typedef struct { u64 anti, main; u32 cols; } Half;

static int n, h, k;
static u32 eastCols, westCols;
static u64 crossMask; // N-1 crossing diagonals of each family
static Half *arena;   // the lists of the nodes on the current path, one after another
static long top, cap;
static u64 *maskE, *maskW;
static long maskCap;
static long base = 96;
static int order[64], orderLength;
static u64 states, joins, pairs;

static double now(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

// Disjoint pairs of A and B, the bits order[d..] still to split on.
static u64 disjointPairs(u64 *a, long na, u64 *b, long nb, int d) {
  if (!na || !nb) return 0;
  if (d == orderLength || na * nb <= base * base) {
    pairs += (u64)na * nb;
    u64 count = 0;
    for (long i = 0; i < na; i++)
      for (long j = 0; j < nb; j++) count += (a[i] & b[j]) == 0;
    return count;
  }
  u64 bit = 1ULL << order[d];
  long i = 0, j = na;
  while (i < j) if (a[i] & bit) { u64 x = a[i]; a[i] = a[--j]; a[j] = x; } else i++;
  long a0 = i;
  i = 0, j = nb;
  while (i < j) if (b[i] & bit) { u64 x = b[i]; b[i] = b[--j]; b[j] = x; } else i++;
  long b0 = i;
  return disjointPairs(a, a0, b, b0, d + 1) + disjointPairs(a + a0, na - a0, b, b0, d + 1) +
         disjointPairs(a, a0, b + b0, nb - b0, d + 1);
}

static u64 crossing(const Half *s) { return ((s->anti >> h) & crossMask) | (((s->main >> h) & crossMask) << 32); }

static u64 join(const Half *east, long ne, const Half *west, long nw) {
  if (ne + nw > maskCap) {
    maskCap = (ne + nw) * 2;
    maskE = realloc(maskE, maskCap * 8);
    maskW = realloc(maskW, maskCap * 8);
  }
  u64 onE[64] = {0}, onW[64] = {0};
  for (long i = 0; i < ne; i++) for (u64 x = maskE[i] = crossing(&east[i]); x; x &= x - 1) onE[__builtin_ctzll(x)]++;
  for (long i = 0; i < nw; i++) for (u64 x = maskW[i] = crossing(&west[i]); x; x &= x - 1) onW[__builtin_ctzll(x)]++;
  // Split first on the diagonals most often held by both sides: they prune the most pairs.
  double score[64];
  orderLength = 0;
  for (int b = 0; b < 64; b++)
    if (onE[b] && onW[b]) score[b] = (double)onE[b] / ne * onW[b] / nw, order[orderLength++] = b;
  for (int x = 1; x < orderLength; x++) {
    int v = order[x], y = x;
    for (; y > 0 && score[order[y - 1]] < score[v]; y--) order[y] = order[y - 1];
    order[y] = v;
  }
  joins++;
  return disjointPairs(maskE, ne, maskW, nw, 0);
}

// The list (at the arena's top) of list[from..from+length) each with a queen in row r on `columns`.
static long extend(long from, long length, int r, u32 columns) {
  long start = top;
  for (long i = 0; i < length; i++) {
    Half s = arena[from + i];
    u32 free = columns & ~s.cols & ~(u32)(s.anti >> r) & ~(u32)(s.main >> (n - 1 - r));
    for (; free; free &= free - 1) {
      int c = __builtin_ctz(free);
      if (top == cap) arena = realloc(arena, (cap *= 2) * sizeof(Half));
      arena[top++] = (Half){s.anti | 1ULL << (r + c), s.main | 1ULL << (c - r + n - 1), s.cols | 1u << c};
    }
  }
  states += top - start;
  return top - start;
}

static u64 count(int r, long east, long ne, int eastRows, long west, long nw, int westRows) {
  if (r == n) return join(arena + east, ne, arena + west, nw);
  u64 total = 0;
  long mark = top;
  if (eastRows < k) {
    long length = extend(east, ne, r, eastCols);
    if (length) total += count(r + 1, mark, length, eastRows + 1, west, nw, westRows);
    top = mark;
  }
  if (westRows < h) {
    long length = extend(west, nw, r, westCols);
    if (length) total += count(r + 1, east, ne, eastRows, mark, length, westRows + 1);
    top = mark;
  }
  return total;
}

int main(int argc, char **argv) {
  n = argc > 1 ? atoi(argv[1]) : 0;
  if (n < 4 || n > 31) { fprintf(stderr, "usage: queens-join N [BASE], N from 4 to 31\n"); return 2; }
  if (argc > 2) base = atol(argv[2]);
  h = n / 2, k = n - h;
  westCols = (1u << h) - 1;
  eastCols = ((1u << n) - 1) & ~westCols;
  crossMask = (1ULL << (n - 1)) - 1;
  arena = malloc((cap = 1 << 20) * sizeof(Half));
  double wall = now(CLOCK_MONOTONIC), cpu = now(CLOCK_PROCESS_CPUTIME_ID);
  arena[0] = (Half){0, 0, 0}; // the empty half-board, both sides' list at the root
  top = 1;
  u64 total;
  if (n % 2 == 0) {
    long length = extend(0, 1, 0, eastCols);
    total = 2 * count(1, 1, length, 1, 0, 1, 0);
  } else {
    long length = extend(0, 1, 0, westCols);
    u64 west = count(1, 0, 1, 0, 1, length, 1);
    top = 1;
    length = extend(0, 1, 0, 1u << h);
    total = 2 * west + count(1, 1, length, 1, 0, 1, 0);
  }
  printf("total=%llu states=%llu joins=%llu pairs=%llu ms=%.3f cpu=%.3f\n", total, states, joins, pairs,
         now(CLOCK_MONOTONIC) - wall, now(CLOCK_PROCESS_CPUTIME_ID) - cpu);
  return 0;
}
