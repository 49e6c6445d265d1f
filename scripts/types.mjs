// Rewrites js/types.d.ts from the Rust types (crate/wasm/src/typescript.rs):
// run it after changing a type that crosses to JavaScript. `npm test`
// fails while the checked-in file differs from what the types generate.
import { isMain, NATIVE_TEST, ROOT, runOrThrow } from './lib.mjs';

export function generateTypes() {
  // The native tests' packages and features: their build is reused.
  runOrThrow('cargo', [...NATIVE_TEST, '--test', 'typescript'], {
    cwd: ROOT,
    env: { ...process.env, UPDATE_TYPES: '1' },
  });
}

if (isMain(import.meta.url)) generateTypes();
