// The task kinds: for each family that cuts its work into parts, the check a part coming from
// outside this process (a job queue) must pass before an engine sees it, and what of a part only
// makes sense on this machine. The worker threads run the parts (parallel/runners.ts); the queue
// worker checks them here first. With runners.ts, the one module of parallel/ that knows the families.
// Values of a part are untrusted (BigInts among them): messages print them with describeValue.
import { badInput, describeValue } from '../errors.js';
import type { CoverTask } from '../cover/tasks.js';
import { MAX_COLUMNS, MAX_ENTRIES, MAX_ROWS } from '../cover/problem.js';
import { checkTogetherTask } from '../pegs/together.js';
import { checkPieceSet, piecesFromSpecs } from '../polyomino/pieces.js';
import { prepare as preparePolyomino } from '../polyomino/problem.js';
import type { TilingTask } from '../polyomino/tasks.js';
import { MAX_JOIN_N, MAX_SEARCH_N, MIN_JOIN_N, MODE_ALL, MODE_DISTINCT } from '../queens/engine.js';
import { MAX_CONSTELLATION_N, MIN_CONSTELLATION_N, isConstellation } from '../queens/constellations.js';
import { joinSidesFit, type QueensTask } from '../queens/tasks.js';
import { NRPA_ITERATIONS, NRPA_MAX_BEAM, type ScoreTask } from '../samegame/tasks.js';
import { CONFLICT, MANHATTAN, MAX_OPTIMAL_CELLS, PATTERNS } from '../sliding/engine.js';
import { checkSolvable, toBoard } from '../sliding/parse.js';
import { MAX_PATTERN_CELLS, MIN_PATTERN_CELLS, patternSet } from '../sliding/patterns.js';
import type { FastBatchTask } from '../sliding/solve.js';
import type { OptimalBatchTask, SplitTask } from '../sliding/tasks.js';
import { BATCH as SUDOKU_BATCH } from '../sudoku/engine.js';
import type { SudokuTask } from '../sudoku/tasks.js';
import type { TaskKindName } from './pool.js';

export interface TaskKind {
  /** The task rebuilt from untrusted data (decoded JSON), or BAD_INPUT naming what is wrong. */
  check(value: unknown): unknown;
  /** The task as sent to another machine: what only makes sense on this one removed. */
  portable?(task: never): unknown;
}

/** The most memory a part from outside may ask for (the Wasm limit). */
const MAX_MEMORY_LIMIT = 2 ** 32;

// ---- small checks --------------------------------------------------------------------------

type Fields = Record<string, unknown>;

function object(value: unknown, what: string, keys?: readonly string[]): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badInput(`${what} must be an object`);
  if (keys) {
    const extra = Object.keys(value).find((key) => !keys.includes(key));
    if (extra !== undefined) throw badInput(`${what} has an unknown field ${describeValue(extra)}`);
  }
  return value as Fields;
}

function integer(value: unknown, what: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw badInput(`${what} must be an integer from ${min} to ${max}, got ${describeValue(value)}`);
  }
  return value;
}

function integers(value: unknown, what: string, min: number, max: number, maxLength: number): number[] {
  if (!Array.isArray(value) || value.length > maxLength) throw badInput(`${what} must be a list of at most ${maxLength} integers`);
  value.forEach((v, i) => integer(v, `${what}[${i}]`, min, max));
  return value as number[];
}

function oneOf<T>(value: unknown, what: string, choices: readonly T[]): T {
  if (!choices.includes(value as T)) throw badInput(`${what} must be one of ${choices.map((c) => JSON.stringify(c)).join(', ')}`);
  return value as T;
}

const engineKind = (value: unknown): 'wasm' | 'js' => oneOf(value, 'engine', ['wasm', 'js'] as const);
const memory = (value: unknown): number => integer(value, 'maxMemory', 65536, MAX_MEMORY_LIMIT);
/** A limit: a positive number, or Infinity for none. */
function limit(value: unknown, what: string): number {
  if (value === Infinity) return value;
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) throw badInput(`${what} must be a positive number`);
  return value;
}

// ---- the kinds -----------------------------------------------------------------------------

function checkQueens(value: unknown): QueensTask {
  if (typeof value === 'object' && value !== null && 'constellations' in value) return checkQueensConstellations(value);
  if (typeof value === 'object' && value !== null && 'join' in value) return checkQueensJoin(value);
  const task = object(value, 'a queens part', ['engine', 'n', 'mode', 'allowed']);
  const n = integer(task.n, 'n', 1, MAX_SEARCH_N);
  return {
    engine: engineKind(task.engine),
    n,
    mode: oneOf(task.mode, 'mode', [MODE_ALL, MODE_DISTINCT] as const),
    allowed: integers(task.allowed, 'allowed', 0, 2 ** n - 1, n).length === n ? (task.allowed as number[]) : badLength('allowed', n),
  };
}

