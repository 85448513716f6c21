// Limits up front: a request beyond a family's maximum sizes, or one that cannot fit in
// maxMemory, fails at once with BAD_INPUT or OUT_OF_MEMORY naming the limit, before any work.
// ("At once" is bounded generously: these requests used to run for seconds before failing.)
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BitpuzzleError, cover, pegs, polyomino, queens, samegame, sliding, sudoku } from '../dist/index.js';

const AT_ONCE_MS = 1000;

/** The call fails with `code`, its message matching `pattern`, within AT_ONCE_MS. */
async function expectRefused(call: () => unknown, code: string, pattern: RegExp): Promise<void> {
  const started = performance.now();
  let error: unknown = null;
  try {
    await call();
  } catch (caught) {
    error = caught;
  }
  expect(performance.now() - started).toBeLessThan(AT_ONCE_MS);
  expect(error).toBeInstanceOf(BitpuzzleError);
  expect((error as BitpuzzleError).code).toBe(code);
  expect((error as BitpuzzleError).message).toMatch(pattern);
}

describe('each family checks its maximum sizes before any work', () => {
  it('queens: construct and solve up to 100,000,000 rows; counting up to 32', async () => {
    expect(queens.MAX_CONSTRUCT_N).toBe(100_000_000);
    await expectRefused(() => queens.construct(200_000_000), 'BAD_INPUT', /from 1 to 100000000.*got 200000000/);
    await expectRefused(() => queens.solve(200_000_000), 'BAD_INPUT', /100000000/);
    await expectRefused(() => queens.count(33), 'BAD_INPUT', /up to 32/);
  });

  it('queens: a construction that cannot fit in maxMemory is OUT_OF_MEMORY at once', async () => {
    await expectRefused(() => queens.construct(50_000_000, { maxMemory: 64 * 1024 * 1024 }), 'OUT_OF_MEMORY', /400000000 bytes.*maxMemory \(67108864 bytes\)/);
    // within the limit it is built, and it is a solution
    const columns = await queens.construct(1_000_000, { maxMemory: 16 * 1024 * 1024 });
    expect(columns).not.toBeNull();
    expect(queens.isSolution(columns!)).toBe(true);
  });

  it('sliding: boards up to 4096×4096 cells', async () => {
    expect(sliding.MAX_CELLS).toBe(4096 * 4096);
    await expectRefused(() => sliding.randomBoard(100_000, 100_000), 'BAD_INPUT', /100000×100000 board has more than 16777216 cells/);
    await expectRefused(() => sliding.parseSize('5000x5000'), 'BAD_INPUT', /16777216/);
    await expectRefused(() => sliding.solve({ rows: 5000, cols: 5000, tiles: [] }, { lengthOnly: true }), 'BAD_INPUT', /16777216/);
  });

  it('samegame: boards up to 32×32', async () => {
    const board = Array.from({ length: 33 }, () => '12'.repeat(16) + '1').join('\n');
    await expectRefused(() => samegame.clear(board), 'BAD_INPUT', /32×32/);
  });

  it('polyomino: regions up to 1024 cells', async () => {
    await expectRefused(() => polyomino.count({ region: '100000x100000' }), 'BAD_INPUT', /at most 1024/);
  });

  it('pegs: boards up to 64 holes, countOptimal up to 48', async () => {
    await expectRefused(() => pegs.count({ board: 'o'.repeat(70) }), 'BAD_INPUT', /more than 64 holes/);
    await expectRefused(() => pegs.minMoves({ board: 'o'.repeat(70) }), 'BAD_INPUT', /more than 64 holes/);
    await expectRefused(() => pegs.countOptimal({ board: `${'o'.repeat(49)}.`, finish: 'any' }), 'BAD_INPUT', /up to 48 holes/);
  });

  it('cover and sudoku: 1,048,576 columns, box size up to 8 (64×64)', async () => {
    await expectRefused(() => cover.count({ columns: 5_000_000, rows: [[0]] }), 'BAD_INPUT', /1048576/);
    const grid81 = Array.from({ length: 81 }, () => new Array<number>(81).fill(0));
    await expectRefused(() => sudoku.count(grid81), 'BAD_INPUT', /from 1 to 8/);
  });
});

describe('maxMemory', () => {
  it('is validated by every family: -1 is BAD_INPUT naming the option', async () => {
    const bad = { maxMemory: -1 };
    await expectRefused(() => queens.construct(1000, bad), 'BAD_INPUT', /maxMemory must be at least 65536 bytes, got -1/);
    await expectRefused(() => pegs.count({ board: 'triangle5', finish: 'any' }, bad), 'BAD_INPUT', /maxMemory/);
    await expectRefused(() => cover.count({ columns: 1, rows: [[0]] }, bad), 'BAD_INPUT', /maxMemory/);
    await expectRefused(() => sliding.solve('1 2 3\n4 5 6\n7 _ 8', bad), 'BAD_INPUT', /maxMemory/);
    await expectRefused(() => samegame.clear('11', bad), 'BAD_INPUT', /maxMemory/);
  });

  it('bounds the engines of a call together: threads share it', async () => {
    // 100,000 bytes is more than the smallest engine (64 KiB), but not for each of two threads.
    await expectRefused(
      () => samegame.score('1122\n2211', { threads: 2, maxNodes: 1000, maxMemory: 100_000 }),
      'OUT_OF_MEMORY',
      /maxMemory \(100000 bytes\) shared by 2 engines/,
    );
  });
});

describe('the command line', () => {
  const run = promisify(execFile);

  it('refuses queens 200000000 at once with exit 2 and the limit', async () => {
    const started = performance.now();
    const failure = await run('node', ['bin/bitpuzzle', 'queens', '200000000']).catch((error: { code: number; stderr: string }) => error);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect((failure as { code: number }).code).toBe(2);
    expect((failure as { stderr: string }).stderr).toMatch(/100000000/);
    expect((failure as { stderr: string }).stderr).not.toMatch(/RangeError|at /);
  });

  it('streams the JSON of a constructed solution (its text outgrows a JavaScript string at 100,000,000)', async () => {
    const { stdout } = await run('node', ['bin/bitpuzzle', 'queens', '1000', '--json']);
    const answer = JSON.parse(stdout) as { n: number; method: string; solutions: number[][] };
    expect(answer.n).toBe(1000);
    expect(answer.method).toBe('construction');
    expect(queens.isSolution(answer.solutions[0])).toBe(true);
  });
});

describe('a maxMemory above what one engine can address', () => {
  it('an OUT_OF_MEMORY names the 4 GiB cap of a 32-bit WebAssembly memory when maxMemory is above it', async () => {
    const { Status, checkStatus } = await import('../dist/wasm/protocol.js');
    const over = (maxMemory: number): BitpuzzleError => {
      try {
        checkStatus(Status.OUT_OF_MEMORY, 'counting', maxMemory);
      } catch (error) {
        return error as BitpuzzleError;
      }
      throw new Error('checkStatus did not throw');
    };
    expect(over(8 * 2 ** 30)).toMatchObject({ code: 'OUT_OF_MEMORY', message: expect.stringMatching(/maxMemory \(8589934592 bytes; one WebAssembly engine addresses at most 4294967296 bytes, 4 GiB\)/) });
    expect(over(2 ** 30).message).toBe('counting needs more than maxMemory (1073741824 bytes)');
  });
});
