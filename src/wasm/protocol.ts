// The engine protocol as the host sees it: statuses, exports, memory views and the loop
// that drives `run(budget)` in slices so that the caller can abort and the event loop breathes.
import { BitpuzzleError, throwIfAborted } from '../errors.js';

/** Statuses of `<engine>Run(budget)`; mirrored from assembly/shared/bits.ts. */
export const Status = {
  DONE: 0,
  SOLUTION: 1,
  MORE: 2,
  OUT_OF_MEMORY: -1,
  BAD_INPUT: -2,
} as const;
export type StatusCode = number;

/** The module's exports (see assembly/index.ts). u64 results arrive as BigInt. */
export interface EngineExports {
  memory: WebAssembly.Memory;
  setMemoryLimitPages(pages: number): void;
  memoryPages(): number;
  queensInputPtr(): number;
  queensOutputPtr(): number;
  queensInit(n: number, mode: number, emit: number, split: number): StatusCode;
  queensRun(budget: number): StatusCode;
  queensTotal(): bigint;
  queensDistinct(): bigint;
  queensNodes(): bigint;
  queensConstruct(n: number): number;
  queensConstructStart(n: number): number;
  queensConstructRun(budget: number): StatusCode;
  queensConstellationsInputAlloc(count: number): number;
  queensConstellationsInit(n: number, count: number): StatusCode;
  queensConstellationsRun(budget: number): StatusCode;
  queensConstellationsTotal(): bigint;
  queensConstellationsDistinct(): bigint;
  queensConstellationsNodes(): bigint;
  queensJoinInit(n: number, prefix: number, rows: number): StatusCode;
  queensJoinRun(budget: number): StatusCode;
  queensJoinTotal(): bigint;
  queensJoinNodes(): bigint;
  arenaGeneration(): number;
  /** The end of the arena's last allocation: what a snapshot of the instance keeps (wasm/snapshot.ts). */
  arenaTop(): number;
  polyInputAlloc(words: number): number;
  polyLoad(): StatusCode;
  polyPartPtr(): number;
  polyOutputPtr(): number;
  polyOutputLength(): number;
  polyStart(pre: number, weight: number, maskLow: number, maskHigh: number, emit: number, split: number): StatusCode;
  polyRun(budget: number): StatusCode;
  polyTotal(): bigint;
  polyDistinct(): bigint;
  polyNodes(): bigint;
  dlxInputAlloc(words: number): number;
  dlxLoad(primary: number, secondary: number, rows: number, entries: number): StatusCode;
  dlxLoadStart(primary: number, secondary: number, rows: number, entries: number): StatusCode;
  dlxLoadRun(budget: number): StatusCode;
  dlxForce(row: number): StatusCode;
  dlxStart(emit: number, split: number): StatusCode;
  dlxRun(budget: number): StatusCode;
  dlxSolutions(): bigint;
  dlxNodes(): bigint;
  dlxOutputPtr(): number;
  dlxOutputLength(): number;
  // SameGame (assembly/samegame/samegame.ts, beam.ts): the fewest-left search and
  // the beam search for score share the input (board cells) and output (clicks) regions.
  samegameInputPtr(): number;
  samegameOutputPtr(): number;
  samegameStart(width: number, height: number, bound: number, tableBits: number): StatusCode;
  samegameRun(budget: number): StatusCode;
  samegameNodes(): bigint;
  samegameBest(): number;
  samegameBestLength(): number;
  samegameBeamStart(width: number, height: number, beam: number, seed: number, level: number, playouts: number, knownScore: number, knownLength: number, fixedTabu: number): StatusCode;
  samegameBeamRun(budget: number): StatusCode;
  samegameBeamNodes(): bigint;
  samegameBeamScore(): number;
  samegameBeamComplete(): number;
  samegameBeamLine(): number;
  samegameNrpaStart(width: number, height: number, levels: number, iterations: number, playoutsPerAdapt: number, tableBits: number, seed: number, knownScore: number, knownLength: number, beam: number): StatusCode;
  samegameNrpaRun(budget: number): StatusCode;
  samegameNrpaNodes(): bigint;
  samegameNrpaPlayouts(): bigint;
  samegameNrpaScore(): number;
  samegameNrpaRestarts(): number;
  samegameNrpaIteration(): number;
  samegameNrpaLine(): number;
  samegameNrpaAdapt(length: number): StatusCode;
  samegameNrpaOnce(): void;
  /** Tests: check every listing of moves against one from scratch (1), or stop (0). */
  samegameNrpaCheckListings(on: number): void;
  samegameNrpaListingErrors(): number;
  /** The colour NRPA keeps for the end, its moves weighed down (for tests). */
  samegameNrpaTabu(): number;
  samegameBeamTabu(): number;
  // Peg solitaire (assembly/pegs/pegs.ts and the parts it names)
  pegsInputAlloc(words: number): number;
  pegsLoad(): StatusCode;
  pegsStart(mode: number, log: number): StatusCode;
  pegsRun(budget: number): StatusCode;
  pegsOutputPtr(): number;
  pegsOrderPtr(): number;
  pegsRestart(): StatusCode;
  pegsOutputLength(): number;
  pegsNodes(): bigint;
  pegsTotal(): bigint;
  pegsTotalHigh(): bigint;
  pegsLevel(): number;
  pegsPhase(): number;
  pegsMoves(): number;
  pegsMemory(): bigint;
  pegsShardInput(a: number, b: number): number;
  pegsShardStart(kind: number, level: number, shards: number, route: number, seed: number, hintA: number, hintB: number, capLog: number): StatusCode;
  pegsShardOffsets(): number;
  pegsShardPairs(): number;
  pegsShardBuckets(): number;
  pegsShardDistinct(): number;
  // Peg solitaire, every fewest-move solution (assembly/pegs/optimal.ts)
  pegsOptimalStart(list: number): StatusCode;
  pegsOptimalRun(budget: number): StatusCode;
  pegsOptimalTotal(): bigint;
  pegsOptimalNodes(): bigint;
  pegsOptimalStep(): number;
  pegsOptimalSteps(): number;
  pegsOptimalSplit(): number;
  pegsOptimalOnPath(lo: number, hi: number, index: number): number;
  // Peg solitaire, the count from both ends on one engine (assembly/pegs/meet.ts)
  pegsMeetStart(forwardPagodas: number, dual: number, narrowBits: number, spill: number, windowSize: number, fewestParts: number, mostSumSlots: number): StatusCode;
  pegsMeetFewest(on: number): void;
  pegsMeetNarrow(): number;
  pegsMeetDualPtr(): number;
  pegsMeetRun(budget: number): StatusCode;
  pegsMeetTotal(): bigint;
  pegsMeetTotalHigh(): bigint;
  pegsMeetNodes(): bigint;
  pegsMeetStep(): number;
  pegsMeetPhase(): number;
  pegsMeetLevels(): number;
  pegsMeetSteps(): number;
  // Levels on disk: the host's task after NEED_PAIRS or HAVE_PAIRS (src/pegs/spill.ts).
  pegsMeetIoSide(): number;
  pegsMeetIoLevel(): number;
  pegsMeetIoFrom(): number;
  pegsMeetIoPtr(): number;
  pegsMeetIoCount(): number;
  pegsMeetIoPart(): number;
  pegsMeetJoinPasses(): number;
  pegsMeetRounds(): number;
  pegsMeetDiskRoom(bytes: number): void;
  pegsMeetWidth(): number;
  pegsMeetFeed(): void;
  // the fewest moves by levels: where the least was met (the forward position, each side's moves, the holes a move goes on through)
  pegsMeetMeetPosition(): bigint;
  pegsMeetMeetMoves(side: number): number;
  pegsMeetMeetShared(): bigint;
  // Peg solitaire, the fewest moves by iterative deepening (assembly/pegs/fewest.ts)
  pegsFewestStart(regions: number, usePerimeter: number, fromBound: number, firstLanding: number, finishLandings: bigint): StatusCode;
  pegsMovesBackwardOnly(): void;
  pegsFewestRun(budget: number): StatusCode;
  pegsFewestMoves(): number;
  pegsFewestBound(): number;
  pegsFewestNodes(): bigint;
  pegsFewestLength(): number;
  pegsFewestTableBytes(): bigint;
  // Sliding-tile puzzles: the optimal IDA* (sliding*), its pattern databases (pdb*) and the
  // constructive solver (fast*); see assembly/sliding/ (sliding.ts, pdb.ts, pdbPacked.ts, fast.ts).
  slidingInputPtr(): number;
  slidingOutputPtr(): number;
  slidingStart(rows: number, cols: number, blankGoal: number, kind: number, slots: number, reflect: number): StatusCode;
  slidingRun(budget: number): StatusCode;
  slidingNodes(): bigint;
  slidingIterationNodes(): bigint;
  slidingPauseAtIterations(): void;
  slidingBound(): number;
  slidingLength(): number;
  slidingPart(bound: number, depth: number, first: number, count: number): StatusCode;
  slidingPrefixNodes(): bigint;
  slidingFrontier(): number;
  slidingNextBound(): number;
  slidingReset(): void;
  pdbPatternPtr(): number;
  pdbDefine(slot: number, cells: number, width: number, k: number, packed: number): number;
  pdbSize(slot: number): number;
  pdbBytes(slot: number): number;
  pdbTablePtr(slot: number): number;
  pdbBuildStart(slot: number, blank: number): StatusCode;
  pdbBuildRun(budget: number): StatusCode;
  pdbBuildStage(): number;
  pdbFilled(): number;
  pdbPackedBuildStart(slot: number, blank: number): StatusCode;
  pdbPackedBuildRun(budget: number): StatusCode;
  pdbPackedBuildStage(): number;
  pdbPackedFilled(): number;
  pdbPackedClamped(): number;
  fastAlloc(rows: number, cols: number): number;
  fastStart(): StatusCode;
  fastRun(): StatusCode;
  fastOutputPtr(): number;
  fastOutputLength(): number;
  fastMoves(): bigint;
  // Sudoku 9×9 and 16×16 (assembly/sudoku/): batches of puzzles, each searched to a solution limit.
  sudokuAlloc(count: number, size: number): number;
  sudokuInputPtr(): number;
  sudokuOutputPtr(): number;
  sudokuEmitPtr(): number;
  sudokuBatchSize(): number;
  sudokuRecordBytes(): number;
  sudokuStart(count: number, maxSolutions: number, mode: number, split: number): StatusCode;
  sudokuRun(budget: number): StatusCode;
  sudokuNodes(): bigint;
  sudokuFinished(): number;
}

