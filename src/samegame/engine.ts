// The SameGame engines as the host drives them: the fewest-left search (Wasm or its
// pure-TS twin, behind one interface) and the Wasm beam search for score.
import type { EngineExports, StatusCode } from '../wasm/protocol.js';

export interface SameGameSearch {
  /**
   * Starts a search on `cells` (column-major from the bottom-left, 0 empty) for a line
   * leaving fewer than `bound` blocks, with a table of 2^tableBits entries.
   */
  start(cells: Uint8Array, width: number, height: number, bound: number, tableBits: number): StatusCode;
  run(budget: number): StatusCode;
  nodes(): bigint;
  /** The fewest blocks left on a line found, or the bound when none was found. */
  best(): number;
  /** That line's clicks as engine cells (column × height + row on the board of the time), or null. */
  line(): number[] | null;
}

function writeCells(exports: EngineExports, cells: Uint8Array): void {
  new Uint8Array(exports.memory.buffer, exports.samegameInputPtr(), cells.length).set(cells);
}

function readLine(exports: EngineExports, length: number): number[] {
  return Array.from(new Uint16Array(exports.memory.buffer, exports.samegameOutputPtr(), length));
}

export function wasmSameGameSearch(exports: EngineExports): SameGameSearch {
  return {
    start(cells, width, height, bound, tableBits) {
      writeCells(exports, cells);
      return exports.samegameStart(width, height, bound, tableBits);
    },
    run: (budget) => exports.samegameRun(budget),
    nodes: () => BigInt.asUintN(64, exports.samegameNodes()),
    best: () => exports.samegameBest(),
    line() {
      const length = exports.samegameBestLength();
      return length < 0 ? null : readLine(exports, length);
    },
  };
}

/** The beam search for score (Wasm only). */
export interface SameGameBeam {
  /**
   * `level` 0 values children by the best of `playouts` playouts, 1 by a nested search of
   * level 1; `known` is a
   * line (engine cells) scoring `knownScore` that the search starts from; with `fixedTabu`
   * playouts hold back the start board's most common colour, else that of where they start.
   */
  start(cells: Uint8Array, width: number, height: number, beam: number, seed: number, level: number, playouts: number, known: number[], knownScore: number, fixedTabu: boolean): StatusCode;
  run(budget: number): StatusCode;
  nodes(): bigint;
  /** The best score of a finished line so far, or -1. */
  score(): number;
  /** True when the finished search never dropped a position: its score is the board's best. */
  complete(): boolean;
  line(): number[];
}

export function wasmSameGameBeam(exports: EngineExports): SameGameBeam {
  return {
    start(cells, width, height, beam, seed, level, playouts, known, knownScore, fixedTabu) {
      writeCells(exports, cells);
      new Uint16Array(exports.memory.buffer, exports.samegameOutputPtr(), known.length).set(known);
      return exports.samegameBeamStart(width, height, beam, seed, level, playouts, knownScore, known.length, fixedTabu ? 1 : 0);
    },
    run: (budget) => exports.samegameBeamRun(budget),
    nodes: () => BigInt.asUintN(64, exports.samegameBeamNodes()),
    score: () => exports.samegameBeamScore(),
    complete: () => exports.samegameBeamComplete() === 1,
    line() {
      const length = exports.samegameBeamLine();
      return length < 0 ? [] : readLine(exports, length);
    },
  };
}

/** Nested rollout policy adaptation for score (Wasm only; see assembly/samegame/nrpa.ts). */
export interface SameGameNrpa {
  /**
   * `levels` nested levels of `iterations` iterations, a policy table of 2^tableBits weights
   * per level; `known` is a line (engine cells) scoring `knownScore` that the search starts from;
   * `beam` > 1 keeps a beam of that many policies at the top level (Beam NRPA).
   */
  start(cells: Uint8Array, width: number, height: number, levels: number, iterations: number, playoutsPerAdapt: number, tableBits: number, seed: number, known: number[], knownScore: number, beam: number): StatusCode;
  run(budget: number): StatusCode;
  nodes(): bigint;
  playouts(): bigint;
  /** The best score of a finished line so far, or -1. */
  score(): number;
  /** Restarts of the top level so far. */
  restarts(): number;
  /** The top level's iteration under way. */
  iteration(): number;
  line(): number[];
  /** Adapts the top level's policy toward `line` (engine cells), as the level above it would (parallel NRPA). */
  adapt(line: number[]): StatusCode;
  /** From now on run() answers DONE when the top level's run ends, instead of restarting it. */
  once(): void;
}

export function wasmSameGameNrpa(exports: EngineExports): SameGameNrpa {
  return {
    start(cells, width, height, levels, iterations, playoutsPerAdapt, tableBits, seed, known, knownScore, beam) {
      writeCells(exports, cells);
      new Uint16Array(exports.memory.buffer, exports.samegameOutputPtr(), known.length).set(known);
      return exports.samegameNrpaStart(width, height, levels, iterations, playoutsPerAdapt, tableBits, seed, knownScore, known.length, beam);
    },
    run: (budget) => exports.samegameNrpaRun(budget),
    nodes: () => BigInt.asUintN(64, exports.samegameNrpaNodes()),
    playouts: () => BigInt.asUintN(64, exports.samegameNrpaPlayouts()),
    score: () => exports.samegameNrpaScore(),
    restarts: () => exports.samegameNrpaRestarts(),
    iteration: () => exports.samegameNrpaIteration(),
    line() {
      const length = exports.samegameNrpaLine();
      return length < 0 ? [] : readLine(exports, length);
    },
    adapt(line) {
      new Uint16Array(exports.memory.buffer, exports.samegameOutputPtr(), line.length).set(line);
      return exports.samegameNrpaAdapt(line.length);
    },
    once: () => exports.samegameNrpaOnce(),
  };
}
