// `npm pack` / `npm publish` (prepack): refuse to pack without the wasm
// package, which is built, not committed (`npm run build` makes pkg/).

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PKG } from './lib.mjs';

const missing = ['gdlkit.js', 'gdlkit.d.ts', 'gdlkit_bg.wasm', 'gdlkit-standalone.html'].filter((f) => !existsSync(join(PKG, f)));
if (missing.length > 0) {
  console.error(`pkg/ lacks ${missing.join(', ')}: run \`npm run build\` before packing`);
  process.exit(1);
}
