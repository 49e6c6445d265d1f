// Rewrites js/types.d.ts from the Rust types (crate/wasm/src/typescript.rs):
// run it after changing a type that crosses to JavaScript. `npm test`
// fails while the checked-in file differs from what the types generate.
import { isMain, ROOT, runOrThrow } from './lib.mjs';

export function generateTypes() {
  runOrThrow('cargo', ['test', '--profile', 'ci', '-p', 'gdlkit-wasm', '--features', 'typescript', '--test', 'typescript'], {
    cwd: ROOT,
    env: { ...process.env, UPDATE_TYPES: '1' },
  });
}

if (isMain(import.meta.url)) generateTypes();
