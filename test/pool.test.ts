// The warm pool's groups of parts: many small parts go to the threads in groups sized by their
// learned cost; results come back in part order, an abort stops them, and a pool that serves
// tens of thousands of parts keeps its memory.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { BitpuzzleError } from '../dist/index.js';
import { GROUP_TARGET_MS, GroupSizer, runTasks } from '../dist/parallel/pool.js';
import { constellations } from '../dist/queens/constellations.js';
import { runQueensTask, type QueensTask } from '../dist/queens/tasks.js';
import { loadEngineModule } from '../dist/wasm/module.js';

/** The start constellations of n, one a part (n = 16: 3,206 of them, a few to hundreds of microseconds each). */
async function constellationParts(n: number): Promise<QueensTask[]> {
  return (await constellations(n)).map((c) => ({ engine: 'wasm', n, constellations: [c] }) as QueensTask);
}

describe('groups of parts sized by cost', () => {
  it('start at one part, grow towards the target duration at most twofold, and shrink to share the tail', () => {
    const sizer = new GroupSizer(100_000, 2);
    const sizes: number[] = [];
    let covered = 0;
    for (let group = sizer.next(); group; group = sizer.next()) {
      expect(group.start).toBe(covered); // consecutive, each part once
      covered = group.end;
      sizes.push(group.end - group.start);
      sizer.record(group.end - group.start, (group.end - group.start) * 0.01); // 10 µs a part
    }
    expect(covered).toBe(100_000);
    expect(sizes.slice(0, 5)).toEqual([1, 2, 4, 8, 16]);
    const target = GROUP_TARGET_MS / 0.01;
    expect(Math.max(...sizes)).toBe(target); // 2,000 parts of 10 µs: 20 ms
    for (let i = 1; i < sizes.length; i++) expect(sizes[i]).toBeLessThanOrEqual(2 * sizes[i - 1]);
    expect(sizes.at(-1)).toBe(1); // the tail in single parts
  });

  it('a costly part after cheap ones: the next group is sized by the new estimate', () => {
    const sizer = new GroupSizer(1_000_000, 2);
    for (let i = 0; i < 20; i++) {
      const g = sizer.next()!;
      sizer.record(g.end - g.start, (g.end - g.start) * 0.001);
    }
    const big = sizer.next()!;
    expect(big.end - big.start).toBe(20_000);
    sizer.record(big.end - big.start, 5000); // 0.25 ms a part, far over the estimate
    const after = sizer.next()!;
    // The estimate moves halfway: (0.001 + 0.25) / 2 ms a part, so about 160 parts, not 20,000.
    expect(after.end - after.start).toBe(Math.floor(GROUP_TARGET_MS / ((0.001 + 0.25) / 2)));
  });

  it('results in part order, each part its own result, on 1 and 2 threads', async () => {
    const tasks = await constellationParts(16);
    const engineModule = await loadEngineModule();
    const run = (threads: number) => runTasks({ tasks, threads, kind: 'queens', runInline: runQueensTask, engineModule });
    const [one, two] = [await run(1), await run(2)];
    expect(two).toEqual(one);
    expect(one.length).toBe(3206);
    expect(one.reduce((sum, r) => sum + r.total, 0n)).toBe(14_772_512n);
    // Spot checks: a part's result is that part's own count.
    for (const i of [0, 1, 100, 1600, 3205]) expect(two[i]).toEqual(await runQueensTask(tasks[i]));
  });

  it('progress counts every part once, and an abort mid-run stops within 100 ms', async () => {
    const tasks = await constellationParts(17);
    const engineModule = await loadEngineModule();
    const controller = new AbortController();
    let done = 0;
    const run = runTasks({ tasks, threads: 2, kind: 'queens', runInline: runQueensTask, engineModule, signal: controller.signal, onProgress: (p) => (done = p.done) });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(done).toBeGreaterThan(0);
    const aborted = performance.now();
    controller.abort();
    const error = await run.catch((e: unknown) => e);
    expect(performance.now() - aborted).toBeLessThan(100);
    expect(error).toBeInstanceOf(BitpuzzleError);
    expect((error as BitpuzzleError).code).toBe('ABORTED');
    // The threads are free again: a whole run now finishes and counts every part.
    const all = await runTasks({ tasks: tasks.slice(0, 500), threads: 2, kind: 'queens', runInline: runQueensTask, engineModule, onProgress: (p) => (done = p.done) });
    expect(all.length).toBe(500);
    expect(done).toBe(500);
  });

  it('a pool that serves 40,000 parts keeps its memory', async () => {
    // n = 13's constellations, one a part, 1,000 a run on 2 threads: 40 runs.
    const list = await constellations(13);
    const tasks = Array.from({ length: 1000 }, (_, i) => ({ engine: 'wasm', n: 13, constellations: [list[i % list.length]] }) as QueensTask);
    const engineModule = await loadEngineModule();
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const sample = () => {
      gc();
      return { rss: process.memoryUsage().rss, heap: process.memoryUsage().heapUsed };
    };
    let early = sample();
    for (let round = 1; round <= 40; round++) {
      const results = await runTasks({ tasks, threads: 2, kind: 'queens', runInline: runQueensTask, engineModule });
      expect(results.length).toBe(1000);
      if (round === 10) early = sample();
    }
    const late = sample();
    // Measured here: 2 to 3 MiB more from 10,000 to 40,000 parts; a kilobyte kept a part would
    // add 30 MiB. (Parts that make much garbage, a sliding batch's, grow the threads' heaps in a
    // sawtooth until V8 collects them: flat when the threads collect after each group.)
    expect(late.rss - early.rss).toBeLessThan(16 * 2 ** 20);
    expect(late.heap - early.heap).toBeLessThan(4 * 2 ** 20);
  });
});
