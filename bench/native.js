// Builds bench/native/queens.c with gcc into a temporary directory and runs it. The binary
// times its own counting, so process start-up stays out of the figure.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const source = new URL('./native/queens.c', import.meta.url);

/** Compiles the C counter; returns { run(n) → { total: bigint, ms }, dispose() }, or null without gcc. */
export function buildNative() {
  const dir = mkdtempSync(join(tmpdir(), 'bitpuzzle-bench-'));
  const binary = join(dir, 'queens');
  try {
    execFileSync('gcc', ['-O3', '-march=native', '-o', binary, source.pathname], { stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    if (error.code === 'ENOENT') return null; // no gcc on this machine
    throw new Error(`gcc failed on ${source.pathname}:\n${error.stderr}`);
  }
  return {
    run(n) {
      const out = execFileSync(binary, [String(n)], { encoding: 'utf8' });
      const match = /^total=(\d+) ms=([\d.]+)$/m.exec(out);
      if (!match) throw new Error(`unexpected output from the C counter: ${out}`);
      return { total: BigInt(match[1]), ms: Number(match[2]) };
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
