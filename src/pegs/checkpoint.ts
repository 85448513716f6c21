// Checkpoints of a peg count from both ends (pegs.count with `checkpoint: DIR`, the CLI's
// --checkpoint DIR): the engine instance as data (wasm/snapshot.ts) and what the host's loop
// needs, written to DIR so that a new process resumes the count where it stood.
//
// DIR holds checkpoint.json (the count's key, the engine's version, the host's state, the
// globals, the memory file's name, size and SHA-256; or, once finished, the answer) and one
// memory file. Every write is atomic: the memory goes to a new file (temporary name, fsync,
// rename), then checkpoint.json the same way (it names the new file), then the old file goes;
// a kill at any point leaves the last whole checkpoint, and temporary files are removed when
// the folder is opened again.
import { sha256 } from '../digest.js';
import { BitpuzzleError, badInput } from '../errors.js';
import { engineVersion } from '../wasm/module.js';
import type { EngineExports } from '../wasm/protocol.js';
import { restoreSnapshot, takeSnapshot, type EngineSnapshot } from '../wasm/snapshot.js';
import type { SpillState } from './spill.js';

const FORMAT = 'bitpuzzle-pegs-checkpoint-1';
const MANIFEST = 'checkpoint.json';
const ENGINE_FILE = /^engine-\d+\.mem$/;
/** The folder of a count's levels on disk: part of its checkpoint, kept until the count ends. */
export const LEVELS_FOLDER = 'levels';

/** What the host's loop keeps besides the engine (meet.ts): with levels on disk, their files. */
export interface HostState {
  narrowBits: number;
  steps: number;
  spill?: SpillState;
}

/** A finished count's answer, kept in the folder. */
export interface SavedAnswer {
  total: string;
  levels: number[];
  nodes: string;
  memory: number;
}

interface Manifest {
  format: string;
  /** A hash of the problem and the options that shape the count. */
  key: string;
  /** What the key stands for, to say what differs. */
  what: string;
  engine: string;
  savedAt: string;
  /** The level reached (pegsMeetStep) and of how many. */
  step: number;
  host?: HostState;
  globals?: Record<string, number | string>;
  memoryFile?: string;
  memoryBytes?: number;
  memorySha256?: string;
  answer?: SavedAnswer;
}

/** What resuming found: the count to go on with, or the answer of a finished one. */
export type Resumed = { snapshot: EngineSnapshot; host: HostState; step: number; bytes: number } | { answer: SavedAnswer };

/**
 * A checkpoint event, as `onCheckpoint` hears of it: a count resumed from the folder, a save,
 * the answer recorded at the end, or a folder that held a finished count's answer already.
 */
export interface CheckpointEvent {
  /** What happened: resumed from the folder, saved to it, the answer recorded, or found there. */
  kind: 'resumed' | 'saved' | 'finished' | 'answered';
  /** The checkpoint's folder. */
  dir: string;
  /** The level reached, of `steps`. */
  step: number;
  /** The levels of the count in all. */
  steps: number;
  /** Bytes of the engine's state kept. */
  bytes: number;
  /** Positions expanded so far (at a resume: the work this process need not do again). */
  nodes: bigint;
  /** Bytes of the levels on disk the checkpoint holds besides (0 with the levels in memory). */
  levelBytes: number;
  /** Bytes free on the folder's disk, after the save. */
  free: number;
}

/** At a new level, a save when the last is at least this old; within a level, every DEFAULT_EVERY_MS. */
const LEVEL_MIN_MS = 30_000;
const DEFAULT_EVERY_MS = 120_000;

const hex = async (bytes: Uint8Array): Promise<string> => Buffer.from(await sha256(bytes)).toString('hex');

