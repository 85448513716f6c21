// The C yardstick of the 9×9 Sudoku engine for bench/sudoku.js: the same method and the same
// code as assembly/sudoku/ (three 27-bit band words per digit, band-major so that a band is three
// vectors of four digits; the digit filter keeping what lies on a permutation of each stack's
// minicolumns and each band's minirows, stopping when the band filter left the columns as they
// were; row singles; naked singles; branching on the two-digit cell whose digits have most
// candidates among its peers, plus two for each such cell among them). The work across the
// digits of a band uses GCC's vector extensions where the engine uses Wasm SIMD. Its node counts
// must equal the engine's, and the times compare code, not method.
//
// Usage: sudoku PUZZLES [LIMIT]
//   PUZZLES: one puzzle a line (81 cells, 1-9 or '.'/'0'; '#' lines skipped). LIMIT: solutions at
//   which a puzzle stops (default 2). The puzzles are read before the clock starts.
// Prints "puzzles=N none=A unique=B multiple=C nodes=X ms=T" (ms: searching only).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint32_t u32;

static uint8_t MINIROW[512];
static uint16_t PERMUTATIONS[512];
static u32 CELLS_OF_MINIROWS[512];
static uint16_t LONE[512];
static u32 PEERS[81][3];
#define ALL_ROWS 0x40201u

static void buildTables(void) {
  for (u32 x = 0; x < 512; x++) {
    MINIROW[x] = ((x & 7) ? 1 : 0) | ((x & 0x38) ? 2 : 0) | ((x & 0x1c0) ? 4 : 0);
    LONE[x] = (x && !(x & (x - 1))) ? x : 0;
    u32 cells = 0;
    for (int r = 0; r < 3; r++)
      for (int k = 0; k < 3; k++)
        if ((x >> (3 * r + k)) & 1) cells |= 7u << (9 * r + 3 * k);
    CELLS_OF_MINIROWS[x] = cells;
    u32 all = 0;
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++) {
        if (a == b) continue;
        u32 p = (1u << a) | (1u << (3 + b)) | (1u << (6 + (3 - a - b)));
        if ((x & p) == p) all |= p;
      }
    PERMUTATIONS[x] = all;
  }
  for (int cell = 0; cell < 81; cell++)
    for (int other = 0; other < 81; other++) {
      int r = other / 9, c = other % 9, row = cell / 9, col = cell % 9;
      if (other != cell && (r == row || c == col || (r / 3 == row / 3 && c / 3 == col / 3)))
        PEERS[cell][r / 3] |= 1u << (9 * (r % 3) + c);
    }
}

/** A band: the words of digits 0-8 and three zeros (three vectors of four digits). */
typedef u32 v4 __attribute__((vector_size(16)));
typedef struct {
  union {
    u32 word[3][12];
    v4 vec[3][3];
  };
  u32 unsolved[3];
  u32 pad;
} State;

#define CAND(s, d, b) ((s)->word[b][d])

static inline u32 columnsOf(u32 w) { return (w | w >> 9 | w >> 18) & 0x1ff; }
static inline u32 minirows(u32 w) { return MINIROW[w & 0x1ff] | (u32)MINIROW[(w >> 9) & 0x1ff] << 3 | (u32)MINIROW[w >> 18] << 6; }
static inline u32 stackMatrix(u32 c0, u32 c1, u32 c2, int s) { return ((c0 >> s) & 7) | ((c1 >> s) & 7) << 3 | ((c2 >> s) & 7) << 6; }
static inline u32 rowSingles(u32 w) { return LONE[w & 0x1ff] | (u32)LONE[(w >> 9) & 0x1ff] << 9 | (u32)LONE[w >> 18] << 18; }

/** The lanes of a vector of 0 / all-ones as four bits. */
static inline u32 bitmask(v4 lanes) { return (lanes[0] & 1) | (lanes[1] & 2) | (lanes[2] & 4) | (lanes[3] & 8); }

/** Over the nine digits of a band: the cells with one digit or more, two or more, three or more. */
static u32 once, twice, thrice;
static inline void countDigits(const State *s, int band, int withThrice) {
  v4 v0 = s->vec[band][0], v1 = s->vec[band][1], v2 = s->vec[band][2];
  v4 o = v0 | v1 | v2, t = (v0 & v1) | (v2 & (v0 | v1)), h = v0 & v1 & v2;
  const v4 swapHalves = {2, 3, 0, 1}, swapPairs = {1, 0, 3, 2};
  v4 o2 = __builtin_shuffle(o, swapHalves), t2 = __builtin_shuffle(t, swapHalves);
  if (withThrice) h = h | __builtin_shuffle(h, swapHalves) | (t & o2) | (o & t2);
  t = t | t2 | (o & o2);
  o = o | o2;
  o2 = __builtin_shuffle(o, swapPairs), t2 = __builtin_shuffle(t, swapPairs);
  if (withThrice) thrice = (h | __builtin_shuffle(h, swapPairs) | (t & o2) | (o & t2))[0];
  twice = (t | t2 | (o & o2))[0];
  once = (o | o2)[0];
}

