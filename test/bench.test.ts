// The bench scripts' command lines (bench/common.js, benchArgs): --help prints the script's
// opening comment, an option a script does not know stops it at once with one line.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const benchDir = new URL('../bench/', import.meta.url);
// The scripts (the others in bench/ are modules they share).
const scripts = readdirSync(benchDir).filter((name) => name.endsWith('.js') && /\bbenchArgs\(import\.meta\.url/.test(readFileSync(new URL(name, benchDir), 'utf8')));

/** The script's exit code, standard output and standard error. */
async function bench(name: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [new URL(name, benchDir).pathname, ...args], { timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('bench scripts', () => {
  it('every script parses its options with benchArgs', () => {
    const all = readdirSync(benchDir).filter((name) => name.endsWith('.js'));
    const modules = ['common.js', 'native.js', 'baseline-queens.js', 'redis.js'];
    expect(scripts.sort()).toEqual(all.filter((name) => !modules.includes(name)).sort());
  });

  it('prints the opening comment for --help, and stops on an unknown option', async () => {
    await Promise.all(
      scripts.map(async (name) => {
        const firstLine = readFileSync(new URL(name, benchDir), 'utf8').split('\n')[0].replace(/^\/\/ ?/, '');
        const help = await bench(name, '--help');
        expect(help.code, name).toBe(0);
        expect(help.stdout.split('\n')[0], name).toBe(firstLine);
        const bad = await bench(name, '--no-such-option');
        expect(bad.code, name).toBe(1);
        expect(bad.stderr.trim(), name).toBe("bench: Unknown option '--no-such-option' (--help tells what this script takes)");
      }),
    );
  }, 120_000);

  it('names the built-in boards when a peg script is given another', async () => {
    for (const args of [['pegs-table.js', 'nonsuch'], ['pegs-fewest.js', '--least', 'nonsuch']]) {
      const bad = await bench(args[0], ...args.slice(1));
      expect(bad.code, args.join(' ')).toBe(1);
      expect(bad.stderr.trim(), args.join(' ')).toMatch(/^bench: no built-in board nonsuch; the boards: english, french, /);
    }
  });
});
