// The command line, run as a user runs it: bin/bitpuzzle in a child process.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isValidSolution, tempDir } from './helpers.js';

const bin = fileURLToPath(new URL('../bin/bitpuzzle', import.meta.url));

function run(args: string[], input?: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [bin, ...args], { input, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('bitpuzzle queens', () => {
  it('--count --json prints exact totals, distinct and stats', () => {
    const { status, stdout } = run(['queens', '10', '--count', '--json']);
    expect(status).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.total).toBe(724);
    expect(result.distinct).toBe(92);
    expect(result.stats.nodes).toBeGreaterThan(0);
    expect(result.stats.threads).toBeGreaterThanOrEqual(1);
    expect(typeof result.stats.milliseconds).toBe('number');
  });

  it('prints counts beyond 2^53 as exact JSON integers', () => {
    // A shard of n = 14 is small; the printer's exactness is checked on the raw text.
    const { stdout } = run(['queens', '14', '--count', '--json', '--shard', '2/3', '--threads', '1']);
    expect(stdout).toMatch(/"total":\d+,"distinct":\d+,"reason":null,"method":"constellations","shard":\{"index":2,"count":3\}/);
  });

  it('--json lists solutions as column arrays', () => {
    const { status, stdout } = run(['queens', '6', '--all', '--json']);
    expect(status).toBe(0);
    const { solutions } = JSON.parse(stdout);
    expect(solutions).toEqual([
      [1, 3, 5, 0, 2, 4],
      [2, 5, 1, 4, 0, 3],
      [3, 0, 4, 1, 5, 2],
      [4, 2, 0, 5, 3, 1],
    ]);
  });

  it('prints the board picture of the first solution', () => {
    const { status, stdout } = run(['queens', '4']);
    expect(status).toBe(0);
    expect(stdout).toContain('solution 1: 1 3 0 2\n.Q..\n...Q\nQ...\n..Q.');
  });

  it('completes a board read from standard input', () => {
    const { status, stdout } = run(['queens', '--board', '-', '--count', '--json'], '.Q......\n........\n........\n........\n........\n........\n........\n........\n');
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ n: 8, total: 8, distinct: null });
  });

  it('builds a solution for n = 100000 and prints it with --json', () => {
    const { status, stdout } = run(['queens', '100000', '--json']);
    expect(status).toBe(0);
    const { solutions } = JSON.parse(stdout);
    expect(solutions[0]).toHaveLength(100000);
    expect(isValidSolution(solutions[0])).toBe(true);
  });

  it('bad input exits 2 with the problem named on stderr', () => {
    const attack = run(['queens', '--board', '-', '--count'], 'Q...\n.Q..\n....\n....\n');
    expect(attack.status).toBe(2);
    expect(attack.stderr).toContain('BAD_INPUT: queens at line 1 column 1 and line 2 column 2 attack each other on a diagonal');
    expect(attack.stdout).toBe('');

    const missing = run(['queens', '--board', '/no/such/file']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('cannot read /no/such/file');

    const size = run(['queens', 'eight']);
    expect(size.status).toBe(2);
    expect(size.stderr).toContain('n must be an integer from 1 to 2147483647, got "eight"');

    const big = run(['queens', '40', '--count']);
    expect(big.status).toBe(2);
    expect(big.stderr).toContain('counting works for n up to 32');

    const option = run(['queens', '8', '--frobnicate']);
    expect(option.status).toBe(2);
    expect(option.stderr).toContain("unknown option '--frobnicate'");

    expect(run(['queens', '8', '--shard', '1/2']).stderr).toContain('--shard works with --count');
    expect(run(['queens', '8', '--threads', '0', '--count']).status).toBe(2);
    expect(run(['queens']).stderr).toContain('give the board size n or a board with --board');
  });

  it('--help describes every command', () => {
    const commands = ['queens', 'polyomino', 'cover', 'sudoku', 'samegame', 'pegs', 'sliding', 'worker', 'queue', 'tour'];
    for (const args of [['--help'], ...commands.map((c) => [c, '--help'])]) {
      const { status, stdout } = run(args);
      expect(status).toBe(0);
      expect(stdout).toContain('Usage: bitpuzzle');
    }
    // A run names one command and loads only that one: the program's own help still lists all.
    const listed = run(['--help']).stdout;
    for (const c of commands) expect(listed).toMatch(new RegExp(`^  ${c} `, 'm'));
    const help = run(['help', 'sliding']);
    expect([help.status, help.stdout.split('\n')[0]]).toEqual([0, 'Usage: bitpuzzle sliding [options] [tiles...]']);
    const typo = run(['slidng']);
    expect(typo.status).toBe(2);
    expect(typo.stderr).toContain('(Did you mean sliding?)');
  });
});

