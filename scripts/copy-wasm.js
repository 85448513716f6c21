// Ships the engines beside the compiled host: dist/bitpuzzle.wasm, and dist/sliding-shared.wasm
// (the optimal search over tables that threads share), found through import.meta.url.
import { copyFileSync, mkdirSync } from 'node:fs';

mkdirSync('dist', { recursive: true });
copyFileSync('build/bitpuzzle.wasm', 'dist/bitpuzzle.wasm');
copyFileSync('build/sliding-shared.wasm', 'dist/sliding-shared.wasm');