/** Clears `cells` of a band from every digit that has any of them; returns those digits. */
static inline u32 clearCells(State *s, int band, u32 cells) {
  v4 mask = {cells, cells, cells, cells};
  u32 changed = 0;
  for (int k = 0; k < 3; k++) {
    v4 v = s->vec[band][k];
    u32 hit = bitmask((v & mask) != 0);
    if (hit) {
      s->vec[band][k] = v & ~mask;
      changed |= hit << (4 * k);
    }
  }
  return changed;
}

static int filterDigit(State *s, int digit) {
  u32 w0 = CAND(s, digit, 0), w1 = CAND(s, digit, 1), w2 = CAND(s, digit, 2);
  for (;;) {
    u32 c0 = columnsOf(w0), c1 = columnsOf(w1), c2 = columnsOf(w2);
    u32 s0 = PERMUTATIONS[stackMatrix(c0, c1, c2, 0)];
    u32 s1 = PERMUTATIONS[stackMatrix(c0, c1, c2, 3)];
    u32 s2 = PERMUTATIONS[stackMatrix(c0, c1, c2, 6)];
    if (!s0 || !s1 || !s2) return 0;
    u32 n0 = w0 & (((s0 & 7) | (s1 & 7) << 3 | (s2 & 7) << 6) * ALL_ROWS);
    u32 n1 = w1 & ((((s0 >> 3) & 7) | (s1 & 0x38) | (s2 & 0x38) << 3) * ALL_ROWS);
    u32 n2 = w2 & (((s0 >> 6) | ((s1 >> 3) & 0x38) | (s2 & 0x1c0)) * ALL_ROWS);
    u32 b0 = PERMUTATIONS[minirows(n0)], b1 = PERMUTATIONS[minirows(n1)], b2 = PERMUTATIONS[minirows(n2)];
    if (!b0 || !b1 || !b2) return 0;
    u32 h0 = n0 & CELLS_OF_MINIROWS[b0], h1 = n1 & CELLS_OF_MINIROWS[b1], h2 = n2 & CELLS_OF_MINIROWS[b2];
    int done = columnsOf(h0) == columnsOf(n0) && columnsOf(h1) == columnsOf(n1) && columnsOf(h2) == columnsOf(n2);
    w0 = h0, w1 = h1, w2 = h2;
    if (done) break;
  }
  CAND(s, digit, 0) = w0, CAND(s, digit, 1) = w1, CAND(s, digit, 2) = w2;
  return 1;
}

static u32 place(State *s, int cell, int digit) {
  int band = cell / 27;
  u32 bit = 1u << (cell % 27);
  u32 own = CAND(s, digit, band);
  u32 changed = clearCells(s, band, bit) | (1u << digit);
  CAND(s, digit, band) = own;
  for (int b = 0; b < 3; b++) CAND(s, digit, b) &= ~PEERS[cell][b];
  s->unsolved[band] &= ~bit;
  return changed;
}

static int propagate(State *s, u32 dirty) {
  for (;;) {
    while (dirty) {
      int digit = __builtin_ctz(dirty);
      dirty &= dirty - 1;
      if (!filterDigit(s, digit)) return 0;
      for (int band = 0; band < 3; band++) {
        u32 solved = rowSingles(CAND(s, digit, band)) & s->unsolved[band];
        if (!solved) continue;
        s->unsolved[band] &= ~solved;
        u32 own = CAND(s, digit, band);
        dirty |= clearCells(s, band, solved) & ~(1u << digit);
        CAND(s, digit, band) = own;
      }
    }
    for (int band = 0; band < 3; band++) {
      u32 open = s->unsolved[band];
      if (!open) continue;
      countDigits(s, band, 0);
      if (open & ~once) return 0;
      u32 single = open & ~twice;
      while (single) {
        int bit = __builtin_ctz(single);
        single &= single - 1;
        int digit = 0;
        while (digit < 9 && !((CAND(s, digit, band) >> bit) & 1)) digit++;
        if (digit == 9) return 0;
        int cell = band * 27 + bit;
        for (int b = 0; b < 3; b++) {
          u32 cleared = CAND(s, digit, b) & ~PEERS[cell][b];
          if (cleared != CAND(s, digit, b)) CAND(s, digit, b) = cleared, dirty |= 1u << digit;
        }
        s->unsolved[band] &= ~(1u << bit);
      }
    }
    if (!dirty) return 1;
  }
}

