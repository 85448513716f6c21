// The browser build: dist/browser/ holds self-contained ES modules (no bare imports), so the
// package loads from a plain <script type="module"> on a static server as well as in bundlers.
//   bitpuzzle.js        the public API (package.json points the "browser" condition here)
//   bitpuzzle.d.ts      its types: the Node API's, which the bundle is built from
//   workers/<family>.js one worker script per family, for the Web Worker pools
//   bitpuzzle.wasm      the engine, fetched beside bitpuzzle.js
//   sliding-shared.wasm the optimal sliding search over tables that threads share
//   pegs-shared.wasm    the peg count on threads that share one memory
//                       (cross-origin-isolated pages only)
// The host finds its workers and its engine through `new URL('<literal>', import.meta.url)`;
// bundling moves the files, so each such URL is rewritten to where the file is in this layout.
// Literal URLs are what bundlers such as Vite follow, so they keep working one level up.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const dist = path.resolve('dist');
const out = path.join(dist, 'browser');
// A family with a worker script of its own (peg solitaire's rounds); every other family's parts
// run on the warm pool's one script, parallel/tasks-worker.js, bundled as workers/tasks.js.
const families = readdirSync(dist).filter(
  (name) => existsSync(path.join(dist, name, 'index.js')) && existsSync(path.join(dist, name, 'worker.js')),
);
const tasksWorker = path.join(dist, 'parallel', 'tasks-worker.js');
const WASM = ['bitpuzzle.wasm', 'sliding-shared.wasm', 'pegs-shared.wasm'];

/** Rewrites the module-relative URLs of dist/ files for a bundle that will live in `bundleDir`. */
function relocateUrls(bundleDir) {
  return {
    name: 'relocate-urls',
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, (args) => {
        const dir = path.dirname(args.path);
        const source = readFileSync(args.path, 'utf8');
        const contents = source.replace(
          /new URL\('([^']+)', import\.meta\.url\)/g,
          (match, relative) => {
            const target = path.resolve(dir, relative);
            const family = path.basename(dir);
            // A family's worker script becomes that family's worker bundle.
            const moved =
              path.basename(target) === 'worker.js' && families.includes(family)
                ? path.join(out, 'workers', `${family}.js`)
                : target === tasksWorker
                  ? path.join(out, 'workers', 'tasks.js')
                  : WASM.some((name) => target === path.join(dist, name))
                  ? path.join(out, path.basename(target))
                  : undefined;
            if (!moved) throw new Error(`${args.path}: no browser location for ${match}`);
            let url = path.relative(bundleDir, moved).split(path.sep).join('/');
            if (!url.startsWith('.')) url = `./${url}`;
            return `new URL('${url}', import.meta.url)`;
          },
        );
        return { contents, loader: 'js' };
      });
    },
  };
}

// The host reads the engine from disk only for file: URLs, which browsers never have; the
// node: modules it would import become a stub, so bundlers see no Node built-ins.
const nodeOnly = {
  name: 'node-only',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, namespace: 'node-only' }));
    b.onLoad({ filter: /.*/, namespace: 'node-only' }, (args) => ({
      contents: `const missing = () => { throw new Error('${args.path} is not available in a browser'); };
export const readFile = missing, fileURLToPath = missing, availableParallelism = missing;
export const setMaxListeners = () => undefined; // browsers do not warn of many listeners`,
      loader: 'js',
    }));
  },
};

/**
 * One entry, minified, its source map in a file of its own. With `chunks`, what the entry
 * imports on demand (the pure-TS twins, workerpool) goes to chunks beside it (chunk-<hash>.js),
 * fetched only when used; chunks stay in the entry's folder, so that module-relative URLs hold
 * in either. Worker scripts are whole files: bundlers copy a `new URL('worker.js', …)` as it
 * is, without the chunks it would import.
 */
async function bundle(entry, outfile, chunks = false) {
  const result = await build({
    entryPoints: { [path.basename(outfile, '.js')]: entry },
    outdir: path.dirname(outfile),
    chunkNames: 'chunk-[hash]',
    splitting: chunks,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // workerpool's Node backends sit behind platform checks never taken in a browser.
    external: ['worker_threads', 'os', 'child_process'],
    sourcemap: true,
    minify: true,
    metafile: true,
    logLevel: 'warning',
    plugins: [relocateUrls(path.dirname(outfile)), nodeOnly],
  });
  return result.metafile;
}

rmSync(out, { recursive: true, force: true });
mkdirSync(path.join(out, 'workers'), { recursive: true });
for (const name of WASM) copyFileSync(path.join(dist, name), path.join(out, name));
await bundle(path.join(dist, 'index.js'), path.join(out, 'bitpuzzle.js'), true);
writeFileSync(path.join(out, 'bitpuzzle.d.ts'), "export * from '../index.js';\n");
await bundle(tasksWorker, path.join(out, 'workers', 'tasks.js'));
for (const family of families) {
  await bundle(path.join(dist, family, 'worker.js'), path.join(out, 'workers', `${family}.js`));
}
// A chunk of esbuild's own helpers has a source map with no sources: it goes, with its comment.
for (const file of readdirSync(out, { recursive: true }).map(String).filter((f) => f.endsWith('.js.map'))) {
  const map = path.join(out, file);
  if (JSON.parse(readFileSync(map, 'utf8')).sources.length > 0) continue;
  rmSync(map);
  const js = map.slice(0, -'.map'.length);
  writeFileSync(js, readFileSync(js, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n'));
}
// The queue executor is Node only (loaded on demand): its client must never be in a bundle.
for (const file of readdirSync(out, { recursive: true })) {
  if (String(file).endsWith('.js') && /bullmq|ioredis/.test(readFileSync(path.join(out, String(file)), 'utf8'))) {
    throw new Error(`dist/browser/${file} contains the queue's Redis client`);
  }
}
console.log(`browser build: dist/browser/bitpuzzle.js, workers/tasks.js and workers for ${families.join(', ')}`);
