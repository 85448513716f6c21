// A constructive sliding-tile solver for any M×N board, in linear memory and time per move.
//
// The board is cut down one line at a time: the top row when the free rectangle has more
// rows than columns (else the left column), until at most 3×3 cells are left, which are
// solved optimally by a small IDA*. A line is filled tile by tile: each tile walks along
// columns then rows to its cell, the blank going round it by the shortest way (greedy steps,
// and a breadth-first search in a small box when the tile is in the way). The last two tiles
// of a line go in with the usual trick: the last tile into the second-last cell, the
// second-last below it, then two moves.
//
// Columns are handled as rows of the transposed board: the search runs in logical
// coordinates, and each move is written in the board's own directions.
//
// Labels are goal cells with the blank's goal at the last cell (the host arranges this).
// Moves are bytes (0 up, 1 left, 2 right, 3 down: the blank's direction) written in chunks:
// run() fills the output region with the moves of whole tile placements and returns MORE
// (a chunk is ready, more follow) or DONE (the last chunk is ready).
import { DONE, MORE, OUT_OF_MEMORY, BAD_INPUT, arenaReset, arenaAlloc } from '../shared/bits';

const UP: i32 = 0;
const LEFT: i32 = 1;
const RIGHT: i32 = 2;
const DOWN: i32 = 3;
// Moves per chunk: about 20 ms of work, so that a chunk is one slice of the calling thread.
const MIN_CHUNK: i32 = 1 << 18;
const BOX_CELLS: i32 = 1024;
const APPROACH_CELLS: i32 = 1 << 14;
// The approach's ways keep within this many cells of the straight line from the blank to its
// goal (scaled to the longer side): the programme then looks at about 16 (h + w) cells, not h·w.
const BAND: i32 = 8;
const NO_WAY: i32 = -0x40000000;

const PHASE_LINE: i32 = 0;   // choose the next line, or the final block
const PHASE_TILE: i32 = 1;   // place the tile of logical column `column`
const PHASE_LAST: i32 = 2;   // the last tile of the line into the second-last cell
const PHASE_PAIR: i32 = 3;   // the second-last tile below it, then the two closing moves
const PHASE_BLOCK: i32 = 4;  // the last block
const PHASE_DONE: i32 = 5;

// Breadth-first search in a box: the previous cell of each box cell (-1 unseen).
const BOX_FROM: usize = memory.data(BOX_CELLS * 4);
const BOX_QUEUE: usize = memory.data(BOX_CELLS * 4);
// The last block: its labels, their goal coordinates, and the moves found.
const BLOCK: usize = memory.data(9 * 4);
const BLOCK_PATH: usize = memory.data(64);

let height: i32 = 0;
let width: i32 = 0;
let board: usize = 0;   // u32 label per cell
let where: usize = 0;   // u32 cell per label
let output: usize = 0;
let capacity: i32 = 0;
let outLength: i32 = 0;
let overflow: bool = false;
let moves: u64 = 0;
// The blank's approach to a tile (from the arena): the best gain reaching each cell of the
// rectangle, whether that best way came vertically, and the moves found.
let approachCells: i32 = 0;
let APPROACH_BEST: usize = 0;
let APPROACH_PATH: usize = 0;
// The goal of each label as (row << 16) | column, when both fit (else 0: divisions instead).
let GOAL: usize = 0;

let top: i32 = 0;       // first row not yet solved
let left: i32 = 0;      // first column not yet solved
let phase: i32 = PHASE_DONE;
let column: i32 = 0;    // the logical column whose tile goes in next
// The line being solved, in logical coordinates.
let transposed: bool = false;
let lineRow: i32 = 0;
let firstColumn: i32 = 0;
let rowsEnd: i32 = 0;
let columnsEnd: i32 = 0;
let prefix: i32 = 0;    // logical columns of lineRow before this one are solved
let blankCell: i32 = 0;
let blankRow: i32 = 0;  // the blank's row and column on the board
let blankColumn: i32 = 0;

export function fastOutputPtr(): usize { return output; }
export function fastOutputLength(): i32 { return outLength; }
export function fastMoves(): u64 { return moves; }

