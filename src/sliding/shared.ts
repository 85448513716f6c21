// Pattern databases shared by the worker threads: loaded once per process into a WebAssembly
// memory that every thread's search instance imports (build/sliding-shared.wasm, built from
// assembly/sliding/shared.ts), instead of a copy in each thread's engine.
//
// The memory's layout is ours: the module's static data (below BLOCKS_AT), a counter and
// MAX_BLOCKS blocks of BLOCK_BYTES, one per instance for its search state (claimed with an
// atomic add, so threads never share one), then the tables. Pages never touched (the blocks
// not claimed) cost no memory.
import { BitpuzzleError, badInput } from '../errors.js';
import { runTasks } from '../parallel/pool.js';
import { compileEngineModule, instantiateEngine, loadEngineModule } from '../wasm/module.js';
import { DEFAULT_MAX_MEMORY, Status, checkStatus, setMemoryLimit, type EngineExports } from '../wasm/protocol.js';
import { wasmOptimalEngine, type OptimalEngine } from './engine.js';
import { cacheDirectory, fillFromCache, loadPatterns, saveTable, slotBuildBytes, slotBytes, slotEntries, tableBytes, type PatternOptions, type PatternSet } from './patterns.js';
import { runTableTask, type TableTask } from './tasks.js';

/** The tables of one pattern set in a shared memory, as handed to the worker threads with each task. */
export interface SharedTables {
  /** Names this memory: a thread keeps its instances for the latest one only. */
  id: string;
  /** The pattern set's key (patterns.ts). */
  key: string;
  memory: WebAssembly.Memory;
  module: WebAssembly.Module;
  /** Each slot's table address in the memory. */
  tables: number[];
  patterns: number[][];
  cells: number;
  packed: boolean;
}

const PAGE = 65536;
const BLOCKS_AT = PAGE;
const COUNTER_AT = BLOCKS_AT;
const BLOCK_BYTES = 32 * 1024;
/** Instances one memory serves: above the most threads (checkThreads allows 1,024) with room to spare. */
const MAX_BLOCKS = 2048;
const TABLES_AT = BLOCKS_AT + 64 + MAX_BLOCKS * BLOCK_BYTES;

const sharedUrl = new URL('../sliding-shared.wasm', import.meta.url);
let sharedModule: Promise<WebAssembly.Module> | undefined;

/** The bytes a shared memory for `set` takes (its blocks counted only as far as threads use them). */
export function sharedBytes(set: PatternSet): number {
  return tableBytes(set) + set.patterns.length * 16;
}

/** Shared tables as loaded, with the verdict of the cache files' checksums. */
export interface SharedLoad {
  shared: SharedTables;
  /**
   * True when every table read from the cache matched its checksum; false when one did not and
   * was rebuilt in place since (a search that ran on it meanwhile must run again). The tables
   * are read before they are checked, so that the threads may start searching at once.
   */
  verified: Promise<boolean>;
}

// The process's shared tables: one set at a time (a new set lets the old memory go).
let current: Promise<SharedLoad> | undefined;
let currentKey: string | undefined;

/** How shared tables load: as tables do, with `readers` reads of the cache at once (the threads that will search). */
export type SharedLoadOptions = PatternOptions & {
  readers?: number;
  /** Threads that may build missing tables at once (within maxMemory); default 1. */
  builders?: number;
};

/**
 * The shared tables of `set`, loaded once per process: read from this thread's memory cache or
 * the disk cache, else built (on up to `builders` threads, else by an engine of this thread),
 * cached on disk as loadPatterns does, and copied in.
 */

export async function loadSharedTables(set: PatternSet, options: SharedLoadOptions = {}): Promise<SharedLoad> {
  if (options.maxMemory !== undefined && sharedBytes(set) > options.maxMemory) {
    checkStatus(Status.OUT_OF_MEMORY, `the pattern databases of the ${set.cols}×${set.rows} puzzle (${tableBytes(set)} bytes of tables)`, options.maxMemory);
  }
  if (current && currentKey === set.key) return current;
  currentKey = set.key;
  current = load(set, options).catch((error: unknown) => {
    current = currentKey = undefined;
    throw error;
  });
  return current;
}

async function load(set: PatternSet, options: SharedLoadOptions): Promise<SharedLoad> {
  const cells = set.rows * set.cols;
  const sizes = set.patterns.map((_, slot) => slotBytes(set, slot));
  const tables: number[] = [];
  let end = TABLES_AT;
  for (const size of sizes) {
    tables.push(end);
    end += Math.ceil(size / 16) * 16;
  }
  const pages = Math.ceil(end / PAGE);
  if (pages > 65536) throw badInput(`the pattern databases of the ${set.cols}×${set.rows} puzzle do not fit in one WebAssembly memory`);
  sharedModule ??= compileEngineModule(sharedUrl).catch((error: unknown) => {
    sharedModule = undefined;
    throw error;
  });
  const module = await sharedModule;
  const memory = new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
  const views = sizes.map((size, slot) => new Uint8Array(memory.buffer, tables[slot], size));
  const dir = await cacheDirectory(options.cacheDir);
  const missing: number[] = [];
  // Each table read from the cache: -1 once found whole, else its slot.
  const checks: Promise<number>[] = [];
  for (let slot = 0; slot < sizes.length; slot++) {
    // As many reads at once as the threads that will search (they wait for the tables anyway).
    const read = await fillFromCache(set, slot, views[slot], dir, options.readers);
    if (read) checks.push(read.checked.then((intact) => (intact ? -1 : slot)));
    else missing.push(slot);
  }
  // Tables to build: built by an instance of our own, not one of the thread's spares, so that
  // its memory goes with it (loadPatterns reads again the tables that are whole on disk).
  const build = async (slots: number[]): Promise<void> => {
    const exports = instantiateEngine(await loadEngineModule());
    if (options.maxMemory !== undefined) setMemoryLimit(exports, options.maxMemory);
    const engine = wasmOptimalEngine(exports);
    await loadPatterns(engine, set, options);
    for (const slot of slots) views[slot].set(engine.table(slot));
  };
  if (missing.length > 0) {
    const builders = buildersFor(set, missing, options);
    if (builders > 1) await buildOnThreads(set, missing, builders, memory, tables, dir, options);
    else await build(missing);
  }
  const verified = Promise.all(checks).then(async (slots) => {
    const damaged = slots.filter((slot) => slot >= 0);
    if (damaged.length > 0) await build(damaged);
    return damaged.length === 0;
  });
  // Never an unhandled rejection: the caller may stop on another error before it waits for this.
  verified.catch(() => undefined);
  const shared: SharedTables = {
    id: `${set.key}#${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`,
    key: set.key,
    memory,
    module,
    tables,
    patterns: set.patterns,
    cells,
    packed: set.packed,
  };
  return { shared, verified };
}

