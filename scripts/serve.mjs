// A tiny static file server for the site (development and tests):
// GET/HEAD only, files under one root, correct MIME types (application/wasm
// for streaming compilation), no caching.
//
// Usage: node scripts/serve.mjs [--port N] [--cors] [--gzip]   (serves site/ on 127.0.0.1;
//   --cors adds Access-Control-Allow-Origin: * for pages on other origins,
//   --gzip compresses the responses like a static host)

import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { createGzip } from 'node:zlib';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { isMain, SITE } from './lib.mjs';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.kif': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json; charset=utf-8',
};

/** The file for a URL path under `root`, or null (outside the root, missing). */
function resolveFile(root, urlPath) {
  let path;
  try {
    path = decodeURIComponent(urlPath.split('?')[0].split('#')[0]);
  } catch {
    return null;
  }
  const file = resolve(root, `.${normalize(`/${path}`)}`);
  if (file !== root && !file.startsWith(root + sep)) {
    return null;
  }
  try {
    const stat = statSync(file);
    if (stat.isDirectory()) {
      const index = join(file, 'index.html');
      return statSync(index).isFile() ? index : null;
    }
    return stat.isFile() ? file : null;
  } catch {
    return null;
  }
}

/**
 * Extra response headers: an object, or a function of (file, request)
 * returning one (tests: CORS on some files only, a Content Security Policy).
 */
function extraHeaders(headers, file, req) {
  return (typeof headers === 'function' ? headers(file, req) : headers) ?? {};
}

/** `--cors`: what a CDN or GitHub Pages sends, so that pages on other origins can load the elements. */
export const CORS = { 'Access-Control-Allow-Origin': '*' };

/**
 * Cross-origin isolation (what `npm start` sends): the page may then share
 * memory between workers, and its engine thinks on all cores with one
 * tree (site/src/engine/worker-threads.js). `credentialless` rather than
 * `require-corp`: cross-origin fetches without credentials (GGP
 * repositories) still work.
 */
export const ISOLATION = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'credentialless' };

/**
 * Serves `root` on 127.0.0.1 (`headers`: extra response headers, see
 * extraHeaders). `port` 0 picks a free port; a busy port tries
 * the next ones. `gzip`: compress every response for a client that
 * accepts it, as static hosts do (the first-load measurements count the
 * bytes on the wire). Resolves to { server, url }.
 */
export function serve({ root = SITE, port = 8080, quiet = false, headers, gzip = false } = {}) {
  const base = resolve(root);
  const server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const file = resolveFile(base, req.url ?? '/');
    if (file === null) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found\n');
      if (!quiet) console.log(`404 ${req.url}`);
      return;
    }
    const compress = gzip && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
    res.writeHead(200, {
      'Content-Type': MIME[extname(file).toLowerCase()] ?? 'application/octet-stream',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      ...(compress ? { 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' } : {}),
      ...extraHeaders(headers, file, req),
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const body = createReadStream(file);
    if (compress) body.pipe(createGzip({ level: 9 })).pipe(res);
    else body.pipe(res);
  });
  return new Promise((resolvePromise, reject) => {
    let tries = 0;
    server.on('error', (e) => {
      if (e.code === 'EADDRINUSE' && port !== 0 && tries < 20) {
        tries += 1;
        server.listen(port + tries, '127.0.0.1');
      } else {
        reject(e);
      }
    });
    server.on('listening', () => {
      const { port: actual } = server.address();
      resolvePromise({ server, url: `http://localhost:${actual}/` });
    });
    server.listen(port, '127.0.0.1');
  });
}

/** The port from `--port N` or $PORT, else 8080. */
export function portFromArgs() {
  const args = process.argv.slice(2);
  const i = args.indexOf('--port');
  const value = i >= 0 ? args[i + 1] : process.env.PORT;
  const port = Number(value ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`invalid port: ${value}`);
  }
  return port;
}

if (isMain(import.meta.url)) {
  const cors = process.argv.includes('--cors');
  const isolated = process.argv.includes('--isolated');
  const headers = { ...(cors ? CORS : {}), ...(isolated ? ISOLATION : {}) };
  const { url } = await serve({ port: portFromArgs(), headers, gzip: process.argv.includes('--gzip') });
  console.log(`Serving site/ at ${url}${cors ? ' with CORS headers' : ''}${isolated ? ', cross-origin isolated' : ''}  (Ctrl-C to stop)`);
}
