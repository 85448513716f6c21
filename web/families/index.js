// The families the demo shows, in tab order.
import { queensFamily } from './queens.js';
import { polyominoFamily } from './polyomino.js';
import { sudokuFamily } from './sudoku.js';
import { samegameFamily } from './samegame.js';
import { pegsFamily } from './pegs.js';
import { slidingFamily } from './sliding.js';

export const families = [queensFamily, polyominoFamily, sudokuFamily, pegsFamily, slidingFamily, samegameFamily];
