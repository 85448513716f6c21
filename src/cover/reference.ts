// The pure-TS twin of assembly/cover/dlx.ts: the same dancing links and the same search, step for
// step (so the same node counts), on Int32Arrays. It is the JS baseline in benchmarks, the
// `engine: 'js'` option and the oracle of the differential tests; keep the two files in step.
import { DEFAULT_MAX_MEMORY, Status, twinClock, type StatusCode } from '../wasm/protocol.js';
import { coverMemoryBytes, rowCountOf, type CoverEngine, type CoverMatrix } from './engine.js';

const ROOT = 0;
const PHASE_ENTER = 0;
const PHASE_TRY = 1;
const PHASE_BACKTRACK = 2;
const PHASE_FINISHED = 3;

export class ReferenceCoverEngine implements CoverEngine {
  private left = new Int32Array(0);
  private right = new Int32Array(0);
  private up = new Int32Array(0);
  private down = new Int32Array(0);
  private column = new Int32Array(0);
  private rowOf = new Int32Array(0);
  private size = new Int32Array(0); // rows left in each column (headers only)
  private rowStart = new Int32Array(0);
  private columnStack = new Int32Array(0);
  private choiceStack = new Int32Array(0);
  private forced: number[] = [];
  private outputRows: number[] = [];

  private rowCount = 0;
  private loaded = false;
  private emit = false;
  private splitDepth = -1;
  private level = 0;
  private phase = PHASE_FINISHED;
  private solutionCount = 0n;
  private nodeCount = 0n;

  /** `maxMemory` bounds the typed arrays as the Wasm engine's arena is bounded. */
  constructor(private readonly maxMemory = DEFAULT_MAX_MEMORY) {}

  load(matrix: CoverMatrix): StatusCode {
    this.loaded = false;
    this.phase = PHASE_FINISHED;
    if (coverMemoryBytes(matrix) > this.maxMemory) return Status.OUT_OF_MEMORY;
    const { primary, secondary, rowStarts, cells } = matrix;
    const columns = primary + secondary;
    const rows = rowCountOf(matrix);
    const nodeCount = columns + 2 + cells.length;
    if (this.left.length !== nodeCount) {
      this.left = new Int32Array(nodeCount);
      this.right = new Int32Array(nodeCount);
      this.up = new Int32Array(nodeCount);
      this.down = new Int32Array(nodeCount);
      this.column = new Int32Array(nodeCount);
      this.rowOf = new Int32Array(nodeCount);
    }
    if (this.size.length !== columns + 2) this.size = new Int32Array(columns + 2);
    if (this.rowStart.length !== rows) this.rowStart = new Int32Array(rows);
    if (this.columnStack.length !== primary + 1) {
      this.columnStack = new Int32Array(primary + 1);
      this.choiceStack = new Int32Array(primary + 1);
    }
    const { left, right, up, down, column, rowOf, size } = this;

    const secondaryRoot = columns + 1;
    for (let h = 0; h <= secondaryRoot; h++) {
      left[h] = h - 1;
      right[h] = h + 1;
      up[h] = down[h] = column[h] = h;
      rowOf[h] = -1;
      size[h] = 0;
    }
    left[ROOT] = primary;
    right[primary] = ROOT;
    const firstSecondary = secondary === 0 ? secondaryRoot : primary + 1;
    const lastSecondary = secondary === 0 ? secondaryRoot : columns;
    right[secondaryRoot] = firstSecondary;
    left[firstSecondary] = secondaryRoot;
    left[secondaryRoot] = lastSecondary;
    right[lastSecondary] = secondaryRoot;

    let node = secondaryRoot + 1;
    for (let r = 0; r < rows; r++) {
      const from = rowStarts[r];
      const to = rowStarts[r + 1];
      if (to <= from || to > cells.length) return Status.BAD_INPUT;
      const first = node;
      this.rowStart[r] = first;
      for (let k = from; k < to; k++) {
        const c = cells[k];
        if (!(c >= 0 && c < columns)) return Status.BAD_INPUT;
        const header = c + 1;
        const bottom = up[header];
        if (rowOf[bottom] === r) return Status.BAD_INPUT;
        up[node] = bottom;
        down[node] = header;
        down[bottom] = node;
        up[header] = node;
        size[header]++;
        column[node] = header;
        rowOf[node] = r;
        left[node] = node - 1;
        right[node] = node + 1;
        node++;
      }
      left[first] = node - 1;
      right[node - 1] = first;
    }
    if (node !== nodeCount) return Status.BAD_INPUT;
    this.rowCount = rows;
    this.forced = [];
    this.loaded = true;
    return Status.DONE;
  }

