// resilientWorker's start-up check: a worker that neither answers nor
// fails is not waited on forever when one of its URLs is blocked, and is
// left alone when they are fine.

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import test from 'node:test';
import { resilientWorker } from '../js/worker-start.js';

/** A worker that never answers and never fails; counts terminate(). */
function silentWorker() {
  return { terminated: 0, postMessage() {}, terminate() { this.terminated += 1; } };
}

/** The first error event of `worker` within `ms`, or null. */
function firstError(worker, ms) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), ms);
    worker.addEventListener('error', (event) => {
      clearTimeout(timer);
      resolve(event.message);
    });
  });
}

test('a silent worker whose script cannot be reached fails, naming the URL', async () => {
  const inner = silentWorker();
  const script = 'http://127.0.0.1:9/worker.js';
  const worker = resilientWorker({ create: () => inner, urls: { script }, checkAfterMs: 50 });
  const message = await firstError(worker, 5000);
  assert.ok(message, 'an error arrives');
  assert.match(message, /127\.0\.0\.1:9\/worker\.js cannot be reached/);
  assert.equal(inner.terminated, 1, 'the silent worker is stopped');
});

test('a silent worker whose URLs are fine is left to start, and terminate() stops the check', async () => {
  const server = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/javascript' }).end('// worker'));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const script = `http://127.0.0.1:${server.address().port}/worker.js`;
    const inner = silentWorker();
    const worker = resilientWorker({ create: () => inner, urls: { script }, checkAfterMs: 50 });
    assert.equal(await firstError(worker, 500), null, 'no error for a slow start');
    assert.equal(inner.terminated, 0);
    const other = silentWorker();
    const stopped = resilientWorker({ create: () => other, urls: { script: 'http://127.0.0.1:9/w.js' }, checkAfterMs: 50 });
    stopped.terminate();
    assert.equal(await firstError(stopped, 300), null, 'nothing after terminate()');
  } finally {
    server.close();
  }
});