const PAGE_BYTES = 65536;
/** The default memory limit of an engine instance. */
export const DEFAULT_MAX_MEMORY = 1024 * 1024 * 1024;

/** Bounds how far the instance's memory may grow; the engine reports OUT_OF_MEMORY beyond. */
export function setMemoryLimit(engine: EngineExports, bytes: number = DEFAULT_MAX_MEMORY): void {
  // Callers pass a maxMemory checked at the API's entry (checkMaxMemory in options.ts).
  if (!Number.isFinite(bytes) || bytes < PAGE_BYTES) {
    throw new BitpuzzleError('BAD_INPUT', `maxMemory must be at least ${PAGE_BYTES} bytes, got ${bytes}`);
  }
  engine.setMemoryLimitPages(Math.min(ENGINE_MAX_BYTES / PAGE_BYTES, Math.floor(bytes / PAGE_BYTES)));
}

/** The most one engine can hold: a 32-bit WebAssembly memory addresses 65,536 pages, 4 GiB. */
export const ENGINE_MAX_BYTES = 65536 * PAGE_BYTES;

/**
 * The limit an OUT_OF_MEMORY message names: maxMemory, and the 4 GiB an engine can address
 * when maxMemory is above it (a larger maxMemory cannot give one engine more).
 */
export function memoryLimitText(maxMemory: number): string {
  return maxMemory > ENGINE_MAX_BYTES
    ? `maxMemory (${maxMemory} bytes; one WebAssembly engine addresses at most ${ENGINE_MAX_BYTES} bytes, 4 GiB)`
    : `maxMemory (${maxMemory} bytes)`;
}

