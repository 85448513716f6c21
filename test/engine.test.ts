// The engine protocol itself: loading, instances per thread, resumable runs, memory limits.
import { Worker } from 'node:worker_threads';
import { describe, expect, it, vi } from 'vitest';
import { cover, loadEngineModule, pegs, polyomino } from '../dist/index.js';
import { ReferenceCoverEngine } from '../dist/cover/reference.js';
import { MODE_COUNT as PEGS_COUNT, MODE_SOLVE as PEGS_SOLVE } from '../dist/pegs/engine.js';
import { engineInput as pegsEngineInput } from '../dist/pegs/problem.js';
import { ReferencePegsEngine } from '../dist/pegs/reference.js';
import { ReferenceTilingEngine } from '../dist/polyomino/reference.js';
import { codeOf } from '../dist/queens/constellations.js';
import { ReferenceConstellationEngine } from '../dist/queens/constellationsReference.js';
import { ReferenceJoinEngine } from '../dist/queens/joinReference.js';
import { MODE_ALL, MODE_DISTINCT, wasmQueensEngine, type QueensEngine } from '../dist/queens/engine.js';
import { ReferenceQueensEngine } from '../dist/queens/reference.js';
import { engineCells } from '../dist/samegame/board.js';
import { randomBoard as randomSameGameBoard } from '../dist/samegame/random.js';
import { ReferenceSameGameSearch } from '../dist/samegame/reference.js';
import { MANHATTAN } from '../dist/sliding/engine.js';
import { ReferenceOptimalEngine } from '../dist/sliding/reference.js';
import { MODE_COUNT as SUDOKU_COUNT } from '../dist/sudoku/engine.js';
import { ReferenceSudokuEngine } from '../dist/sudoku/reference.js';
import { KEEP_IDLE_BYTES, acquireEngine, compileEngineModule, instantiateEngine, releaseEngine } from '../dist/wasm/module.js';
import { Status, TWIN_CALL_MS, setMemoryLimit } from '../dist/wasm/protocol.js';
import { QUEENS } from './data/known-results.js';
import { compareColumns, images, isValidSolution, queensCover } from './helpers.js';

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

  it('views on engine memory survive memory.grow', async () => {
    const exports = instantiateEngine(await loadEngineModule());
    const engine = wasmQueensEngine(exports);
    engine.setAllowed(full(5));
    const before = exports.memory.buffer;
    expect(exports.queensConstruct(3_000_000)).toBeGreaterThan(0);
    expect(exports.memory.buffer).not.toBe(before); // the old buffer is detached
    engine.setAllowed(full(8));
    engine.init(8, MODE_ALL, true, 0);
    expect(engine.run(1 << 20)).toBe(Status.SOLUTION);
    expect(engine.output(8)).toEqual([0, 4, 7, 5, 2, 6, 1, 3]);
  });

  it('an instance given back carries no memory limit over to its next user', async () => {
    const first = await acquireEngine();
    setMemoryLimit(first, 1 << 20);
    expect(first.queensConstruct(2_000_000)).toBe(0);
    releaseEngine(first);
    const again = await acquireEngine();
    expect(again).toBe(first);
    expect(again.queensConstruct(2_000_000)).toBeGreaterThan(0);
    releaseEngine(again);
  });

  it('an instance that grew past KEEP_IDLE_BYTES is let go, not kept idle (wasm memory never shrinks)', async () => {
    const small = await acquireEngine();
    releaseEngine(small);
    expect(await acquireEngine()).toBe(small); // a small one is reused
    small.memory.grow(KEEP_IDLE_BYTES / 65536); // past the limit: its memory would stay resident
    releaseEngine(small);
    const next = await acquireEngine();
    expect(next).not.toBe(small);
    expect(next.memory.buffer.byteLength).toBeLessThanOrEqual(KEEP_IDLE_BYTES);
    releaseEngine(next);
  });

  it('every TS twin ends a run call on its clock, not only at its budget (a twin turned slow within a call would hold the thread)', () => {
    // A clock that moves 1 ms at every look: a call must end after about TWIN_CALL_MS looks,
    // however large its budget. Each twin looks every so many units of its own (TWIN_CLOCK_MASK
    // + 1 or fewer) and is set up on a search that goes on far past those looks (several past
    // the whole budget), so that a call that ends after so few units ended on its clock.
    const budget = 1 << 26;
    /** A twin's run call, and the work it has done (its nodes; a pattern database's entries filled). */
    const cases: Array<{ name: string; run: () => number; work: () => bigint }> = [];
    const add = (name: string, twin: { run(budget: number): number; nodes(): bigint }): void => {
      cases.push({ name, run: () => twin.run(budget), work: () => twin.nodes() });
    };

    const queens = new ReferenceQueensEngine();
    queens.setAllowed(full(18));
    expect(queens.init(18, MODE_ALL, false, 0)).toBe(Status.DONE);
    add('queens', queens);
    const constellations = new ReferenceConstellationEngine(); // one start constellation of 24 queens
    expect(constellations.init(24, [codeOf(1, 3, 2, 5)])).toBe(Status.DONE);
    add('queens by constellations', constellations);
    const join = new ReferenceJoinEngine(); // 22 queens by joining half-boards: the part with row 0 east
    expect(join.init(22, 1, 1)).toBe(Status.DONE);
    add('queens by joining halves', join);

    const board = randomSameGameBoard({ width: 15, height: 15, colours: 5, seed: 7 });
    const samegame = new ReferenceSameGameSearch();
    expect(samegame.start(engineCells(board), board.width, board.height, 1, 16)).toBe(Status.DONE);
    add('SameGame', samegame);
    const sudoku = new ReferenceSudokuEngine(); // every 9×9 grid, counted from the empty one
    expect(sudoku.alloc(1, 9)).toBe(true);
    expect(sudoku.start(1, 0, SUDOKU_COUNT, 0)).toBe(Status.DONE);
    add('Sudoku', sudoku);

    const exactCover = new ReferenceCoverEngine(); // 20 queens as exact cover
    expect(exactCover.load(cover.prepare(queensCover(20)).matrix)).toBe(Status.DONE);
    expect(exactCover.start(false, 0)).toBe(Status.DONE);
    add('exact cover', exactCover);
    const tiling = new ReferenceTilingEngine(); // every tiling of 10×6 by the 12 pentominoes
    expect(tiling.load(polyomino.prepare({ region: '10x6' }).input)).toBe(Status.DONE);
    expect(tiling.start([], 1, 0, false, 0)).toBe(Status.DONE);
    add('polyomino', tiling);

    const solve = new ReferencePegsEngine(256 << 20); // its first solution comes after 1.4 million positions
    expect(solve.load(pegsEngineInput(pegs.toProblem({ board: 'english', start: 'c3', finish: 'any' })))).toBe(Status.DONE);
    expect(solve.start(PEGS_SOLVE, 20)).toBe(Status.DONE);
    add('pegs, solving', solve);
    const count = new ReferencePegsEngine(256 << 20); // every game on the English board
    expect(count.load(pegsEngineInput(pegs.toProblem({ board: 'english', finish: 'any' })))).toBe(Status.DONE);
    expect(count.start(PEGS_COUNT, 14)).toBe(Status.DONE);
    // A count also ends a call where a level ends: on to the start of a level of 2757 positions.
    while (count.levels()[count.level()] < 2000n) expect(count.run(budget)).toBe(Status.MORE);
    add('pegs, counting', count);

    const fifteen = new ReferenceOptimalEngine(); // Korf's first 15-puzzle by Manhattan distance
    expect(fifteen.start([14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3], 4, 4, 0, MANHATTAN, 0, false)).toBe(Status.DONE);
    add('sliding', fifteen);
    // Its pattern databases build in run calls too: breadth first with the blank (up to 16
    // cells), or by scanning the table in pieces (more cells; a level's scan also ends a call).
    // Tiles on cells 0-4 start the scan's table at its first entry, which its first piece expands.
    for (const [cells, width, pattern] of [[12, 4, [1, 2, 3, 4, 5, 6]], [18, 6, [0, 1, 2, 3, 4]]] as const) {
      const build = new ReferenceOptimalEngine();
      expect(build.definePattern(0, cells, width, pattern)).toBe(true);
      build.buildStart(0, 0);
      cases.push({ name: `sliding, a ${cells}-cell pattern database`, run: () => build.buildRun(budget), work: () => BigInt(build.filled()) });
    }

    let now = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => (now += 1));
    try {
      for (const { name, run, work } of cases) {
        const before = work();
        now = 0;
        expect(run(), name).toBe(Status.MORE);
        // It ended at the look that found its deadline passed: not at its budget, nor where a
        // phase ended first (a level of the pegs count or of the scanning build, the growth of
        // the pegs solver's dead set: each leaves the work below the bound, only `now` tells).
        expect(now, name).toBeGreaterThan(TWIN_CALL_MS);
        expect(now, name).toBeLessThanOrEqual(TWIN_CALL_MS + 2);
        expect(work() - before, name).toBeGreaterThan(0n);
        expect(work() - before, name).toBeLessThan(BigInt(budget) / 64n);
      }
    } finally {
      clock.mockRestore();
    }
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

describe('the widest board, n = 32 (all 32 bits of a row)', () => {
  it('edge-class representatives agree between engines and are the smallest of their images', async () => {
    const module = await loadEngineModule();
    const firstThree = (engine: QueensEngine): number[][] => {
      const allowed = new Array(32).fill(0xffffffff);
      allowed[0] = 2 ** 14; // the edge class a = 14: border queens at least 14 squares from a corner
      engine.setAllowed(allowed);
      engine.init(32, MODE_DISTINCT, true, 0);
      const found: number[][] = [];
      while (found.length < 3) {
        const status = engine.run(1 << 20);
        if (status === Status.SOLUTION) found.push(engine.output(32));
        if (status === Status.DONE) break;
      }
      return found;
    };
    const wasm = firstThree(wasmQueensEngine(instantiateEngine(module)));
    expect(wasm).toHaveLength(3);
    expect(firstThree(new ReferenceQueensEngine())).toEqual(wasm);
    for (const solution of wasm) {
      expect(isValidSolution(solution)).toBe(true);
      for (const image of images(solution)) expect(compareColumns(solution, image)).toBeLessThanOrEqual(0);
    }
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

describe('loading over HTTP, as in browsers and bundlers', () => {
  async function serve(contentType: string | null, status = 200): Promise<{ url: URL; close: () => void }> {
    const { createServer } = await import('node:http');
    const { readFile } = await import('node:fs/promises');
    const bytes = await readFile(new URL('../dist/bitpuzzle.wasm', import.meta.url));
    const server = createServer((_, response) => {
      response.writeHead(status, contentType ? { 'content-type': contentType } : {});
      response.end(status === 200 ? bytes : 'not here');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    return { url: new URL(`http://127.0.0.1:${port}/dist/bitpuzzle.wasm`), close: () => server.close() };
  }

  for (const type of ['application/wasm', 'application/octet-stream', null]) {
    it(`compiles when served as ${type ?? 'no content type'}`, async () => {
      const { url, close } = await serve(type);
      try {
        const exports = instantiateEngine(await compileEngineModule(url));
        expect(typeof exports.queensRun).toBe('function');
      } finally {
        close();
      }
    });
  }

  it('names the URL when the engine cannot be fetched', async () => {
    const { url, close } = await serve('text/plain', 404);
    try {
      await expect(compileEngineModule(url)).rejects.toMatchObject({
        code: 'ENGINE_FAILURE',
        message: `could not load the WebAssembly engine from ${url.href}: HTTP 404 Not Found`,
      });
    } finally {
      close();
    }
  });
});
