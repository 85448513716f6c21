// Peg solitaire: counting with the levels on disk (spill), its rounds, files and signals.
import { describe, expect, it } from 'vitest';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { pegs } from '../dist/index.js';
import { expectAbortedPromptly, tempDir } from './helpers.js';
import { bruteCount, randomProblems, expectCode, FRENCH_START, FRENCH_FINISH, empty } from './pegs-helpers.js';

describe('counting with the levels on disk', () => {
  // countBothEnds with spill 'always' puts the levels on disk from the first (the public API
  // does it when a level would not fit in maxMemory); a window of a few pairs makes every
  // level pass through many reads.

  it('counts like in memory and like the brute force: both sides, one side for both, 12- and 16-byte pairs', async () => {
    const { countBothEnds, dualSymmetry } = await import('../dist/pegs/meet.js');
    const dir = tempDir('pegs-spill-');
    let partFiles = 0;
    let partWrites = 0;
    let joinPasses = 0;
    const onDisk = async (problem: pegs.PegsProblem, options: Record<string, unknown> = {}, maxMemory = 64 << 20): Promise<bigint> => {
      const phases: string[] = [];
      const counted = await countBothEnds(problem, maxMemory, {
        spill: 'always',
        spillDir: dir,
        windowBytes: 100,
        onProgress: (p: { phase?: string }) => p.phase && phases.push(p.phase),
        ...options,
      });
      expect(phases[0]).toMatch(new RegExp(`^levels on disk in ${dir}/bitpuzzle-pegs-`));
      empty(dir);
      partFiles += counted.partFiles;
      partWrites += counted.partWrites;
      joinPasses = counted.joinPasses;
      return counted.total;
    };
    // Both sides: triangles and random boards with one finish or any, against the brute force.
    let checked = 0;
    for (const open of [pegs.toProblem({ board: 'triangle5', finish: 'any' }), pegs.toProblem({ board: 'triangle5', start: 'b3', finish: 'any' }), ...randomProblems(43, 6, 3)]) {
      const { board } = open;
      const start = pegs.positionPicture(board, open.start);
      for (const problem of [open, ...open.finishes.slice(0, 2).map((f) => pegs.toProblem({ board, start, finish: board.holes[f.toString(2).length - 1].name }))]) {
        if (problem.start.toString(2).replace(/0/g, '').length < problem.finishes[0].toString(2).replace(/0/g, '').length + 2) continue;
        const brute = bruteCount(board.jumps, Number(problem.start), problem.finishes.map(Number));
        expect(await onDisk(problem)).toBe(brute);
        // Each level in parts from one pass over its parent, and the join in parts from one
        // pass over the streamed side.
        expect(await onDisk(problem, { fewestParts: 3, windowBytes: 48 })).toBe(brute);
        // (A problem with no solution may end before the join, a side having emptied.)
        if (brute > 0n) expect(joinPasses).toBeGreaterThanOrEqual(3);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(8);
    // One side serving for both (a symmetry maps the finish's complement onto the start).
    const board = 'ooooo\nooooo\noo.oo\nooooo';
    let dual = 0;
    for (const { name } of pegs.parseBoard(board).holes) {
      let problem: pegs.PegsProblem;
      try {
        problem = pegs.toProblem({ board, start: 'b1', finish: name });
      } catch {
        continue; // another position class
      }
      if (!dualSymmetry(problem)) continue;
      const brute = bruteCount(problem.board.jumps, Number(problem.start), problem.finishes.map(Number));
      expect(await onDisk(problem)).toBe(brute);
      expect(await onDisk(problem, { fewestParts: 5 })).toBe(brute);
      dual++;
    }
    expect(dual).toBeGreaterThanOrEqual(1);
    // The 4×6 board (the central game, and a1 -> d1 from both sides) and the French 13 jumps,
    // with 12-byte and 16-byte pairs, and with 12-byte ones too narrow (counted again in 16).
    for (const [start, finish] of [['c3', 'c3'], ['a1', 'd1']]) {
      const problem = pegs.toProblem({ board: 'oooooo\noooooo\noo.ooo\noooooo', start, finish });
      const forward = (await pegs.count(problem, { threads: 1 })).total;
      expect(await onDisk(problem, { windowBytes: 4096 })).toBe(forward);
      expect(await onDisk(problem, { narrowBits: 0, windowBytes: 4000 })).toBe(forward);
      expect(await onDisk(problem, { narrowBits: 8, windowBytes: 4096 })).toBe(forward);
      expect(await onDisk(problem, { fewestParts: 7, windowBytes: 4096 })).toBe(forward);
      expect(await onDisk(problem, { fewestParts: 4, narrowBits: 8, windowBytes: 4096 })).toBe(forward);
      // A part's file summed, and a part of the join joined, in several passes (their tables
      // may not grow past 8,192 slots).
      expect(await onDisk(problem, { fewestParts: 4, sumSlots: 8192, windowBytes: 4096 })).toBe(forward);
      expect(joinPasses).toBeGreaterThan(4);
      // In 5 pages (320 KiB), the parts' regions fill many times before their parents are
      // done (18 and 13 writes a file on the two problems). 4 pages (as 300 kB was) left about
      // 2 KiB above what the engine needs to start: a new table anywhere in it failed this test.
      const [files, writes] = [partFiles, partWrites];
      expect(await onDisk(problem, { fewestParts: 2, windowBytes: 4096 }, 5 * 65536)).toBe(forward);
      expect(partWrites - writes).toBeGreaterThan(10 * (partFiles - files));
    }
    const french = pegs.toProblem({ board: 'french', start: FRENCH_START, finish: FRENCH_FINISH });
    expect(await onDisk(french, { windowBytes: 4096 })).toBe(648648n);
    expect(await onDisk(french, { dual: false, windowBytes: 4096 })).toBe(648648n);
    expect(await onDisk(french, { fewestParts: 6, windowBytes: 4096 })).toBe(648648n);
    // The part files were used: every level above since the first was in parts.
    expect(partFiles).toBeGreaterThan(100);
  });

  it('goes to disk when a level would not fit in maxMemory, in parts, and only then', async () => {
    const { countBothEnds } = await import('../dist/pegs/meet.js');
    const dir = tempDir('pegs-spill-');
    for (const [start, finish] of [['c3', 'c3'], ['a1', 'd1']]) {
      const problem = pegs.toProblem({ board: 'oooooo\noooooo\noo.ooo\noooooo', start, finish });
      const whole = await countBothEnds(problem, 64 << 20, { spill: true, spillDir: dir });
      let phase: string | undefined;
      const tight = await countBothEnds(problem, Math.round(whole.memory * 0.4), { spill: true, spillDir: dir, onProgress: (p: { phase?: string }) => (phase ??= p.phase) });
      expect(tight.total).toBe(whole.total);
      expect(tight.memory).toBeLessThan(whole.memory * 0.4);
      expect(phase).toMatch(/^levels on disk in /);
      empty(dir);
      // Without the disk, the same memory is not enough.
      await expectCode(countBothEnds(problem, Math.round(whole.memory * 0.4), {}), 'OUT_OF_MEMORY', /levels deep/);
    }
    // The public API: the French 13 jumps in a little memory, on disk only when needed.
    const french = pegs.toProblem({ board: 'french', start: FRENCH_START, finish: FRENCH_FINISH });
    const phases: string[] = [];
    const counted = await pegs.count(french, { maxMemory: 1 << 20, spillDir: dir, onProgress: (p) => p.phase && phases.push(p.phase) });
    expect(counted.total).toBe(648648n);
    expect(phases.length).toBeGreaterThan(0);
    empty(dir);
    await expectCode(pegs.count(french, { maxMemory: 1 << 20, spill: false }), 'OUT_OF_MEMORY', /levels deep/);
    // spillAbove: the engine's most when levels may go to disk, whatever maxMemory allows.
    const above: string[] = [];
    const capped = await pegs.count(french, { spillAbove: 1 << 20, spillDir: dir, onProgress: (p) => p.phase && above.push(p.phase) });
    expect([capped.total, above.length > 0, capped.memory <= 1 << 20]).toEqual([648648n, true, true]);
    empty(dir);
    // Too little for even the window and a part: OUT_OF_MEMORY naming spillAbove, not maxMemory.
    await expectCode(countBothEnds(pegs.toProblem({ board: 'oooooo\noooooo\noo.ooo\noooooo', start: 'a1', finish: 'd1' }), 64 << 20, { spill: 'always', spillDir: dir, spillAbove: 1 << 20, windowBytes: 4 << 20 }), 'OUT_OF_MEMORY', /^counting on disk needs more than spillAbove \(1048576 bytes; a larger spillAbove, up to 67108864 bytes within maxMemory, may do\); it got/);
    empty(dir);
    const roomy: string[] = [];
    expect((await pegs.count(french, { spillDir: dir, onProgress: (p) => p.phase && roomy.push(p.phase) })).total).toBe(648648n);
    expect(roomy).toEqual([]);
  });

  it('builds a level in rounds when its parts\' files would pass maxDisk, and counts the same', async () => {
    const { countBothEnds } = await import('../dist/pegs/meet.js');
    const dir = tempDir('pegs-spill-');
    // Every level and the join in 3 parts or more; each write is checked against maxDisk, so a
    // count that ends never held more on disk.
    const count = (problem: pegs.PegsProblem, options: Record<string, unknown>) => countBothEnds(problem, 64 << 20, { spill: 'always', spillDir: dir, windowBytes: 4096, fewestParts: 3, ...options });
    for (const [start, finish, disks] of [['c3', 'c3', [8e6, 3e6, 2e6]], ['a1', 'd1', [4e6, 3e6]]] as const) {
      const problem = pegs.toProblem({ board: 'oooooo\noooooo\noo.ooo\noooooo', start, finish });
      const forward = (await pegs.count(problem, { threads: 1 })).total;
      const unlimited = await count(problem, {});
      expect([unlimited.total, unlimited.rounds]).toEqual([forward, 0]);
      let rounds = 0;
      for (const maxDisk of disks) {
        // Also with parts' files summed (and joined) in several passes.
        for (const sumSlots of [0, 8192]) {
          const limited = await count(problem, { maxDisk, sumSlots });
          expect(limited.total).toBe(forward);
          expect(limited.rounds).toBeGreaterThan(rounds);
          empty(dir);
        }
        rounds = (await count(problem, { maxDisk })).rounds;
        empty(dir);
      }
      // Less than the levels themselves need: OUT_OF_DISK naming maxDisk, and the files gone.
      await expectCode(count(problem, { maxDisk: 1e6 }), 'OUT_OF_DISK', /^counting needs more disk than maxDisk \(1000000 bytes: the files in .* hold \d+, \d+ more to write\); it got \d+ of \d+ levels deep/);
      empty(dir);
    }
    // The public API: the French 13 jumps in 1 MiB of memory and 3 MB of disk.
    const french = pegs.toProblem({ board: 'french', start: FRENCH_START, finish: FRENCH_FINISH });
    const phases: string[] = [];
    expect((await pegs.count(french, { maxMemory: 1 << 20, maxDisk: 3e6, spillDir: dir, onProgress: (p) => p.phase && phases.push(p.phase) })).total).toBe(648648n);
    // Progress says so once the disk is short.
    expect(phases.at(-1)).toMatch(new RegExp(`^levels on disk in ${dir}/bitpuzzle-pegs-\\w+, \\d+ more passes over their parents for want of disk$`));
    empty(dir);
    await expectCode(pegs.count(french, { maxMemory: 1 << 20, maxDisk: 1e5, spillDir: dir }), 'OUT_OF_DISK', /more disk than maxDisk \(100000 bytes/);
    empty(dir);
  });

  it('removes its files after an error and an abort, and stops within the bound', async () => {
    const { countBothEnds } = await import('../dist/pegs/meet.js');
    const dir = tempDir('pegs-spill-');
    const problem = pegs.toProblem({ board: 'oooooo\noooooo\noo.ooo\noooooo', start: 'a1', finish: 'd1' });
    // Too little memory for even the window and a part: OUT_OF_MEMORY after the sides went to disk.
    await expectCode(countBothEnds(problem, 1 << 20, { spill: 'always', spillDir: dir, windowBytes: 4 << 20 }), 'OUT_OF_MEMORY', /levels deep .*; the levels were on disk in /);
    empty(dir);
    // Aborted once the levels are on disk; and aborted on a timer, watching the event loop.
    const controller = new AbortController();
    const english = { board: 'english', finish: 'd1' };
    await expectCode(pegs.count(english, { maxMemory: 16 << 20, spillDir: dir, signal: controller.signal, onProgress: (p) => p.phase && controller.abort() }), 'ABORTED');
    empty(dir);
    await expectAbortedPromptly((signal) => pegs.count(english, { maxMemory: 16 << 20, spillDir: dir, signal }), 600);
    empty(dir);
    // A disk with less free space than the count must leave: OUT_OF_DISK, naming the folder.
    const full = countBothEnds(problem, 64 << 20, { spill: 'always', spillDir: dir, reserveBytes: Number.MAX_SAFE_INTEGER });
    await expectCode(full, 'OUT_OF_DISK', new RegExp(`^counting needs more disk than ${dir}/bitpuzzle-pegs-\\w+ has free \\(\\d+ bytes free, \\d+ more to write\\); `));
    empty(dir);
  });

  it('a Ctrl-C, a SIGTERM or process.exit during a count on disk removes its levels', async () => {
    const dir = tempDir('pegs-spill-');
    /** A process counting English d4 -> d1 with its levels on disk in dir, stopped once they are. */
    const stopOnDisk = async (args: string[], stop: (child: ChildProcess) => void): Promise<{ code: number | null; stdout: string; stderr: string }> => {
      const child = spawn('node', args);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      for (let i = 0; i < 1200 && readdirSync(dir).length === 0 && child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 25));
      expect(readdirSync(dir)).toHaveLength(1);
      stop(child);
      return { code: await exited, stdout, stderr };
    };
    const cli = ['bin/bitpuzzle', 'pegs', '--board', 'english', '--finish', 'd1', '--count', '--max-memory', '16M', '--spill-dir', dir, '--json'];
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const stopped = await stopOnDisk(cli, (child) => child.kill(signal));
      expect(stopped.code).toBe(3);
      expect(JSON.parse(stopped.stdout).error.code).toBe('ABORTED');
      expect(stopped.stderr).toContain(`stopping on ${signal}`);
      empty(dir);
    }
    // A script that exits in the middle of the count (no finally runs): the exit removes them.
    const script = `import('./dist/index.js').then(({ pegs }) => pegs.count({ board: 'english', finish: 'd1' }, { maxMemory: 16 << 20, spillDir: ${JSON.stringify(dir)}, onProgress: (p) => p.phase && setTimeout(() => process.exit(7), 50) }))`;
    expect((await stopOnDisk(['-e', script], () => {})).code).toBe(7);
    empty(dir);
  });

  it('a Ctrl-C during --min-moves, --min-moves --count or --all ends it with ABORTED', async () => {
    // French d3 -> d5 needs more than 19 moves: each of these searches runs for minutes.
    const french = ['bin/bitpuzzle', 'pegs', '--board', 'french', '--start', 'd3', '--finish', 'd5', '--min-moves', '--json'];
    for (const extra of [[], ['--count'], ['--all']]) {
      const child = spawn('node', [...french, ...extra]);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      await new Promise((r) => setTimeout(r, 1500));
      const sent = Date.now();
      child.kill('SIGINT');
      expect(await exited).toBe(3);
      expect(Date.now() - sent).toBeLessThan(2000);
      expect(JSON.parse(stdout).error.code).toBe('ABORTED');
      expect(stderr).toContain('stopping on SIGINT: ending the search');
    }
  });

  it('checks spill and spillDir: a folder that cannot hold the levels is BAD_INPUT at once', async () => {
    const dir = tempDir('pegs-spill-');
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    await expectCode(pegs.count({ board: 'english', finish: 'd1' }, { spillDir: join(dir, 'nowhere') }), 'BAD_INPUT', /spillDir ".*nowhere" cannot hold the count's levels/);
    await expectCode(pegs.count({ board: 'english', finish: 'd1' }, { spillDir: file }), 'BAD_INPUT', /spillDir ".*a-file" cannot hold the count's levels: not a folder/);
    await expectCode(pegs.count({ board: 'triangle5' }, { spill: 'yes' as unknown as boolean }), 'BAD_INPUT', /spill must be true or false/);
    await expectCode(pegs.count({ board: 'triangle5' }, { spillDir: '' }), 'BAD_INPUT', /spillDir must be a folder's path/);
    for (const spillAbove of ['1G', 1000, 1.5e6 + 0.5, -1, Infinity]) {
      await expectCode(pegs.count({ board: 'triangle5' }, { spillAbove: spillAbove as number }), 'BAD_INPUT', /spillAbove must be a whole number of bytes from 65536 up, got /);
    }
    for (const maxDisk of ['1G', 0, 1.5, -1, Infinity]) {
      await expectCode(pegs.count({ board: 'triangle5' }, { maxDisk: maxDisk as number }), 'BAD_INPUT', /maxDisk must be a whole number of bytes from 1 up, got /);
    }
    await expectCode(pegs.reachable({ board: 'triangle5' }, { spill: true } as object), 'BAD_INPUT', /spill/);
    // Options that would do nothing are refused, not ignored.
    await expectCode(pegs.count({ board: 'english', finish: 'd1' }, { spill: false, maxDisk: 1e9 }), 'BAD_INPUT', /^maxDisk cannot go with spill: false/);
    await expectCode(pegs.count({ board: 'english' }, { threads: 2, spillDir: dir, spillAbove: 1 << 20 }), 'BAD_INPUT', /^spillDir, spillAbove cannot go with threads: 2: only the Wasm count on the calling thread/);
    await expectCode(pegs.count({ board: 'english' }, { engine: 'js', spill: true }), 'BAD_INPUT', /^spill cannot go with engine: 'js'/);
    expect((await pegs.count({ board: 'triangle5', finish: 'any' }, { threads: 2, spill: false })).total).toBe(29760n);
  });

  it('takes --spill-dir and --no-spill on the command line with --count only', async () => {
    const dir = tempDir('pegs-spill-');
    const run = promisify(execFile);
    const cli = async (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
      run('node', ['bin/bitpuzzle', 'pegs', ...args]).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (e: { code: number; stdout: string; stderr: string }) => e,
      );
    writeFileSync(join(dir, 'start.txt'), FRENCH_START);
    writeFileSync(join(dir, 'finish.txt'), FRENCH_FINISH);
    const spills = join(dir, 'levels');
    mkdirSync(spills);
    const french = ['--board', 'french', '--start', join(dir, 'start.txt'), '--finish', join(dir, 'finish.txt'), '--count', '--max-memory', '1M', '--json'];
    const counted = await cli([...french, '--spill-dir', spills]);
    expect([counted.code, JSON.parse(counted.stdout).total]).toEqual([0, 648648]);
    empty(spills);
    const refused = await cli([...french, '--no-spill']);
    expect(refused.code).toBe(3);
    expect(JSON.parse(refused.stdout).error.code).toBe('OUT_OF_MEMORY');
    expect((await cli(['--board', 'triangle5', '--no-spill'])).stderr).toMatch(/--no-spill does not work without --count/);
    expect((await cli(['--board', 'triangle5', '--count', '--threads', '2', '--spill-dir', dir])).code).toBe(2);
    // With threads, --no-spill keeps the levels of a count that the shared memory did not hold in memory.
    const threaded = await cli(['--board', 'triangle6', '--finish', 'any', '--count', '--threads', '2', '--no-spill', '--json']);
    expect([threaded.code, JSON.parse(threaded.stdout).total]).toEqual([0, 43419942138]);
    // --spill-above: on disk within it, though --max-memory (default 1G) would hold the levels.
    const roomy = french.filter((arg) => arg !== '--max-memory' && arg !== '1M');
    const above = await cli([...roomy, '--spill-above', '1M', '--spill-dir', spills]);
    const aboveJson = JSON.parse(above.stdout);
    expect([above.code, aboveJson.total, aboveJson.memory <= 1 << 20]).toEqual([0, 648648, true]);
    expect((await cli([...roomy, '--spill-above', 'lots'])).stderr).toMatch(/--spill-above must be a size such as 4G/);
    expect((await cli([...roomy, '--spill-above', '1M', '--no-spill'])).stderr).toMatch(/--spill-above does not work with --no-spill/);
    // --max-disk: in rounds within it, or OUT_OF_DISK (exit 3) naming it.
    const disk = await cli([...french, '--max-disk', '3000000', '--spill-dir', spills]);
    expect([disk.code, JSON.parse(disk.stdout).total]).toEqual([0, 648648]);
    const tooLittle = await cli([...french, '--max-disk', '100K', '--spill-dir', spills]);
    expect([tooLittle.code, JSON.parse(tooLittle.stdout).error.code]).toEqual([3, 'OUT_OF_DISK']);
    expect(JSON.parse(tooLittle.stdout).error.message).toMatch(/more disk than maxDisk \(102400 bytes/);
    empty(spills);
    expect((await cli([...french, '--max-disk', 'lots'])).stderr).toMatch(/--max-disk must be a/);
    expect((await cli([...french, '--max-disk', '1G', '--no-spill'])).stderr).toMatch(/--max-disk does not work with --no-spill/);
    const nowhere = await cli([...french, '--spill-dir', join(dir, 'nowhere')]);
    expect([nowhere.code, JSON.parse(nowhere.stdout).error.code]).toEqual([2, 'BAD_INPUT']);
  });
});
