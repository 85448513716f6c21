// Batches of 9×9 puzzles: one puzzle a line, each searched up to a number of solutions
// (2 by default: none, unique or more than one), inline, on threads or on a queue.
//
// A line holds 81 cells ('1'-'9' a given, '.' or '0' empty) and anything after them (the
// public sets carry comments there); blank lines and lines starting with '#' are skipped. A
// line that is not a puzzle (too short, another character among its cells, givens that
// clash) is reported with its line number in `errors`, and every other line is answered.
import { BitpuzzleError, badInput, describeValue, isDenseArray, throwIfAborted } from '../errors.js';
import { checkThreads, runTasks, type Progress, type QueueOption } from '../parallel/pool.js';
import type { SearchStats } from '../stats.js';
import { loadEngineModule } from '../wasm/module.js';
import { memoryShare, runStepsSliced, type Steps } from '../wasm/protocol.js';
import { checkEngine, checkMaxMemory, checkOptions, type EngineKind } from '../wasm/options.js';
import { BATCH } from './engine.js';
import { findClash } from './grid.js';
import { runSudokuTask, type SudokuTask, type SudokuTaskResult } from './tasks.js';

/** Options of sudoku.batch. */
export interface BatchOptions {
  /** Solutions at which each puzzle's search stops (default 2: 0 none, 1 unique, 2 more than one). */
  limit?: number;
  /**
   * Worker threads (default: every core). A batch starts on the calling thread; when its first
   * 1,024 puzzles say the rest takes more than about 0.4 s, the rest goes to the threads.
   */
  threads?: number;
  /** Run the parts on `bitpuzzle worker` processes through this Redis queue (see README). */
  queue?: QueueOption;
  /** Stops the work; the promise rejects with code ABORTED. */
  signal?: AbortSignal;
  /** Called with the puzzles answered so far and in all (on a queue: its parts). */
  onProgress?: (progress: Progress) => void;
  /** 'wasm' (default) or the pure-TS twin 'js'. */
  engine?: EngineKind;
  /** Most bytes each engine may use (default 1 GiB, shared by the threads). */
  maxMemory?: number;
}

/** The answer for one puzzle of a batch. */
export interface BatchAnswer {
  /** The puzzle's line (from 1; for an array of puzzles, its index + 1). */
  line: number;
  /** Solutions found, up to the limit. */
  count: number;
  /** The first solution found, as 81 digits, or null when there is none. */
  solution: string | null;
  /** The search's nodes: a measure of the puzzle's difficulty for this engine. */
  nodes: number;
}

/** The answer of sudoku.batch. */
export interface BatchResult {
  /** Puzzle lines read: those answered and those reported in `errors`. */
  puzzles: number;
  /** Puzzles with exactly one solution (null with limit 1, which proves nothing unique). */
  unique: number | null;
  /** Puzzles with no solution. */
  none: number;
  /** Puzzles with two or more solutions (those that reached a limit of 2 or more). */
  multiple: number;
  /** Lines that are not puzzles. */
  invalid: number;
  /** An answer for each puzzle, in the order of the lines. */
  results: BatchAnswer[];
  /** The lines that are not puzzles, in order. */
  errors: Array<{
    /** The line (from 1; for an array of puzzles, its index + 1). */
    line: number;
    /** What is wrong with it. */
    message: string;
  }>;
  /** Stats of the batch; `nodes` sums every puzzle's. */
  stats: SearchStats;
}

const BATCH_KEYS = ['limit', 'threads', 'queue', 'signal', 'onProgress', 'engine', 'maxMemory'];
/** Puzzles a batch answers on the calling thread before it decides whether threads pay. */
const TRIAL_PUZZLES = 1024;
/** Work left (estimated from those) below which starting threads costs more than it saves. */
const THREADS_PAY_MS = 400;
/** Lines checked between turns of the event loop. */
const LINES_PER_STEP = 4096;

interface Lines {
  puzzles: string[];
  lines: number[];
  errors: Array<{ line: number; message: string }>;
  read: number;
}

