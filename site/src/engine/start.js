// Starting the site's engine worker from wherever the page's scripts live:
// the hosted page, another origin that loads build/elements.js (a slide deck
// on a university server: the worker is started through a same-origin blob
// and the wasm fetched with CORS, js/worker-start.js), or a standalone file
// opened from disk (worker and wasm inlined, `useInlineEngine`). When
// workers are impossible the same jobs run on the main thread in slices.
//
// `newEngineWorker(options)` is the one way to get such a worker: every view
// (and every custom element) uses it through engine/client.js.

import { GdlWorker } from '../../../js/worker.js';
import { mainThreadWorker, resilientWorker, workerFrom } from '../../../js/worker-start.js';

// Next to the bundled scripts: site/build/worker.js and site/pkg/.
const here = import.meta.url;
const WORKER_URL = new URL('./worker.js', here);
const WASM_URL = new URL('../pkg/gdlkit_bg.wasm', here);
// The engine on threads (engine/worker-threads.js, site/pkg-threads/):
// where the page is cross-origin isolated, so workers can share memory.
const THREADS_WORKER_URL = new URL('./worker-threads.js', here);
const THREADS_WASM_URL = new URL('../pkg-threads/gdlkit_bg.wasm', here);

/** Whether this page can run the engine on threads (shared memory between workers). */
export function canShareMemory() {
  return globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
}

/** Set by the standalone file: the worker's source text and the compiled wasm. */
let inline = null;

/** Runs every engine worker from `workerSource` (text) with `wasm` (a WebAssembly.Module or bytes). */
export function useInlineEngine({ workerSource, wasm }) {
  inline = { workerSource, wasm };
}

/** Whether the engine is the inline one of a standalone file. */
export function isStandalone() {
  return inline !== null;
}

/** The same worker script on the main thread (workers blocked): its job kinds and serve(). */
async function loadMainThread() {
  const m = await import('./worker.js');
  return { api: m.api, serve: m.serve };
}

/**
 * A GdlWorker running the site's worker script (engine/worker.js) from any
 * origin; `options` as GdlWorker's (sliceMs, cancelGraceMs, …). With
 * `threads`, on a cross-origin isolated page, the engine on threads
 * (engine/worker-threads.js: as many threads as cores).
 */
export function newEngineWorker({ threads = false, ...options } = {}) {
  const fallback = () => mainThreadWorker(loadMainThread);
  if (inline) {
    const { workerSource, wasm } = inline;
    return new GdlWorker({ ...options, wasm, createWorker: () => resilientWorker({ create: () => workerFrom({ source: workerSource }), fallback }) });
  }
  if (threads && canShareMemory()) {
    const url = globalThis.__gdlkitTestFaults === true ? new URL('?test-faults=1', THREADS_WORKER_URL) : THREADS_WORKER_URL;
    const urls = { script: THREADS_WORKER_URL.href, wasm: THREADS_WASM_URL.href };
    return new GdlWorker({ ...options, wasm: THREADS_WASM_URL, createWorker: () => resilientWorker({ create: () => workerFrom({ url }), urls, fallback }) });
  }
  // The page test's fault mode reaches the worker through its URL (engine/worker.js).
  const url = engineWorkerUrl();
  const create = () => takeWarmWorker() ?? workerFrom({ url });
  const urls = { script: WORKER_URL.href, wasm: WASM_URL.href };
  return new GdlWorker({ ...options, wasm: WASM_URL, createWorker: () => resilientWorker({ create, urls, fallback }) });
}

// ---- The editor's check worker: site/build/check-worker.js
// with the page's check wasm (site/pkg-check/, check and format only). No
// main-thread fallback and nothing inlined in a standalone file: where it
// cannot start, the engine's worker checks (engine/client.js, runCheck).
const CHECK_WORKER_URL = new URL('./check-worker.js', here);
const CHECK_WASM_URL = new URL('../pkg-check/gdlkit_check_bg.wasm', here);

/** A GdlWorker running the check worker; `options` as newEngineWorker's. */
export function newCheckWorker(options = {}) {
  const create = () => workerFrom({ url: CHECK_WORKER_URL });
  const urls = { script: CHECK_WORKER_URL.href, wasm: CHECK_WASM_URL.href };
  return new GdlWorker({ ...options, wasm: CHECK_WASM_URL, createWorker: () => resilientWorker({ create, urls }) });
}

// ---- The engine's worker started ahead: its script and
// chunks (~14 KiB gzip) load while the check wasm downloads, so that the
// engine's wasm can be requested the moment the check wasm is in
// (engine/client.js opens the gate), not one script round trip later. The
// worker loads no wasm until its GdlWorker sends `init`.

/** The engine worker's script URL (with the page test's fault mode, engine/worker.js). */
function engineWorkerUrl() {
  return globalThis.__gdlkitTestFaults === true ? new URL('?test-faults=1', WORKER_URL) : WORKER_URL;
}

/** `{worker, failed}`: the worker started ahead, not yet taken. */
let warm = null;

/** Starts an engine worker's script now; the next engine worker (newEngineWorker) takes it. */
export function warmEngineWorker() {
  if (inline || warm || typeof Worker !== 'function') return;
  try {
    const worker = workerFrom({ url: engineWorkerUrl() });
    const entry = { worker, failed: false };
    // A start-up failure before anyone listens: the taker starts a fresh
    // worker instead, whose failure resilientWorker explains.
    worker.addEventListener('error', () => { entry.failed = true; }, { once: true });
    warm = entry;
  } catch {
    // no worker here: newEngineWorker falls back as it would have
  }
}

/** The worker started ahead, if it has not failed; at most once. */
function takeWarmWorker() {
  const entry = warm;
  warm = null;
  if (!entry) return null;
  if (entry.failed) {
    entry.worker.terminate();
    return null;
  }
  return entry.worker;
}
