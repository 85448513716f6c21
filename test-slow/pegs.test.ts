// Slow checks of the English central game (tens of seconds each on a shared machine): run by
// `npm run test:slow`.
import { describe, expect, it } from 'vitest';
import { pegs } from '../dist/index.js';

describe('English central game (published figures)', () => {
  it('counts 40,861,647,040,079,968 jump sequences', async () => {
    const result = await pegs.count({ board: 'english' });
    expect(result.total).toBe(40861647040079968n);
  });

  it('proves the minimum of 18 moves, with a shortest solution that replays', async () => {
    const problem = pegs.toProblem({ board: 'english' });
    const best = (await pegs.minMoves(problem))!;
    expect(best.length).toBe(18);
    expect(best.moves.length).toBe(18);
    expect(best.jumps.length).toBe(31);
    const after = pegs.replay(problem.board, problem.start, best.jumps);
    expect(after[after.length - 1]).toBe(problem.finishes[0]);
  });

  it('reaches 23,475,688 positions up to symmetry', async () => {
    const result = await pegs.reachable({ board: 'english' });
    expect(result.levels.reduce((a, b) => a + b, 0)).toBe(23475688);
  });
});

describe('English central game: every 18-move solution (no published count to compare with)', () => {
  it('counts them, and the listing finds exactly as many, each replaying in 18 moves', async () => {
    const problem = pegs.toProblem({ board: 'english' });
    const counted = await pegs.countOptimal(problem);
    expect(counted.length).toBe(18);
    expect(counted.total).toBeGreaterThan(0n);
    expect(counted.distinct! * 8n).toBe(counted.total);
    // The listing walks actual chains from the start, checked by replay, so it confirms the
    // count independently of the engine's sums.
    const seen = new Set<string>();
    for await (const solution of pegs.optimalSolutions(problem)) {
      expect(solution.moves).toHaveLength(18);
      const after = pegs.replay(problem.board, problem.start, solution.jumps);
      expect(after[after.length - 1]).toBe(problem.finishes[0]);
      seen.add(solution.jumps.join(' '));
    }
    expect(BigInt(seen.size)).toBe(counted.total);
  }, 600_000);
});