/** The message for a line that is not a puzzle, or null for a puzzle. */
function lineFault(text: string, line: number): string | null {
  const cells = Math.min(81, text.length);
  for (let i = 0; i < cells; i++) {
    const code = text.charCodeAt(i);
    if (code !== 46 && (code < 48 || code > 57)) {
      return `line ${line}, column ${i + 1}: unexpected character ${describeValue(text[i])} (expected 1-9, '.' or '0')`;
    }
  }
  if (text.length < 81) return `line ${line}: ${text.length} cells, expected 81 (a puzzle a line: 1-9, '.' or '0' for an empty cell)`;
  return null;
}

function* readLines(input: string | readonly string[]): Steps<Lines> {
  const out: Lines = { puzzles: [], lines: [], errors: [], read: 0 };
  // A text's lines are cut one at a time (split('\n') of a million lines holds the thread 0.2 s).
  let start = 0;
  for (let i = 0; typeof input === 'string' ? start <= input.length : i < input.length; i++) {
    if (i % LINES_PER_STEP === LINES_PER_STEP - 1) yield;
    let text: string;
    if (typeof input === 'string') {
      const end = input.indexOf('\n', start);
      const stop = end < 0 ? input.length : end;
      text = input.slice(start, stop);
      start = stop + 1;
    } else text = input[i];
    if (typeof text !== 'string') throw badInput(`puzzles[${i}] must be a string of 81 cells, got ${describeValue(text)}`);
    if (text.charCodeAt(text.length - 1) === 13) text = text.slice(0, -1); // CRLF
    // '#' or blank (a puzzle line starts with a cell, so only a line that starts blank is trimmed).
    if (text.charCodeAt(0) === 35 || text.length === 0 || (text.charCodeAt(0) <= 32 && text.trim() === '')) continue;
    out.read++;
    const fault = lineFault(text, i + 1);
    if (fault) out.errors.push({ line: i + 1, message: fault });
    else {
      out.puzzles.push(text.length === 81 ? text : text.slice(0, 81));
      out.lines.push(i + 1);
    }
  }
  return out;
}

function checkBatchLimit(limit: unknown): number {
  if (limit === undefined) return 2;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > Number.MAX_SAFE_INTEGER) {
    throw badInput(`limit must be an integer from 1 (any solution) to ${Number.MAX_SAFE_INTEGER}, got ${describeValue(limit)}`);
  }
  return limit;
}

/** The message for puzzle text whose givens clash (the engine flags them). */
function clashMessage(text: string, line: number): string {
  const cells = new Uint8Array(81);
  for (let i = 0; i < 81; i++) {
    const code = text.charCodeAt(i);
    cells[i] = code >= 49 && code <= 57 ? code - 48 : 0;
  }
  const [first, second, unit] = findClash(cells, 3)!;
  return `line ${line}, column ${first + 1} and line ${line}, column ${second + 1} both hold ${cells[second]} in ${unit}`;
}

/**
 * Answers every puzzle of a batch: the text of a file (one puzzle a line) or an array of
 * puzzles (81-character strings). Lines that are not puzzles are reported in `errors`, the
 * rest answered; a batch with no puzzle line at all is BAD_INPUT.
 */
