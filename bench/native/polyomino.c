// The C yardstick for bench/polyomino.js: the search of assembly/polyomino/polyomino.ts, step for step,
// compiled by gcc. It reads the engine's own input words (Prepared.input) and the parts the
// host would run, so both search exactly the same tables in the same order; its node count
// must equal the Wasm engine's. Only counting (no emitting, no splitting, no budget).
//
// Usage: polyomino INPUT PARTS
//   INPUT  the engine input words, raw little-endian u32 (layout: assembly/polyomino/polyomino.ts)
//   PARTS  raw little-endian u32: part count, then per part: weight, mask low and high words, n, n placement ids
// Plane regions and regions in space (6 directions) alike: the input says which.
// Prints "total=<n> distinct=<n> nodes=<n> ms=<building the tables and searching>".
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint64_t u64;
typedef uint32_t u32;

#define NONE 0xffffffffu

static u32 *input;
static int cells, kinds, placements, symmetries, perPlacement, floodLimit, dirs, words;
static u32 *kindTable, *nbrs, *placeTable, *symTable;

// Tables built by load(), per list entry j (placements sorted by first cell).
static u32 *listId, *listKind, *listSkip;
static u32 *listOffset;  // spans: offset of the span in the pools
static u32 *listFrom, *listSpan;
static u64 *maskPool, *nearPool;
static u32 *cellStart;
static u64 *cellNear;
static uint8_t *conn, *connImage;
static u32 *invPerm, *labels, *remaining;
static uint8_t fillable[64];
static int uniform;
static u64 *board, *seen, *comp;
static u32 *floodStack, *stackCur, *stackEnd, *stackPlaced, *stackCell;

// One word: the list packed as the Wasm engine packs it (24 bytes an entry).
typedef struct {
  u64 mask;
  u64 near;
  u32 kind;
  u32 skip;
} Entry;
static Entry *entries;

// The current part.
static u32 *pre;
static int preCount, depth, empty;
static u64 weight, total, distinct, nodes;
static u64 symMask;

static inline u32 kindArea(int k) { return kindTable[k * 3]; }
static inline int nbr(int c, int d) { return (int)nbrs[c * dirs + d]; }
static inline u32 placeKind(int p) { return placeTable[p * (perPlacement + 1)]; }
static inline u32 placeCell(int p, int i) { return placeTable[p * (perPlacement + 1) + 1 + i]; }

static void *alloc(size_t bytes) {
  void *p = calloc(bytes > 8 ? bytes : 8, 1);
  if (!p) {
    fprintf(stderr, "polyomino: out of memory\n");
    exit(1);
  }
  return p;
}

static u32 *readWords(const char *path, size_t *count) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    exit(2);
  }
  fseek(f, 0, SEEK_END);
  long bytes = ftell(f);
  fseek(f, 0, SEEK_SET);
  u32 *w = alloc((size_t)bytes);
  if (fread(w, 1, (size_t)bytes, f) != (size_t)bytes) {
    perror(path);
    exit(2);
  }
  fclose(f);
  *count = (size_t)bytes / 4;
  return w;
}

// Neighbour cells of placement p after its first cell and outside it (see isNear in the engine).
static int isNear(int p, int c) {
  if (c <= (int)placeCell(p, 0)) return 0;
  int size = (int)kindArea(placeKind(p));
  for (int i = 0; i < size; i++)
    if ((int)placeCell(p, i) == c) return 0;
  return 1;
}

