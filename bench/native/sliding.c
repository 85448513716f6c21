// The C yardstick of the sliding-tile IDA* for bench/sliding.js: the same search as
// assembly/sliding/sliding.ts with pattern databases (move order up, left, right, down; the blank never
// undoes its last move; the sum of disjoint pattern databases, and on these square boards the
// max with the same sum on the board mirrored in its diagonal, looked up only when the direct
// sum does not cut the node), reading the very tables bitpuzzle caches on disk. So its node
// counts must equal the engine's, and the times compare code, not heuristics.
//
// Usage: sliding SIDE PDB_DIR INSTANCES [NODE_LIMIT]
//   SIDE 4: the 6-6-3 partition; 78: the 15-puzzle's packed 7-8 (4 bits an entry holding the
//   pattern's excess over its Manhattan distance, in halves: assembly/sliding/pdbPacked.ts); SIDE 5:
//   6-6-6-6 (src/sliding/patterns.ts) a byte an entry, tables that ignore the blank; 55: the
//   6-6-6-6 packed, following the blank (what bitpuzzle uses with the Wasm engine). Korf's goal
//   (blank at cell 0, tile t's goal cell t). INSTANCES: one board a line (SIDE² tiles, then optionally
//   the optimal length; '#' comments). NODE_LIMIT: per instance, stop with the bound reached.
// Prints one line per instance, "instance=I length=L|-1 bound=B nodes=N ms=T", then
// "total nodes=N ms=T load_ms=T" (ms: searching only; load_ms: reading the tables).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_CELLS 25
#define MAX_SLOTS 4
#define MAX_K 8
#define MAX_DEPTH 1000
#define HEADER (16 + 32) /* "bitpuzzle-pdb-3\n", a CRC-32 and 28 bytes of a SHA-256 (version 2: a SHA-256) */

static const int FIFTEEN[3][7] = {{3, 1, 4, 5}, {6, 2, 3, 6, 7, 10, 11}, {6, 8, 9, 12, 13, 14, 15}};
static const int SEVEN_EIGHT[2][9] = {{7, 1, 2, 3, 4, 5, 8, 12}, {8, 6, 7, 9, 10, 11, 13, 14, 15}};
static const int TWENTY_FOUR[4][7] = {
    {6, 1, 5, 6, 10, 11, 12}, {6, 2, 3, 4, 7, 8, 9}, {6, 13, 14, 18, 19, 23, 24}, {6, 15, 16, 17, 20, 21, 22}};

static int side, cells, slots, packed;
static int dist[MAX_CELLS][MAX_CELLS];
static int k[MAX_SLOTS], pattern[MAX_SLOTS][MAX_K], mirroredLabels[MAX_SLOTS][MAX_K];
static uint8_t *table[MAX_SLOTS];
static int board[MAX_CELLS], pos[MAX_CELLS], group[MAX_CELLS], mirror[MAX_CELLS], neighbour[MAX_CELLS][4];
static uint64_t nodes, nodeLimit;
static int bound, nextBound, stopped;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static inline int value(int s, int reflect) {
  uint32_t used = 0, index = 0;
  for (int i = 0; i < k[s]; i++) {
    uint32_t p = (uint32_t)pos[reflect ? mirroredLabels[s][i] : pattern[s][i]];
    if (reflect) p = (uint32_t)mirror[p];
    index = index * (uint32_t)(cells - i) + p - (uint32_t)__builtin_popcount(used & ((1u << p) - 1));
    used |= 1u << p;
  }
  if (packed) return (table[s][index >> 1] >> ((index & 1) << 2)) & 15;
  return table[s][index];
}

// The heuristic of a sum of slot values: packed tables add twice their sum to Manhattan.
static inline int bound_of(int md, int sum) { return packed ? md + 2 * sum : sum; }

// Values: [0, MAX_SLOTS) direct, [MAX_SLOTS, 2·MAX_SLOTS) mirrored. Returns the solution's length or 0.
static int dfs(int depth, int blank, int last, const int *values, int direct, int reflected, int md) {
  for (int dir = 0; dir < 4; dir++) {
    if (last != 4 && dir == 3 - last) continue;
    int from = neighbour[blank][dir];
    if (from < 0) continue;
    if (nodes >= nodeLimit) {
      stopped = 1;
      return 0;
    }
    int l = board[from];
    int md2 = packed ? md - dist[l][from] + dist[l][blank] : 0;
    board[blank] = l;
    board[from] = 0;
    pos[l] = blank;
    pos[0] = from;
    int next[2 * MAX_SLOTS];
    memcpy(next, values, sizeof next);
    int s = group[l];
    int v = value(s, 0);
    int d = direct - values[s] + v;
    next[s] = v;
    int r = reflected, h = bound_of(md2, d);
    if (depth + 1 + h <= bound) {
      int m = group[mirror[l]];
      int mv = value(m, 1);
      r = reflected - values[MAX_SLOTS + m] + mv;
      next[MAX_SLOTS + m] = mv;
      if (bound_of(md2, r) > h) h = bound_of(md2, r);
    }
    nodes++;
    int f = depth + 1 + h;
    int found = 0;
    if (f > bound) {
      if (f < nextBound) nextBound = f;
    } else if (h == 0) {
      found = depth + 1;
    } else {
      found = dfs(depth + 1, from, dir, next, d, r, md2);
    }
    if (found) return found;
    board[from] = l;
    board[blank] = 0;
    pos[l] = from;
    pos[0] = blank;
    if (stopped) return 0;
  }
  return 0;
}

