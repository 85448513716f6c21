// The tiling engine as the host drives it: the Wasm engine and its pure-TS twin behind one
// interface, so that every search path can run on either.
import { MemoryView, Status, type EngineExports, type StatusCode } from '../wasm/protocol.js';

export interface TilingEngine {
  /** Loads a problem's input words (see assembly/polyomino/polyomino.ts); a no-op when already loaded. */
  load(input: Uint32Array): StatusCode;
  /** Starts one part: `pre` placements fixed, `weight` per leaf, symmetry `mask` for distinct leaves. */
  start(pre: readonly number[], weight: number, mask: number, emit: boolean, split: number): StatusCode;
  run(budget: number): StatusCode;
  /** The placements of the solution or split prefix just reported. */
  output(): number[];
  total(): bigint;
  distinct(): bigint;
  nodes(): bigint;
}

// The input each instance holds, and the arena generation it was loaded in (another search
// on the instance resets the arena, and the tables with it).
const loadedInputs = new WeakMap<EngineExports, { input: Uint32Array; generation: number }>();

export function wasmTilingEngine(exports: EngineExports): TilingEngine {
  const view = new MemoryView(exports.memory);
  const part = exports.polyPartPtr() >>> 2;
  const output = exports.polyOutputPtr() >>> 2;
  return {
    load(input) {
      const held = loadedInputs.get(exports);
      if (held && held.input === input && held.generation === exports.arenaGeneration()) return Status.DONE;
      loadedInputs.delete(exports);
      const pointer = exports.polyInputAlloc(input.length);
      if (pointer === 0) return Status.OUT_OF_MEMORY;
      view.u32.set(input, pointer >>> 2);
      const status = exports.polyLoad();
      if (status === Status.DONE) loadedInputs.set(exports, { input, generation: exports.arenaGeneration() });
      return status;
    },
    start(pre, weight, mask, emit, split) {
      view.u32.set(pre, part);
      // The mask has up to 63 bits: its low and high 32 bits go separately.
      return exports.polyStart(pre.length, weight, mask % 2 ** 32, Math.floor(mask / 2 ** 32), emit ? 1 : 0, split);
    },
    run: (budget) => exports.polyRun(budget),
    output() {
      return Array.from(view.u32.subarray(output, output + exports.polyOutputLength()));
    },
    total: () => BigInt.asUintN(64, exports.polyTotal()),
    distinct: () => BigInt.asUintN(64, exports.polyDistinct()),
    nodes: () => BigInt.asUintN(64, exports.polyNodes()),
  };
}
