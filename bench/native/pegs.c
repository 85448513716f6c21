// The C yardstick for the peg solitaire count on the English board: the jump sequences from a
// single-vacancy start to one peg in a hole, by dynamic programming level by level (a jump
// removes one peg) over positions up to the symmetries of the square that keep the start and
// the finish, each entry the number of sequences reaching its orbit. The central game (the
// finish the start's complement) meets in the middle: the count stops at 16 pegs and sums
// paths(q) * paths(~q) / |orbit| there; any other finish is counted forward to the end.
// Open-addressing tables of (u64 position, u64 paths).
//   pegs [START FINISH]   holes as column letter and row number (default d4 d4)
// Prints `total=… ms=… peak_kb=…` (the time covers the whole count; peak_kb is the process's
// peak resident set).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

typedef uint64_t u64;

static int holes = 0;
static int at[7][7];
static int njumps = 0;
static u64 flip[76], need[76], land[76];
static u64 symByte[8][5][256];
static int nsyms = 8;

static int onBoard(int r, int c) {
  if (r < 0 || r > 6 || c < 0 || c > 6) return 0;
  return (r >= 2 && r <= 4) || (c >= 2 && c <= 4);
}

static u64 image(int s, u64 p) {
  u64 out = 0;
  for (int b = 0; b < 5; b++) out |= symByte[s][b][(p >> (8 * b)) & 255];
  return out;
}

static u64 canon(u64 p) {
  u64 least = p;
  for (int s = 1; s < nsyms; s++) {
    u64 q = image(s, p);
    if (q < least) least = q;
  }
  return least;
}

typedef struct { u64 key, val; } Slot;
typedef struct { Slot *slots; u64 mask, count; } Table;

static void tableInit(Table *t, int log) {
  t->slots = calloc((size_t)1 << log, sizeof(Slot));
  if (!t->slots) { fprintf(stderr, "out of memory\n"); exit(1); }
  t->mask = ((u64)1 << log) - 1;
  t->count = 0;
}

static inline u64 slotOf(u64 key, u64 mask) { return (key * 0x9e3779b97f4a7c15ull) >> 20 & mask; }

static Slot *find(Table *t, u64 key) {
  u64 i = slotOf(key, t->mask);
  for (;;) {
    Slot *s = &t->slots[i];
    if (s->key == key || s->key == 0) return s;
    i = (i + 1) & t->mask;
  }
}

static void grow(Table *t) {
  Table bigger;
  int log = 0;
  while (((u64)1 << log) <= t->mask) log++;
  tableInit(&bigger, log + 1);
  for (u64 i = 0; i <= t->mask; i++) {
    if (!t->slots[i].key) continue;
    *find(&bigger, t->slots[i].key) = t->slots[i];
  }
  bigger.count = t->count;
  free(t->slots);
  *t = bigger;
}

static void add(Table *t, u64 key, u64 val) {
  if ((t->count + 1) * 10 > (t->mask + 1) * 7) grow(t);
  Slot *s = find(t, key);
  if (!s->key) { s->key = key; t->count++; }
  s->val += val;
}

/** The hole named like d4 (column letter, row number), or -1. */
static int holeOf(const char *name) {
  int c = name[0] - 'a', r = name[1] - '1';
  if (c < 0 || c > 6 || r < 0 || r > 6 || name[2] || at[r][c] < 0) return -1;
  return at[r][c];
}

