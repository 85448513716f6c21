// N-Queens counters in C, the yardsticks of the queens benchmarks.
//   queens N                  plain recursive bitmask counter with only the half-first-row mirror;
//                             prints "total=<count> ms=<milliseconds of counting>"
//   queens N constellations   start constellations, the same method as assembly/queensConstellations.ts
//                             (the same constellations, orientation, tables, explicit-stack loop and
//                             recursion for the last rows; the same node count);
//                             prints "total=<count> distinct=<count> nodes=<count> constellations=<count> ms=<ms>"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef unsigned long long u64;
typedef unsigned int u32;

static u32 full;

static u64 solve(u32 ld, u32 cols, u32 rd) {
  if (cols == full) return 1;
  u64 count = 0;
  u32 poss = full & ~(ld | cols | rd);
  while (poss) {
    u32 bit = poss & -poss;
    poss ^= bit;
    count += solve((ld | bit) << 1, cols | bit, (rd | bit) >> 1);
  }
  return count;
}

static u64 mirrorCount(int n) {
  full = (1u << n) - 1;
  // First-row columns left of the middle, doubled by the mirror; the middle one (odd n) once.
  u64 total = 0;
  for (int c = 0; c < n / 2; c++) {
    u32 bit = 1u << c;
    total += solve(bit << 1, bit, bit >> 1);
  }
  total *= 2;
  if (n & 1) {
    u32 bit = 1u << (n / 2);
    total += solve(bit << 1, bit, bit >> 1);
  }
  return total;
}

// ---- start constellations -------------------------------------------------------------------
// A constellation fixes the queens of row 0 (column i), row n-1 (column j), column 0 (row k)
// and column n-1 (row l). One per class of the 8 board symmetries (the smallest code of the 8
// images), searched in the orientation src/queens/constellations.ts picks (the same rule here).

static int N;

static int code(int i, int j, int k, int l) { return (i << 15) | (j << 10) | (k << 5) | l; }
#define CI(c) (((c) >> 15) & 31)
#define CJ(c) (((c) >> 10) & 31)
#define CK(c) (((c) >> 5) & 31)
#define CL(c) ((c) & 31)

static int rot90(int c) { return code(N - 1 - CK(c), N - 1 - CL(c), CJ(c), CI(c)); }
static int mirror(int c) { return code(N - 1 - CI(c), N - 1 - CJ(c), CL(c), CK(c)); }

static int valid(int i, int j, int k, int l) {
  int n1 = N - 1;
  if ((i == 0) != (k == 0) || (i == n1) != (l == 0) || (j == 0) != (k == n1) || (j == n1) != (l == n1)) return 0;
  int r[4] = {0, n1, k, l}, c[4] = {i, j, 0, n1};
  for (int a = 0; a < 4; a++)
    for (int b = a + 1; b < 4; b++) {
      if (r[a] == r[b] && c[a] == c[b]) continue; // one corner queen, named twice
      if (r[a] == r[b] || c[a] == c[b] || r[a] - c[a] == r[b] - c[b] || r[a] + c[a] == r[b] + c[b]) return 0;
    }
  return 1;
}

// Orientation for the search: of the 8 images, the one whose queens sit lowest-cost for a
// top-down search (see src/queens/constellations.ts: orientationKey).
static int orientKey(int c) {
  int j = CJ(c), k = CK(c), l = CL(c), n1 = N - 1;
  int dj = j < n1 - j ? j : n1 - j;
  // Prefer the queen nearest a corner in the last row, then the k/l rows low.
  return (dj << 20) | ((n1 - (k > l ? k : l)) << 10) | (n1 - (k < l ? k : l));
}

static int orient(int c) {
  int best = c, bestKey = orientKey(c), x = c;
  for (int m = 0; m < 2; m++) {
    for (int r = 0; r < 4; r++) {
      int key = orientKey(x);
      if (key < bestKey || (key == bestKey && x < best)) { best = x; bestKey = key; }
      x = rot90(x);
    }
    x = mirror(x);
  }
  return best;
}

static int canonical(int c) {
  int best = c, x = c;
  for (int m = 0; m < 2; m++) {
    for (int r = 0; r < 4; r++) {
      if (x < best) best = x;
      x = rot90(x);
    }
    x = mirror(x);
  }
  return best;
}

static int listConstellations(int *out) {
  int count = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++)
        for (int l = 0; l < N; l++) {
          if (!valid(i, j, k, l)) continue;
          int c = code(i, j, k, l);
          if (canonical(c) == c) out[count++] = orient(c);
        }
  return count;
}

#define MAXR 32
static u32 forb[MAXR], stLd[MAXR], stRd[MAXR], stCol[MAXR], stAvail[MAXR];
static int shiftBy[MAXR], rowOf[MAXR];
static u64 nodes, found, f180, f90;

static void symmetricLeaf(int D, int i, int j, int k, int l, u32 col, u32 bit) {
  int cols[MAXR];
  int n1 = N - 1;
  cols[0] = i;
  cols[n1] = j;
  cols[k] = 0;
  cols[l] = n1;
  // col at depth e holds the queens of depths < e; the leaf row's queen is `bit`.
  for (int e = 0; e + 1 < D; e++) {
    u32 placed = (e + 1 < D - 1 ? stCol[e + 1] : col) ^ stCol[e];
    cols[rowOf[e]] = __builtin_ctz(placed) + 1;
  }
  cols[rowOf[D - 1]] = __builtin_ctz(bit) + 1;
  int is180 = 1, is90 = 1;
  for (int r = 0; r < N; r++) {
    if (cols[n1 - r] != n1 - cols[r]) is180 = 0;
    if (cols[cols[r]] != n1 - r) is90 = 0;
  }
  f180 += is180;
  f90 += is90;
}

