// Tiling work cut into parts: each part fixes some placements (the restricted piece at an
// orbit representative, then the first placements below it, found by the engine in split
// mode). Every solution lies below exactly one part, so the parts' sums are the whole.
import { acquireEngine, releaseEngine } from '../wasm/module.js';
import type { EngineKind } from '../wasm/options.js';
import { DEFAULT_MAX_MEMORY, Status, checkStatus, runSliced, setMemoryLimit } from '../wasm/protocol.js';
import { wasmTilingEngine, type TilingEngine } from './engine.js';
import { prepare, type Prepared, type ProblemSpec } from './problem.js';
import type { Part } from './symmetry.js';

export interface TilingTask {
  engine: EngineKind;
  spec: ProblemSpec;
  part: Part;
  maxMemory: number;
}

export interface TilingTaskResult {
  total: bigint;
  distinct: bigint;
  nodes: bigint;
}

/** An engine of the requested kind with the problem loaded, held until `release` is called. */
export async function openTilingEngine(
  kind: EngineKind,
  prepared: Prepared,
  maxMemory = DEFAULT_MAX_MEMORY,
): Promise<{ engine: TilingEngine; release: () => void }> {
  if (kind === 'js') {
    // The twin is loaded when asked for (browsers then fetch it as a chunk of its own).
    const engine = new (await import('./reference.js')).ReferenceTilingEngine();
    checkStatus(engine.load(prepared.input), 'loading the tiling problem');
    return { engine, release: () => undefined };
  }
  const exports = await acquireEngine();
  try {
    setMemoryLimit(exports, maxMemory);
    const engine = wasmTilingEngine(exports);
    checkStatus(engine.load(prepared.input), 'loading the tiling problem', maxMemory);
    return { engine, release: () => releaseEngine(exports) };
  } catch (error) {
    releaseEngine(exports);
    throw error;
  }
}

export function startPart(engine: TilingEngine, part: Part, emit: boolean, split = 0): void {
  checkStatus(engine.start(part.pre, part.weight, part.mask, emit, split), 'starting the tiling search');
}

/** Counts one part to the end. */
export async function runTilingTask(task: TilingTask, signal?: AbortSignal): Promise<TilingTaskResult> {
  const { engine, release } = await openTilingEngine(task.engine, prepare(task.spec), task.maxMemory);
  try {
    startPart(engine, task.part, false);
    checkStatus(await runSliced((budget) => engine.run(budget), signal), 'the tiling search', task.maxMemory);
    return { total: engine.total(), distinct: engine.distinct(), nodes: engine.nodes() };
  } finally {
    release();
  }
}

/** Returned by a budgeted step when the budget is spent (not an engine status). */
const BUDGET_SPENT = 100;

/**
 * Counts parts on the calling thread until `budget` placements are spent: the results of
 * the parts finished, and the parts left (the one under way starts again from scratch).
 */
export async function countWithin(
  task: Omit<TilingTask, 'part'>,
  parts: Part[],
  budget: number,
  signal?: AbortSignal,
): Promise<{ done: TilingTaskResult[]; rest: Part[] }> {
  const { engine, release } = await openTilingEngine(task.engine, prepare(task.spec), task.maxMemory);
  try {
    const done: TilingTaskResult[] = [];
    let spent = 0;
    for (let i = 0; i < parts.length; i++) {
      startPart(engine, parts[i], false);
      const step = (slice: number): number => {
        const left = budget - spent - Number(engine.nodes());
        return left <= 0 ? BUDGET_SPENT : engine.run(Math.min(slice, left));
      };
      const status = checkStatus(await runSliced(step, signal), 'the tiling search', task.maxMemory);
      if (status === BUDGET_SPENT) return { done, rest: parts.slice(i) };
      spent += Number(engine.nodes());
      done.push({ total: engine.total(), distinct: engine.distinct(), nodes: engine.nodes() });
    }
    return { done, rest: [] };
  } finally {
    release();
  }
}

/** Fewest parts a split aims for: enough to balance threads and spread over shards. */
const MIN_PARTS = 64;

/**
 * Cuts the root parts until there are at least max(64, 8 × shards) of them: each round
 * replaces every part by its children one placement deeper (dead ends drop out). `nodes`
 * counts the placements the rounds made, so that they plus the parts' own add up to the
 * placements of the search uncut.
 */
export async function splitParts(
  task: Omit<TilingTask, 'part'>,
  parts: Part[],
  shards: number,
  signal?: AbortSignal,
): Promise<{ parts: Part[]; nodes: bigint }> {
  const want = Math.max(MIN_PARTS, 8 * shards);
  const prepared = prepare(task.spec);
  const { engine, release } = await openTilingEngine(task.engine, prepared, task.maxMemory);
  try {
    let rounds = 0;
    let nodes = 0n;
    while (parts.length > 0 && parts.length < want && rounds++ < prepared.cellXY.length) {
      const children: Part[] = [];
      for (const part of parts) {
        startPart(engine, part, false, 1);
        for (;;) {
          const status = checkStatus(await runSliced((budget) => engine.run(budget), signal), 'splitting', task.maxMemory);
          if (status === Status.DONE) break;
          children.push({ ...part, pre: engine.output() });
        }
        nodes += engine.nodes();
      }
      parts = children;
    }
    return { parts, nodes };
  } finally {
    release();
  }
}
