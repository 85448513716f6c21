export { solve, solutions, count, reachable, minMoves } from './solve.js';
export { countOptimal, optimalSolutions } from './optimal.js';
export type { PegsOptimalCount, PegsOptimalSolution } from './optimal.js';
export type { PegsOptions, LevelOptions, CountOptions, MinMovesOptions, MinMovesMethod, PegsStats, PegsSolution, PegsMinMoves, PegsMinMovesLength, PegsCount } from './solve.js';
export { builtinBoard, parseBoard, positionPicture, readPosition, holeIndex, BOARD_NAMES, MAX_HOLES } from './board.js';
export type { Board, Geometry, Hole, ParseOptions } from './board.js';
export { toProblem, toBoard } from './problem.js';
export type { PegsInput, PegsProblem } from './problem.js';
export { jumpNames, groupMoves, replay, movePictures } from './format.js';
