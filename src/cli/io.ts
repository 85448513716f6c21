// What every command shares: reading input files, writing output files whole or not at all,
// exact JSON, integer options, flag checks, the exit status, a progress bar.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { open, readFile, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import cliProgress from 'cli-progress';
import { BitpuzzleError } from '../errors.js';
import type { Progress } from '../parallel/pool.js';

/** Exit statuses; main.ts has the table saying which outcome gets which. */
export const EXIT = { ANSWERED: 0, NO_SOLUTION: 1, BAD_INPUT: 2, STOPPED: 3, FAILURE: 4 } as const;

/** The exit status the running command settled on (main resets it before each run and returns it). */
export const outcome = { status: EXIT.ANSWERED as number };

/** No solution (exit 1; with --json the error object, code UNSOLVABLE): a search that found none. */
export function noSolution(message = 'the search found no solution'): BitpuzzleError {
  return new BitpuzzleError('UNSOLVABLE', message);
}

export function badUsage(message: string): BitpuzzleError {
  return new BitpuzzleError('BAD_INPUT', message);
}

/**
 * BAD_INPUT naming every flag of `flags` that was given (not undefined or false): in `mode`
 * they would be silently ignored.
 */
export function rejectFlags(mode: string, flags: Record<string, unknown>): void {
  const given = Object.keys(flags).filter((name) => flags[name] !== undefined && flags[name] !== false);
  if (given.length === 0) return;
  throw badUsage(`${given.join(' and ')} ${given.length === 1 ? 'does' : 'do'} not work ${mode}`);
}

/** Why an output file cannot be written, in words. */
function writeFailure(path: string, error: unknown): BitpuzzleError {
  const code = (error as NodeJS.ErrnoException)?.code;
  const reason =
    code === 'ENOENT' ? `the folder ${JSON.stringify(dirname(path))} does not exist`
    : code === 'EACCES' || code === 'EPERM' ? 'permission denied'
    : code === 'EISDIR' ? 'it is a folder'
    : code === 'ENOTDIR' ? 'a part of the path is not a folder'
    : code === 'ENOSPC' ? 'the disk is full'
    : error instanceof Error ? error.message : String(error);
  return new BitpuzzleError('BAD_INPUT', `cannot write ${JSON.stringify(path)}: ${reason}`);
}

/**
 * Ctrl-C (or SIGTERM) aborts the run, so that it cleans up behind it (a queue's waiting parts, a
 * count's levels on disk) and ends with ABORTED, instead of killing the process at once; a second
 * one exits at once. dispose() gives the signals back when the run is over.
 */
export function abortOnInterrupt(stopping: string): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  let handler: ((signal: NodeJS.Signals) => void) | undefined;
  const listen = (next: typeof handler): void => {
    if (handler) for (const name of ['SIGINT', 'SIGTERM'] as const) process.off(name, handler);
    handler = next;
    if (handler) for (const name of ['SIGINT', 'SIGTERM'] as const) process.on(name, handler);
  };
  listen((signal) => {
    console.error(`bitpuzzle: stopping on ${signal}: ${stopping} (Ctrl-C again to quit at once)`);
    listen((again) => process.exit(again === 'SIGTERM' ? 143 : 130));
    controller.abort();
  });
  return { signal: controller.signal, dispose: () => listen(undefined) };
}

/** Temporary files not yet renamed or removed: an interrupt removes them before it ends the process. */
const pendingTemporaries = new Set<string>();

function onInterrupt(signal: NodeJS.Signals): void {
  for (const temporary of pendingTemporaries) rmSync(temporary, { force: true });
  process.stderr.write(`bitpuzzle: stopped by ${signal}; no output file was written\n`);
  process.exit(EXIT.STOPPED);
}

function track(temporary: string, pending: boolean): void {
  if (pending) pendingTemporaries.add(temporary);
  else pendingTemporaries.delete(temporary);
  const listening = process.listeners('SIGINT').includes(onInterrupt);
  if (pendingTemporaries.size > 0 && !listening) {
    process.on('SIGINT', onInterrupt);
    process.on('SIGTERM', onInterrupt);
  } else if (pendingTemporaries.size === 0 && listening) {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onInterrupt);
  }
}

/**
 * A file written whole or not at all: the data goes to a temporary name in the same folder,
 * renamed over `path` by commit(); discard() (or any failure) removes it. Opened before the
 * work starts, so that a bad path fails at once.
 */
export class OutputFile {
  private constructor(
    readonly path: string,
    private readonly temporary: string,
    private readonly handle: FileHandle,
  ) {}

