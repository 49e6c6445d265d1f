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
  const listener = net.createServer((socket) => {
    let buf = Buffer.alloc(0);
    let answered = false;
    const peer = `${socket.remoteAddress}:${socket.remotePort}`;
    const answer = (closed) => {
      if (answered) return;
      const r = server.respond(buf, closed);
      if (r === undefined) return;
      answered = true;
      socket.end(Buffer.from(r.response));
      log(`${peer} ${r.log}`);
    };
    socket.setTimeout(10_000, () => {
      answer(true);
      socket.destroy();
    });
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      answer(false);
    });
    socket.on('end', () => answer(true));
    socket.on('error', () => {});
  });
  listener.on('error', (e) => {
    process.stderr.write(`gdlkit serve: cannot listen on ${server.host}:${server.port}: ${e.message}\n`);
    process.exitCode = 2;
  });
  listener.listen(server.port, server.host, () => {
    const a = listener.address();
    log(server.banner(`${a.address}:${a.port}`));
  });
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
    let buf = Buffer.alloc(0);
    let settled = false;
    const finish = (answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => finish({ error: 'timeout' }), Math.max(1, timeoutMs));
    const socket = net.connect({ host: target.hostname, port: Number(target.port || 9147) }, () =>
      socket.write(Buffer.from(request)),
    );
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      const r = wasm.ggpParseReply(buf, false);
      if (r !== undefined) finish(r);
    });
    socket.on('end', () => finish(wasm.ggpParseReply(buf, true) ?? { error: 'connection', detail: 'closed' }));
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
