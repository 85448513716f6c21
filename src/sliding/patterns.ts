// Pattern databases on the host: which patterns a board uses, and their tables built by the
// engine or loaded from a cache on disk (Node), checked by a CRC-32 of their bytes (SHA-256 on a
// Node without zlib.crc32, and for files of the format before).
import { BitpuzzleError, badInput, describeValue } from '../errors.js';
import type { Progress } from '../parallel/pool.js';
import { crc32, sha256 } from '../digest.js';
import { Status, checkStatus, runSliced } from '../wasm/protocol.js';
import type { OptimalEngine } from './engine.js';

/** The patterns of a board and its goal, as lists of goal cells. */
export interface PatternSet {
  /** The board's rows. */
  rows: number;
  /** The board's columns. */
  cols: number;
  /** Each database's tiles, as their goal cells. */
  patterns: number[][];
  /** The blank's goal cell. */
  blank: number;
  /** Square boards whose blank's goal lies on the diagonal use the lookup mirrored in it as well. */
  reflect: boolean;
  /** Tables of 4 bits an entry that follow the blank (assembly/sliding/pdbPacked.ts): the 15-puzzle's 7-8, boards above 16 cells. */
  packed: boolean;
  /** The tables' sizes, as the databases are named: '7-8', '6-6-3', '6-6-6-6', … */
  name: string;
  /** Names the tables exactly (size, blank, packing, patterns): an engine that holds them skips the load. */
  key: string;
}

/** The 15-puzzle's choices of databases. */
export type PdbChoice = '6-6-3' | '7-8';
export const PDB_CHOICES: readonly PdbChoice[] = ['6-6-3', '7-8'];

// Partitions for the blank at the top-left. For 4×4 this 6-6-3 took 23% fewer nodes on Korf's
// 100 (92.3M) than the top row with two 2×3 blocks (119.5M), both with the mirrored lookup.
const FIFTEEN = [
  [1, 4, 5],
  [2, 3, 6, 7, 10, 11],
  [8, 9, 12, 13, 14, 15],
];
// Korf & Felner's 7-8: each half maps onto itself in the diagonal, so the mirrored lookup uses
// the same two tables. 4 bits an entry: 28.8 MB and 259.5 MB.
const SEVEN_EIGHT = [
  [1, 2, 3, 4, 5, 8, 12],
  [6, 7, 9, 10, 11, 13, 14, 15],
];
// Korf & Felner's 6-6-6-6 (2002): the same partition as theirs, so that with tables that follow
// the blank and the mirrored lookup the search is theirs.
const TWENTY_FOUR = [
  [1, 5, 6, 10, 11, 12],
  [2, 3, 4, 7, 8, 9],
  [13, 14, 18, 19, 23, 24],
  [15, 16, 17, 20, 21, 22],
];
/** Boards with fewer cells use Manhattan distance with linear conflicts instead. */
export const MIN_PATTERN_CELLS = 12;
/** Boards with more cells would need tables beyond memory (6 tiles on 26 cells: 166M entries each). */
export const MAX_PATTERN_CELLS = 25;
const MAX_PATTERN_TILES = 6;

/**
 * The patterns of a rows×cols board whose blank goal is `blankGoal`: fixed partitions for 4×4
 * (6-6-3, or with `pdb` '7-8' the packed 7-8) and 5×5 (6-6-6-6) with the blank at cell 0;
 * otherwise the tiles in row-major order cut into groups of six (the last one smaller). Boards
 * of more than 16 cells get packed tables that follow the blank (assembly/sliding/pdbPacked.ts) unless
 * `packedLarge` is false (the TS twin's byte tables, which ignore the blank there).
 */
