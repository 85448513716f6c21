import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { queens } from '../dist/index.js';
import { rejection } from './helpers.js';

async function drain(iterable: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of iterable) void _;
}

describe('bad boards are BAD_INPUT with the place named', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['unknown character', 'Q...\n..x.\n....\n....', /line 2, column 3: unexpected character "x"/],
    ['short line', 'Q...\n...\n....\n....', /line 2: 3 squares, expected 4/],
    ['long line', '.Q...\n...Q\nQ...\n..Q.', /line 1: 5 squares, expected 4/],
    ['queens on a column', '.Q..\n....\n....\n.Q..', /line 1 column 2 and line 4 column 2 attack each other on the same column/],
    ['queens on a row', 'Q..Q\n....\n....\n....', /line 1 column 1 and line 1 column 4 attack each other on the same row/],
    ['queens on a diagonal', 'Q...\n....\n..Q.\n....', /line 1 column 1 and line 3 column 3 attack each other on a diagonal/],
    ['queens on an anti-diagonal', '...Q\n..Q.\n....\n....', /line 1 column 4 and line 2 column 3 attack each other on a diagonal/],
    ['empty board text', '\n\n', /the board is empty/],
  ];
  for (const [name, board, message] of cases) {
    it(name, async () => {
      const error = await rejection(queens.count(board));
      expect(error.code).toBe('BAD_INPUT');
      expect(error.message).toMatch(message);
    });
  }

  it('a board whose line count differs from n', async () => {
    const error = await rejection(queens.count({ n: 5, board: 'Q...\n....\n....\n....' }));
    expect(error.code).toBe('BAD_INPUT');
    expect(error.message).toMatch(/4 lines, expected 5/);
  });

  it('accepts CRLF line ends and trailing blank lines', async () => {
    const result = await queens.count('.Q..\r\n....\r\n....\r\n....\r\n\r\n');
    expect(result.total).toBe(1n);
  });
});

describe('bad queen pairs are BAD_INPUT naming the queens', () => {
  it('off the board', async () => {
    const error = await rejection(queens.count({ n: 8, queens: [[2, 8]] }));
    expect(error.code).toBe('BAD_INPUT');
    expect(error.message).toBe('queen [2, 8] is off the 8×8 board (rows and columns run from 0 to 7)');
  });

  it('negative or fractional squares', async () => {
    expect((await rejection(queens.count({ n: 8, queens: [[-1, 0]] }))).message).toMatch(/queen \[-1, 0\] is off/);
    expect((await rejection(queens.count({ n: 8, queens: [[1.5, 0]] }))).message).toMatch(/queens\[0\] must be \[row, col\]/);
  });

  it('attacking each other', async () => {
    const error = await rejection(queens.count({ n: 8, queens: [[0, 0], [3, 5], [7, 7]] }));
    expect(error.code).toBe('BAD_INPUT');
    expect(error.message).toBe('queens at [0, 0] and [7, 7] attack each other on a diagonal');
  });

  it('board and queens together', async () => {
    expect((await rejection(queens.count({ n: 4, board: '....\n....\n....\n....', queens: [] }))).message).toMatch(/either board or queens/);
  });
});

describe('bad sizes and options are BAD_INPUT', () => {
  const cases: Array<[string, () => Promise<unknown>, RegExp]> = [
    ['n = 0', () => queens.count(0), /n must be a positive integer, got 0/],
    ['fractional n', () => queens.count(8.5), /n must be a positive integer, got 8.5/],
    ['n beyond the search', () => queens.count(33), /counting works for n up to 32, got n = 33/],
    ['listing beyond the search', () => drain(queens.solutions(40)), /the search works for n up to 32, got n = 40; construct\(n\) gives one solution of any size/],
    ['completing a board beyond the search', () => queens.solve({ n: 40, queens: [[0, 1]] }), /the search works for n up to 32, got n = 40$/],
    ['construct of n = 0', () => queens.construct(0), /n must be an integer from 1/],
    ['threads = 0', () => queens.count(8, { threads: 0 }), /threads must be an integer from 1 to 1024, got 0/],
    ['bad engine', () => queens.count(8, { engine: 'gpu' as 'js' }), /engine must be 'wasm' or 'js', got "gpu"/],
    ['shard text', () => queens.count(14, { shard: 'half' }), /shard must look like k\/n/],
    ['shard index too big', () => queens.count(14, { shard: '4/3' }), /shard index must be an integer from 1 to 3, got 4/],
    ['more shards than parts', () => queens.count(6, { shard: '1/1000' }), /splits into only \d+ parts, fewer than the 1000 shards asked for: give at most \d+ shards/],
    ['negative limit', () => drain(queens.solutions(8, { limit: -1 })), /limit must be a non-negative integer/],
    ['distinct with queens', () => drain(queens.solutions({ n: 8, queens: [[0, 0]] }, { distinct: true })), /distinct solutions are defined for the empty board only/],
    ['maxMemory too small', () => queens.construct(100, { maxMemory: 10 }), /maxMemory must be at least 65536 bytes/],
    ['not a problem at all', () => queens.count(null as unknown as number), /expected a board size, a board picture or \{ n, queens \}/],
  ];
  for (const [name, run, message] of cases) {
    it(name, async () => {
      const error = await rejection(run());
      expect(error.code).toBe('BAD_INPUT');
      expect(error.message).toMatch(message);
    });
  }
});

describe('cancellation', () => {
  it('a signal aborted before the start rejects at once', async () => {
    const error = await rejection(queens.count(10, { signal: AbortSignal.abort() }));
    expect(error.code).toBe('ABORTED');
  });

  it('stops a count on the calling thread', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await rejection(queens.count(19, { threads: 1, signal: controller.signal }));
    expect(error.code).toBe('ABORTED');
  });

  it('stops the worker threads', async () => {
    const controller = new AbortController();
    let last = { done: 0, total: 0 };
    setTimeout(() => controller.abort(), 300);
    const error = await rejection(
      queens.count(19, { threads: 2, signal: controller.signal, onProgress: (p) => (last = p) }),
    );
    expect(error.code).toBe('ABORTED');
    expect(last.total).toBeGreaterThan(1);
    expect(last.done).toBeLessThan(last.total);
  });

  it('leaves no listener on a long-lived signal once a count is done', async () => {
    const controller = new AbortController();
    for (let i = 0; i < 3; i++) {
      const result = await queens.count(15, { threads: 2, signal: controller.signal });
      expect(result.stats.threads).toBe(2);
    }
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('stops an iterator between solutions', async () => {
    const controller = new AbortController();
    let seen = 0;
    const error = await rejection(
      (async () => {
        for await (const _ of queens.solutions(12, { signal: controller.signal })) {
          if (++seen === 5) controller.abort();
        }
      })(),
    );
    expect(error.code).toBe('ABORTED');
    expect(seen).toBe(5);
  });
});
