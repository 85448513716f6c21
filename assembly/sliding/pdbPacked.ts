// Compact pattern databases (4 bits an entry) for boards of up to 32 cells, built by a
// breadth-first search that follows the blank: the 15-puzzle's 7-8 tables (8 tiles: 16!/8! =
// 519 M entries, 260 MB) and the 24-puzzle's 6-6-6-6 (25!/19! = 127.5 M entries, 64 MB each).
//
// An entry holds (d - m) / 2: d is the pattern's distance (moves of pattern tiles only, the
// smallest over the blank's places) and m the Manhattan distance of the pattern's tiles. Each
// move of a pattern tile changes m by one, so d - m is even, and d = m + 2·entry. An excess
// above 15 would be stored as 15 (still a lower bound; pdbPackedClamped counts them).
// Entries are indexed like the byte tables of pdb.ts (rankCells), low nibble first.
//
// The search's states are (placement, region of free cells the blank is in). It numbers them
// apart from the table: a placement is the set of cells the tiles hold (a combination, ranked
// in colex order) and the tiles' order on them (a permutation), so the regions, which depend on
// the set alone, are found once per set, and a placement's states are neighbours. Each state
// has two bits (unseen, the depth being expanded, the next depth, done; the two depth codes
// alternate), so the 8-tile build needs 2.75 states a placement × 2 bits = 356 MB besides the
// tables (a 6-tile 5×5 build 1.42 states a placement: 45 MB). Each level scans the states for
// the code of its depth.
import { DONE, MORE, BAD_INPUT, OUT_OF_MEMORY, arenaAlloc, arenaGeneration } from '../shared/bits';
import { MAX_PATTERN, slotK, slotCell, slotTable, slotPacked, pdbSize, boardCellsOf, boardWidthOf, fillNeighbours, floodRegion } from './pdb';

const MAX_CELLS: i32 = 32;
const MAX_REGIONS: i32 = 16;
// Per combination: its first state (u32), its cells (u32), its region count (u8), its cells in
// order (8 bytes), the region of each free cell (32 bytes), each region's cells (u32 each).
const COMBO_BYTES: usize = 128;
const C_BASE: usize = 0;
const C_MASK: usize = 4;
const C_REGIONS: usize = 8;
const C_CELL_AT: usize = 16;
const C_REGION_OF: usize = 24;
const C_REGION_CELLS: usize = 56;
// Binomials C(n, r) for n ≤ 32, r ≤ 8: the colex rank of a combination.
const BINOMIAL: usize = memory.data((MAX_CELLS + 1) * (MAX_PATTERN + 1) * 4);
const UNSEEN: u32 = 0;

const NEIGHBOURS: usize = memory.data(MAX_CELLS * 4);
const CELLS: usize = memory.data(MAX_PATTERN * 4);
const DIGITS: usize = memory.data(MAX_PATTERN * 4);
const DISTANCE: usize = memory.data(MAX_PATTERN * MAX_CELLS); // tile i at cell c

let slot: i32 = -1;
let cells: i32 = 0;
let width: i32 = 0;
let k: i32 = 0;
let table: usize = 0;
let combos: usize = 0;    // the combination records
let codes: usize = 0;     // 2 bits a state
let codeBytes: u64 = 0;
let scratch: usize = 0;   // reused by the next build when big enough (and the arena was not reset)
let scratchBytes: u64 = 0;
let scratchGeneration: u32 = 0;
let clearedBytes: u64 = 0;
let blankCell: i32 = 0;
let depth: u32 = 0;
let current: u32 = 1;     // the code of the depth being expanded; the next depth's is 3 - current
let scanWord: u32 = 0;
let scanCombo: u32 = 0;
let nextCount: u32 = 0;
let filled: u32 = 0;
let clamped: u32 = 0;
const CLEAR_BYTES: u64 = 16; // bytes cleared per unit of budget (first touches of fresh pages included)

