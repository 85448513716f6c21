// Independent oracles for the tests: written plainly, sharing no code with the library.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { expect, onTestFinished } from 'vitest';
import { BitpuzzleError, type cover } from '../dist/index.js';

/** Every solution of an n×n board extending the given queens, by plain backtracking over rows. */
export function bruteForceSolutions(n: number, fixed: Array<[number, number]> = []): number[][] {
  const preset = new Map(fixed);
  const out: number[][] = [];
  const cols: number[] = [];
  const safe = (row: number, col: number): boolean =>
    cols.every((c, r) => c !== col && Math.abs(c - col) !== row - r);
  const place = (row: number): void => {
    if (row === n) {
      out.push(cols.slice());
      return;
    }
    for (let col = 0; col < n; col++) {
      if (preset.has(row) && preset.get(row) !== col) continue;
      if (!safe(row, col)) continue;
      cols.push(col);
      place(row + 1);
      cols.pop();
    }
  };
  place(0);
  return out;
}

/** True when no two queens attack each other and each row has one. */
export function isValidSolution(columns: ArrayLike<number>): boolean {
  const n = columns.length;
  const seenCols = new Set<number>();
  const seenDiag = new Set<number>();
  const seenAnti = new Set<number>();
  for (let row = 0; row < n; row++) {
    const col = columns[row];
    if (!Number.isInteger(col) || col < 0 || col >= n) return false;
    if (seenCols.has(col) || seenDiag.has(row - col) || seenAnti.has(row + col)) return false;
    seenCols.add(col);
    seenDiag.add(row - col);
    seenAnti.add(row + col);
  }
  return true;
}

/** The 8 images of a solution under the board's symmetries, as column lists. */
export function images(columns: number[]): number[][] {
  const n = columns.length;
  const toColumns = (squares: Array<[number, number]>): number[] => {
    const out = new Array<number>(n);
    for (const [r, c] of squares) out[r] = c;
    return out;
  };
  const squares: Array<[number, number]> = columns.map((c, r) => [r, c]);
  const maps: Array<(r: number, c: number) => [number, number]> = [
    (r, c) => [r, c],
    (r, c) => [c, n - 1 - r],
    (r, c) => [n - 1 - r, n - 1 - c],
    (r, c) => [n - 1 - c, r],
    (r, c) => [r, n - 1 - c],
    (r, c) => [n - 1 - r, c],
    (r, c) => [c, r],
    (r, c) => [n - 1 - c, n - 1 - r],
  ];
  return maps.map((map) => toColumns(squares.map(([r, c]) => map(r, c))));
}

/** The columns of every solution an iterator yields. */
export async function columnsOf(solutions: AsyncIterable<{ columns: number[] }>): Promise<number[][]> {
  const out: number[][] = [];
  for await (const s of solutions) out.push(s.columns);
  return out;
}

export const key = (columns: ArrayLike<number>): string => Array.from(columns).join(',');

/** Lexicographic comparison of two column lists. */
export function compareColumns(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** A small deterministic generator (mulberry32) so random tests repeat exactly. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Non-attacking queens placed at random on an n×n board (some rows empty). */
export function randomPartialBoard(n: number, queens: number, next: () => number): Array<[number, number]> {
  const placed: Array<[number, number]> = [];
  for (let tries = 0; placed.length < queens && tries < 200; tries++) {
    const r = Math.floor(next() * n);
    const c = Math.floor(next() * n);
    const clash = placed.some(([pr, pc]) => pr === r || pc === c || Math.abs(pr - r) === Math.abs(pc - c));
    if (!clash) placed.push([r, c]);
  }
  return placed;
}

/** A board picture with queens at the given squares. */
export function boardText(n: number, queens: Array<[number, number]>): string {
  const rows = Array.from({ length: n }, () => new Array<string>(n).fill('.'));
  for (const [r, c] of queens) rows[r][c] = 'Q';
  return rows.map((row) => row.join('')).join('\n');
}

/** The BitpuzzleError a promise rejects with (fails the test if it resolves or throws anything else). */
export async function rejection(promise: Promise<unknown>): Promise<BitpuzzleError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(BitpuzzleError);
    return error as BitpuzzleError;
  }
  throw new Error('expected a rejection');
}

