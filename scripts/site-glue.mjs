// The page's bundles (site/build/, the standalone template) run the page's
// wasm (site/pkg/, built without the command line), so wherever their
// sources import the npm package's wasm-bindgen module (pkg/gdlkit.js:
// js/api.js, engine/worker.js) esbuild takes site/pkg/gdlkit.js instead:
// each wasm with the JavaScript generated for it.

import { join, resolve } from 'node:path';
import { PKG, SITE } from './lib.mjs';

const NPM_GLUE = join(PKG, 'gdlkit.js');
const SITE_GLUE = join(SITE, 'pkg', 'gdlkit.js');

/** An esbuild plugin: imports of pkg/gdlkit.js resolve to `glue` (default site/pkg/gdlkit.js). */
export function glueAt(glue = SITE_GLUE) {
  return {
    name: 'gdlkit-site-glue',
    setup(build) {
      build.onResolve({ filter: /pkg\/gdlkit\.js$/ }, (args) => {
        const path = resolve(args.resolveDir, args.path);
        return path === NPM_GLUE ? { path: glue } : undefined;
      });
    },
  };
}

/** The page's bundles: the page's wasm. */
export const siteGlue = glueAt();

/** The engine worker on threads (site/build/worker-threads.js): the wasm with shared memory. */
export const siteThreadsGlue = glueAt(join(SITE, 'pkg-threads', 'gdlkit.js'));

/**
 * esbuild's log overrides for the page's bundles: js/api.js's `runCli`
 * calls `wasm.runCli`, which the page's glue does not export (no command
 * line in the page's wasm; the page never calls it).
 */
export const SITE_LOG_OVERRIDE = { 'import-is-undefined': 'silent' };
