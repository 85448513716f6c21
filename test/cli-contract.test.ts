// The command line's contract (issue 14): one exit-code table, flags that would be ignored
// rejected, output files written whole or not at all, quiet exits on a closed pipe, --version.
// Most checks call main(argv) in this process; what needs a process of its own spawns one.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sliding } from '../dist/index.js';
import { bin, runCli, spawnCli } from './cli-run.js';
import { tempDir } from './helpers.js';

const version = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

describe('--version', () => {
  it('prints the version of package.json, with --version and -V', async () => {
    for (const flag of ['--version', '-V']) {
      const { status, stdout } = await runCli([flag]);
      expect(status).toBe(0);
      expect(stdout.trim()).toBe(version);
    }
  });
});

describe('exit statuses', () => {
  it('0 answered, 1 no solution, 2 bad input, 3 stopped by a limit', async () => {
    expect((await runCli(['queens', '6'])).status).toBe(0);
    // A count of 0 is an answer.
    expect((await runCli(['queens', '3', '--count'])).status).toBe(0);
    expect((await runCli(['polyomino', '--region', '7x9', '--count'])).status).toBe(0);
    // No solution: proved before a search, or a search that found none, in every family.
    const none = [
      ['queens', '3'],
      ['polyomino', '--region', '7x9'],
      ['pegs', '--board', 'french'],
      ['sliding', '2', '1', '3', '0'],
    ];
    for (const args of none) {
      const { status, stderr, stdout } = await runCli(args);
      expect(status, args.join(' ')).toBe(1);
      expect(stderr).toMatch(/^bitpuzzle: UNSOLVABLE: /);
      expect(stdout).toBe('');
    }
    expect((await runCli(['queens', 'eight'])).status).toBe(2);
    expect((await runCli(['queens', '8', '--frobnicate'])).status).toBe(2);
    const stopped = await runCli(['sliding', '8', '6', '7', '2', '5', '4', '3', '0', '1', '--node-limit', '50']);
    expect(stopped.status).toBe(3);
    expect(stopped.stdout).toMatch(/stopped by the limit; no solution is shorter than \d+ moves/);
    // SameGame: a clear a node limit stopped is 3; the fewest left within a limit the user set is an answer.
    const dir = tempDir('bitpuzzle-exit-');
    const board = join(dir, 'five.txt');
    writeFileSync(board, '32332\n31313\n32323\n22313\n31332\n');
    const unknown = await runCli(['samegame', board, '--nodes', '2', '--json']);
    expect(unknown.status).toBe(3);
    expect(JSON.parse(unknown.stdout)).toMatchObject({ mode: 'clear', cleared: false, proved: false });
    expect((await runCli(['samegame', board, '--min-left', '--nodes', '2'])).status).toBe(0);
    expect((await runCli(['samegame', board])).status).toBe(0);
  });

  it('--json prints one error object, the message on stderr too, never a stack', async () => {
    const { status, stdout, stderr } = await runCli(['queens', '8', '--count', '--limit', '2', '--json']);
    expect(status).toBe(2);
    expect(JSON.parse(stdout)).toEqual({ error: { code: 'BAD_INPUT', message: '--limit does not work with --count (it counts every solution and, on an empty board, the distinct ones)' } });
    expect(stderr).toContain('--limit does not work with --count');
    const usage = await runCli(['queens', '8', '--frobnicate', '--json']);
    expect(JSON.parse(usage.stdout)).toEqual({ error: { code: 'BAD_INPUT', message: "unknown option '--frobnicate'" } });
  });
});