/** polyLoad: the same tables (the host has checked the input already). */
static void load(size_t inputWords) {
  cells = input[0];
  kinds = input[1];
  placements = input[2];
  symmetries = input[3];
  perPlacement = input[4];
  floodLimit = input[5];
  dirs = input[6];
  words = (cells + 63) >> 6;
  kindTable = input + 7;
  nbrs = kindTable + kinds * 3;
  placeTable = nbrs + cells * dirs;
  symTable = placeTable + placements * (perPlacement + 1);
  int symWords = cells + kinds + dirs;
  if (symTable + (size_t)symmetries * symWords != input + inputWords || floodLimit < 2 || floodLimit > 64 || (dirs != 4 && dirs != 6)) {
    fprintf(stderr, "polyomino: the input words do not match their header\n");
    exit(2);
  }
  uniform = 1;
  for (int k = 0; k < kinds; k++)
    if (kindArea(k) != kindArea(0) || kindTable[k * 3 + 2] == 0) uniform = 0;

  listId = alloc(placements * 4);
  listKind = alloc(placements * 4);
  listSkip = alloc(placements * 4);
  listOffset = alloc(placements * 4);
  listFrom = alloc(placements * 4);
  listSpan = alloc(placements * 4);
  cellStart = alloc((cells + 1) * 4);
  cellNear = alloc(cells * 8);
  conn = alloc(placements * perPlacement);
  invPerm = alloc(symmetries * cells * 4);
  connImage = alloc(symmetries * 64);
  labels = alloc(cells * 4);
  remaining = alloc(kinds * 4);
  board = alloc(words * 8);
  seen = alloc(words * 8);
  comp = alloc(words * 8);
  floodStack = alloc(cells * 4);
  stackCur = alloc((cells + 1) * 4);
  stackEnd = alloc((cells + 1) * 4);
  stackPlaced = alloc((cells + 1) * 4);
  stackCell = alloc((cells + 1) * 4);

  // Lists by first cell, a stable counting sort keeping the kind order within a cell.
  for (int p = 0; p < placements; p++) cellStart[placeCell(p, 0) + 1]++;
  for (int c = 0; c < cells; c++) cellStart[c + 1] += cellStart[c];
  for (int p = 0; p < placements; p++) {
    int j = cellStart[placeCell(p, 0)]++;
    listId[j] = p;
    listKind[j] = placeKind(p);
  }
  for (int c = cells; c > 0; c--) cellStart[c] = cellStart[c - 1];
  cellStart[0] = 0;
  // Skip index: the first later entry of the same cell with another kind.
  for (int c = 0; c < cells; c++) {
    int end = cellStart[c + 1];
    for (int j = end - 1; j >= (int)cellStart[c]; j--) {
      int next = j + 1;
      listSkip[j] = next < end && listKind[next] == listKind[j] ? listSkip[next] : (u32)next;
    }
  }
  for (int p = 0; p < placements; p++) {
    int size = (int)kindArea(placeKind(p));
    for (int i = 0; i < size; i++) {
      int c = placeCell(p, i);
      u32 bits = 0;
      for (int d = 0; d < dirs; d++) {
        int other = nbr(c, d);
        if (other < 0) continue;
        for (int t = 0; t < size; t++)
          if ((int)placeCell(p, t) == other) bits |= 1u << d;
      }
      conn[p * perPlacement + i] = (uint8_t)bits;
    }
  }
  for (int s = 0; s < symmetries; s++) {
    u32 *base = symTable + s * symWords;
    for (int c = 0; c < cells; c++) invPerm[s * cells + base[c]] = c;
    for (int bits = 0; bits < 64; bits++) {
      u32 image = 0;
      for (int d = 0; d < dirs; d++)
        if ((bits >> d) & 1) image |= 1u << base[cells + kinds + d];
      connImage[s * 64 + bits] = (uint8_t)image;
    }
  }
  for (int size = 0; size < 64; size++) fillable[size] = uniform && size % (int)kindArea(0) == 0;

  if (words == 1) {
    for (int c = 0; c < cells; c++) {
      u64 near = 0;
      for (int d = 0; d < dirs; d++)
        if (nbr(c, d) >= 0) near |= 1ull << nbr(c, d);
      cellNear[c] = near;
    }
    entries = alloc(placements * sizeof(Entry));
    for (int j = 0; j < placements; j++) {
      int p = listId[j];
      int size = (int)kindArea(placeKind(p));
      u64 mask = 0, near = 0;
      for (int i = 0; i < size; i++) {
        int c = placeCell(p, i);
        mask |= 1ull << c;
        for (int d = 0; d < dirs; d++)
          if (isNear(p, nbr(c, d))) near |= 1ull << nbr(c, d);
      }
      entries[j] = (Entry){mask, near, listKind[j], listSkip[j]};
    }
    return;
  }
  // Spans: from the word of the first cell to the word of the last cell or neighbour.
  int poolWords = 0;
  for (int j = 0; j < placements; j++) {
    int p = listId[j];
    int size = (int)kindArea(placeKind(p));
    int last = placeCell(p, size - 1);
    for (int i = 0; i < size; i++)
      for (int d = 0; d < dirs; d++) {
        int c = nbr(placeCell(p, i), d);
        if (c > last) last = c;
      }
    int from = (int)placeCell(p, 0) >> 6;
    listFrom[j] = from;
    listSpan[j] = (last >> 6) - from + 1;
    listOffset[j] = poolWords;
    poolWords += (last >> 6) - from + 1;
  }
  maskPool = alloc(poolWords * 8);
  nearPool = alloc(poolWords * 8);
  for (int j = 0; j < placements; j++) {
    int p = listId[j];
    int size = (int)kindArea(placeKind(p));
    int from = listFrom[j], offset = listOffset[j];
    for (int i = 0; i < size; i++) {
      int c = placeCell(p, i);
      maskPool[offset + (c >> 6) - from] |= 1ull << (c & 63);
      for (int d = 0; d < dirs; d++) {
        int other = nbr(c, d);
        if (isNear(p, other)) nearPool[offset + (other >> 6) - from] |= 1ull << (other & 63);
      }
    }
  }
}

