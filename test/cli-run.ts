// Running the command line: in this process through main(argv) with its output captured
// (fast: no Node start-up per run), or as a user runs it, bin/bitpuzzle in a child process.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { main } from '../dist/cli/main.js';

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

export const bin = fileURLToPath(new URL('../bin/bitpuzzle', import.meta.url));

/** bin/bitpuzzle in a child process (for what needs a process of its own: pipes, exit). */
export function spawnCli(args: string[], input?: string): Run {
  const result = spawnSync(process.execPath, [bin, ...args], { input, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * main(argv) in this process, with everything it writes on stdout and stderr captured.
 * Runs one at a time (the capture replaces the process's writers).
 */
export async function runCli(args: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const saved = { log: console.log, error: console.error, out: process.stdout.write, err: process.stderr.write };
  const text = (values: unknown[]): string => values.map(String).join(' ') + '\n';
  console.log = (...values: unknown[]) => void (stdout += text(values));
  console.error = (...values: unknown[]) => void (stderr += text(values));
  process.stdout.write = ((chunk: string | Uint8Array) => ((stdout += String(chunk)), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => ((stderr += String(chunk)), true)) as typeof process.stderr.write;
  try {
    const status = await main(args);
    return { status, stdout, stderr };
  } finally {
    console.log = saved.log;
    console.error = saved.error;
    process.stdout.write = saved.out;
    process.stderr.write = saved.err;
  }
}