// The last rows are counted by recursion, a subtree at a time: this many rows above the leaf
// parent (as in the Wasm engine). Returns the solutions in the high 32 bits, the placements in
// the low 32.
#define RECURSIVE_ROWS 4
static int leafParentDepth;

static u64 descend(int d, u32 ld, u32 rd, u32 col, u32 avail) {
  int s = shiftBy[d];
  u32 f = forb[d + 1];
  u64 result = 0;
  if (d == leafParentDepth) {
    do {
      u32 b = avail & -avail;
      avail ^= b;
      result += ~(((ld | b) << s) | ((rd | b) >> s) | col | b | f) ? (1ull << 32) + 1 : 1;
    } while (avail);
    return result;
  }
  do {
    u32 b = avail & -avail;
    avail ^= b;
    result++;
    u32 nld = (ld | b) << s, nrd = (rd | b) >> s, ncol = col | b;
    u32 nf = ~(nld | nrd | ncol | f);
    if (nf) result += descend(d + 1, nld, nrd, ncol, nf);
  } while (avail);
  return result;
}

// Counts the completions of one constellation (already oriented).
static void searchConstellation(int c, int symmetric) {
  int i = CI(c), j = CJ(c), k = CK(c), l = CL(c), n1 = N - 1, w = N - 2;
  u32 inner = (1u << w) - 1;
  u32 colInit = ~inner;
  if (i > 0 && i < n1) colInit |= 1u << (i - 1);
  if (j > 0 && j < n1) colInit |= 1u << (j - 1);
  int D = 0;
  for (int r = 1; r < n1; r++) {
    if (r == k || r == l) continue;
    u32 m = 0;
    int qr[4] = {0, n1, k, l}, qc[4] = {i, j, 0, n1};
    for (int q = 0; q < 4; q++) {
      int d = r - qr[q];
      if (d < 0) d = -d;
      int a = qc[q] - d, b = qc[q] + d;
      if (a >= 1 && a <= w) m |= 1u << (a - 1);
      if (b >= 1 && b <= w) m |= 1u << (b - 1);
    }
    forb[D] = m;
    rowOf[D] = r;
    D++;
  }
  for (int d = 0; d + 1 < D; d++) shiftBy[d] = rowOf[d + 1] - rowOf[d];
  // n >= 5 leaves at least one free row (D >= 1).
  int last = D - 1;
  int d = 0;
  u32 ld = 0, rd = 0, col = colInit, avail = ~(colInit | forb[0]);
  if (last == 0) {
    if (avail) {
      found++;
      nodes++;
      if (symmetric) symmetricLeaf(1, i, j, k, l, col, avail);
    }
    return;
  }
  u64 count = 0;
  leafParentDepth = last - 1;
  int recursive = symmetric || last < 2 ? MAXR : (last - 2 - RECURSIVE_ROWS > 0 ? last - 2 - RECURSIVE_ROWS : 0);
  for (;;) {
    if (avail == 0) {
      if (d == 0) break;
      d--;
      ld = stLd[d];
      rd = stRd[d];
      col = stCol[d];
      avail = stAvail[d];
      continue;
    }
    nodes++;
    u32 bit = avail & -avail;
    avail ^= bit;
    int s = shiftBy[d];
    u32 nld = (ld | bit) << s, nrd = (rd | bit) >> s, ncol = col | bit;
    u32 nfree = ~(nld | nrd | ncol | forb[d + 1]);
    if (nfree == 0) continue;
    if (d >= recursive) {
      u64 sub = descend(d + 1, nld, nrd, ncol, nfree);
      count += sub >> 32;
      nodes += sub & 0xffffffffu;
      continue;
    }
    if (d + 1 == last) {
      count++;
      if (symmetric) {
        stCol[d] = col;
        symmetricLeaf(D, i, j, k, l, ncol, nfree);
      }
      continue;
    }
    stLd[d] = ld;
    stRd[d] = rd;
    stCol[d] = col;
    stAvail[d] = avail;
    d++;
    ld = nld;
    rd = nrd;
    col = ncol;
    avail = nfree;
  }
  found += count;
}

static int stabilizer(int c) {
  if (rot90(c) == c) return 4;
  if (rot90(rot90(c)) == c) return 2;
  return 1;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 0;
  int constellations = argc > 2 && strcmp(argv[2], "constellations") == 0;
  if (n < 1 || n > (constellations ? 32 : 31) || (constellations && n < 5)) {
    fprintf(stderr, "usage: queens N (1..31) | queens N constellations (5..32)\n");
    return 2;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  if (!constellations) {
    u64 total = mirrorCount(n);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
    printf("total=%llu ms=%.3f\n", total, ms);
    return 0;
  }
  N = n;
  int *list = malloc(sizeof(int) * n * n * n * n);
  int count = listConstellations(list);
  u64 total = 0, distinct = 0;
  for (int a = 0; a < count; a++) {
    int c = list[a];
    int stab = stabilizer(c);
    found = f180 = f90 = 0;
    searchConstellation(c, stab > 1);
    total += found * (8 / stab);
    distinct += stab == 1 ? found : stab == 2 ? (found + f180) / 2 : (found + f180 + 2 * f90) / 4;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
  printf("total=%llu distinct=%llu nodes=%llu constellations=%d ms=%.3f\n", total, distinct, nodes, count, ms);
  free(list);
  return 0;
}
