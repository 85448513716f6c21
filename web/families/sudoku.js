// Sudoku (9×9 and 16×16 on their own engine, other box sizes by exact cover): type a grid, solve it, count its solutions.
import { board, hint } from './board.js';

const PRESETS = {
  '17 clues': ['.......1.', '4........', '.2.......', '....5.4.7', '..8...3..', '..1.9....', '3..4..2..', '.5.1.....', '...8.6...'],
  'a 4×4': ['1...', '..3.', '.4..', '...2'],
  'two solutions': ['2.63.....', '....9..15', '8...4.7..', '...8..5.1', '.7.....4.', '4.2..5...', '..3.2...8', '12..5....', '.....73.2'],
};

export const sudokuFamily = {
  id: 'sudoku',
  title: 'Sudoku',
  presets: Object.entries(PRESETS).map(([name, rows]) => ({ name, input: rows.join('\n') })),

  editor(root, preset) {
    const text = document.createElement('textarea');
    text.rows = 10;
    text.spellcheck = false;
    text.value = preset;
    root.append(hint('One line per row: digits for givens, "." for blanks. Any box size (4×4, 9×9, 16×16…).'), text);
    return {
      read: () => ({ grid: text.value }),
      label: () => {
        const rows = text.value.trim().split('\n').length;
        return `${rows}×${rows}`;
      },
    };
  },

  answer: (result) => `${result.total} solution${result.total === 1n ? '' : 's'}`,

  draw(root, result, input) {
    if (!result.grid) return;
    const givens = input.grid.trim().split('\n');
    const n = result.grid.length;
    const box = Math.round(Math.sqrt(n));
    const grid = board(n, n, (cell, x, y) => {
      cell.textContent = String(result.grid[y][x]);
      if (givens[y]?.[x] && givens[y][x] !== '.') cell.classList.add('given');
      if (x % box === 0) cell.style.borderLeft = '2px solid #333';
      if (y % box === 0) cell.style.borderTop = '2px solid #333';
    }, 'sudoku');
    root.append(grid);
  },
};
