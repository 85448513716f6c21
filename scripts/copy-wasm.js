// Ships the engines beside the compiled host: dist/bitpuzzle.wasm, dist/sliding-shared.wasm
// (the optimal search over tables that threads share) and dist/pegs-shared.wasm (the peg count
// on threads that share one memory), found through import.meta.url.
import { copyFileSync, mkdirSync } from 'node:fs';

mkdirSync('dist', { recursive: true });
copyFileSync('build/bitpuzzle.wasm', 'dist/bitpuzzle.wasm');
copyFileSync('build/sliding-shared.wasm', 'dist/sliding-shared.wasm');
copyFileSync('build/pegs-shared.wasm', 'dist/pegs-shared.wasm');
