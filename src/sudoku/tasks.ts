// 9×9 and 16×16 searches as tasks: a list of puzzles, each searched to a solution limit, on either
// engine. A count is cut into parts at the nodes a few branchings down (the engine finds
// them); a batch into runs of puzzles. Both run inline, on threads or on a queue.
import { acquireEngineWithLimit, releaseEngine } from '../wasm/module.js';
import { Status, checkStatus, runSliced, yieldIfDue } from '../wasm/protocol.js';
import type { EngineKind } from '../wasm/options.js';
import { BATCH, MODE_COUNT, MODE_SPLIT, type SudokuEngine } from './engine.js';
import { wasmSudokuEngine } from './engine.js';
import { lineOf } from './grid.js';

export interface SudokuTask {
  engine: EngineKind;
  /** The grids' size: 9 or 16. */
  size: number;
  /** Puzzles as lines of size² characters: '1'-'9' then 'A'-'G' a given, '.' or '0' empty. */
  puzzles: string[];
  /** Solutions at which a puzzle's search stops (0: none). */
  limit: number;
  /** Whether to return each puzzle's first solution. */
  firstSolutions: boolean;
  maxMemory: number;
}

export interface SudokuTaskResult {
  /** Per puzzle: solutions found (up to the limit), nodes, whether two givens clash, and the first solution (when asked for). */
  counts: number[];
  nodes: number[];
  clashes: number[];
  solutions: Array<string | null>;
}

const WHAT = 'the sudoku search';

/** An engine of the requested kind with the memory limit, held until `release`. */
export async function openSudokuEngine(kind: EngineKind, maxMemory: number): Promise<{ engine: SudokuEngine; release: () => void }> {
  // The twin is loaded when asked for (browsers then fetch it as a chunk of its own).
  if (kind === 'js') return { engine: new (await import('./reference.js')).ReferenceSudokuEngine(maxMemory), release: () => undefined };
  const exports = await acquireEngineWithLimit(maxMemory);
  return { engine: wasmSudokuEngine(exports), release: () => releaseEngine(exports) };
}

/** Writes puzzle lines (checked by the caller) into the engine's input region. */
export function writePuzzles(engine: SudokuEngine, puzzles: readonly string[], from: number, count: number): void {
  const input = engine.input();
  const cells = input.length / count;
  for (let i = 0; i < count; i++) {
    const line = puzzles[from + i];
    const at = i * cells;
    for (let c = 0; c < cells; c++) {
      const code = line.charCodeAt(c);
      // '1'-'9', then 'A'-'G' (10-16); '.' and '0' empty.
      input[at + c] = code >= 49 && code <= 57 ? code - 48 : code >= 65 && code <= 71 ? code - 55 : 0;
    }
  }
}

/** Room for `count` puzzles of a size, or OUT_OF_MEMORY. */
export function allocPuzzles(engine: SudokuEngine, count: number, size: number, maxMemory: number): void {
  if (!engine.alloc(count, size)) checkStatus(Status.OUT_OF_MEMORY, WHAT, maxMemory);
}

/** Starts a batch and runs it in slices to its next stop. */
export async function startAndRun(engine: SudokuEngine, count: number, limit: number, mode: number, split: number, maxMemory: number, signal?: AbortSignal): Promise<number> {
  checkStatus(engine.start(count, limit, mode, split), WHAT, maxMemory);
  return runToStop(engine, maxMemory, signal);
}

export async function runToStop(engine: SudokuEngine, maxMemory: number, signal?: AbortSignal): Promise<number> {
  return checkStatus(await runSliced((budget) => engine.run(budget), signal), WHAT, maxMemory);
}