static u32 digitsOf(const State *s, int cell) {
  int band = cell / 27;
  u32 bit = 1u << (cell % 27);
  v4 mask = {bit, bit, bit, bit};
  return bitmask((s->vec[band][0] & mask) != 0) | bitmask((s->vec[band][1] & mask) != 0) << 4 | bitmask((s->vec[band][2] & mask) != 0) << 8;
}

static int chooseCell(const State *s) {
  int best = -1, bestScore = -1;
  u32 pairs[3];
  for (int band = 0; band < 3; band++) {
    countDigits(s, band, 1);
    pairs[band] = s->unsolved[band] & twice & ~thrice;
  }
  if (pairs[0] | pairs[1] | pairs[2]) {
    for (int band = 0; band < 3; band++)
      for (u32 left = pairs[band]; left; left &= left - 1) {
        int cell = band * 27 + __builtin_ctz(left);
        const u32 *p = PEERS[cell];
        int score = 2 * (__builtin_popcount(pairs[0] & p[0]) + __builtin_popcount(pairs[1] & p[1]) + __builtin_popcount(pairs[2] & p[2]));
        for (u32 digits = digitsOf(s, cell); digits; digits &= digits - 1) {
          int d = __builtin_ctz(digits);
          score += __builtin_popcount(CAND(s, d, 0) & p[0]) + __builtin_popcount(CAND(s, d, 1) & p[1]) + __builtin_popcount(CAND(s, d, 2) & p[2]);
        }
        if (score > bestScore) bestScore = score, best = cell;
      }
    return best;
  }
  int fewest = 10;
  for (int band = 0; band < 3; band++)
    for (u32 open = s->unsolved[band]; open; open &= open - 1) {
      int cell = band * 27 + __builtin_ctz(open);
      int count = __builtin_popcount(digitsOf(s, cell));
      if (count < fewest) fewest = count, best = cell;
    }
  return best;
}

typedef struct {
  State saved;
  int cell;
  u32 digits;
} Level;

static uint64_t nodes;

/** Solutions of one puzzle (81 digits, 0 empty) up to `limit`. */
static uint64_t count(const uint8_t *puzzle, uint64_t limit) {
  static Level levels[82];
  State s;
  memset(&s, 0, sizeof s);
  for (int b = 0; b < 3; b++) {
    for (int d = 0; d < 9; d++) CAND(&s, d, b) = 0x7ffffff;
    s.unsolved[b] = 0x7ffffff;
  }
  nodes++;
  for (int cell = 0; cell < 81; cell++) {
    int digit = puzzle[cell] - 1;
    if (digit < 0) continue;
    if (!((CAND(&s, digit, cell / 27) >> (cell % 27)) & 1)) return 0;
    place(&s, cell, digit);
  }
  uint64_t found = 0;
  int depth = 0;
  int ok = propagate(&s, 0x1ff);
  for (;;) {
    if (ok) {
      if (!(s.unsolved[0] | s.unsolved[1] | s.unsolved[2])) {
        if (++found >= limit) return found;
      } else {
        int cell = chooseCell(&s);
        u32 digits = digitsOf(&s, cell);
        Level *level = &levels[depth++];
        level->saved = s, level->cell = cell, level->digits = digits & (digits - 1);
        nodes++;
        ok = propagate(&s, place(&s, cell, __builtin_ctz(digits)));
        continue;
      }
    }
    while (depth > 0 && levels[depth - 1].digits == 0) depth--;
    if (depth == 0) return found;
    Level *level = &levels[depth - 1];
    u32 digits = level->digits;
    level->digits = digits & (digits - 1);
    s = level->saved;
    nodes++;
    ok = propagate(&s, place(&s, level->cell, __builtin_ctz(digits)));
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: sudoku PUZZLES [LIMIT]\n");
    return 2;
  }
  FILE *file = fopen(argv[1], "r");
  if (!file) {
    perror(argv[1]);
    return 2;
  }
  uint64_t limit = argc > 2 ? strtoull(argv[2], 0, 10) : 2;
  size_t capacity = 1024, n = 0;
  uint8_t *puzzles = malloc(capacity * 81);
  char line[4096];
  while (fgets(line, sizeof line, file)) {
    if (line[0] == '#' || strlen(line) < 81) continue;
    if (n == capacity) puzzles = realloc(puzzles, (capacity *= 2) * 81);
    for (int i = 0; i < 81; i++) puzzles[n * 81 + i] = line[i] >= '1' && line[i] <= '9' ? line[i] - '0' : 0;
    n++;
  }
  fclose(file);
  buildTables();
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  uint64_t none = 0, unique = 0, multiple = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t c = count(puzzles + i * 81, limit);
    if (c == 0) none++;
    else if (c == 1) unique++;
    else multiple++;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
  printf("puzzles=%zu none=%llu unique=%llu multiple=%llu nodes=%llu ms=%.3f\n", n, (unsigned long long)none, (unsigned long long)unique,
         (unsigned long long)multiple, (unsigned long long)nodes, ms);
  return 0;
}
