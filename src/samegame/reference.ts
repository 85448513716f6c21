// The pure-TS twin of the fewest-left search in assembly/samegame/samegame.ts: the same boards
// (column-major bytes), the same move order, the same Zobrist keys and transposition table,
// so that it visits the same nodes. 64-bit keys are kept as two 32-bit halves.
import { Status, twinClock, type StatusCode } from '../wasm/protocol.js';
import type { SameGameSearch } from './engine.js';

const MAX_COLOURS = 10;
const NONE = 0xffff;

/** The engine's Zobrist keys for a board of `cells` cells: xorshift64 from a fixed seed. */
function zobristKeys(cells: number): Uint32Array {
  const keys = new Uint32Array(cells * (MAX_COLOURS + 1) * 2);
  let x = 0x9e3779b97f4a7c15n;
  const mask = (1n << 64n) - 1n;
  for (let i = 0; i < keys.length / 2; i++) {
    x ^= (x << 13n) & mask;
    x ^= x >> 7n;
    x ^= (x << 17n) & mask;
    keys[2 * i] = Number(x & 0xffffffffn);
    keys[2 * i + 1] = Number(x >> 32n);
  }
  return keys;
}

const keyCache = new Map<number, Uint32Array>();

/** A board: its cells, column heights, blocks per colour and hash halves. */
interface Board {
  cells: Uint8Array;
  heights: Uint8Array;
  counts: Uint16Array;
  columns: number;
  blocks: number;
  hashLo: number;
  hashHi: number;
}

interface Frame {
  board: Board;
  moves: number[];
  next: number;
  value: number;
}

export class ReferenceSameGameSearch implements SameGameSearch {
  private width = 0;
  private height = 0;
  private keys: Uint32Array<ArrayBufferLike> = new Uint32Array(0);
  private mark = new Uint32Array(0);
  private stamp = 0;
  private fillStack = new Int32Array(0);
  private moveCell: number[] = [];
  private moveSize: number[] = [];
  private moveColour: number[] = [];
  private frames: Frame[] = [];
  private depth = 0;
  private bestLeft = 0;
  private bestLine: number[] | null = null;
  private finished = true;
  private nodeCount = 0;
  private tableLo = new Uint32Array(0);
  private tableHi = new Uint32Array(0);
  private tableValue = new Uint32Array(0);
  private tableMask = 0;

  start(cells: Uint8Array, width: number, height: number, bound: number, tableBits: number): StatusCode {
    this.finished = true;
    if (tableBits < 4 || tableBits > 30 || bound < 1 || width < 1 || height < 1 || width > 32 || height > 32) {
      return Status.BAD_INPUT;
    }
    this.width = width;
    this.height = height;
    const size = width * height;
    let keys = keyCache.get(size);
    if (!keys) keyCache.set(size, (keys = zobristKeys(size)));
    this.keys = keys;
    this.mark = new Uint32Array(size);
    this.stamp = 0;
    this.fillStack = new Int32Array(size);
    const entries = 2 ** tableBits;
    this.tableLo = new Uint32Array(entries);
    this.tableHi = new Uint32Array(entries);
    this.tableValue = new Uint32Array(entries);
    this.tableMask = entries - 1;
    const root = this.emptyBoard();
    for (let c = 0; c < width; c++) {
      let h = 0;
      for (let r = 0; r < height; r++) {
        const colour = cells[c * height + r];
        if (colour === 0) continue;
        if (colour > MAX_COLOURS || h !== r) return Status.BAD_INPUT;
        const cell = root.columns * height + r;
        root.cells[cell] = colour;
        this.hashIn(root, cell, colour);
        root.counts[colour]++;
        h++;
      }
      if (h === 0) continue;
      root.heights[root.columns++] = h;
      root.blocks += h;
    }
    this.frames = [{ board: root, moves: [], next: 0, value: NONE }];
    this.bestLeft = bound;
    this.bestLine = null;
    this.nodeCount = 1;
    this.depth = 0;
    this.finished = this.enter(this.frames[0]) >= 0;
    return Status.DONE;
  }

  nodes(): bigint {
    return BigInt(this.nodeCount);
  }

  best(): number {
    return this.bestLeft;
  }

  line(): number[] | null {
    return this.bestLine;
  }

  private emptyBoard(): Board {
    return {
      cells: new Uint8Array(this.width * this.height),
      heights: new Uint8Array(this.width),
      counts: new Uint16Array(MAX_COLOURS + 1),
      columns: 0,
      blocks: 0,
      hashLo: 0,
      hashHi: 0,
    };
  }

  private hashIn(b: Board, cell: number, colour: number): void {
    const k = (cell * (MAX_COLOURS + 1) + colour) * 2;
    b.hashLo = (b.hashLo ^ this.keys[k]) >>> 0;
    b.hashHi = (b.hashHi ^ this.keys[k + 1]) >>> 0;
  }

