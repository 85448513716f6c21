// Step-by-step playback of a solution: frame 0 is the start, frame k the position after step k.
// `drawFrame(k)` returns the element for frame k; `caption(k)` the text under it.

export function playback(root, frames, drawFrame, caption) {
  const view = document.createElement('div');
  view.className = 'frame';
  const text = document.createElement('p');
  text.className = 'caption';
  const slider = document.createElement('input');
  slider.type = 'range';
  slider.min = '0';
  slider.max = String(frames - 1);
  slider.value = '0';
  let timer = null;

  const show = (k) => {
    const step = Math.max(0, Math.min(frames - 1, k));
    slider.value = String(step);
    root.dataset.step = String(step);
    view.replaceChildren(drawFrame(step));
    text.textContent = caption(step);
  };
  const stop = () => {
    clearInterval(timer);
    timer = null;
    play.textContent = '▶';
  };
  const button = (label, title, action) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.title = title;
    b.onclick = action;
    return b;
  };
  const at = () => Number(slider.value);
  const play = button('▶', 'play', () => {
    if (timer) return stop();
    if (at() === frames - 1) show(0);
    play.textContent = '❚❚';
    timer = setInterval(() => (root.isConnected && at() < frames - 1 ? show(at() + 1) : stop()), 400);
  });
  const controls = document.createElement('div');
  controls.className = 'playback';
  controls.append(
    button('«', 'first', () => (stop(), show(0))),
    button('‹', 'back', () => (stop(), show(at() - 1))),
    play,
    button('›', 'forward', () => (stop(), show(at() + 1))),
    button('»', 'last', () => (stop(), show(frames - 1))),
    slider,
  );
  slider.oninput = () => (stop(), show(at()));
  root.dataset.frames = String(frames);
  root.append(controls, view, text);
  show(0);
}
