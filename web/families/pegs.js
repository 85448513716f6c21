// Peg solitaire: choose a board, the hole left empty and the finish; find a solution, the
// fewest moves, or count the solutions; play the jumps back.
import { hint } from './board.js';
import { playback } from './playback.js';

const BOARDS = ['english', 'french', 'wiegleb', 'diamond', 'triangle4', 'triangle5', 'triangle6', 'triangle7', 'triangle8'];
const MODES = [['solve', 'a solution'], ['fewest', 'the fewest moves'], ['count', 'count the solutions']];
const SVG = 'http://www.w3.org/2000/svg';

/** One labelled control. */
function labelled(text, control) {
  const label = document.createElement('label');
  label.append(`${text} `, control);
  return label;
}

function textInput(value, placeholder) {
  const input = document.createElement('input');
  input.type = 'text';
  input.size = 6;
  input.value = value;
  input.placeholder = placeholder;
  return input;
}

/** The board with its pegs (bit i of `position` = hole i); the next jump's holes marked. */
function drawBoard(result, position, jump) {
  const triangular = result.geometry === 'triangular';
  const dx = triangular ? 16 : 32; // triangular pictures put holes two characters apart
  const dy = triangular ? 28 : 32;
  const width = Math.max(...result.holes.map((h) => h.column)) * dx + 40;
  const height = Math.max(...result.holes.map((h) => h.line)) * dy + 40;
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(height));
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`); // so that it scales down on a narrow screen
  svg.classList.add('pegs');
  const [from, to] = jump ? jump.split('-') : [];
  result.holes.forEach((hole, i) => {
    const circle = document.createElementNS(SVG, 'circle');
    circle.setAttribute('cx', String(20 + hole.column * dx));
    circle.setAttribute('cy', String(20 + hole.line * dy));
    circle.setAttribute('r', '11');
    const peg = (position >> BigInt(i)) & 1n;
    circle.setAttribute('class', peg ? 'peg' : 'hole');
    if (hole.name === from) circle.classList.add('from');
    if (hole.name === to) circle.classList.add('to');
    const title = document.createElementNS(SVG, 'title');
    title.textContent = hole.name;
    circle.append(title);
    svg.append(circle);
  });
  return svg;
}

export const pegsFamily = {
  id: 'pegs',
  title: 'Peg solitaire',
  presets: [
    { name: 'English board, centre game: a solution', input: { board: 'english', start: 'd4', finish: 'd4', mode: 'solve' } },
    { name: 'triangle of side 5: the fewest moves', input: { board: 'triangle5', start: '', finish: '', mode: 'fewest' } },
    { name: 'triangle of side 5: count the solutions', input: { board: 'triangle5', start: '', finish: '', mode: 'count' } },
    { name: 'French board from c1 to one peg', input: { board: 'french', start: 'c1', finish: 'any', mode: 'solve' } },
  ],

  editor(root, preset) {
    const board = document.createElement('select');
    for (const name of BOARDS) board.append(new Option(name, name));
    board.value = preset.board;
    const start = textInput(preset.start, 'default');
    const finish = textInput(preset.finish, 'default');
    const mode = document.createElement('select');
    for (const [value, label] of MODES) mode.append(new Option(label, value));
    mode.value = preset.mode;
    root.append(
      labelled('board', board),
      labelled('empty hole', start),
      labelled('finish at', finish),
      labelled('find', mode),
      hint('Holes are named by column letter and row number, a1 at the top left (the English centre is d4). The finish is a hole, or "any" for one peg anywhere.'),
    );
    return {
      read: () => ({ board: board.value, start: start.value.trim(), finish: finish.value.trim(), mode: mode.value }),
      label: () => `${board.value}${start.value ? ` from ${start.value}` : ''}, ${mode.value}`,
    };
  },

  answer(result) {
    if (result.mode === 'count') return `${result.total} solutions (jump sequences)`;
    if (!result.jumps) return 'no solution';
    const fewest = result.mode === 'fewest' ? ', the fewest possible' : '';
    return `${result.moves.length} moves${fewest} (${result.jumps.length} jumps)`;
  },

  draw(root, result) {
    if (!result.positions) return;
    // The move each jump belongs to: a move is a chain of jumps by one peg.
    const moveOf = [];
    result.moves.forEach((move, m) => move.split('-').slice(1).forEach(() => moveOf.push(m + 1)));
    playback(
      root,
      result.positions.length,
      (k) => drawBoard(result, result.positions[k], result.jumps[k]),
      (k) => {
        const pegs = result.positions[k].toString(2).replace(/0/g, '').length;
        if (k === result.jumps.length) return `after ${k} jumps: ${pegs} peg${pegs === 1 ? '' : 's'} left`;
        return `${pegs} pegs; next: jump ${k + 1} ${result.jumps[k]} (move ${moveOf[k]})`;
      },
    );
  },
};
