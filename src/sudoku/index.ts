// Sudoku: 9×9 grids on a dedicated engine (solve, count, solutions, batches, a generator);
// other box sizes (4×4 to 64×64) as exact cover.
export { count, solutions, solve } from './solve.js';
export type { CountOptions, SolutionsOptions, SudokuCount, SudokuFirst, SudokuOptions, SudokuSolution, SudokuStats } from './solve.js';
export { batch } from './batch.js';
export type { BatchAnswer, BatchOptions, BatchResult } from './batch.js';
export { generate, MAX_GENERATE } from './generate.js';
export type { GenerateOptions, GeneratedPuzzle, GenerateResult } from './generate.js';
export { MAX_BOX, picture } from './grid.js';
export type { SudokuGrid } from './grid.js';
