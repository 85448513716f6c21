// The levels of a count on disk (assembly/pegs/meetSpill.ts, once a level would not fit in memory):
// one file a side and level in a temporary folder (and, while a level in parts is built, one
// file per part of its children, each removed once summed), written from and read into the engine's
// memory in pieces (the host holds no copy of its own: pages in the OS cache are not the
// process's memory), checked against the free space (and maxDisk) before each write, removed
// at the end. After each write and removal the engine hears how much more the files may take,
// so that a level whose parts' files would not fit goes in rounds (assembly/pegs/meetSpill.ts).
// Node only (the modules are imported when needed, so browsers never load them): in a
// browser the levels stay in memory.
import type { FileHandle } from 'node:fs/promises';
import { BitpuzzleError, throwIfAborted } from '../errors.js';
import type { EngineExports } from '../wasm/protocol.js';

/** The most bytes one read or write moves: an abort waits for one at most. */
const PIECE_BYTES = 4 << 20;
/** Free space a count leaves on the disk for everything else. */
const RESERVE_BYTES = 64 << 20;

/** Errors of the file system that mean the disk is full. */
const FULL = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

type Fs = typeof import('node:fs/promises');
type RmSync = typeof import('node:fs').rmSync;
type Path = typeof import('node:path');

/** Bytes of the level files a checkpoint records (none: 0). */
export const levelBytes = (state: SpillState | undefined): number => state?.files.reduce((sum, file) => sum + file.bytes, 0) ?? 0;

/** Whether levels can go to disk here: Node has a file system, a browser none we may use. */
export const canSpill = (): boolean => typeof process !== 'undefined' && !!process.versions?.node;

/** A level's file (part -1), or the file of one part of a level's children. */
interface SpillFile {
  handle: FileHandle;
  side: number;
  level: number;
  part: number;
  bytes: number;
  /** Its name in the folder (kept in a checkpoint's folder: each file made gets a new one). */
  name: string;
  /** Bytes a checkpoint holds of it: the engine may only add after them. */
  saved: number;
}

/** The files of a checkpoint's levels as its manifest records them (checkpoint.ts). */
export interface SpillState {
  files: Array<{ side: number; level: number; part: number; name: string; bytes: number }>;
  made: number;
  partFiles: number;
  partWrites: number;
}

export class SpillFolder {
  /**
   * The levels' place under `parent` (default the OS's temporary folder), which must exist and
   * be a writable folder: BAD_INPUT naming it otherwise, at once rather than minutes later.
   * The folder of the files is made when the engine first hands out a level. `task` names the
   * work in the messages; `where()` says how far it got.
   */
  static async open(
    parent: string | undefined,
    {
      signal,
      where,
      task,
      reserveBytes = RESERVE_BYTES,
      maxDisk = Infinity,
      keepIn,
    }: { signal?: AbortSignal; where: () => string; task: string; reserveBytes?: number; maxDisk?: number; keepIn?: string },
  ): Promise<SpillFolder> {
    if (keepIn !== undefined) {
      // A checkpoint's levels: in its folder, kept when the count stops, removed when it ends.
      const fs = await import('node:fs/promises');
      await fs.mkdir(keepIn, { recursive: true });
      const folder = new SpillFolder(fs, (await import('node:fs')).rmSync, await import('node:path'), keepIn, signal, where, task, reserveBytes, maxDisk);
      folder.dir = keepIn;
      folder.keep = true;
      return folder;
    }
    const fs = await import('node:fs/promises');
    const path = await import('node:path');
    const dir = parent ?? (await import('node:os')).tmpdir();
    try {
      if (!(await fs.stat(dir)).isDirectory()) throw new Error('not a folder');
      await fs.access(dir, fs.constants.W_OK);
    } catch (error) {
      throw new BitpuzzleError('BAD_INPUT', `spillDir ${JSON.stringify(dir)} cannot hold the count's levels: ${(error as Error).message}`);
    }
    return new SpillFolder(fs, (await import('node:fs')).rmSync, path, dir, signal, where, task, reserveBytes, maxDisk);
  }

  private dir: string | undefined;
  private readonly files = new Map<string, SpillFile>();
  /**
   * In a checkpoint's folder, files are removed only once a checkpoint that no longer names
   * them is saved (the last one may still need them); until then they wait here.
   */
  private keep = false;
  private readonly dropped: SpillFile[] = [];
  private made = 0;

  private constructor(
    private readonly fs: Fs,
    private readonly rmSync: RmSync,
    private readonly path: Path,
    readonly parent: string,
    private readonly signal: AbortSignal | undefined,
    private readonly where: () => string,
    private readonly task: string,
    private readonly reserveBytes: number,
    private readonly maxDisk: number,
  ) {}

  /** Bytes the files hold now (those waiting for removal too: they are on the disk). */
  private get used(): number {
    let bytes = 0;
    for (const file of this.files.values()) bytes += file.bytes;
    for (const file of this.dropped) bytes += file.bytes;
    return bytes;
  }

