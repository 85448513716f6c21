// Shards: `k/n` picks the k-th of n deterministic parts of a split problem.
import { badInput, describeValue } from '../errors.js';

/** One of `count` deterministic parts of a split problem. */
export interface Shard {
  /** Which part, from 1 to count. */
  index: number;
  /** The number of parts the work is split into (1 to 1,000,000). */
  count: number;
}

/** A shard from `{ index, count }` or "k/n" text, checked; undefined is the whole work (1/1). */
export function parseShard(shard: Shard | string | undefined): Shard {
  if (shard === undefined) return { index: 1, count: 1 };
  let index: number;
  let count: number;
  if (typeof shard === 'string') {
    const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(shard);
    if (!match) throw badInput(`shard must look like k/n (for example 2/8), got ${JSON.stringify(shard)}`);
    index = Number(match[1]);
    count = Number(match[2]);
  } else if (typeof shard === 'object' && shard !== null) {
    ({ index, count } = shard);
  } else {
    throw badInput(`shard must be "k/n" or { index, count }, got ${describeValue(shard)}`);
  }
  if (!Number.isInteger(count) || count < 1 || count > 1_000_000) {
    throw badInput(`the number of shards must be an integer from 1 to 1000000, got ${describeValue(count)}`);
  }
  if (!Number.isInteger(index) || index < 1 || index > count) {
    throw badInput(`shard index must be an integer from 1 to ${count}, got ${describeValue(index)}`);
  }
  return { index, count };
}

/** The parts of a shard: every count-th part, from the index-th. Fewer parts than shards is BAD_INPUT. */
export function partsOfShard<T>(parts: T[], shard: Shard): T[] {
  if (shard.count === 1) return parts;
  if (parts.length < shard.count) {
    const partsText = parts.length === 1 ? 'only 1 part' : `only ${parts.length} parts`;
    const advice = parts.length <= 1 ? 'count it whole, without a shard' : `give at most ${parts.length} shards`;
    throw badInput(`this problem splits into ${partsText}, fewer than the ${shard.count} shards asked for: ${advice}`);
  }
  return parts.filter((_, i) => i % shard.count === shard.index - 1);
}
