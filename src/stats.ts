// The one shape of `stats` in every result of every family (issue 14's contract).

/** Stats of a search, the same fields in every family's results. */
export interface SearchStats {
  /** Search nodes (the family says what a node is); the same for any thread count. */
  nodes: bigint;
  /** Wall-clock time of the call, in milliseconds. */
  milliseconds: number;
  /** Threads the work ran on. */
  threads: number;
  /** Independent parts the work was cut into (1 when it was not cut). */
  parts: number;
}

/** Stats of work done in one part on one thread, started at `started` (performance.now()). */
export function oneThreadStats(nodes: bigint, started: number): SearchStats {
  return { nodes, milliseconds: performance.now() - started, threads: 1, parts: 1 };
}

/**
 * The solutions of a search that returns its node count when it ends, returning the stats
 * (one thread, one part) in turn: `for await` sees only the solutions, and a caller that
 * drives the iterator with next() gets the stats as the final value.
 */
export async function* withStats<T>(search: AsyncGenerator<T, bigint, undefined>, started: number): AsyncGenerator<T, SearchStats, undefined> {
  try {
    for (;;) {
      const step = await search.next();
      if (step.done) return oneThreadStats(step.value, started);
      yield step.value;
    }
  } finally {
    await search.return(0n);
  }
}

/** The first solution of a search limited to one, with the stats the search returns. */
export async function firstWithStats<T>(solutions: AsyncGenerator<T, SearchStats, undefined>): Promise<(T & { stats: SearchStats }) | null> {
  try {
    const first = await solutions.next();
    if (first.done) return null;
    const end = await solutions.next();
    return { ...first.value, stats: end.done ? end.value : oneThreadStats(0n, performance.now()) };
  } finally {
    await solutions.return(oneThreadStats(0n, performance.now()));
  }
}
