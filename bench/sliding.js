// npm run bench:sliding [-- --skip-build --build-78 --twin-korf --24 1,2,26 --24-node-limit N --constructive-only]: sliding-tile puzzles.
//  1. Korf's 100 15-puzzle instances solved optimally with the 7-8 and the 6-6-3 databases, each
//     run a fresh `bitpuzzle sliding --batch` process (so the time includes start-up and loading
//     the pattern databases from the disk cache), Wasm on one thread and on all threads, and the
//     TS twin (--twin-korf, slow); every length checked against the published one. The one-off
//     table builds are timed apart (the 7-8's, minutes, with --build-78; the first run builds it
//     into --cache-dir anyway). The C yardstick (bench/native/sliding.c: the same IDA* on the
//     same cached tables, so the same nodes, which is checked) runs in the same benchmark with
//     each set of tables, whole process and search alone; nodes per instance are listed.
//  2. With --24 LIST: those of Korf & Felner's 24-puzzle instances (numbered from 1), a node limit
//     each, Wasm and the C yardstick (nodes a second: how far the engine is from native code).
//  3. The constructive solver on random n×n boards: moves / n³ and time per solve, Wasm vs twin
//     (--constructive-only: this part alone).
// Progress goes to stderr, the tables to stdout.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs, fail, markdown, ratio, time, timeSuite } from './common.js';
import { buildNativeSliding } from './native.js';

const { values } = benchArgs(import.meta.url, {
  'skip-build': { type: 'boolean', default: false },
  'constructive-only': { type: 'boolean', default: false },
  'twin-korf': { type: 'boolean', default: false },
  'build-78': { type: 'boolean', default: false },
  24: { type: 'string', default: '' },
  '24-node-limit': { type: 'string', default: '200000000' },
  'cache-dir': { type: 'string', default: join(os.tmpdir(), 'bitpuzzle-bench-pdb') },
});

if (!existsSync(new URL('../dist/index.js', import.meta.url))) fail('dist/ is missing: run `npm run build` first');
const { sliding } = await import('../dist/index.js');
const bin = fileURLToPath(new URL('../bin/bitpuzzle', import.meta.url));
const korf100 = fileURLToPath(new URL('../test/data/korf100.txt', import.meta.url));
const korf24 = fileURLToPath(new URL('../test/data/korf24.txt', import.meta.url));
const threads = os.availableParallelism();
const PDBS = ['7-8', '6-6-3'];
const cacheDir = values['cache-dir'];
const native = buildNativeSliding();
if (native) process.on('exit', native.dispose);
else console.error('bench: gcc not found, so no C yardstick');

