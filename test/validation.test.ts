// Issue 14, API part: every reported input that escaped as a TypeError or RangeError, or was
// accepted without complaint, now answers or fails with a BitpuzzleError of a stable code.
import { describe, expect, it } from 'vitest';
import { cover, pegs, polyomino, queens, samegame, sliding, sudoku } from '../dist/index.js';
import { rejection } from './helpers.js';

/** The BitpuzzleError a synchronous call throws (fails the test on anything else). */
function thrown(call: () => unknown): { code: string; message: string } {
  return rejectionSync(call);
}
function rejectionSync(call: () => unknown): { code: string; message: string } {
  let error: unknown;
  try {
    call();
  } catch (e) {
    error = e;
  }
  expect(error, 'expected a throw').toBeDefined();
  expect((error as Error).name).toBe('BitpuzzleError');
  return error as { code: string; message: string };
}
const bad = (value: unknown): unknown => value;

describe('polyomino: empty piece sets and pieces with count 0', () => {
  it('pieces: [] is BAD_INPUT (was RangeError: offset is out of bounds)', async () => {
    const error = await rejection(polyomino.count({ region: '4x5', pieces: [] }));
    expect(error.code).toBe('BAD_INPUT');
    expect(error.message).toMatch(/the piece set is empty/);
  });

  it('a piece with count 0 alone: a count of 0 with the reason (was RangeError)', async () => {
    const result = await polyomino.count({ region: '4x5', pieces: [{ name: 'A', shape: 'AAAA', count: 0 }] });
    expect(result.total).toBe(0n);
    expect(result.reason).toMatch(/the pieces cover 0 cells; the region has 20/);
    // The reason is known before any search, so a first solution is UNSOLVABLE (the contract's rule).
    const error = await rejection(polyomino.solve({ region: '4x5', pieces: [{ name: 'A', shape: 'AAAA', count: 0 }] }));
    expect(error.code).toBe('UNSOLVABLE');
    expect(error.message).toMatch(/the pieces cover 0 cells; the region has 20/);
  });

  it('a piece with count 0 beside others counts as if it were absent', async () => {
    const bars = { name: 'I', shape: 'IIII', count: 5 };
    const without = await polyomino.count({ region: '4x5', pieces: [bars] }, { threads: 1 });
    const withZero = await polyomino.count({ region: '4x5', pieces: [bars, { name: 'O', shape: 'OO\nOO', count: 0 }] }, { threads: 1 });
    expect(without.total).toBeGreaterThan(0n);
    expect(withZero.total).toBe(without.total);
  });

  it('piece objects passed back in are checked like any others', async () => {
    const [piece] = polyomino.pieceSet('tetrominoes');
    const error = await rejection(polyomino.count({ region: '4x5', pieces: [{ ...piece, count: -1 }] }));
    expect(error.code).toBe('BAD_INPUT');
    expect(error.message).toMatch(/count must be an integer from 0 to 1024, got -1/);
  });
});

describe('pegs: a missing problem, and a board name alone', () => {
  it('pegs.solve() is BAD_INPUT naming the expected shape (was TypeError)', async () => {
    const error = await rejection(pegs.solve(bad(undefined) as string));
    expect(error.code).toBe('BAD_INPUT');
    expect(error.message).toMatch(/a board name, a picture, or \{ board, start, finish \}/);
  });

  it("pegs.solve('english') is the English board with its default start and finish (was TypeError)", async () => {
    const problem = pegs.toProblem('english');
    const same = pegs.toProblem({ board: 'english' });
    expect(problem.start).toBe(same.start);
    expect(problem.finishes).toEqual(same.finishes);
    const solution = await pegs.solve('english');
    expect(solution!.jumps).toHaveLength(31);
    const board = pegs.builtinBoard('english')!;
    const after = pegs.replay(board, board.picture, solution!.jumps);
    expect(after[after.length - 1]).toBe(problem.finishes[0]);
  });

  it('a picture alone is a board too', async () => {
    const result = await pegs.count('oo.');
    expect(result.total).toBe(1n);
  });

  it('problem and board objects must come from the library', () => {
    expect(thrown(() => pegs.toProblem(bad({ board: 'x', finishes: [], pagodas: [] }) as pegs.PegsInput)).message).toMatch(/must come from pegs.toProblem/);
    expect(thrown(() => pegs.positionPicture(bad({ holes: [], jumps: [] }) as pegs.Board, 0n)).message).toMatch(/made by pegs.parseBoard or pegs.builtinBoard/);
  });

  it('replay names a bad jump with a BitpuzzleError (was a plain Error)', () => {
    const board = pegs.builtinBoard('english')!;
    const error = thrown(() => pegs.replay(board, board.picture, ['a1-a3']));
    expect(error.code).toBe('BAD_INPUT');
    expect(error.message).toMatch(/jump 1 \(a1-a3\)/);
    expect(thrown(() => pegs.replay(board, -1n, [])).message).toMatch(/start is a BigInt with one bit per hole/);
  });

  it("builtinBoard('constructor') is no board (was TypeError)", () => {
    expect(pegs.builtinBoard('constructor')).toBeUndefined();
  });
});