/**
 * Each instance's limit when `parts` instances (threads, or the two sides of a search) work at
 * once: maxMemory bounds what they hold together, not each one.
 */
export function memoryShare(maxMemory: number, parts: number): number {
  const share = Math.floor(maxMemory / Math.max(1, parts));
  if (!(share >= PAGE_BYTES)) {
    throw new BitpuzzleError('OUT_OF_MEMORY', `maxMemory (${maxMemory} bytes) shared by ${parts} engines leaves less than ${PAGE_BYTES} bytes each`);
  }
  return share;
}

/** Typed views over engine memory, recreated when memory.grow detaches the old buffer. */
export class MemoryView {
  private buffer: ArrayBuffer | undefined;
  private u32view = new Uint32Array(0);
  private i32view = new Int32Array(0);

  constructor(private readonly memory: WebAssembly.Memory) {}

  private refresh(): void {
    if (this.buffer !== this.memory.buffer) {
      this.buffer = this.memory.buffer;
      this.u32view = new Uint32Array(this.buffer);
      this.i32view = new Int32Array(this.buffer);
    }
  }

  get u32(): Uint32Array {
    this.refresh();
    return this.u32view;
  }

  get i32(): Int32Array {
    this.refresh();
    return this.i32view;
  }
}

/** Maps an engine error status to the host's error; passes the others through. */
export function checkStatus(status: StatusCode, what: string, maxMemory = DEFAULT_MAX_MEMORY): StatusCode {
  if (status === Status.OUT_OF_MEMORY) {
    throw new BitpuzzleError('OUT_OF_MEMORY', `${what} needs more than ${memoryLimitText(maxMemory)}`);
  }
  if (status < 0) {
    throw new BitpuzzleError('ENGINE_FAILURE', `${what}: the engine rejected its input (status ${status})`);
  }
  return status;
}

