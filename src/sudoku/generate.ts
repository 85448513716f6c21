// The 9×9 puzzle generator. Puzzle i of seed S depends on S and i alone (not on the engine,
// the thread count or the other puzzles), so a seed names the same puzzles everywhere:
//  1. a full grid: the three diagonal boxes (which share no row or column) filled with random
//     permutations, completed by the engine's first solution, then shuffled by a random
//     validity-preserving transformation (bands, rows within bands, stacks, columns within
//     stacks, and a transposition);
//  2. clues removed in a random order (with `symmetric`, a cell and its image under the
//     half-turn together), each removal kept when the puzzle still has one solution: one
//     pass leaves a minimal puzzle, since a clue that could not go could not go later either
//     (removing others only adds solutions);
//  3. with `symmetric`, a removal of pairs can leave a single clue that could go alone: such
//     a puzzle is not minimal, and the generator starts again from a new grid (the number of
//     attempts is reported).
// Its difficulty figure is the engine's nodes for proving the puzzle unique.
import { badInput, describeValue } from '../errors.js';
import { mulberry32, shuffle } from '../random.js';
import { checkEngine, checkMaxMemory, checkOptions, type EngineKind } from '../wasm/options.js';
import { MODE_COUNT, type SudokuEngine } from './engine.js';
import { lineOf } from './grid.js';
import { allocPuzzles, openSudokuEngine, startAndRun } from './tasks.js';
import type { Progress } from '../parallel/pool.js';
import type { SearchStats } from '../stats.js';

/** Options of sudoku.generate. */
export interface GenerateOptions {
  /** Puzzles to make (default 1, at most 100,000). */
  count?: number;
  /** The seed (an integer from 0 to 2^32 - 1); default: a random one, reported in the result. */
  seed?: number;
  /** Clues symmetric under the half-turn of the grid (default false). */
  symmetric?: boolean;
  /** Stops the work; the promise rejects with code ABORTED. */
  signal?: AbortSignal;
  /** Called with the puzzles made so far and in all. */
  onProgress?: (progress: Progress) => void;
  /** 'wasm' (default) or the pure-TS twin 'js': the same puzzles either way. */
  engine?: EngineKind;
  /** Most bytes the engine may use (default 1 GiB); beyond it, OUT_OF_MEMORY. */
  maxMemory?: number;
}

/** One generated puzzle. */
export interface GeneratedPuzzle {
  /** 81 cells, '.' empty: the batch format. */
  puzzle: string;
  /** Its one solution. */
  solution: string;
  /** The number of givens. */
  clues: number;
  /** Nodes of the engine's proof that the solution is unique: the difficulty figure. */
  nodes: number;
  /** Grids tried before this one (more than 1 only with `symmetric`). */
  attempts: number;
}

/** The answer of sudoku.generate. */
export interface GenerateResult {
  /** The seed used: the one given, or the random one chosen. */
  seed: number;
  /** Whether the clues are symmetric under the half-turn. */
  symmetric: boolean;
  /** The puzzles, puzzle i of the seed at index i. */
  puzzles: GeneratedPuzzle[];
  /** Stats of the run; `nodes` sums every search of every attempt: completing the grid, removing clues, the proofs. */
  stats: SearchStats;
}

const GENERATE_KEYS = ['count', 'seed', 'symmetric', 'signal', 'onProgress', 'engine', 'maxMemory'];
/** The most puzzles one call makes. */
export const MAX_GENERATE = 100_000;

function checkGenerateOptions(options: GenerateOptions): { count: number; seed: number; symmetric: boolean } {
  const { count = 1, seed, symmetric = false } = options;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_GENERATE) {
    throw badInput(`count must be an integer from 1 to ${MAX_GENERATE}, got ${describeValue(count)}`);
  }
  if (seed !== undefined && (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)) {
    throw badInput(`seed must be an integer from 0 to 4294967295, got ${describeValue(seed)}`);
  }
  if (typeof symmetric !== 'boolean') throw badInput(`symmetric must be true or false, got ${describeValue(symmetric)}`);
  return { count, seed: seed ?? Math.floor(Math.random() * 0x100000000), symmetric };
}