describe('non-arrays where arrays are expected are BAD_INPUT (were "x.map is not a function")', () => {
  it('queens with queens: 1', async () => {
    const error = await rejection(queens.count({ n: 8, queens: bad(1) as [] }));
    expect(error.code).toBe('BAD_INPUT');
    expect(error.message).toBe('queens must be an array of [row, col] pairs, got 1');
  });

  it("cover with given: 'A'", async () => {
    const error = await rejection(cover.count({ columns: ['A'], rows: [['A']], given: bad('A') as [] }));
    expect(error.code).toBe('BAD_INPUT');
    expect(error.message).toBe('given must be an array of row indices or names, got "A"');
  });

  it('sliding.solveBatch(1)', async () => {
    const error = await rejection(sliding.solveBatch(bad(1) as []));
    expect(error.code).toBe('BAD_INPUT');
    expect(error.message).toBe('solveBatch takes an array of boards, got 1');
  });

  it('samegame.replay(board, 1)', () => {
    const error = thrown(() => samegame.replay('11\n22', bad(1) as []));
    expect(error.code).toBe('BAD_INPUT');
    expect(error.message).toBe('clicks are an array of { column, row }, got 1');
  });
});

describe('callbacks and pictures', () => {
  it("onProgress: 'x' is BAD_INPUT before any work (was TypeError when called)", async () => {
    for (const run of [
      () => queens.count(8, { onProgress: bad('x') as () => void }),
      () => polyomino.count({ region: '4x5', pieces: 'tetrominoes' }, { onProgress: bad('x') as () => void }),
      () => cover.count('primary: a\nr: a', { onProgress: bad('x') as () => void }),
      () => pegs.count('triangle5', { onProgress: bad('x') as () => void }),
      () => sliding.solve('1 2\n3 0', { onProgress: bad('x') as () => void }),
      () => samegame.score('11\n22', { maxNodes: 100, onProgress: bad('x') as () => void }),
    ]) {
      const error = await rejection(run());
      expect(error.code).toBe('BAD_INPUT');
      expect(error.message).toBe('onProgress must be a function, got "x"');
    }
  });

  it('picture(null) of every family is BAD_INPUT (was TypeError)', () => {
    const calls: Array<() => unknown> = [
      () => queens.picture(bad(null) as number[]),
      () => queens.boardPicture(bad(null) as number[]),
      () => polyomino.picture(bad(null) as polyomino.TilingSolution),
      () => polyomino.colourPicture(bad(null) as polyomino.TilingSolution),
      () => polyomino.svg(bad(null) as []),
      () => sudoku.picture(bad(null) as number[][]),
      () => pegs.positionPicture(bad(null) as pegs.Board, 0n),
      () => pegs.movePictures(bad(null) as pegs.Board, 0n, []),
      () => sliding.picture(bad(null) as string),
      () => sliding.playback(bad(null) as string, ''),
      () => samegame.picture(bad(null) as string),
    ];
    for (const call of calls) expect(thrown(call).code).toBe('BAD_INPUT');
  });

  it('a picture of a column off the board is BAD_INPUT (was RangeError from repeat)', () => {
    expect(thrown(() => queens.picture([0, -3])).message).toMatch(/row 1: the column must be an integer from 0 to 1, got -3/);
  });
});