describe('bitpuzzle polyomino', () => {
  it('--count --json prints total and distinct', () => {
    const { status, stdout } = run(['polyomino', '--region', '5x12', '--count', '--json', '--threads', '1']);
    expect(status).toBe(0);
    const result = JSON.parse(stdout);
    expect([result.total, result.distinct, result.symmetries, result.reason]).toEqual([4040, 1010, 4, null]);
  });

  it('lists letter grids, JSON placements and an SVG file; reads regions and pieces from files', () => {
    const dir = tempDir('bitpuzzle-');
    const region = join(dir, 'region.txt');
    const pieces = join(dir, 'pieces.txt');
    writeFileSync(region, '....\n.##.\n....\n');
    writeFileSync(pieces, '# an L tetromino and a domino\nL: count=2\nLLL\nL..\n\nD: one-sided count<=1\nDD\n');
    const text = run(['polyomino', '--region', region, '--pieces', pieces, '--all']);
    expect(text.status).toBe(0);
    const grids = text.stdout.split(/solution \d+:\n/).slice(1).map((g) => g.trim());
    expect(grids.length).toBeGreaterThan(0);
    for (const grid of grids) expect(grid.split('\n')[1]).toMatch(/^[LD] {2}[LD]$/);
    const json = JSON.parse(run(['polyomino', '--region', region, '--pieces', pieces, '--all', '--json']).stdout);
    expect(json.solutions).toHaveLength(grids.length);
    expect(json.solutions[0].pieces[0]).toHaveProperty('cells');
    const svg = join(dir, 'out.svg');
    expect(run(['polyomino', '--region', '3x20', '--limit', '2', '--svg', svg]).status).toBe(0);
    expect(readFileSync(svg, 'utf8').match(/<rect x=/g)).toHaveLength(120);
  });

  it('says why an impossible problem has no solution: exit 1 for a solution, 0 for a count', () => {
    const { status, stdout, stderr } = run(['polyomino', '--region', '7x9']);
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('UNSOLVABLE: the pieces cover 60 cells; the region has 63');
    const counted = run(['polyomino', '--region', '7x9', '--count']);
    expect(counted.status).toBe(0);
    expect(counted.stdout).toContain('0 solutions');
    expect(counted.stdout).toContain('no solution: the pieces cover 60 cells; the region has 63');
  });

  it('bad input exits 2 with the line and column', () => {
    const bad = run(['polyomino', '--region', '-'], '...\n.x.\n');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('BAD_INPUT: line 2, column 2: "x" in the region picture');
    const set = run(['polyomino', '--pieces', 'pentomino']);
    expect(set.status).toBe(2);
    expect(set.stderr).toContain('unknown piece set "pentomino"');
    const piece = run(['polyomino', '--region', '2x2', '--pieces', '-'], 'A.\n.A\n');
    expect(piece.status).toBe(2);
    expect(piece.stderr).toContain('line 1, column 1: piece "A" is not one connected polyomino');
    expect(run(['polyomino', '--count', '--svg', 'x.svg']).status).toBe(2);
  });
});

describe('bitpuzzle tour', () => {
  it('solves the headline instances', () => {
    const { status, stdout } = run(['tour']);
    expect(status).toBe(0);
    expect(stdout).toContain('8×8: 92 solutions, 12 distinct up to symmetry');
    expect(stdout).toContain('16×16: 14772512 solutions, 1846955 distinct');
    expect(stdout).toContain('1,000,000×1,000,000: a solution built and verified');
    expect(stdout).toContain('the 12 pentominoes fill 6×10 in 9356 ways, 2339 distinct up to symmetry');
    expect(stdout).toContain('8×8 with its centre removed: 520 tilings, 65 distinct');
    expect(stdout).toMatch(/a 17-clue puzzle, solved and proved unique \(1 solution/);
    expect(stdout).toMatch(/100 new minimal puzzles \(\d+ to \d+ clues\), each checked unique by a batch: 100 unique/);
  });
});

describe('node flags', () => {
  it('V8 flags given to node (a bigger heap, --expose-gc) do not stop the worker threads from starting', () => {
    const result = spawnSync(process.execPath, ['--max-old-space-size=512', '--expose-gc', bin, 'queens', '15', '--count', '--threads', '2', '--json'], { encoding: 'utf8', timeout: 60_000 });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const answer = JSON.parse(result.stdout);
    expect([answer.total, answer.stats.threads]).toEqual([2279184, 2]);
  });
});
