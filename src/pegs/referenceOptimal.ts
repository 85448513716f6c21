// The pure-TS twin of countOptimal and optimalSolutions (engine: 'js'), by an independent
// method on the same definitions: dynamic programming over states (position, the hole the
// last jump landed in), level by level (a jump removes one peg). A jump from that hole goes
// on with the same move, any other jump starts a new one, so each state keeps the fewest
// moves that reach it and the number of jump sequences that do. Forward from the start it
// gives the fewest moves to a finish and the count; backward from the finishes (on
// complements, where a move undone is a chain whose jumps each land where the last one
// started) it gives each position's fewest moves to a finish, which the listing needs.
// Positions are BigInt and the tables Maps: a twin for small boards and for hosts without
// Wasm, not for speed; maxMemory bounds its states at about STATE_BYTES each.
import { BitpuzzleError } from '../errors.js';
import type { Steps } from '../wasm/protocol.js';
import { fullMask, popcount, type PegsProblem } from './problem.js';

/** Positions expanded between yields (each tries every jump on BigInt positions: about 0.1 ms). */
const STEP_POSITIONS = 32;
/** Positions' fewest moves kept between yields (a Map's set of a BigInt key). */
const STEP_KEPT = 2048;
/** What a state costs in the Maps (an estimate, for maxMemory). */
const STATE_BYTES = 160;
/** The hole of a position no jump has reached yet (a root). */
const ROOT = -1;

/**
 * A Map of positions cut into 256 Maps by the position's low byte: a Map that grows copies all
 * its entries at once (about 50 ms at a million), and a part holds a fraction of them.
 */
class PositionMap<V> {
  private readonly parts = Array.from({ length: 256 }, () => new Map<bigint, V>());
  size = 0;
  get(key: bigint): V | undefined {
    return this.parts[Number(key & 255n)].get(key);
  }
  set(key: bigint, value: V): void {
    const part = this.parts[Number(key & 255n)];
    const before = part.size;
    part.set(key, value);
    this.size += part.size - before;
  }
  *[Symbol.iterator](): Generator<[bigint, V]> {
    for (const part of this.parts) yield* part;
  }
}

interface State {
  moves: number;
  paths: bigint;
}

interface Walk {
  /** The fewest moves to each position seen, from the roots. */
  fewest: PositionMap<number>;
  /** The states of the last level. */
  last: PositionMap<Map<number, State>>;
  /** Positions expanded. */
  nodes: number;
  /** The most states held at once, in estimated bytes. */
  memory: number;
}

/**
 * The levels from the roots down to positions with `stopPegs` pegs. `reverse`: on complements,
 * a move goes on when a jump lands where the last one started. `progress` is told each level.
 */
function* walk(
  problem: PegsProblem,
  roots: bigint[],
  stopPegs: number,
  reverse: boolean,
  maxMemory: number,
  progress: (level: number) => void,
  what: string,
): Steps<Walk> {
  const jumps = problem.board.jumps.map(([f, o, t]) => ({
    need: (1n << BigInt(f)) | (1n << BigInt(o)),
    to: 1n << BigInt(t),
    from: f,
    land: t,
  }));
  const fewest = new PositionMap<number>();
  let level = new PositionMap<Map<number, State>>();
  for (const root of roots) {
    const states = level.get(root) ?? new Map<number, State>();
    const state = states.get(ROOT) ?? { moves: 0, paths: 0n };
    state.paths += 1n;
    states.set(ROOT, state);
    level.set(root, states);
    fewest.set(root, 0);
  }
  let nodes = 0;
  let memory = 0;
  let held = fewest.size * 40;
  const levels = popcount(roots[0]) - stopPegs;
  for (let done = 0; done < levels; done++) {
    progress(done);
    const next = new PositionMap<Map<number, State>>();
    let states = 0;
    let work = 0;
    for (const [p, here] of level) {
      nodes++;
      for (const j of jumps) {
        if ((p & j.need) !== j.need || (p & j.to) !== 0n) continue;
        const q = p ^ j.need ^ j.to;
        let there = next.get(q);
        if (!there) next.set(q, (there = new Map()));
        const hole = reverse ? j.from : j.land;
        for (const [h, s] of here) {
          const goesOn = h === (reverse ? j.land : j.from);
          const moves = s.moves + (goesOn ? 0 : 1);
          const old = there.get(hole);
          if (!old) {
            there.set(hole, { moves, paths: s.paths });
            states++;
          } else if (moves < old.moves) {
            old.moves = moves;
            old.paths = s.paths;
          } else if (moves === old.moves) old.paths += s.paths;
        }
      }
      if (++work % STEP_POSITIONS === 0) {
        const bytes = held + states * STATE_BYTES;
        if (bytes > maxMemory) {
          throw new BitpuzzleError('OUT_OF_MEMORY', `${what} needs more than maxMemory (${maxMemory} bytes); it got ${done} of ${levels} levels deep`);
        }
        yield;
      }
    }
    for (const [q, there] of next) {
      let least = Infinity;
      for (const s of there.values()) least = Math.min(least, s.moves);
      fewest.set(q, least);
      if (++work % STEP_KEPT === 0) yield;
    }
    held += next.size * 40;
    memory = Math.max(memory, held + states * STATE_BYTES);
    if (memory > maxMemory) {
      throw new BitpuzzleError('OUT_OF_MEMORY', `${what} needs more than maxMemory (${maxMemory} bytes); it got ${done + 1} of ${levels} levels deep`);
    }
    level = next;
    yield;
  }
  progress(levels);
  return { fewest, last: level, nodes, memory };
}

export interface TwinCount {
  length: number | null;
  total: bigint;
  nodes: number;
  memory: number;
}

/** The fewest moves and the number of jump sequences that take that many, forward from the start. */
export function* twinCountOptimal(problem: PegsProblem, maxMemory: number, progress: (level: number) => void): Steps<TwinCount & { fewest: PositionMap<number> }> {
  const finishPegs = popcount(problem.finishes[0]);
  const w = yield* walk(problem, [problem.start], finishPegs, false, maxMemory, progress, 'counting the fewest-move solutions');
  let length: number | null = null;
  let total = 0n;
  for (const f of problem.finishes) {
    for (const s of w.last.get(f)?.values() ?? []) {
      if (length === null || s.moves < length) ((length = s.moves), (total = 0n));
      if (s.moves === length) total += s.paths;
    }
  }
  return { length, total, nodes: w.nodes, memory: w.memory, fewest: w.fewest };
}

/**
 * For the listing: whether the position after `index` moves lies on a fewest-move solution
 * (its fewest moves from the start are `index`, and to a finish `length - index`).
 */
export function* twinOnPath(
  problem: PegsProblem,
  fewest: PositionMap<number>,
  length: number,
  maxMemory: number,
  progress: (level: number) => void,
): Steps<{ onPath: (p: bigint, index: number) => boolean; nodes: number; memory: number }> {
  const full = fullMask(problem.board);
  const roots = [...new Set(problem.finishes.map((f) => full & ~f))];
  const back = yield* walk(problem, roots, popcount(full & ~problem.start), true, maxMemory, progress, 'listing the fewest-move solutions');
  const onPath = (p: bigint, index: number): boolean => fewest.get(p) === index && back.fewest.get(full & ~p) === length - index;
  return { onPath, nodes: back.nodes, memory: back.memory };
}