export function patternSet(rows: number, cols: number, blankGoal: number, pdb: PdbChoice = '6-6-3', packedLarge = true): PatternSet {
  const whole = (x: unknown): boolean => typeof x === 'number' && Number.isSafeInteger(x);
  if (!whole(rows) || !whole(cols) || rows < 2 || cols < 2 || rows * cols > MAX_PATTERN_CELLS) {
    throw badInput(`pattern databases are built for boards of at least 2×2 and at most ${MAX_PATTERN_CELLS} cells, got ${describeValue(cols)}×${describeValue(rows)}`);
  }
  if (!whole(blankGoal) || blankGoal < 0 || blankGoal >= rows * cols) {
    throw badInput(`blankGoal must be a cell from 0 to ${rows * cols - 1}, got ${describeValue(blankGoal)}`);
  }
  if (!PDB_CHOICES.includes(pdb)) throw badInput(`pdb must be '6-6-3' or '7-8', got ${describeValue(pdb)}`);
  if (pdb === '7-8' && !(rows === 4 && cols === 4 && blankGoal === 0)) {
    throw badInput(`the 7-8 pattern databases are for the 15-puzzle (4×4) with the blank's goal in a corner, not a ${cols}×${rows} board`);
  }
  const packed = pdb === '7-8' || (rows * cols > 16 && packedLarge !== false);
  let patterns: number[][];
  if (pdb === '7-8') patterns = SEVEN_EIGHT;
  else if (blankGoal === 0 && rows === 4 && cols === 4) patterns = FIFTEEN;
  else if (blankGoal === 0 && rows === 5 && cols === 5) patterns = TWENTY_FOUR;
  else {
    const tiles = Array.from({ length: rows * cols }, (_, c) => c).filter((c) => c !== blankGoal);
    patterns = [];
    for (let i = 0; i < tiles.length; i += MAX_PATTERN_TILES) patterns.push(tiles.slice(i, i + MAX_PATTERN_TILES));
  }
  const mirror = (c: number): number => (c % cols) * cols + Math.floor(c / cols);
  const reflect = rows === cols && mirror(blankGoal) === blankGoal;
  const key = `${rows}x${cols}b${blankGoal}${packed ? 'p' : ''}:${patterns.map((p) => p.join('-')).join('+')}`;
  const name = pdb === '7-8' ? '7-8' : patterns.map((p) => p.length).sort((a, b) => b - a).join('-');
  return { rows, cols, patterns, blank: blankGoal, reflect, packed, name, key };
}

/** Bytes of the tables of a set (in memory; on disk 48 more a table). */
export function tableBytes(set: PatternSet): number {
  return set.patterns.reduce((sum, _, slot) => sum + slotBytes(set, slot), 0);
}

/**
 * The most memory a build of the set's tables takes: the tables and each table's scratch (a
 * bigger one is allocated anew). Packed: 2 bits for each state of placement and blank region
 * (2.75 states a placement for 8 tiles on 16 cells, 2.43 for 7, 1.42 for 6 tiles on 25 cells)
 * and the combinations' records; bytes: a bit per placement and cell, and a queue of 8 bytes a
 * placement (boards up to 16 cells). The 7-8: 681 MB (682 MB measured).
 */
export function buildBytes(set: PatternSet): number {
  return set.patterns.reduce((sum, _, slot) => sum + slotBuildBytes(set, slot), 0) + (1 << 20);
}

/** The entries of one slot's table (a packed table holds two a byte). */
export function slotEntries(set: PatternSet, slot: number): number {
  return tableEntries(set.rows * set.cols, set.patterns[slot].length);
}

/** The bytes of one slot's table. */
export function slotBytes(set: PatternSet, slot: number): number {
  const entries = slotEntries(set, slot);
  return set.packed ? Math.ceil(entries / 2) : entries;
}

/** The most memory the build of one slot's table takes: the table and its scratch (as buildBytes). */
export function slotBuildBytes(set: PatternSet, slot: number): number {
  const cells = set.rows * set.cols;
  const entries = slotEntries(set, slot);
  let scratch = 0;
  if (set.packed) scratch = entries * (cells <= 16 ? 0.69 : 0.36) + (cells <= 16 ? 2e6 : 24e6);
  else if (cells <= 16) scratch = (entries * cells) / 8 + entries * 8;
  return slotBytes(set, slot) + Math.ceil(scratch);
}

