// Shared by the engines that keep tables of words in linear memory: the i-th u32 or u64 word
// from a base address. Inlined where used, so they cost no call.

/** The u32 word at index `i` from `base`. */
@inline export function get(base: usize, i: i32): u32 { return load<u32>(base + (<usize>i << 2)); }
/** Stores `v` as the u32 word at index `i` from `base`. */
@inline export function set(base: usize, i: i32, v: u32): void { store<u32>(base + (<usize>i << 2), v); }
/** The u64 word at index `i` from `base`. */
@inline export function get64(base: usize, i: i32): u64 { return load<u64>(base + (<usize>i << 3)); }
/** Stores `v` as the u64 word at index `i` from `base`. */
@inline export function set64(base: usize, i: i32, v: u64): void { store<u64>(base + (<usize>i << 3), v); }
