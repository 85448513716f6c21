// The peg count on threads alone (together.ts), built with an imported memory that worker
// threads share (build/pegs-shared.wasm, `npm run build:wasm`). Each instance loads the board
// into a block of its own (arenaPlace, then pegsInputAlloc and pegsLoad), then runs the phases
// the host names; the levels' tables lie above the blocks, where the host places them.
export { pegsInputAlloc, pegsLoad } from './board';
export { togetherAttach, togetherRun } from './together';
export { arenaPlace, arenaTop } from '../shared/bits';

/** The end of the module's own static data: the host's blocks start above it. */
export function sharedDataEnd(): usize {
  return __heap_base;
}
