export { count, solutions, solve, decode } from './solve.js';
export type {
  PlacedPiece,
  TilingCount,
  TilingCountOptions,
  TilingOptions,
  TilingSolution,
  TilingSolutionsOptions,
  TilingStats,
  TilingFirst,
} from './solve.js';
export { prepare, resolvePieces, toExactCover } from './problem.js';
export type { ExactCoverMatrix, PiecesInput, Placement, PolyominoProblem, Prepared, ProblemSpec } from './problem.js';
export type { Part, Symmetry } from './symmetry.js';
export { parsePieces, pieceSet, PIECE_SETS } from './pieces.js';
export type { Piece, PieceSpec } from './pieces.js';
export { parseRegion, MAX_REGION_CELLS } from './region.js';
export type { Region, RegionInput } from './region.js';
export { orientations, ROTATIONS3 } from './shapes.js';
export type { Cell, Cell2, Cell3 } from './shapes.js';
export { picture, colourPicture, svg } from './format.js';
export { checkSolution } from './verify.js';
