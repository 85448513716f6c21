// Exact-cover problems as plain data, checked and turned into the matrix the engines read.
// The text format (parse.ts) goes through the same builder, naming lines and columns.
import { badInput, describeValue, isDenseArray } from '../errors.js';
import { checkKeys } from '../wasm/options.js';
import { runSteps, type Steps } from '../wasm/protocol.js';
import type { CoverMatrix } from './engine.js';

/** Largest problems accepted: the engines index nodes with 32-bit ints (32 bytes a node). */
export const MAX_COLUMNS = 1 << 20;
/** Most rows (2^24). */
export const MAX_ROWS = 1 << 24;
/** Most entries (column references) in all rows together (2^24). */
export const MAX_ENTRIES = 1 << 24;

/** A column by name, or by its index in the primary columns followed by the secondary ones. */
export type ColumnRef = string | number;

/** A row with a name, which solutions then report. */
export interface NamedRow {
  /** The row's name. */
  name: string;
  /** The columns the row covers. */
  columns: readonly ColumnRef[];
}

/** An exact-cover problem as plain data. */
export interface CoverProblem {
  /** The primary columns (each covered exactly once): their names, or how many. */
  columns: number | readonly string[];
  /** Secondary columns (covered at most once): names, or how many; indices follow the primary ones. */
  secondary?: number | readonly string[];
  /** Each row: the columns it covers, optionally with a name. */
  rows: ReadonlyArray<readonly ColumnRef[] | NamedRow>;
  /** Rows that every solution must contain (by index or name), such as the givens of a puzzle. */
  given?: readonly ColumnRef[];
}

/** A checked problem: the matrix plus what is needed to name its rows and columns. */
export interface PreparedCover {
  /** The rows as the engines read them. */
  matrix: CoverMatrix;
  /** Every column's name: the primary columns, then the secondary ones. */
  columnNames: string[];
  /** Row names when any row has one (unnamed rows are named by their index), else null. */
  rowNames: string[] | null;
  /** Rows forced into every solution. */
  given: number[];
  /** Why there can be no solution before any search (a primary column no row covers), else null. */
  reason: string | null;
  /** For text input: the line (1-based) of each row. */
  lines?: number[];
}

/** What the API accepts: plain data, the text format, or a problem prepared earlier. */
export type CoverInput = CoverProblem | string | PreparedCover;

/** Says where an item of a row stands in the input, for messages. */
export type Where = (item: number) => string;

/** Collects columns and rows, rejecting what cannot be an exact-cover matrix. */
export class MatrixBuilder {
  readonly columnNames: string[] = [];
  private readonly index = new Map<string, number>();
  private primary = 0;
  private readonly starts: number[] = [0];
  private readonly cells: number[] = [];
  private seen = new Int32Array(0);
  readonly rowNames: Array<string | null> = [];
  private named = false;

  /** Declares columns by name; `where(i)` names the i-th for messages. Primary ones first. */
  declare(names: readonly string[], kind: 'primary' | 'secondary', where: Where, firstSeen?: (column: number) => string): void {
    if (kind === 'primary' && this.columnNames.length > this.primary) {
      throw badInput(`${where(0)}: primary columns must be declared before the secondary ones`);
    }
    names.forEach((name, i) => {
      if (typeof name !== 'string' || name === '') throw badInput(`${where(i)}: a column name must be a non-empty string, got ${describeValue(name)}`);
      const earlier = this.index.get(name);
      if (earlier !== undefined) {
        throw badInput(`${where(i)}: column "${name}" is declared twice${firstSeen ? ` (first ${firstSeen(earlier)})` : ''}`);
      }
      if (this.columnNames.length >= MAX_COLUMNS) throw badInput(`${where(i)}: more than ${MAX_COLUMNS} columns`);
      this.index.set(name, this.columnNames.length);
      this.columnNames.push(name);
    });
    if (kind === 'primary') this.primary = this.columnNames.length;
  }

  /** Declares `count` unnamed columns, named by their index. */
  declareCount(count: number, kind: 'primary' | 'secondary'): void {
    const what = kind === 'primary' ? 'columns' : 'secondary';
    if (!Number.isInteger(count) || count < 0 || this.columnNames.length + count > MAX_COLUMNS) {
      throw badInput(`${what} must be an integer from 0 to ${MAX_COLUMNS} or an array of names, got ${describeValue(count)}`);
    }
    const start = this.columnNames.length;
    for (let i = 0; i < count; i++) this.columnNames.push(String(start + i));
    if (kind === 'primary') this.primary = this.columnNames.length;
  }

  get rowCount(): number {
    return this.rowNames.length;
  }

  /** Adds a row; `where(i)` names its i-th column reference, `whole` the row itself ("rows[3]"). */
  addRow(refs: readonly ColumnRef[], name: string | null, where: Where, whole: string): void {
    if (refs.length === 0) throw badInput(`${whole} covers no column (a row needs at least one)`);
    if (this.rowNames.length >= MAX_ROWS) throw badInput(`${whole}: more than ${MAX_ROWS} rows`);
    if (this.cells.length + refs.length > MAX_ENTRIES) throw badInput(`${whole}: more than ${MAX_ENTRIES} entries in all rows`);
    const row = this.rowNames.length + 1; // stamps in `seen` are row numbers from 1
    const seen = this.seenArray();
    let primary = false;
    refs.forEach((ref, i) => {
      const column = this.resolve(ref, where(i));
      if (seen[column] === row) throw badInput(`${where(i)}: column "${this.columnNames[column]}" is repeated in the row`);
      seen[column] = row;
      primary ||= column < this.primary;
      this.cells.push(column);
    });
    // Algorithm X reaches rows only through primary columns (Knuth asks the same of every option).
    if (!primary) throw badInput(`${whole} covers no primary column (a row needs at least one)`);
    this.starts.push(this.cells.length);
    this.rowNames.push(name);
    if (name !== null) this.named = true;
  }

