// The body of a family's worker script: receives the compiled engine module with each task
// (instantiating it once per thread) and runs the family's task function.
import workerpool from 'workerpool';
import { BitpuzzleError } from '../errors.js';
import { useEngineModule } from '../wasm/module.js';
import type { WorkerReply } from './pool.js';

export function serveTasks<T, R>(runTask: (task: T) => Promise<R>): void {
  workerpool.worker({
    async run(task: T, engineModule: WebAssembly.Module | undefined): Promise<WorkerReply<R>> {
      if (engineModule) useEngineModule(engineModule);
      try {
        return { ok: await runTask(task) };
      } catch (error) {
        if (error instanceof BitpuzzleError) return { error: { code: error.code, message: error.message } };
        const message = error instanceof Error ? error.message : String(error);
        return { error: { code: 'ENGINE_FAILURE', message: `a worker failed: ${message}` } };
      }
    },
  });
}
