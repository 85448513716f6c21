// Each kind's part runner (parallel/kinds.ts checks the parts), imported on a part of that kind's
// first arrival: a worker thread loads only the families it serves, not all seven (a thread that
// serves sliding parts starts in about half the time).
import type { TaskKindName } from './pool.js';

type Runner = (task: never, signal?: AbortSignal) => Promise<unknown>;

const LOADERS: Record<TaskKindName, () => Promise<Runner>> = {
  queens: async () => (await import('../queens/tasks.js')).runQueensTask,
  polyomino: async () => (await import('../polyomino/tasks.js')).runTilingTask,
  cover: async () => (await import('../cover/tasks.js')).runCoverTask,
  sliding: async () => {
    const [{ runFastBatch }, { runOptimalBatch, runSplitPart, runTableTask }] = await Promise.all([import('../sliding/solve.js'), import('../sliding/tasks.js')]);
    type SlidingTask = Parameters<typeof runOptimalBatch>[0] | Parameters<typeof runFastBatch>[0] | Parameters<typeof runSplitPart>[0] | Parameters<typeof runTableTask>[0];
    return ((task: SlidingTask, signal?: AbortSignal) =>
      'table' in task ? runTableTask(task, signal)
      : 'split' in task ? runSplitPart(task, signal)
      : 'fast' in task ? runFastBatch(task, signal)
      : runOptimalBatch(task, signal)) as Runner;
  },
  samegame: async () => (await import('../samegame/tasks.js')).runScoreTask,
  sudoku: async () => {
    const { runSudokuTask } = await import('../sudoku/tasks.js');
    return ((task: Parameters<typeof runSudokuTask>[0], signal?: AbortSignal) => runSudokuTask(task, signal)) as Runner;
  },
  pegs: async () => (await import('../pegs/together.js')).runTogetherTask as Runner,
};

const loaded = new Map<TaskKindName, Promise<Runner>>();

/** Runs one part of the kind: the kind's module is imported once, on its first part. */
export async function runPart(kind: TaskKindName, task: unknown, signal?: AbortSignal): Promise<unknown> {
  let runner = loaded.get(kind);
  if (!runner) loaded.set(kind, (runner = LOADERS[kind]()));
  return (await runner)(task as never, signal);
}