  private seenArray(): Int32Array {
    if (this.seen.length < this.columnNames.length) {
      this.seen = new Int32Array(this.columnNames.length);
    }
    return this.seen;
  }

  private resolve(ref: ColumnRef, where: string): number {
    if (typeof ref === 'number') {
      if (!Number.isInteger(ref) || ref < 0 || ref >= this.columnNames.length) {
        throw badInput(`${where}: column index ${ref} is out of range (0 to ${this.columnNames.length - 1})`);
      }
      return ref;
    }
    const column = typeof ref === 'string' ? this.index.get(ref) : undefined;
    if (column === undefined) throw badInput(`${where}: unknown column ${describeValue(ref)}`);
    return column;
  }

  /** The row with this name or index, for givens. */
  findRow(ref: ColumnRef, where: string): number {
    if (typeof ref === 'number') {
      if (!Number.isInteger(ref) || ref < 0 || ref >= this.rowCount) {
        throw badInput(`${where}: row index ${ref} is out of range (0 to ${this.rowCount - 1})`);
      }
      return ref;
    }
    const row = this.rowNames.indexOf(ref);
    if (row < 0) throw badInput(`${where}: unknown row ${describeValue(ref)}`);
    return row;
  }

  /** The checked problem; givens are checked to be distinct and to share no column. */
  build(givenRows: readonly number[], describeRow: (row: number) => string): PreparedCover {
    if (this.primary === 0) throw badInput('an exact cover problem needs at least one primary column');
    const matrix: CoverMatrix = {
      primary: this.primary,
      secondary: this.columnNames.length - this.primary,
      rowStarts: Int32Array.from(this.starts),
      cells: Int32Array.from(this.cells),
    };
    const owner = new Int32Array(this.columnNames.length).fill(-1);
    for (const row of givenRows) {
      for (let k = matrix.rowStarts[row]; k < matrix.rowStarts[row + 1]; k++) {
        const column = matrix.cells[k];
        if (owner[column] === row) throw badInput(`${describeRow(row)} is given twice`);
        if (owner[column] >= 0) {
          throw badInput(`the given ${describeRow(owner[column])} and ${describeRow(row)} both cover column "${this.columnNames[column]}"`);
        }
        owner[column] = row;
      }
    }
    const used = new Uint8Array(this.primary);
    for (const column of matrix.cells) if (column < this.primary) used[column] = 1;
    const empty = used.indexOf(0);
    return markPrepared({
      matrix,
      columnNames: this.columnNames,
      rowNames: this.named ? this.rowNames.map((name, row) => name ?? String(row)) : null,
      given: givenRows.slice(),
      reason: empty < 0 ? null : `column "${this.columnNames[empty]}" is in no row, so it cannot be covered`,
    });
  }
}

/** Problems checked here (or by the text parser): only these pass through prepareProblem unchecked. */
const checked = new WeakSet<object>();

export function markPrepared<T extends PreparedCover>(prepared: T): T {
  checked.add(prepared);
  return prepared;
}

function isPrepared(input: object): input is PreparedCover {
  if (!('matrix' in input)) return false;
  if (!checked.has(input)) throw badInput('a prepared problem must come from cover.prepare() (give the problem as data or text otherwise)');
  return true;
}

/** Checks plain data (or passes a prepared problem through). */
export function prepareProblem(problem: CoverProblem | PreparedCover): PreparedCover {
  return runSteps(prepareProblemSteps(problem));
}

/** prepareProblem as steps of 1,024 rows. */
export function* prepareProblemSteps(problem: CoverProblem | PreparedCover): Steps<PreparedCover> {
  if (problem === null || typeof problem !== 'object') {
    throw badInput(`expected an exact cover problem { columns, secondary?, rows } or its text, got ${describeValue(problem)}`);
  }
  if (isPrepared(problem)) return problem;
  checkKeys(problem, ['columns', 'secondary', 'rows', 'given'], 'an exact cover problem');
  const builder = new MatrixBuilder();
  for (const [key, kind] of [['columns', 'primary'], ['secondary', 'secondary']] as const) {
    const columns = problem[key];
    if (columns === undefined && kind === 'secondary') continue;
    if (Array.isArray(columns)) builder.declare(columns, kind, (i) => `${key}[${i}]`);
    else builder.declareCount(columns as number, kind);
  }
  if (!isDenseArray(problem.rows)) throw badInput(`rows must be an array of rows, got ${describeValue(problem.rows)}`);
  for (const [r, row] of problem.rows.entries()) {
    if ((r & 1023) === 0) yield;
    const named = row !== null && typeof row === 'object' && !Array.isArray(row);
    const refs = named ? (row as NamedRow).columns : row;
    const name = named ? (row as NamedRow).name : null;
    if (!Array.isArray(refs)) throw badInput(`rows[${r}] must be an array of columns or { name, columns }, got ${describeValue(row)}`);
    if (named && typeof name !== 'string') throw badInput(`rows[${r}].name must be a string, got ${describeValue(name)}`);
    const at = named ? `rows[${r}].columns` : `rows[${r}]`;
    builder.addRow(refs, name, (i) => `${at}[${i}]`, `rows[${r}]`);
  }
  if (problem.given !== undefined && !isDenseArray(problem.given)) {
    throw badInput(`given must be an array of row indices or names, got ${describeValue(problem.given)}`);
  }
  const given = (problem.given ?? []).map((ref, i) => builder.findRow(ref, `given[${i}]`));
  return builder.build(given, (row) => `rows[${row}]`);
}
