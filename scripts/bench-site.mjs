// Site benchmarks (BENCHMARKS.md, "Static site"; `npm run bench:site`): needs a built site
// (`npm run build`) and Chromium (as for `npm test`).
//
//   1. time from navigation to an interactive editor on localhost
//      (`?view=editor`, fresh browser context each run, no cache),
//   2. the size of the shipped JavaScript and wasm, raw and gzip,
//   3. keystroke-to-diagnostic latency on the largest corpus game,
//      ../shared/games/repository/duplicateStateLarge.kif (read here for
//      the measurement only: it is never shipped with the site).
//
// Usage: node scripts/bench-site.mjs [--runs N] [--keys N]

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync, gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, ROOT, SITE } from './lib.mjs';
import { serve } from './serve.mjs';
import { browserPaths } from './setup.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const RUNS = arg('--runs', 9);
const KEYS = arg('--keys', 20);
const LARGE = join(ROOT, '..', 'shared', 'games', 'repository', 'duplicateStateLarge.kif');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const ms = (n) => `${n.toFixed(0)} ms`;

function sizes() {
  const build = join(SITE, 'build');
  const files = readdirSync(build).filter((f) => f.endsWith('.js'));
  const row = (label, paths) => {
    let raw = 0;
    let gz = 0;
    for (const p of paths) {
      const data = readFileSync(p);
      raw += data.length;
      gz += gzipSync(data, { level: 9 }).length;
    }
    return { label, raw, gz };
  };
  // What the editor view loads: the entry, its static chunks, the editor chunk and the worker.
  const app = readFileSync(join(build, 'app.js'), 'utf8');
  const imported = new Set(['app.js']);
  for (const m of app.matchAll(/from\s*"\.\/([^"]+\.js)"|import\("\.\/([^"]+\.js)"\)/g)) imported.add(m[1] ?? m[2]);
  const editorChunk = files.find((f) => f.startsWith('view-'));
  const editorFiles = [...new Set([...imported].filter((f) => !f.startsWith('play-') && !f.startsWith('tree-view-')).concat(editorChunk ?? [], 'worker.js'))];
  return [
    row(`JavaScript, all of site/build/ (${files.length} files)`, files.map((f) => join(build, f))),
    row(`JavaScript loaded by the editor view (${editorFiles.join(', ')})`, editorFiles.map((f) => join(build, f))),
    row('CSS (app.css)', [join(build, 'app.css')]),
    row('wasm (pkg/gdlkit_bg.wasm)', [join(SITE, 'pkg', 'gdlkit_bg.wasm')]),
    // The editor's check wasm and its worker, when built.
    ...(existsSync(join(SITE, 'pkg-check', 'gdlkit_check_bg.wasm'))
      ? [row('check wasm and its worker (pkg-check/gdlkit_check_bg.wasm, build/check-worker.js)', [join(SITE, 'pkg-check', 'gdlkit_check_bg.wasm'), join(build, 'check-worker.js')])]
      : []),
  ];
}

async function timeToEditor(browser, url) {
  const times = [];
  const lint = [];
  for (let i = 0; i < RUNS; i++) {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto(`${url}?view=editor&game=ticTacToe`);
    await page.waitForSelector('body[data-editor-ready="true"]');
    await page.waitForFunction(() => performance.getEntriesByName('gdlkit:diagnostics').length > 0);
    const t = await page.evaluate(() => ({
      editor: performance.getEntriesByName('gdlkit:editor-ready')[0].startTime,
      lint: performance.getEntriesByName('gdlkit:diagnostics')[0].startTime,
    }));
    times.push(t.editor);
    lint.push(t.lint);
    await context.close();
  }
  return { times, lint };
}

async function keystrokeLatency(browser, url) {
  const text = readFileSync(LARGE, 'utf8');
  const kif = deflateSync(Buffer.from(text)).toString('base64url');
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto(`${url}?embed=1#view=editor&kif=${kif}`);
  await page.waitForSelector('body[data-editor-ready="true"]');
  await page.waitForFunction(() => performance.getEntriesByName('gdlkit:diagnostics').length > 0, null, { timeout: 30000 });
  await page.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  const total = [];
  const check = [];
  for (let i = 0; i < KEYS; i++) {
    const key = i % 2 === 0 ? ')' : 'Backspace';
    const before = await page.evaluate(() => performance.getEntriesByName('gdlkit:diagnostics').length);
    await page.evaluate(() => {
      window.__keyAt = undefined;
      addEventListener('keydown', () => { window.__keyAt ??= performance.now(); }, { capture: true, once: true });
    });
    await page.keyboard.press(key);
    await page.waitForFunction((n) => performance.getEntriesByName('gdlkit:diagnostics').length > n, before);
    const r = await page.evaluate(() => {
      const marks = performance.getEntriesByName('gdlkit:diagnostics');
      const last = marks[marks.length - 1];
      return { total: last.startTime - window.__keyAt, check: last.detail.roundTripMs, count: last.detail.count };
    });
    total.push(r.total);
    check.push(r.check);
  }
  await context.close();
  return { total, check, bytes: Buffer.byteLength(text) };
}

const { server, url } = await serve({ port: 0, quiet: true });
const browser = await chromium.launch({ executablePath: browserPaths().chromium, args: CHROMIUM_ARGS });
try {
  if (!existsSync(join(SITE, 'build', 'app.js'))) throw new Error('site/build is missing: run `npm run build`');
  console.log('## Sizes (gzip -9)');
  for (const r of sizes()) console.log(`| ${r.label} | ${kib(r.raw)} | ${kib(r.gz)} |`);
  const t = await timeToEditor(browser, url);
  console.log(`\n## Navigation → interactive editor (${RUNS} runs)`);
  console.log(`editor ready: min ${ms(Math.min(...t.times))}, median ${ms(median(t.times))}`);
  console.log(`first diagnostics shown: min ${ms(Math.min(...t.lint))}, median ${ms(median(t.lint))}`);
  if (existsSync(LARGE)) {
    const k = await keystrokeLatency(browser, url);
    console.log(`\n## Keystroke → diagnostics on duplicateStateLarge.kif (${k.bytes} bytes, ${KEYS} keystrokes)`);
    console.log(`keystroke to diagnostics on screen: min ${ms(Math.min(...k.total))}, median ${ms(median(k.total))} (includes the editor's 150 ms debounce)`);
    console.log(`check (round trip to the check worker): min ${Math.min(...k.check).toFixed(1)} ms, median ${median(k.check).toFixed(1)} ms`);
  } else {
    console.log(`\n(${LARGE} not found: no keystroke latency)`);
  }
} finally {
  await browser.close();
  server.close();
}
