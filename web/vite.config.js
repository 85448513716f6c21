// `npm run web` serves the demo; `npm run build:web` builds it into build/web for static hosting.
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The page imports 'bitpuzzle' as a site that installed the package would: through
// node_modules and the package's exports, where bundlers take the "browser" build. This
// checkout is linked in as that package.
const installed = fileURLToPath(new URL('./node_modules/bitpuzzle', import.meta.url));
if (!existsSync(installed)) {
  mkdirSync(fileURLToPath(new URL('./node_modules', import.meta.url)), { recursive: true });
  symlinkSync('../..', installed, 'dir');
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  // The package finds its engine and worker scripts beside itself; pre-bundling would move it.
  optimizeDeps: { exclude: ['bitpuzzle'] },
  worker: { format: 'es' },
  build: {
    outDir: fileURLToPath(new URL('../build/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
  },
});