/**
 * Allocates a rows×columns board from the arena (after a reset) and returns its address: the
 * host writes a u32 label per cell there, then calls fastStart. 0 when memory is refused.
 */
export function fastAlloc(rows: i32, columns: i32): usize {
  arenaReset();
  phase = PHASE_DONE;
  if (rows < 2 || columns < 2) return 0;
  const cells = <u64>rows * <u64>columns;
  if (cells > 0x10000000) return 0;
  height = rows;
  width = columns;
  board = arenaAlloc(cells << 2);
  if (board == 0) return 0;
  where = arenaAlloc(cells << 2);
  if (where == 0) return 0;
  capacity = max(MIN_CHUNK, 64 * (rows + columns) + 1024);
  output = arenaAlloc(<u64>capacity);
  if (output == 0) return 0;
  approachCells = <i32>min(cells, <u64>APPROACH_CELLS);
  APPROACH_BEST = arenaAlloc(<u64>approachCells * 5);
  if (APPROACH_BEST == 0) return 0;
  APPROACH_PATH = APPROACH_BEST + (<usize>approachCells << 2);
  GOAL = 0;
  if (rows <= 0x10000 && columns <= 0x10000) {
    GOAL = arenaAlloc(cells << 2);
    if (GOAL == 0) return 0;
  }
  startStage = GOAL != 0 ? START_GOAL : START_WHERE;
  startAt = 0;
  return board;
}

// fastStart's work is linear in the cells (and the first touch of fresh memory is slow): it
// is done in pieces, one a call, so that a board of millions of cells does not hold the thread.
const START_GOAL: i32 = 0;    // the goal coordinates of each label
const START_WHERE: i32 = 1;   // every label's cell unknown
const START_SCATTER: i32 = 2; // each label's cell, checking that each label is there once
const START_PIECE: i32 = 1 << 16;
let startStage: i32 = START_GOAL;
let startAt: i32 = 0; // cells done in the stage

/**
 * Prepares the run once the host has written the labels: MORE while pieces of the work
 * remain (call again), DONE when ready, BAD_INPUT when the labels are not 0..MN-1 once each.
 */
export function fastStart(): i32 {
  if (board == 0 || output == 0) return BAD_INPUT;
  const cells = height * width;
  const end = min(cells, startAt + START_PIECE);
  if (startStage == START_GOAL) {
    for (let i = startAt; i < end; i++) {
      const r = i / width;
      store<u32>(GOAL + (<usize>i << 2), (<u32>r << 16) | <u32>(i - r * width));
    }
  } else if (startStage == START_WHERE) {
    memory.fill(where + (<usize>startAt << 2), 0xff, <usize>(end - startAt) << 2);
  } else {
    for (let c = startAt; c < end; c++) {
      const l = load<u32>(board + (<usize>c << 2));
      if (l >= <u32>cells || load<u32>(where + (<usize>l << 2)) != 0xffffffff) return BAD_INPUT;
      store<u32>(where + (<usize>l << 2), c);
    }
  }
  startAt = end;
  if (startAt < cells) return MORE;
  startAt = 0;
  if (startStage != START_SCATTER) {
    startStage++;
    return MORE;
  }
  blankCell = <i32>load<u32>(where + (<usize>(cells - 1) << 2));
  blankRow = blankCell / width;
  blankColumn = blankCell % width;
  top = 0;
  left = 0;
  moves = 0;
  overflow = false;
  phase = PHASE_LINE;
  return DONE;
}

// ---- logical coordinates -------------------------------------------------------------

@inline function physical(r: i32, c: i32): i32 { return transposed ? c * width + r : r * width + c; }
@inline function logicalRow(cell: i32): i32 { return transposed ? cell % width : cell / width; }
@inline function logicalColumn(cell: i32): i32 { return transposed ? cell / width : cell % width; }
@inline function blankLogicalRow(): i32 { return transposed ? blankColumn : blankRow; }
@inline function blankLogicalColumn(): i32 { return transposed ? blankRow : blankColumn; }
@inline function labelAt(cell: i32): i32 { return <i32>load<u32>(board + (<usize>cell << 2)); }
@inline function cellOf(label: i32): i32 { return <i32>load<u32>(where + (<usize>label << 2)); }