/**
 * The default choice for the 15-puzzle: 7-8 in Node with the Wasm engine when `maxMemory` holds
 * their build and each of `engines` engines sharing it holds the tables (or as
 * $BITPUZZLE_PDB says); 6-6-3 in browsers, with the TS twin, and in small memory.
 */
export function defaultPdb(engine: 'wasm' | 'js', maxMemory: number, engines = 1): PdbChoice {
  const node = typeof process !== 'undefined' && !!process.versions?.node;
  const forced = node ? process.env.BITPUZZLE_PDB : undefined;
  if (forced === '6-6-3' || forced === '7-8') return forced;
  if (!node || engine !== 'wasm') return '6-6-3';
  // The tables, and the engine's own memory besides them (16 MiB is ample).
  const set = patternSet(4, 4, 0, '7-8');
  return maxMemory >= buildBytes(set) + (16 << 20) && maxMemory / engines >= tableBytes(set) + (16 << 20) ? '7-8' : '6-6-3';
}

function describeBytes(bytes: number): string {
  return bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : `${Math.ceil(bytes / 1e6)} MB`;
}

export function tableEntries(cells: number, k: number): number {
  let size = 1;
  for (let i = 0; i < k; i++) size *= cells - i;
  return size;
}

export interface PatternOptions {
  /** The cache directory (Node), or false for none. Default: $BITPUZZLE_CACHE or ~/.cache/bitpuzzle. */
  cacheDir?: string | false;
  signal?: AbortSignal;
  /** Entries filled so far and in all, while tables are built. */
  onProgress?: (progress: Progress) => void;
  maxMemory?: number;
}

/** The cache directory to use, or null where there is no file system. */
export async function cacheDirectory(option: string | false | undefined): Promise<string | null> {
  if (option === false) return null;
  if (typeof process === 'undefined' || !process.versions?.node) return null;
  if (option !== undefined) return option;
  const { homedir } = await import('node:os');
  const { join } = await import('node:path');
  return process.env.BITPUZZLE_CACHE || join(homedir(), '.cache', 'bitpuzzle');
}

// A cache file: MAGIC (16 bytes), 32 bytes of checksums, the table. Version 3 holds the table's
// CRC-32 (4 bytes, little-endian; a third of SHA-256's time, which a search on threads shares
// its cores with) and the first 28 bytes of its SHA-256 (for a Node without zlib.crc32).
// Version 2 held the whole SHA-256: still read, and its header rewritten as version 3 once
// found whole. A Node without zlib.crc32 writes version 2.
const MAGIC = 'bitpuzzle-pdb-3\n';
const MAGIC_2 = 'bitpuzzle-pdb-2\n';
const HEADER = MAGIC.length + 32;

/** A version-3 header for `table`, or null on a Node without zlib.crc32. */
async function header3(table: Uint8Array, sha?: Uint8Array): Promise<Buffer | null> {
  const crc = await crc32(table);
  if (crc === null) return null;
  const head = Buffer.alloc(HEADER);
  head.write(MAGIC, 0, 'latin1');
  head.writeUInt32LE(crc >>> 0, MAGIC.length);
  Buffer.from(sha ?? (await sha256(table))).copy(head, MAGIC.length + 4, 0, 28);
  return head;
}

/** Whether `table` matches the checksums of its file's header `head` (version 3 or 2). */
async function matches(head: Buffer, version: 2 | 3, table: Uint8Array): Promise<{ intact: boolean; sha?: Uint8Array }> {
  if (version === 3) {
    const crc = await crc32(table);
    if (crc !== null) return { intact: crc >>> 0 === head.readUInt32LE(MAGIC.length) };
    const sha = await sha256(table);
    return { intact: Buffer.from(sha).subarray(0, 28).equals(head.subarray(MAGIC.length + 4, HEADER)) };
  }
  const sha = await sha256(table);
  return { intact: Buffer.from(sha).equals(head.subarray(MAGIC.length, HEADER)), sha };
}

