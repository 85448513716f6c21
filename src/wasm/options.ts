// Options every family's API takes, checked the same way everywhere: each public function
// calls checkOptions with the keys it supports, at its entry, before any work starts.
import { badInput, describeValue } from '../errors.js';
import { checkThreads, type Progress, type QueueOption } from '../parallel/pool.js';
import { DEFAULT_MAX_MEMORY } from './protocol.js';

export { checkThreads };

/** 'wasm': the WebAssembly engine; 'js': its pure-TS twin. */
export type EngineKind = 'wasm' | 'js';

export function checkEngine(engine: unknown): EngineKind {
  if (engine === undefined || engine === 'wasm' || engine === 'js') return engine ?? 'wasm';
  throw badInput(`engine must be 'wasm' or 'js', got ${describeValue(engine)}`);
}

/** A solution limit: a non-negative integer, or Infinity when none is given. */
export function checkLimit(limit: unknown): number {
  if (limit === undefined || limit === Infinity) return Infinity;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0) {
    throw badInput(`limit must be a non-negative integer, got ${describeValue(limit)}`);
  }
  return limit;
}

/** An AbortSignal, or undefined. Any object that acts like one passes (signals of other realms too). */
export function checkSignal(signal: unknown): AbortSignal | undefined {
  if (signal === undefined) return undefined;
  const s = signal as AbortSignal | null;
  if (s === null || typeof s !== 'object' || typeof s.aborted !== 'boolean' || typeof s.addEventListener !== 'function') {
    throw badInput(`signal must be an AbortSignal, got ${describeValue(signal)}`);
  }
  return s;
}

/** A progress callback, or undefined. */
export function checkProgress(onProgress: unknown): ((progress: Progress) => void) | undefined {
  if (onProgress === undefined || typeof onProgress === 'function') return onProgress as ((progress: Progress) => void) | undefined;
  throw badInput(`onProgress must be a function, got ${describeValue(onProgress)}`);
}

/** One page of WebAssembly memory: the least an engine instance can have. */
export const MIN_MAX_MEMORY = 65536;

/** A memory limit in bytes (default 1 GiB): a finite number from one Wasm page up. */
export function checkMaxMemory(maxMemory: unknown): number {
  if (maxMemory === undefined) return DEFAULT_MAX_MEMORY;
  if (typeof maxMemory === 'number' && (Number.isNaN(maxMemory) || maxMemory === Infinity)) {
    throw badInput(`maxMemory must be a finite number of bytes, got ${describeValue(maxMemory)}`);
  }
  if (typeof maxMemory !== 'number' || maxMemory < MIN_MAX_MEMORY) {
    throw badInput(`maxMemory must be at least ${MIN_MAX_MEMORY} bytes, got ${describeValue(maxMemory)}`);
  }
  return maxMemory;
}

/** The queue executor's Redis queue: a URL, or { url, prefix } (the URL itself is parsed when it is used). */
export function checkQueue(queue: unknown): QueueOption | undefined {
  if (queue === undefined) return undefined;
  if (typeof queue === 'string' && queue.trim() !== '') return queue;
  if (queue !== null && typeof queue === 'object' && !Array.isArray(queue)) {
    const { url, prefix, ...rest } = queue as Record<string, unknown>;
    const unknown = Object.keys(rest);
    if (unknown.length > 0) throw badInput(`queue: unknown key ${describeValue(unknown[0])} (its keys are url, prefix)`);
    if (typeof url !== 'string' || url.trim() === '') throw badInput(`queue.url must be a non-empty string, got ${describeValue(url)}`);
    if (prefix !== undefined && (typeof prefix !== 'string' || prefix === '')) {
      throw badInput(`queue.prefix must be a non-empty string, got ${describeValue(prefix)}`);
    }
    return queue as QueueOption;
  }
  throw badInput(`queue must be a redis:// or rediss:// URL, or { url, prefix }, got ${describeValue(queue)}`);
}

/** A thread count: pool.ts's check, after a type check of our own (its message prints numbers only). */
export function checkThreadCount(threads: unknown): number {
  if (threads !== undefined && typeof threads !== 'number') {
    throw badInput(`threads must be an integer from 1 to 1024, got ${describeValue(threads)}`);
  }
  return checkThreads(threads);
}

/** Checks of the options shared by several families, run by checkOptions when the key is allowed. */
const SHARED_CHECKS: Record<string, (value: unknown) => unknown> = {
  signal: checkSignal,
  onProgress: checkProgress,
  maxMemory: checkMaxMemory,
  engine: checkEngine,
  limit: checkLimit,
  threads: checkThreadCount,
  queue: checkQueue,
};

/**
 * Checks that a problem object has only the keys it may have: a misspelt key (`bord`) would
 * otherwise fall back to a default silently. Keys set to undefined pass, as for options.
 */
export function checkKeys(value: object, allowed: readonly string[], what: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key) && (value as Record<string, unknown>)[key] !== undefined) {
      throw badInput(`${what} has an unknown key ${JSON.stringify(key)} (its keys are ${allowed.join(', ')})`);
    }
  }
}

/**
 * Checks an options argument: undefined (no options) or a plain object whose keys are all in
 * `allowed`; a key the function does not take is BAD_INPUT naming it and the allowed ones (a
 * typo such as `thread: 2` is never silently ignored; an unknown key set to undefined is let
 * through, since spreading optional values produces those). The shared options among the
 * allowed keys (signal, onProgress, maxMemory, engine, limit, threads, queue) are checked here too;
 * the family checks its own.
 */
export function checkOptions<T extends object>(options: T | undefined, allowed: readonly string[], where: string): T {
  if (options === undefined) return {} as T;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw badInput(`${where}: options must be an object, got ${describeValue(options)}`);
  }
  for (const key of Object.keys(options)) {
    const value = (options as Record<string, unknown>)[key];
    if (!allowed.includes(key)) {
      if (value === undefined) continue;
      throw badInput(`${where}: unknown option ${JSON.stringify(key)} (its options are ${allowed.join(', ')})`);
    }
    SHARED_CHECKS[key]?.(value);
  }
  return options;
}
