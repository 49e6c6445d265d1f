// The page's first load, as a visitor on a slow connection sees it: used by
// `npm run bench:load` (scripts/bench-load.mjs, timed) and by the budget test
// (tests/load.test.mjs, bytes only).
//
// One navigation to `?view=editor&game=ticTacToe` in a fresh browser context
// (no cache), the site served gzip-compressed like a static host, optionally
// throttled through the DevTools protocol (Network.emulateNetworkConditions,
// which also applies to the page's Web Workers). Every response is counted
// with its bytes on the wire (encoded body), the page's and its workers'.

/** The slow connection measured: 1.6 Mbit/s down, 750 kbit/s up, 150 ms latency. */
export const SLOW_3G = { latency: 150, downloadThroughput: (1.6e6 / 8) | 0, uploadThroughput: (750e3 / 8) | 0 };

/**
 * Loads the editor view of `url` in a new context of `browser` and waits
 * for the first diagnostics and, with `engine`, for the engine's wasm
 * (`/pkg/gdlkit_bg.wasm`) and the version it reports. Returns `{editorMs,
 * diagnosticsMs, engineMs, paintMs, beforeEditor, total, requests,
 * diagnostics}`: times from navigation start (first contentful paint,
 * editor interactive, first diagnostics shown, engine ready: NaN without
 * `engine`), bytes on the wire of the requests started before the editor
 * was interactive and of all of them, the list `{url, bytes, startedMs, endedMs}`
 * and the first diagnostics' mark detail (`{count, wasm}`: which wasm
 * answered, 'check' or 'engine'; no `wasm` on sites before the check wasm).
 */
export async function measureFirstLoad(browser, url, { network = null, timeout = 120000, engine = false } = {}) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (network) await cdp.send('Network.emulateNetworkConditions', { offline: false, ...network });
  const finished = [];
  context.on('requestfinished', (request) => {
    finished.push(
      request.sizes().then((sizes) => ({
        url: request.url(),
        bytes: sizes.responseBodySize + sizes.responseHeadersSize,
        startedAt: request.timing().startTime,
        // Milliseconds after startedAt that the last byte arrived (-1: not known).
        endAfter: request.timing().responseEnd,
      })),
    );
  });
  // The engine's wasm, fetched by its worker: waited for by its own event, so
  // that its request is among those counted below.
  const engineWasm = engine ? context.waitForEvent('requestfinished', { predicate: (r) => /\/pkg\/gdlkit_bg\.wasm$/.test(r.url()), timeout }) : null;
  engineWasm?.catch(() => {}); // awaited below; a failed navigation reports first
  try {
    await page.goto(new URL('?view=editor&game=ticTacToe', url).href, { timeout });
    await page.waitForSelector('body[data-editor-ready="true"]', { timeout });
    await page.waitForFunction(() => performance.getEntriesByName('gdlkit:diagnostics').length > 0, null, { timeout });
    let engineMs = Number.NaN;
    if (engine) {
      await engineWasm;
      // The version in the header: the engine has loaded and answered (on every site version).
      engineMs = await (await page.waitForFunction(() => document.getElementById('version')?.textContent && performance.now(), null, { timeout })).jsonValue();
    }
    const marks = await page.evaluate(() => ({
      origin: performance.timeOrigin,
      editor: performance.getEntriesByName('gdlkit:editor-ready')[0].startTime,
      diagnostics: performance.getEntriesByName('gdlkit:diagnostics')[0].startTime,
      detail: performance.getEntriesByName('gdlkit:diagnostics')[0].detail,
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
    }));
    const requests = (await Promise.all(finished)).map((r) => ({ url: r.url, bytes: r.bytes, startedMs: r.startedAt - marks.origin, endedMs: r.endAfter >= 0 ? r.startedAt - marks.origin + r.endAfter : Number.NaN }));
    const sum = (rs) => rs.reduce((n, r) => n + r.bytes, 0);
    return {
      editorMs: marks.editor,
      diagnosticsMs: marks.diagnostics,
      engineMs,
      diagnostics: marks.detail ?? {},
      paintMs: marks.paint,
      beforeEditor: sum(requests.filter((r) => r.startedMs < marks.editor)),
      total: sum(requests),
      requests,
    };
  } finally {
    await context.close();
  }
}
