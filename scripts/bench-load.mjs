// First-load benchmark (BENCHMARKS.md, "First load"; `npm run bench:load`):
// navigation to an interactive editor, to the first diagnostic and to the
// engine's wasm loaded (the version in the header) on a slow
// connection (1.6 Mbit/s down, 150 ms latency, DevTools network emulation in
// headless Chromium), and the bytes on the wire (gzip) before the editor is
// interactive and in all. Needs a built site (`npm run build`).
//
// `--base DIR` measures another built site (e.g. main's site/ copied
// aside) in the same run, alternating runs, for a before/after table.
//
// Usage: node scripts/bench-load.mjs [--runs N] [--base DIR] [--fast] [--requests]
//   --fast      no throttling (localhost speed)
//   --requests  list every request of the last run (bytes, start and end time)

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadavg } from 'node:os';
import { chromium } from 'playwright-core';
import { measureFirstLoad, SLOW_3G } from './first-load.mjs';
import { CHROMIUM_ARGS, hasFlag, SITE } from './lib.mjs';
import { serve } from './serve.mjs';
import { browserPaths } from './setup.mjs';

const option = (name) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const RUNS = Number(option('--runs') ?? 3);
const BASE = option('--base');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const ms = (n) => `${Math.round(n).toLocaleString('en-US')} ms`;

async function main() {
  if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs wants a positive integer, not ${option('--runs')}`);
  const sites = [...(BASE ? [['base', resolve(BASE)]] : []), ['this tree', SITE]];
  for (const [, dir] of sites) {
    if (!existsSync(join(dir, 'build', 'app.js'))) throw new Error(`${dir}/build is missing: run \`npm run build\``);
  }
  const network = hasFlag('--fast') ? null : SLOW_3G;
  const servers = await Promise.all(sites.map(([, root]) => serve({ root, port: 0, quiet: true, gzip: true })));
  const browser = await chromium.launch({ executablePath: browserPaths().chromium, args: CHROMIUM_ARGS });
  const results = sites.map(() => []);
  try {
    for (let run = 0; run < RUNS; run++) {
      for (let i = 0; i < sites.length; i++) {
        results[i].push(await measureFirstLoad(browser, servers[i].url, { network, engine: true }));
        process.stderr.write('.');
      }
    }
  } finally {
    await browser.close();
    for (const s of servers) s.server.close();
  }
  process.stderr.write('\n');
  const conditions = network ? '1.6 Mbit/s down, 150 ms latency' : 'no throttling';
  console.log(`First load of ?view=editor&game=ticTacToe, ${conditions}, gzip, no cache; median of ${RUNS} runs; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log('');
  console.log('| site | first paint | editor interactive | first diagnostic (from) | engine ready | on the wire before the editor is interactive | on the wire in all |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  sites.forEach(([name], i) => {
    const rs = results[i];
    const m = (f) => median(rs.map(f));
    // Which wasm gave the first diagnostics (sites before the check wasm do not say: the engine's).
    const from = [...new Set(rs.map((r) => r.diagnostics.wasm ?? 'engine'))].join('/');
    console.log(`| ${name} | ${ms(m((r) => r.paintMs))} | ${ms(m((r) => r.editorMs))} | ${ms(m((r) => r.diagnosticsMs))} (${from}) | ${ms(m((r) => r.engineMs))} | ${kib(m((r) => r.beforeEditor))} | ${kib(m((r) => r.total))} |`);
  });
  if (hasFlag('--requests')) {
    sites.forEach(([name], i) => {
      const last = results[i].at(-1);
      console.log(`\nRequests (${name}, last run):`);
      for (const r of [...last.requests].sort((a, b) => a.startedMs - b.startedMs)) {
        const end = Number.isNaN(r.endedMs) ? '' : `-${ms(r.endedMs)}`;
        console.log(`  ${`${ms(r.startedMs)}${end}`.padStart(19)}  ${kib(r.bytes).padStart(10)}  ${r.url}`);
      }
    });
  }
}

main().catch((e) => {
  console.error(`bench-load failed: ${e.message}`);
  process.exit(1);
});
