// What every command shares: reading input files, exact JSON, integer options, a progress bar.
import { readFile } from 'node:fs/promises';
import cliProgress from 'cli-progress';
import { BitpuzzleError, type Progress } from '../index.js';

/** Reads FILE, or standard input for '-'. */
export async function readInput(file: string): Promise<string> {
  try {
    if (file === '-') {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    }
    return await readFile(file, 'utf8');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new BitpuzzleError('BAD_INPUT', `cannot read ${file === '-' ? 'standard input' : file}: ${reason}`);
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
          { stream: process.stderr, format: `${label} [{bar}] {percentage}% | {value}/{total} ${unit} | {duration_formatted}`, clearOnComplete: true },
          cliProgress.Presets.shades_classic,
        );
        bar.start(p.total, p.done);
      }
      bar.update(p.done);
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
