// Builds the C yardsticks in bench/native/ with gcc into a temporary directory and runs them.
// The binaries time their own work, so process start-up and file reading stay out of the figures.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Compiles bench/native/<name>.c; returns { binary, dir, dispose() }, or null without gcc. */
function compile(name) {
  const source = new URL(`./native/${name}.c`, import.meta.url);
  const dir = mkdtempSync(join(tmpdir(), 'bitpuzzle-bench-'));
  const binary = join(dir, name);
  try {
    execFileSync('gcc', ['-O3', '-march=native', '-o', binary, source.pathname], { stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    if (error.code === 'ENOENT') return null; // no gcc on this machine
    throw new Error(`gcc failed on ${source.pathname}:\n${error.stderr}`);
  }
  return { binary, dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The C N-Queens counter: { run(n) → { total: bigint, ms, cpu }, dispose() }, or null without gcc (ms wall, cpu CPU time). */
export function buildNative() {
  const built = compile('queens');
  if (!built) return null;
  return {
    run(n) {
      const out = execFileSync(built.binary, [String(n)], { encoding: 'utf8' });
      const match = /^total=(\d+) ms=([\d.]+) cpu=([\d.]+)$/m.exec(out);
      if (!match) throw new Error(`unexpected output from the C counter: ${out}`);
      return { total: BigInt(match[1]), ms: Number(match[2]), cpu: Number(match[3]) };
    },
    dispose: built.dispose,
  };
}

/**
 * The C count by start constellations (bench/native/queens.c, the method of the Wasm engine):
 * { run(n) → { total, distinct, nodes: bigint, constellations, ms, cpu }, dispose() }, or null without gcc.
 */
export function buildNativeConstellations() {
  const built = compile('queens');
  if (!built) return null;
  return {
    run(n) {
      const out = execFileSync(built.binary, [String(n), 'constellations'], { encoding: 'utf8' });
      const match = /^total=(\d+) distinct=(\d+) nodes=(\d+) constellations=(\d+) ms=([\d.]+) cpu=([\d.]+)$/m.exec(out);
      if (!match) throw new Error(`unexpected output from the C constellation counter: ${out}`);
      return { total: BigInt(match[1]), distinct: BigInt(match[2]), nodes: BigInt(match[3]), constellations: Number(match[4]), ms: Number(match[5]), cpu: Number(match[6]) };
    },
    dispose: built.dispose,
  };
}

/**
 * The C count by joining half-boards (bench/native/queens-join.c, the method issue 37 asks for,
 * not yet in the engine): { run(n) → { total: bigint, states, joins, pairs, ms, cpu }, dispose() },
 * or null without gcc.
 */
export function buildNativeQueensJoin() {
  const built = compile('queens-join');
  if (!built) return null;
  return {
    run(n) {
      const out = execFileSync(built.binary, [String(n)], { encoding: 'utf8' });
      const match = /^total=(\d+) states=(\d+) joins=(\d+) pairs=(\d+) ms=([\d.]+) cpu=([\d.]+)$/m.exec(out);
      if (!match) throw new Error(`unexpected output from the C join counter: ${out}`);
      return { total: BigInt(match[1]), states: Number(match[2]), joins: Number(match[3]), pairs: Number(match[4]), ms: Number(match[5]), cpu: Number(match[6]) };
    },
    dispose: built.dispose,
  };
}

/**
 * The C twin of the polyomino engine: { run(input, parts) → { total, distinct, nodes: bigint,
 * ms }, dispose() }, or null without gcc. `input` is Prepared.input (the engine's words) and
 * `parts` the parts to count ({ pre, weight, mask }); ms covers building the tables and searching.
 */
export function buildNativePolyomino() {
  const built = compile('polyomino');
  if (!built) return null;
  const inputFile = join(built.dir, 'input.u32');
  const partsFile = join(built.dir, 'parts.u32');
  return {
    run(input, parts) {
      // Raw u32 in the machine's byte order, which is what the C side reads (little-endian here).
      writeFileSync(inputFile, new Uint8Array(input.buffer, input.byteOffset, input.byteLength));
      const words = [parts.length, ...parts.flatMap((p) => [p.weight, p.mask % 2 ** 32, Math.floor(p.mask / 2 ** 32), p.pre.length, ...p.pre])];
      writeFileSync(partsFile, new Uint8Array(Uint32Array.from(words).buffer));
      const out = execFileSync(built.binary, [inputFile, partsFile], { encoding: 'utf8' });
      const match = /^total=(\d+) distinct=(\d+) nodes=(\d+) ms=([\d.]+)$/m.exec(out);
      if (!match) throw new Error(`unexpected output from the C tiling counter: ${out}`);
      return { total: BigInt(match[1]), distinct: BigInt(match[2]), nodes: BigInt(match[3]), ms: Number(match[4]) };
    },
    dispose: built.dispose,
  };
}

/**
 * The C twin of the sliding-tile IDA* with pattern databases (bench/native/sliding.c), reading
 * the tables bitpuzzle cached in `pdbDir`: { run(side, pdbDir, instancesFile, nodeLimit?) →
 * { instances: [{ length, bound, nodes: bigint, ms }], nodes: bigint, ms, loadMs, wallMs },
 * dispose() }, or null without gcc. ms: searching only; wallMs: the whole process.
 */
export function buildNativeSliding() {
  const built = compile('sliding');
  if (!built) return null;
  return {
    run(side, pdbDir, instancesFile, nodeLimit) {
      const started = performance.now();
      const out = execFileSync(built.binary, [String(side), pdbDir, instancesFile, ...(nodeLimit ? [String(nodeLimit)] : [])], { encoding: 'utf8' });
      const wallMs = performance.now() - started;
      const instances = [...out.matchAll(/^instance=\d+ length=(-?\d+) bound=(\d+) nodes=(\d+) ms=([\d.]+)$/gm)].map((m) => ({
        length: Number(m[1]) < 0 ? null : Number(m[1]),
        bound: Number(m[2]),
        nodes: BigInt(m[3]),
        ms: Number(m[4]),
      }));
      const total = /^total nodes=(\d+) ms=([\d.]+) load_ms=([\d.]+)$/m.exec(out);
      if (!total) throw new Error(`unexpected output from the C sliding-tile solver: ${out}`);
      return { instances, nodes: BigInt(total[1]), ms: Number(total[2]), loadMs: Number(total[3]), wallMs };
    },
    dispose: built.dispose,
  };
}

/**
 * The C peg solitaire counter (English board, one start, one finish): { run(start, finish) → { total: bigint, ms,
 * peakBytes }, dispose() }, or null without gcc. peakBytes is the process's peak resident set.
 */
export function buildNativePegs() {
  const built = compile('pegs');
  if (!built) return null;
  return {
    /** The count from `start` to one peg in `finish` (holes like d4; the central game by default). */
    run(start = 'd4', finish = 'd4') {
      const out = execFileSync(built.binary, [start, finish], { encoding: 'utf8' });
      const match = /^total=(\d+) ms=([\d.]+) peak_kb=(\d+)$/m.exec(out);
      if (!match) throw new Error(`unexpected output from the C peg counter: ${out}`);
      return { total: BigInt(match[1]), ms: Number(match[2]), peakBytes: Number(match[3]) * 1024 };
    },
    dispose: built.dispose,
  };
}

/**
 * The C yardstick of the 9×9 Sudoku engine (bench/native/sudoku.c, the same method and node
 * counts): { run(puzzlesFile, limit?) → { puzzles, none, unique, multiple, nodes: bigint, ms },
 * dispose() }, or null without gcc. ms: searching only (the puzzles are read before).
 */
export function buildNativeSudoku() {
  const built = compile('sudoku');
  if (!built) return null;
  return {
    run(puzzlesFile, limit = 2) {
      const out = execFileSync(built.binary, [puzzlesFile, String(limit)], { encoding: 'utf8' });
      const match = /^puzzles=(\d+) none=(\d+) unique=(\d+) multiple=(\d+) nodes=(\d+) ms=([\d.]+)$/m.exec(out);
      if (!match) throw new Error(`unexpected output from the C sudoku solver: ${out}`);
      const [puzzles, none, unique, multiple] = match.slice(1, 5).map(Number);
      return { puzzles, none, unique, multiple, nodes: BigInt(match[5]), ms: Number(match[6]) };
    },
    dispose: built.dispose,
  };
}
