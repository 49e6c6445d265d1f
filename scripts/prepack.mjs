// `npm pack` / `npm publish` (prepack): refuse to pack without the wasm
// package, which is built, not committed (`npm run build` makes pkg/).

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PKG, ROOT } from './lib.mjs';

const missing = [
  ...['gdlkit.js', 'gdlkit.d.ts', 'gdlkit_bg.wasm', 'gdlkit-standalone.html'].map((f) => join(PKG, f)),
  ...['gdlkit.js', 'gdlkit_bg.wasm'].map((f) => join(ROOT, 'pkg-threads', f)),
].filter((f) => !existsSync(f));
if (missing.length > 0) {
  console.error(`the wasm packages lack ${missing.join(', ')}: run \`npm run build\` before packing`);
  process.exit(1);
}