/** The most nodes one run(budget) call is given. */
export const SLICE_BUDGET = 1 << 20;
/**
 * The pure-TS twins end a run call at its budget, or sooner once the call has held the thread
 * this long: JS code can turn many times slower within a call (a function deoptimised, or not
 * yet optimised), where the budget, sized from the calls before, would then run far past
 * STEP_MS. They look at the clock every TWIN_CLOCK_MASK + 1 units of budget.
 */
export const TWIN_CALL_MS = 12;
export const TWIN_CLOCK_MASK = 1023;
/** The time (performance.now()) past which a twin's run call returns MORE. */
export const twinDeadline = (): number => performance.now() + TWIN_CALL_MS;
/**
 * For a twin's run call: a function that, called once a unit, says when the call should end.
 * `mask` + 1 units go between looks at the clock (fewer where a unit costs microseconds).
 */
export function twinClock(mask = TWIN_CLOCK_MASK): () => boolean {
  const until = twinDeadline();
  let ticks = 0;
  return () => (++ticks & mask) === 0 && performance.now() > until;
}

/** The first budget of a search: small, since a node costs from nanoseconds to milliseconds. */
const FIRST_BUDGET = 1 << 10;
/** How long one run(budget) call should take: the budget follows the engine's measured speed. */
const STEP_MS = 8;
// setImmediate where there is one (Node): it lets timers, I/O and messages run and costs
// microseconds, where setTimeout(0) waits at least 1 ms (4% of a 25 ms turn), and 4 ms once
// timers nest a few deep. Browsers have none.
const immediate = typeof setImmediate === 'function';
/**
 * How long a search may hold the thread before it yields to the event loop: 16 ms where a
 * turn costs microseconds, so that a collection of the host's garbage (tens of ms at worst)
 * on top of a step still leaves the loop a turn within 50 ms; 25 ms where a turn waits 4 ms.
 */
const YIELD_MS = immediate ? 16 : 25;