@inline function combo(c: u32): usize { return combos + <usize>c * COMBO_BYTES; }
@inline function codeOf(s: u32): u32 { return (<u32>load<u8>(codes + <usize>(s >> 2)) >> ((s & 3) << 1)) & 3; }
@inline function setCode(s: u32, code: u32): void {
  const at = codes + <usize>(s >> 2);
  const shift = (s & 3) << 1;
  store<u8>(at, <u8>((<u32>load<u8>(at) & ~(<u32>3 << shift)) | (code << shift)));
}

/** Entries filled so far by the packed build. */
export function pdbPackedFilled(): u32 { return filled; }
/** Entries of the last packed build whose excess over Manhattan was cut to 15. */
export function pdbPackedClamped(): u32 { return clamped; }

// The next mask of as many cells, in increasing order (colex order of combinations).
@inline function nextCombination(m: u32): u32 {
  const low = m & (0 - m);
  const ripple = m + low;
  return ripple == 0 ? 0 : (((ripple ^ m) >> 2) / low) | ripple;
}

// The colex rank of a combination: the sum of C(cell, i + 1) over its cells in increasing order.
@inline function combinationRank(m: u32): u32 {
  let rank: u32 = 0;
  let rest = m;
  for (let i = 1; i <= k; i++) {
    rank += load<u32>(BINOMIAL + (<usize>(ctz(rest) * (MAX_PATTERN + 1) + i) << 2));
    rest &= rest - 1;
  }
  return rank;
}

// The regions of free cells of combination `m` (on the board of `full` cells), into record `at`
// when it is not 0; returns how many.
function regionsOf(m: u32, full: u32, notFirstColumn: u32, notLastColumn: u32, at: usize): u32 {
  let free = full & ~m;
  let regions: u32 = 0;
  while (free != 0) {
    const region = floodRegion(free & (0 - free), full & ~m, width, notFirstColumn, notLastColumn);
    if (at != 0 && regions < <u32>MAX_REGIONS) {
      store<u32>(at + C_REGION_CELLS + (<usize>regions << 2), region);
      let r = region;
      while (r != 0) {
        store<u8>(at + C_REGION_OF + <usize>ctz(r), <u8>regions);
        r &= r - 1;
      }
    }
    free &= ~region;
    regions++;
  }
  return regions;
}

// The stages of a build before its search, each done in pieces by pdbPackedBuildRun so that
// none holds the thread (the 5×5's 177,100 combinations take a quarter of a second).
const STAGE_COUNT: i32 = 0;  // count the combinations and their regions
const STAGE_FILL: i32 = 1;   // write the combination records
const STAGE_CLEAR: i32 = 2;  // clear the table and the codes
const STAGE_SEARCH: i32 = 3;
const COMBINATION_UNITS: i32 = 512; // budget units a combination costs (its flood fills)
const EXPANSION_UNITS: i32 = 256;  // budget units an expanded state costs
const WORD_UNITS: i32 = 4;         // budget units a word of codes scanned costs
let stage: i32 = STAGE_COUNT;
let full: u32 = 0;
let notFirstColumn: u32 = 0;
let notLastColumn: u32 = 0;
let factorial: u32 = 1;
let nextMask: u32 = 0;      // the next combination of the stage
let comboIndex: u32 = 0;
let regionTotal: u64 = 0;   // counted: regions; filling: states so far

/**
 * Starts the build of packed slot `buildSlot` from its goal, the blank at cell `blank`;
 * pdbPackedBuildRun then numbers the combinations and their regions, allocates the state codes
 * (OUT_OF_MEMORY when the scratch is refused: the caller says how much the build needs), clears
 * and searches.
 */