  private cover(c: number): void {
    const { left, right, up, down, column, size } = this;
    const l = left[c];
    const r = right[c];
    right[l] = r;
    left[r] = l;
    for (let i = down[c]; i !== c; i = down[i]) {
      for (let j = right[i]; j !== i; j = right[j]) {
        const u = up[j];
        const d = down[j];
        up[d] = u;
        down[u] = d;
        size[column[j]]--;
      }
    }
  }

  private uncover(c: number): void {
    const { left, right, up, down, column, size } = this;
    for (let i = up[c]; i !== c; i = up[i]) {
      for (let j = left[i]; j !== i; j = left[j]) {
        size[column[j]]++;
        up[down[j]] = j;
        down[up[j]] = j;
      }
    }
    left[right[c]] = c;
    right[left[c]] = c;
  }

  force(row: number): StatusCode {
    if (!this.loaded || !(row >= 0 && row < this.rowCount)) return Status.BAD_INPUT;
    const { left, right, column } = this;
    const first = this.rowStart[row];
    let j = first;
    do {
      const c = column[j];
      if (right[left[c]] !== c) return Status.BAD_INPUT;
      j = right[j];
    } while (j !== first);
    do {
      this.cover(column[j]);
      j = right[j];
    } while (j !== first);
    this.forced.push(row);
    return Status.DONE;
  }

  start(emit: boolean, split: number): StatusCode {
    if (!this.loaded || split < 0) return Status.BAD_INPUT;
    this.loaded = false;
    this.emit = emit;
    this.splitDepth = split > 0 ? split : -1;
    this.level = 0;
    this.phase = PHASE_ENTER;
    this.solutionCount = 0n;
    this.nodeCount = 0n;
    this.outputRows = [];
    return Status.DONE;
  }

  run(budget: number): StatusCode {
    if (this.phase === PHASE_FINISHED) return Status.DONE;
    const { right, left, down, column, rowOf, size, columnStack, choiceStack } = this;
    const start = Math.max(budget, 1);
    let remaining = start;
    // A node here scans the columns and covers a row's: up to tens of microseconds.
    const late = twinClock(63);
    let status: StatusCode = Status.MORE;
    let depth = this.level;
    let step = this.phase;
    let found = 0;
    const stops = this.emit || this.splitDepth >= 0;
    for (;;) {
      if (step === PHASE_ENTER) {
        const first = right[ROOT];
        if (first === ROOT || depth === this.splitDepth) {
          if (first === ROOT) found++;
          step = PHASE_BACKTRACK;
          if (stops) {
            this.outputRows = this.forced.slice();
            for (let i = 0; i < depth; i++) this.outputRows.push(rowOf[choiceStack[i]]);
            status = Status.SOLUTION;
            break;
          }
          continue;
        }
        // The primary column with fewest rows; the first of equals.
        let best = first;
        let bestSize = size[first];
        for (let c = right[first]; c !== ROOT && bestSize > 0; c = right[c]) {
          if (size[c] < bestSize) {
            best = c;
            bestSize = size[c];
          }
        }
        if (bestSize === 0) {
          step = PHASE_BACKTRACK;
          continue;
        }
        this.cover(best);
        columnStack[depth] = best;
        choiceStack[depth] = down[best];
        step = PHASE_TRY;
      } else if (step === PHASE_TRY) {
        const c = columnStack[depth];
        const r = choiceStack[depth];
        if (r === c) {
          this.uncover(c);
          step = PHASE_BACKTRACK;
          continue;
        }
        if (remaining === 0 || late()) break;
        remaining--;
        for (let j = right[r]; j !== r; j = right[j]) this.cover(column[j]);
        depth++;
        step = PHASE_ENTER;
      } else {
        if (depth === 0) {
          step = PHASE_FINISHED;
          status = Status.DONE;
          break;
        }
        depth--;
        const r = choiceStack[depth];
        for (let j = left[r]; j !== r; j = left[j]) this.uncover(column[j]);
        choiceStack[depth] = down[r];
        step = PHASE_TRY;
      }
    }
    this.nodeCount += BigInt(start - remaining);
    if (found !== 0) this.solutionCount += BigInt(found);
    this.level = depth;
    this.phase = step;
    return status;
  }

  output(): number[] {
    return this.outputRows.slice();
  }

  solutions(): bigint {
    return this.solutionCount;
  }

  nodes(): bigint {
    return this.nodeCount;
  }
}
