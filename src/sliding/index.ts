export { solve, solveBatch, moves, AUTO_OPTIMAL_CELLS } from './solve.js';
export type { BatchOptions, Heuristic, Method, SlidingOptions, SlidingSolution, SlidingStats } from './solve.js';
export { parseBoard, parseBatch, parseSize, randomBoard, toBoard, toGoal, solvability, MAX_CELLS } from './parse.js';
export type { Board, BoardInput, GoalInput } from './parse.js';
export { applyMoves, isSolution, picture, playback, tilesMoved } from './format.js';
export { patternSet, MIN_PATTERN_CELLS, MAX_PATTERN_CELLS } from './patterns.js';
export type { PatternSet, PdbChoice } from './patterns.js';
export type { BoundProgress } from './tasks.js';
export { MAX_OPTIMAL_CELLS } from './engine.js';