describe('flags that a mode would ignore are rejected', () => {
  const rejected: Array<[string[], RegExp]> = [
    [['queens', '40', '--all'], /--all does not work for n > 32: one solution is built by construction/],
    [['queens', '40', '--limit', '3'], /--limit does not work for n > 32/],
    [['queens', '40', '--distinct'], /--distinct does not work for n > 32/],
    [['queens', '8', '--count', '--distinct'], /--distinct does not work with --count/],
    [['queens', '8', '--threads', '2'], /--threads does not work when listing solutions/],
    [['queens', '8', '--shard', '1/2'], /--shard works with --count/],
    [['polyomino', '--count', '--limit', '2'], /--limit does not work with --count/],
    [['polyomino', '--region', '3x20', '--threads', '2'], /--threads does not work when listing/],
    [['polyomino', '--count', '--no-colour'], /--no-colour does not work with --count/],
    [['polyomino', '--json', '--no-colour'], /--no-colour does not work with --json/],
    [['cover', '-', '--count', '--all'], /--all does not work with --count/],
    [['sudoku', '-', '--threads', '2'], /--threads does not work when listing/],
    [['pegs', '--threads', '2'], /--threads does not work without --count/],
    [['pegs', '--count', '--threads', '2', '--engine', 'js'], /--threads does not work with --engine js/],
    [['pegs', '--all'], /--all does not work without --min-moves/],
    [['pegs', '--min-moves', '--count', '--limit', '2'], /--limit does not work with --count/],
    [['pegs', '--max-memory', '4 lots'], /--max-memory must be a size such as 4G/],
    [['sliding', '--random', '4x4', '--fast', '--node-limit', '5'], /--node-limit does not work with --fast/],
    [['sliding', '--random', '4x4', '--fast', '--time-limit', '5', '--heuristic', 'conflict'], /--time-limit and --heuristic do not work with --fast/],
    [['sliding', '--random', '5x5', '--node-limit', '5'], /--node-limit does not work on a board of more than 16 cells without --optimal/],
    [['sliding', '--random', '9x9', '--moves-file', 'x.txt', '--time-limit', '9'], /--time-limit does not work with --moves-file/],
    [['sliding', '1', '2', '3', '0', '--seed', '3'], /--seed does not work without --random/],
    [['sliding', '--random', '3x3', '--cache-dir', 'x'], /--cache-dir does not work with the conflict heuristic/],
    [['sliding', '--random', '4x3', '--heuristic', 'manhattan', '--no-cache'], /--no-cache does not work with the manhattan heuristic/],
    [['sliding', '--random', '3x3', '--size', '3x3'], /--size does not work with --random/],
    [['sliding', '--random', '6x6', '--threads', '2'], /--threads does not work with the constructive solver/],
    [['sliding', '1', '2', '3', '0', '--json', '--playback'], /--playback does not work with --json/],
    [['sliding', '--random', '3x3', '--moves-file', '-', '--json'], /--moves-file - writes the moves on standard output/],
    [['samegame', '-', '--score', '--engine', 'js'], /--engine does not work with --score/],
    [['samegame', '-', '--seed', '2'], /--seed does not work without --score/],
    [['samegame', '-', '--final', '--json'], /--final does not work with --json/],
  ];
  it.each(rejected.map(([args, message]) => [args.join(' '), args, message] as const))('%s', async (_, args, message) => {
    const { status, stderr } = await runCli(args);
    expect(status).toBe(2);
    expect(stderr).toMatch(message);
  });
});

describe('messages that say what is wrong', () => {
  it('a size that is not one, an empty board file, a shard the problem cannot give', async () => {
    const region = await runCli(['polyomino', '--region', '-6x10']);
    expect(region.status).toBe(2);
    expect(region.stderr).toContain('--region "-6x10" is not a size: a rectangle is WxH (width x height) in whole numbers from 1, for example 6x10');
    expect(region.stderr).not.toMatch(/ENOENT/);

    const dir = tempDir('bitpuzzle-contract-');
    const empty = join(dir, 'empty.txt');
    writeFileSync(empty, '\n  \n');
    const board = await runCli(['pegs', '--board', empty]);
    expect(board.status).toBe(2);
    expect(board.stderr).toMatch(/--board: ".*empty.txt" is empty; a picture has a line per row: 'o' a peg, '.' an empty hole/);

    const matrix = join(dir, 'matrix.txt');
    writeFileSync(matrix, 'primary: a b\na b\n');
    const shard = await runCli(['cover', matrix, '--count', '--shard', '1/2']);
    expect(shard.status).toBe(2);
    expect(shard.stderr).toContain('this problem splits into only 1 part, fewer than the 2 shards asked for: count it whole, without a shard');
  });
});