/** A fresh temporary folder, removed when the test that made it finishes. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// Never blocking (test/blocking.test.ts and the families' own cases): bounds generous on
// purpose, to catch a search held on the thread for seconds, not a slow shared machine.

/** The longest the event loop may stall during a call (the standard: 50 ms slices). */
/**
 * Runs `call` as on a page that is not cross-origin isolated, where threads cannot share memory
 * (canShareMemory() is false), and puts the global back after it.
 */
export async function withoutSharedMemory<T>(call: () => Promise<T>): Promise<T> {
  const scope = globalThis as { crossOriginIsolated?: boolean };
  scope.crossOriginIsolated = false;
  try {
    return await call();
  } finally {
    delete scope.crossOriginIsolated;
  }
}

export const MAX_DELAY_MS = 250;
/** The longest from the moment the abort was due to the call's rejection. */
export const MAX_ABORT_MS = 1000;

export interface Watched {
  /** The longest stall of the event loop seen during the call, in ms. */
  maxDelay: number;
  error: unknown;
  /** From the moment the abort was due (not when its timer ran) to the call's end, in ms. */
  abortLatency: number;
}

/**
 * Runs `call` with a signal that aborts after `abortAfter` ms, watching the event loop two
 * ways: perf_hooks' delay histogram and the gaps between ticks of a 5 ms interval.
 */
export async function watch(call: (signal: AbortSignal) => Promise<unknown>, abortAfter: number): Promise<Watched> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  let last = performance.now();
  let gap = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
  }, 5);
  histogram.enable();
  const controller = new AbortController();
  const started = performance.now();
  const timer = setTimeout(() => controller.abort(), abortAfter);
  let error: unknown = null;
  try {
    await call(controller.signal);
  } catch (caught) {
    error = caught;
  }
  const ended = performance.now();
  // One more turn of timers, so that a stall just before the end is measured too.
  await new Promise((resolve) => setTimeout(resolve, 30));
  clearTimeout(timer);
  clearInterval(ticker);
  histogram.disable();
  const watched = { maxDelay: Math.max(gap, histogram.max / 1e6), error, abortLatency: ended - (started + abortAfter) };
  if (process.env.BLOCKING_LOG) console.log(`maxDelay ${watched.maxDelay.toFixed(1)} ms, abort latency ${watched.abortLatency.toFixed(1)} ms`);
  return watched;
}

/** The call was still working when the abort came, gave the loop its turns, and stopped in time. */
export async function expectAbortedPromptly(call: (signal: AbortSignal) => Promise<unknown>, abortAfter: number): Promise<void> {
  const { maxDelay, error, abortLatency } = await watch(call, abortAfter);
  expect(error).toBeInstanceOf(BitpuzzleError);
  expect((error as BitpuzzleError).code).toBe('ABORTED');
  expect(maxDelay).toBeLessThan(MAX_DELAY_MS);
  expect(abortLatency).toBeLessThan(MAX_ABORT_MS);
}

/** N-Queens as exact cover: ranks and files primary, diagonals secondary (Knuth's example). */
export function queensCover(n: number): cover.CoverProblem {
  const names = (prefix: string, count: number): string[] => Array.from({ length: count }, (_, i) => `${prefix}${i}`);
  const rows: cover.NamedRow[] = [];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) rows.push({ name: `${r},${c}`, columns: [`r${r}`, `f${c}`, `a${r + c}`, `b${r - c + n - 1}`] });
  }
  return { columns: [...names('r', n), ...names('f', n)], secondary: [...names('a', 2 * n - 1), ...names('b', 2 * n - 1)], rows };
}
