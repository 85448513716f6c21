// Shared by every engine: the status codes of the engine protocol and a bump arena
// over linear memory whose growth is bounded by a limit the host sets.

// Statuses returned by every `<engine>Run(budget)`. Mirrored in src/wasm/protocol.ts.
export const DONE: i32 = 0;          // search exhausted
export const SOLUTION: i32 = 1;      // a solution (or a split prefix) is in the output region
export const MORE: i32 = 2;          // budget used up; call run again to continue
export const OUT_OF_MEMORY: i32 = -1; // the arena could not grow within the limit
export const BAD_INPUT: i32 = -2;    // init arguments the host should have rejected

const PAGE_BITS: u32 = 16;
const ALIGN: usize = 16;

let limitPages: u32 = 16384; // 1 GiB until the host says otherwise
let heapStart: usize = (__heap_base + ALIGN - 1) & ~(ALIGN - 1);
let heapTop: usize = heapStart;
let heapEnd: u64 = 0; // 0: the arena ends at the limit only (arenaPlace sets it)
let generation: u32 = 0; // counts resets: tables built before a reset are gone

/** Sets the most memory (in 64 KiB pages) the arena may grow the instance to. */
export function setMemoryLimitPages(pages: u32): void {
  limitPages = min<u32>(pages, 65536);
}

/** Pages the instance currently has. */
export function memoryPages(): u32 {
  return <u32>memory.size();
}

/**
 * Moves the arena to the block [start, end) of the memory, and forgets every allocation: an
 * instance that shares its memory with others (a module built with an imported shared memory)
 * keeps its own tables in a block the host gave it.
 */
export function arenaPlace(start: usize, end: usize): void {
  heapStart = (start + ALIGN - 1) & ~(ALIGN - 1);
  heapEnd = <u64>end;
  arenaReset();
}

/** Forgets every arena allocation; an engine calls it in its init. */
export function arenaReset(): void {
  heapTop = heapStart;
  generation++;
}

/** Changes whenever the arena is reset, so a host can tell whether tables it loaded survive. */
export function arenaGeneration(): u32 {
  return generation;
}

/** Bytes from the arena, 16-byte aligned, or 0 when the limit or the host refuses. */
export function arenaAlloc(bytes: u64): usize {
  const start = <u64>((heapTop + ALIGN - 1) & ~(ALIGN - 1));
  const end = start + bytes;
  const needPages = (end + 0xffff) >> PAGE_BITS;
  if (needPages > <u64>limitPages || (heapEnd != 0 && end > heapEnd)) return 0;
  const havePages = <u64>memory.size();
  if (needPages > havePages && memory.grow(<i32>(needPages - havePages)) < 0) return 0;
  heapTop = <usize>end;
  return <usize>start;
}

// Peg solitaire: tables that grow level by level are kept at the top of the arena, and a
// level's table is moved down over the one it replaces; these two let an engine give
// back the arena's tail. Nothing else changes for engines that never call them.

/** The end of the last allocation. */
export function arenaTop(): usize {
  return heapTop;
}

/** Bytes the arena may still grow by (to the host's limit). */
export function arenaRoom(): u64 {
  const limit = <u64>limitPages << PAGE_BITS;
  return limit > <u64>heapTop ? limit - <u64>heapTop : 0;
}

/** Gives back every allocation that ends after `top` (which must be an earlier arenaTop()). */
export function arenaRewind(top: usize): void {
  if (top >= heapStart && top <= heapTop) heapTop = top;
}
