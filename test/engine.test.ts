// The engine protocol itself: loading, instances per thread, resumable runs, memory limits.
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { loadEngineModule } from '../dist/index.js';
import { MODE_ALL, MODE_DISTINCT, wasmQueensEngine } from '../dist/queens/engine.js';
import { ReferenceQueensEngine } from '../dist/queens/reference.js';
import { instantiateEngine } from '../dist/wasm/module.js';
import { Status, setMemoryLimit } from '../dist/wasm/protocol.js';
import { QUEENS } from './data/known-results.js';

const full = (n: number): number[] => new Array(n).fill(2 ** n - 1);

describe('the engine protocol', () => {
  it('compiles the module once', async () => {
    expect(await loadEngineModule()).toBe(await loadEngineModule());
  });

  it('a search run one placement at a time counts what one long run counts', async () => {
    const module = await loadEngineModule();
    for (const make of [() => wasmQueensEngine(instantiateEngine(module)), () => new ReferenceQueensEngine()]) {
      const engine = make();
      engine.setAllowed(full(9));
      expect(engine.init(9, MODE_DISTINCT, false, 0)).toBe(Status.DONE);
      let calls = 0;
      let status;
      while ((status = engine.run(1)) === Status.MORE) calls++;
      expect(status).toBe(Status.DONE);
      expect(engine.total()).toBe(QUEENS[9].total);
      expect(engine.distinct()).toBe(QUEENS[9].distinct);
      // Every MORE spent its budget of one placement; the final call at most one more.
      expect(engine.nodes() - BigInt(calls)).toBeGreaterThanOrEqual(0n);
      expect(engine.nodes() - BigInt(calls)).toBeLessThanOrEqual(1n);
    }
  });

  it('streams solutions: each SOLUTION status leaves one in the output region', async () => {
    const engine = wasmQueensEngine(instantiateEngine(await loadEngineModule()));
    engine.setAllowed(full(6));
    engine.init(6, MODE_ALL, true, 0);
    const found: number[][] = [];
    let status;
    while ((status = engine.run(1000)) !== Status.DONE) {
      if (status === Status.SOLUTION) found.push(engine.output(6));
    }
    expect(found).toEqual([
      [1, 3, 5, 0, 2, 4],
      [2, 5, 1, 4, 0, 3],
      [3, 0, 4, 1, 5, 2],
      [4, 2, 0, 5, 3, 1],
    ]);
  });

  it('rejects init arguments outside its range with BAD_INPUT', async () => {
    const engine = wasmQueensEngine(instantiateEngine(await loadEngineModule()));
    expect(engine.init(0, MODE_ALL, false, 0)).toBe(Status.BAD_INPUT);
    expect(engine.init(33, MODE_ALL, false, 0)).toBe(Status.BAD_INPUT);
    expect(engine.init(8, 7, false, 0)).toBe(Status.BAD_INPUT);
    expect(engine.init(8, MODE_ALL, false, 7)).toBe(Status.BAD_INPUT);
    expect(new ReferenceQueensEngine().init(33, MODE_ALL, false, 0)).toBe(Status.BAD_INPUT);
  });

  it('instances do not share state', async () => {
    const module = await loadEngineModule();
    const a = wasmQueensEngine(instantiateEngine(module));
    const b = wasmQueensEngine(instantiateEngine(module));
    a.setAllowed(full(8));
    a.init(8, MODE_ALL, false, 0);
    b.setAllowed(full(10));
    b.init(10, MODE_ALL, false, 0);
    a.run(50);
    b.run(1 << 30);
    a.run(1 << 30);
    expect(a.total()).toBe(QUEENS[8].total);
    expect(b.total()).toBe(QUEENS[10].total);
  });

  it('memory grows up to the limit and no further: OUT_OF_MEMORY, not a trap', async () => {
    const exports = instantiateEngine(await loadEngineModule());
    setMemoryLimit(exports, 4 << 20);
    expect(exports.queensConstruct(2_000_000)).toBe(0);
    expect(exports.memoryPages()).toBeLessThanOrEqual(64);
    const pointer = exports.queensConstruct(500_000);
    expect(pointer).toBeGreaterThan(0);
    expect(exports.memoryPages()).toBeLessThanOrEqual(64);
  });
});

describe('loading in a worker thread', () => {
  it('the package imports and counts inside a worker', async () => {
    const source = `
      import { parentPort } from 'node:worker_threads';
      const { queens } = await import(${JSON.stringify(new URL('../dist/index.js', import.meta.url).href)});
      const result = await queens.count(10, { threads: 1 });
      parentPort.postMessage({ total: result.total, distinct: result.distinct });
    `;
    const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(source)}`));
    const reply = await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(reply).toEqual({ total: QUEENS[10].total, distinct: QUEENS[10].distinct });
  });

  it('a module compiled here instantiates inside a worker', async () => {
    const module = await loadEngineModule();
    const source = `
      import { parentPort, workerData } from 'node:worker_threads';
      const instance = new WebAssembly.Instance(workerData.module, {});
      parentPort.postMessage(typeof instance.exports.queensRun);
    `;
    const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(source)}`), { workerData: { module } });
    const reply = await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(reply).toBe('function');
  });
});
