// The optimal search alone, built with an imported memory that worker threads share
// (build/sliding-shared.wasm, `npm run build:wasm`). The host loads the pattern databases once
// into that memory and every thread's instance reads them in place; each instance keeps its
// search state in a block of its own, placed by sharedPlaceState before any other call. Nothing
// here allocates: the memory's layout is the host's (src/sliding/shared.ts).
import { slidingPlaceState } from './sliding';
import { pdbPlaceState } from './pdb';

// The search's exports, as the engine's own build has them (and slidingPlaceState).
export * from './sliding';
export { pdbPatternPtr, pdbAdopt } from './pdb';

/** Places this instance's state in the block at `base` (16-byte aligned); returns the block's end. */
export function sharedPlaceState(base: usize): usize {
  return pdbPlaceState(slidingPlaceState(base));
}

/** The end of the module's own static data: the host's blocks start above it. */
export function sharedDataEnd(): usize {
  return __heap_base;
}