  /** For a checkpoint: every file's data on the disk (fsync), and what the manifest records. */
  async state(): Promise<SpillState> {
    for (const file of this.files.values()) {
      await file.handle.sync();
      file.saved = file.bytes;
    }
    const files = [...this.files.values()].map(({ side, level, part, name, bytes }) => ({ side, level, part, name, bytes }));
    return { files, made: this.made, partFiles: this.partFiles, partWrites: this.partWrites };
  }

  /** After a checkpoint is saved: the files it does not name go. */
  async saved(): Promise<void> {
    for (const file of this.dropped.splice(0)) await this.fs.rm(this.path.join(this.dir!, file.name), { force: true });
  }

  /**
   * Resuming from a checkpoint: its files as it recorded them (cut back to the bytes it holds
   * of each: what was added after it is done again), every other file of the folder gone.
   * BAD_INPUT when one is missing or shorter.
   */
  async restore(state: SpillState): Promise<void> {
    const names = new Set(state.files.map((f) => f.name));
    for (const name of await this.fs.readdir(this.dir!)) if (!names.has(name)) await this.fs.rm(this.path.join(this.dir!, name), { force: true });
    for (const { side, level, part, name, bytes } of state.files) {
      let handle: FileHandle;
      try {
        handle = await this.fs.open(this.path.join(this.dir!, name), 'r+');
      } catch {
        throw new BitpuzzleError('BAD_INPUT', `checkpoint: the level file ${name} is missing from ${this.dir}; remove the folder to count again from the start`);
      }
      const { size } = await handle.stat();
      if (size < bytes) {
        await handle.close();
        throw new BitpuzzleError('BAD_INPUT', `checkpoint: the level file ${name} in ${this.dir} has ${size} bytes, fewer than the ${bytes} the checkpoint holds; remove the folder to count again from the start`);
      }
      await handle.truncate(bytes);
      this.files.set(key(side, level, part), { handle, side, level, part, bytes, name, saved: bytes });
    }
    this.made = state.made;
    this.partFiles = state.partFiles;
    this.partWrites = state.partWrites;
  }

  /** Bytes the files may still grow by: the free space less the reserve, within maxDisk. */
  async room(): Promise<number> {
    const { bavail, bsize } = await this.fs.statfs(this.dir ?? this.parent);
    return Math.max(0, Math.min(bavail * bsize - this.reserveBytes, this.maxDisk - this.used));
  }

  /** The folder of the files, once the engine handed out a level. */
  get folder(): string | undefined {
    return this.dir;
  }

  /**
   * The engine's task after HAVE_PAIRS (write: its pairs to their level's or part's file) or
   * NEED_PAIRS (read: pairs of one into its window); the pegsMeetIo* exports say which.
   */
  async serve(exports: EngineExports, write: boolean): Promise<void> {
    const width = exports.pegsMeetWidth();
    const side = exports.pegsMeetIoSide();
    const level = exports.pegsMeetIoLevel();
    const part = exports.pegsMeetIoPart();
    const position = exports.pegsMeetIoFrom() * width;
    const bytes = exports.pegsMeetIoCount() * width;
    // Addresses past 2 GiB arrive as negative i32s.
    const view = new Uint8Array(exports.memory.buffer, exports.pegsMeetIoPtr() >>> 0, bytes);
    if (write) await this.write(side, level, part, position, view);
    else await this.read(side, level, part, position, view);
  }

  /** Files of parts summed so far, and writes to them (a region that filled before its parents were done: more writes than files). */
  partFiles = 0;
  partWrites = 0;

  /** After DROP_PART (the engine has summed that part's file) or DISCARD_PART (its records come again in a later round). */
  async dropPart(exports: EngineExports, summed = true): Promise<void> {
    if (summed) this.partFiles++;
    await this.drop(key(exports.pegsMeetIoSide(), exports.pegsMeetIoLevel(), exports.pegsMeetIoPart()));
  }

  private async write(side: number, level: number, part: number, position: number, data: Uint8Array): Promise<void> {
    const file = await this.file(side, level, part);
    if (position < file.saved) {
      throw new BitpuzzleError('ENGINE_FAILURE', `${this.task}: the engine wrote into a level's pairs that a checkpoint holds (${file.name} at ${position})`);
    }
    if (part >= 0) this.partWrites++;
    const grows = Math.max(0, position + data.length - file.bytes);
    const { bavail, bsize } = await this.fs.statfs(this.dir!);
    if (bavail * bsize - this.reserveBytes < grows) throw this.full(`${bavail * bsize} bytes free, ${grows} more to write`);
    if (this.used + grows > this.maxDisk) {
      throw new BitpuzzleError('OUT_OF_DISK', `${this.task} needs more disk than maxDisk (${this.maxDisk} bytes: the files in ${this.dir} hold ${this.used}, ${grows} more to write); ${this.where()}`);
    }
    for (let done = 0; done < data.length; ) {
      throwIfAborted(this.signal);
      const piece = Math.min(PIECE_BYTES, data.length - done);
      try {
        done += (await file.handle.write(data, done, piece, position + done)).bytesWritten;
      } catch (error) {
        if (FULL.has((error as NodeJS.ErrnoException).code ?? '')) throw this.full((error as Error).message);
        throw error;
      }
    }
    file.bytes = Math.max(file.bytes, position + data.length);
  }

