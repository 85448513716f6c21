// The one worker-thread script of the warm pool: runs a group of parts of any kind
// (parallel/runners.ts) in order, and stops it when the pool sends a cancel.
import { BitpuzzleError } from '../errors.js';
import { useEngineModule } from '../wasm/module.js';
import { runPart } from './runners.js';
import type { GroupReply, ThreadMessage, WorkerReply } from './pool.js';

interface Port {
  postMessage(message: unknown): void;
}

const controllers = new Map<number, AbortController>();

async function handle(message: ThreadMessage, port: Port): Promise<void> {
  if (message.type === 'cancel') {
    controllers.get(message.id)?.abort();
    return;
  }
  const controller = new AbortController();
  controllers.set(message.id, controller);
  let reply: WorkerReply<unknown[]>;
  const started = performance.now();
  try {
    if (message.module) useEngineModule(message.module);
    const ok: unknown[] = [];
    for (const task of message.tasks) {
      if (controller.signal.aborted) throw new BitpuzzleError('ABORTED', 'the part was cancelled');
      ok.push(await runPart(message.kind, task, controller.signal));
    }
    reply = { ok };
  } catch (error) {
    if (error instanceof BitpuzzleError) reply = { error: { code: error.code, message: error.message } };
    else reply = { error: { code: 'ENGINE_FAILURE', message: `a worker failed: ${error instanceof Error ? error.message : String(error)}` } };
  } finally {
    controllers.delete(message.id);
  }
  port.postMessage({ reply, ms: performance.now() - started } satisfies GroupReply);
}

const node = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
if (node) {
  const { parentPort } = await import('node:worker_threads');
  parentPort!.on('message', (message: ThreadMessage) => void handle(message, parentPort!));
} else {
  const scope = globalThis as unknown as Port & { addEventListener(type: 'message', listener: (event: MessageEvent) => void): void };
  scope.addEventListener('message', (event) => void handle(event.data as ThreadMessage, scope));
}
