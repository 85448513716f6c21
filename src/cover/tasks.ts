// Searches as tasks: a matrix with some rows forced (givens, or the prefix of a part), on
// either engine. Counting work is cut into parts at the nodes a few levels down, found by
// the engine itself in split mode; each solution lies below exactly one of them.
import { acquireEngineWithLimit, releaseEngine } from '../wasm/module.js';
import { Status, checkStatus, runSliced } from '../wasm/protocol.js';
import type { EngineKind } from '../wasm/options.js';
import { wasmCoverEngine, type CoverEngine, type CoverMatrix } from './engine.js';

export type { EngineKind };

export interface CoverTask {
  engine: EngineKind;
  matrix: CoverMatrix;
  /** Rows put into every solution before the search. */
  forced: number[];
  maxMemory: number;
}

export interface CoverTaskResult {
  solutions: bigint;
  nodes: bigint;
}

const WHAT = 'the exact cover search';

/** An engine of the requested kind with the task's memory limit, held until `release`. */
export async function openCoverEngine(
  kind: EngineKind,
  maxMemory: number,
): Promise<{ engine: CoverEngine; release: () => void }> {
  // The twin is loaded when asked for (browsers then fetch it as a chunk of its own).
  if (kind === 'js') return { engine: new (await import('./reference.js')).ReferenceCoverEngine(maxMemory), release: () => undefined };
  const exports = await acquireEngineWithLimit(maxMemory);
  return { engine: wasmCoverEngine(exports), release: () => releaseEngine(exports) };
}

export async function withCoverEngine<R>(task: CoverTask, work: (engine: CoverEngine) => Promise<R>): Promise<R> {
  const { engine, release } = await openCoverEngine(task.engine, task.maxMemory);
  try {
    return await work(engine);
  } finally {
    release();
  }
}

/** Loads the task's matrix (in slices: a big one takes a while), forces its rows and starts the search. */
export async function startSearch(engine: CoverEngine, task: CoverTask, emit: boolean, split = 0, signal?: AbortSignal): Promise<void> {
  let status: number;
  if (engine.loadStart && engine.loadRun) {
    status = engine.loadStart(task.matrix);
    if (status === Status.MORE) status = await runSliced((budget) => engine.loadRun!(budget), signal);
  } else {
    status = engine.load(task.matrix);
  }
  checkStatus(status, WHAT, task.maxMemory);
  for (const row of task.forced) checkStatus(engine.force(row), WHAT, task.maxMemory);
  checkStatus(engine.start(emit, split), WHAT, task.maxMemory);
}

/** Runs a started search to its next stop (solution, split node or end). */
export async function runToStop(engine: CoverEngine, task: CoverTask, signal?: AbortSignal): Promise<number> {
  return checkStatus(await runSliced((budget) => engine.run(budget), signal), WHAT, task.maxMemory);
}

/** Counts one part to the end. */
export function runCoverTask(task: CoverTask, signal?: AbortSignal): Promise<CoverTaskResult> {
  return withCoverEngine(task, async (engine) => {
    await startSearch(engine, task, false, 0, signal);
    await runToStop(engine, task, signal);
    return { solutions: engine.solutions(), nodes: engine.nodes() };
  });
}

/** Fewest parts a split aims for: enough to balance threads and spread over shards. */
const MIN_PARTS = 64;
/** Row selections a search may take on the calling thread before it is worth splitting. */
export const SPLIT_THRESHOLD = 1 << 16;
/** runSliced stops at any status but MORE: the trial search before a split used its nodes. */
const TRIAL_OVER = 100;

export interface Split {
  /** A single part holds the finished count when the search was too small to split. */
  parts: CoverTask[];
  finished: CoverTaskResult | null;
  /** Row selections above the parts (the split search's own nodes). */
  nodes: bigint;
}

/**
 * Cuts a count into parts. A search that ends within SPLIT_THRESHOLD nodes (and no shards
 * were asked for) is simply finished here. Otherwise the parts are the nodes at the
 * shallowest depth that gives max(64, 8 × shards) of them, or at which nothing goes deeper.
 */
export function splitTask(task: CoverTask, shards: number, signal?: AbortSignal): Promise<Split> {
  return withCoverEngine(task, async (engine) => {
    if (shards === 1) {
      await startSearch(engine, task, false, 0, signal);
      // The first SPLIT_THRESHOLD selections, in slices (a node of a big matrix is slow).
      const trial = await runSliced((budget) => {
        const left = SPLIT_THRESHOLD - Number(engine.nodes());
        return left <= 0 ? TRIAL_OVER : engine.run(Math.min(budget, left));
      }, signal);
      if (checkStatus(trial, WHAT, task.maxMemory) === Status.DONE) {
        return { parts: [task], finished: { solutions: engine.solutions(), nodes: engine.nodes() }, nodes: 0n };
      }
    }
    const want = Math.max(MIN_PARTS, 8 * shards);
    let split: Split = { parts: [task], finished: null, nodes: 0n };
    for (let depth = 1; split.parts.length < want; depth++) {
      await startSearch(engine, task, false, depth, signal);
      const parts: CoverTask[] = [];
      let deeper = false; // some part stopped at `depth`, so a deeper split could add parts
      while ((await runToStop(engine, task, signal)) !== Status.DONE) {
        const forced = engine.output();
        deeper ||= forced.length === task.forced.length + depth;
        parts.push({ ...task, forced });
      }
      split = { parts, finished: null, nodes: engine.nodes() };
      if (!deeper) break;
    }
    return split;
  });
}