export function pdbPackedBuildStart(buildSlot: i32, blank: i32): i32 {
  cells = boardCellsOf();
  width = boardWidthOf();
  if (buildSlot < 0 || slotTable(buildSlot) == 0 || !slotPacked(buildSlot) || cells > MAX_CELLS || blank < 0 || blank >= cells) return BAD_INPUT;
  k = slotK(buildSlot);
  factorial = 1;
  for (let i = 2; i <= k; i++) factorial *= <u32>i;
  for (let n = 0; n <= MAX_CELLS; n++) {
    for (let r = 0; r <= MAX_PATTERN; r++) {
      const at = BINOMIAL + (<usize>(n * (MAX_PATTERN + 1) + r) << 2);
      store<u32>(at, r == 0 ? 1 : n == 0 ? 0 : load<u32>(at - <usize>((MAX_PATTERN + 1) << 2) - 4) + load<u32>(at - <usize>((MAX_PATTERN + 1) << 2)));
    }
  }
  notFirstColumn = 0;
  notLastColumn = 0;
  for (let c = 0; c < cells; c++) {
    if (c % width != 0) notFirstColumn |= <u32>1 << <u32>c;
    if (c % width != width - 1) notLastColumn |= <u32>1 << <u32>c;
  }
  full = cells == 32 ? 0xffffffff : (<u32>1 << <u32>cells) - 1;
  fillNeighbours(NEIGHBOURS, cells, width);
  for (let i = 0; i < k; i++) {
    const g = slotCell(buildSlot, i);
    for (let q = 0; q < cells; q++) {
      store<u8>(DISTANCE + <usize>(i * MAX_CELLS + q), <u8>(abs(q / width - g / width) + abs(q % width - g % width)));
    }
  }
  slot = buildSlot;
  table = slotTable(buildSlot);
  blankCell = blank;
  filled = 0;
  clamped = 0;
  stage = STAGE_COUNT;
  firstCombination();
  return MORE;
}

// Back to the first combination (k lowest cells), for the stage that walks them all.
function firstCombination(): void {
  nextMask = (<u32>1 << <u32>k) - 1;
  comboIndex = 0;
  regionTotal = 0;
}

// Counts up to `budget` units of combinations and their regions; then allocates the scratch.
function countPiece(budget: i32): i32 {
  for (let left = budget; left > 0 && nextMask != 0 && nextMask <= full; left -= COMBINATION_UNITS) {
    const regions = regionsOf(nextMask, full, notFirstColumn, notLastColumn, 0);
    if (regions > <u32>MAX_REGIONS) return BAD_INPUT;
    regionTotal += regions;
    comboIndex++;
    nextMask = nextCombination(nextMask);
  }
  if (nextMask != 0 && nextMask <= full) return MORE;
  const recordBytes = <u64>(comboIndex + 1) * <u64>COMBO_BYTES;
  if (regionTotal * <u64>factorial > 0xffffffff) return BAD_INPUT;
  const bytes = recordBytes + ((regionTotal * <u64>factorial + 15) >> 2) + 64;
  if (bytes > scratchBytes || scratchGeneration != arenaGeneration()) {
    scratchGeneration = arenaGeneration();
    scratch = arenaAlloc(bytes);
    if (scratch == 0) {
      scratchBytes = 0;
      return OUT_OF_MEMORY;
    }
    scratchBytes = bytes;
  }
  combos = (scratch + 15) & ~<usize>15;
  codes = (combos + <usize>recordBytes + 15) & ~<usize>15;
  stage = STAGE_FILL;
  firstCombination();
  return MORE;
}

// Writes up to `budget` units of combination records.
function fillPiece(budget: i32): void {
  for (let left = budget; left > 0 && nextMask != 0 && nextMask <= full; left -= COMBINATION_UNITS) {
    const at = combo(comboIndex);
    store<u32>(at + C_BASE, <u32>regionTotal);
    store<u32>(at + C_MASK, nextMask);
    let rest = nextMask;
    for (let j = 0; j < k; j++) {
      store<u8>(at + C_CELL_AT + <usize>j, <u8>ctz(rest));
      rest &= rest - 1;
    }
    memory.fill(at + C_REGION_OF, 0xff, <usize>MAX_CELLS);
    const regions = regionsOf(nextMask, full, notFirstColumn, notLastColumn, at);
    store<u8>(at + C_REGIONS, <u8>regions);
    regionTotal += <u64>regions * <u64>factorial;
    comboIndex++;
    nextMask = nextCombination(nextMask);
  }
  if (nextMask != 0 && nextMask <= full) return;
  store<u32>(combo(comboIndex) + C_BASE, <u32>regionTotal); // the end of the last combination
  codeBytes = (regionTotal + 3) >> 2;
  stage = STAGE_CLEAR;
  clearedBytes = 0;
}

