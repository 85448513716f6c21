// Checks a solution against its problem without trusting the search.
import { prepare, type PolyominoProblem } from './problem.js';
import { orientations, shapeKey } from './shapes.js';
import type { TilingSolution } from './solve.js';
import { checkTilingSolution } from './format.js';

/** Null when the solution tiles the region with the problem's pieces, else what is wrong. */
export function checkSolution(problem: PolyominoProblem, solution: TilingSolution): string | null {
  const { region, spec } = prepare(problem);
  checkTilingSolution(solution, false);
  const inRegion = new Set(region.cells.map((c) => c.join(',')));
  const covered = new Set<string>();
  const used = new Map<string, number>();
  for (const placed of solution.pieces) {
    const piece = spec.pieces.find((p) => p.name === placed.piece);
    if (!piece) return `unknown piece "${placed.piece}"`;
    const shapes = new Set(orientations(piece.cells, piece.oneSided).map(shapeKey));
    if (!shapes.has(shapeKey(placed.cells))) return `piece "${placed.piece}" is placed in a shape it cannot take`;
    if (placed.cells.some((c) => c.length !== region.cells[0].length)) return `piece "${placed.piece}" has cells of another dimension than the region`;
    for (const cell of placed.cells) {
      const key = cell.join(',');
      if (!inRegion.has(key)) return `piece "${placed.piece}" covers ${key}, outside the region`;
      if (covered.has(key)) return `cell ${key} is covered twice`;
      covered.add(key);
    }
    used.set(piece.name, (used.get(piece.name) ?? 0) + 1);
  }
  if (covered.size !== inRegion.size) return `${inRegion.size - covered.size} cells are not covered`;
  for (const piece of spec.pieces) {
    const n = used.get(piece.name) ?? 0;
    if (piece.atMost ? n > piece.count : n !== piece.count) {
      return `piece "${piece.name}" is used ${n} times, ${piece.atMost ? 'at most' : 'exactly'} ${piece.count} allowed`;
    }
  }
  return null;
}