function fileName(set: PatternSet, slot: number): string {
  return `sliding-${set.rows}x${set.cols}-b${set.blank}-${set.patterns[slot].join('-')}${set.packed ? '.packed' : ''}.pdb`;
}

/**
 * A problem with the cache that costs a rebuild but not the answer (a corrupt file, a folder
 * that cannot be written): said once per message as a process warning (stderr in the CLI).
 */
const warned = new Set<string>();
let warningHandler: ((message: string) => void) | null = null;
function warn(message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  if (warningHandler) warningHandler(message);
  else if (typeof process !== 'undefined' && typeof process.emitWarning === 'function') process.emitWarning(message, { code: 'BITPUZZLE_PDB' });
}

/** Where cache warnings go instead of process warnings (the CLI prints them as its own lines). */
export function onPatternWarning(handler: ((message: string) => void) | null): void {
  warningHandler = handler;
}

/** The largest chunk of a table that one of several readers reads at a time. */
const READ_CHUNK = 16 << 20;

/**
 * Reads a cached table into `target`; null when it must be built: missing (silently), or of
 * another version or the wrong size (said in a warning). Else the verdict of its checksum, a
 * promise apart (in an object, which an async function does not flatten), so that a caller may
 * start searching while the bytes are checked: false (said in a warning) when they do not match.
 * `readers` chunks are read at once (the threads a caller was given).
 */