@inline function free(r: i32, c: i32): bool {
  if (r < lineRow || r >= rowsEnd || c < firstColumn || c >= columnsEnd) return false;
  return r > lineRow || c >= prefix;
}

function emit(dir: i32): void {
  if (outLength >= capacity) {
    overflow = true;
    return;
  }
  store<u8>(output + <usize>outLength, <u8>dir);
  outLength++;
  moves++;
}

// Moves the blank one cell in a board direction: the tile there slides into the blank.
function moveBlankPhysical(dir: i32): void {
  const to = dir == UP ? blankCell - width : dir == DOWN ? blankCell + width : dir == LEFT ? blankCell - 1 : blankCell + 1;
  const l = labelAt(to);
  const blankLabel = height * width - 1;
  store<u32>(board + (<usize>blankCell << 2), l);
  store<u32>(where + (<usize>l << 2), blankCell);
  store<u32>(board + (<usize>to << 2), blankLabel);
  store<u32>(where + (<usize>blankLabel << 2), to);
  blankCell = to;
  if (dir == UP) blankRow--;
  else if (dir == DOWN) blankRow++;
  else if (dir == LEFT) blankColumn--;
  else blankColumn++;
  emit(dir);
}

// Logical directions: up/down change the logical row; on the transposed board that is a
// change of column.
@inline function toPhysical(dir: i32): i32 {
  if (!transposed) return dir;
  return dir == UP ? LEFT : dir == LEFT ? UP : dir == RIGHT ? DOWN : RIGHT;
}

function moveBlank(dir: i32): void { moveBlankPhysical(toPhysical(dir)); }

// The blank's logical step from (r, c) to the neighbour (r2, c2).
@inline function stepDir(r: i32, c: i32, r2: i32, c2: i32): i32 {
  return r2 < r ? UP : r2 > r ? DOWN : c2 < c ? LEFT : RIGHT;
}

// Breadth-first search for the blank's shortest way to (yr, yc) avoiding (xr, xc), in the box
// around the three cells. Returns false when no way exists in the box.
function searchBox(yr: i32, yc: i32, xr: i32, xc: i32): bool {
  const br = blankLogicalRow();
  const bc = blankLogicalColumn();
  const r0 = max(lineRow, min(br, min(yr, xr)) - 1);
  const r1 = min(rowsEnd - 1, max(br, max(yr, xr)) + 1);
  const c0 = max(firstColumn, min(bc, min(yc, xc)) - 1);
  const c1 = min(columnsEnd - 1, max(bc, max(yc, xc)) + 1);
  const w = c1 - c0 + 1;
  const size = (r1 - r0 + 1) * w;
  if (size > BOX_CELLS) return false;
  for (let i = 0; i < size; i++) store<i32>(BOX_FROM + (<usize>i << 2), -1);
  const start = (br - r0) * w + (bc - c0);
  const goal = (yr - r0) * w + (yc - c0);
  store<i32>(BOX_FROM + (<usize>start << 2), start);
  store<i32>(BOX_QUEUE, start);
  let head = 0;
  let tail = 1;
  while (head < tail) {
    const i = load<i32>(BOX_QUEUE + (<usize>head << 2));
    head++;
    if (i == goal) break;
    const r = i / w + r0;
    const c = i % w + c0;
    for (let dir = 0; dir < 4; dir++) {
      const nr = dir == UP ? r - 1 : dir == DOWN ? r + 1 : r;
      const nc = dir == LEFT ? c - 1 : dir == RIGHT ? c + 1 : c;
      if (nr < r0 || nr > r1 || nc < c0 || nc > c1 || !free(nr, nc) || (nr == xr && nc == xc)) continue;
      const j = (nr - r0) * w + (nc - c0);
      if (load<i32>(BOX_FROM + (<usize>j << 2)) >= 0) continue;
      store<i32>(BOX_FROM + (<usize>j << 2), i);
      store<i32>(BOX_QUEUE + (<usize>tail << 2), j);
      tail++;
    }
  }
  if (load<i32>(BOX_FROM + (<usize>goal << 2)) < 0) return false;
  // Walk back from the goal, then replay the way forwards.
  let length = 0;
  for (let i = goal; i != start; i = load<i32>(BOX_FROM + (<usize>i << 2))) {
    store<i32>(BOX_QUEUE + (<usize>length << 2), i);
    length++;
  }
  for (let k = length - 1; k >= 0; k--) {
    const i = load<i32>(BOX_QUEUE + (<usize>k << 2));
    moveBlank(stepDir(blankLogicalRow(), blankLogicalColumn(), i / w + r0, i % w + c0));
  }
  return true;
}

