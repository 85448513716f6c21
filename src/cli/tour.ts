// `bitpuzzle tour` (npm start): one headline instance of each puzzle family, with timings.
import { pegs, polyomino, queens, samegame, sliding, sudoku } from '../index.js';

const ms = (start: number): string => `${(performance.now() - start).toFixed(1)} ms`;

export async function tour(): Promise<void> {
  console.log('bitpuzzle tour: one headline instance per puzzle family\n');
  console.log('== N-Queens ==');

  let start = performance.now();
  const eight = await queens.count(8);
  const first = await queens.solve(8);
  console.log(`8×8: ${eight.total} solutions, ${eight.distinct} distinct up to symmetry (${ms(start)}); the first:`);
  console.log(queens.picture(first!));

  start = performance.now();
  const big = await queens.count(16);
  console.log(
    `\n16×16: ${big.total} solutions, ${big.distinct} distinct — ${big.stats.nodes} nodes on ${big.stats.threads} thread(s) in ${ms(start)}`,
  );

  const partial = ['..Q.....', '........', '........', '........', '........', '........', '........', '.....Q..'].join('\n');
  start = performance.now();
  const completions = await queens.count(partial);
  const completion = await queens.solve(partial);
  console.log(`\nThis board has ${completions.total} completions (${ms(start)}); the first:`);
  console.log(queens.picture(completion!));

  start = performance.now();
  const columns = await queens.construct(1_000_000);
  const valid = columns !== null && queens.isSolution(columns);
  console.log(`\n1,000,000×1,000,000: a solution built and ${valid ? 'verified' : 'FAILED verification'} in ${ms(start)}`);
  console.log(`rows 1-12 have their queens in columns ${Array.from(columns!.subarray(0, 12)).join(' ')} …`);

  console.log('\n== Polyomino tiling ==');
  start = performance.now();
  const sixByTen = await polyomino.count({ region: '6x10', pieces: 'pentominoes' }, { threads: 1 });
  console.log(
    `the 12 pentominoes fill 6×10 in ${sixByTen.total} ways, ${sixByTen.distinct} distinct up to symmetry (${sixByTen.stats.nodes} placements, ${ms(start)}); one:`,
  );
  const tiling = await polyomino.solve({ region: '6x10' });
  console.log(process.stdout.isTTY && !process.env.NO_COLOR ? polyomino.colourPicture(tiling!) : polyomino.picture(tiling!));
  const holed = ['........', '........', '........', '...##...', '...##...', '........', '........', '........'].join('\n');
  start = performance.now();
  const ring = await polyomino.count({ region: holed });
  console.log(`8×8 with its centre removed: ${ring.total} tilings, ${ring.distinct} distinct (${ms(start)})`);

  console.log('\n== Sudoku ==');
  const puzzle = [
    '.......1.',
    '4........',
    '.2.......',
    '....5.4.7',
    '..8...3..',
    '..1.9....',
    '3..4..2..',
    '.5.1.....',
    '...8.6...',
  ].join('\n');
  start = performance.now();
  const solved = await sudoku.solve(puzzle);
  const unique = await sudoku.count(puzzle);
  console.log(`a 17-clue puzzle, solved and proved unique (${unique.total} solution, ${ms(start)}):`);
  console.log(solved!.text);
  start = performance.now();
  const made = await sudoku.generate({ count: 100, seed: 1 });
  const checked = await sudoku.batch(made.puzzles.map((p) => p.puzzle));
  const clues = made.puzzles.map((p) => p.clues);
  console.log(
    `100 new minimal puzzles (${Math.min(...clues)} to ${Math.max(...clues)} clues), each checked unique by a batch: ${checked.unique} unique (${ms(start)})`,
  );

  console.log('\n== Clickomania / SameGame ==');
  const clicko = ['32332', '31313', '32323', '22313', '31332'].join('\n');
  start = performance.now();
  const cleared = await samegame.clear(clicko);
  const clicks = cleared.clicks.map((c) => `${c.column},${c.row}`).join(' ');
  console.log(`this board clears in ${cleared.clicks.length} clicks (column,row from the bottom-left): ${clicks}`);
  console.log(`${clicko}\n(${cleared.stats.nodes} nodes, ${ms(start)}; a plain backtracker visits 188)`);
  const stuck = ['1122', '2213', '1122'].join('\n');
  start = performance.now();
  const fewest = await samegame.minLeft(stuck);
  console.log(`\n${stuck}\ncannot be cleared (the lone 3); the fewest blocks left is ${fewest.left}, proved (${ms(start)})`);
  start = performance.now();
  const best = await samegame.score(clicko, { maxNodes: 20_000, threads: 1 });
  const proof = best.proved ? 'the best possible: the beam followed every line' : 'not proved';
  console.log(`\nSameGame on the first board: ${best.score} points in ${best.clicks.length} clicks, ${proof} (${ms(start)})`);
  console.log('\n== Peg solitaire ==');
  start = performance.now();
  const central = await pegs.solve({ board: 'english' });
  console.log(`English board, centre to centre: ${central!.jumps.length} jumps in ${central!.moves.length} moves (${ms(start)}):`);
  console.log(central!.moves.join(' '));
  start = performance.now();
  const triangle = await pegs.count({ board: 'triangle5', finish: 'any' });
  const shortest = await pegs.minMoves({ board: 'triangle5', finish: 'any' });
  console.log(`triangle of side 5, top empty: ${triangle.total} solutions, the fewest moves ${shortest!.length} (${ms(start)})`);
  try {
    await pegs.solve({ board: 'french' });
  } catch (error) {
    console.log(`French board, centre to centre: ${(error as Error).message}`);
  }
  await slidingTour();
}

// The sliding-tile section: an optimal 8-puzzle, an optimal 15-puzzle (linear conflicts, so
// that the tour builds no pattern database), and a constructive 100×100.
async function slidingTour(): Promise<void> {
  console.log('\n== Sliding-tile puzzles ==');
  const eight = sliding.parseBoard('8 6 7\n2 5 4\n3 _ 1');
  let start = performance.now();
  const hardest = await sliding.solve(eight);
  console.log(`one of the two hardest 8-puzzles, solved optimally in ${hardest.length} moves (${ms(start)}):`);
  console.log(sliding.picture(eight));
  console.log(`blank moves: ${hardest.moves}`);

  const fifteen = { rows: 4, cols: 4, tiles: [9, 14, 5, 7, 8, 15, 1, 2, 10, 4, 13, 6, 12, 0, 11, 3] };
  start = performance.now();
  const korf = await sliding.solve(fifteen, { goal: 'korf', heuristic: 'conflict' });
  console.log(
    `\nKorf's 15-puzzle instance 97: ${korf.length} moves, optimal (IDA*, ${korf.stats.nodes} nodes, ${ms(start)})`,
  );

  start = performance.now();
  const big = await sliding.solve(sliding.randomBoard(100, 100, 1), { method: 'fast', lengthOnly: true });
  const perCube = (big.length! / 100 ** 3).toFixed(2);
  console.log(`a random 100×100 board, solved constructively: ${big.length} moves (${perCube} n³; ${ms(start)})`);
}