export async function batch(puzzles: string | readonly string[], options: BatchOptions = {}): Promise<BatchResult> {
  const started = performance.now();
  options = checkOptions(options, BATCH_KEYS, 'sudoku.batch');
  if (typeof puzzles !== 'string' && !isDenseArray(puzzles)) {
    throw badInput(`sudoku.batch takes the text of a batch or an array of puzzles, got ${describeValue(puzzles)}`);
  }
  const limit = checkBatchLimit(options.limit);
  const engine = checkEngine(options.engine);
  const maxMemory = checkMaxMemory(options.maxMemory);
  let threads = checkThreads(options.threads);
  const read = await runStepsSliced(readLines(puzzles), options.signal);
  if (read.read === 0) throw badInput('the batch has no puzzles (one a line: 81 cells, 1-9 and . or 0)');
  const n = read.puzzles.length;
  const onProgress = options.onProgress;
  const task = (from: number, to: number, memory = maxMemory): SudokuTask => ({
    engine,
    size: 9,
    puzzles: read.puzzles.slice(from, to),
    limit,
    firstSolutions: true,
    maxMemory: memory,
  });
  // On this thread, with progress counted in puzzles as the engine finishes them.
  const inline = (from: number, to: number): Promise<SudokuTaskResult> =>
    runSudokuTask(task(from, to), options.signal, (done) => onProgress?.({ done: from + done, total: n }));
  throwIfAborted(options.signal);
  let results: SudokuTaskResult[] = [];
  let threadsUsed = 1;
  if (options.queue === undefined) onProgress?.({ done: 0, total: n });
  if (options.queue === undefined && threads > 1) {
    // The first puzzles on this thread: when they say the rest is short, threads would cost
    // more to start than they save, and the rest stays here too.
    // (The first quarter warms the engine and the compiler up and is not timed.)
    const trial = Math.min(n, TRIAL_PUZZLES);
    const warm = Math.floor(trial / 4);
    if (warm > 0) results.push(await inline(0, warm));
    const trialStarted = performance.now();
    results.push(await inline(warm, trial));
    const estimate = ((performance.now() - trialStarted) / (trial - warm)) * (n - trial);
    if (estimate < THREADS_PAY_MS) threads = 1;
    if (trial < n && threads === 1) results.push(await inline(trial, n));
    else if (trial < n) {
      // Parts: eight a thread at least, at most BATCH puzzles each.
      const rest = n - trial;
      const size = Math.max(1, Math.min(BATCH, Math.ceil(rest / (8 * threads))));
      const share = memoryShare(maxMemory, Math.min(threads, Math.ceil(rest / size)));
      const tasks: SudokuTask[] = [];
      for (let from = trial; from < n; from += size) tasks.push(task(from, Math.min(n, from + size), share));
      threadsUsed = Math.min(threads, tasks.length);
      results.push(
        ...(await runTasks({
          tasks,
          threads,
          kind: 'sudoku',
          runInline: (part: SudokuTask, signal?: AbortSignal) => runSudokuTask(part, signal),
          engineModule: engine === 'wasm' ? await loadEngineModule() : undefined,
          signal: options.signal,
          onProgress: onProgress && ((p: Progress) => onProgress({ done: Math.min(n, trial + p.done * size), total: n })),
        })),
      );
    }
  } else if (options.queue === undefined) {
    results = [await inline(0, n)];
  } else {
    // A queue: parts of a whole engine batch; its progress counts parts (with its workers and the parts reused).
    const tasks: SudokuTask[] = [];
    for (let from = 0; from < n; from += BATCH) tasks.push(task(from, Math.min(n, from + BATCH)));
    if (tasks.length > 0) results = await runTasks({ tasks, threads: 1, kind: 'sudoku', queue: options.queue, runInline: runSudokuTask, signal: options.signal, onProgress });
  }
  return runStepsSliced(collect(read, results, limit, { started, threads: threadsUsed, parts: Math.max(1, results.length) }), options.signal);
}

/** The answers in puzzle order, as steps of 16,384 puzzles (a batch may hold millions). */
function* collect(read: Lines, parts: SudokuTaskResult[], limit: number, run: { started: number; threads: number; parts: number }): Steps<BatchResult> {
  const results: BatchAnswer[] = [];
  const errors = read.errors.slice();
  let unique = 0;
  let none = 0;
  let multiple = 0;
  let nodes = 0;
  let k = 0;
  for (const part of parts) {
    for (let i = 0; i < part.counts.length; i++, k++) {
      if ((k & 0x3fff) === 0) yield;
      nodes += part.nodes[i];
      if (part.clashes[i] !== 0) {
        errors.push({ line: read.lines[k], message: clashMessage(read.puzzles[k], read.lines[k]) });
        continue;
      }
      const count = part.counts[i];
      if (count === 0) none++;
      else if (count === 1) unique++;
      else multiple++;
      results.push({ line: read.lines[k], count, solution: part.solutions[i], nodes: part.nodes[i] });
    }
  }
  if (k !== read.puzzles.length) throw new BitpuzzleError('ENGINE_FAILURE', `the batch answered ${k} of ${read.puzzles.length} puzzles`);
  errors.sort((a, b) => a.line - b.line);
  return {
    puzzles: read.read,
    unique: limit === 1 ? null : unique,
    none,
    multiple,
    invalid: errors.length,
    results,
    errors,
    stats: { nodes: BigInt(nodes), milliseconds: performance.now() - run.started, threads: run.threads, parts: run.parts },
  };
}