// The blank steps to the neighbouring logical cell (r, c).
@inline function stepTo(r: i32, c: i32): void {
  moveBlank(stepDir(blankLogicalRow(), blankLogicalColumn(), r, c));
}

// The blank is next to the tile at (xr, xc) and must reach (yr, yc), another neighbour of
// the tile: round the corner they share (2 moves), or round one side of the tile (4 moves).
// False when those cells are not free (a search finds the longer way).
function goAround(yr: i32, yc: i32, xr: i32, xc: i32): bool {
  const br = blankLogicalRow();
  const bc = blankLogicalColumn();
  if (abs(br - xr) + abs(bc - xc) != 1 || abs(yr - xr) + abs(yc - xc) != 1) return false;
  if (br != yr && bc != yc) {
    const cr = br + yr - xr;
    const cc = bc + yc - xc;
    if (!free(cr, cc)) return false;
    stepTo(cr, cc);
    stepTo(yr, yc);
    return true;
  }
  for (let side = 1; side >= -1; side -= 2) {
    if (bc == xc) {
      const c = xc + side;
      if (!free(br, c) || !free(xr, c) || !free(yr, c)) continue;
      stepTo(br, c);
      stepTo(xr, c);
      stepTo(yr, c);
    } else {
      const r = xr + side;
      if (!free(r, bc) || !free(r, xc) || !free(r, yc)) continue;
      stepTo(r, bc);
      stepTo(r, xc);
      stepTo(r, yc);
    }
    stepTo(yr, yc);
    return true;
  }
  return false;
}

// Brings the blank to (yr, yc) without moving the tile at (xr, xc) or any solved tile.
function routeBlank(yr: i32, yc: i32, xr: i32, xc: i32): bool {
  for (;;) {
    const br = blankLogicalRow();
    const bc = blankLogicalColumn();
    if (br == yr && bc == yc) return true;
    const dr = yr - br;
    const dc = yc - bc;
    const vr = br + (dr > 0 ? 1 : -1);
    const hc = bc + (dc > 0 ? 1 : -1);
    const verticalOk = dr != 0 && free(vr, bc) && !(vr == xr && bc == xc);
    const horizontalOk = dc != 0 && free(br, hc) && !(br == xr && hc == xc);
    // Close the longer gap first; go round the tile when it blocks both.
    if (verticalOk && (abs(dr) >= abs(dc) || !horizontalOk)) moveBlank(dr > 0 ? DOWN : UP);
    else if (horizontalOk) moveBlank(dc > 0 ? RIGHT : LEFT);
    else return goAround(yr, yc, xr, xc) || searchBox(yr, yc, xr, xc);
  }
  return false;
}

// The moves a tile needs to travel dr rows and dc columns (diagonal steps 3 moves a cell, straight 5).
@inline function lineCost(dr: i32, dc: i32): i32 {
  return dr > dc ? 5 * dr + dc : 5 * dc + dr;
}