/** The sizes below 64 that some choice of the remaining pieces covers exactly. */
static u64 reachableSums(void) {
  u64 sums = 1;
  for (int k = 0; k < kinds; k++) {
    u32 area = kindArea(k);
    if (area >= 64) continue;
    u32 uses = remaining[k] < 63 / area ? remaining[k] : 63 / area;
    for (u32 u = 0; u < uses; u++) sums |= sums << area;
  }
  return sums;
}

/**
 * True when no choice of the remaining pieces fills a closed component of `size` cells.
 * `*sums`: reachableSums(), computed on first need (0 until then) once per placement.
 */
static inline int unfillable(int size, u64 *sums) {
  if (uniform) return !fillable[size];
  if (*sums == 0) *sums = reachableSums();
  return ((*sums >> size) & 1) == 0;
}

static void labelPlacement(int p) {
  u32 k = placeKind(p);
  int size = (int)kindArea(k);
  for (int i = 0; i < size; i++) labels[placeCell(p, i)] = (k << 6) | conn[p * perPlacement + i];
}

/** True when no symmetry in the mask maps the tiling to a lexicographically smaller one. */
static int smallestImage(void) {
  for (int i = 0; i < preCount; i++) labelPlacement(pre[i]);
  for (int d = 0; d < depth; d++) labelPlacement(listId[stackPlaced[d]]);
  int symWords = cells + kinds + dirs;
  for (int s = 0; s < symmetries; s++) {
    if (((symMask >> s) & 1) == 0) continue;
    u32 *kindImage = symTable + s * symWords + cells;
    for (int c = 0; c < cells; c++) {
      u32 source = labels[invPerm[s * cells + c]];
      u32 image = (kindImage[source >> 6] << 6) | connImage[s * 64 + (source & 63)];
      u32 own = labels[c];
      if (image < own) return 0;
      if (image > own) break;
    }
  }
  return 1;
}

static void leaf(void) {
  for (int k = 0; k < kinds; k++)
    if (kindTable[k * 3 + 2] != 0 && remaining[k] != 0) return;
  total += weight;
  if (symMask != 0 && !smallestImage()) return;
  distinct++;
}

