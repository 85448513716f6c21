// Compiles the engine module once per thread (or takes one compiled elsewhere) and hands
// out instances. Node reads the .wasm beside the built module; browsers and bundlers fetch it.
import { instantiateSync } from '@assemblyscript/loader';
import { BitpuzzleError, describeValue } from '../errors.js';
import { setMemoryLimit, type EngineExports } from './protocol.js';

/** Where the engine lives: dist/bitpuzzle.wasm beside dist/wasm/module.js. */
export const engineUrl = new URL('../bitpuzzle.wasm', import.meta.url);

let compiled: Promise<WebAssembly.Module> | undefined;
let engineLocation: URL = engineUrl;

/**
 * Loads the engine from another address (a CDN, an asset URL a bundler made) instead of the
 * file beside the module. Takes effect for engines compiled after the call.
 */
export function setEngineUrl(url: string | URL): void {
  const base = (globalThis as { location?: { href: string } }).location?.href ?? engineUrl.href;
  try {
    engineLocation = new URL(url, base);
  } catch {
    throw new BitpuzzleError('BAD_INPUT', `setEngineUrl: ${describeValue(url)} is not a URL`);
  }
  compiled = undefined;
}

/**
 * Compiles the engine at `url`: read from disk for file: URLs, fetched otherwise (streaming
 * when the server sends application/wasm). Failures are ENGINE_FAILURE naming the URL.
 */
export async function compileEngineModule(url: URL): Promise<WebAssembly.Module> {
  try {
    return await compile(url);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new BitpuzzleError('ENGINE_FAILURE', `could not load the WebAssembly engine from ${url.href}: ${reason}`, {
      cause: error,
    });
  }
}

async function compile(url: URL): Promise<WebAssembly.Module> {
  if (url.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    return WebAssembly.compile(await readFile(url));
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`);
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('application/wasm') && typeof WebAssembly.compileStreaming === 'function') {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

let version: Promise<string> | undefined;
// Not a literal in new URL(): bundlers would copy the file into a browser build, which never reads it.
const PACKAGE_JSON = '../../package.json';

/**
 * The package version and a hash of the engine file (Node): queue parts and checkpoints of
 * different engines never mix.
 */
export function engineVersion(): Promise<string> {
  version ??= (async () => {
    const { readFile } = await import('node:fs/promises');
    const { createHash } = await import('node:crypto');
    const pkg = JSON.parse(await readFile(new URL(PACKAGE_JSON, import.meta.url), 'utf8')) as { version: string };
    const wasm = createHash('sha256').update(await readFile(engineUrl)).digest('hex').slice(0, 12);
    return `${pkg.version}+${wasm}`;
  })();
  return version;
}

/** The compiled engine, compiled on first use. */
export function loadEngineModule(): Promise<WebAssembly.Module> {
  compiled ??= compileEngineModule(engineLocation).catch((error: unknown) => {
    compiled = undefined; // a later call may try again
    throw error;
  });
  return compiled;
}

/** Uses a module compiled by another thread instead of compiling one here. */
export function useEngineModule(module: WebAssembly.Module): void {
  compiled = Promise.resolve(module);
}

/** A fresh instance with its own memory (or with the memory that `imports` gives). */
/**
 * Whether threads can share one memory here: Node, and browsers on cross-origin-isolated pages
 * (elsewhere SharedArrayBuffer is missing, and each thread gets a copy of what it needs).
 */
export function canShareMemory(): boolean {
  const scope = globalThis as { SharedArrayBuffer?: unknown; crossOriginIsolated?: boolean };
  return typeof scope.SharedArrayBuffer === 'function' && scope.crossOriginIsolated !== false;
}

export function instantiateEngine(module: WebAssembly.Module, imports: Record<string, Record<string, unknown>> = {}): EngineExports {
  return instantiateSync(module, imports).exports as unknown as EngineExports;
}

// Instances not in use. Each search holds one instance for its whole life, so searches that
// interleave (two async iterators, say) never share engine state; a thread reuses its instances.
const idle: EngineExports[] = [];

/** An instance of its own for one search; give it back with releaseEngine. */
export async function acquireEngine(): Promise<EngineExports> {
  const spare = idle.pop();
  if (spare) return spare;
  return instantiateEngine(await loadEngineModule());
}

/** acquireEngine with the search's memory limit set (the instance goes back if the limit is refused). */
export async function acquireEngineWithLimit(maxMemory: number): Promise<EngineExports> {
  const exports = await acquireEngine();
  try {
    setMemoryLimit(exports, maxMemory);
  } catch (error) {
    releaseEngine(exports);
    throw error;
  }
  return exports;
}

// The most memory an idle instance may hold. Wasm memory never shrinks, so an instance that grew
// for a big search would keep that memory resident for the life of the process; one let go is
// collected with its memory, and a new one costs about 1.3 ms (instantiating the compiled module).
export const KEEP_IDLE_BYTES = 64 * 1024 * 1024;

export function releaseEngine(engine: EngineExports): void {
  // A limit set for one search must not carry over to the next user of this instance.
  setMemoryLimit(engine);
  if (idle.length < 8 && engine.memory.buffer.byteLength <= KEEP_IDLE_BYTES) idle.push(engine);
}