function checkQueensConstellations(value: unknown): QueensTask {
  const task = object(value, 'a queens part', ['engine', 'n', 'constellations']);
  const n = integer(task.n, 'n', MIN_CONSTELLATION_N, MAX_CONSTELLATION_N);
  const list = integers(task.constellations, 'constellations', 0, 2 ** 20 - 1, 2 ** 20);
  const bad = list.findIndex((code) => !isConstellation(n, code));
  if (bad >= 0) throw badInput(`constellations[${bad}] is not a constellation of the ${n}×${n} board, got ${describeValue(list[bad])}`);
  return { engine: engineKind(task.engine), n, constellations: list };
}

function checkQueensJoin(value: unknown): QueensTask {
  const task = object(value, 'a queens part', ['engine', 'n', 'join', 'maxMemory']);
  const n = integer(task.n, 'n', MIN_JOIN_N, MAX_JOIN_N);
  const join = object(task.join, 'join', ['prefix', 'rows']);
  const prefix = integer(join.prefix, 'join.prefix', 1, n);
  const rows = integers(join.rows, 'join.rows', 0, 2 ** prefix - 1, 2 ** 20);
  // Row 0 east for even n (the engine counts the mirror image of row 0 west).
  const bad = rows.findIndex((mask) => n % 2 === 0 && (mask & 1) === 0);
  if (bad >= 0) throw badInput(`join.rows[${bad}] leaves row 0 west, which the join of an even board does not count`);
  const crowded = rows.findIndex((mask) => !joinSidesFit(n, prefix, mask));
  if (crowded >= 0) throw badInput(`join.rows[${crowded}] puts more rows on one side than it has columns (${n - (n >> 1)} east, ${n >> 1} west)`);
  return { engine: engineKind(task.engine), n, join: { prefix, rows }, maxMemory: memory(task.maxMemory) };
}

function badLength(what: string, length: number): never {
  throw badInput(`${what} must have ${length} items`);
}

/** Specs checked lately, by their JSON: a problem's parts all carry the same spec (~1.5 ms to check). */
const checkedSpecs = new Map<string, ReturnType<typeof preparePolyomino>>();

function checkPolyomino(value: unknown): TilingTask {
  const task = object(value, 'a polyomino part', ['engine', 'spec', 'part', 'maxMemory']);
  const key = JSON.stringify(task.spec);
  let prepared = checkedSpecs.get(key);
  if (!prepared) {
    prepared = checkPolyominoSpec(task.spec);
    if (checkedSpecs.size >= 8) checkedSpecs.delete(checkedSpecs.keys().next().value!);
    checkedSpecs.set(key, prepared);
  }
  const part = object(task.part, 'part', ['pre', 'weight', 'mask']);
  const pre = integers(part.pre, 'part.pre', 0, prepared.placements.length - 1, prepared.pieces.reduce((sum, p) => sum + p.count, 0));
  if (new Set(pre).size !== pre.length) throw badInput('part.pre lists a placement twice');
  return {
    engine: engineKind(task.engine),
    spec: prepared.spec,
    part: { pre, weight: integer(part.weight, 'part.weight', 1, 1024), mask: integer(part.mask, 'part.mask', 0, 2 ** prepared.symmetries.length - 1) },
    maxMemory: memory(task.maxMemory),
  };
}

function checkPolyominoSpec(value: unknown): ReturnType<typeof preparePolyomino> {
  const spec = object(value, 'spec', ['region', 'pieces']);
  if (typeof spec.region !== 'string' || spec.region.length > 1 << 20) throw badInput('spec.region must be a region picture');
  if (!Array.isArray(spec.pieces) || spec.pieces.length > 4096) throw badInput('spec.pieces must be a list of pieces');
  // The pieces are rebuilt by the API's own checks; their cells come back normalised.
  const pieces = piecesFromSpecs(
    spec.pieces.map((value, i) => {
      const piece = object(value, `piece ${i + 1}`, ['name', 'cells', 'oneSided', 'count', 'atMost']);
      if (typeof piece.oneSided !== 'boolean' || typeof piece.atMost !== 'boolean') throw badInput(`piece ${i + 1}: oneSided and atMost are booleans`);
      return { name: piece.name as string, shape: piece.cells as [number, number][], oneSided: piece.oneSided, count: piece.count as number, atMost: piece.atMost };
    }),
  );
  checkPieceSet(pieces);
  return preparePolyomino({ region: spec.region, pieces });
}

