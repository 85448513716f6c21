// Slow checks of the 15-puzzle's IDA* (minutes on a shared machine; the 7-8 tables take about
// ten minutes to build the first time, 288 MB, in $BITPUZZLE_CACHE or ~/.cache/bitpuzzle): run
// by `npm run test:slow`. The 24-puzzle's are in sliding24.test.ts.
import { copyFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sliding } from '../dist/index.js';
import { tempDir } from '../test/helpers.js';

const korf100 = sliding.parseBatch(readFileSync(new URL('../test/data/korf100.txt', import.meta.url), 'utf8'));

// Korf's 100 with the 7-8 and the mirrored lookup: the C yardstick (bench/native/sliding.c) counts the same.
const SEVEN_EIGHT_NODES = 20_760_173n;
const cache = process.env.BITPUZZLE_CACHE || join(homedir(), '.cache', 'bitpuzzle');
const bin = fileURLToPath(new URL('../bin/bitpuzzle', import.meta.url));

// Korf's 100 with each choice of databases (the 7-8's first build: about ten minutes on one core).
const KORF_NODES: Array<[sliding.PdbChoice, bigint, number[]]> = [
  ['7-8', SEVEN_EIGHT_NODES, [15, 32, 66]],
  ['6-6-3', 92_332_529n, [22, 60, 88]],
];
for (const [pdb, nodes, hardest] of KORF_NODES) {
  describe(`Korf's 100 (${pdb} pattern databases)`, () => {
    it(`all 100 at their published lengths, ${nodes.toLocaleString('en-US')} nodes in all (a batch on two threads)`, async () => {
      const results = await sliding.solveBatch(korf100.map((i) => i.board), { goal: 'korf', threads: 2, pdb });
      expect(results.map((r) => r.length)).toEqual(korf100.map((i) => i.expected));
      expect(results.every((r) => r.optimal && r.patterns === pdb)).toBe(true);
      expect(results.reduce((sum, r) => sum + r.stats.nodes, 0n)).toBe(nodes);
    }, 1_800_000);

    it('some of the hardest split over two threads: the same moves and nodes as one thread', async () => {
      for (const i of hardest) {
        const { board, expected } = korf100[i - 1];
        const one = await sliding.solve(board, { goal: 'korf', pdb });
        const two = await sliding.solve(board, { goal: 'korf', pdb, threads: 2 });
        expect(one.length).toBe(expected);
        expect(two.moves).toBe(one.moves);
        expect(two.stats.nodes).toBe(one.stats.nodes);
      }
    });
  });
}

describe("the 7-8's files", () => {
  // One damage only: each rebuild of the 7-tile table takes a minute or more, and the other kinds
  // (another version, a foreign file, an empty one) are tested on small tables in test/sliding.test.ts.
  it('a truncated 7-tile file is rebuilt with a warning, to the same bytes', () => {
    const names = readdirSync(cache).filter((f) => /^sliding-4x4-b0-.*\.packed\.pdb$/.test(f)).sort();
    expect(names).toEqual(['sliding-4x4-b0-1-2-3-4-5-8-12.packed.pdb', 'sliding-4x4-b0-6-7-9-10-11-13-14-15.packed.pdb']);
    const dir = tempDir('bitpuzzle-pdb78-');
    for (const name of names) copyFileSync(join(cache, name), join(dir, name));
    const seven = join(dir, names[0]);
    const original = readFileSync(seven);
    const tiles = Array.from(korf100[0].board.tiles, String);
    writeFileSync(seven, original.subarray(0, original.length >> 1));
    const run = spawnSync(process.execPath, [bin, 'sliding', ...tiles, '--goal', 'korf', '--pdb', '7-8', '--pdb-dir', dir, '--json'], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/has \d+ bytes, not 28828848 \(truncated/);
    expect(JSON.parse(run.stdout).length).toBe(korf100[0].expected);
    expect(readFileSync(seven).equals(original)).toBe(true);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
