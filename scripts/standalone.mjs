// The standalone template: one HTML file with the engine's worker script,
// the page's wasm (site/pkg/, base64) and the custom elements inlined, and two markers that
// `gdlkit export` (crate/cli/src/cli/export.rs) replaces with the title and the
// element (<gdl-tree> or <gdl-play> with the game inlined). Written to
// site/build/standalone.html (the page's "Download as standalone HTML"
// fetches it) and pkg/gdlkit-standalone.html (the npm package's CLI reads
// it; the native binary finds it beside itself or in the source tree).

import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { info, PKG, SITE } from './lib.mjs';
import { SITE_LOG_OVERRIDE, siteGlue } from './site-glue.mjs';

export const TEMPLATE_NAME = 'gdlkit-standalone.html';

/** One self-contained ES module bundle of `entry` (no chunks: nothing to fetch). */
async function bundle(entry) {
  const esbuild = createRequire(import.meta.url)('esbuild');
  const out = await esbuild.build({
    plugins: [siteGlue],
    logOverride: SITE_LOG_OVERRIDE,
    entryPoints: [join(SITE, entry)],
    bundle: true,
    format: 'esm',
    splitting: false,
    minify: true,
    target: 'es2022',
    loader: { '.css': 'text' },
    write: false,
    logLevel: 'warning',
    legalComments: 'none',
  });
  return out.outputFiles[0].text;
}

/** JavaScript that can sit inside <script>…</script> (no end tag, no comment opener). */
function scriptSafe(js) {
  return js.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

export async function buildStandalone() {
  const worker = scriptSafe(await bundle('src/engine/worker.js'));
  const page = scriptSafe(await bundle('src/standalone.js'));
  // The page's wasm (site/pkg/), which the bundles above were made for.
  const wasm = readFileSync(join(SITE, 'pkg', 'gdlkit_bg.wasm')).toString('base64').replace(/.{1,120}/g, '$&\n');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="gdlkit standalone export">
<link rel="icon" href="data:,">
<title><!--gdlkit:title--></title>
<style>
html, body { margin: 0; height: 100%; font-family: system-ui, sans-serif; }
body { display: flex; flex-direction: column; }
gdl-tree, gdl-play { flex: 1; min-height: 0; display: block; }
p[role="alert"] { color: #a31515; margin: 1rem; }
@media print { gdl-tree, gdl-play { height: 95vh; flex: none; } }
</style>
</head>
<body>
<!--gdlkit:content-->
<script type="text/plain" id="gdlkit-worker">${worker}</script>
<script type="text/plain" id="gdlkit-wasm">
${wasm}</script>
<script type="module">${page}</script>
</body>
</html>
`;
  writeFileSync(join(SITE, 'build', 'standalone.html'), html);
  writeFileSync(join(PKG, TEMPLATE_NAME), html);
  info(`standalone template: ${(html.length / 1024).toFixed(0)} KiB (pkg/${TEMPLATE_NAME}, site/build/standalone.html)`);
}
