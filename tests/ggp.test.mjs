// The GGP protocol through Node (`npx gdlkit serve` / `host`: the protocol
// in wasm, the sockets in js/ggp-node.js), on 127.0.0.1 only: raw messages
// to a Node player server (byte-exact framing as ggp-base), and a hosted
// match between two Node servers recorded as ggp.org match JSON, and the
// page's Match view hosting a match against a local `serve` (Playwright,
// headless Chromium). Needs `npm run build` (pkg/, site/).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { ARTIFACTS, CHROMIUM_ARGS, ROOT, SITE } from '../scripts/lib.mjs';
import { serve as serveSite } from '../scripts/serve.mjs';
import { browserPaths } from '../scripts/setup.mjs';
import { exchange, goodRequest, nativeBinary, replyBody, startServer as startEither } from './http-fuzz.mjs';

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

/**
 * A player that sends no CORS headers, as Sancho and ggp-base's players
 * do: it passes each message on to the server `to` and sends the reply
 * back bare (a preflight gets an empty 200 without CORS).
 */
function noCorsPlayer(to) {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => { body += d; });
    req.on('end', async () => {
      const reply = req.method === 'POST' ? await post(to.port, body) : '';
      res.writeHead(200, { 'Content-Type': 'text/acl' });
      res.end(reply);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/` })));
}

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
      + 'Access-Control-Max-Age: 86400\r\n\r\n( ( name gdlkit ) ( status available ) )');
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

  test('host records a huge illegal reply cut and escaped, in the record and on stderr', async () => {
    // A player answering every message with 1 MB of text and control bytes
    // (a bell, an escape sequence, NUL).
    const body = `( pick ${'\u0007\u001b[2J\u0000x'.repeat(200_000)} )`;
    const reply = `HTTP/1.0 200 OK\r\nContent-type: text/acl\r\nContent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const fake = net.createServer((s) => {
      s.on('error', () => {});
      s.once('data', () => s.end(reply));
    });
    await new Promise((r) => fake.listen(0, '127.0.0.1', r));
    try {
      const game = join(ROOT, 'games', 'ticTacToe.kif');
      const r = await run(['host', game, '--players', a.url, `http://127.0.0.1:${fake.address().port}`, '--playclock', '2', '--startclock', '10', '--format', 'json']);
      assert.equal(r.code, 0, r.stderr.slice(0, 2000));
      const m = JSON.parse(r.stdout).matches[0];
      const il = m.errors.map((e) => e[1]).filter((e) => e.startsWith('IL '));
      assert.ok(il.length >= 2, JSON.stringify(m.errors).slice(0, 2000));
      for (const e of il) {
        assert.ok(e.startsWith('IL ( pick '), e.slice(0, 100));
        assert.ok([...e].length <= 3 + 200 + 1, `${[...e].length} characters`);
        assert.ok(!/\p{Cc}/u.test(e), JSON.stringify(e.slice(0, 100)));
      }
      assert.ok(r.stdout.length < 100_000, `${r.stdout.length} bytes of report`);
      assert.ok(r.stderr.length < 20_000, `${r.stderr.length} bytes of stderr`);
      assert.ok(!r.stderr.includes('\u0000') && !r.stderr.includes('\u0007'));
    } finally {
      fake.close();
    }
  });

  for (const kind of ['node', 'native']) {
    test(`${kind === 'node' ? 'npx gdlkit serve' : 'gdlkit serve'} --relay: a bare player's replies come back with CORS headers; a gone player is a 502`, async () => {
      const bare = await noCorsPlayer(a);
      const relay = await startEither(kind, ['--relay', bare.url], kind === 'native' ? nativeBinary() : undefined);
      const gone = await startEither(kind, ['--relay', 'http://127.0.0.1:9/'], kind === 'native' ? nativeBinary() : undefined);
      try {
        assert.match(relay.log(), /relay on http:\/\/127\.0\.0\.1:\d+\/ to http:\/\/127\.0\.0\.1:\d+\//);
        const direct = await raw(bare.server.address().port, 'POST / HTTP/1.0\r\nContent-Length: 8\r\n\r\n( INFO )');
        assert.doesNotMatch(direct, /Access-Control/, 'the bare player sends no CORS headers');
        const info = await raw(relay.port, 'POST / HTTP/1.0\r\nContent-Type: text/acl\r\nContent-Length: 8\r\n\r\n( INFO )');
        assert.match(info, /^HTTP\/1\.0 200 OK\r\n[\s\S]*Access-Control-Allow-Origin: \*\r\n[\s\S]*\r\n\r\n\( \( name gdlkit \) \( status available \) \)$/);
        const pre = await raw(relay.port, 'OPTIONS / HTTP/1.1\r\nOrigin: http://x\r\n\r\n');
        assert.match(pre, /^HTTP\/1\.0 200 [\s\S]*Access-Control-Allow-Headers: Content-Type\r\n/);
        const failed = await raw(gone.port, 'POST / HTTP/1.0\r\nContent-Length: 8\r\n\r\n( INFO )');
        assert.match(failed, /^HTTP\/1\.0 502 [\s\S]*Access-Control-Allow-Origin: \*[\s\S]*\( error "http:\/\/127\.0\.0\.1:9\/: /);
        await logMatching(gone, /\( INFO \): http:\/\/127\.0\.0\.1:9\//);
      } finally {
        relay.child.kill();
        gone.child.kill();
        bare.server.close();
      }
    });
  }

  test('npx gdlkit serve ponders between messages: the tree grows on the opponent\'s time', async () => {
    // As tests for the native session (ggp/session/tests.rs): connect four
    // as red, 50 playouts a move; one server ponders while yellow thinks,
    // the other (ponder=off) does not. The next move's tree tells them
    // apart. Connect four, not tic-tac-toe: pondering would soon prove
    // tic-tac-toe's tree and stop, however long yellow thinks.
    const rules = readFileSync(join(ROOT, 'games', 'connectFour.kif'), 'utf8').replace(/;.*$/gm, '');
    const spec = 'mcts:solver=on,transpositions=off,playouts=50';
    const [on, off] = await Promise.all([startServer(['--player', spec, '--no-solve']), startServer(['--player', `${spec},ponder=off`, '--no-solve'])]);
    try {
      // The nodes of the last searched move (a forced noop is not searched).
      const nodes = (server) => Number(/\((\d+) nodes/.exec(server.log().split('\n').filter((l) => / nodes/.test(l)).at(-1) ?? '')?.[1]);
      let ours;
      for (const server of [on, off]) {
        assert.equal(await post(server.port, `( START m red ( ${rules} ) 60 30 )`), 'ready');
        ours = await post(server.port, '( PLAY m NIL )');
        assert.equal(await post(server.port, `( PLAY m ( ${ours} noop ) )`), 'noop');
      }
      await new Promise((r) => setTimeout(r, 1500)); // yellow thinks; only `on` ponders
      for (const server of [on, off]) await post(server.port, '( PLAY m ( noop ( drop 4 ) ) )');
      const searchedTwice = /\(\d+ nodes[\s\S]*\(\d+ nodes/;
      await Promise.all([logMatching(on, searchedTwice), logMatching(off, searchedTwice)]);
      assert.ok(nodes(on) >= nodes(off) + 50, `pondered: ${nodes(on)} nodes; not: ${nodes(off)}\n${on.log()}`);
    } finally {
      on.child.kill();
      off.child.kill();
    }
  });

  test('serve --relay takes no player options', async () => {
    const r = await run(['serve', '--relay', 'http://127.0.0.1:9311/', '--player', 'random']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /cannot be used with/);
    const bad = await run(['serve', '--relay', 'ftp://x']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--relay/);
  });

  test('a port in use is an error, not another port', async () => {
    const r = await run(['serve', '--port', String(a.port)]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /cannot listen on 127\.0\.0\.1/);
  });
});

// The cut-off test waits 10 s: it runs beside the others.
describe('a slow client and a 30 MB request delay no good client', { timeout: 300_000, concurrency: true }, () => {
  const rules = readFileSync(join(ROOT, 'games', 'ticTacToe.kif'), 'utf8');
  describe('both servers, in turn', { concurrency: false }, () => {
  for (const kind of ['node', 'native']) {
    test(`${kind === 'node' ? 'npx gdlkit serve (Node)' : 'gdlkit serve (native)'}: PLAY and INFO answered within 1 s of an idle server's time`, async () => {
      const server = await startEither(kind, ['--player', 'random'], kind === 'native' ? nativeBinary() : undefined);
      try {
        const info = await goodRequest(server.port, '( INFO )');
        assert.equal(info.body, '( ( name gdlkit ) ( status available ) )');
        const start = await goodRequest(server.port, `( START slow.1 o ( ${rules.replace(/;.*$/gm, '')} ) 10 5 )`);
        assert.equal(start.body, 'ready');
        // One client sends a byte every 100 ms and never ends; another 30 MB
        // of INFO (whitespace inside the list) in 1 MB pieces 100 ms apart.
        const slowBytes = [...'POST / HTTP/1.0\r\nContent-Length: 1000\r\n\r\n( INFO )'].map((c) => Buffer.from(c));
        const slow = exchange(server.port, slowBytes, { delayMs: 100, finish: 'hold', holdMs: 1000 });
        const body = Buffer.alloc(30 << 20, 32);
        body.write('( INFO');
        body.write(')', body.length - 1);
        const head = Buffer.from(`POST / HTTP/1.0\r\nContent-Length: ${body.length}\r\n\r\n`);
        const pieces = [head, ...Array.from({ length: 30 }, (_, i) => body.subarray(i << 20, (i + 1) << 20))];
        let bigDone = false;
        const big = exchange(server.port, pieces, { delayMs: 100, timeoutMs: 120_000 }).then((r) => {
          bigDone = true;
          return r;
        });
        await new Promise((r) => setTimeout(r, 500));
        const play = await goodRequest(server.port, '( PLAY slow.1 NIL )');
        const during = await goodRequest(server.port, '( INFO )');
        assert.equal(play.body, 'noop');
        assert.equal(during.body, '( ( name gdlkit ) ( status busy ) )');
        assert.ok(!bigDone, 'the 30 MB request ended before the good client\'s: nothing was tested');
        for (const [name, r] of [['PLAY', play], ['INFO', during]]) {
          assert.ok(r.ms < 1000 + info.ms, `${name} answered after ${r.ms.toFixed(0)} ms (idle server: ${info.ms.toFixed(0)} ms)`);
        }
        assert.equal((await goodRequest(server.port, '( ABORT slow.1 )')).body, 'aborted');
        // The 30 MB request was read whole and answered; the slow one is
        // still unanswered (its deadline is 10 s) when its client leaves.
        assert.equal(replyBody((await big).reply), '( ( name gdlkit ) ( status available ) )');
        assert.equal((await slow).reply.length, 0);
      } finally {
        server.child.kill();
      }
    });
  }
  });

  test('npx gdlkit serve: a trickling client is cut off 10 s after connecting; an announced body over the cap gets 413 at once', async () => {
    const server = await startEither('node', ['--player', 'random']);
    try {
      // A byte every 300 ms for 15 s: a deadline per read would never pass.
      const bytes = [...'POST / HTTP/1.0\r\nContent-Length: 1000\r\n\r\n( INFO )'.repeat(2)].map((c) => Buffer.from(c));
      const slow = exchange(server.port, bytes, { delayMs: 300, finish: 'hold', holdMs: 5000 });
      const huge = await exchange(server.port, [Buffer.from('POST / HTTP/1.0\r\nContent-Length: 1000000000000000\r\n\r\n( INFO '), Buffer.alloc(1 << 20, 32)], { finish: 'hold', holdMs: 10_000 });
      assert.match(huge.reply.toString(), /^HTTP\/1\.0 413 /);
      assert.ok(huge.ms < 8000, `413 after ${huge.ms.toFixed(0)} ms`);
      const r = await slow;
      assert.match(r.reply.toString(), /^HTTP\/1\.0 400 [\s\S]*within 10 s/);
      assert.ok(r.ms >= 9000 && r.ms < 40_000, `cut off after ${r.ms.toFixed(0)} ms`);
    } finally {
      server.child.kill();
    }
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
    const ctx = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 900 }, acceptDownloads: true });
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

  test('a player without CORS headers: refused by the browser directly, played cleanly through `serve --relay`', { skip: !built && 'site/pkg has no GgpMatch: run `npm run build`' }, async () => {
    const bare = await noCorsPlayer(player);
    const relay = await startServer(['--relay', bare.url]);
    const ctx = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 900 } });
    try {
      ctx.setDefaultTimeout(60_000);
      /** One match on a new page, x at `url`, o the page's random player: the error cells. */
      const match = async (url) => {
        const page = await ctx.newPage();
        await page.goto(new URL('?view=match&game=ticTacToe', site.url).href);
        await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
        await page.waitForSelector('.match-seat select[data-role="x"]');
        await page.selectOption('.match-seat select[data-role="x"]', 'remote');
        await page.fill('.match-seat:nth-child(1) input.match-url', url);
        await page.selectOption('.match-seat select[data-role="o"]', 'engine');
        await page.selectOption('.match-seat:nth-child(2) select[aria-label^="Engine"]', 'random');
        await page.fill('input[aria-label="Start clock (s)"]', '20');
        await page.fill('input[aria-label="Play clock (s)"]', '5');
        await page.click('text=Start match');
        await page.waitForFunction(() => /Match over/.test(document.querySelector('.match-status')?.textContent ?? ''), null, { timeout: 120_000 });
        assert.ok((await page.locator('.match-moves tbody tr').count()) >= 5, 'a whole game');
        return page.locator('.match-moves .match-error').allTextContents();
      };
      const direct = await match(bare.url);
      assert.ok(direct.length >= 3 && direct.every((e) => /CE/.test(e)), `every message to the bare player failed: ${direct.join(' ')}`);
      assert.deepEqual(await match(`${relay.url}/`), [], `through the relay: no error\n${relay.log()}`);
      await logMatching(relay, /START page\.\d+ x .* -> http:\/\/127\.0\.0\.1:\d+\/ -> ready/);
    } finally {
      await ctx.close();
      relay.child.kill();
      bare.server.close();
    }
  });
});