function checkCover(value: unknown): CoverTask {
  const task = object(value, 'a cover part', ['engine', 'matrix', 'forced', 'maxMemory']);
  const matrix = object(task.matrix, 'matrix', ['primary', 'secondary', 'rowStarts', 'cells']);
  const primary = integer(matrix.primary, 'matrix.primary', 0, MAX_COLUMNS);
  const secondary = integer(matrix.secondary, 'matrix.secondary', 0, MAX_COLUMNS - primary);
  const { rowStarts, cells } = matrix;
  if (!(rowStarts instanceof Int32Array) || rowStarts.length < 1 || rowStarts.length > MAX_ROWS + 1) throw badInput('matrix.rowStarts must be an Int32Array');
  if (!(cells instanceof Int32Array) || cells.length > MAX_ENTRIES) throw badInput('matrix.cells must be an Int32Array');
  if (rowStarts[0] !== 0 || rowStarts[rowStarts.length - 1] !== cells.length) throw badInput('matrix.rowStarts must run from 0 to the number of cells');
  const columns = primary + secondary;
  for (let r = 0; r + 1 < rowStarts.length; r++) {
    if (rowStarts[r + 1] < rowStarts[r]) throw badInput(`matrix row ${r} ends before it starts`);
    for (let i = rowStarts[r]; i < rowStarts[r + 1]; i++) {
      // Columns ascending within a row: in range and never twice.
      if (cells[i] < 0 || cells[i] >= columns || (i > rowStarts[r] && cells[i] <= cells[i - 1])) {
        throw badInput(`matrix row ${r}: columns must be distinct, ascending and below ${columns}`);
      }
    }
  }
  const forced = integers(task.forced, 'forced', 0, rowStarts.length - 2, rowStarts.length - 1);
  if (new Set(forced).size !== forced.length) throw badInput('forced lists a row twice');
  return { engine: engineKind(task.engine), matrix: { primary, secondary, rowStarts, cells }, forced, maxMemory: memory(task.maxMemory) };
}

function checkSliding(value: unknown): OptimalBatchTask | FastBatchTask {
  const fields = object(value, 'a sliding part');
  if ('fast' in fields) return checkFastBatch(fields);
  if ('split' in fields) throw badInput("parts of one board's search run on this machine's threads, not on a queue");
  if ('table' in fields) throw badInput("a pattern database is built on this machine's threads, not on a queue");
  const task = object(value, 'a sliding part', ['settings', 'instances']);
  const settings = object(task.settings, 'settings', ['engine', 'heuristic', 'patterns', 'nodeLimit', 'timeLimit', 'maxMemory', 'cacheDir', 'tables']);
  const heuristic = oneOf(settings.heuristic, 'settings.heuristic', [MANHATTAN, CONFLICT, PATTERNS] as const);
  if (!Array.isArray(task.instances) || task.instances.length === 0 || task.instances.length > 1024) throw badInput('instances must be a list of 1 to 1024 boards');
  const instances = task.instances.map((value, i) => {
    const what = `instance ${i + 1}`;
    const instance = object(value, what, ['rows', 'cols', 'labels', 'blankGoal']);
    const rows = integer(instance.rows, `${what}: rows`, 2, MAX_OPTIMAL_CELLS);
    const cols = integer(instance.cols, `${what}: cols`, 2, MAX_OPTIMAL_CELLS);
    const n = rows * cols;
    if (n > MAX_OPTIMAL_CELLS) throw badInput(`${what}: at most ${MAX_OPTIMAL_CELLS} cells`);
    const labels = integers(instance.labels, `${what}: labels`, 0, n - 1, n);
    if (labels.length !== n || new Set(labels).size !== n) throw badInput(`${what}: labels must be a permutation of the cells`);
    const blankGoal = integer(instance.blankGoal, `${what}: blankGoal`, 0, n - 1);
    checkParity(rows, cols, labels, blankGoal, what);
    return { rows, cols, labels, blankGoal };
  });
  const { rows, cols, blankGoal } = instances[0];
  if (instances.some((i) => i.rows !== rows || i.cols !== cols || i.blankGoal !== blankGoal)) throw badInput('the instances of a part share one size and goal');
  if (heuristic === PATTERNS && (rows * cols < MIN_PATTERN_CELLS || rows * cols > MAX_PATTERN_CELLS)) {
    throw badInput(`pattern databases are built for boards of ${MIN_PATTERN_CELLS} to ${MAX_PATTERN_CELLS} cells`);
  }
  return {
    settings: {
      engine: engineKind(settings.engine),
      heuristic,
      // Rebuilt here, from the size: never taken from the payload. Tables come from this
      // machine's cache (or are built), never from a path or bytes of the sender's.
      patterns: heuristic === PATTERNS ? patternSet(rows, cols, blankGoal, rows * cols === 16 && packed(settings.patterns) ? '7-8' : '6-6-3', packed(settings.patterns)) : null,
      nodeLimit: limit(settings.nodeLimit, 'settings.nodeLimit'),
      timeLimit: limit(settings.timeLimit, 'settings.timeLimit'),
      maxMemory: memory(settings.maxMemory),
    },
    instances,
  };
}

