// The count from both ends on the calling thread's engine (assembly/pegs/meet.ts): forward
// from the start and backward from the finishes, meeting in the middle, with every level in
// the engine's linear memory, so that maxMemory bounds what the count really holds; or, when
// a level would not fit and the caller allows it, with the levels on disk (./spill.ts).
import { BitpuzzleError, aborted } from '../errors.js';
import type { Progress } from '../parallel/pool.js';
import { acquireEngine, releaseEngine } from '../wasm/module.js';
import { Status, checkStatus, memoryLimitText, runSliced, setMemoryLimit } from '../wasm/protocol.js';
import { engineInput, fullMask, pagodasFor, permute, popcount, type PegsProblem } from './problem.js';
import { OVERFLOW, engineShare, pathsOverflow, wasmPegsEngine } from './engine.js';
import type { ThreadedCount } from './shards.js';
import { SpillFolder, canSpill, levelBytes } from './spill.js';
import type { Meeting } from './fewest.js';
import { Checkpoint, LEVELS_FOLDER, type CheckpointEvent } from './checkpoint.js';

// Statuses of a count with its levels on disk (assembly/pegs/meetState.ts): the host fills the
// engine's window, or takes the pairs of a part of a level.
const NEED_PAIRS = 4;
const HAVE_PAIRS = 5;
const DROP_PART = 6; // a part's file summed: the host may remove it
const DISCARD_PART = 7; // a part dropped from a round for want of disk: the host removes its file
/** The window a count on disk reads its levels through: big enough that a read costs little. */
const WINDOW_BYTES = 4 << 20;
// Statuses of our own: a checkpoint is due (taken before the next run call); the signal fired.
const CHECKPOINT_DUE = 100;
const STOPPED = 101;
/**
 * The engine's memory by default when its levels may go to disk: with the host's own, the
 * process stays under 600 MB, and on disk a count goes about as fast (the levels are built
 * and joined in one pass over their parents whatever their parts).
 */
export const SPILL_ABOVE = 480 << 20;

/**
 * The count of a problem whose finishes have at least 2 pegs fewer than the start (when the
 * only finish is the start's complement, one side serves for both). `levels[k]`: the positions with k pegs kept, forward above the
 * meeting level and backward (as the positions they undo to) below it.
 */