async function readCached(dir: string, name: string, target: Uint8Array, readers = 1): Promise<{ checked: Promise<boolean> } | null> {
  const { open } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const path = join(dir, name);
  let problem: string | null = null;
  let version: 2 | 3 = 3;
  const head = Buffer.alloc(HEADER);
  try {
    // Read straight into the engine's table (the 7-8's half a gigabyte is not copied twice).
    const file = await open(path, 'r');
    try {
      const { size } = await file.stat();
      const { bytesRead } = await file.read(head, 0, HEADER, 0);
      const magic = head.toString('latin1', 0, Math.min(bytesRead, MAGIC.length));
      if (bytesRead < MAGIC.length || !magic.startsWith('bitpuzzle-pdb-')) problem = 'is not a bitpuzzle pattern database';
      else if (magic !== MAGIC && magic !== MAGIC_2) problem = `is of another version (${JSON.stringify(magic.trim())}, this one reads ${JSON.stringify(MAGIC.trim())})`;
      else if (size !== HEADER + target.length) problem = `has ${size} bytes, not ${HEADER + target.length} (truncated or of another table)`;
      else {
        if (magic === MAGIC_2) version = 2;
        // `readers` reads under way at once, each of the next chunk (Node runs them on its
        // I/O threads): the copies into fresh pages, most of a load's time, then overlap.
        let next = 0;
        // Several chunks a reader, so that they end together; one read of it all for one reader.
        const chunk = readers > 1 ? Math.min(READ_CHUNK, Math.max(1 << 16, Math.ceil(target.length / (4 * readers)))) : 1 << 30;
        const reader = async (): Promise<void> => {
          while (next < target.length) {
            const start = next;
            const end = Math.min(target.length, start + chunk);
            next = end;
            for (let at = start; at < end; ) {
              const { bytesRead: got } = await file.read(target, at, end - at, HEADER + at);
              if (got === 0) return;
              at += got;
            }
          }
        };
        await Promise.all(Array.from({ length: readers }, reader));
      }
    } finally {
      await file.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') warn(`cannot read the pattern database ${path} (${code ?? String(error)}): building it`);
    return null;
  }
  if (problem) {
    warn(`the pattern database ${path} ${problem}: rebuilding it`);
    return null;
  }
  const checked = matches(head, version, target).then(async ({ intact, sha }) => {
    if (!intact) {
      warn(`the pattern database ${path} does not match its checksum (corrupt): rebuilding it`);
      return false;
    }
    if (version === 2) await upgradeHeader(path, target, sha);
    return true;
  });
  return { checked };
}

/** Rewrites the header of a whole version-2 file as version 3 (its table unchanged); a folder that cannot be written keeps version 2. */
async function upgradeHeader(path: string, table: Uint8Array, sha?: Uint8Array): Promise<void> {
  const head = await header3(table, sha);
  if (!head) return;
  const { open } = await import('node:fs/promises');
  try {
    const file = await open(path, 'r+');
    try {
      await file.write(head, 0, head.length, 0);
    } finally {
      await file.close();
    }
  } catch {
    // Read-only: the file is read as version 2 again next time.
  }
}

/**
 * Writes a table atomically: to a temporary file of its own (process, thread and random name),
 * then renamed over the name, so that readers, and two processes building at once, never see
 * half a file. False (with a warning) when the folder cannot be written.
 */
async function writeCached(dir: string, name: string, table: Uint8Array): Promise<boolean> {
  const { mkdir, open, rename, rm } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const { randomBytes } = await import('node:crypto');
  const temporary = join(dir, `${name}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await mkdir(dir, { recursive: true });
    const file = await open(temporary, 'w');
    try {
      await file.writeFile((await header3(table)) ?? Buffer.concat([Buffer.from(MAGIC_2, 'latin1'), await sha256(table)]));
      await file.writeFile(table);
    } finally {
      await file.close();
    }
    await rename(temporary, join(dir, name));
    return true;
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    const code = (error as NodeJS.ErrnoException).code;
    warn(`cannot write the pattern database ${name} to ${dir} (${code ?? String(error)}): it is kept in memory and built again next time`);
    return false;
  }
}

/** Cache files this thread read or wrote (folder, NUL, name): workers may load them. */
const onDisk = new Set<string>();

/** Tables kept in memory per thread, for hosts without a disk (and to skip re-reading). */
const memoryCache = new Map<string, Uint8Array>();
// Small tables only (6-6-3, 3×4 …): a big one would double its memory in every thread.
const MAX_MEMORY_CACHED = 16 * 1024 * 1024;

/**
 * Fills `target` with a slot's table from this thread's memory cache or the disk cache `dir`;
 * null when it must be built, else the verdict of the file's checksum (as readCached). Packed
 * tables (the 7-8, 5×5: tens or hundreds of MB) are read from disk, never kept twice.
 */
export async function fillFromCache(set: PatternSet, slot: number, target: Uint8Array, dir: string | null, readers = 1): Promise<{ checked: Promise<boolean> } | null> {
  const name = fileName(set, slot);
  const kept = set.packed ? undefined : memoryCache.get(name);
  if (kept) {
    target.set(kept);
    return { checked: Promise.resolve(true) };
  }
  const read = dir ? await readCached(dir, name, target, readers) : null;
  if (!read) return null;
  const checked = read.checked.then((intact) => {
    if (intact) onDisk.add(`${dir}\0${name}`);
    return intact;
  });
  return { checked };
}

/** Statistics of loading a pattern set. */
export interface PatternLoad {
  milliseconds: number;
  built: boolean;
  /** Every table is in the cache folder (others may load it from there). */
  onDisk: boolean;
}

/**
 * Makes the engine hold the tables of `set`: kept if already loaded, else copied from memory or
 * disk, else built by the engine (and saved). The build reports progress in entries.
 */
export async function loadPatterns(engine: OptimalEngine, set: PatternSet, options: PatternOptions = {}): Promise<PatternLoad> {
  const started = performance.now();
  const dir = await cacheDirectory(options.cacheDir);
  const names = set.patterns.map((_, slot) => fileName(set, slot));
  const allOnDisk = (): boolean => dir !== null && names.every((name) => onDisk.has(`${dir}\0${name}`));
  if (engine.loadedPatterns() === set.key) return { milliseconds: 0, built: false, onDisk: allOnDisk() };
  engine.clearPatterns();
  const cells = set.rows * set.cols;
  const total = set.patterns.reduce((sum, _, slot) => sum + slotEntries(set, slot), 0);
  let done = 0;
  let built = false;
  for (let slot = 0; slot < set.patterns.length; slot++) {
    const pattern = set.patterns[slot];
    if (!engine.definePattern(slot, cells, set.cols, pattern, set.packed)) {
      checkStatus(Status.OUT_OF_MEMORY, `the pattern databases of the ${set.cols}×${set.rows} puzzle (${describeBytes(tableBytes(set))} of tables)`, options.maxMemory);
    }
    const read = await fillFromCache(set, slot, engine.table(slot), dir);
    if (!(read && (await read.checked))) {
      built = true;
      const base = done;
      await buildSlot(engine, set, slot, { ...options, onProgress: (p) => options.onProgress?.({ done: base + p.done, total }) }, buildBytes(set));
      if (dir) await saveTable(dir, set, slot, engine.table(slot));
    }
    const table = engine.table(slot);
    const name = names[slot];
    if (!set.packed && table.length <= MAX_MEMORY_CACHED && !memoryCache.has(name)) memoryCache.set(name, table.slice());
    // In entries, as the build counts them (a packed table holds two a byte).
    done += slotEntries(set, slot);
    options.onProgress?.({ done, total });
  }
  engine.markPatterns(set.key);
  return { milliseconds: performance.now() - started, built, onDisk: allOnDisk() };
}

/**
 * Builds the table of a slot the engine has defined (`options.onProgress` hears its entries
 * filled); `bytes` is the memory the build is said to need when the engine runs out.
 */
export async function buildSlot(engine: OptimalEngine, set: PatternSet, slot: number, options: PatternOptions, bytes = slotBuildBytes(set, slot)): Promise<void> {
  const what = `the pattern database build (up to ${describeBytes(bytes)})`;
  checkStatus(engine.buildStart(slot, set.blank), what, options.maxMemory);
  const total = slotEntries(set, slot);
  const status = await runSliced((budget) => {
    const s = engine.buildRun(budget);
    options.onProgress?.({ done: engine.filled(), total });
    return s;
  }, options.signal, undefined, { of: () => engine.buildStage(), budgets: new Map() });
  checkStatus(status, what, options.maxMemory);
}

/** Saves a slot's table in the cache folder `dir` (false, with a warning, where it cannot be written). */
export async function saveTable(dir: string, set: PatternSet, slot: number, table: Uint8Array): Promise<boolean> {
  const name = fileName(set, slot);
  const saved = await writeCached(dir, name, table);
  if (saved) onDisk.add(`${dir}\0${name}`);
  return saved;
}

/** The tables of a set as bytes (for workers without a disk cache). */
export function tablesOf(engine: OptimalEngine, set: PatternSet): Uint8Array[] {
  return set.patterns.map((_, slot) => engine.table(slot).slice());
}

/** Loads tables handed over as bytes. */
export function useTables(engine: OptimalEngine, set: PatternSet, tables: Uint8Array[]): void {
  engine.clearPatterns();
  set.patterns.forEach((pattern, slot) => {
    if (!engine.definePattern(slot, set.rows * set.cols, set.cols, pattern, set.packed)) {
      throw new BitpuzzleError('OUT_OF_MEMORY', `the pattern databases of the ${set.cols}×${set.rows} puzzle need more than maxMemory`);
    }
    engine.table(slot).set(tables[slot]);
  });
  engine.markPatterns(set.key);
}
