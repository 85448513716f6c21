// Peg solitaire tests' shared parts: independent oracles (plain sets of numbers, boards of up
// to 30 holes), random small problems, the French problem on disk, and expectations.
import { readdirSync } from 'node:fs';
import { expect } from 'vitest';
import { BitpuzzleError, pegs } from '../dist/index.js';

export type Jump = [number, number, number];
export const has = (p: number, h: number): boolean => ((p >> h) & 1) === 1;
export const legalJumps = (jumps: Jump[], p: number): Jump[] => jumps.filter(([f, o, t]) => has(p, f) && has(p, o) && !has(p, t));
export const apply = (p: number, [f, o, t]: Jump): number => p ^ (1 << f) ^ (1 << o) ^ (1 << t);

/** The number of jump sequences from p to any of the finishes, by memoised recursion. */
export function bruteCount(jumps: Jump[], start: number, finishes: number[]): bigint {
  const goal = new Set(finishes);
  const pegsOf = (p: number): number => p.toString(2).replace(/0/g, '').length;
  const target = pegsOf(finishes[0]);
  const memo = new Map<number, bigint>();
  const paths = (p: number): bigint => {
    if (pegsOf(p) === target) return goal.has(p) ? 1n : 0n;
    let known = memo.get(p);
    if (known === undefined) {
      known = 0n;
      for (const j of legalJumps(jumps, p)) known += paths(apply(p, j));
      memo.set(p, known);
    }
    return known;
  };
  return paths(start);
}

/** Positions one move (a chain of jumps by one peg) after p. */
export function movesFrom(jumps: Jump[], p: number): Set<number> {
  const out = new Set<number>();
  const chain = (q: number, peg: number): void => {
    for (const j of legalJumps(jumps, q)) {
      if (j[0] !== peg) continue;
      const next = apply(q, j);
      out.add(next);
      chain(next, j[2]);
    }
  };
  for (const j of legalJumps(jumps, p)) {
    const next = apply(p, j);
    out.add(next);
    chain(next, j[2]);
  }
  return out;
}

/** The fewest moves from start to a finish by plain breadth-first search, or -1. */
export function bruteMinMoves(jumps: Jump[], start: number, finishes: number[]): number {
  const goal = new Set(finishes);
  const seen = new Set([start]);
  let frontier = [start];
  for (let d = 0; frontier.length; d++) {
    if (frontier.some((p) => goal.has(p))) return d;
    const next: number[] = [];
    for (const p of frontier) for (const q of movesFrom(jumps, p)) if (!seen.has(q)) (seen.add(q), next.push(q));
    frontier = next;
  }
  return -1;
}

export function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** A random board picture of at most `size`×`size` cells, with a few empty holes. */
export function randomBoard(rand: () => number, size: number, triangular: boolean): string {
  const lines: string[] = [];
  for (let r = 0; r < size; r++) {
    let line = '';
    for (let c = 0; c < size; c++) {
      const hole = rand() < 0.8;
      const ch = !hole ? ' ' : rand() < 0.2 ? '.' : 'o';
      line += triangular ? (c === 0 ? ' '.repeat(size - r) : ' ') + ch : ch;
    }
    lines.push(line);
  }
  return lines.join('\n');
}

/** Solvable-looking problems (finish anywhere) on random small boards; impossible ones are skipped. */
export function randomProblems(seed: number, boards: number, triangularEvery: number): pegs.PegsProblem[] {
  const rand = random(seed);
  const problems: pegs.PegsProblem[] = [];
  for (let i = 0; i < boards; i++) {
    const text = randomBoard(rand, 3 + Math.floor(rand() * 3), i % triangularEvery === triangularEvery - 1);
    try {
      problems.push(pegs.toProblem({ board: text, finish: 'any' }));
    } catch (error) {
      expect((error as BitpuzzleError).code).toMatch(/UNSOLVABLE|BAD_INPUT/);
    }
  }
  return problems;
}

export function expectSolves(problem: pegs.PegsProblem, jumps: string[]): void {
  const after = pegs.replay(problem.board, problem.start, jumps);
  expect(problem.finishes).toContain(after[after.length - 1]);
}

export async function expectCode(promise: Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BitpuzzleError);
  expect((error as BitpuzzleError).code).toBe(code);
  if (message) expect((error as BitpuzzleError).message).toMatch(message);
}

// A French problem of 13 jumps (648,648 sequences), for the levels on disk.
export const FRENCH_START = ['  o..', ' ooo.o', 'oo.ooo.', 'oooo.oo', '..oo.oo', ' ...oo', '  ooo'].join('\n');
export const FRENCH_FINISH = ['  ...', ' ooo..', 'oo..o..', '....o..', '..o...o', ' ...o.', '  .oo'].join('\n');
/** A folder of levels on disk holds nothing once a count is over. */
export const empty = (dir: string): void => expect(readdirSync(dir)).toEqual([]);