/** Searches every puzzle of the task, BATCH at a time. */
export async function runSudokuTask(task: SudokuTask, signal?: AbortSignal, onPuzzles?: (done: number) => void): Promise<SudokuTaskResult> {
  const { engine, release } = await openSudokuEngine(task.engine, task.maxMemory);
  const result: SudokuTaskResult = { counts: [], nodes: [], clashes: [], solutions: [] };
  try {
    for (let from = 0; from < task.puzzles.length; from += BATCH) {
      const count = Math.min(BATCH, task.puzzles.length - from);
      allocPuzzles(engine, count, task.size, task.maxMemory);
      writePuzzles(engine, task.puzzles, from, count);
      checkStatus(engine.start(count, task.limit, MODE_COUNT, 0), WHAT, task.maxMemory);
      // Progress between slices: the puzzles whose records are written so far.
      const status = await runSliced((budget) => {
        const s = engine.run(budget);
        onPuzzles?.(from + engine.finished());
        return s;
      }, signal);
      checkStatus(status, WHAT, task.maxMemory);
      const text = task.firstSolutions ? engine.solutionsText(count) : '';
      for (let i = 0; i < count; i++) {
        const found = engine.solutions(i);
        result.counts.push(found);
        result.nodes.push(engine.nodesOf(i));
        result.clashes.push(engine.flagsOf(i));
        const cells = task.size * task.size;
        result.solutions.push(task.firstSolutions && found > 0 ? text.slice(i * cells, (i + 1) * cells) : null);
        // Reading the answers takes milliseconds, and collecting what it makes (young objects
        // that survive) tens of them: the event loop gets its turns in between.
        if ((i & 511) === 511) await yieldIfDue();
      }
      await yieldIfDue();
    }
    return result;
  } finally {
    release();
  }
}

/** Fewest parts a split aims for: enough to balance threads and spread over shards. */
const MIN_PARTS = 64;
/** Nodes a count may take on the calling thread before it is worth splitting. */
export const SPLIT_THRESHOLD = 1 << 16;
/** runSliced stops at any status but MORE: the trial search before a split used its nodes. */
const TRIAL_OVER = 100;

export interface SudokuSplit {
  /** The parts, as puzzles: the solved cells of a node a few branchings down. */
  parts: string[];
  /** The finished count when the search was too small to split. */
  finished: { solutions: number; nodes: bigint } | null;
  /** Nodes above the parts (the split search's own). */
  nodes: bigint;
}

/**
 * Cuts a 9×9 count into parts. A search that ends within SPLIT_THRESHOLD nodes (and no shards
 * were asked for) is simply finished here. Otherwise the parts are the nodes at the shallowest
 * depth that gives max(64, 8 × shards) of them, or at which nothing goes deeper.
 */
export async function splitCount(task: SudokuTask, shards: number, signal?: AbortSignal): Promise<SudokuSplit> {
  const { engine, release } = await openSudokuEngine(task.engine, task.maxMemory);
  try {
    allocPuzzles(engine, 1, task.size, task.maxMemory);
    if (shards === 1) {
      writePuzzles(engine, task.puzzles, 0, 1);
      checkStatus(engine.start(1, 0, MODE_COUNT, 0), WHAT, task.maxMemory);
      const trial = await runSliced((budget) => {
        const left = SPLIT_THRESHOLD - Number(engine.nodes());
        return left <= 0 ? TRIAL_OVER : engine.run(Math.min(budget, left));
      }, signal);
      if (checkStatus(trial, WHAT, task.maxMemory) === Status.DONE) {
        return { parts: [], finished: { solutions: engine.solutions(0), nodes: engine.nodes() }, nodes: 0n };
      }
    }
    const want = Math.max(MIN_PARTS, 8 * shards);
    let split: SudokuSplit = { parts: [task.puzzles[0]], finished: null, nodes: 0n };
    for (let depth = 1; split.parts.length < want && depth <= task.size * task.size; depth++) {
      writePuzzles(engine, task.puzzles, 0, 1);
      checkStatus(engine.start(1, 0, MODE_SPLIT, depth), WHAT, task.maxMemory);
      const parts: string[] = [];
      let deeper = false; // some part stopped at `depth`, so a deeper split could add parts
      while ((await runToStop(engine, task.maxMemory, signal)) !== Status.DONE) {
        const grid = engine.emitted();
        deeper ||= grid.includes(0);
        parts.push(lineOf(grid));
      }
      split = { parts, finished: null, nodes: engine.nodes() };
      if (!deeper) break;
    }
    return split;
  } finally {
    release();
  }
}