describe('sizes are WxH: width (columns), then height (rows)', () => {
  it('sliding --random and --size take columns first, and say so', async () => {
    const wide = JSON.parse((await runCli(['sliding', '--random', '5x2', '--json'])).stdout);
    expect([wide.cols, wide.rows]).toEqual([5, 2]);
    const text = await runCli(['sliding', '--random', '5x2']);
    expect(text.stdout).toMatch(/^5×2: \d+ moves/);
    // Three columns, two rows: 1 2 3 / 4 5 _.
    const sized = JSON.parse((await runCli(['sliding', '1', '2', '3', '4', '0', '5', '--size', '3x2', '--json'])).stdout);
    expect([sized.cols, sized.rows, sized.moves]).toEqual([3, 2, 'R']);
    const bad = await runCli(['sliding', '--random', '3by3']);
    expect(bad.stderr).toContain('--random: a size is WxH (columns x rows), for example 4x3, got "3by3"');
  });
});

describe('output files are written whole or not at all', () => {
  it('a folder or a missing folder is exit 2 naming the path, before any work, and leaves nothing', async () => {
    const dir = tempDir('bitpuzzle-out-');
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    const onFolder = await runCli(['sliding', '--random', '20x20', '--moves-file', folder]);
    expect(onFolder.status).toBe(2);
    expect(onFolder.stderr).toContain(`cannot write "${folder}": it is a folder`);
    const missing = join(dir, 'no', 'such', 'moves.txt');
    const inMissing = await runCli(['sliding', '--random', '20x20', '--moves-file', missing]);
    expect(inMissing.status).toBe(2);
    expect(inMissing.stderr).toContain(`cannot write "${missing}": the folder "${join(dir, 'no', 'such')}" does not exist`);
    const svg = await runCli(['polyomino', '--region', '3x20', '--svg', join(dir, 'nowhere', 'x.svg')]);
    expect(svg.status).toBe(2);
    expect(svg.stderr).toMatch(/cannot write ".*x.svg": the folder/);
    expect(readdirSync(dir)).toEqual(['folder']);
    expect(readdirSync(folder)).toEqual([]);
  });

  it('a failure after the file was opened leaves the old file as it was and no temporary file', async () => {
    const dir = tempDir('bitpuzzle-out-');
    const svg = join(dir, 'tilings.svg');
    writeFileSync(svg, 'old');
    // Two skew tetrominoes fit in 4×2 but cannot tile it: the search, run after the output
    // was opened, finds nothing to draw.
    const pieces = join(dir, 'skew.txt');
    writeFileSync(pieces, 'S: count=2\n.SS\nSS.\n');
    const failed = await runCli(['polyomino', '--region', '4x2', '--pieces', pieces, '--svg', svg]);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain('UNSOLVABLE: 4×2: the search found no tiling');
    expect(readFileSync(svg, 'utf8')).toBe('old');
    expect(readdirSync(dir).sort()).toEqual(['skew.txt', 'tilings.svg']);
    const drawn = await runCli(['polyomino', '--region', '3x20', '--limit', '2', '--svg', svg]);
    expect(drawn.status).toBe(0);
    expect(readFileSync(svg, 'utf8')).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect(readdirSync(dir).sort()).toEqual(['skew.txt', 'tilings.svg']);
  });

  it('the streamed moves reach the file under its name only when complete', async () => {
    const dir = tempDir('bitpuzzle-out-');
    const file = join(dir, 'moves.txt');
    const { status, stdout } = await runCli(['sliding', '--random', '30x20', '--seed', '2', '--moves-file', file, '--json']);
    expect(status).toBe(0);
    const summary = JSON.parse(stdout);
    const moves = readFileSync(file, 'utf8');
    expect(moves.length).toBe(summary.length);
    expect(sliding.isSolution(sliding.randomBoard(20, 30, 2), moves, sliding.toGoal('default', 20, 30))).toBe(true);
    expect(readdirSync(dir)).toEqual(['moves.txt']);
  });
});

