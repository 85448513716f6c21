export { count, solutions, solve, exactCover, prepare } from './solve.js';
export type { CountOptions, CoverCount, CoverFirst, CoverOptions, CoverSolution, CoverStats, SolutionsOptions } from './solve.js';
export { parseCover } from './parse.js';
export { MAX_COLUMNS, MAX_ENTRIES, MAX_ROWS } from './problem.js';
export type { ColumnRef, CoverInput, CoverProblem, NamedRow, PreparedCover } from './problem.js';
export type { CoverMatrix } from './engine.js';