/** isolatedOneWord: true when an empty component next to the placement is too small. */
static int isolatedOneWord(u64 b, u64 near) {
  u64 free = ~b;
  u64 seeds = near & free;
  u64 visited = 0, sums = 0;
  while (seeds) {
    u64 component = seeds & (~seeds + 1);
    u64 frontier = component;
    int size = 1, big = 0;
    while (frontier) {
      int f = __builtin_ctzll(frontier);
      frontier &= frontier - 1;
      u64 grown = cellNear[f] & free & ~component;
      if (grown & visited) {
        big = 1;
        break;
      }
      component |= grown;
      frontier |= grown;
      size += __builtin_popcountll(grown);
      if (size >= floodLimit) {
        big = 1;
        break;
      }
    }
    visited |= component;
    seeds &= ~component;
    if (!big && unfillable(size, &sums)) return 1;
  }
  return 0;
}

/** runOneWord without the budget: the whole part. */
static void searchOneWord(void) {
  int d = 0;
  u64 b = board[0];
  int j = stackCur[0];
  int end = stackEnd[0];
  for (;;) {
    if (j >= end) {
      if (d == 0) return;
      d--;
      const Entry *back = &entries[stackPlaced[d]];
      b ^= back->mask;
      remaining[back->kind]++;
      j = stackCur[d];
      end = stackEnd[d];
      continue;
    }
    const Entry *entry = &entries[j];
    u32 k = entry->kind;
    u32 left = remaining[k];
    if (left == 0) {
      j = entry->skip;
      continue;
    }
    u64 mask = entry->mask;
    j++;
    if (mask & b) continue;
    b |= mask;
    remaining[k] = left - 1;
    nodes++;
    if (~b == 0) {
      stackPlaced[d] = j - 1;
      depth = d + 1;
      leaf();
      b ^= mask;
      remaining[k] = left;
    } else if (isolatedOneWord(b, entry->near)) {
      b ^= mask;
      remaining[k] = left;
    } else {
      stackPlaced[d] = j - 1;
      stackCur[d] = j;
      d++;
      int c = __builtin_ctzll(~b);
      j = cellStart[c];
      end = cellStart[c + 1];
      stackEnd[d] = end;
    }
  }
}

static inline int isEmpty(int c) { return (board[c >> 6] & (1ull << (c & 63))) == 0; }
static inline int isMarked(const u64 *bits, int c) { return (bits[c >> 6] & (1ull << (c & 63))) != 0; }
static inline void mark(u64 *bits, int c) { bits[c >> 6] |= 1ull << (c & 63); }

static int firstEmpty(int fromCell) {
  for (int w = fromCell >> 6; w < words; w++) {
    u64 free = ~board[w];
    if (free) return (w << 6) + __builtin_ctzll(free);
  }
  return cells;
}

static void enterCell(int d, int c) {
  stackCell[d] = c;
  stackCur[d] = cellStart[c];
  stackEnd[d] = cellStart[c + 1];
}

static void unplace(int j) {
  u32 k = listKind[j];
  remaining[k]++;
  int from = listFrom[j], span = listSpan[j], offset = listOffset[j];
  for (int i = 0; i < span; i++) board[from + i] ^= maskPool[offset + i];
  empty += (int)kindArea(k);
}