  // Marks the group of `cell` with the current stamp; its size.
  private fill(b: Board, cell: number): number {
    const { height, mark, fillStack } = this;
    const colour = b.cells[cell];
    mark[cell] = this.stamp;
    fillStack[0] = cell;
    let top = 1;
    let size = 0;
    while (top > 0) {
      const at = fillStack[--top];
      size++;
      const c = Math.floor(at / height);
      const r = at - c * height;
      for (let k = 0; k < 4; k++) {
        let n = -1;
        if (k === 0) { if (r + 1 < b.heights[c]) n = at + 1; }
        else if (k === 1) { if (r > 0) n = at - 1; }
        else if (k === 2) { if (c > 0 && r < b.heights[c - 1]) n = at - height; }
        else if (c + 1 < b.columns && r < b.heights[c + 1]) n = at + height;
        if (n < 0 || b.cells[n] !== colour || mark[n] === this.stamp) continue;
        mark[n] = this.stamp;
        fillStack[top++] = n;
      }
    }
    return size;
  }

  private listMoves(b: Board): number {
    this.stamp++;
    let moves = 0;
    for (let c = 0; c < b.columns; c++) {
      for (let r = 0; r < b.heights[c]; r++) {
        const cell = c * this.height + r;
        if (this.mark[cell] === this.stamp) continue;
        const size = this.fill(b, cell);
        if (size < 2) continue;
        this.moveCell[moves] = cell;
        this.moveSize[moves] = size;
        this.moveColour[moves] = b.cells[cell];
        moves++;
      }
    }
    return moves;
  }

  private play(src: Board, cell: number): Board {
    this.stamp++;
    const size = this.fill(src, cell);
    const dst = this.emptyBoard();
    dst.counts.set(src.counts);
    dst.counts[src.cells[cell]] -= size;
    const { height, mark } = this;
    for (let c = 0; c < src.columns; c++) {
      let k = 0;
      for (let r = 0; r < src.heights[c]; r++) {
        const from = c * height + r;
        if (mark[from] === this.stamp) continue;
        const to = dst.columns * height + k;
        dst.cells[to] = src.cells[from];
        this.hashIn(dst, to, src.cells[from]);
        k++;
      }
      if (k > 0) dst.heights[dst.columns++] = k;
    }
    dst.blocks = src.blocks - size;
    return dst;
  }

  private lowerBound(b: Board): number {
    let lone = 0;
    for (let colour = 1; colour <= MAX_COLOURS; colour++) if (b.counts[colour] === 1) lone++;
    return lone;
  }

  private improve(left: number): void {
    this.bestLeft = left;
    this.bestLine = this.frames.slice(0, this.depth).map((f) => f.moves[f.next - 1]);
  }

  private enter(f: Frame): number {
    const b = f.board;
    if (b.blocks === 0 || (b.blocks < this.bestLeft && this.lowerBound(b) === b.blocks)) {
      if (b.blocks < this.bestLeft) this.improve(b.blocks);
      return b.blocks;
    }
    const bound = this.lowerBound(b);
    if (bound >= this.bestLeft) return bound;
    const slot = b.hashLo & this.tableMask;
    if (this.tableLo[slot] === b.hashLo && this.tableHi[slot] === b.hashHi) {
      const known = this.tableValue[slot];
      if (known >= this.bestLeft) return known;
    }
    const count = this.listMoves(b);
    if (count === 0) {
      if (b.blocks < this.bestLeft) this.improve(b.blocks);
      return b.blocks;
    }
    // Moves that empty their colour first, then larger groups; ties in board order.
    const order: Array<{ key: number; cell: number }> = [];
    for (let i = 0; i < count; i++) {
      const size = this.moveSize[i];
      order.push({ key: (size === b.counts[this.moveColour[i]] ? 0 : 2048) - size, cell: this.moveCell[i] });
    }
    order.sort((x, y) => x.key - y.key); // stable
    f.moves = order.map((m) => m.cell);
    f.next = 0;
    f.value = NONE;
    return -1;
  }

  run(budget: number): StatusCode {
    if (this.finished) return Status.DONE;
    // A node plays a click and lists the child's moves: microseconds.
    const late = twinClock(255);
    while (budget > 0 && !late()) {
      const f = this.frames[this.depth];
      if (this.bestLeft > 0 && f.next < f.moves.length) {
        const board = this.play(f.board, f.moves[f.next++]);
        const child: Frame = { board, moves: [], next: 0, value: NONE };
        this.frames[++this.depth] = child;
        this.nodeCount++;
        budget--;
        const v = this.enter(child);
        if (v >= 0) {
          this.depth--;
          if (v < f.value) f.value = v;
        }
        continue;
      }
      const v = f.value;
      if (this.bestLeft > 0) {
        const slot = f.board.hashLo & this.tableMask;
        this.tableLo[slot] = f.board.hashLo;
        this.tableHi[slot] = f.board.hashHi;
        this.tableValue[slot] = v;
      }
      if (this.depth === 0) {
        this.finished = true;
        return Status.DONE;
      }
      const parent = this.frames[--this.depth];
      if (v < parent.value) parent.value = v;
    }
    return Status.MORE;
  }
}