export async function countBothEnds(
  problem: PegsProblem,
  maxMemory: number,
  // spill: true puts the levels on disk when one would not fit in memory (in spillDir, default
  // the OS's temporary folder; Node only, a browser keeps them in memory); maxDisk caps the
  // bytes its files take (a level whose parts' files would pass it, or the free space, is built
  // in rounds: one pass over its parents per round). dual: false, narrowBits (the bits a count may take in 12-byte
  // pairs; 0: 16-byte pairs), spill: 'always' (on disk from the first level), windowBytes,
  // fewestParts (on disk, each level and the join in at least that many parts), sumSlots (on
  // disk, the most slots of a table that sums a part's file: a part that needs more is summed
  // in several passes over its file) and
  // reserveBytes (the free space a count leaves on the disk: more than there is makes the
  // first write OUT_OF_DISK) are for the tests.
  options: {
    signal?: AbortSignal;
    onProgress?: (progress: Progress) => void;
    dual?: boolean;
    narrowBits?: number;
    spill?: boolean | 'always';
    spillDir?: string;
    spillAbove?: number;
    maxDisk?: number;
    windowBytes?: number;
    fewestParts?: number;
    sumSlots?: number;
    reserveBytes?: number;
    // The fewest moves instead of the count: `total` is the moves (-1n: no solution).
    fewest?: boolean;
    // Keeps checkpoints in this folder (its levels on disk in DIR/levels) and resumes from the
    // one there; checkpointEvery (ms): how often within a level (tests and $BITPUZZLE_CHECKPOINT_MS).
    checkpoint?: string;
    checkpointEvery?: number;
    onCheckpoint?: (event: CheckpointEvent) => void;
  },
): Promise<ThreadedCount & { total: bigint; partFiles: number; partWrites: number; joinPasses: number; rounds: number; meeting?: Meeting }> {
  const startPegs = popcount(problem.start);
  let steps = startPegs - popcount(problem.finishes[0]);
  // The backward side's pagodas: its complements must be reachable from the start.
  const backward = pagodasFor(problem.board, [fullMask(problem.board) & ~problem.start]);
  const input = engineInput({ ...problem, pagodas: [...problem.pagodas, ...backward] });
  const spillMode = !canSpill() ? 0 : options.spill === 'always' ? 2 : options.spill === true ? 1 : 0;
  // maxMemory bounds the process's part in the count: the engine gets it less the host's
  // own (from 256 MiB up; below, the engine has it all); when the levels may go to disk, at
  // most spillAbove.
  const share = engineShare(maxMemory);
  const limit = spillMode === 0 ? share : Math.min(share, options.spillAbove ?? SPILL_ABOVE);
  // On disk, the window is a few MB, and a small share of a small maxMemory.
  const windowBytes = options.windowBytes ?? Math.max(4096, Math.min(WINDOW_BYTES, Math.floor(limit / 32)));
  // The count's name and key for a checkpoint: the engine's input (board, start, finishes,
  // pagodas) and what shapes the count; a folder of another count is refused.
  const checkpoint =
    options.checkpoint === undefined
      ? undefined
      : await Checkpoint.open(
          options.checkpoint,
          describeCount(problem, maxMemory, options.fewest === true),
          JSON.stringify({
            fewest: options.fewest === true,
            maxMemory,
            spillMode,
            limit,
            windowBytes,
            dual: options.dual ?? true,
            narrowBits: options.narrowBits ?? 64,
            input: Array.from(input),
          }),
          options.checkpointEvery,
        );
  const resumed = checkpoint?.resumed;
  if (resumed && 'answer' in resumed) {
    const { answer } = resumed;
    options.onCheckpoint?.({ kind: 'answered', dir: checkpoint!.dir, step: steps, steps, bytes: 0, nodes: BigInt(answer.nodes), levelBytes: 0, free: await checkpoint!.free() });
    return { total: BigInt(answer.total), levels: answer.levels, nodes: BigInt(answer.nodes), memory: answer.memory, partFiles: 0, partWrites: 0, joinPasses: 0, rounds: 0 };
  }
  // A count without levels on disk has nothing to remove; where() is bound once the engine is.
  let where = (): string => '';
  // The messages' name for the work.
  const task = options.fewest ? 'the fewest moves by levels' : 'counting';
  const spill =
    spillMode === 0
      ? undefined
      : await SpillFolder.open(options.spillDir, {
          signal: options.signal,
          where: () => where(),
          task,
          reserveBytes: options.reserveBytes,
          maxDisk: options.maxDisk,
          // A checkpoint's levels on disk are part of it: in its folder, kept until the count ends.
          keepIn: checkpoint && (await import('node:path')).join(checkpoint.dir, LEVELS_FOLDER),
        });
  let finished = false;
  const exports = await acquireEngine();
  try {
    setMemoryLimit(exports, limit);
    checkStatus(wasmPegsEngine(exports).load(input), 'loading the board', maxMemory);
    // One side serves for both when a symmetry maps the finish's complement onto the start.
    const dual = options.dual === false ? undefined : dualSymmetry(problem);
    where = (): string => {
      const at = exports.pegsMeetLevels();
      const parts = at >>> 16 > 1 ? `, the level in progress in ${at >>> 16} parts` : '';
      // With one side for both, the finish's levels are the start's seen through the symmetry.
      const sides = dual ? `forward to ${at & 255} pegs, which serve the finish's side too` : `forward to ${at & 255} pegs, backward to ${(at >> 8) & 255}`;
      const disk = spill?.folder ? `; the levels were on disk in ${spill.folder}` : '';
      return `it got ${exports.pegsMeetStep()} of ${steps} levels deep (${sides}${parts})${disk}`;
    };
    const outOfMemory = (): BitpuzzleError =>
      new BitpuzzleError(
        'OUT_OF_MEMORY',
        limit < share
          ? `${task} on disk needs more than spillAbove (${limit} bytes; a larger spillAbove, up to ${share} bytes within maxMemory, may do); ${where()}`
          : `${task} needs more than ${memoryLimitText(maxMemory)}; ${where()}`,
      );
    // 12-byte pairs first; a count too big for them means counting again with 16-byte ones.
    let narrowBits = options.narrowBits ?? 64;
    let status: number;
    let restore = resumed !== null && resumed !== undefined;
    for (;;) {
      if (restore) {
        // The engine as the checkpoint left it (a restart with 16-byte pairs below starts afresh),
        // and its levels on disk as they were then.
        const host = checkpoint!.restore(exports);
        ({ narrowBits, steps } = host);
        if (spill && host.spill) await spill.restore(host.spill);
        restore = false;
        options.onCheckpoint?.({
          kind: 'resumed',
          dir: checkpoint!.dir,
          step: exports.pegsMeetStep(),
          steps,
          bytes: exports.arenaTop() >>> 0, // past 2 GiB an i32 comes back negative
          nodes: BigInt.asUintN(64, exports.pegsMeetNodes()),
          levelBytes: levelBytes(host.spill),
          free: await checkpoint!.free(),
        });
      } else {
        if (dual) new Uint32Array(exports.memory.buffer, exports.pegsMeetDualPtr(), dual.length).set(dual);
        exports.pegsMeetFewest(options.fewest ? 1 : 0);
        const started = exports.pegsMeetStart(problem.pagodas.length, dual ? 1 : 0, narrowBits, spillMode, windowBytes, options.fewestParts ?? 1, options.sumSlots ?? 0);
        if (started === Status.OUT_OF_MEMORY) throw outOfMemory();
        checkStatus(started, task, maxMemory);
        steps = exports.pegsMeetSteps();
      }
      if (spill) exports.pegsMeetDiskRoom(await spill.room());
      let reported = -1;
      let phase: string | undefined;
      const report = (done: number): void => {
        reported = done;
        options.onProgress?.(phase ? { done, total: steps, phase } : { done, total: steps });
      };
      // After the host's reads and writes, the engine goes on at the budgets it had reached.
      const phases = { of: () => exports.pegsMeetPhase(), budgets: new Map<number, number>() };
      const step = (slice: number): number => {
        const done = exports.pegsMeetStep();
        if (done !== reported) report(done);
        // An abort heard in the progress report stops before the next run call.
        if (options.signal?.aborted) return STOPPED;
        // A checkpoint is taken between two run calls, where the engine's state is whole.
        if (checkpoint?.due(done)) return CHECKPOINT_DUE;
        return exports.pegsMeetRun(slice);
      };
      const save = async (): Promise<void> => {
        const files = spill ? await spill.state() : undefined;
        const bytes = await checkpoint!.save(exports, { narrowBits, steps, ...(files ? { spill: files } : {}) }, exports.pegsMeetStep());
        // The files the checkpoint before needed and this one does not.
        await spill?.saved();
        options.onCheckpoint?.({
          kind: 'saved',
          dir: checkpoint!.dir,
          step: exports.pegsMeetStep(),
          steps,
          bytes,
          nodes: BigInt.asUintN(64, exports.pegsMeetNodes()),
          levelBytes: levelBytes(files),
          free: await checkpoint!.free(),
        });
      };
      for (;;) {
        try {
          status = await runSliced(step, options.signal, undefined, phases);
        } catch (error) {
          // Stopped (Ctrl-C, an abort): the state as it stands is kept, to go on from later.
          if (checkpoint && error instanceof BitpuzzleError && error.code === 'ABORTED') await save();
          throw error;
        }
        if (status === CHECKPOINT_DUE) {
          await save();
          continue;
        }
        if (status === STOPPED) {
          if (checkpoint) await save();
          throw aborted(options.signal!);
        }
        if ((status !== NEED_PAIRS && status !== HAVE_PAIRS && status !== DROP_PART && status !== DISCARD_PART) || !spill) break;
        // The levels are on disk: the engine's window to fill, pairs to keep, or a file to remove.
        if (status === DROP_PART || status === DISCARD_PART) await spill.dropPart(exports, status === DROP_PART);
        else await spill.serve(exports, status === HAVE_PAIRS);
        if (status === NEED_PAIRS) exports.pegsMeetFeed();
        // What the files may still take, for a level's parts in rounds.
        else exports.pegsMeetDiskRoom(await spill.room());
        // The phase names the folder, and the rounds once the disk is short.
        const rounds = exports.pegsMeetRounds();
        const now = `levels on disk in ${spill.folder}${rounds > 0 ? `, ${rounds} more passes over their parents for want of disk` : ''}`;
        if (phase !== now) {
          phase = now;
          report(exports.pegsMeetStep());
        }
      }
      if (status !== OVERFLOW || !exports.pegsMeetNarrow() || narrowBits === 0) break;
      narrowBits = 0;
      await spill?.clear();
    }
    if (status === OVERFLOW) throw pathsOverflow(where(), 'a position');
    if (status === Status.OUT_OF_MEMORY) throw outOfMemory();
    checkStatus(status, task, maxMemory);
    options.onProgress?.({ done: steps, total: steps });
    const view = new BigUint64Array(exports.memory.buffer, exports.pegsOutputPtr(), startPegs + 1);
    const answer = {
      total: options.fewest
        ? BigInt.asIntN(64, exports.pegsMeetTotal())
        : (BigInt.asUintN(64, exports.pegsMeetTotalHigh()) << 64n) | BigInt.asUintN(64, exports.pegsMeetTotal()),
      levels: Array.from(view, Number),
      nodes: BigInt.asUintN(64, exports.pegsMeetNodes()),
      memory: Number(exports.pegsMemory()),
    };
    finished = true;
    if (checkpoint) {
      await checkpoint.finish({ ...answer, total: answer.total.toString(), nodes: answer.nodes.toString() }, steps);
      options.onCheckpoint?.({ kind: 'finished', dir: checkpoint.dir, step: steps, steps, bytes: 0, nodes: answer.nodes, levelBytes: 0, free: await checkpoint.free() });
    }
    return {
      ...answer,
      // Levels built in parts in one pass over their parents: the parts' files summed.
      partFiles: spill?.partFiles ?? 0,
      partWrites: spill?.partWrites ?? 0,
      // The join's passes over parts' files of lookups (more than its parts: a table was short).
      joinPasses: exports.pegsMeetJoinPasses(),
      // Passes over a level's parents (or the join's streamed side) again, and rounds cut, for want of disk.
      rounds: exports.pegsMeetRounds(),
      // The fewest moves: where the least was met, for a solution through it (solutionThrough).
      ...(options.fewest && exports.pegsMeetTotal() >= 0n
        ? {
            meeting: {
              position: BigInt.asUintN(64, exports.pegsMeetMeetPosition()),
              forward: exports.pegsMeetMeetMoves(0),
              backward: exports.pegsMeetMeetMoves(1),
              shared: BigInt.asUintN(64, exports.pegsMeetMeetShared()),
            },
          }
        : {}),
    };
  } finally {
    try {
      // A checkpoint's levels stay for the count to resume, until it ends.
      if (checkpoint && !finished) await spill?.close();
      else await spill?.remove();
    } finally {
      releaseEngine(exports);
    }
  }
}

