// N-Queens counters in C, the yardsticks of the queens benchmarks.
//   queens N                  plain recursive bitmask counter with only the half-first-row mirror;
//                             prints "total=<count> ms=<milliseconds of counting> cpu=<CPU milliseconds>"
//   queens N constellations   start constellations, the same method as assembly/queens/constellations.ts
//                             (the same constellations and orientation, most constrained line first,
//                             the same choice of line and the same node count; recursion throughout,
//                             where the engine keeps the top of each search on a stack in memory);
//                             prints "total=<count> distinct=<count> nodes=<count> constellations=<count> ms=<ms> cpu=<ms>"
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

// The orientation listed: of the 8 images, the one src/queens/constellations.ts picks (see its
// orientationKey; it decides how the search breaks ties between lines).
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
// The search of a constellation, as in the Wasm engine: most constrained line first (the empty
// row, or when every row has two or more free squares the free column, with the fewest free
// squares; ties to the smallest mask, rows first), forced moves in place. A node: the empty rows
// (bit r), the taken columns (bit c, every bit from N up), and the diagonal words indexed by
// r + c, c - r + N - 1 and r - c + N - 1. The node count is the engine's: one per node searched,
// a node with two or three empty rows counted at once (not in symmetric constellations).
#define COUNT_SHIFT 40
#define MASK_SHIFT 6
#define IS_COLUMN 32ull
static u64 nodes, found, f180, f90;
static int L1; // N - 1

static inline u64 choose(u32 rem, u32 col, u64 d1, u64 d2, u64 e2) {
  u64 best = ~0ull;
  u32 open = rem;
  do {
    int r = __builtin_ctz(open);
    open &= open - 1;
    u32 f = ~(col | (u32)(d1 >> r) | (u32)(d2 >> (L1 - r)));
    if (!f) return (u64)r; // a dead row: the least key there is
    u64 key = ((u64)__builtin_popcount(f) << COUNT_SHIFT) | ((u64)f << MASK_SHIFT) | (u64)r;
    best = key < best ? key : best;
  } while (open);
  if (best >= (2ull << COUNT_SHIFT)) {
    open = ~col;
    do {
      int c = __builtin_ctz(open);
      open &= open - 1;
      u32 f = rem & ~((u32)(d1 >> c) | (u32)(e2 >> (L1 - c)));
      if (!f) return IS_COLUMN | (u64)c; // a dead column (no row is dead)
      u64 key = ((u64)__builtin_popcount(f) << COUNT_SHIFT) | ((u64)f << MASK_SHIFT) | IS_COLUMN | (u64)c;
      best = key < best ? key : best;
    } while (open);
  }
  return best;
}

static inline u32 rowFree(u32 col, u64 d1, u64 d2, int r) { return ~(col | (u32)(d1 >> r) | (u32)(d2 >> (L1 - r))); }

// Two empty rows r1 < r2 left in rows of free squares f1, f2 and two free columns (x, y bits).
static inline u32 lastTwo(u32 f1, u32 f2, u32 free, int r1, int r2) {
  u32 x = free & -free, y = free ^ x;
  if (r2 - r1 == __builtin_ctz(y) - __builtin_ctz(x)) return 0;
  return (((f1 & x) != 0) & ((f2 & y) != 0)) + (((f1 & y) != 0) & ((f2 & x) != 0));
}

// The engine's twoRows() and threeRows(): a node with two or three empty rows, counted at once.
static u32 smallCount(u32 rem, u32 col, u64 d1, u64 d2) {
  int r1 = __builtin_ctz(rem), r3 = 31 - __builtin_clz(rem);
  u32 free = ~col, f3 = rowFree(col, d1, d2, r3);
  u32 middle = rem & (rem - 1) & ~(1u << r3);
  if (!middle) return lastTwo(rowFree(col, d1, d2, r1), f3, free, r1, r3);
  int r2 = __builtin_ctz(middle), s2 = r2 - r1, s3 = r3 - r1;
  u32 f2 = rowFree(col, d1, d2, r2), f1 = rowFree(col, d1, d2, r1), count = 0;
  while (f1) {
    u32 a = f1 & -f1;
    f1 ^= a;
    count += lastTwo(f2 & ~((a << s2) | (a >> s2)), f3 & ~((a << s3) | (a >> s3)), free ^ a, r2, r3);
  }
  return count;
}

