// The body of a family's worker script: receives the compiled engine module with each task
// (instantiating it once per thread) and runs the family's task function.
import workerpool from 'workerpool';
import { BitpuzzleError } from '../errors.js';
import { useEngineModule } from '../wasm/module.js';
import type { WorkerReply } from './pool.js';

/**
 * Serves a family's task function. `transferOf`, when given, lists the ArrayBuffers of a result
 * that are handed to the calling thread instead of copied.
 */
export function serveTasks<T, R>(runTask: (task: T) => Promise<R>, transferOf?: (result: R) => ArrayBuffer[]): void {
  workerpool.worker({
    async run(task: T, engineModule: WebAssembly.Module | undefined): Promise<WorkerReply<R>> {
      if (engineModule) useEngineModule(engineModule);
      try {
        const ok = await runTask(task);
        if (transferOf) return new workerpool.Transfer({ ok }, transferOf(ok)) as unknown as WorkerReply<R>;
        return { ok };
      } catch (error) {
        if (error instanceof BitpuzzleError) return { error: { code: error.code, message: error.message } };
        const message = error instanceof Error ? error.message : String(error);
        return { error: { code: 'ENGINE_FAILURE', message: `a worker failed: ${message}` } };
      }
    },
  });
}