/** A count as a checkpoint names it: the board, the start's empty holes, the finish, maxMemory. */
function describeCount(problem: PegsProblem, maxMemory: number, fewest: boolean): string {
  const { holes } = problem.board;
  const names = (position: bigint, pegs: boolean): string[] => holes.filter((_, i) => ((position >> BigInt(i)) & 1n) === (pegs ? 1n : 0n)).map((h) => h.name);
  const list = (items: string[]): string => (items.length <= 6 ? items.join(',') : `${items.length} holes`);
  const finish = problem.finishes.length === 1 ? `pegs at ${list(names(problem.finishes[0], true))}` : `any of ${problem.finishes.length} finishes`;
  return `${fewest ? 'the fewest moves' : 'the count'} on ${problem.board.name} (${holes.length} holes) from ${list(names(problem.start, false))} empty to ${finish}, maxMemory ${maxMemory}`;
}

/**
 * A symmetry h of the board with h(~finish) = start and h(~start) = finish, when the problem
 * has one and its finish is not the start's complement already (French d3 -> d5: the top-bottom
 * mirror): the sequences from the finish's complement (the backward side) to q are those from
 * the start to h(q), so the engine keeps the forward side only.
 */
export function dualSymmetry(problem: PegsProblem): number[] | undefined {
  if (problem.finishes.length !== 1) return undefined;
  const full = fullMask(problem.board);
  const [finish] = problem.finishes;
  if (finish === (full & ~problem.start)) return undefined;
  return problem.board.symmetries.find((h) => permute(h, full & ~finish) === problem.start && permute(h, full & ~problem.start) === finish);
}