describe('a process of its own', () => {
  it('exits quietly when the reader of its output goes away (| head -1)', () => {
    for (const [args, reader, first] of [
      ['queens 12 --all', 'head -1', 'solution 1: 0 2 4 7 9 11 5 10 1 6 8 3'],
      ['queens 12 --all --json', 'head -c 8', '{"n":12,'],
    ]) {
      const shell = spawnSync('bash', ['-c', `"${process.execPath}" "${bin}" ${args} | ${reader}; echo; echo "status \${PIPESTATUS[0]}"`], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(shell.stdout.startsWith(first)).toBe(true);
      expect(shell.stdout).toMatch(/status 0\n$/);
      expect(shell.stderr).toBe('');
    }
  });

  it('an interrupt while moves stream to a file removes the temporary file: exit 3', async () => {
    const dir = tempDir('bitpuzzle-out-');
    const child = spawn(process.execPath, [bin, 'sliding', '--random', '1000x1000', '--moves-file', join(dir, 'moves.txt')]);
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Wait until the moves are streaming into the temporary file.
    for (let i = 0; i < 600 && !readdirSync(dir).some((f) => f.endsWith('.tmp')); i++) await new Promise((r) => setTimeout(r, 50));
    expect(readdirSync(dir).some((f) => f.endsWith('.tmp'))).toBe(true);
    child.kill('SIGINT');
    expect(await exited).toBe(3);
    expect(stderr).toContain('stopped by SIGINT; no output file was written');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('bin/bitpuzzle returns the exit status main gives', () => {
    expect(spawnCli(['queens', '3']).status).toBe(1);
    const json = spawnCli(['sliding', '--random', '3x3', '--seed', 'x', '--json']);
    expect(json.status).toBe(2);
    expect(JSON.parse(json.stdout).error.code).toBe('BAD_INPUT');
    expect(existsSync(bin)).toBe(true);
  });
});

describe('samegame --batch', () => {
  it('plays every board of the file: one line a board, and the total of the single-board runs', async () => {
    const dir = tempDir('bitpuzzle-batch-');
    const boards = ['32332\n31313\n32323\n22313\n31332', '1122\n2213\n1122', '3311\n1133\n2222'];
    writeFileSync(join(dir, 'games.txt'), boards.join('\n\n') + '\n');
    const args = ['--score', '--nodes', '3000', '--seed', '4', '--threads', '1', '--json'];
    const batch = await runCli(['samegame', '--batch', join(dir, 'games.txt'), ...args]);
    expect(batch.status).toBe(0);
    const answer = JSON.parse(batch.stdout);
    const single = [];
    for (const [i, board] of boards.entries()) {
      writeFileSync(join(dir, `${i}.txt`), board + '\n');
      const run = await runCli(['samegame', join(dir, `${i}.txt`), ...args]);
      expect(run.status).toBe(0);
      single.push(JSON.parse(run.stdout));
    }
    expect(answer.boards.map((b: { clicks: unknown }) => b.clicks)).toEqual(single.map((r) => r.clicks));
    expect(answer.total.score).toBe(single.reduce((sum, r) => sum + r.score, 0));
    expect(answer.total.cleared).toBe(single.filter((r) => r.cleared).length);
    const text = await runCli(['samegame', '--batch', join(dir, 'games.txt'), '--min-left']);
    expect(text.stdout).toMatch(/^board 1: score 1039, 0 block\(s\) left \(proved\)\nboard 2: score \d+, 1 block\(s\) left \(proved\)\nboard 3: .*\ntotal: score \d+ over 3 boards, 2 cleared\n$/);
  });

  it('names the board and its line of a bad board, and rejects a board file given beside --batch', async () => {
    const dir = tempDir('bitpuzzle-batch-');
    writeFileSync(join(dir, 'games.txt'), '1122\n2211\n\n12?\n');
    const bad = await runCli(['samegame', '--batch', join(dir, 'games.txt')]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/board 2: line 1, column 3/);
    const both = await runCli(['samegame', join(dir, 'games.txt'), '--batch', join(dir, 'games.txt')]);
    expect(both.status).toBe(2);
  });
});

describe('--queue outside the modes that run parts', () => {
  it('is rejected when listing, with one sliding board and with one SameGame board (no Redis needed)', async () => {
    for (const args of [
      ['queens', '8', '--queue', 'redis://127.0.0.1:1'],
      ['polyomino', '--region', '5x12', '--queue', 'redis://127.0.0.1:1'],
      ['sliding', '1', '2', '3', '0', '--queue', 'redis://127.0.0.1:1'],
    ]) {
      const run = await runCli(args);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toMatch(/--queue does not work/);
    }
  });
});

