// A fuzzer of the GGP player servers at their socket: the native `gdlkit
// serve` and the Node one (`npx gdlkit serve`, js/ggp-node.js) get arbitrary
// byte streams (random bytes, mutated GGP requests, odd, huge, negative and
// duplicate Content-Lengths, chunked bodies, large bodies), split at
// arbitrary points and sent slowly, then ended, dropped or left open. After
// each case a concurrent good client's INFO must have been answered within
// a deadline, the server must still run, and any reply the hostile client
// got must be a whole HTTP/1.0 reply (its Content-length equal to its body);
// a client that ended its request must get one. Seeded: a failure is
// replayed by its seed and case number.
//
// Run by tests/http-fuzz.test.mjs (a few seconds, in `npm test`) and by
// `npm run fuzz -- --targets http --seconds N` (scripts/fuzz.mjs); the
// helpers serve tests/ggp.test.mjs too.

import { spawn } from 'node:child_process';
import net from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT } from '../scripts/lib.mjs';

export { nativeBinary } from '../scripts/lib.mjs';

/**
 * Starts a player server on a free port: `native` (the binary at `bin`) or
 * `node` (`node js/cli.js serve`). Resolves to {kind, child, port, log(), exited}.
 */
export function startServer(kind, args = [], bin = undefined) {
  const [cmd, pre] = kind === 'native' ? [bin, []] : [process.execPath, [join(ROOT, 'js', 'cli.js')]];
  const child = spawn(cmd, [...pre, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  const lines = [];
  const server = { kind, child, port: 0, exited: null, log: () => lines.join('\n') };
  child.on('exit', (code, signal) => {
    server.exited = code ?? signal;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${kind} serve did not start in 60 s`)), 60_000);
    createInterface({ input: child.stderr }).on('line', (line) => {
      lines.push(line);
      const m = /127\.0\.0\.1:(\d+)/.exec(line);
      if (m && lines.length === 1) {
        clearTimeout(timer);
        server.port = Number(m[1]);
        resolve(server);
      }
    });
    child.on('exit', () => reject(new Error(`${kind} serve exited: ${lines.join('\n')}`)));
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Sends `pieces` (Buffers) `delayMs` apart, then `end`s (half-close),
 * `destroy`s or `hold`s the connection (closed after `holdMs`); resolves to
 * {reply: Buffer, ms (until the reply ended or the connection closed)}.
 */
export function exchange(port, pieces, { delayMs = 0, finish = 'end', holdMs = 300, timeoutMs = 30_000 } = {}) {
  return new Promise((resolve) => {
    const t = performance.now();
    const chunks = [];
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ reply: Buffer.concat(chunks), ms: performance.now() - t, timedOut: timedOut });
    };
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      done();
    }, timeoutMs);
    const socket = net.connect({ host: '127.0.0.1', port }, async () => {
      for (const p of pieces) {
        if (settled || socket.destroyed) return;
        socket.write(p);
        if (delayMs > 0) await sleep(delayMs);
      }
      if (finish === 'end') socket.end();
      else if (finish === 'destroy') done();
      else setTimeout(done, holdMs);
    });
    socket.on('data', (d) => chunks.push(d));
    socket.on('end', done);
    socket.on('close', done);
    socket.on('error', () => {});
  });
}

/** A message as ggp-base's manager frames it. */
export function ggpRequest(body) {
  return Buffer.from(
    `POST / HTTP/1.0\r\nAccept: text/delim\r\nHost: 127.0.0.1\r\nSender: GAMESERVER\r\nReceiver: p\r\nContent-Type: text/acl\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** The body of a whole HTTP reply, or an error saying what is wrong with it. */
export function replyBody(reply) {
  const text = reply.toString('latin1');
  const head = text.indexOf('\r\n\r\n');
  if (!/^HTTP\/1\.0 (200|400|413|503) /.test(text) || head < 0) {
    throw new Error(`not an HTTP/1.0 reply: ${JSON.stringify(text.slice(0, 120))}`);
  }
  const len = Number(/\r\nContent-length: (\d+)\r\n/.exec(text.slice(0, head + 2))?.[1]);
  const body = reply.subarray(Buffer.byteLength(text.slice(0, head + 4), 'latin1'));
  if (len !== body.length) {
    throw new Error(`Content-length ${len} but ${body.length} bytes of body`);
  }
  return body.toString();
}

/** Sends `message` as a good client; resolves to {body, ms}. */
export async function goodRequest(port, message) {
  const r = await exchange(port, [ggpRequest(message)], { timeoutMs: 60_000 });
  return { body: r.reply.length ? replyBody(r.reply) : '', ms: r.ms };
}

/** A seeded generator of floats in [0, 1) (mulberry32). */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TINY_RULES = '( ( role a ) ( init ( s 0 ) ) ( legal a go ) ( <= ( next ( s 1 ) ) ( true ( s 0 ) ) ) ( <= terminal ( true ( s 1 ) ) ) ( goal a 100 ) )';
const TEMPLATES = [
  ggpRequest('( INFO )'),
  ggpRequest('( PLAY fuzz.1 NIL )'),
  ggpRequest('( STOP fuzz.1 NIL )'),
  ggpRequest('( ABORT fuzz.1 )'),
  ggpRequest(`( START fuzz.1 a ${TINY_RULES} 5 5 )`),
  Buffer.from('GET /?(info) HTTP/1.1\r\nHost: x\r\n\r\n'),
  Buffer.from('GET /?%28play%20fuzz.1%20nil%29 HTTP/1.1\r\n\r\n'),
  Buffer.from('OPTIONS / HTTP/1.1\r\nOrigin: http://x\r\n\r\n'),
];
const LENGTHS = ['-1', '', ' 8', '+8', '0x8', '8, 8', '1e3', 'NaN', '99999999999999999999999', '18446744073709551616', '1000000000000000', '33554433', '33554400', '0', '4294967304'];

/** A hostile case from `rng`: {label, pieces, delayMs, finish}. */
export function hostileCase(rng) {
  const int = (n) => Math.floor(rng() * n);
  const pick = (xs) => xs[int(xs.length)];
  const kinds = ['random', 'mutated', 'length', 'chunked', 'large', 'slow'];
  const kind = pick(kinds);
  let bytes;
  let label = kind;
  if (kind === 'random') {
    bytes = Buffer.from(Array.from({ length: int(3000) }, () => int(256)));
  } else if (kind === 'mutated') {
    bytes = mutate(Buffer.from(pick(TEMPLATES)), rng);
  } else if (kind === 'length') {
    const lens = Array.from({ length: 1 + int(2) }, () => pick(LENGTHS));
    label = `length ${JSON.stringify(lens)}`;
    bytes = Buffer.from(`POST / HTTP/1.0\r\n${lens.map((l) => `Content-Length: ${l}\r\n`).join('')}\r\n( INFO )`);
  } else if (kind === 'chunked') {
    bytes = Buffer.from(`POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n${rng() < 0.5 ? 'Content-Length: 5\r\n' : ''}\r\n8\r\n( INFO )\r\n0\r\n\r\n`);
  } else if (kind === 'large') {
    // Mostly up to 4 MB; one in five 16 to 31 MB (under the 32 MB cap).
    const size = rng() < 0.8 ? int(4 << 20) : (16 << 20) + int(15 << 20);
    const announced = rng() < 0.3 ? 33_554_433 + int(1e9) : size + 8;
    label = `large ${size} announced ${announced}`;
    bytes = Buffer.concat([Buffer.from(`POST / HTTP/1.0\r\nContent-Length: ${announced}\r\n\r\n( INFO`), Buffer.alloc(size, 32), Buffer.from(' )')]);
  } else {
    bytes = mutate(Buffer.from(pick(TEMPLATES)), rng, 0);
  }
  const pieces = split(bytes, kind === 'slow' ? 10 + int(30) : 1 + int(8), rng);
  const delayMs = kind === 'slow' ? 10 + int(30) : int(3) * int(10);
  const finish = pick(['end', 'end', 'destroy', 'hold']);
  return { label: `${label}, ${bytes.length} bytes in ${pieces.length} pieces ${delayMs} ms apart, then ${finish}`, pieces, delayMs, finish };
}

/** `count` random edits: flipped, inserted, deleted and repeated bytes, line breaks. */
function mutate(b, rng, count = 1 + Math.floor(rng() * 5)) {
  let out = b;
  for (let k = 0; k < count; k++) {
    const i = Math.floor(rng() * (out.length + 1));
    const j = Math.min(out.length, i + Math.floor(rng() * 16));
    const edit = Math.floor(rng() * 6);
    const ins = [Buffer.from([Math.floor(rng() * 256)]), null, null, Buffer.from('\r\n'), Buffer.from('\n\n'), Buffer.from(' ')][edit];
    if (edit === 1) out = Buffer.concat([out.subarray(0, i), out.subarray(j)]);
    else if (edit === 2) out = Buffer.concat([out.subarray(0, j), out.subarray(i, j), out.subarray(j)]);
    else out = Buffer.concat([out.subarray(0, i), ins, out.subarray(i)]);
  }
  return out;
}

/** `bytes` cut at `n - 1` random points. */
function split(bytes, n, rng) {
  const cuts = Array.from({ length: n - 1 }, () => Math.floor(rng() * (bytes.length + 1))).sort((x, y) => x - y);
  const pieces = [];
  let at = 0;
  for (const c of [...cuts, bytes.length]) {
    pieces.push(bytes.subarray(at, c));
    at = c;
  }
  return pieces.filter((p) => p.length > 0);
}

/** Streams found by the fuzzer or the issue that once stalled or broke a server: run first, every time. */
export const REGRESSIONS = [
  { label: 'a byte every 30 ms, never ending', pieces: [...'POST / HTTP/1.0\r\nContent-Length: 1000\r\n\r\n( INFO )'].map((c) => Buffer.from(c)), delayMs: 30, finish: 'hold' },
  { label: 'Content-Length 10^15 with a body following', pieces: [Buffer.from('POST / HTTP/1.0\r\nContent-Length: 1000000000000000\r\n\r\n( INFO '), Buffer.alloc(1 << 20, 32)], delayMs: 0, finish: 'end' },
  { label: 'a negative Content-Length', pieces: [Buffer.from('POST / HTTP/1.0\r\nContent-Length: -1\r\n\r\n( INFO )')], delayMs: 0, finish: 'end' },
  { label: 'two Content-Lengths', pieces: [Buffer.from('POST / HTTP/1.0\r\nContent-Length: 8\r\nContent-Length: 100\r\n\r\n( INFO )')], delayMs: 0, finish: 'end' },
  { label: 'a POST without a length ended by a half-close', pieces: [Buffer.from('POST / HTTP/1.0\r\n\r\n( INFO )')], delayMs: 0, finish: 'end' },
  { label: 'a chunked body', pieces: [Buffer.from('POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n( INFO )\r\n0\r\n\r\n')], delayMs: 0, finish: 'end' },
];

/**
 * Runs one hostile case against `server` with a good client's INFO during
 * it; resolves to the failure text, or null.
 */
async function runCase(server, c, deadlineMs, rng) {
  const hostile = exchange(server.port, c.pieces, { delayMs: c.delayMs, finish: c.finish, timeoutMs: 20_000 });
  await sleep(Math.floor(rng() * 3 * Math.max(1, c.delayMs)));
  const good = await goodRequest(server.port, '( INFO )').catch((e) => ({ error: e.message }));
  const h = await hostile;
  if (server.exited !== null) return `the server exited (${server.exited})`;
  if (good.error) return `the good client's reply: ${good.error}`;
  if (!/^\( \( name gdlkit \) \( status (available|busy) \) \)$/.test(good.body)) return `the good client got ${JSON.stringify(good.body)}`;
  if (good.ms > deadlineMs) return `the good client waited ${good.ms.toFixed(0)} ms (deadline ${deadlineMs} ms)`;
  if (h.reply.length > 0) {
    try {
      replyBody(h.reply);
    } catch (e) {
      return `the hostile client's reply: ${e.message}`;
    }
  } else if (c.finish === 'end') {
    return `no reply to an ended request${h.timedOut ? ' within 20 s' : ''}`;
  }
  return null;
}

/**
 * Fuzzes each of `servers` (from startServer, in parallel) for `seconds`
 * (and at least `minCases` cases each, the regressions first); resolves to
 * {cases, seconds, failures: [{server, case, label, error}]}.
 */
export async function fuzzHttp(servers, { seconds, seed, minCases = 0, deadlineMs = 2000 }) {
  const started = performance.now();
  const failures = [];
  let cases = 0;
  await Promise.all(
    servers.map(async (server) => {
      for (let i = 0; ; i++) {
        const elapsed = (performance.now() - started) / 1000;
        if (i >= REGRESSIONS.length + minCases && elapsed >= seconds) break;
        if (server.exited !== null) break;
        const rng = random(seed * 1_000_003 + i);
        const c = i < REGRESSIONS.length ? REGRESSIONS[i] : hostileCase(rng);
        const error = await runCase(server, c, deadlineMs, rng);
        cases += 1;
        if (error) failures.push({ server: server.kind, case: i, label: c.label, error });
      }
    }),
  );
  return { cases, seconds: (performance.now() - started) / 1000, failures };
}
