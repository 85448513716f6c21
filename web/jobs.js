// What the solver thread does for each family: call the public API and return plain data
// (structured-cloneable: numbers, strings, BigInt counts) for the page to draw.

export const jobs = {
  async queens({ queens }, { n, board }, options) {
    const problem = board ?? n;
    const count = await queens.count(problem, options);
    const first = await queens.solve(problem, { engine: options.engine, signal: options.signal });
    return { n: count.n, total: count.total, distinct: count.distinct, nodes: count.stats.nodes, columns: first?.columns ?? null };
  },

  async polyomino({ polyomino }, { region, pieces }, options) {
    const problem = { region, pieces };
    const count = await polyomino.count(problem, options);
    const first = await polyomino.solve(problem, { engine: options.engine, signal: options.signal });
    return {
      total: count.total,
      distinct: count.distinct,
      reason: count.reason,
      nodes: count.stats.nodes,
      solution: first,
      svg: first ? polyomino.svg([first], 28) : null,
    };
  },

  async sudoku({ sudoku }, { grid }, options) {
    const count = await sudoku.count(grid, options);
    const first = await sudoku.solve(grid, { engine: options.engine, signal: options.signal });
    return { total: count.total, nodes: count.stats.nodes, grid: first?.grid ?? null };
  },

  async samegame({ samegame }, { text, mode, seconds }, options) {
    const { engine, signal, onProgress } = options;
    let result;
    if (mode === 'score') {
      if (engine === 'js') throw Object.assign(new Error('the score search has no TypeScript twin: choose WebAssembly'), { code: 'BAD_INPUT' });
      result = await samegame.score(text, { time: seconds, signal, onProgress });
    } else {
      const search = mode === 'clear' ? samegame.clear : samegame.minLeft;
      result = await search(text, { engine, signal, time: seconds });
    }
    const { clicks, left, cleared, score, proved, boards, stats } = result;
    return { mode, clicks, left, cleared, score, proved, boards: [samegame.toBoard(text), ...boards], nodes: stats.nodes };
  },

  async sliding({ sliding }, { text, method }, options) {
    const { engine, signal, onProgress } = options;
    const board = sliding.toBoard(text);
    const solution = await sliding.solve(board, { method, engine, signal, onProgress });
    const { rows, cols, moves, length, optimal, lowerBound, stats } = solution;
    return { rows, cols, tiles: Array.from(board.tiles), moves, length, optimal, lowerBound, nodes: stats.nodes };
  },

  async pegs({ pegs }, { board, start, finish, mode }, options) {
    const problem = pegs.toProblem({ board, start: start || undefined, finish: finish || undefined });
    const holes = problem.board.holes.map(({ line, column, name }) => ({ line, column, name }));
    const shown = { mode, geometry: problem.board.geometry, holes, jumps: null, moves: null, positions: null };
    if (mode === 'count') {
      const count = await pegs.count(problem, options);
      return { ...shown, total: count.total, nodes: count.stats.nodes };
    }
    // solve() reports no progress, and takes no onProgress option.
    const answer = mode === 'fewest' ? await pegs.minMoves(problem, options) : await pegs.solve(problem, { engine: options.engine, signal: options.signal });
    if (!answer) return { ...shown, nodes: null };
    const positions = [problem.start, ...pegs.replay(problem.board, problem.start, answer.jumps)];
    const { moves } = answer;
    return { ...shown, jumps: answer.jumps, moves, positions, nodes: answer.stats.nodes };
  },
};
