// `gdlkit serve` and `gdlkit host` in Node: the GGP protocol is the Rust
// code (GgpServer, GgpHost, GgpMatch through wasm); this file only owns the
// sockets (node:net), the log file and the output files.

import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { wasm } from './wasm.js';

/** `gdlkit serve ARGS`: runs until the process ends. */
export function serve(args) {
  const server = new wasm.GgpServer(args);
  const logFile = server.log;
  const log = (line) => {
    const text = `${wasm.GgpServer.logLine(line)}\n`;
    if (logFile) appendFileSync(logFile, text);
    else process.stderr.write(text);
  };
  // Half-open: a client that ends its request (a POST without a length)
  // still gets the reply.
  const listener = net.createServer({ allowHalfOpen: true }, (socket) => connection(server, socket, log));
  listener.on('error', (e) => {
    process.stderr.write(`gdlkit serve: cannot listen on ${server.host}:${server.port}: ${e.message}\n`);
    process.exitCode = 2;
  });
  listener.listen(server.port, server.host, () => {
    const a = listener.address();
    log(server.banner(`${a.address}:${a.port}`));
  });
  if (!server.relay) ponder(server);
}

/** Milliseconds of one pondering slice: a request's bytes wait at most this long to be read. */
const PONDER_SLICE_MS = 50;

/**
 * Thinks on the opponents' time while no request is being read, as the
 * native server does: slices of the event loop's idle time, each followed
 * by the reading of whatever arrived meanwhile; an idle player (no match,
 * a solved game) is asked again after a while.
 */
function ponder(server) {
  const slice = () => {
    const added = load.open === 0 ? server.ponder(PONDER_SLICE_MS) : 0;
    setTimeout(slice, added > 0 ? 0 : 100).unref();
  };
  setTimeout(slice, 100).unref();
}

/** Connections open and bytes of requests held, over all connections. */
const load = { open: 0, held: 0 };

/**
 * One connection, as the native server (`ggp/net.rs`) serves it: the request
 * has a total deadline from the connection (not per read), each piece read is
 * handed to wasm once (linear however the request is split), a refusal (413
 * for an announced body over the cap, 503 past the server's load bounds) is
 * sent at once and the rest of the request dropped for a while so that the
 * client receives it. Nothing here blocks while bytes arrive: other
 * connections are served meanwhile.
 */
function connection(server, socket, log) {
  const peer = `${socket.remoteAddress}:${socket.remotePort}`;
  const incoming = new wasm.GgpIncoming();
  let arrival;
  let held = 0;
  let done = false;
  const release = () => {
    if (done) return false;
    done = true;
    clearTimeout(deadline);
    incoming.free();
    load.open -= 1;
    load.held -= held;
    return true;
  };
  const finish = (r) => {
    if (!release()) return;
    socket.end(Buffer.from(r.response));
    log(`${peer} ${r.log}`);
    // Read and drop what still comes, then close (closing at once could
    // reset the connection before the client has read the reply).
    setTimeout(() => socket.destroy(), wasm.GgpServer.lingerMs()).unref();
  };
  const now = () => arrival ?? performance.now();
  let forwarded = false;
  const answer = (closed) => {
    if (done || forwarded) return;
    if (server.relay) {
      relay(server, incoming, closed, finish, () => {
        forwarded = true;
        clearTimeout(deadline);
      });
      return;
    }
    const r = server.respondTo(incoming, closed, now());
    if (r !== undefined) finish(r);
  };
  const deadline = setTimeout(() => finish(server.late(now())), wasm.GgpServer.deadlineMs());
  load.open += 1;
  socket.on('error', release);
  socket.on('close', release);
  if (load.open > wasm.GgpServer.maxConnections()) {
    finish(server.busy(true, now()));
    return;
  }
  socket.on('data', (d) => {
    if (done) return;
    arrival ??= performance.now();
    if (load.held + d.length > wasm.GgpServer.maxBuffered()) {
      finish(server.busy(false, now()));
      return;
    }
    held += d.length;
    load.held += d.length;
    incoming.push(d);
    answer(false);
  });
  socket.on('end', () => answer(true));
}

/**
 * `--relay URL`: once the request is read, posts its message to the player
 * and finishes with the player's reply (CORS headers added by wasm).
 * `forwarding()` marks the request read (its deadline no longer applies).
 */
function relay(server, incoming, closed, finish, forwarding) {
  const step = wasm.GgpServer.relayStep(incoming, closed);
  if (step === undefined) return;
  if (step.forward === undefined) {
    finish(step);
    return;
  }
  forwarding();
  const t0 = performance.now();
  post(server.relay, step.forward, wasm.GgpServer.relayTimeoutMs()).then((answer) =>
    finish(server.relayReply(step.forward, answer, performance.now() - t0)),
  );
}

/** Sends one message to a player; resolves to a GgpMatch answer. */
export function post(url, body, timeoutMs) {
  return new Promise((resolve) => {
    let request;
    let target;
    try {
      request = wasm.ggpRequest(url, body);
      target = new URL(url);
    } catch (e) {
      resolve({ error: 'connection', detail: String(e.message ?? e) });
      return;
    }
    const incoming = new wasm.GgpIncoming();
    let settled = false;
    const finish = (answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      incoming.free();
      resolve(answer);
    };
    const timer = setTimeout(() => finish({ error: 'timeout' }), Math.max(1, timeoutMs));
    const socket = net.connect({ host: target.hostname, port: Number(target.port || 9147) }, () =>
      socket.write(Buffer.from(request)),
    );
    // Each piece read is handed to wasm once: linear in the reply's size.
    socket.on('data', (d) => {
      if (settled) return;
      incoming.push(d);
      const r = wasm.ggpParseReplyFrom(incoming, false);
      if (r !== undefined) finish(r);
    });
    socket.on('end', () => {
      if (!settled) finish(wasm.ggpParseReplyFrom(incoming, true) ?? { error: 'connection', detail: 'closed' });
    });
    socket.on('error', (e) => finish({ error: 'connection', detail: e.message }));
  });
}

/** `gdlkit host ARGS`: resolves to the exit code. */
export async function host(args, readFile) {
  const h = new wasm.GgpHost(args);
  const rules = readFile(h.game);
  if (h.out) mkdirSync(h.out, { recursive: true });
  let interrupted = false;
  process.on('SIGINT', () => {
    interrupted = true;
  });
  for (let g = 0; g < h.matches; g++) {
    const m = h.newMatch(rules, g);
    const urls = m.players;
    process.stderr.write(h.header(m, g));
    while (!m.isDone) {
      if (interrupted) {
        await Promise.all(m.abort().map((r) => post(urls[r.role], r.body, r.timeoutMs)));
        break;
      }
      const answers = await Promise.all(m.requests().map((r) => post(urls[r.role], r.body, r.timeoutMs)));
      m.deliver(answers, Date.now());
      process.stderr.write(m.progress());
    }
    process.stderr.write(h.footer(m));
    if (h.out) writeFileSync(`${h.out}/${m.record().matchId}.json`, h.recordText(m));
    h.finish(m);
    if (interrupted) break;
  }
  process.stdout.write(h.report());
  return 0;
}