int main(int argc, char **argv) {
  for (int r = 0; r < 7; r++)
    for (int c = 0; c < 7; c++) at[r][c] = onBoard(r, c) ? holes++ : -1;
  static const int dr[4] = {0, 1, 0, -1}, dc[4] = {1, 0, -1, 0};
  for (int r = 0; r < 7; r++)
    for (int c = 0; c < 7; c++) {
      if (at[r][c] < 0) continue;
      for (int d = 0; d < 4; d++) {
        int r1 = r + dr[d], c1 = c + dc[d], r2 = r + 2 * dr[d], c2 = c + 2 * dc[d];
        if (!onBoard(r1, c1) || !onBoard(r2, c2)) continue;
        need[njumps] = (1ull << at[r][c]) | (1ull << at[r1][c1]);
        land[njumps] = 1ull << at[r2][c2];
        flip[njumps] = need[njumps] | land[njumps];
        njumps++;
      }
    }
  // The 8 symmetries of the square about the centre (3, 3).
  for (int s = 0; s < 8; s++) {
    memset(symByte[s], 0, sizeof symByte[s]);
    for (int r = 0; r < 7; r++)
      for (int c = 0; c < 7; c++) {
        if (at[r][c] < 0) continue;
        int y = r - 3, x = c - 3, ny, nx;
        switch (s) {
          case 0: ny = y; nx = x; break;
          case 1: ny = x; nx = -y; break;
          case 2: ny = -y; nx = -x; break;
          case 3: ny = -x; nx = y; break;
          case 4: ny = y; nx = -x; break;
          case 5: ny = -y; nx = x; break;
          case 6: ny = x; nx = y; break;
          default: ny = -x; nx = -y; break;
        }
        int h = at[r][c], to = at[ny + 3][nx + 3];
        for (int v = 0; v < 256; v++)
          if ((v >> (h & 7)) & 1) symByte[s][h >> 3][v] |= 1ull << to;
      }
  }
  int startHole = holeOf(argc > 2 ? argv[1] : "d4"), finishHole = holeOf(argc > 2 ? argv[2] : "d4");
  if (startHole < 0 || finishHole < 0) { fprintf(stderr, "usage: pegs [START FINISH]\n"); return 2; }
  // Keep the symmetries that fix both holes (the identity stays first).
  int kept = 0;
  for (int s = 0; s < 8; s++) {
    u64 a = (u64)1 << startHole, b = (u64)1 << finishHole;
    if (image(s, a) != a || image(s, b) != b) continue;
    if (kept != s) memcpy(symByte[kept], symByte[s], sizeof symByte[s]);
    kept++;
  }
  nsyms = kept;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  u64 full = (1ull << holes) - 1;
  u64 start = full & ~(1ull << startHole);
  u64 finish = 1ull << finishHole;
  int central = startHole == finishHole;
  int middle = holes >> 1; // 16: the level where ~q (17 pegs) is the level above
  int last = central ? middle : 1;
  Table cur, next;
  tableInit(&cur, 4);
  add(&cur, canon(start), 1);
  for (int pegs = holes - 1; pegs > last; pegs--) {
    tableInit(&next, 10);
    for (u64 i = 0; i <= cur.mask; i++) {
      u64 p = cur.slots[i].key;
      if (!p) continue;
      for (int j = 0; j < njumps; j++)
        if ((p & need[j]) == need[j] && !(p & land[j])) add(&next, canon(p ^ flip[j]), cur.slots[i].val);
    }
    if (central && pegs - 1 == middle) break; // keep cur (17 pegs) for the meeting
    free(cur.slots);
    cur = next;
  }
  u64 total = 0;
  if (!central) {
    // The finish is kept by every symmetry used: its orbit is itself.
    Slot *f = find(&cur, finish);
    total = f->key ? f->val : 0;
  } else {
    for (u64 i = 0; i <= next.mask; i++) {
      u64 q = next.slots[i].key;
      if (!q) continue;
      Slot *other = find(&cur, canon(~q & full));
      if (!other->key) continue;
      int fixed = 1;
      for (int s = 1; s < nsyms; s++) fixed += image(s, q) == q;
      total += next.slots[i].val * (other->val / (u64)(nsyms / fixed));
    }
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
  printf("total=%llu ms=%.1f peak_kb=%ld\n", (unsigned long long)total, ms, usage.ru_maxrss);
  return 0;
}