// Clears up to `budget` units of the table and the codes; true when all is clear.
function clearPiece(budget: i32): bool {
  const tableBytes = <u64>((pdbSize(slot) + 1) >> 1);
  let allowed = <u64>max(budget, 1) * CLEAR_BYTES;
  if (clearedBytes < tableBytes) {
    const bytes = min<u64>(tableBytes - clearedBytes, allowed);
    memory.fill(table + <usize>clearedBytes, 0, <usize>bytes);
    clearedBytes += bytes;
    allowed -= bytes;
  }
  const total = tableBytes + ((codeBytes + 3) & ~<u64>3);
  if (clearedBytes >= tableBytes && allowed > 0 && clearedBytes < total) {
    const at = clearedBytes - tableBytes;
    const bytes = min<u64>(total - clearedBytes, allowed);
    memory.fill(codes + <usize>at, 0, <usize>bytes);
    clearedBytes += bytes;
  }
  return clearedBytes >= total;
}

// The permutation rank of the tiles (at CELLS) over the cells of mask `m`.
@inline function permutationRank(m: u32): u32 {
  let usedIndex: u32 = 0;
  let rank: u32 = 0;
  for (let i = 0; i < k; i++) {
    const p = load<u32>(CELLS + (<usize>i << 2));
    const index = popcnt(m & ((<u32>1 << p) - 1));
    rank = rank * <u32>(k - i) + index - popcnt(usedIndex & ((<u32>1 << index) - 1));
    usedIndex |= <u32>1 << index;
  }
  return rank;
}

// The table index of the tiles at CELLS: rankCells of pdb.ts.
@inline function tableIndex(): u32 {
  let used: u32 = 0;
  let index: u32 = 0;
  for (let i = 0; i < k; i++) {
    const p = load<u32>(CELLS + (<usize>i << 2));
    index = index * <u32>(cells - i) + p - popcnt(used & ((<u32>1 << p) - 1));
    used |= <u32>1 << p;
  }
  return index;
}

// Writes the tiles of permutation `rank` of combination record `at` to CELLS; returns their Manhattan sum.
function unrank(at: usize, rank: u32): i32 {
  for (let i = k - 1; i >= 0; i--) {
    const radix = <u32>(k - i);
    store<u32>(DIGITS + (<usize>i << 2), rank % radix);
    rank /= radix;
  }
  let usedIndex: u32 = 0;
  let md = 0;
  for (let i = 0; i < k; i++) {
    let free = ~usedIndex;
    const digit = load<u32>(DIGITS + (<usize>i << 2));
    for (let j: u32 = 0; j < digit; j++) free &= free - 1;
    const index = ctz(free);
    usedIndex |= <u32>1 << index;
    const p = <i32>load<u8>(at + C_CELL_AT + <usize>index);
    store<u32>(CELLS + (<usize>i << 2), p);
    md += <i32>load<u8>(DISTANCE + <usize>(i * MAX_CELLS + p));
  }
  return md;
}

// Marks a state of the next depth; the first state of its placement sets the table entry.
function reach(s: u32, first: u32, regions: u32, md: i32): void {
  if (codeOf(s) != UNSEEN) return;
  let seen = false;
  for (let r: u32 = 0; r < regions; r++) {
    if (codeOf(first + r) != UNSEEN) {
      seen = true;
      break;
    }
  }
  setCode(s, 3 - current);
  nextCount++;
  if (seen) return;
  let excess = (<i32>depth + 1 - md) >> 1;
  if (excess > 15) {
    excess = 15;
    clamped++;
  }
  const index = tableIndex();
  const at = table + <usize>(index >> 1);
  store<u8>(at, <u8>(<u32>load<u8>(at) | (<u32>excess << ((index & 1) << 2))));
  filled++;
}