/** A file's bytes, read in pieces (readFile stops at 2 GiB; an engine may hold up to 4). */
async function readWhole(path: string): Promise<Uint8Array> {
  const { open } = await import('node:fs/promises');
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const bytes = new Uint8Array(size);
    for (let at = 0; at < size; ) {
      const { bytesRead } = await file.read(bytes, at, Math.min(size - at, 1 << 30), at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return bytes;
  } finally {
    await file.close();
  }
}

export class Checkpoint {
  private lastSave = Date.now();
  private lastStep = -1;
  private seq = 0;
  /** The engine file the manifest on disk names now, if any. */
  private memoryFile: string | undefined;

  private constructor(
    readonly dir: string,
    private readonly key: string,
    private readonly what: string,
    private readonly engine: string,
    /** What the folder held when opened: null for a fresh count. */
    readonly resumed: Resumed | null,
    private readonly everyMs: number,
  ) {}

  /**
   * Opens DIR for the count `what` (said in errors; its key a hash of `keyText`, the count's
   * exact input and options): made if missing; BAD_INPUT when it holds another count's
   * checkpoint, another engine's, or a damaged one.
   */
  static async open(dir: string, what: string, keyText: string, everyMs = DEFAULT_EVERY_MS): Promise<Checkpoint> {
    if (typeof process === 'undefined' || !process.versions?.node) throw badInput('checkpoint needs a file system (Node)');
    const { mkdir, readdir, readFile, rm } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { createHash } = await import('node:crypto');
    const key = createHash('sha256').update(keyText).digest('hex').slice(0, 32);
    const engine = await engineVersion();
    try {
      await mkdir(dir, { recursive: true });
    } catch (error) {
      throw badInput(`checkpoint: cannot make the folder ${dir} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    // Half-written files of a process killed while saving.
    for (const name of await readdir(dir)) if (name.endsWith('.tmp')) await rm(join(dir, name), { force: true });
    let text: string;
    try {
      text = await readFile(join(dir, MANIFEST), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw badInput(`checkpoint: cannot read ${join(dir, MANIFEST)} (${(error as NodeJS.ErrnoException).code})`);
      // No checkpoint yet: an engine file is one whose first save a kill cut short.
      for (const name of await readdir(dir)) if (ENGINE_FILE.test(name)) await rm(join(dir, name), { force: true });
      return new Checkpoint(dir, key, what, engine, null, everyMs);
    }
    const damaged = (why: string): BitpuzzleError => badInput(`checkpoint: ${join(dir, MANIFEST)} is damaged (${why}); remove the folder to count again from the start`);
    let manifest: Manifest;
    try {
      manifest = JSON.parse(text) as Manifest;
    } catch {
      throw damaged('not JSON');
    }
    if (manifest.format !== FORMAT) throw damaged(`format ${JSON.stringify(manifest.format)}, this version reads ${FORMAT}`);
    if (manifest.key !== key) throw badInput(`checkpoint: ${dir} holds the checkpoint of another count (${manifest.what}); this one is ${what}`);
    if (manifest.engine !== engine) throw badInput(`checkpoint: ${dir} was written by another version of bitpuzzle (${manifest.engine}; this is ${engine})`);
    if (manifest.answer) {
      // Levels of a count killed after it recorded its answer, before it removed them.
      await rm(join(dir, LEVELS_FOLDER), { recursive: true, force: true });
      return new Checkpoint(dir, key, what, engine, { answer: manifest.answer }, everyMs);
    }
    if (!manifest.memoryFile || !manifest.globals || !manifest.host || typeof manifest.memoryBytes !== 'number') throw damaged('fields missing');
    let memory: Uint8Array;
    try {
      memory = await readWhole(join(dir, manifest.memoryFile));
    } catch (error) {
      throw damaged(`its engine file ${manifest.memoryFile}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    if (memory.length !== manifest.memoryBytes) throw damaged(`its engine file has ${memory.length} bytes, not ${manifest.memoryBytes}`);
    if ((await hex(memory)) !== manifest.memorySha256) throw damaged('its engine file does not match its checksum');
    // Engine files of saves a kill interrupted after the manifest's rename.
    for (const name of await readdir(dir)) if (ENGINE_FILE.test(name) && name !== manifest.memoryFile) await rm(join(dir, name), { force: true });
    const checkpoint = new Checkpoint(
      dir,
      key,
      what,
      engine,
      { snapshot: { memory, globals: manifest.globals }, host: manifest.host, step: manifest.step, bytes: memory.length },
      everyMs,
    );
    checkpoint.seq = Number(/-(\d+)\.mem$/.exec(manifest.memoryFile)?.[1] ?? 0) + 1;
    checkpoint.lastStep = manifest.step;
    checkpoint.memoryFile = manifest.memoryFile;
    return checkpoint;
  }

  /** Puts the resumed engine state into a fresh instance (after the board is loaded). */
  restore(exports: EngineExports): HostState {
    const resumed = this.resumed;
    if (!resumed || 'answer' in resumed) throw new BitpuzzleError('ENGINE_FAILURE', 'checkpoint: nothing to restore');
    restoreSnapshot(exports, resumed.snapshot);
    return resumed.host;
  }

  /** Whether a save is due at level `step`: a new level after LEVEL_MIN_MS, or everyMs in all. */
  due(step: number): boolean {
    const age = Date.now() - this.lastSave;
    return age >= this.everyMs || (step !== this.lastStep && age >= Math.min(LEVEL_MIN_MS, this.everyMs));
  }

  /** Saves the instance (between two run calls) and the host's state; returns the bytes kept. */
  async save(exports: EngineExports, host: HostState, step: number): Promise<number> {
    // A view of the engine's memory, not a copy: the engine does not run until the save is done.
    const snapshot = takeSnapshot(exports, exports.arenaTop() >>> 0, false);
    const memoryFile = `engine-${this.seq++}.mem`;
    await this.writeAtomic(memoryFile, snapshot.memory);
    const previous = this.memoryFile;
    const manifest: Manifest = {
      format: FORMAT,
      key: this.key,
      what: this.what,
      engine: this.engine,
      savedAt: new Date().toISOString(),
      step,
      host,
      globals: snapshot.globals,
      memoryFile,
      memoryBytes: snapshot.memory.length,
      memorySha256: await hex(snapshot.memory),
    };
    await this.writeAtomic(MANIFEST, new TextEncoder().encode(JSON.stringify(manifest)));
    this.memoryFile = memoryFile;
    if (previous) await this.remove(previous);
    this.lastSave = Date.now();
    this.lastStep = step;
    return snapshot.memory.length;
  }

  /** Bytes free on the folder's disk. */
  async free(): Promise<number> {
    const { statfs } = await import('node:fs/promises');
    const { bavail, bsize } = await statfs(this.dir);
    return bavail * bsize;
  }

  /** Records the answer: the folder then answers at once. */
  async finish(answer: SavedAnswer, step: number): Promise<void> {
    const previous = this.memoryFile;
    const manifest: Manifest = { format: FORMAT, key: this.key, what: this.what, engine: this.engine, savedAt: new Date().toISOString(), step, answer };
    await this.writeAtomic(MANIFEST, new TextEncoder().encode(JSON.stringify(manifest)));
    this.memoryFile = undefined;
    if (previous) await this.remove(previous);
  }

  private async remove(name: string): Promise<void> {
    const { rm } = await import('node:fs/promises');
    const { join } = await import('node:path');
    await rm(join(this.dir, name), { force: true });
  }

  // Writes `name` whole or not at all: a temporary file, fsync, rename, and the folder synced.
  private async writeAtomic(name: string, bytes: Uint8Array): Promise<void> {
    const { open, rename, rm } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const temporary = join(this.dir, `${name}.${process.pid}.tmp`);
    try {
      const file = await open(temporary, 'w');
      try {
        for (let at = 0; at < bytes.length; ) at += (await file.write(bytes, at, Math.min(bytes.length - at, 1 << 30))).bytesWritten;
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temporary, join(this.dir, name));
      const folder = await open(this.dir, 'r');
      try {
        await folder.sync();
      } finally {
        await folder.close();
      }
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined);
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOSPC' || code === 'EDQUOT') {
        throw new BitpuzzleError('OUT_OF_DISK', `checkpoint: no room in ${this.dir} for ${bytes.length} bytes; the last whole checkpoint is kept`);
      }
      throw new BitpuzzleError('ENGINE_FAILURE', `checkpoint: cannot write ${join(this.dir, name)} (${code ?? String(error)})`);
    }
  }
}
