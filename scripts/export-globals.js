// Exports every mutable global of build/bitpuzzle.wasm as `global_<index>`, after asc has built
// and optimised it: with the memory, they are the whole state of an engine instance, which a
// checkpoint saves and a later process restores (src/wasm/snapshot.ts). Nothing else changes.
import { readFileSync, writeFileSync } from 'node:fs';
import binaryen from 'binaryen';

const file = process.argv[2] ?? 'build/bitpuzzle.wasm';
const module = binaryen.readBinary(readFileSync(file));
module.setFeatures(binaryen.Features.All);
const exported = new Set();
for (let i = 0; i < module.getNumExports(); i++) exported.add(binaryen.getExportInfo(module.getExportByIndex(i)).value);
let count = 0;
for (let i = 0; i < module.getNumGlobals(); i++) {
  const info = binaryen.getGlobalInfo(module.getGlobalByIndex(i));
  if (!info.mutable || info.imported || exported.has(info.name)) continue;
  module.addGlobalExport(info.name, `global_${i}`);
  count++;
}
if (!module.validate()) throw new Error(`${file}: not valid after exporting its globals`);
writeFileSync(file, module.emitBinary());
console.log(`${file}: ${count} globals exported for snapshots`);