/** The sender's choice of packed tables (the 15-puzzle's 7-8; above 16 cells, those that follow the blank): the set itself is rebuilt here. */
function packed(patterns: unknown): boolean {
  const flag = typeof patterns === 'object' && patterns !== null ? (patterns as { packed?: unknown }).packed : undefined;
  if (flag !== undefined && typeof flag !== 'boolean') throw badInput('settings.patterns.packed must be true or false');
  return flag === true;
}

/** The slide parity rule: a permutation's parity matches the blank's distance from its goal. */
function checkParity(rows: number, cols: number, labels: number[], blankGoal: number, what: string): void {
  const seen = new Uint8Array(labels.length);
  let odd = 0;
  for (let i = 0; i < labels.length; i++) {
    let length = 0;
    for (let j = i; !seen[j]; j = labels[j]) {
      seen[j] = 1;
      length++;
    }
    if (length > 0) odd ^= (length - 1) & 1;
  }
  const blankAt = labels.indexOf(blankGoal);
  const distance = Math.abs(Math.floor(blankAt / cols) - Math.floor(blankGoal / cols)) + Math.abs((blankAt % cols) - (blankGoal % cols));
  if (odd !== (distance & 1) || rows * cols !== labels.length) throw badInput(`${what}: the board cannot reach its goal`);
}

function checkFastBatch(fields: Fields): FastBatchTask {
  const task = object(fields, 'a sliding part', ['fast', 'options', 'instances']);
  if (task.fast !== true) throw badInput('fast must be true');
  const options = object(task.options, 'options', ['engine', 'maxMemory', 'lengthOnly']);
  if (options.lengthOnly !== undefined && typeof options.lengthOnly !== 'boolean') throw badInput('options.lengthOnly must be a boolean');
  if (!Array.isArray(task.instances) || task.instances.length === 0 || task.instances.length > 1024) throw badInput('instances must be a list of 1 to 1024 boards');
  const instances = task.instances.map((value, i) => {
    const instance = object(value, `instance ${i + 1}`, ['board', 'goal']);
    const board = toBoard(object(instance.board, `instance ${i + 1}: board`, ['rows', 'cols', 'tiles']) as never);
    const goal = toBoard(object(instance.goal, `instance ${i + 1}: goal`, ['rows', 'cols', 'tiles']) as never);
    if (goal.rows !== board.rows || goal.cols !== board.cols) throw badInput(`instance ${i + 1}: the goal has another size`);
    if (board.rows * board.cols > 40_000 && !options.lengthOnly) throw badInput(`instance ${i + 1}: too large to return its moves`);
    checkSolvable(board, goal);
    return { board, goal };
  });
  return {
    fast: true,
    options: {
      engine: options.engine === undefined ? undefined : engineKind(options.engine),
      maxMemory: options.maxMemory === undefined ? undefined : memory(options.maxMemory),
      lengthOnly: options.lengthOnly as boolean | undefined,
    },
    instances,
  };
}