// Expands state `s` of combination `c`: each pattern tile next to the blank's region moves into
// it (one move), leaving the blank's region where the tile was.
function expand(s: u32, c: u32): void {
  const at = combo(c);
  const regions = <u32>load<u8>(at + C_REGIONS);
  const m = load<u32>(at + C_MASK);
  const relative = s - load<u32>(at + C_BASE);
  const md = unrank(at, relative / regions);
  const allowed = load<u32>(at + C_REGION_CELLS + (<usize>(relative % regions) << 2));
  for (let i = 0; i < k; i++) {
    const cellAt = CELLS + (<usize>i << 2);
    const a = load<u32>(cellAt);
    const before = <i32>load<u8>(DISTANCE + <usize>(i * MAX_CELLS + <i32>a));
    for (let dir = 0; dir < 4; dir++) {
      const b = <i32>load<i8>(NEIGHBOURS + (<usize>a << 2) + <usize>dir);
      if (b < 0 || (allowed & (<u32>1 << <u32>b)) == 0) continue;
      store<u32>(cellAt, b);
      const m2 = m ^ (<u32>1 << a) ^ (<u32>1 << <u32>b);
      const at2 = combo(combinationRank(m2));
      const regions2 = <u32>load<u8>(at2 + C_REGIONS);
      const first = load<u32>(at2 + C_BASE) + permutationRank(m2) * regions2;
      const region = <u32>load<u8>(at2 + C_REGION_OF + <usize>a);
      reach(first + region, first, regions2, md - before + <i32>load<u8>(DISTANCE + <usize>(i * MAX_CELLS + b)));
    }
    store<u32>(cellAt, a);
  }
}

/**
 * The build's stage: a unit costs unlike times in them (clearing fresh memory, a combination's
 * flood fills, a state expanded), so the host keeps a budget for each; a call ends where the
 * stage changes.
 */
export function pdbPackedBuildStage(): i32 { return stage; }

/** Advances the packed build by about `budget` units (see the stages' costs above). */
export function pdbPackedBuildRun(budget: i32): i32 {
  if (slot < 0) return BAD_INPUT;
  if (stage == STAGE_COUNT) {
    const status = countPiece(budget);
    if (status != MORE) slot = -1;
    return status;
  }
  if (stage == STAGE_FILL) {
    fillPiece(budget);
    return MORE;
  }
  if (stage == STAGE_CLEAR) {
    if (!clearPiece(budget)) return MORE;
    stage = STAGE_SEARCH;
    // The goal: every tile on its cell, the blank in the region of its goal cell.
    let m: u32 = 0;
    for (let i = 0; i < k; i++) {
      const g = slotCell(slot, i);
      store<u32>(CELLS + (<usize>i << 2), g);
      m |= <u32>1 << <u32>g;
    }
    const goal = combo(combinationRank(m));
    const regions = <u32>load<u8>(goal + C_REGIONS);
    const s = load<u32>(goal + C_BASE) + permutationRank(m) * regions + <u32>load<u8>(goal + C_REGION_OF + <usize>blankCell);
    setCode(s, 1);
    filled = 1; // the goal's entry: 0, as cleared
    depth = 0;
    current = 1;
    scanWord = 0;
    scanCombo = 0;
    nextCount = 0;
    return MORE;
  }
  const words = <u32>((codeBytes + 3) >> 2);
  const pattern: u32 = current == 1 ? 0x55555555 : 0xaaaaaaaa;
  let left = budget;
  while (left > 0) {
    if (scanWord >= words) {
      if (nextCount == 0) {
        slot = -1;
        return DONE;
      }
      depth++;
      current = 3 - current;
      nextCount = 0;
      scanWord = 0;
      scanCombo = 0;
      return MORE;
    }
    left -= WORD_UNITS;
    const at = codes + (<usize>scanWord << 2);
    const y = load<u32>(at) ^ pattern;
    const match = ~(y | (y >> 1)) & 0x55555555;
    if (match != 0) {
      let rest = match;
      while (rest != 0) {
        const s = (scanWord << 4) + (ctz(rest) >> 1);
        while (load<u32>(combo(scanCombo + 1) + C_BASE) <= s) scanCombo++;
        expand(s, scanCombo);
        rest &= rest - 1;
        left -= EXPANSION_UNITS;
      }
      // Expanded: done (both bits of each matched field set; new marks are kept).
      store<u32>(at, load<u32>(at) | (match * 3));
    }
    scanWord++;
  }
  return MORE;
}
