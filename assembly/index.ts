// The module's exports: every engine's entry points. Numbers only cross the boundary;
// bulk data lives in regions whose pointers the engines export.
export { setMemoryLimitPages, memoryPages, arenaGeneration } from './bits';
export {
  queensInputPtr,
  queensOutputPtr,
  queensInit,
  queensRun,
  queensTotal,
  queensDistinct,
  queensNodes,
  queensConstruct,
  queensConstructStart,
  queensConstructRun,
} from './queens';
export {
  queensConstellationsInputAlloc,
  queensConstellationsInit,
  queensConstellationsRun,
  queensConstellationsTotal,
  queensConstellationsDistinct,
  queensConstellationsNodes,
} from './queensConstellations';
export {
  polyInputAlloc,
  polyLoad,
  polyPartPtr,
  polyOutputPtr,
  polyOutputLength,
  polyStart,
  polyRun,
  polyTotal,
  polyDistinct,
  polyNodes,
} from './polyomino';
export {
  dlxInputAlloc,
  dlxLoad,
  dlxLoadStart,
  dlxLoadRun,
  dlxForce,
  dlxStart,
  dlxRun,
  dlxSolutions,
  dlxNodes,
  dlxOutputPtr,
  dlxOutputLength,
} from './dlx';
export {
  samegameInputPtr,
  samegameOutputPtr,
  samegameStart,
  samegameRun,
  samegameNodes,
  samegameBest,
  samegameBestLength,
} from './samegame';
export {
  samegameBeamStart,
  samegameBeamRun,
  samegameBeamNodes,
  samegameBeamScore,
  samegameBeamLine,
  samegameBeamComplete,
} from './samegameScore';
export {
  samegameNrpaStart,
  samegameNrpaRun,
  samegameNrpaNodes,
  samegameNrpaPlayouts,
  samegameNrpaScore,
  samegameNrpaRestarts,
  samegameNrpaIteration,
  samegameNrpaLine,
} from './samegameNrpa';
export {
  pegsInputAlloc,
  pegsLoad,
  pegsStart,
  pegsRun,
  pegsOutputPtr,
  pegsOrderPtr,
  pegsRestart,
  pegsOutputLength,
  pegsNodes,
  pegsTotal,
  pegsLevel,
  pegsMoves,
  pegsMemory,
  pegsShardInput,
  pegsShardStart,
  pegsShardOffsets,
  pegsShardPairs,
  pegsShardBuckets,
  pegsShardDistinct,
  pegsMovesBackwardOnly,
} from './pegs';
export {
  pegsOptimalStart,
  pegsOptimalRun,
  pegsOptimalTotal,
  pegsOptimalNodes,
  pegsOptimalStep,
  pegsOptimalSteps,
  pegsOptimalSplit,
  pegsOptimalOnPath,
} from './pegsOptimal';
export {
  pegsMeetStart,
  pegsMeetDualPtr,
  pegsMeetNarrow,
  pegsMeetRun,
  pegsMeetTotal,
  pegsMeetTotalHigh,
  pegsMeetNodes,
  pegsMeetStep,
  pegsMeetLevels,
  pegsMeetSteps,
} from './pegsMeet';
export {
  pegsFewestStart,
  pegsFewestRun,
  pegsFewestMoves,
  pegsFewestBound,
  pegsFewestNodes,
  pegsFewestLength,
  pegsFewestTableBytes,
} from './pegsFewest';
export {
  slidingInputPtr,
  slidingOutputPtr,
  slidingStart,
  slidingRun,
  slidingNodes,
  slidingBound,
  slidingLength,
  slidingPart,
  slidingPrefixNodes,
  slidingFrontier,
  slidingNextBound,
} from './sliding';
export {
  slidingReset,
  pdbPatternPtr,
  pdbDefine,
  pdbSize,
  pdbBytes,
  pdbTablePtr,
  pdbBuildStart,
  pdbBuildRun,
  pdbFilled,
} from './pdb';
export { pdbPackedBuildStart, pdbPackedBuildRun, pdbPackedFilled, pdbPackedClamped } from './pdbPacked';
export { fastAlloc, fastStart, fastRun, fastOutputPtr, fastOutputLength, fastMoves } from './slidingFast';