/** Runs the CLI; returns wall milliseconds and its results (a batch's instances, or the one board's). */
function cli(args) {
  const started = performance.now();
  const result = spawnSync(process.execPath, [bin, 'sliding', ...args, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = performance.now() - started;
  // 3: a node limit stopped a board before a solution, which the limited runs expect.
  if (result.status !== 0 && result.status !== 3) fail(`bitpuzzle sliding ${args.join(' ')} failed: ${result.stderr}`);
  const output = JSON.parse(result.stdout);
  return { ms, lines: output.instances ?? [output] };
}

function checkBatch(lines, what) {
  for (const line of lines) {
    if (line.length !== line.expected) fail(`${what}: line ${line.line} solved in ${line.length}, expected ${line.expected}`);
  }
  return lines.reduce((sum, line) => sum + BigInt(line.stats.nodes), 0n);
}

if (!values['constructive-only']) {
  // ---- 1. Korf's 100 -------------------------------------------------------------------------
  const korfRows = [['contender', 'time', 'search alone', 'nodes', 'time vs C 6-6-3', 'search vs C 6-6-3', 'search vs C same tables']];
  const easy = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13', '14', '0', '15'];
  if (!values['skip-build']) {
    // The one-off build of the 4×4 tables into an empty cache (one easy instance): 6-6-3 with each
    // engine; the 7-8 (minutes) with --build-78.
    const builds = [['6-6-3', 'wasm'], ['6-6-3', 'js'], ...(values['build-78'] ? [['7-8', 'wasm']] : [])];
    for (const [pdb, engine] of builds) {
      const dir = mkdtempSync(join(os.tmpdir(), 'bitpuzzle-bench-build-'));
      console.error(`building the ${pdb} tables (${engine})…`);
      const { lines } = cli([...easy, '--pdb', pdb, '--pdb-dir', dir, '--engine', engine]);
      korfRows.push([`${pdb} table build, ${engine === 'wasm' ? 'Wasm' : 'TS twin'} (one-off)`, time(lines[0].patternMilliseconds), '', '', '', '', '']);
      rmSync(dir, { recursive: true, force: true });
    }
  }
  // Make sure the cache holds both sets of tables, so that the timed runs load them.
  for (const pdb of PDBS) {
    console.error(`${pdb} tables into ${cacheDir} (built once if missing)…`);
    cli([...easy, '--pdb', pdb, '--pdb-dir', cacheDir]);
  }
  const expected = sliding.parseBatch((await import('node:fs')).readFileSync(korf100, 'utf8')).map((i) => i.expected);
  // The C yardstick with each set of tables: bench/native/sliding.c, side 4 (6-6-3) or 78 (7-8).
  const c = {};
  if (native) {
    for (const pdb of PDBS) {
      console.error(`Korf's 100: C yardstick, ${pdb}…`);
      c[pdb] = native.run(pdb === '7-8' ? 78 : 4, cacheDir, korf100);
      c[pdb].instances.forEach((r, i) => r.length !== expected[i] && fail(`C yardstick ${pdb}: instance ${i + 1} solved in ${r.length}, expected ${expected[i]}`));
    }
  }
  const korfRuns = [];
  for (const pdb of PDBS) {
    korfRuns.push({ name: `Wasm ${pdb}, 1 thread`, pdb, args: ['--threads', '1'] });
    korfRuns.push({ name: `Wasm ${pdb}, ${threads} threads`, pdb, args: ['--threads', String(threads)] });
  }
  if (values['twin-korf']) korfRuns.push({ name: 'TS twin 6-6-3, 1 thread', pdb: '6-6-3', args: ['--threads', '1', '--engine', 'js'] });
  const base = c['6-6-3'];
  const perInstance = {};
  for (const run of korfRuns) {
    console.error(`Korf's 100: ${run.name}…`);
    const { ms, lines } = cli(['--batch', korf100, '--goal', 'korf', '--pdb', run.pdb, '--pdb-dir', cacheDir, ...run.args]);
    const nodes = checkBatch(lines, run.name);
    const same = c[run.pdb];
    if (same && nodes !== same.nodes) fail(`${run.name}: ${nodes} nodes, the C yardstick ${same.nodes} (the same search should count the same)`);
    if (run.args.includes('1') && !run.args.includes('js')) perInstance[run.pdb] = lines.map((line) => BigInt(line.stats.nodes));
    // The search alone: the instances' own times (one thread: they add up to the search's time).
    const oneThread = run.args.includes('1');
    const search = lines.reduce((sum, line) => sum + line.stats.milliseconds, 0);
    korfRows.push([
      run.name,
      time(ms),
      oneThread ? time(search) : '',
      nodes.toLocaleString('en-US'),
      base ? ratio(ms, base.wallMs) : '',
      oneThread && base ? ratio(search, base.ms) : '',
      oneThread && same ? ratio(search, same.ms) : '',
    ]);
  }
  for (const pdb of PDBS) {
    const r = c[pdb];
    if (r) korfRows.push([`C (gcc -O3) ${pdb}, 1 thread`, time(r.wallMs), time(r.ms), r.nodes.toLocaleString('en-US'), ratio(r.wallMs, base.wallMs), ratio(r.ms, base.ms), '1.00×']);
  }
  console.log(`\nKorf's 100 15-puzzle instances, optimal (IDA*, pattern databases following the blank, mirrored lookup: 6-6-3 a byte an entry, 7-8 4 bits);`);
  console.log('each run a fresh process: start-up and loading the tables from the disk cache included; "search alone" leaves them out.\n');
  console.log(markdown(korfRows));
  if (perInstance['7-8'] && perInstance['6-6-3']) {
    const rows = [['instance', 'optimal', 'nodes 6-6-3', 'nodes 7-8', '6-6-3 / 7-8']];
    expected.forEach((length, i) => rows.push([String(i + 1), String(length), perInstance['6-6-3'][i].toLocaleString('en-US'), perInstance['7-8'][i].toLocaleString('en-US'), (Number(perInstance['6-6-3'][i]) / Number(perInstance['7-8'][i])).toFixed(1)]));
    console.log("\nNodes per instance (the root included), Wasm on one thread (the C yardstick counts the same):\n");
    console.log(markdown(rows));
  }

  // ---- 2. the 24-puzzle ---------------------------------------------------------------------
  const numbers24 = values[24] ? values[24].split(',').map(Number) : [];
  if (numbers24.some((n) => !Number.isInteger(n) || n < 1 || n > 50)) fail('--24 takes instance numbers from 1 to 50, like 1,2,26');
  if (numbers24.length > 0) {
    const limit = values['24-node-limit'];
    const all = sliding.parseBatch((await import('node:fs')).readFileSync(korf24, 'utf8'));
    const rows = [['instance', 'optimal', 'found / lower bound', 'nodes', 'search', 'loading tables', 'Wasm nodes/s', 'C nodes/s', 'Wasm time vs C']];
    const rate = (nodes, ms) => `${(Number(nodes) / ms / 1000).toFixed(1)}M`;
    for (const number of numbers24) {
      const { board, expected } = all[number - 1];
      const i = number - 1;
      console.error(`24-puzzle instance ${number}…`);
      const tiles = Array.from(board.tiles, String);
      const { lines } = cli([...tiles, '--size', '5x5', '--goal', 'korf', '--optimal', '--node-limit', limit, '--pdb-dir', cacheDir]);
      const r = lines[0];
      if (r.optimal && r.length !== expected) fail(`24-puzzle instance ${i + 1}: ${r.length}, expected ${expected}`);
      const search = r.stats.milliseconds - r.patternMilliseconds;
      let cRate = '';
      let cVs = '';
      if (native) {
        const file = join(os.tmpdir(), `bitpuzzle-bench-24-${process.pid}.txt`);
        (await import('node:fs')).writeFileSync(file, tiles.join(' ') + '\n');
        const cr = native.run(55, cacheDir, file, limit).instances[0];
        rmSync(file, { force: true });
        if (cr.nodes !== BigInt(r.stats.nodes)) fail(`24-puzzle instance ${i + 1}: Wasm ${r.stats.nodes} nodes, C ${cr.nodes}`);
        cRate = rate(cr.nodes, cr.ms);
        cVs = ratio(search, cr.ms);
      }
      rows.push([
        String(i + 1),
        String(expected),
        r.optimal ? `${r.length} (solved)` : `≥ ${r.lowerBound} (stopped)`,
        BigInt(r.stats.nodes).toLocaleString('en-US'),
        time(search),
        time(r.patternMilliseconds),
        rate(r.stats.nodes, search),
        cRate,
        cVs,
      ]);
    }
    console.log(`\nKorf & Felner's 24-puzzle instances (6-6-6-6 pattern databases following the blank, packed; mirrored lookup), at most ${Number(limit).toLocaleString('en-US')} nodes each:\n`);
    console.log(markdown(rows));
  }
}

// ---- 3. the constructive solver -------------------------------------------------------------
const SEEDS = 5;
const sizeRows = [['n', 'moves / n³', 'Wasm per solve', 'TS twin per solve', 'Wasm vs twin']];
await sliding.solve(sliding.randomBoard(10, 10, 99), { method: 'fast', lengthOnly: true }); // load the engine first
for (const n of [10, 20, 50, 100]) {
  const boards = Array.from({ length: SEEDS }, (_, s) => sliding.randomBoard(n, n, s + 1));
  let lengths = 0;
  for (const board of boards) lengths += (await sliding.solve(board, { method: 'fast', lengthOnly: true })).length;
  let next = 0;
  const contender = (engine) => async () => {
    const board = boards[next++ % SEEDS];
    await sliding.solve(board, { method: 'fast', lengthOnly: true, engine });
  };
  const [wasm, twin] = await timeSuite(`${n}×${n}`, [
    { name: 'wasm', run: contender('wasm') },
    { name: 'js', run: contender('js') },
  ], (name, ms) => console.error(`${n}×${n} ${name}: ${time(ms)}`));
  sizeRows.push([String(n), (lengths / SEEDS / n ** 3).toFixed(3), time(wasm), time(twin), ratio(twin, wasm)]);
}
console.log(`\nConstructive solutions of random n×n boards (${SEEDS} boards each): average length / n³, mean time per solve (moves counted, not kept).\n`);
console.log(markdown(sizeRows));