/** isolatedSpans: components found with a stack of cells. */
static int isolatedSpans(int from, int span, int offset) {
  memset(seen, 0, words * 8);
  u64 sums = 0;
  for (int i = 0; i < span; i++) {
    u64 seeds = nearPool[offset + i] & ~board[from + i];
    while (seeds) {
      int s = ((from + i) << 6) + __builtin_ctzll(seeds);
      seeds &= seeds - 1;
      if (isMarked(seen, s)) continue;
      memset(comp, 0, words * 8);
      mark(comp, s);
      floodStack[0] = s;
      int top = 1, size = 1, big = 0;
      while (top > 0 && !big) {
        int f = floodStack[--top];
        for (int dir = 0; dir < dirs; dir++) {
          int g = nbr(f, dir);
          if (g < 0 || !isEmpty(g) || isMarked(comp, g)) continue;
          if (isMarked(seen, g) || ++size >= floodLimit) {
            big = 1;
            break;
          }
          mark(comp, g);
          floodStack[top++] = g;
        }
      }
      for (int w = 0; w < words; w++) seen[w] |= comp[w];
      if (!big && unfillable(size, &sums)) return 1;
    }
  }
  return 0;
}

/** runSpans without the budget: the whole part. */
static void searchSpans(void) {
  int d = 0;
  for (;;) {
    int j = stackCur[d];
    int end = stackEnd[d];
    if (j >= end) {
      if (d == 0) return;
      d--;
      unplace(stackPlaced[d]);
      continue;
    }
    u32 k = listKind[j];
    u32 left = remaining[k];
    if (left == 0) {
      stackCur[d] = listSkip[j];
      continue;
    }
    stackCur[d] = j + 1;
    int from = listFrom[j], span = listSpan[j], offset = listOffset[j];
    int clash = 0;
    for (int i = 0; i < span; i++)
      if (maskPool[offset + i] & board[from + i]) {
        clash = 1;
        break;
      }
    if (clash) continue;
    for (int i = 0; i < span; i++) board[from + i] |= maskPool[offset + i];
    remaining[k] = left - 1;
    empty -= (int)kindArea(k);
    nodes++;
    stackPlaced[d] = j;
    if (empty == 0) {
      depth = d + 1;
      leaf();
      unplace(j);
    } else if (isolatedSpans(from, span, offset)) {
      unplace(j);
    } else {
      d++;
      enterCell(d, firstEmpty(stackCell[d - 1]));
    }
  }
}

/** polyStart + polyRun to the end, for one part. */
static void countPart(void) {
  depth = 0;
  for (int k = 0; k < kinds; k++) remaining[k] = kindTable[k * 3 + 1];
  memset(board, 0, words * 8);
  empty = cells;
  for (int i = 0; i < preCount; i++) {
    int p = pre[i];
    int k = placeKind(p);
    remaining[k]--;
    int size = (int)kindArea(k);
    for (int t = 0; t < size; t++) mark(board, placeCell(p, t));
    empty -= size;
  }
  // Cells past the region count as filled, so the first empty cell is the lowest clear bit.
  if (cells & 63) board[words - 1] |= ~0ull << (cells & 63);
  if (empty == 0) {
    leaf();
    return;
  }
  enterCell(0, firstEmpty(0));
  if (words == 1) searchOneWord();
  else searchSpans();
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: polyomino INPUT PARTS\n");
    return 2;
  }
  size_t inputWords, partWords;
  input = readWords(argv[1], &inputWords);
  u32 *parts = readWords(argv[2], &partWords);
  if (inputWords < 6 || partWords < 1) {
    fprintf(stderr, "polyomino: input or parts too short\n");
    return 2;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  load(inputWords);
  u64 allNodes = 0;
  u32 *at = parts + 1;
  for (u32 part = 0; part < parts[0]; part++) {
    weight = at[0];
    symMask = (u64)at[1] | ((u64)at[2] << 32);
    preCount = (int)at[3];
    pre = at + 4;
    at += 4 + preCount;
    if (at > parts + partWords) {
      fprintf(stderr, "polyomino: the parts file ends early\n");
      return 2;
    }
    nodes = 0;
    countPart();
    allNodes += nodes;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
  printf("total=%llu distinct=%llu nodes=%llu ms=%.3f\n", (unsigned long long)total, (unsigned long long)distinct,
         (unsigned long long)allNodes, ms);
  return 0;
}
