// The pure-TS twin of assembly/queens/queens.ts: the same search, step for step, on 32-bit ints
// and typed arrays. It is the JS baseline in benchmarks, the `engine: 'js'` option and the
// oracle of the differential tests; keep the two files in step.
import { Status, TWIN_CLOCK_MASK, twinDeadline, type StatusCode } from '../wasm/protocol.js';
import { MAX_SEARCH_N, MODE_ALL, MODE_DISTINCT, type QueensEngine } from './engine.js';
import { ctz32 as ctz } from '../bits.js';

const KIND_CORNER = 0;
const KIND_EDGE = 1;


export class ReferenceQueensEngine implements QueensEngine {
  private readonly input = new Uint32Array(MAX_SEARCH_N);
  private readonly outputCols = new Int32Array(MAX_SEARCH_N);
  private readonly base = new Int32Array(MAX_SEARCH_N);
  private readonly allowed = new Int32Array(MAX_SEARCH_N);
  private readonly leftStack = new Int32Array(MAX_SEARCH_N);
  private readonly downStack = new Int32Array(MAX_SEARCH_N);
  private readonly rightStack = new Int32Array(MAX_SEARCH_N);
  private readonly availStack = new Int32Array(MAX_SEARCH_N);
  private readonly placed = new Int32Array(MAX_SEARCH_N);
  private readonly cols = new Int32Array(MAX_SEARCH_N);
  private readonly inv = new Int32Array(MAX_SEARCH_N);

  private n = 0;
  private last = 0;
  private mask = 0;
  private side = 0;
  private mode = MODE_ALL;
  private emit = false;
  private splitDepth = -1;
  private symRows = -1;
  private sideRow = -1;
  private kind = KIND_CORNER;
  private depth = 0;
  private finished = true;
  private pendingSingle = false;
  private totalCount = 0n;
  private distinctCount = 0n;
  private nodeCount = 0n;
  // Counts of the current run() call, folded into the BigInts when it returns.
  private runTotal = 0;
  private runDistinct = 0;

  setAllowed(masks: ArrayLike<number>): void {
    for (let r = 0; r < masks.length; r++) this.input[r] = masks[r];
  }

  init(size: number, searchMode: number, emitSolutions: boolean, split: number): StatusCode {
    if (!(size >= 1 && size <= MAX_SEARCH_N)) return Status.BAD_INPUT;
    if (searchMode !== MODE_ALL && searchMode !== MODE_DISTINCT) return Status.BAD_INPUT;
    if (split !== 0 && (split < 1 || split > size - 2)) return Status.BAD_INPUT;
    this.n = size;
    this.last = size - 1;
    this.mask = size === 32 ? -1 : (1 << size) - 1;
    this.side = 1 | (1 << this.last);
    this.mode = searchMode;
    this.emit = emitSolutions;
    this.splitDepth = split > 0 ? split : -1;
    this.symRows = searchMode === MODE_DISTINCT ? 1 : -1;
    this.sideRow = -1;
    this.kind = KIND_CORNER;
    this.totalCount = 0n;
    this.distinctCount = 0n;
    this.nodeCount = 0n;
    for (let r = 0; r < size; r++) {
      const allowed = this.input[r] & this.mask;
      this.base[r] = allowed;
      this.allowed[r] = allowed;
    }
    let root = this.base[0];
    if (searchMode === MODE_DISTINCT) {
      let roots = 1;
      for (let a = 1; a < this.last - a; a++) roots |= 1 << a;
      root &= roots;
    }
    this.depth = 0;
    this.leftStack[0] = 0;
    this.downStack[0] = 0;
    this.rightStack[0] = 0;
    this.availStack[0] = root;
    this.pendingSingle = size === 1 && root !== 0;
    this.finished = root === 0;
    return Status.DONE;
  }

  private chooseClass(row: number, bit: number): void {
    const col = ctz(bit);
    const { n, base, allowed } = this;
    if (row === 0) {
      if (col === 0) {
        this.kind = KIND_CORNER;
        this.sideRow = -1;
        for (let r = 1; r < n; r++) allowed[r] = base[r];
      } else {
        this.kind = KIND_EDGE;
        this.sideRow = this.last - col;
        const inner = this.mask & ~this.side;
        for (let r = 1; r < n; r++) {
          allowed[r] = r < col || r > this.sideRow ? base[r] & inner : base[r];
        }
        const band = (((this.mask >>> col) << col) & (this.mask >>> col)) | 0;
        allowed[this.last] &= band;
      }
    } else if (this.kind === KIND_CORNER) {
      for (let r = 2; r < n; r++) allowed[r] = r < col ? base[r] & ~2 : base[r];
    }
  }

  private edgeClassSize(): number {
    const { n, last, cols, inv, placed } = this;
    for (let r = 0; r < n; r++) {
      const c = ctz(placed[r]);
      cols[r] = c;
      inv[c] = r;
    }
    let equal90 = false;
    let equal180 = false;
    for (let t = 0; t < 6; t++) {
      let cmp = 0;
      for (let i = 0; i < n; i++) {
        let image: number;
        switch (t) {
          case 0: image = last - inv[i]; break;
          case 1: image = last - cols[last - i]; break;
          case 2: image = inv[last - i]; break;
          case 3: image = cols[last - i]; break;
          case 4: image = inv[i]; break;
          default: image = last - inv[last - i]; break;
        }
        const own = cols[i];
        if (own !== image) {
          cmp = own < image ? -1 : 1;
          break;
        }
      }
      if (cmp > 0) return 0;
      if (cmp === 0) {
        if (t === 0) equal90 = true;
        else if (t === 1) equal180 = true;
      }
    }
    return equal90 ? 2 : equal180 ? 4 : 8;
  }