  private async read(side: number, level: number, part: number, position: number, into: Uint8Array): Promise<void> {
    const file = this.files.get(key(side, level, part));
    if (!file || position + into.length > file.bytes) {
      throw new BitpuzzleError('ENGINE_FAILURE', `${this.task}: the engine asked for pairs of a level not on disk (side ${side}, ${level} pegs${part < 0 ? '' : `, part ${part}`})`);
    }
    for (let done = 0; done < into.length; ) {
      throwIfAborted(this.signal);
      const piece = Math.min(PIECE_BYTES, into.length - done);
      const { bytesRead } = await file.handle.read(into, done, piece, position + done);
      if (bytesRead === 0) throw new BitpuzzleError('ENGINE_FAILURE', `${this.task}: a level's file in ${this.dir} ended early`);
      done += bytesRead;
    }
  }

  /**
   * The file of a side's level (or of a part of it); a new level's first file drops that side's
   * files of levels before its parent.
   */
  private async file(side: number, level: number, part: number): Promise<SpillFile> {
    const known = this.files.get(key(side, level, part));
    if (known) return known;
    if (!this.dir) {
      try {
        this.dir = await this.fs.mkdtemp(this.path.join(this.parent, 'bitpuzzle-pegs-'));
        process.on('exit', this.removeAtExit);
      } catch (error) {
        if (FULL.has((error as NodeJS.ErrnoException).code ?? '')) throw this.full((error as Error).message);
        throw new BitpuzzleError('BAD_INPUT', `spillDir ${JSON.stringify(this.parent)} cannot hold the count's levels: ${(error as Error).message}`);
      }
    }
    // Side 0 goes down in pegs, side 1 up: a level is built from the one before it (its parent).
    const parent = side === 0 ? level + 1 : level - 1;
    // The other side's levels before its last are done with too (its next is built from its last).
    const otherLevels = [...this.files.values()].filter((file) => file.side !== side).map((file) => file.level);
    const otherLast = side === 0 ? Math.max(...otherLevels) : Math.min(...otherLevels);
    for (const [other, file] of this.files) {
      if (file.side === side ? file.level !== parent && file.level !== level : file.level !== otherLast) await this.drop(other);
    }
    const name = this.keep ? `${this.made++}-${fileName(side, level, part)}` : fileName(side, level, part);
    const handle = await this.fs.open(this.path.join(this.dir, name), 'w+');
    const file = { handle, side, level, part, bytes: 0, name, saved: 0 };
    this.files.set(key(side, level, part), file);
    return file;
  }

  private async drop(name: string): Promise<void> {
    const file = this.files.get(name);
    if (!file) return;
    this.files.delete(name);
    await file.handle.close();
    if (this.keep) this.dropped.push(file);
    else await this.fs.rm(this.path.join(this.dir!, file.name), { force: true });
  }

  /** Every file gone (the folder stays): a count that starts again. */
  async clear(): Promise<void> {
    for (const key of [...this.files.keys()]) await this.drop(key);
  }

  /**
   * A process that exits during the count (process.exit, or the CLI's second Ctrl-C) runs no
   * `finally`: the folder, gigabytes perhaps, goes then, synchronously.
   */
  private readonly removeAtExit = (): void => {
    if (this.dir) this.rmSync(this.dir, { recursive: true, force: true });
  };

  /** The files closed, kept in a checkpoint's folder for the count to resume (after a stop). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.files.values()].map(({ handle }) => handle.close()));
    this.files.clear();
  }

  /** The files and the folder gone (after the count, whatever its end; a checkpoint's once it is done). */
  async remove(): Promise<void> {
    const dir = this.dir;
    process.off('exit', this.removeAtExit);
    try {
      await Promise.allSettled([...this.files.values()].map(({ handle }) => handle.close()));
      this.files.clear();
    } finally {
      this.dir = undefined;
      if (dir) await this.fs.rm(dir, { recursive: true, force: true });
    }
  }

  private full(detail: string): BitpuzzleError {
    return new BitpuzzleError('OUT_OF_DISK', `${this.task} needs more disk than ${this.dir ?? this.parent} has free (${detail}); ${this.where()}`);
  }
}

const key = (side: number, level: number, part: number): string => `${side}:${level}:${part}`;
const fileName = (side: number, level: number, part: number): string => `side${side}-pegs${level}${part < 0 ? '' : `-part${part}`}.pairs`;
