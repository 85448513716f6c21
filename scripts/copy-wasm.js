// Ships the engine beside the compiled host: dist/bitpuzzle.wasm, found through import.meta.url.
import { copyFileSync, mkdirSync } from 'node:fs';

mkdirSync('dist', { recursive: true });
copyFileSync('build/bitpuzzle.wasm', 'dist/bitpuzzle.wasm');
