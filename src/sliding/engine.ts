// The sliding-tile engines as the host drives them: the Wasm engine and its pure-TS twin
// behind one interface (optimal search with its pattern databases, and the constructive
// solver), so that every path can run on either.
import { MemoryView, type EngineExports, type StatusCode } from '../wasm/protocol.js';

/** Heuristics of the optimal search, as in assembly/sliding/sliding.ts. */
export const MANHATTAN = 0;
export const CONFLICT = 1;
export const PATTERNS = 2;
/** The largest board the optimal search takes (a u32 mask of cells). */
export const MAX_OPTIMAL_CELLS = 32;
export const MAX_DEPTH = 1000;

export interface OptimalEngine {
  /** The pattern set whose tables are loaded and still alive, or null. */
  loadedPatterns(): string | null;
  /** Forgets every table (a fresh arena) before defining a new set. */
  clearPatterns(): void;
  /** Allocates slot `slot` for the pattern (packed: 4 bits an entry); false when memory is refused. */
  definePattern(slot: number, cells: number, width: number, pattern: readonly number[], packed?: boolean): boolean;
  /** The table of a slot, a view valid until the next engine call. */
  table(slot: number): Uint8Array;
  /** Starts the build of a slot's table; the goal has the blank at cell `blank`. */
  buildStart(slot: number, blank: number): StatusCode;
  buildRun(budget: number): StatusCode;
  /** The build's stage (clearing, searching, …): runSliced keeps a budget for each. */
  buildStage(): number;
  /** Entries filled by the build under way. */
  filled(): number;
  /** Records that the tables of `key` are complete. */
  markPatterns(key: string): void;
  start(labels: ArrayLike<number>, rows: number, cols: number, blankGoal: number, kind: number, slots: number, reflect: boolean): StatusCode;
  run(budget: number): StatusCode;
  nodes(): bigint;
  /** Nodes counted before the iteration under way began. */
  iterationNodes(): bigint;
  /** After start: run() returns MORE as each iteration begins, before any of its nodes. */
  pauseAtIterations(): void;
  bound(): number;
  /** The solution's moves (engine codes) after SOLUTION. */
  solution(): Uint8Array;
  /**
   * After start: one iteration at `bound` (at least the root's), split at `depth`: only the
   * frontier nodes there numbered first … first + count - 1 are searched below (see
   * assembly/sliding/sliding.ts). nodes() then counts the nodes below the frontier, prefixNodes() those
   * above; frontier() the frontier nodes numbered so far; leastCut() the least f cut.
   */
  part(bound: number, depth: number, first: number, count: number): StatusCode;
  prefixNodes(): bigint;
  frontier(): number;
  leastCut(): number;
}

export interface FastEngine {
  /** Allocates a board; the returned view takes the labels (u32 per cell). Null when refused. */
  alloc(rows: number, cols: number): Uint32Array | null;
  /** Prepares the run, a piece a call on big boards: MORE (call again), DONE, or BAD_INPUT. */
  start(): StatusCode;
  /** Fills the next chunk: MORE (more follow) or DONE (the last). */
  run(): StatusCode;
  /** The chunk just produced, valid until the next call. */
  chunk(): Uint8Array;
}

// The pattern set loaded into each Wasm instance, with the arena generation it lives in.
const loaded = new WeakMap<EngineExports, { key: string; generation: number }>();

export function wasmOptimalEngine(exports: EngineExports): OptimalEngine {
  const view = new MemoryView(exports.memory);
  const bytes = (at: number, length: number): Uint8Array => new Uint8Array(view.u32.buffer, at, length);
  // Packed slots have their own builder (assembly/sliding/pdbPacked.ts).
  const packedSlots = new Set<number>();
  let packedBuild = false;
  return {
    loadedPatterns() {
      const entry = loaded.get(exports);
      return entry && entry.generation === exports.arenaGeneration() ? entry.key : null;
    },
    clearPatterns() {
      loaded.delete(exports);
      exports.slidingReset();
    },
    definePattern(slot, cells, width, pattern, packed = false) {
      bytes(exports.pdbPatternPtr(), pattern.length).set(pattern);
      if (packed) packedSlots.add(slot);
      else packedSlots.delete(slot);
      return exports.pdbDefine(slot, cells, width, pattern.length, packed ? 1 : 0) !== 0;
    },
    table: (slot) => bytes(exports.pdbTablePtr(slot), exports.pdbBytes(slot)),
    buildStart(slot, blank) {
      packedBuild = packedSlots.has(slot);
      return packedBuild ? exports.pdbPackedBuildStart(slot, blank) : exports.pdbBuildStart(slot, blank);
    },
    buildRun: (budget) => (packedBuild ? exports.pdbPackedBuildRun(budget) : exports.pdbBuildRun(budget)),
    buildStage: () => (packedBuild ? exports.pdbPackedBuildStage() : exports.pdbBuildStage()),
    filled: () => (packedBuild ? exports.pdbPackedFilled() : exports.pdbFilled()),
    markPatterns(key) {
      loaded.set(exports, { key, generation: exports.arenaGeneration() });
    },
    start(labels, rows, cols, blankGoal, kind, slots, reflect) {
      bytes(exports.slidingInputPtr(), labels.length).set(labels);
      return exports.slidingStart(rows, cols, blankGoal, kind, slots, reflect ? 1 : 0);
    },
    run: (budget) => exports.slidingRun(budget),
    nodes: () => BigInt.asUintN(64, exports.slidingNodes()),
    iterationNodes: () => BigInt.asUintN(64, exports.slidingIterationNodes()),
    pauseAtIterations: () => exports.slidingPauseAtIterations(),
    bound: () => exports.slidingBound(),
    solution: () => bytes(exports.slidingOutputPtr(), exports.slidingLength()).slice(),
    part: (bound, depth, first, count) => exports.slidingPart(bound, depth, first, count),
    prefixNodes: () => BigInt.asUintN(64, exports.slidingPrefixNodes()),
    frontier: () => exports.slidingFrontier() >>> 0,
    leastCut: () => exports.slidingNextBound(),
  };
}

export function wasmFastEngine(exports: EngineExports): FastEngine {
  return {
    alloc(rows, cols) {
      const at = exports.fastAlloc(rows, cols);
      return at === 0 ? null : new Uint32Array(exports.memory.buffer, at, rows * cols);
    },
    start: () => exports.fastStart(),
    run: () => exports.fastRun(),
    chunk: () => new Uint8Array(exports.memory.buffer, exports.fastOutputPtr(), exports.fastOutputLength()),
  };
}