  private recordLeaf(): boolean {
    if (this.mode === MODE_ALL || this.n === 1) {
      this.runTotal += 1;
      this.runDistinct += 1;
      return true;
    }
    const size = this.kind === KIND_CORNER ? 8 : this.edgeClassSize();
    if (size === 0) return false;
    this.runTotal += size;
    this.runDistinct += 1;
    return true;
  }

  private collectPlaced(y: number, down: number, bit: number): void {
    const { downStack, placed } = this;
    downStack[y] = down;
    for (let r = 0; r < y; r++) placed[r] = downStack[r + 1] ^ downStack[r];
    placed[y] = bit;
  }

  private writeOutput(rows: number): void {
    for (let r = 0; r < rows; r++) this.outputCols[r] = ctz(this.placed[r]);
  }

  output(rows: number): number[] {
    return Array.from(this.outputCols.subarray(0, rows));
  }

  run(budget: number): StatusCode {
    if (this.finished) return Status.DONE;
    this.runTotal = 0;
    this.runDistinct = 0;
    if (this.pendingSingle) {
      this.pendingSingle = false;
      this.finished = true;
      this.nodeCount += 1n;
      this.placed[0] = 1;
      this.recordLeaf();
      this.flushCounts();
      if (this.emit) {
        this.writeOutput(1);
        return Status.SOLUTION;
      }
      return Status.DONE;
    }
    const { leftStack, downStack, rightStack, availStack, allowed } = this;
    let y = this.depth;
    let left = leftStack[y];
    let down = downStack[y];
    let right = rightStack[y];
    let avail = availStack[y];
    const start = Math.max(budget, 1);
    let remaining = start;
    const until = twinDeadline();
    let status: StatusCode = Status.MORE;
    const lastRow = this.last;
    const split = this.splitDepth;
    const sym = this.symRows;
    const side = this.side;
    for (;;) {
      if (avail === 0) {
        if (y === 0) {
          this.finished = true;
          status = Status.DONE;
          break;
        }
        y--;
        left = leftStack[y];
        down = downStack[y];
        right = rightStack[y];
        avail = availStack[y];
        continue;
      }
      if (remaining === 0 || ((remaining & TWIN_CLOCK_MASK) === 0 && remaining !== start && performance.now() > until)) break;
      remaining--;
      const bit = avail & -avail;
      avail ^= bit;
      if (y <= sym) this.chooseClass(y, bit);
      const nextDown = down | bit;
      const nextLeft = (left | bit) << 1;
      const nextRight = (right | bit) >>> 1;
      const next = y + 1;
      let free = allowed[next] & ~(nextLeft | nextDown | nextRight);
      if (next === this.sideRow) {
        const used = nextDown & side;
        free = used === 0 ? 0 : used === side ? free : free & side;
      }
      if (free === 0) continue;
      if (next === lastRow) {
        this.collectPlaced(y, down, bit);
        this.placed[lastRow] = free;
        if (this.recordLeaf() && this.emit) {
          this.writeOutput(this.n);
          status = Status.SOLUTION;
          break;
        }
        continue;
      }
      if (next === split) {
        this.collectPlaced(y, down, bit);
        this.writeOutput(next);
        status = Status.SOLUTION;
        break;
      }
      leftStack[y] = left;
      downStack[y] = down;
      rightStack[y] = right;
      availStack[y] = avail;
      y = next;
      left = nextLeft;
      down = nextDown;
      right = nextRight;
      avail = free;
    }
    this.nodeCount += BigInt(start - remaining);
    this.depth = y;
    leftStack[y] = left;
    downStack[y] = down;
    rightStack[y] = right;
    availStack[y] = avail;
    this.flushCounts();
    return status;
  }

  private flushCounts(): void {
    if (this.runTotal !== 0) this.totalCount += BigInt(this.runTotal);
    if (this.runDistinct !== 0) this.distinctCount += BigInt(this.runDistinct);
    this.runTotal = 0;
    this.runDistinct = 0;
  }

  total(): bigint {
    return this.totalCount;
  }

  distinct(): bigint {
    return this.distinctCount;
  }

  nodes(): bigint {
    return this.nodeCount;
  }
}

/** The twin of queensConstruct: one solution for n >= 4 or n = 1, a column per row. */
export function constructReference(n: number): Int32Array {
  const out = new Int32Array(n);
  let row = 0;
  const put = (c: number): void => {
    out[row++] = c - 1;
  };
  const rest = n % 6;
  if (rest === 3) {
    for (let c = 4; c <= n; c += 2) put(c);
    put(2);
    for (let c = 5; c <= n; c += 2) put(c);
    put(1);
    put(3);
  } else if (rest === 2) {
    for (let c = 2; c <= n; c += 2) put(c);
    put(3);
    put(1);
    for (let c = 7; c <= n; c += 2) put(c);
    put(5);
  } else {
    for (let c = 2; c <= n; c += 2) put(c);
    for (let c = 1; c <= n; c += 2) put(c);
  }
  return out;
}
