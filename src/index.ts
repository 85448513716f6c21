// bitpuzzle: exact, fast solvers for classic puzzles. One namespace per puzzle family.
export * as queens from './queens/index.js';
export * as polyomino from './polyomino/index.js';
export * as cover from './cover/index.js';
export * as sudoku from './sudoku/index.js';
export * as pegs from './pegs/index.js';
export * as sliding from './sliding/index.js';
export * as samegame from './samegame/index.js';
export { exactCover } from './cover/index.js';
export { BitpuzzleError, type ErrorCode } from './errors.js';
export { parseShard, type Shard } from './parallel/shard.js';
export type { Progress, QueueOption } from './parallel/pool.js';
export type { SearchStats } from './stats.js';
export type { EngineKind } from './wasm/options.js';
export { loadEngineModule, engineUrl, setEngineUrl } from './wasm/module.js';
