export { clear, minLeft, score, DEFAULT_SCORE_SECONDS, DEFAULT_NRPA_BEAM, NRPA_LEVELS, ROUND_SECONDS, UPDATE_SECONDS, HYBRID_FROM_SECONDS, HYBRID_FROM_NODES, HYBRID_BEAM_SHARE, NRPA_NODE_COST } from './solve.js';
export type { SameGameOptions, SameGameResult, SameGameStats, ScoreMethod, ScoreOptions, ScoreUpdate, SearchOptions } from './solve.js';
export { NRPA_ITERATIONS, NRPA_MAX_BEAM } from './tasks.js';
export {
  parseBoard,
  toBoard,
  picture,
  replay,
  applyClick,
  moves,
  blocks,
  groupScore,
  CLEAR_BONUS,
  MAX_SIDE,
  MAX_COLOURS,
} from './board.js';
export type { Click, Replay, SameGameBoard, SameGameInput } from './board.js';
export { randomBoard } from './random.js';
export type { RandomBoardOptions } from './random.js';