function checkSameGame(value: unknown): ScoreTask {
  const task = object(value, 'a samegame part', ['method', 'cells', 'width', 'height', 'seed', 'deadline', 'maxNodes', 'beams', 'sizedOnce', 'fixedTabu', 'level', 'playouts', 'nrpaBeam', 'maxMemory', 'known', 'knownScore', 'above']);
  const method = oneOf(task.method, 'method', ['beam', 'nrpa'] as const);
  if (task.sizedOnce !== undefined && typeof task.sizedOnce !== 'boolean') throw badInput('sizedOnce must be true or false');
  if (task.sizedOnce === true && method === 'nrpa') throw badInput('sizedOnce is for beam parts');
  if (task.fixedTabu !== undefined && typeof task.fixedTabu !== 'boolean') throw badInput('fixedTabu must be true or false');
  if (task.fixedTabu === true && method === 'nrpa') throw badInput('fixedTabu is for beam parts');
  const width = integer(task.width, 'width', 1, 64);
  const height = integer(task.height, 'height', 1, 64);
  const cells = integers(task.cells, 'cells', 0, 255, width * height);
  if (cells.length !== width * height) badLength('cells', width * height);
  if (task.deadline !== null) throw badInput('a part from outside runs with maxNodes, not a deadline');
  return {
    method,
    cells,
    width,
    height,
    seed: integer(task.seed, 'seed', 0, 2 ** 32 - 1),
    deadline: null,
    maxNodes: integer(task.maxNodes, 'maxNodes', 1, Number.MAX_SAFE_INTEGER),
    beams: integers(task.beams, 'beams', 1, 65536, 64),
    ...(task.sizedOnce === undefined ? {} : { sizedOnce: task.sizedOnce as boolean }),
    ...(task.fixedTabu === undefined ? {} : { fixedTabu: task.fixedTabu as boolean }),
    level: method === 'nrpa' ? integer(task.level, 'level', 1, 6) : integer(task.level, 'level', 0, 1),
    playouts: integer(task.playouts, 'playouts', 1, 64),
    nrpaBeam: method === 'nrpa' ? integer(task.nrpaBeam, 'nrpaBeam', 1, NRPA_MAX_BEAM) : integer(task.nrpaBeam, 'nrpaBeam', 1, 1),
    maxMemory: memory(task.maxMemory),
    // The engine replays the line and refuses one that hits no group; the host replays the result.
    known: integers(task.known, 'known', 0, width * height - 1, Math.floor((width * height) / 2)),
    knownScore: integer(task.knownScore, 'knownScore', -1, 2 ** 30),
    ...(task.above === undefined ? {} : { above: aboveLines(task.above, method, width * height) }),
  };
}

/** A parallel NRPA part's lines of the level above (engine cells; the engine refuses one that hits no group). */
function aboveLines(value: unknown, method: string, cells: number): number[][] {
  if (method !== 'nrpa') throw badInput('above is for NRPA parts');
  if (!Array.isArray(value) || value.length > NRPA_ITERATIONS) throw badInput(`above must be a list of at most ${NRPA_ITERATIONS} lines`);
  return value.map((line, i) => integers(line, `above[${i}]`, 0, cells - 1, Math.floor(cells / 2)));
}

/** A puzzle of a part: 81 characters of 1-9, '.' or '0', or 256 of 1-9, A-G, '.' or '0'. */
const PUZZLE_LINE: Record<number, RegExp> = { 9: /^[0-9.]{81}$/, 16: /^[0-9A-G.]{256}$/ };

function checkSudoku(value: unknown): SudokuTask {
  const task = object(value, 'a sudoku part', ['engine', 'size', 'puzzles', 'limit', 'firstSolutions', 'maxMemory']);
  const size = oneOf(task.size, 'size', [9, 16] as const);
  if (!Array.isArray(task.puzzles) || task.puzzles.length === 0 || task.puzzles.length > SUDOKU_BATCH) {
    throw badInput(`puzzles must be a list of 1 to ${SUDOKU_BATCH} puzzles`);
  }
  task.puzzles.forEach((line, i) => {
    if (typeof line !== 'string' || !PUZZLE_LINE[size].test(line)) throw badInput(`puzzles[${i}] must be a ${size}×${size} puzzle on one line`);
  });
  if (typeof task.firstSolutions !== 'boolean') throw badInput('firstSolutions must be true or false');
  return {
    engine: engineKind(task.engine),
    size,
    puzzles: task.puzzles as string[],
    limit: integer(task.limit, 'limit', 0, Number.MAX_SAFE_INTEGER),
    firstSolutions: task.firstSolutions,
    maxMemory: memory(task.maxMemory),
  };
}

export const TASK_KINDS: Record<TaskKindName, TaskKind> = {
  queens: { check: checkQueens },
  polyomino: { check: checkPolyomino },
  cover: { check: checkCover },
  sliding: {
    check: checkSliding,
    portable: (task: OptimalBatchTask | FastBatchTask | SplitTask) =>
      'fast' in task ? task : { ...task, settings: { ...task.settings, cacheDir: undefined, tables: undefined } },
  },
  samegame: { check: checkSameGame },
  sudoku: { check: checkSudoku },
  pegs: { check: checkTogetherTask },
};

export function taskKind(name: unknown): TaskKind {
  if (typeof name !== 'string' || !Object.hasOwn(TASK_KINDS, name)) throw badInput(`unknown kind of part ${describeValue(name)}`);
  return TASK_KINDS[name as TaskKindName];
}
