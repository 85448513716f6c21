// SameGame checks that take tens of seconds: run by `npm run test:slow`.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { samegame } from '../dist/index.js';

const standard = readFileSync(new URL('../test/data/samegame-standard.txt', import.meta.url), 'utf8').trim().split(/\n\s*\n/);

describe('SameGame score: the method by budget', () => {
  it(`from HYBRID_FROM_NODES nodes a thread the default is the hybrid: the beam's round, then NRPA's from its line`, async () => {
    const methods: string[] = [];
    const controller = new AbortController();
    let best: samegame.ScoreUpdate | undefined;
    const run = samegame.score(standard[0], {
      threads: 1,
      maxNodes: samegame.HYBRID_FROM_NODES,
      seed: 1,
      signal: controller.signal,
      onUpdate: (update) => {
        if (methods.at(-1) !== update.method) methods.push(update.method);
        best = update;
        // The beam's share is done once NRPA reports: the rest would take three times as long.
        if (update.method === 'nrpa') controller.abort();
      },
    });
    // Aborted at NRPA's first report during its round, or finished when NRPA's first report is
    // the round's end (a fast machine plays the round before a periodic report is due).
    const outcome = await run.then(
      () => 'finished',
      (error: { code?: string }) => error.code,
    );
    expect(['finished', 'ABORTED']).toContain(outcome);
    expect(methods).toEqual(['beam', 'nrpa']);
    expect(samegame.replay(samegame.parseBoard(standard[0]), best!.clicks).score).toBe(best!.score);
  });

  it('from HYBRID_FROM_SECONDS a thread the default is the hybrid, and the beam below it', async () => {
    for (const [time, expected] of [[samegame.HYBRID_FROM_SECONDS, ['beam', 'nrpa']], [samegame.HYBRID_FROM_SECONDS / 2, ['beam']]] as const) {
      const methods: string[] = [];
      const result = await samegame.score(standard[0], {
        threads: 1,
        time,
        seed: 1,
        onUpdate: (update) => {
          if (methods.at(-1) !== update.method) methods.push(update.method);
        },
      });
      expect(methods).toEqual(expected);
      expect(samegame.replay(samegame.parseBoard(standard[0]), result.clicks).score).toBe(result.score);
    }
  });

  it('a time budget over ROUND_SECONDS plays NRPA in rounds without onUpdate too (the search does not depend on being watched)', async () => {
    const result = await samegame.score(standard[0], { method: 'nrpa', threads: 1, seed: 2, time: samegame.ROUND_SECONDS + 3 });
    // A round of ROUND_SECONDS, then one of the 3 s left: a run each.
    expect(result.stats.parts).toBe(2);
    expect(samegame.replay(samegame.parseBoard(standard[0]), result.clicks).score).toBe(result.score);
  });
});
