// Every command's --json output, in every mode and on errors, against the JSON Schemas
// shipped in schemas/ (draft 2020-12, checked by ajv). The schemas forbid unknown keys in
// stats and the error object, so that the contract cannot drift unnoticed.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { cover, pegs, polyomino, queens, samegame, sliding, sudoku } from '../dist/index.js';
import { runCli } from './cli-run.js';

const schemaDir = new URL('../schemas/', import.meta.url);
const schemas = readdirSync(schemaDir)
  .filter((f) => f.endsWith('.schema.json'))
  .map((f) => JSON.parse(readFileSync(new URL(f, schemaDir), 'utf8')));
const ajv = new Ajv2020({ strict: true, allErrors: true });
for (const schema of schemas) ajv.addSchema(schema);

const dir = mkdtempSync(join(tmpdir(), 'bitpuzzle-schema-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const knuth = file('knuth.txt', 'primary: A B C D E F G\nCEF: C E F\nADG: A D G\nBCF: B C F\nAD: A D\nBG: B G\nBDG: B D G\n');
const uncovered = file('uncovered.txt', 'primary: a b c\na\nb\n');
const noCover = file('nocover.txt', 'primary: a b c\na b\nb c\n'); // every column in a row, no exact cover
const shidoku = file('shidoku.txt', '....\n....\n....\n....\n');
const stuckSudoku = file('stuck.txt', '12..\n....\n..3.\n..4.\n'); // line 1, column 3 has no digit left
const badSudoku = file('bad.txt', '11..\n....\n....\n....\n');
const clearable = file('clear.txt', '32332\n31313\n32323\n22313\n31332\n');
const stuck = file('stuck-board.txt', '1122\n2213\n1122\n');
const games = file('games.txt', '32332\n31313\n32323\n22313\n31332\n\n1122\n2213\n1122\n');
const queensBoard = file('queens.txt', '.Q......\n........\n........\n........\n........\n........\n........\n........\n');
const batch = file('batch.txt', '# two 8-puzzles\n8 6 7 2 5 4 3 0 1 31\n1 2 3 4 5 6 0 7 8 2\n');
const TOP95_1 = '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......';
const sudokuBatch = file('sudoku-batch.txt', `# two puzzles and a short line\n${TOP95_1}\n${'.'.repeat(81)}\n${TOP95_1.slice(0, 30)}\n`);

interface Case {
  args: string[];
  /** The schema's $defs entry the output must match ('error' for the error object). */
  mode: string;
  status: number;
  /** For errors: the code. */
  code?: string;
}

const cases: Record<string, Case[]> = {
  queens: [
    { args: ['8', '--count'], mode: 'count', status: 0 },
    { args: ['10', '--count', '--shard', '2/3', '--threads', '1'], mode: 'count', status: 0 },
    { args: ['--board', queensBoard, '--count'], mode: 'count', status: 0 },
    { args: ['6', '--all'], mode: 'listing', status: 0 },
    { args: ['40'], mode: 'listing', status: 0 },
    { args: ['3'], mode: 'error', status: 1, code: 'UNSOLVABLE' },
    { args: ['8', '--count', '--all'], mode: 'error', status: 2, code: 'BAD_INPUT' },
    { args: ['8', '--frobnicate'], mode: 'error', status: 2, code: 'BAD_INPUT' },
  ],
  polyomino: [
    { args: ['--region', '3x20', '--count', '--threads', '1'], mode: 'count', status: 0 },
    { args: ['--region', '7x9', '--count'], mode: 'count', status: 0 },
    { args: ['--region', '3x20', '--limit', '2'], mode: 'listing', status: 0 },
    { args: ['--region', '7x9'], mode: 'error', status: 1, code: 'UNSOLVABLE' },
    { args: ['--region', '-6x10'], mode: 'error', status: 2, code: 'BAD_INPUT' },
    { args: ['--region', '3x3x3', '--pieces', 'soma', '--limit', '2'], mode: 'listing', status: 0 },
    { args: ['--region', '3x3x3', '--pieces', 'soma', '--count'], mode: 'count', status: 0 },
  ],
  cover: [
    { args: [knuth, '--count'], mode: 'count', status: 0 },
    { args: [uncovered, '--count'], mode: 'count', status: 0 },
    { args: [knuth, '--all'], mode: 'listing', status: 0 },
    { args: [uncovered], mode: 'error', status: 1, code: 'UNSOLVABLE' },
    { args: [noCover], mode: 'error', status: 1, code: 'UNSOLVABLE' },
    { args: [knuth, '--count', '--shard', '2/5'], mode: 'error', status: 2, code: 'BAD_INPUT' },
    { args: [join(dir, 'missing.txt')], mode: 'error', status: 2, code: 'BAD_INPUT' },
  ],
  sudoku: [
    { args: [shidoku, '--count', '--threads', '1'], mode: 'count', status: 0 },
    { args: [shidoku, '--limit', '2'], mode: 'listing', status: 0 },
    { args: [stuckSudoku], mode: 'error', status: 1, code: 'UNSOLVABLE' },
    { args: [badSudoku], mode: 'error', status: 2, code: 'BAD_INPUT' },
    { args: ['--batch', sudokuBatch, '--threads', '1'], mode: 'batch', status: 2 },
    { args: ['--batch', sudokuBatch, '--limit', '1'], mode: 'batch', status: 2 },
    { args: ['--generate', '2', '--seed', '3', '--symmetric'], mode: 'generate', status: 0 },
    { args: ['--generate', '2', '--count'], mode: 'error', status: 2, code: 'BAD_INPUT' },
  ],
  pegs: [
    { args: ['--board', 'triangle5', '--finish', 'any'], mode: 'solution', status: 0 },
    { args: ['--board', 'triangle5', '--finish', 'any', '--min-moves'], mode: 'minMoves', status: 0 },
    { args: ['--board', 'triangle5', '--finish', 'any', '--count', '--threads', '1'], mode: 'count', status: 0 },
    { args: ['--board', 'english', '--finish', 'c1', '--count'], mode: 'count', status: 0 },
    { args: ['--board', 'french'], mode: 'error', status: 1, code: 'UNSOLVABLE' },
    { args: ['--board', 'triangle5', '--finish', 'any', '--min-moves', '--count'], mode: 'optimalCount', status: 0 },
    { args: ['--board', 'triangle5', '--finish', 'any', '--min-moves', '--limit', '3'], mode: 'optimalSolutions', status: 0 },
    { args: ['--board', 'triangle5', '--finish', 'any', '--count', '--max-memory', '64K'], mode: 'error', status: 3, code: 'OUT_OF_MEMORY' },
    { args: ['--all'], mode: 'error', status: 2, code: 'BAD_INPUT' },
  ],
  sliding: [
    { args: ['8', '6', '7', '2', '5', '4', '3', '0', '1'], mode: 'solution', status: 0 },
    { args: ['--random', '12x5', '--fast'], mode: 'solution', status: 0 },
    { args: ['8', '6', '7', '2', '5', '4', '3', '0', '1', '--node-limit', '50'], mode: 'solution', status: 3 },
    { args: ['--random', '12x5', '--moves-file', join(dir, 'moves.txt')], mode: 'movesFile', status: 0 },
    { args: ['--batch', batch, '--threads', '1'], mode: 'batch', status: 0 },
    { args: ['2', '1', '3', '0'], mode: 'error', status: 1, code: 'UNSOLVABLE' },
    { args: ['--random', '4x4', '--fast', '--heuristic', 'conflict'], mode: 'error', status: 2, code: 'BAD_INPUT' },
  ],
  samegame: [
    { args: [clearable], mode: 'result', status: 0 },
    { args: [stuck, '--min-left'], mode: 'result', status: 0 },
    { args: [clearable, '--score', '--nodes', '2000', '--threads', '1'], mode: 'result', status: 0 },
    { args: [stuck], mode: 'error', status: 1, code: 'UNSOLVABLE' },
    { args: ['--batch', games], mode: 'batch', status: 0 },
    { args: ['--batch', games, '--score', '--nodes', '500', '--threads', '1'], mode: 'batch', status: 0 },
    { args: ['--batch', games, '--final'], mode: 'error', status: 2, code: 'BAD_INPUT' },
    { args: [clearable, '--score', '--engine', 'js'], mode: 'error', status: 2, code: 'BAD_INPUT' },
    { args: ['--random', '5x4', '--colours', '3', '--seed', '2'], mode: 'random', status: 0 },
  ],
};

describe('the schemas', () => {
  it('one per command, each sharing the same stats, shard, reason and error definitions', () => {
    expect(schemas.map((s) => s.$id).sort()).toEqual(Object.keys(cases).map((c) => `urn:bitpuzzle:schema:${c}`).sort());
    const shared = (s: { $defs: Record<string, unknown> }) => ({ stats: s.$defs.stats, shard: s.$defs.shard, reason: s.$defs.reason, error: s.$defs.error });
    for (const schema of schemas) expect(shared(schema)).toEqual(shared(schemas[0]));
  });

  it('are shipped in the package and exported as bitpuzzle/schemas/<command>.schema.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(pkg.files).toContain('schemas');
    expect(pkg.exports['./schemas/*']).toBe('./schemas/*');
  });

  it('reject what the contract forbids: extra stats keys, moves as a number, a stack in the error', () => {
    const count = ajv.getSchema('urn:bitpuzzle:schema:pegs#/$defs/count')!;
    const good = { board: 'x', total: 1, distinct: null, reason: null, shard: null, memory: 1, levels: [], symmetries: 1, stats: { nodes: 1, milliseconds: 1, threads: 1, parts: 1 } };
    expect(count(good)).toBe(true);
    expect(count({ ...good, stats: { ...good.stats, memory: 5 } })).toBe(false);
    expect(count({ ...good, countStats: good.stats })).toBe(false);
    const minMoves = ajv.getSchema('urn:bitpuzzle:schema:pegs#/$defs/minMoves')!;
    expect(minMoves({ board: 'x', jumps: [], moves: 10, length: 10, memory: 1, stats: good.stats })).toBe(false);
    const error = ajv.getSchema('urn:bitpuzzle:schema:queens#/$defs/error')!;
    expect(error({ error: { code: 'BAD_INPUT', message: 'x' } })).toBe(true);
    expect(error({ error: { code: 'BAD_INPUT', message: 'x', stack: 'at …' } })).toBe(false);
  });
});

for (const [command, list] of Object.entries(cases)) {
  describe(`bitpuzzle ${command} --json`, () => {
    it.each(list.map((c) => [c.args.map((a) => a.replace(dir, '…')).join(' ') || '(no arguments)', c] as const))('%s', async (_, c) => {
      const { status, stdout, stderr } = await runCli([command, ...c.args, '--json']);
      expect(status, stderr).toBe(c.status);
      // Exactly one JSON object on stdout, on one line; never a stack trace anywhere.
      expect(stdout.trim().split('\n')).toHaveLength(1);
      expect(stderr).not.toMatch(/\n\s+at /);
      const output = JSON.parse(stdout);
      const whole = ajv.getSchema(`urn:bitpuzzle:schema:${command}`)!;
      expect(whole(output), ajv.errorsText(whole.errors)).toBe(true);
      const mode = ajv.getSchema(`urn:bitpuzzle:schema:${command}#/$defs/${c.mode}`)!;
      expect(mode(output), ajv.errorsText(mode.errors)).toBe(true);
      if (c.code) {
        expect(output.error.code).toBe(c.code);
        // The human message also goes to stderr.
        expect(stderr).toContain(output.error.message.split('\n')[0]);
      }
    });
  });
}

describe('library results follow the same contract', () => {
  const STATS_KEYS = ['milliseconds', 'nodes', 'parts', 'threads'];
  const COUNT_KEYS = ['distinct', 'reason', 'shard', 'stats', 'total'];

  /** Fails on a `moves` that is a number, anywhere in the value. */
  function noNumericMoves(value: unknown, path = 'result'): void {
    if (value === null || typeof value !== 'object') return;
    for (const [key, inner] of Object.entries(value)) {
      expect(key === 'moves' && typeof inner === 'number', `${path}.${key} is a number`).toBe(false);
      noNumericMoves(inner, `${path}.${key}`);
    }
  }

  function checkStats(result: { stats: Record<string, unknown> }): void {
    expect(Object.keys(result.stats).sort()).toEqual(STATS_KEYS);
    expect(typeof result.stats.nodes).toBe('bigint');
    noNumericMoves(result);
  }

  it('every count has total, distinct, reason, shard and stats, and no countStats', async () => {
    const counts = [
      await queens.count(6),
      await polyomino.count({ region: '3x20' }, { threads: 1 }),
      await polyomino.count({ region: '7x9' }),
      await cover.count({ columns: 2, rows: [[0], [1], [0, 1]] }, { threads: 1 }),
      await sudoku.count('....\n....\n....\n....', { threads: 1 }),
      await sudoku.count('12345678.........9' + '.'.repeat(63), { threads: 2 }),
      await pegs.count({ board: 'triangle5', finish: 'any' }, { threads: 1 }),
      await pegs.count({ board: 'english', finish: 'c1' }),
    ];
    for (const result of counts) {
      for (const key of COUNT_KEYS) expect(result).toHaveProperty(key);
      expect(result).not.toHaveProperty('countStats');
      expect(typeof result.total).toBe('bigint');
      checkStats(result);
    }
  });

  it('every first solution and every answer carries the same stats', async () => {
    const answers = [
      (await queens.solve(8))!,
      (await queens.solve(40))!,
      (await polyomino.solve({ region: '3x20' }))!,
      (await cover.solve({ columns: 2, rows: [[0], [1]] }))!,
      (await sudoku.solve('....\n....\n....\n....'))!,
      (await sudoku.solve('.'.repeat(81)))!,
      await sudoku.batch(['.'.repeat(81)]),
      await sudoku.generate({ seed: 1 }),
      (await pegs.solve({ board: 'triangle5', finish: 'any' }))!,
      (await pegs.minMoves({ board: 'triangle5', finish: 'any' }))!,
      await sliding.solve('1 2 3\n4 5 6\n7 0 8'),
      await sliding.solve(sliding.randomBoard(5, 7, 1), { method: 'fast' }),
      ...(await sliding.solveBatch(['1 2 3\n4 5 6\n7 0 8'], { threads: 1 })),
      await samegame.clear('1122\n2211'),
      await samegame.minLeft('1122\n2213\n1122'),
      await samegame.score('1122\n2211', { maxNodes: 100, threads: 1 }),
    ];
    for (const result of answers) checkStats(result as { stats: Record<string, unknown> });
  });

  it("listings end with the stats of the search as the iterator's final value", async () => {
    for (const listing of [
      queens.solutions(6, { limit: 2 }),
      polyomino.solutions({ region: '3x20' }, { limit: 2 }),
      cover.solutions({ columns: 2, rows: [[0], [1], [0, 1]] }),
      sudoku.solutions('....\n....\n....\n....', { limit: 2 }),
      sudoku.solutions('.'.repeat(81), { limit: 2 }),
      pegs.solutions({ board: 'triangle5', finish: 'any' }, { limit: 2 }),
    ] as Array<AsyncGenerator<unknown, { nodes: bigint }>>) {
      let step = await listing.next();
      let listed = 0;
      for (; !step.done; step = await listing.next()) listed++;
      expect(listed).toBeGreaterThan(0);
      expect(Object.keys(step.value).sort()).toEqual(STATS_KEYS);
      expect(step.value.nodes).toBeGreaterThan(0n);
    }
  });
});