/**
 * How many threads build the missing tables at once: up to `builders`, and only as many as
 * maxMemory holds beside the shared memory, each build with its table, its scratch and a
 * thread's own memory (the biggest builds counted first). One builds them all on this thread,
 * as loadPatterns does.
 */
function buildersFor(set: PatternSet, missing: number[], options: SharedLoadOptions): number {
  const wanted = Math.min(options.builders ?? 1, missing.length);
  if (wanted <= 1) return 1;
  const costs = missing.map((slot) => slotBuildBytes(set, slot) + BUILDER_BYTES).sort((a, b) => b - a);
  let used = sharedBytes(set);
  let builders = 0;
  while (builders < wanted && (options.maxMemory === undefined || used + costs[builders] <= options.maxMemory)) used += costs[builders++];
  return Math.max(1, builders);
}

/** A worker thread's own memory beside a build's engine (its heap, the compiled module). */
const BUILDER_BYTES = 48 << 20;

/**
 * Builds the missing tables on `builders` worker threads, each in an engine of its own (the
 * tables of the 5×5 take minutes each) that copies its table into the shared memory, then saves
 * them to the cache.
 */
async function buildOnThreads(set: PatternSet, missing: number[], builders: number, memory: WebAssembly.Memory, tables: number[], dir: string | null, options: SharedLoadOptions): Promise<void> {
  const entries = missing.map((slot) => slotEntries(set, slot));
  const total = entries.reduce((a, b) => a + b, 0);
  const maxMemory = options.maxMemory ?? DEFAULT_MAX_MEMORY;
  const tasks: TableTask[] = missing.map((slot) => ({ table: { set, slot, maxMemory, memory, at: tables[slot] } }));
  await runTasks<TableTask, true>({
    tasks,
    threads: builders,
    kind: 'sliding',
    runInline: runTableTask,
    engineModule: await loadEngineModule(),
    signal: options.signal,
    // In entries, as a build on one thread reports them, though only as each table ends.
    onProgress: ({ done }) => options.onProgress?.({ done: entries.slice(0, done).reduce((a, b) => a + b, 0), total }),
  });
  if (dir) for (const slot of missing) await saveTable(dir, set, slot, new Uint8Array(memory.buffer, tables[slot], slotBytes(set, slot)));
}

/** The exports of the shared module's instances. */
interface SharedExports extends EngineExports {
  sharedPlaceState(base: number): number;
  sharedDataEnd(): number;
  pdbAdopt(slot: number, cells: number, k: number, packed: number, table: number): number;
}

// This thread's spare instances over the latest shared memory.
let spares: { id: string; idle: SharedExports[] } | undefined;

/**
 * A search engine over the shared tables for this thread: an instance of the shared module with
 * a state block of its own and the slots pointing at the tables. Give it back with `release`.
 */
export function acquireSharedEngine(shared: SharedTables): { engine: OptimalEngine; release: () => void } {
  if (spares?.id !== shared.id) spares = { id: shared.id, idle: [] };
  const pool = spares;
  const exports = pool.idle.pop() ?? instantiateShared(shared);
  return {
    engine: wasmOptimalEngine(exports),
    release: () => {
      if (spares === pool && pool.idle.length < 8) pool.idle.push(exports);
    },
  };
}

function instantiateShared(shared: SharedTables): SharedExports {
  const exports = instantiateEngine(shared.module, { env: { memory: shared.memory } }) as SharedExports;
  const block = Atomics.add(new Int32Array(shared.memory.buffer, COUNTER_AT, 1), 0, 1);
  if (block >= MAX_BLOCKS) throw new BitpuzzleError('ENGINE_FAILURE', `more than ${MAX_BLOCKS} search instances on one set of shared pattern databases`);
  const base = BLOCKS_AT + 64 + block * BLOCK_BYTES;
  if (exports.sharedDataEnd() > BLOCKS_AT || exports.sharedPlaceState(base) > base + BLOCK_BYTES) {
    throw new BitpuzzleError('ENGINE_FAILURE', 'the shared search module does not fit the layout of its memory');
  }
  const bytes = new Uint8Array(shared.memory.buffer);
  shared.patterns.forEach((pattern, slot) => {
    bytes.set(pattern, exports.pdbPatternPtr());
    if (exports.pdbAdopt(slot, shared.cells, pattern.length, shared.packed ? 1 : 0, shared.tables[slot]) === 0) {
      throw new BitpuzzleError('ENGINE_FAILURE', `the shared search module refused pattern slot ${slot}`);
    }
  });
  return exports;
}