// Brings the blank to (yr, yc) by a shortest way that keeps to the rectangle between them (so
// every way is as long), choosing the one that does the most good on the way: a tile the blank
// enters moves one cell back along the blank's way, which for a tile still to come in this
// line saves what its walk to its cell costs less (3 moves a diagonal step, 5 a straight one),
// and for any other tile counts +1 when it comes nearer its goal and -1 when it goes away.
// False (nothing moved) when the tile at (xr, xc) or a solved cell blocks every such way, or
// the rectangle is too large. A dynamic programme over the rectangle's cells within BAND of the
// straight line: the best gain of a way to each cell, the way coming from above on ties.
function approach(yr: i32, yc: i32, xr: i32, xc: i32): bool {
  const br = blankLogicalRow();
  const bc = blankLogicalColumn();
  const sr = yr > br ? 1 : -1;
  const sc = yc > bc ? 1 : -1;
  const h = abs(yr - br) + 1;
  const w = abs(yc - bc) + 1;
  if (h * w > approachCells || !free(yr, yc)) return false;
  const xi = (xr - br) * sr;
  const xj = (xc - bc) * sc;
  const kx = xi >= 0 && xi < h && xj >= 0 && xj < w ? xi * w + xj : -1;
  const lineI = (lineRow - br) * sr;  // the row that may hold solved cells
  const step = transposed ? sc * width : sc;  // the physical step of one logical column
  const band = BAND * max(w - 1, h - 1);
  approachSr = sr;
  approachSc = sc;
  for (let i = 0; i < h; i++) {
    const r = br + i * sr;
    const row = APPROACH_BEST + (<usize>(i * w) << 2);
    let cell = physical(r, bc);
    let before = NO_WAY;
    if (i == 0 || i == lineI || (kx >= 0 && i == xi)) {
      // A row with the start, solved cells or the tile: the careful loop.
      const lowest = r == lineRow ? prefix : firstColumn;  // cells left of it are solved
      for (let j = 0; j < w; j++, cell += step) {
        const at = row + (<usize>j << 2);
        const c = bc + j * sc;
        if (i == 0 && j == 0) {
          before = 0;
        } else if (c < lowest || i * w + j == kx || abs(i * (w - 1) - j * (h - 1)) > band) {
          before = NO_WAY;
        } else {
          const gains = pushGains(cell, r, c);
          const above = i > 0 ? load<i32>(at - (<usize>w << 2)) : NO_WAY;
          before = max(above + (gains >> 16), before + <i32><i16>gains);
        }
        store<i32>(at, before);
      }
    } else {
      // Without branches (the choice is a coin toss to the processor): a way from a cell
      // with no way stays far below NO_WAY / 2, and loses to any real way. Cells outside the
      // band have no way.
      for (let j = 0; j < w; j++, cell += step) {
        const at = row + (<usize>j << 2);
        if (abs(i * (w - 1) - j * (h - 1)) > band) {
          before = NO_WAY;
          store<i32>(at, before);
          continue;
        }
        const gains = pushGains(cell, r, bc + j * sc);
        before = max(load<i32>(at - (<usize>w << 2)) + (gains >> 16), before + <i32><i16>gains);
        store<i32>(at, before);
      }
    }
  }
  if (load<i32>(APPROACH_BEST + (<usize>(h * w - 1) << 2)) < NO_WAY / 2) return false;
  // Walk back from the end, taking the step the programme took (from above on ties).
  let length = 0;
  let i = h - 1;
  let j = w - 1;
  while (i > 0 || j > 0) {
    const k = i * w + j;
    const gains = pushGains(physical(br + i * sr, bc + j * sc), br + i * sr, bc + j * sc);
    const above = i > 0 ? load<i32>(APPROACH_BEST + (<usize>(k - w) << 2)) : NO_WAY;
    const before = j > 0 ? load<i32>(APPROACH_BEST + (<usize>(k - 1) << 2)) : NO_WAY;
    if (above + (gains >> 16) >= before + <i32><i16>gains) {
      store<u8>(APPROACH_PATH + <usize>length, <u8>(sr > 0 ? DOWN : UP));
      i--;
    } else {
      store<u8>(APPROACH_PATH + <usize>length, <u8>(sc > 0 ? RIGHT : LEFT));
      j--;
    }
    length++;
  }
  for (let k = length - 1; k >= 0; k--) moveBlank(<i32>load<u8>(APPROACH_PATH + <usize>k));
  return true;
}

let approachSr: i32 = 1;
let approachSc: i32 = 1;

