// The demo page: pick a family and a preset, edit it, solve it in the solver thread, draw the
// answer. Each family's editor and drawing live in families/<name>.js.
import { families } from './families/index.js';

const $ = (id) => document.getElementById(id);
const solver = new Worker(new URL('./solver.worker.js', import.meta.url), { type: 'module' });

let family = families[0];
let editor = null;
let job = null; // { id, family, resolve, reject } of the running search
let nextId = 1;

solver.onmessage = ({ data }) => {
  if (!job || data.id !== job.id) return;
  if (data.type === 'progress') {
    const { done, total } = data.progress;
    $('progress').max = total;
    $('progress').value = done;
    $('status').textContent = `${done} of ${total} parts`;
  } else if (data.type === 'result') {
    job.resolve(data);
  } else {
    job.reject(data);
  }
};

function run(familyId, input, engine) {
  return new Promise((resolve, reject) => {
    job = { id: nextId++, resolve, reject };
    solver.postMessage({ type: 'solve', id: job.id, family: familyId, input, engine });
  });
}

function showFamily(next) {
  family = next;
  for (const tab of $('families').children) tab.setAttribute('aria-selected', String(tab.dataset.family === next.id));
  const presets = $('preset');
  presets.replaceChildren(...next.presets.map((p, i) => new Option(p.name, String(i))));
  showPreset(0);
  document.body.dataset.family = next.id;
}

function showPreset(index) {
  $('editor').replaceChildren();
  $('drawing').replaceChildren();
  $('summary').textContent = '';
  editor = family.editor($('editor'), family.presets[index].input);
}

function busy(on) {
  $('solve').disabled = on;
  $('cancel').disabled = !on;
  $('progress').hidden = !on;
  if (on) $('progress').removeAttribute('value');
  document.body.dataset.state = on ? 'solving' : 'idle';
}

async function solve() {
  let input;
  try {
    input = editor.read();
  } catch (error) {
    showError(error.message);
    return;
  }
  const engine = document.querySelector('input[name=engine]:checked').value;
  const current = family;
  busy(true);
  $('status').className = '';
  $('status').textContent = 'solving…';
  try {
    const { result, milliseconds } = await run(current.id, input, engine);
    const answer = current.answer(result);
    $('summary').textContent = answer;
    $('drawing').replaceChildren();
    current.draw($('drawing'), result, input);
    $('status').textContent = `done in ${milliseconds.toFixed(0)} ms`;
    addRun(current, editor.label(), engine, answer, result.nodes, milliseconds);
  } catch (error) {
    showError(`${error.code}: ${error.message}`);
  } finally {
    busy(false);
    job = null;
  }
}

function showError(message) {
  $('status').className = 'error';
  $('status').textContent = message;
}

function addRun(current, label, engine, answer, nodes, milliseconds) {
  const row = document.createElement('tr');
  row.dataset.family = current.id;
  row.dataset.engine = engine;
  for (const text of [label, engine === 'wasm' ? 'WebAssembly' : 'TypeScript', answer, String(nodes ?? ''), `${milliseconds.toFixed(0)} ms`]) {
    const cell = document.createElement('td');
    cell.textContent = text;
    row.append(cell);
  }
  $('runs').tBodies[0].prepend(row);
}

for (const f of families) {
  const tab = document.createElement('button');
  tab.type = 'button';
  tab.role = 'tab';
  tab.dataset.family = f.id;
  tab.textContent = f.title;
  tab.onclick = () => job || showFamily(f);
  $('families').append(tab);
}
$('preset').onchange = (event) => showPreset(Number(event.target.value));
$('solve').onclick = solve;
$('cancel').onclick = () => job && solver.postMessage({ type: 'cancel', id: job.id });
showFamily(families[0]);
document.body.dataset.ready = 'true';
