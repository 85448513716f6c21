// The demo's solver thread: the page never runs a search itself, so it never freezes. One
// message starts a job, another cancels it; progress and the answer come back as messages.
import * as bitpuzzle from 'bitpuzzle';
import { jobs } from './jobs.js';

const running = new Map();

// Compile the engine while the visitor reads the page, so the first solve's time is the search's.
bitpuzzle.loadEngineModule().catch(() => undefined); // a failure is reported by the first solve

self.onmessage = async ({ data }) => {
  if (data.type === 'cancel') {
    running.get(data.id)?.abort();
    return;
  }
  const { id, family, input, engine } = data;
  const controller = new AbortController();
  running.set(id, controller);
  const started = performance.now();
  try {
    const result = await jobs[family](bitpuzzle, input, {
      engine,
      signal: controller.signal,
      onProgress: (progress) => self.postMessage({ id, type: 'progress', progress }),
    });
    self.postMessage({ id, type: 'result', result, milliseconds: performance.now() - started });
  } catch (error) {
    self.postMessage({ id, type: 'error', code: error.code ?? 'ERROR', message: error.message ?? String(error) });
  } finally {
    running.delete(id);
  }
};