  static async open(path: string): Promise<OutputFile> {
    const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      if ((await stat(path).catch(() => null))?.isDirectory()) throw Object.assign(new Error('is a folder'), { code: 'EISDIR' });
      // Tracked before it exists: an interrupt between its creation and this function's return
      // (the main thread busy meanwhile) must still remove it.
      track(temporary, true);
      return new OutputFile(path, temporary, await open(temporary, 'wx'));
    } catch (error) {
      track(temporary, false);
      throw writeFailure(path, error);
    }
  }

  /** Writes the whole content and commits. */
  async write(data: string): Promise<void> {
    try {
      await this.handle.writeFile(data);
    } catch (error) {
      await this.discard();
      throw writeFailure(this.path, error);
    }
    await this.commit();
  }

  /**
   * Writes chunks as they come (for data too big to hold), then commits; a failure of the
   * writes or of the chunks' source discards the file.
   */
  async pipe(chunks: AsyncIterable<string>): Promise<void> {
    try {
      for await (const chunk of chunks) {
        try {
          await this.handle.write(chunk);
        } catch (error) {
          throw writeFailure(this.path, error);
        }
      }
    } catch (error) {
      await this.discard();
      throw error;
    }
    await this.commit();
  }

  private async commit(): Promise<void> {
    try {
      await this.handle.close();
      await rename(this.temporary, this.path);
    } catch (error) {
      await unlink(this.temporary).catch(() => undefined);
      throw writeFailure(this.path, error);
    } finally {
      track(this.temporary, false);
    }
  }

  /** Removes the temporary file. */
  async discard(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await unlink(this.temporary).catch(() => undefined);
    track(this.temporary, false);
  }
}

/** The most a gzip-compressed input may inflate to: a string's length in V8 stays below 512 MiB. */
const MAX_INFLATED = 512 * 2 ** 20;
const inflate = promisify(gunzip);

/** Reads FILE, or standard input for '-', as text; gzip-compressed input (by its first bytes, whatever the name) is inflated. */
export async function readInput(file: string): Promise<string> {
  const where = file === '-' ? 'standard input' : file;
  let bytes: Buffer;
  try {
    if (file === '-') {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      bytes = Buffer.concat(chunks);
    } else bytes = await readFile(file);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new BitpuzzleError('BAD_INPUT', `cannot read ${where}: ${reason}`);
  }
  if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes.toString('utf8');
  try {
    return (await inflate(bytes, { maxOutputLength: MAX_INFLATED })).toString('utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ERR_BUFFER_TOO_LARGE' ? `it inflates to more than ${MAX_INFLATED / 2 ** 20} MiB` : error instanceof Error ? error.message : String(error);
    throw new BitpuzzleError('BAD_INPUT', `cannot read ${where} (gzip-compressed): ${reason}`);
  }
}

/** JSON with BigInts written as exact integers. */
export function toJson(value: unknown): string {
  const marker = '__bitpuzzle_bigint__:';
  const text = JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? marker + v.toString() : v));
  return text.replace(new RegExp(`"${marker}(-?\\d+)"`, 'g'), '$1');
}

/** Parses an integer option, naming the option when it is not one. */
export function integerOption(name: string, text: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\s*-?\d+\s*$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `an integer of at least ${min}` : `an integer from ${min} to ${max}`;
    throw new BitpuzzleError('BAD_INPUT', `${name} must be ${range}, got ${JSON.stringify(text)}`);
  }
  return value;
}

/**
 * A size in bytes (of memory or disk): plain bytes (`1073741824`) or a number with a binary unit K, M, G or T
 * (`512M`, `1.5G`, `4G`; a trailing B or iB is allowed: `4GiB`). Undefined when not given;
 * anything else is BAD_INPUT naming the flag.
 */
export function sizeOption(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const match = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(?:([kmgt])(?:i?b)?|b)?\s*$/i.exec(text);
  const scale = match ? 1024 ** ' kmgt'.indexOf((match[2] ?? ' ').toLowerCase()) : NaN;
  const bytes = match ? Math.floor(Number(match[1]) * scale) : NaN;
  if (!Number.isSafeInteger(bytes) || bytes <= 0) {
    throw new BitpuzzleError('BAD_INPUT', `${name} must be a size such as 4G, 512M, 1.5G or a number of bytes, got ${JSON.stringify(text)}`);
  }
  return bytes;
}

/**
 * A progress callback that draws a bar on stderr when it is a terminal and the work has
 * already taken a while; `unit` names what it counts. `stop` clears it.
 */
export function progressBar(label: string, unit = 'parts', delayMs = 400): { onProgress: (p: Progress) => void; stop: () => void } {
  const started = Date.now();
  let bar: cliProgress.SingleBar | undefined;
  return {
    onProgress(p) {
      if (!process.stderr.isTTY) return;
      if (!bar) {
        if (Date.now() - started < delayMs || p.done === p.total) return;
        bar = new cliProgress.SingleBar(
          { stream: process.stderr, format: `${label} [{bar}] {percentage}% | {value}/{total} ${unit}{phase} | {duration_formatted}`, clearOnComplete: true },
          cliProgress.Presets.shades_classic,
        );
        bar.start(p.total, p.done, { phase: '' });
      }
      bar.update(p.done, { phase: p.phase ? ` | ${p.phase}` : '' });
    },
    stop() {
      bar?.stop();
    },
  };
}

/** How many solutions to list: every one with --all, K with --limit K, else 1. */
export function listLimit(flags: { all?: boolean; limit?: string }): number {
  const limit = integerOption('--limit', flags.limit, 0);
  if (flags.all && limit !== undefined) throw new BitpuzzleError('BAD_INPUT', 'give --limit or --all, not both');
  return flags.all ? Infinity : limit ?? 1;
}

/** Runs `each` on every solution; the iterator's final value (the search's stats). */
export async function eachSolution<T, R>(solutions: AsyncGenerator<T, R, undefined>, each: (solution: T) => void): Promise<R> {
  for (;;) {
    const step = await solutions.next();
    if (step.done) return step.value;
    each(step.value);
  }
}