/** The seed of puzzle `index` (a 32-bit mix of the two, so neighbouring seeds share nothing). */
function puzzleSeed(seed: number, index: number): number {
  let h = (seed ^ Math.imul(index + 1, 0x9e3779b9)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A random order of 0..n-1 grouped in threes kept together (bands, rows of a band). */
function lineOrder(random: () => number): number[] {
  const order: number[] = [];
  for (const band of shuffle([0, 1, 2], random)) for (const row of shuffle([0, 1, 2], random)) order.push(3 * band + row);
  return order;
}

/** Solutions of `cells` up to `limit`, with the search's nodes; the first solution is left in the engine. */
async function search(engine: SudokuEngine, cells: Uint8Array, limit: number, maxMemory: number, signal?: AbortSignal): Promise<{ count: number; nodes: number }> {
  engine.input().set(cells);
  await startAndRun(engine, 1, limit, MODE_COUNT, 0, maxMemory, signal);
  return { count: engine.solutions(0), nodes: engine.nodesOf(0) };
}

/** A random full grid, and the nodes of the search that completed it. */
async function fullGrid(engine: SudokuEngine, random: () => number, maxMemory: number, signal?: AbortSignal): Promise<{ grid: Uint8Array; nodes: number }> {
  const cells = new Uint8Array(81);
  for (const box of [0, 4, 8]) {
    const digits = shuffle([1, 2, 3, 4, 5, 6, 7, 8, 9], random);
    for (let i = 0; i < 9; i++) cells[(3 * Math.floor(box / 3) + Math.floor(i / 3)) * 9 + 3 * (box % 3) + (i % 3)] = digits[i];
  }
  const { nodes } = await search(engine, cells, 1, maxMemory, signal);
  const solved = engine.solution(0);
  const rows = lineOrder(random);
  const cols = lineOrder(random);
  const transpose = random() < 0.5;
  const grid = new Uint8Array(81);
  for (let r = 0; r < 9; r++) {
    for (let c = 0; c < 9; c++) grid[r * 9 + c] = transpose ? solved[cols[c] * 9 + rows[r]] : solved[rows[r] * 9 + cols[c]];
  }
  return { grid, nodes };
}

/** One minimal puzzle with a unique solution from puzzle seed `seed`. */
async function onePuzzle(engine: SudokuEngine, seed: number, symmetric: boolean, maxMemory: number, signal?: AbortSignal): Promise<GeneratedPuzzle & { totalNodes: number }> {
  const random = mulberry32(seed);
  let totalNodes = 0;
  for (let attempt = 1; ; attempt++) {
    const { grid: solution, nodes: filled } = await fullGrid(engine, random, maxMemory, signal);
    totalNodes += filled;
    const cells = solution.slice();
    // The cells in a random order: with `symmetric`, one of each pair (the centre alone).
    const order = shuffle(Array.from({ length: symmetric ? 41 : 81 }, (_, i) => i), random);
    for (const cell of order) {
      const mirror = symmetric ? 80 - cell : cell;
      const kept = [cells[cell], cells[mirror]];
      cells[cell] = 0;
      cells[mirror] = 0;
      const { count, nodes } = await search(engine, cells, 2, maxMemory, signal);
      totalNodes += nodes;
      if (count !== 1) [cells[cell], cells[mirror]] = kept;
    }
    let minimal = true;
    if (symmetric) {
      // A clue that can go alone makes the puzzle not minimal.
      for (let cell = 0; cell < 81 && minimal; cell++) {
        if (cells[cell] === 0 || cells[80 - cell] === 0 || cell === 40) continue;
        const digit = cells[cell];
        cells[cell] = 0;
        const { count, nodes } = await search(engine, cells, 2, maxMemory, signal);
        totalNodes += nodes;
        cells[cell] = digit;
        if (count === 1) minimal = false;
      }
    }
    if (!minimal) continue;
    const proof = await search(engine, cells, 2, maxMemory, signal);
    totalNodes += proof.nodes;
    return {
      puzzle: lineOf(cells),
      solution: lineOf(solution),
      clues: cells.reduce((n, digit) => n + (digit !== 0 ? 1 : 0), 0),
      nodes: proof.nodes,
      attempts: attempt,
      totalNodes,
    };
  }
}

/** Generates puzzles `from` .. `from + count - 1` of a seed; progress after each. */
export async function generatePuzzles(
  settings: { seed: number; symmetric: boolean; from: number; count: number; engine: EngineKind; maxMemory: number },
  signal?: AbortSignal,
  onPuzzle?: () => void,
): Promise<{ puzzles: GeneratedPuzzle[]; nodes: number }> {
  const { engine, release } = await openSudokuEngine(settings.engine, settings.maxMemory);
  try {
    allocPuzzles(engine, 1, 9, settings.maxMemory);
    const puzzles: GeneratedPuzzle[] = [];
    let nodes = 0;
    for (let i = settings.from; i < settings.from + settings.count; i++) {
      const { totalNodes, ...puzzle } = await onePuzzle(engine, puzzleSeed(settings.seed, i), settings.symmetric, settings.maxMemory, signal);
      puzzles.push(puzzle);
      nodes += totalNodes;
      onPuzzle?.();
    }
    return { puzzles, nodes };
  } finally {
    release();
  }
}

/**
 * K puzzles, each with exactly one solution and minimal (removing any clue leaves more than
 * one solution), reproducible from the seed; see the top of this file for the method.
 */
export async function generate(options: GenerateOptions = {}): Promise<GenerateResult> {
  const started = performance.now();
  options = checkOptions(options, GENERATE_KEYS, 'sudoku.generate');
  const { count, seed, symmetric } = checkGenerateOptions(options);
  const engine = checkEngine(options.engine);
  const maxMemory = checkMaxMemory(options.maxMemory);
  let done = 0;
  options.onProgress?.({ done, total: count });
  const { puzzles, nodes } = await generatePuzzles({ seed, symmetric, from: 0, count, engine, maxMemory }, options.signal, () =>
    options.onProgress?.({ done: ++done, total: count }),
  );
  return { seed, symmetric, puzzles, stats: { nodes: BigInt(nodes), milliseconds: performance.now() - started, threads: 1, parts: 1 } };
}
