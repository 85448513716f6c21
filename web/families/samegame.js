// Clickomania / SameGame: type a board, then clear it (or prove it can't be), find the
// fewest blocks that must stay, or play for score; step through the clicks.
import { board, hint } from './board.js';
import { playback } from './playback.js';

const COLOURS = ['#e6194b', '#3cb44b', '#4363d8', '#ffe119', '#f58231', '#911eb4', '#42d4f4', '#f032e6', '#9a6324', '#469990'];

const PRESETS = [
  { name: 'clear a 5×5 (3 colours)', input: { mode: 'clear', seconds: 5, text: ['32332', '31313', '32323', '22313', '31332'] } },
  { name: 'fewest left, 6×6 (4 colours)', input: { mode: 'min-left', seconds: 5, text: ['123412', '341234', '214321', '432143', '123412', '341234'] } },
  {
    name: 'score: standard position 1 (5 s)',
    input: {
      mode: 'score',
      seconds: 5,
      text: [
      '311410404411023',
      '332044131200404',
      '023430300344111',
      '234023024443023',
      '121312012103401',
      '044303422202340',
      '243423111341031',
      '100403121041331',
      '133204313041003',
      '033423002123401',
      '041201343341404',
      '223104012413301',
      '330232143130213',
      '103214444042134',
      '101011221001432',
      ],
    },
  },
];

/** The board's cells: colour index (from 1) or 0, by x from the left and y from the top. */
function colourAt(state, x, y) {
  return state.columns[x]?.[state.height - 1 - y] ?? 0;
}

export const samegameFamily = {
  id: 'samegame',
  title: 'SameGame',
  presets: PRESETS,

  editor(root, preset) {
    const text = document.createElement('textarea');
    text.rows = 12;
    text.spellcheck = false;
    text.value = preset.text.join('\n');
    const mode = document.createElement('select');
    for (const [value, label] of [['clear', 'clear the board'], ['min-left', 'fewest blocks left'], ['score', 'best score']]) mode.append(new Option(label, value));
    mode.value = preset.mode;
    const seconds = document.createElement('input');
    seconds.type = 'number';
    seconds.min = '1';
    seconds.max = '60';
    seconds.value = String(preset.seconds);
    const modeLabel = document.createElement('label');
    modeLabel.append('mode ', mode);
    const timeLabel = document.createElement('label');
    timeLabel.append('seconds ', seconds);
    root.append(
      modeLabel,
      timeLabel,
      hint('One line per row, top row first: a digit or letter per colour, "." for empty. A click removes a group of two or more; blocks fall, empty columns close to the left.'),
      text,
    );
    return {
      read: () => ({ text: text.value, mode: mode.value, seconds: Number(seconds.value) }),
      label: () => `${mode.value}, ${text.value.trim().split('\n')[0].replace(/\s/g, '').length}×${text.value.trim().split('\n').length}`,
    };
  },

  answer(result) {
    const proved = result.proved ? 'proved' : 'not proved';
    if (result.mode === 'clear') {
      if (result.cleared) return `cleared in ${result.clicks.length} clicks`;
      return result.proved ? 'cannot be cleared (proved)' : 'unknown: the search stopped before an answer';
    }
    if (result.mode === 'min-left') return `${result.left} blocks left at best (${proved}), ${result.clicks.length} clicks`;
    return `score ${result.score} in ${result.clicks.length} clicks, ${result.left} left`;
  },

  draw(root, result) {
    const frames = result.boards;
    playback(
      root,
      frames.length,
      (k) => {
        const state = frames[k];
        const next = result.clicks[k];
        return board(state.width, state.height, (cell, x, y) => {
          const colour = colourAt(state, x, y);
          if (colour) {
            cell.classList.add('block');
            cell.style.background = COLOURS[(colour - 1) % COLOURS.length];
          }
          if (next && x === next.column - 1 && y === state.height - next.row) cell.classList.add('click');
        }, 'samegame');
      },
      (k) => {
        const left = frames[k].columns.reduce((sum, column) => sum + column.length, 0);
        const next = result.clicks[k];
        return k === frames.length - 1
          ? `after ${k} clicks: ${left} blocks left`
          : `${k} clicks, ${left} blocks left; next click: column ${next.column}, row ${next.row}`;
      },
    );
  },
};
