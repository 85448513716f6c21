/** Stable error codes: match on `error.code`, never on the message. */
export type ErrorCode =
  | 'BAD_INPUT' // the problem or an option is malformed; the message names what and where
  | 'UNSOLVABLE' // the problem is well formed but provably has no solution
  | 'OUT_OF_MEMORY' // the engine needed more memory than `maxMemory` allows
  | 'ABORTED' // the caller's AbortSignal fired
  | 'ENGINE_FAILURE' // the WebAssembly module could not be loaded or stopped unexpectedly
  | 'QUEUE_UNAVAILABLE'; // the job queue (Redis, BullMQ) could not be reached or failed

export class BitpuzzleError extends Error {
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
