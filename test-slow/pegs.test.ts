// Slow checks of the English central game (minutes on a shared machine): run by `npm run test:slow`.
import { describe, expect, it } from 'vitest';
import { pegs } from '../dist/index.js';

describe('English central game (published figures)', () => {
  it('counts 40,861,647,040,079,968 jump sequences', async () => {
    const result = await pegs.count({ board: 'english' });
    expect(result.total).toBe(40861647040079968n);
  }, 600_000);

  it('reaches 23,475,688 positions up to symmetry', async () => {
    const result = await pegs.reachable({ board: 'english' });
    expect(result.levels.reduce((a, b) => a + b, 0)).toBe(23475688);
  }, 600_000);
});