describe('options accepted without complaint before', () => {
  const families: Array<[string, (options: object) => Promise<unknown>]> = [
    ['queens.solve', (o) => queens.solve(6, o)],
    ['polyomino.count', (o) => polyomino.count({ region: '4x5', pieces: 'tetrominoes' }, o)],
    ['cover.count', (o) => cover.count('primary: a\nr: a', o)],
    ['sudoku.solve', (o) => sudoku.solve('1...\n....\n....\n....', o)],
    ['pegs.solve', (o) => pegs.solve('triangle5', o)],
    ['sliding.solve', (o) => sliding.solve('1 2\n3 0', o)],
    ['samegame.clear', (o) => samegame.clear('11\n22', o)],
  ];
  for (const [name, run] of families) {
    it(`${name}: maxMemory -1 and signal 'x' are BAD_INPUT`, async () => {
      const memory = await rejection(run({ maxMemory: -1 }));
      expect(memory.code).toBe('BAD_INPUT');
      expect(memory.message).toMatch(/maxMemory must be at least 65536 bytes/);
      const signal = await rejection(run({ signal: 'x' }));
      expect(signal.code).toBe('BAD_INPUT');
      expect(signal.message).toBe('signal must be an AbortSignal, got "x"');
    });
  }
});

describe('options: one check for every function', () => {
  it('a typo is BAD_INPUT naming the key and the options the function takes', async () => {
    const error = await rejection(queens.count(8, bad({ thread: 2 }) as object));
    expect(error.code).toBe('BAD_INPUT');
    expect(error.message).toBe('queens.count: unknown option "thread" (its options are signal, engine, threads, shard, onProgress, queue, method, maxMemory)');
  });

  it('an option of another function is named as unknown here', async () => {
    const error = await rejection(queens.solve(8, bad({ threads: 2 }) as object));
    expect(error.message).toMatch(/queens.solve: unknown option "threads"/);
  });

  it('an unknown key set to undefined passes (spreading optional values makes those)', async () => {
    expect((await queens.count(6, bad({ thread: undefined }) as object)).total).toBe(4n);
  });

  it('options that are not an object are BAD_INPUT', async () => {
    expect((await rejection(queens.count(6, bad(5) as object))).message).toBe('queens.count: options must be an object, got 5');
    expect((await rejection(sliding.solve('1 2\n3 0', bad([]) as object))).message).toBe('sliding.solve: options must be an object, got []');
  });

  it('names that exist on every object are not taken for options or sets', () => {
    expect(thrown(() => polyomino.pieceSet('__proto__')).message).toMatch(/unknown piece set "__proto__"/);
    return rejection(sliding.solve('1 2\n3 0', { heuristic: bad('toString') as 'manhattan' })).then((error) => {
      expect(error.message).toMatch(/heuristic must be 'manhattan', 'conflict' or 'patterns', got "toString"/);
    });
  });
});

describe('BigInts in messages print as plain integers', () => {
  it('sizes, queens, counts and shards', async () => {
    expect((await rejection(queens.count(bad(12n) as number))).message).toBe('expected a board size, a board picture or { n, queens }, got 12');
    expect((await rejection(queens.count({ n: 8, queens: [bad([1n, 2n]) as [number, number]] }))).message).toBe(
      'queens[0] must be [row, col] with integer row and col, got [1, 2]',
    );
    expect((await rejection(polyomino.count({ region: '4x5', pieces: [{ name: 'A', shape: 'AAAA', count: bad(5n) as number }] }))).message).toMatch(
      /count must be an integer from 0 to 1024, got 5$/,
    );
    expect((await rejection(queens.count(8, { threads: bad(2n) as number }))).message).toBe('threads must be an integer from 1 to 1024, got 2');
    expect((await rejection(queens.count(8, { shard: bad({ index: 1n, count: 2n }) as { index: number; count: number } }))).message).toMatch(
      /got 2$/,
    );
  });

  it('values String() cannot print (no prototype, symbols) still make a message', async () => {
    const bare = Object.create(null) as object;
    expect((await rejection(queens.count(8, { threads: bare as number }))).message).toBe('threads must be an integer from 1 to 1024, got {}');
    expect((await rejection(sliding.solve({ rows: 2, cols: bad(Symbol('c')) as number, tiles: [0, 1, 2, 3] }))).message).toMatch(
      /got symbol "c"×2/,
    );
  });
});

