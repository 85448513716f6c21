// N-Queens: choose n, click squares to pre-place queens, count the completions and show one.
import { board, hint, numberInput } from './board.js';

const shade = (cell, x, y) => cell.classList.add((x + y) % 2 ? 'dark' : 'light');

export const queensFamily = {
  id: 'queens',
  title: 'N-Queens',
  presets: [
    { name: '8 queens', input: { n: 8, fixed: [] } },
    { name: '12 queens', input: { n: 12, fixed: [] } },
    { name: '14 queens (a second or two)', input: { n: 14, fixed: [] } },
    { name: '8 queens with two placed', input: { n: 8, fixed: [[2, 0], [5, 7]] } },
  ],

  editor(root, preset) {
    let n = preset.n;
    let fixed = new Set(preset.fixed.map(([x, y]) => `${x},${y}`));
    const area = document.createElement('div');
    const redraw = () => {
      area.replaceChildren(
        board(
          n,
          n,
          (cell, x, y) => {
            shade(cell, x, y);
            if (fixed.has(`${x},${y}`)) cell.classList.add('queen', 'fixed');
            cell.onclick = () => {
              const key = `${x},${y}`;
              if (!fixed.delete(key)) fixed.add(key);
              redraw();
            };
          },
          'editable',
        ),
      );
    };
    const size = numberInput('n', n, 1, 16, (value) => {
      n = value;
      fixed = new Set();
      redraw();
    });
    root.append(size, hint('Click squares to place queens that every solution must keep.'), area);
    redraw();
    return {
      read() {
        if (fixed.size === 0) return { n };
        const rows = Array.from({ length: n }, (_, y) =>
          Array.from({ length: n }, (_, x) => (fixed.has(`${x},${y}`) ? 'Q' : '.')).join(''),
        );
        return { board: rows.join('\n') };
      },
      label: () => `${n}×${n}${fixed.size ? `, ${fixed.size} placed` : ''}`,
    };
  },

  answer(result) {
    const distinct = result.distinct === null ? '' : `, ${result.distinct} distinct`;
    return `${result.total} solutions${distinct}`;
  },

  draw(root, result, input) {
    if (!result.columns) return;
    const n = result.n;
    const placed = new Set();
    if (input.board) {
      input.board.split('\n').forEach((row, y) => [...row].forEach((c, x) => c === 'Q' && placed.add(`${x},${y}`)));
    }
    root.append(
      board(n, n, (cell, x, y) => {
        shade(cell, x, y);
        if (result.columns[y] === x) cell.classList.add('queen');
        if (placed.has(`${x},${y}`)) cell.classList.add('fixed');
      }),
    );
  },
};
