// The GGP protocol through Node (`npx gdlkit serve` / `host`: the protocol
// in wasm, the sockets in js/ggp-node.js), on 127.0.0.1 only: raw messages
// to a Node player server (byte-exact framing as ggp-base), and a hosted
// match between two Node servers recorded as ggp.org match JSON, and the
// page's Match view hosting a match against a local `serve` (Playwright,
// headless Chromium). Needs `npm run build` (pkg/, site/).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { ARTIFACTS, CHROMIUM_ARGS, ROOT, SITE } from '../scripts/lib.mjs';
import { serve as serveSite } from '../scripts/serve.mjs';
import { browserPaths } from '../scripts/setup.mjs';

const CLI = join(ROOT, 'js', 'cli.js');

/** Starts `node js/cli.js serve --port 0 …`; resolves to {child, port, url, log()}. */
export function startServer(args = []) {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  const lines = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('serve did not start in 60 s')), 60_000);
    createInterface({ input: child.stderr }).on('line', (line) => {
      lines.push(line);
      const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(line);
      if (m && lines.length === 1) {
        clearTimeout(timer);
        const port = Number(m[1]);
        resolve({ child, port, url: `http://127.0.0.1:${port}`, log: () => lines.join('\n') });
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${lines.join('\n')}`)));
  });
}

/** Sends raw bytes; resolves to the whole reply text. */
function raw(port, text) {
  return new Promise((resolve, reject) => {
    let out = '';
    const s = net.connect({ host: '127.0.0.1', port }, () => s.write(text));
    s.setTimeout(60_000, () => reject(new Error('no reply in 60 s')));
    s.on('data', (d) => { out += d; });
    s.on('end', () => resolve(out));
    s.on('error', reject);
  });
}

/**
 * Resolves once the server's log matches `re` (a server logs a message after
 * replying to it, so the reply alone does not mean the line is there yet);
 * rejects after 60 s, a hang bound only.
 */
async function logMatching(server, re) {
  for (const started = Date.now(); Date.now() - started < 60_000;) {
    if (re.test(server.log())) return server.log();
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no log line matching ${re} in 60 s:\n${server.log()}`);
}

const post = (port, body) => raw(port, `POST / HTTP/1.0\r\nAccept: text/delim\r\nHost: localhost\r\nSender: GAMESERVER\r\nReceiver: p\r\nContent-Type: text/acl\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`)
  .then((r) => r.slice(r.indexOf('\r\n\r\n') + 4));

function run(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('gdlkit serve and host in Node', { timeout: 300_000 }, () => {
  let a;
  let b;
  before(async () => {
    [a, b] = await Promise.all([startServer(['--player', 'random']), startServer(['--player', 'legal'])]);
  });
  after(() => {
    a?.child.kill();
    b?.child.kill();
  });

  test('INFO, OPTIONS, a malformed message: framed as ggp-base', async () => {
    const info = await raw(a.port, 'POST / HTTP/1.0\r\nContent-Type: text/acl\r\nContent-Length: 8\r\n\r\n( INFO )');
    assert.equal(info, 'HTTP/1.0 200 OK\r\nContent-type: text/acl\r\nContent-length: 40\r\nAccess-Control-Allow-Origin: *\r\n'
      + 'Access-Control-Allow-Methods: POST, GET, OPTIONS\r\nAccess-Control-Allow-Headers: Content-Type\r\n'
      + 'Access-Control-Allow-Age: 86400\r\n\r\n( ( name gdlkit ) ( status available ) )');
    const pre = await raw(a.port, 'OPTIONS / HTTP/1.1\r\nOrigin: http://x\r\n\r\n');
    assert.match(pre, /Content-length: 0\r\n[\s\S]*\r\n\r\n$/);
    assert.match(await post(a.port, '(start m1 r'), /^\( error "/);
    assert.equal(await post(a.port, '( abort nothing )'), 'busy');
    assert.equal(await post(a.port, '( INFO )'), '( ( name gdlkit ) ( status available ) )', 'still serving');
  });

  test('host plays a match between two Node servers and records it', async () => {
    const game = join(ROOT, 'games', 'ticTacToe.kif');
    // random and legal answer at once: the long clocks only keep a loaded
    // machine from turning a slow reply into a recorded timeout.
    const r = await run(['host', game, '--players', a.url, b.url, '--playclock', '5', '--startclock', '20', '--format', 'json']);
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.equal(report.matches.length, 1);
    const m = report.matches[0];
    for (const field of ['matchId', 'startTime', 'startClock', 'playClock', 'gameRoleNames', 'playerNamesFromHost', 'states', 'moves', 'errors', 'stateTimes', 'goalValues', 'isCompleted', 'isAborted']) {
      assert.ok(field in m, `no ${field}`);
    }
    assert.deepEqual(m.gameRoleNames, ['x', 'o']);
    assert.deepEqual(m.playerNamesFromHost, [a.url, b.url]);
    assert.ok(m.moves.length >= 5, 'at least five moves in tic-tac-toe');
    assert.equal(m.states.length, m.moves.length + 1);
    assert.ok(m.errors.flat().every((e) => e === ''), JSON.stringify(m.errors));
    assert.equal(m.isCompleted, true);
    assert.equal(m.goalValues.length, 2);
    assert.ok(m.goalValues.every((g) => [0, 50, 100].includes(g)));
    assert.equal(report.standings.length, 2);
    // The players logged every message of the match.
    assert.match(await logMatching(a, /START gdlkit\.ticTacToe/), /START gdlkit\.ticTacToe\.\d+\.1 as x/);
    assert.match(await logMatching(b, /STOP gdlkit\.ticTacToe/), /STOP gdlkit\.ticTacToe/);
  });

  test('a port in use is an error, not another port', async () => {
    const r = await run(['serve', '--port', String(a.port)]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /cannot listen on 127\.0\.0\.1/);
  });
});

describe('the page hosts a match (Match view)', { timeout: 300_000 }, () => {
  let player;
  let site;
  let browser;
  const built = existsSync(join(SITE, 'pkg', 'gdlkit.d.ts')) && /class GgpMatch/.test(readFileSync(join(SITE, 'pkg', 'gdlkit.d.ts'), 'utf8'));
  before(async () => {
    if (!built) return;
    mkdirSync(ARTIFACTS, { recursive: true });
    player = await startServer(['--player', 'random']);
    site = await serveSite({ port: 0, quiet: true });
    browser = await chromium.launch({ executablePath: browserPaths().chromium, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close();
    site?.server.close();
    player?.child.kill();
  });

  test('a local gdlkit serve against the page\'s engine, board drawn, JSON downloadable', { skip: !built && 'site/pkg has no GgpMatch: run `npm run build`' }, async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    ctx.setDefaultTimeout(60_000);
    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(new URL('?view=match&game=ticTacToe', site.url).href);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
    await page.waitForSelector('.match-seat select[data-role="x"]');
    // x: the local player server; o: the page's engine (random moves).
    await page.selectOption('.match-seat select[data-role="x"]', 'remote');
    await page.fill('.match-seat:nth-child(1) input.match-url', `${player.url}/`);
    await page.selectOption('.match-seat select[data-role="o"]', 'engine');
    await page.selectOption('.match-seat:nth-child(2) select[aria-label^="Engine"]', 'random');
    // The engines offered are the Rust registry's players, in its order.
    const offered = await page.$$eval('.match-seat:nth-child(2) select[aria-label^="Engine"] option', (os) => os.map((o) => o.value));
    const { players } = await import('../js/node.js');
    assert.deepEqual(offered, players().map((p) => p.name));
    // Both players answer at once; long clocks keep a loaded machine from
    // turning a slow reply into an error.
    await page.fill('input[aria-label="Start clock (s)"]', '20');
    await page.fill('input[aria-label="Play clock (s)"]', '5');
    await page.click('text=Start match');
    await page.waitForFunction(() => /Match over/.test(document.querySelector('.match-status')?.textContent ?? ''), null, { timeout: 90_000 });
    const rows = await page.locator('.match-moves tbody tr').count();
    assert.ok(rows >= 5, `at least five steps, got ${rows}`);
    assert.equal(await page.locator('.match-moves .match-error').count(), 0, 'no player erred');
    assert.ok(await page.locator('.board-box [data-cell]').count() >= 9, 'the board is drawn');
    await page.screenshot({ path: join(ARTIFACTS, 'view-match.png') });
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('text=Download match JSON')]);
    const record = JSON.parse(readFileSync(await download.path(), 'utf8'));
    assert.deepEqual(record.gameRoleNames, ['x', 'o']);
    assert.equal(record.moves.length, rows);
    assert.equal(record.isCompleted, true);
    assert.equal(record.playerNamesFromHost[0], `${player.url}/`);
    await logMatching(player, /START page\.\d+ as x/);
    assert.match(player.log(), /START page\.\d+ as x/, 'the local server played x');
    assert.match(player.log(), /OPTIONS/, 'the browser sent the CORS preflight');
    assert.deepEqual(errors, []);
    await ctx.close();
  });
});