// What the blank's entering the logical cell (r, c) does to the tile there: (gain from above
// << 16) | (gain from the side & 0xffff). From above the tile goes to row r - sr, from the side
// to column c - sc: for a tile still to come in this line, what its walk to its cell costs
// less; for any other, +1 nearer its goal, -1 further.
@inline function pushGains(cell: i32, r: i32, c: i32): i32 {
  const l = labelAt(cell);
  let gr: i32;
  let gc: i32;
  if (GOAL != 0) {
    const g = load<u32>(GOAL + (<usize>l << 2));
    gr = <i32>(transposed ? g & 0xffff : g >> 16);
    gc = <i32>(transposed ? g >> 16 : g & 0xffff);
  } else {
    const q = l / width;
    const m = l - q * width;
    gr = transposed ? m : q;
    gc = transposed ? q : m;
  }
  let up: i32;
  let side: i32;
  if (gr == lineRow) {
    if (gc > column) {
      const here = lineCost(r - lineRow, abs(c - gc));
      up = here - lineCost(r - approachSr - lineRow, abs(c - gc));
      side = here - lineCost(r - lineRow, abs(c - approachSc - gc));
    } else {
      up = 0;
      side = 0;
    }
  } else {
    up = select(1, -1, (gr - r) * approachSr < 0);
    side = select(1, -1, (gc - c) * approachSc < 0);
  }
  return (up << 16) | (side & 0xffff);
}

// Moves the blank needs to reach (yr, yc) from where it is, going round the tile at
// (xr, xc) when the tile lies between them on a line.
@inline function approachCost(yr: i32, yc: i32, xr: i32, xc: i32): i32 {
  const br = blankLogicalRow();
  const bc = blankLogicalColumn();
  let cost = abs(br - yr) + abs(bc - yc);
  if ((br == xr && yr == xr && (bc - xc) * (yc - xc) < 0) || (bc == xc && yc == xc && (br - xr) * (yr - xr) < 0)) cost += 2;
  return cost;
}

// Walks tile `label` to the logical cell (tr, tc), one cell at a time with the blank going
// in front of it: down first if it is above its row, else towards its column and up, taking
// whichever of the two steps the blank reaches sooner, so that the tile moves diagonally
// (3 moves a cell) rather than straight (5).
function placeTile(label: i32, tr: i32, tc: i32): bool {
  let first = true;
  for (;;) {
    const cell = cellOf(label);
    const r = logicalRow(cell);
    const c = logicalColumn(cell);
    if (r == tr && c == tc) return true;
    let yr = r;
    let yc = c;
    if (r < tr) yr = r + 1;
    else if (c == tc) yr = r - 1;
    else if (r == tr) yc = c + (tc > c ? 1 : -1);
    else {
      const hc = c + (tc > c ? 1 : -1);
      if (free(r - 1, c) && approachCost(r - 1, c, r, c) <= approachCost(r, hc, r, c)) yr = r - 1;
      else yc = hc;
    }
    if (!(first && approach(yr, yc, r, c)) && !routeBlank(yr, yc, r, c)) return false;
    first = false;
    moveBlank(stepDir(yr, yc, r, c));
  }
  return false;
}

// Sets the logical frame for the next line: the top row, or the left column transposed.
function chooseLine(): void {
  const rows = height - top;
  const columns = width - left;
  if (rows <= 3 && columns <= 3) {
    phase = PHASE_BLOCK;
    return;
  }
  transposed = !(rows > 3 && (rows >= columns || columns <= 3));
  lineRow = transposed ? left : top;
  firstColumn = transposed ? top : left;
  rowsEnd = transposed ? width : height;
  columnsEnd = transposed ? height : width;
  prefix = firstColumn;
  column = firstColumn;
  phase = columnsEnd - firstColumn > 2 ? PHASE_TILE : PHASE_LAST;
}

// ---- the last block: IDA* with Manhattan distance ----------------------------------

let blockRows: i32 = 0;
let blockColumns: i32 = 0;
let blockBlank: i32 = 0;
let blockFound: i32 = -1;

@inline function blockLabel(i: i32): i32 { return load<i32>(BLOCK + (<usize>i << 2)); }
@inline function blockGoal(label: i32): i32 {
  // The block's cell that is this label's goal.
  return (label / width - top) * blockColumns + (label % width - left);
}

