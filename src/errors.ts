/** Stable error codes: match on `error.code`, never on the message. */
export type ErrorCode =
  | 'BAD_INPUT' // the problem or an option is malformed; the message names what and where
  | 'UNSOLVABLE' // the problem is well formed but provably has no solution
  | 'OUT_OF_MEMORY' // the engine needed more memory than `maxMemory` allows
  | 'OUT_OF_DISK' // a count with its levels on disk found too little free space in its folder
  | 'ABORTED' // the caller's AbortSignal fired
  | 'ENGINE_FAILURE' // the WebAssembly module could not be loaded or stopped unexpectedly
  | 'QUEUE_UNAVAILABLE'; // the job queue (Redis, BullMQ) could not be reached or failed

/** The error every API function throws or rejects with; `code` says which kind it is. */
export class BitpuzzleError extends Error {
  /** What went wrong, as a stable code (see ErrorCode). */
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BitpuzzleError';
    this.code = code;
  }
}

export function badInput(message: string): BitpuzzleError {
  return new BitpuzzleError('BAD_INPUT', message);
}

/** The error for an aborted signal, keeping the signal's reason as the cause. */
export function aborted(signal: AbortSignal): BitpuzzleError {
  return new BitpuzzleError('ABORTED', 'the operation was aborted', { cause: signal.reason });
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw aborted(signal);
}

/** True for an array with no holes (a sparse array's holes are skipped by every, map and forEach). */
export function isDenseArray(value: unknown): value is unknown[] {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (!(i in value)) return false;
  return true;
}

/**
 * Any value as messages print it: numbers and BigInts as plain integers (`12`, never `12n`),
 * strings JSON-quoted, arrays and plain objects in JSON-like form, shortened. Never throws
 * (String() and JSON.stringify() do on symbols, BigInts or objects without a prototype).
 */
export function describeValue(value: unknown, room = 60): string {
  const text = describe(value, 2);
  return text.length > room ? `${text.slice(0, room - 1)}…` : text;
}

function describe(value: unknown, depth: number): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
    case 'boolean':
    case 'undefined':
      return String(value);
    case 'bigint':
      return value.toString();
    case 'symbol':
      return value.description === undefined ? 'a symbol' : `symbol ${JSON.stringify(value.description)}`;
    case 'function':
      return 'a function';
  }
  if (value === null) return 'null';
  if (depth === 0) return Array.isArray(value) ? '[…]' : '{…}';
  if (Array.isArray(value)) {
    const items = value.slice(0, 8).map((item) => describe(item, depth - 1));
    return `[${items.join(', ')}${value.length > 8 ? ', …' : ''}]`;
  }
  if (ArrayBuffer.isView(value)) return `a ${value.constructor?.name ?? 'typed array'}`;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    const name = (proto as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === 'string' && name ? `a ${name}` : 'an object';
  }
  const keys = Object.keys(value as object);
  const entries = keys.slice(0, 6).map((key) => `${JSON.stringify(key)}: ${describe((value as Record<string, unknown>)[key], depth - 1)}`);
  return `{${entries.join(', ')}${keys.length > 6 ? ', …' : ''}}`;
}