// Twice: one set from an I/O callback (a search going on after the host read its files) runs
// in the same turn of the loop, before its timers, which a second one comes after.
const nextTurn: (callback: () => void) => unknown = immediate ? (callback) => setImmediate(() => setImmediate(callback)) : (callback) => setTimeout(callback, 0);
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => nextTurn(resolve));

// When this thread last gave the event loop a turn. Shared by all searches, so that many
// short searches in a row (the parts of a count) yield as often as one long one.
let lastYield = Date.now();

/** Gives the event loop a turn when the last was YIELD_MS ago or more (host work between searches). */
export async function yieldIfDue(): Promise<void> {
  if (Date.now() - lastYield < YIELD_MS) return;
  await yieldToEventLoop();
  lastYield = Date.now();
}

/**
 * Calls `step(budget)` until it returns a status other than MORE, yielding to the event loop
 * every few milliseconds and throwing ABORTED as soon as the signal fires. The budget is sized
 * from the time the previous calls took, so that one call holds the thread for about STEP_MS
 * whatever a node costs (a queen placement, a DLX node scanning thousands of columns, a peg
 * position expanded). An engine's search is the same at any budget, so node counts do not
 * depend on it. `firstBudget` is for engines whose nodes are known to be slow (a first call of
 * FIRST_BUDGET nodes would then be long).
 */
export async function runSliced(
  step: (budget: number) => StatusCode,
  signal?: AbortSignal,
  firstBudget: number = FIRST_BUDGET,
  phases?: PhaseBudgets,
): Promise<StatusCode> {
  let budget = firstBudget;
  for (;;) {
    if (Date.now() - lastYield >= YIELD_MS) {
      await yieldToEventLoop();
      lastYield = Date.now();
    }
    throwIfAborted(signal);
    const phase = phases?.of();
    if (phase !== undefined) budget = phases!.budgets.get(phase) ?? firstBudget;
    const started = performance.now();
    const status = step(budget);
    const milliseconds = performance.now() - started;
    if (status !== Status.MORE) return status;
    if (phase !== undefined) {
      // A call that ended in another phase stopped at the change, short of its budget: it
      // says how fast the phase goes only when it was slow.
      const spent = phases!.of() === phase || milliseconds > STEP_MS;
      phases!.budgets.set(phase, spent ? nextBudget(budget, milliseconds) : budget);
    } else budget = nextBudget(budget, milliseconds);
  }
}

/**
 * Budgets kept by phase, for an engine whose unit of budget costs unlike times in its phases
 * (clearing fresh memory, expanding a position): `of` names the phase the next call starts in,
 * and each phase's budget follows that phase's calls alone. The engine ends a call where its
 * phase changes, so no call spends one phase's budget on another's units.
 */
export interface PhaseBudgets {
  of: () => number;
  budgets: Map<number, number>;
}

/** The budget that should take about STEP_MS, given that `budget` took `milliseconds`. */
export function nextBudget(budget: number, milliseconds: number): number {
  // At most 4× more per call (a fast call may have been a cheap corner of the search), and
  // at once as much less as the last call was too slow.
  const scaled = milliseconds <= STEP_MS / 4 ? budget * 4 : Math.floor((budget * STEP_MS) / milliseconds);
  return Math.max(1, Math.min(SLICE_BUDGET, scaled));
}

/**
 * Host-side work linear in the input (checking a board of millions of cells) as steps: a
 * generator that yields between small pieces of its work. `runSteps` runs one to the end at
 * once (the synchronous API, for small inputs); `runStepsSliced` gives the event loop a turn
 * every STEP_MS and honours the signal between pieces.
 */
export type Steps<T> = Generator<void, T, void>;

/** How many cells (or similar units) a step's piece takes before it yields: well under a millisecond. */
export const STEP_CELLS = 1 << 14;

export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

export async function runStepsSliced<T>(steps: Steps<T>, signal?: AbortSignal): Promise<T> {
  throwIfAborted(signal);
  let sliceStarted = performance.now();
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if (performance.now() - sliceStarted >= STEP_MS) {
      await yieldToEventLoop();
      lastYield = Date.now();
      throwIfAborted(signal);
      sliceStarted = performance.now();
    }
  }
}