function blockDistance(i: i32): i32 {
  const l = blockLabel(i);
  if (l == height * width - 1) return 0;
  const g = blockGoal(l);
  return abs(g / blockColumns - i / blockColumns) + abs(g % blockColumns - i % blockColumns);
}

function blockSearch(g: i32, limit: i32, last: i32, h: i32): i32 {
  if (h == 0) {
    blockFound = g;
    return g;
  }
  if (g + h > limit) return g + h;
  let best = 0x7fffffff;
  const r = blockBlank / blockColumns;
  const c = blockBlank % blockColumns;
  for (let dir = 0; dir < 4; dir++) {
    if (last >= 0 && dir == 3 - last) continue;
    const nr = dir == UP ? r - 1 : dir == DOWN ? r + 1 : r;
    const nc = dir == LEFT ? c - 1 : dir == RIGHT ? c + 1 : c;
    if (nr < 0 || nr >= blockRows || nc < 0 || nc >= blockColumns) continue;
    const from = nr * blockColumns + nc;
    const to = blockBlank;
    const before = blockDistance(from);
    const l = blockLabel(from);
    store<i32>(BLOCK + (<usize>to << 2), l);
    store<i32>(BLOCK + (<usize>from << 2), height * width - 1);
    blockBlank = from;
    const next = h - before + blockDistance(to);
    store<u8>(BLOCK_PATH + <usize>g, <u8>dir);
    const t = blockSearch(g + 1, limit, dir, next);
    blockBlank = to;
    store<i32>(BLOCK + (<usize>from << 2), l);
    store<i32>(BLOCK + (<usize>to << 2), height * width - 1);
    if (blockFound >= 0) return t;
    if (t < best) best = t;
  }
  return best;
}

function solveBlock(): bool {
  transposed = false;
  blockRows = height - top;
  blockColumns = width - left;
  let h = 0;
  for (let r = 0; r < blockRows; r++) {
    for (let c = 0; c < blockColumns; c++) {
      const i = r * blockColumns + c;
      const l = labelAt((top + r) * width + left + c);
      store<i32>(BLOCK + (<usize>i << 2), l);
      if (l == height * width - 1) blockBlank = i;
    }
  }
  for (let i = 0; i < blockRows * blockColumns; i++) h += blockDistance(i);
  blockFound = -1;
  let limit = h;
  while (blockFound < 0) {
    const t = blockSearch(0, limit, -1, h);
    if (blockFound >= 0) break;
    if (t > 60) return false; // an unsolvable block: the host checks parity first
    limit = t;
  }
  for (let i = 0; i < blockFound; i++) moveBlankPhysical(<i32>load<u8>(BLOCK_PATH + <usize>i));
  return true;
}

// ---- the driver ----------------------------------------------------------------------

// One step: a line chosen, a tile placed, the line's last pair, or the last block.
function step(): bool {
  if (phase == PHASE_LINE) {
    chooseLine();
    return true;
  }
  if (phase == PHASE_BLOCK) {
    if (!solveBlock()) return false;
    phase = PHASE_DONE;
    return true;
  }
  const last = columnsEnd - 1;
  if (phase == PHASE_TILE) {
    if (!placeTile(physical(lineRow, column), lineRow, column)) return false;
    column++;
    prefix = column;
    if (column == last - 1) phase = PHASE_LAST;
    return true;
  }
  const a = physical(lineRow, last - 1);
  const b = physical(lineRow, last);
  if (phase == PHASE_LAST) {
    if (cellOf(a) == a && cellOf(b) == b) return finishLine();
    if (!placeTile(b, lineRow, last - 1)) return false;
    prefix = last;
    phase = PHASE_PAIR;
    return true;
  }
  // PHASE_PAIR: the second-last tile below the last one; then the blank comes to the line's
  // end, and two moves put both in their cells. When the second-last tile is already in
  // the 3×2 box at the line's end (where it may block the blank in the corner, or sit in the
  // corner itself), a search in the box finishes the pair instead.
  if (inPairBox(cellOf(a))) {
    if (!inPairBox(blankCell)) {
      const ar = logicalRow(cellOf(a));
      const ac = logicalColumn(cellOf(a));
      const tc = ar == lineRow + 2 && ac == last - 1 ? last : last - 1;
      if (!routeBlank(lineRow + 2, tc, ar, ac)) return false;
    }
    if (!pairSearch(a, b)) return false;
    return finishLine();
  }
  if (!placeTile(a, lineRow + 1, last - 1)) return false;
  if (!routeBlank(lineRow, last, lineRow + 1, last - 1)) return false;
  moveBlank(LEFT);
  moveBlank(DOWN);
  return finishLine();
}