static void loadTable(const char *dir, int s) {
  char name[512];
  int n = snprintf(name, sizeof name, "%s/sliding-%dx%d-b0", dir, side, side);
  for (int i = 0; i < k[s]; i++) n += snprintf(name + n, sizeof name - n, "-%d", pattern[s][i]);
  snprintf(name + n, sizeof name - n, packed ? ".packed.pdb" : ".pdb");
  size_t size = 1;
  for (int i = 0; i < k[s]; i++) size *= (size_t)(cells - i);
  if (packed) size = (size + 1) / 2;
  FILE *file = fopen(name, "rb");
  if (!file) {
    fprintf(stderr, "sliding: cannot open %s (build the tables with bitpuzzle first)\n", name);
    exit(2);
  }
  table[s] = malloc(size);
  if (!table[s] || fseek(file, HEADER, SEEK_SET) != 0 || fread(table[s], 1, size, file) != size) {
    fprintf(stderr, "sliding: %s is not a table of %zu entries\n", name, size);
    exit(2);
  }
  fclose(file);
}

int main(int argc, char **argv) {
  int kind = argc < 4 ? 0 : atoi(argv[1]);
  if (kind != 4 && kind != 78 && kind != 5 && kind != 55) {
    fprintf(stderr, "usage: sliding 4|78|5|55 PDB_DIR INSTANCES [NODE_LIMIT]\n");
    return 2;
  }
  packed = kind == 78 || kind == 55;
  side = kind == 78 ? 4 : kind == 55 ? 5 : kind;
  cells = side * side;
  slots = kind == 78 ? 2 : side == 4 ? 3 : 4;
  nodeLimit = argc > 4 ? strtoull(argv[4], NULL, 10) : UINT64_MAX;
  for (int c = 0; c < cells; c++) {
    int row = c / side, col = c % side;
    mirror[c] = col * side + row;
    neighbour[c][0] = row > 0 ? c - side : -1;
    neighbour[c][1] = col > 0 ? c - 1 : -1;
    neighbour[c][2] = col < side - 1 ? c + 1 : -1;
    neighbour[c][3] = row < side - 1 ? c + side : -1;
  }
  for (int l = 1; l < cells; l++)
    for (int c = 0; c < cells; c++) dist[l][c] = abs(l / side - c / side) + abs(l % side - c % side);
  double loadStart = now();
  for (int s = 0; s < slots; s++) {
    const int *p = kind == 78 ? SEVEN_EIGHT[s] : side == 4 ? FIFTEEN[s] : TWENTY_FOUR[s];
    k[s] = p[0];
    for (int i = 0; i < k[s]; i++) {
      pattern[s][i] = p[1 + i];
      group[p[1 + i]] = s;
    }
    loadTable(argv[2], s);
  }
  for (int s = 0; s < slots; s++)
    for (int i = 0; i < k[s]; i++) mirroredLabels[s][i] = mirror[pattern[s][i]];
  double loadMs = now() - loadStart;

  FILE *in = fopen(argv[3], "r");
  if (!in) {
    fprintf(stderr, "sliding: cannot open %s\n", argv[3]);
    return 2;
  }
  char line[1024];
  int instance = 0;
  uint64_t totalNodes = 0;
  double totalMs = 0;
  while (fgets(line, sizeof line, in)) {
    char *hash = strchr(line, '#');
    if (hash) *hash = 0;
    int tiles[MAX_CELLS + 1], count = 0;
    for (char *t = strtok(line, " \t\r\n,"); t && count <= cells; t = strtok(NULL, " \t\r\n,")) tiles[count++] = atoi(t);
    if (count < cells) continue;
    instance++;
    int blank = 0;
    for (int c = 0; c < cells; c++) {
      board[c] = tiles[c];
      pos[tiles[c]] = c;
      if (tiles[c] == 0) blank = c;
    }
    int values[2 * MAX_SLOTS] = {0}, direct = 0, reflected = 0, md = 0;
    for (int c = 0; c < cells; c++) md += dist[board[c]][c];
    for (int s = 0; s < slots; s++) {
      values[s] = value(s, 0);
      values[MAX_SLOTS + s] = value(s, 1);
      direct += values[s];
      reflected += values[MAX_SLOTS + s];
    }
    double started = now();
    bound = bound_of(md, direct > reflected ? direct : reflected);
    nodes = 1;
    stopped = 0;
    int length = bound == 0 ? 0 : -1;
    while (length < 0 && !stopped) {
      nextBound = 1 << 30;
      int found = dfs(0, blank, 4, values, direct, reflected, md);
      if (found) length = found;
      else if (!stopped) bound = nextBound;
    }
    double ms = now() - started;
    totalNodes += nodes;
    totalMs += ms;
    printf("instance=%d length=%d bound=%d nodes=%llu ms=%.3f\n", instance, length, bound, (unsigned long long)nodes, ms);
    fflush(stdout);
  }
  printf("total nodes=%llu ms=%.3f load_ms=%.3f\n", (unsigned long long)totalNodes, totalMs, loadMs);
  return 0;
}
