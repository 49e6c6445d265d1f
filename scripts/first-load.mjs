// The page's first load, as a visitor on a slow connection sees it: used by
// `npm run bench:load` (scripts/bench-load.mjs, timed) and by the budget test
// (tests/load.test.mjs, bytes only).
//
// One navigation to `?view=editor&game=ticTacToe` in a fresh browser context
// (no cache), the site served gzip-compressed like a static host, optionally
// throttled through the DevTools protocol (Network.emulateNetworkConditions,
// which also applies to the page's Web Workers). Every response is counted
// with its bytes on the wire (encoded body), the page's and its workers'.

/** The connection of issue 17: 1.6 Mbit/s down, 750 kbit/s up, 150 ms latency. */
export const SLOW_3G = { latency: 150, downloadThroughput: (1.6e6 / 8) | 0, uploadThroughput: (750e3 / 8) | 0 };

/**
 * Loads the editor view of `url` in a new context of `browser` and waits
 * for the first diagnostics. Returns `{editorMs, diagnosticsMs, paintMs,
 * beforeEditor, total, requests}`: times from navigation start (first
 * contentful paint, editor interactive, first diagnostics shown), bytes
 * on the wire of the requests started before the editor was interactive
 * and of all of them, and the list `{url, bytes, startedMs}`.
 */
export async function measureFirstLoad(browser, url, { network = null, timeout = 120000 } = {}) {
  const context = await browser.newContext();
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
      })),
    );
  });
  try {
    await page.goto(new URL('?view=editor&game=ticTacToe', url).href, { timeout });
    await page.waitForSelector('body[data-editor-ready="true"]', { timeout });
    await page.waitForFunction(() => performance.getEntriesByName('gdlkit:diagnostics').length > 0, null, { timeout });
    const marks = await page.evaluate(() => ({
      origin: performance.timeOrigin,
      editor: performance.getEntriesByName('gdlkit:editor-ready')[0].startTime,
      diagnostics: performance.getEntriesByName('gdlkit:diagnostics')[0].startTime,
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
    }));
    const requests = (await Promise.all(finished)).map((r) => ({ url: r.url, bytes: r.bytes, startedMs: r.startedAt - marks.origin }));
    const sum = (rs) => rs.reduce((n, r) => n + r.bytes, 0);
    return {
      editorMs: marks.editor,
      diagnosticsMs: marks.diagnostics,
      paintMs: marks.paint,
      beforeEditor: sum(requests.filter((r) => r.startedMs < marks.editor)),
      total: sum(requests),
      requests,
    };
  } finally {
    await context.close();
  }
}