@inline function inPairBox(cell: i32): bool {
  return logicalRow(cell) <= lineRow + 2 && logicalColumn(cell) >= columnsEnd - 2;
}

function finishLine(): bool {
  if (transposed) left++;
  else top++;
  phase = PHASE_LINE;
  return true;
}

// Breadth-first search over the places of the blank and tiles a and b in the 3×2 box at the
// end of the line (the other tiles there are not placed yet, so they may move), until a and
// b are in their cells. The blank must be in the box.
const PAIR_FROM: usize = memory.data(216 * 4);
const PAIR_QUEUE: usize = memory.data(216 * 4);
const PAIR_DIR: usize = memory.data(216);

@inline function boxIndex(cell: i32): i32 {
  return (logicalRow(cell) - lineRow) * 2 + (logicalColumn(cell) - (columnsEnd - 2));
}

function pairSearch(a: i32, b: i32): bool {
  const blankLabel = height * width - 1;
  for (let i = 0; i < 216; i++) store<i32>(PAIR_FROM + (<usize>i << 2), -1);
  const start = boxIndex(cellOf(blankLabel)) * 36 + boxIndex(cellOf(a)) * 6 + boxIndex(cellOf(b));
  store<i32>(PAIR_FROM + (<usize>start << 2), start);
  store<i32>(PAIR_QUEUE, start);
  let head = 0;
  let tail = 1;
  let found = -1;
  while (head < tail) {
    const s = load<i32>(PAIR_QUEUE + (<usize>head << 2));
    head++;
    const e = s / 36;
    const pa = (s / 6) % 6;
    const pb = s % 6;
    if (pa == 0 && pb == 1) {
      found = s;
      break;
    }
    for (let dir = 0; dir < 4; dir++) {
      const r = e >> 1;
      const c = e & 1;
      const nr = dir == UP ? r - 1 : dir == DOWN ? r + 1 : r;
      const nc = dir == LEFT ? c - 1 : dir == RIGHT ? c + 1 : c;
      if (nr < 0 || nr > 2 || nc < 0 || nc > 1) continue;
      const j = nr * 2 + nc;
      const next = j * 36 + (pa == j ? e : pa) * 6 + (pb == j ? e : pb);
      if (load<i32>(PAIR_FROM + (<usize>next << 2)) >= 0) continue;
      store<i32>(PAIR_FROM + (<usize>next << 2), s);
      store<u8>(PAIR_DIR + <usize>next, <u8>dir);
      store<i32>(PAIR_QUEUE + (<usize>tail << 2), next);
      tail++;
    }
  }
  if (found < 0) return false;
  let length = 0;
  for (let s = found; s != start; s = load<i32>(PAIR_FROM + (<usize>s << 2))) {
    store<i32>(PAIR_QUEUE + (<usize>length << 2), s);
    length++;
  }
  for (let k = length - 1; k >= 0; k--) moveBlank(<i32>load<u8>(PAIR_DIR + <usize>load<i32>(PAIR_QUEUE + (<usize>k << 2))));
  return true;
}

/**
 * Fills the output region with the moves of whole steps. MORE: a chunk is ready and more
 * follow; DONE: the last chunk is ready. BAD_INPUT: the board was not solvable.
 */
export function fastRun(): i32 {
  outLength = 0;
  const reserve = 40 * (height + width) + 256;
  while (phase != PHASE_DONE) {
    if (capacity - outLength < reserve) return MORE;
    if (!step()) {
      phase = PHASE_DONE;
      return BAD_INPUT;
    }
    if (overflow) return OUT_OF_MEMORY;
  }
  return DONE;
}
