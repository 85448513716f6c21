// Polyomino tiling: paint a region (click cells, or use the keyboard, to cut holes), choose a piece set, count the
// tilings and draw one in colour. With more than one layer the region is a box in space
// (polycubes: Soma, Bedlam…), and the solution is drawn as its layers side by side.
import { board, hint, numberInput } from './board.js';

// The 2×2 hole in the middle of an 8×8 board, as the editor's "x,y" keys.
const CENTRE_HOLE = ['3,3', '4,3', '3,4', '4,4'];

export const polyominoFamily = {
  id: 'polyomino',
  title: 'Polyomino tiling',
  presets: [
    { name: 'pentominoes, 6×10', input: { width: 10, height: 6, holes: [], pieces: 'pentominoes' } },
    { name: 'pentominoes, 8×8 minus the centre', input: { width: 8, height: 8, holes: CENTRE_HOLE, pieces: 'pentominoes' } },
    { name: 'pentominoes, 3×20', input: { width: 20, height: 3, holes: [], pieces: 'pentominoes' } },
    { name: 'tetrominoes, 4×5', input: { width: 5, height: 4, holes: [], pieces: 'tetrominoes' } },
    { name: 'Soma cube, 3×3×3', input: { width: 3, height: 3, depth: 3, holes: [], pieces: 'soma' } },
    { name: 'flat pentacubes, 2×3×10', input: { width: 10, height: 3, depth: 2, holes: [], pieces: 'flat-pentacubes' } },
    { name: 'flat pentacubes, 2×5×6', input: { width: 6, height: 5, depth: 2, holes: [], pieces: 'flat-pentacubes' } },
  ],

  editor(root, preset) {
    let { width, height } = preset;
    let depth = preset.depth ?? 1;
    let holes = new Set(preset.holes);
    const area = document.createElement('div');
    const pieces = document.createElement('select');
    const sets = ['pentominoes', 'tetrominoes', 'hexominoes', 'one-sided-pentominoes', 'soma', 'tetracubes', 'flat-pentacubes', 'pentacubes', 'bedlam'];
    for (const name of sets) pieces.append(new Option(name, name));
    pieces.value = preset.pieces;
    const redraw = () => {
      if (depth > 1) {
        area.replaceChildren(hint(`A box of ${depth} layers of ${width}×${height}: the pieces turn in space.`));
        return;
      }
      const grid = board(
        width,
        height,
        (cell, x, y) => {
          // Each cell a toggle: click it, or reach it with Tab and the arrow keys and press Space or Enter.
          cell.setAttribute('role', 'gridcell');
          cell.tabIndex = x === 0 && y === 0 ? 0 : -1;
          show(cell, x, y);
          cell.onclick = () => toggle(cell, x, y);
          cell.onkeydown = (event) => {
            const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
            if (event.key === ' ' || event.key === 'Enter') toggle(cell, x, y);
            else if (moves[event.key]) {
              const [dx, dy] = moves[event.key];
              const next = grid.querySelector(`[data-x="${x + dx}"][data-y="${y + dy}"]`);
              if (next) {
                cell.tabIndex = -1;
                next.tabIndex = 0;
                next.focus();
              }
            } else return;
            event.preventDefault();
          };
        },
        'editable region',
      );
      grid.setAttribute('role', 'grid');
      grid.setAttribute('aria-label', `the region, ${width}×${height}: each cell a part of it or a hole`);
      area.replaceChildren(grid);
    };
    /** A cell drawn as a part of the region or as a hole. */
    const show = (cell, x, y) => {
      const hole = holes.has(`${x},${y}`);
      cell.classList.toggle('hole', hole);
      cell.classList.toggle('light', !hole);
      cell.setAttribute('aria-pressed', String(hole));
      cell.setAttribute('aria-label', `column ${x + 1}, row ${y + 1}: ${hole ? 'a hole' : 'in the region'}`);
    };
    const toggle = (cell, x, y) => {
      const key = `${x},${y}`;
      if (!holes.delete(key)) holes.add(key);
      show(cell, x, y);
    };
    const resize = (set) => (value) => {
      set(value);
      holes = new Set();
      redraw();
    };
    const label = document.createElement('label');
    label.append('pieces ', pieces);
    root.append(
      numberInput('width', width, 1, 30, resize((v) => (width = v))),
      numberInput('height', height, 1, 30, resize((v) => (height = v))),
      numberInput('layers', depth, 1, 12, resize((v) => (depth = v))),
      label,
      hint('Click a cell (or move with the arrow keys and press Space) to cut a hole in the region, or to fill it again. More layers make a box in space, drawn layer by layer, the top first.'),
      area,
    );
    redraw();
    return {
      read() {
        if (depth > 1) return { region: `${width}x${height}x${depth}`, pieces: pieces.value };
        const rows = Array.from({ length: height }, (_, y) =>
          Array.from({ length: width }, (_, x) => (holes.has(`${x},${y}`) ? '#' : '.')).join(''),
        );
        return { region: rows.join('\n'), pieces: pieces.value };
      },
      label: () => `${pieces.value}, ${width}×${height}${depth > 1 ? `×${depth}` : holes.size ? ` − ${holes.size}` : ''}`,
    };
  },

  answer(result) {
    if (result.reason) return `no tiling: ${result.reason}`;
    return `${result.total} tilings, ${result.distinct} distinct`;
  },

  draw(root, result) {
    if (!result.svg) return;
    const holder = document.createElement('div');
    holder.className = 'tiling';
    holder.innerHTML = result.svg; // SVG text made by the library from numbers and piece letters
    for (const [i, placed] of result.solution.pieces.entries()) holder.dataset[`piece${i}`] = placed.piece;
    root.append(holder);
  },
};
