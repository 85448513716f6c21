export { count, solutions, solve, construct, picture } from './solve.js';
export type {
  CountMethod,
  CountOptions,
  QueensCount,
  QueensOptions,
  SolveOptions,
  QueensSolution,
  QueensFirst,
  QueensStats,
  SolutionsOptions,
} from './solve.js';
export { parseBoard, toProblem } from './parse.js';
export type { Queen, QueensInput, QueensProblem } from './parse.js';
export { boardPicture } from './format.js';
export { isSolution } from './verify.js';
export { MAX_CONSTRUCT_N, MAX_SEARCH_N } from './engine.js';
