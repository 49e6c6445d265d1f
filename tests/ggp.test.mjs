// The GGP protocol through Node (`npx gdlkit serve` / `host`: the protocol
// in wasm, the sockets in js/ggp-node.js), on 127.0.0.1 only: raw messages
// to a Node player server (byte-exact framing as ggp-base), and a hosted
// match between two Node servers recorded as ggp.org match JSON.
// Needs `npm run build` (pkg/).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT } from '../scripts/lib.mjs';

const CLI = join(ROOT, 'js', 'cli.js');

/** Starts `node js/cli.js serve --port 0 …`; resolves to {child, port, url, log()}. */
export function startServer(args = []) {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  const lines = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('serve did not start in 20 s')), 20_000);
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
    s.setTimeout(20_000, () => reject(new Error('no reply in 20 s')));
    s.on('data', (d) => { out += d; });
    s.on('end', () => resolve(out));
    s.on('error', reject);
  });
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

describe('gdlkit serve and host in Node', { timeout: 120_000 }, () => {
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
    const r = await run(['host', game, '--players', a.url, b.url, '--playclock', '1', '--startclock', '2', '--format', 'json']);
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
    await new Promise((res) => setTimeout(res, 200));
    assert.match(a.log(), /START gdlkit\.ticTacToe\.\d+\.1 as x/);
    assert.match(b.log(), /STOP gdlkit\.ticTacToe/);
  });

  test('a port in use is an error, not another port', async () => {
    const r = await run(['serve', '--port', String(a.port)]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /cannot listen on 127\.0\.0\.1/);
  });
});