describe('sliding helpers take every board form solve takes', () => {
  const text = '1 2 3\n4 5 6\n7 0 8';
  const rows = [[1, 2, 3], [4, 5, 6], [7, 0, 8]];
  const object = { rows: 3, cols: 3, tiles: [1, 2, 3, 4, 5, 6, 7, 0, 8] };

  it('isSolution parses a text board instead of answering false', () => {
    for (const board of [text, rows, object, sliding.parseBoard(text)]) {
      expect(sliding.isSolution(board, 'R')).toBe(true);
      expect(sliding.isSolution(board, 'R', '1 2 3\n4 5 6\n7 8 0')).toBe(true);
      expect(sliding.isSolution(board, 'L')).toBe(false);
      expect(sliding.isSolution(board, 'DD')).toBe(false); // off the board: an answer, not an error
    }
    expect(thrown(() => sliding.isSolution('1 2\n2 0', 'R')).code).toBe('BAD_INPUT');
    expect(thrown(() => sliding.isSolution(text, bad(5) as string)).message).toMatch(/moves are a string/);
  });

  it('solvability, picture, playback, applyMoves and tilesMoved', () => {
    for (const board of [text, rows, object]) {
      expect(sliding.solvability(board).solvable).toBe(true);
      expect(sliding.picture(board)).toBe('1 2 3\n4 5 6\n7 _ 8');
      expect(sliding.playback(board, 'R')).toBe('start\n1 2 3\n4 5 6\n7 _ 8\n\n1: R\n1 2 3\n4 5 6\n7 8 _');
      expect(Array.from(sliding.applyMoves(board, 'R').tiles)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 0]);
      expect(sliding.tilesMoved(board, 'R')).toEqual([8]);
    }
    expect(thrown(() => sliding.solvability('1 2\n3 x')).message).toMatch(/line 2, column 3: "x" is not a tile/);
  });
});

describe('queens.construct: precise types, one rule for no solution', () => {
  it('n = 2 and 3 are UNSOLVABLE (known without a search); solve() still returns null', async () => {
    for (const n of [2, 3]) {
      const error = await rejection(queens.construct(n));
      expect(error.code).toBe('UNSOLVABLE');
      expect(error.message).toBe(`the ${n}×${n} board has no solution`);
      expect(await queens.solve(n)).toBeNull();
    }
    const columns: Int32Array = await queens.construct(8); // typed without null
    expect(queens.isSolution(columns)).toBe(true);
  });

  it('the twin answers OUT_OF_MEMORY like the engine (was RangeError for huge n)', async () => {
    // n = 100,000,000 (the largest construct builds) needs 800 MB: more than a 256 MiB maxMemory.
    const error = await rejection(queens.construct(100_000_000, { engine: 'js', maxMemory: 2 ** 28 }));
    expect(error.code).toBe('OUT_OF_MEMORY');
    expect((await rejection(queens.construct(2 ** 31 - 1, { engine: 'js' }))).code).toBe('BAD_INPUT');
  });

  it('isSolution of something that is not a list is BAD_INPUT', () => {
    expect(thrown(() => queens.isSolution(bad(null) as number[])).code).toBe('BAD_INPUT');
    expect(queens.isSolution([1, 3, 0, 2])).toBe(true);
    expect(queens.isSolution([0, 1])).toBe(false);
  });
});

describe('prepared problems must come from prepare()', () => {
  it('cover', async () => {
    const error = await rejection(cover.count(bad({ matrix: 1 }) as string));
    expect(error.message).toMatch(/must come from cover.prepare\(\)/);
    const prepared = cover.prepare('primary: a b\nx: a\ny: b\nxy: a b');
    expect((await cover.count(prepared)).total).toBe(2n);
  });

  it('polyomino.decode', () => {
    expect(thrown(() => polyomino.decode(bad({}) as polyomino.Prepared, [])).message).toMatch(/made by prepare\(\)/);
    const prepared = polyomino.prepare({ region: '2x2', pieces: [{ name: 'O', shape: 'OO\nOO' }] });
    expect(polyomino.decode(prepared, [0]).pieces[0].cells).toHaveLength(4);
    expect(thrown(() => polyomino.decode(prepared, [7])).message).toMatch(/placement numbers are integers from 0 to 0, got \[7\]/);
  });
});

describe('text errors name the line and column', () => {
  it('sliding.parseBatch names the column of a bad tile (it named the line only)', () => {
    expect(thrown(() => sliding.parseBatch('1 2 3 0\n1 x 3 0')).message).toBe(
      'line 2, column 3: "x" is not a tile (tiles are numbers, the blank 0, _ or .)',
    );
    expect(thrown(() => sliding.parseBatch('1 2 3 9')).message).toMatch(/line 1, column 7: tile 9 is out of range/);
  });
});