// Counts the completions of a node into `found` (the Wasm engine's subtree(), here from the root).
static void subtree(u32 rem, u32 col, u64 d1, u64 d2, u64 e2) {
  for (;;) {
    nodes++;
    u32 rest = rem & (rem - 1), rest2 = rest & (rest - 1);
    if (rest && !(rest2 & (rest2 - 1))) {
      found += smallCount(rem, col, d1, d2);
      return;
    }
    if (!(rem & (rem - 1))) {
      int r = __builtin_ctz(rem);
      if (~(col | (u32)(d1 >> r) | (u32)(d2 >> (L1 - r)))) found++;
      return;
    }
    u64 key = choose(rem, col, d1, d2, e2);
    u32 options = (u32)(key >> COUNT_SHIFT);
    if (!options) return;
    u32 free = (u32)(key >> MASK_SHIFT);
    int line = (int)(key & 31);
    if (options == 1) {
      int r = (key & IS_COLUMN) ? __builtin_ctz(free) : line;
      int c = (key & IS_COLUMN) ? line : __builtin_ctz(free);
      rem &= ~(1u << r);
      col |= 1u << c;
      d1 |= 1ull << (r + c);
      d2 |= 1ull << (c - r + L1);
      e2 |= 1ull << (r - c + L1);
      continue;
    }
    if (!(key & IS_COLUMN)) {
      int r = line;
      u32 rows = rem & ~(1u << r);
      do {
        u32 b = free & -free;
        free ^= b;
        int c = __builtin_ctz(b);
        subtree(rows, col | b, d1 | ((u64)b << r), d2 | ((u64)b << (L1 - r)), e2 | (1ull << (r - c + L1)));
      } while (free);
    } else {
      int c = line;
      u64 cb = 1ull << c;
      u32 cols = col | (1u << c);
      do {
        u32 b = free & -free;
        free ^= b;
        int r = __builtin_ctz(b);
        subtree(rem ^ b, cols, d1 | (cb << r), d2 | (cb << (L1 - r)), e2 | ((u64)b << (L1 - c)));
      } while (free);
    }
    return;
  }
}

// The same search for the rare symmetric constellations, with the column of each row kept, so
// that a solution fixed by the half or the quarter turn is recognised at its leaf.
static int colOf[MAXR];

static void symmetricLeaf(void) {
  int is180 = 1, is90 = 1;
  for (int r = 0; r < N; r++) {
    if (colOf[L1 - r] != L1 - colOf[r]) is180 = 0;
    if (colOf[colOf[r]] != L1 - r) is90 = 0;
  }
  f180 += is180;
  f90 += is90;
}

static void symmetricSearch(u32 rem, u32 col, u64 d1, u64 d2, u64 e2) {
  if (!rem) {
    found++;
    symmetricLeaf();
    return;
  }
  nodes++;
  u64 key = choose(rem, col, d1, d2, e2);
  u32 free = (u32)(key >> MASK_SHIFT);
  if (!(key >> COUNT_SHIFT)) return;
  int line = (int)(key & 31);
  while (free) {
    u32 b = free & -free;
    free ^= b;
    int r = (key & IS_COLUMN) ? __builtin_ctz(b) : line;
    int c = (key & IS_COLUMN) ? line : __builtin_ctz(b);
    colOf[r] = c;
    symmetricSearch(rem & ~(1u << r), col | (1u << c), d1 | (1ull << (r + c)), d2 | (1ull << (c - r + L1)), e2 | (1ull << (r - c + L1)));
  }
}

// Counts the completions of one constellation.
static void searchConstellation(int c, int symmetric) {
  int i = CI(c), j = CJ(c), k = CK(c), l = CL(c);
  L1 = N - 1;
  u32 all = N == 32 ? 0xffffffffu : (1u << N) - 1;
  u32 rem = all & ~(1u | (1u << L1) | (1u << k) | (1u << l));
  u32 col = ~all | (1u << i) | (1u << j) | 1u | (1u << L1);
  u64 d1 = (1ull << i) | (1ull << (L1 + j)) | (1ull << k) | (1ull << (l + L1));
  u64 d2 = (1ull << (i + L1)) | (1ull << j) | (1ull << (L1 - k)) | (1ull << (2 * L1 - l));
  u64 e2 = (1ull << (L1 - i)) | (1ull << (2 * L1 - j)) | (1ull << (k + L1)) | (1ull << l);
  if (symmetric) {
    colOf[0] = i;
    colOf[L1] = j;
    colOf[k] = 0;
    colOf[l] = L1;
    symmetricSearch(rem, col, d1, d2, e2);
  } else {
    subtree(rem, col, d1, d2, e2);
  }
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
  // Wall time, and the CPU time of the process (steadier when the machine is shared).
  struct timespec t0, t1, c0, c1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
  u64 total = 0, distinct = 0;
  int count = 0;
  int *list = NULL;
  if (!constellations) {
    total = mirrorCount(n);
  } else {
    N = n;
    list = malloc(sizeof(int) * n * n * n * n);
    count = listConstellations(list);
    for (int a = 0; a < count; a++) {
      int c = list[a];
      int stab = stabilizer(c);
      found = f180 = f90 = 0;
      searchConstellation(c, stab > 1);
      total += found * (8 / stab);
      distinct += stab == 1 ? found : stab == 2 ? (found + f180) / 2 : (found + f180 + 2 * f90) / 4;
    }
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
  double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
  double cpu = (c1.tv_sec - c0.tv_sec) * 1e3 + (c1.tv_nsec - c0.tv_nsec) / 1e6;
  if (!constellations) printf("total=%llu ms=%.3f cpu=%.3f\n", total, ms, cpu);
  else printf("total=%llu distinct=%llu nodes=%llu constellations=%d ms=%.3f cpu=%.3f\n", total, distinct, nodes, count, ms, cpu);
  free(list);
  return 0;
}
