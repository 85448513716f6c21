// A grid of cells as DOM elements: the board every family draws on.

/** A width × height grid; `decorate(cell, x, y)` styles each cell. Returns the grid element. */
export function board(width, height, decorate, className = '') {
  const grid = document.createElement('div');
  grid.className = `board ${className}`;
  grid.style.gridTemplateColumns = `repeat(${width}, auto)`;
  // Cells shrink to fit a narrow screen (style.css): the column count sets their width there.
  grid.style.setProperty('--cols', String(width));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const cell = document.createElement('div');
      cell.className = 'cell';
      cell.dataset.x = String(x);
      cell.dataset.y = String(y);
      decorate(cell, x, y);
      grid.append(cell);
    }
  }
  return grid;
}

/** A labelled number input. */
export function numberInput(label, value, min, max, onChange) {
  const wrap = document.createElement('label');
  wrap.textContent = `${label} `;
  const input = document.createElement('input');
  input.type = 'number';
  input.min = String(min);
  input.max = String(max);
  input.value = String(value);
  input.onchange = () => onChange(Math.max(min, Math.min(max, Number(input.value) || min)));
  wrap.append(input);
  return wrap;
}

/** A paragraph of help text. */
export function hint(text) {
  const p = document.createElement('p');
  p.className = 'hint';
  p.textContent = text;
  return p;
}
