// Starting a gdlkit worker from wherever the scripts live: the page's own
// origin, another origin (a CDN, the hosted site loaded from a slide deck),
// or inline source (a standalone file opened from disk).
//
// - A script on another origin cannot be started with `new Worker(url)`
//   (browsers only start same-origin worker scripts), so a same-origin blob
//   that imports it is started instead; its imports and the wasm are then
//   fetched with CORS, which the other origin must allow.
// - When something is blocked, the error names the URL and what is missing
//   (`diagnose`), instead of the browser's bare "script error".
// - When workers themselves are impossible (no Worker, a Content Security
//   Policy without blob: workers), the same protocol runs on the main thread
//   in small slices (`mainThreadWorker`).

/** The page's origin (`null` for file://), or undefined outside a page. */
const pageOrigin = () => globalThis.location?.origin;

/** A blob URL of JavaScript text. */
function blobUrl(code) {
  return URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));
}

/**
 * A Worker running the script at `url` (module worker unless `type` is
 * 'classic'), from any origin that sends CORS headers; or running `source`
 * (the script's text). Throws what the Worker constructor throws.
 */
export function workerFrom({ url, source, type = 'module' }) {
  if (typeof Worker !== 'function') {
    throw Object.assign(new Error('Web Workers are not available here'), { name: 'NotSupportedError' });
  }
  if (source !== undefined) {
    return blobWorker(source, type);
  }
  const href = new URL(String(url), globalThis.location?.href).href;
  const { protocol, origin } = new URL(href);
  if (protocol === 'blob:' || protocol === 'data:' || origin === pageOrigin()) {
    return new Worker(href, { type });
  }
  const code = type === 'module' ? `import ${JSON.stringify(href)};\n` : `importScripts(${JSON.stringify(href)});\n`;
  return blobWorker(code, type);
}

/** A Worker running `code` from a blob URL, revoked once the worker has answered or failed. */
function blobWorker(code, type) {
  const url = blobUrl(code);
  const worker = new Worker(url, { type });
  const revoke = () => URL.revokeObjectURL(url);
  worker.addEventListener('message', revoke, { once: true });
  worker.addEventListener('error', revoke, { once: true });
  return worker;
}

/**
 * Why `url` cannot be used by this page, or null when it can: fetched as the
 * worker and the wasm loader fetch it (CORS mode), so a missing
 * Access-Control-Allow-Origin header, an HTTP error or a wrong MIME type of a
 * script are told apart. `what` is `script` or `wasm`.
 */
export async function diagnose(url, what = 'script') {
  const href = String(url);
  const origin = pageOrigin();
  let response;
  try {
    response = await fetch(href, { mode: 'cors', cache: 'no-store' });
  } catch {
    let reachable = false;
    try {
      await fetch(href, { mode: 'no-cors', cache: 'no-store' });
      reachable = true;
    } catch {
      // unreachable too
    }
    if (!reachable) {
      return `${href} cannot be reached (network error or blocked by the page's Content Security Policy)`;
    }
    return `${href} is blocked: its server sends no "Access-Control-Allow-Origin" header for this page's origin ${origin}, so a page there cannot use it. Serve it with "Access-Control-Allow-Origin: *" (GitHub Pages and the npm CDNs do).`;
  }
  if (!response.ok) {
    return `${href} answers HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  }
  const type = response.headers.get('content-type') ?? '';
  if (what === 'script' && !/javascript|ecmascript/i.test(type)) {
    return `${href} is served as "${type || 'no Content-Type'}", not JavaScript (module workers need a JavaScript MIME type)`;
  }
  return null;
}

/**
 * What the wrappers below share with a Worker: `onmessage`, `onerror`,
 * `onmessageerror` and addEventListener for the same events.
 */
class WorkerLike extends EventTarget {
  onmessage = null;
  onerror = null;
  onmessageerror = null;

  /** Sends an event of `type` ('message' with `data`, 'error' with `message`) to both kinds of listener. */
  emit(type, { data, message } = {}) {
    let event;
    if (type === 'error') {
      event = typeof ErrorEvent === 'function' ? new ErrorEvent('error', { message, cancelable: true }) : Object.assign(new Event('error', { cancelable: true }), { message });
    } else {
      event = typeof MessageEvent === 'function' ? new MessageEvent(type, { data }) : Object.assign(new Event(type), { data });
    }
    this[`on${type}`]?.(event);
    this.dispatchEvent(event);
  }
}

/**
 * A Worker-like object running `serve` on the main thread: `load()` resolves
 * to `{ serve, api }` (worker-core.js's serve and the gdlkit module). Each
 * message is handled in its own task, and sliced jobs run in short slices,
 * so the page stays responsive between two slices.
 */
export function mainThreadWorker(load, { sliceMs = 8 } = {}) {
  let closed = false;
  const worker = Object.assign(new WorkerLike(), {
    mainThread: true,
    postMessage(message) {
      setTimeout(() => handle.then((onMessage) => !closed && onMessage(message)).catch(() => {}));
    },
    terminate() {
      closed = true;
    },
  });
  const scope = {
    postMessage(message) {
      setTimeout(() => !closed && worker.emit('message', { data: message }));
    },
  };
  const handle = load().then(({ serve, api }) => {
    const onMessage = serve(scope, api);
    return (message) => onMessage(message?.type === 'init' ? { ...message, sliceMs: Math.min(message.sliceMs ?? sliceMs, sliceMs) } : message);
  });
  handle.catch((e) => !closed && worker.emit('error', { message: `cannot run the engine on the main thread: ${e?.message ?? e}` }));
  return worker;
}

/** How long a worker may stay silent at start before its script's URL is checked. */
const STARTUP_CHECK_MS = 10_000;

/**
 * A Worker-like object for GdlWorker (its `createWorker`) that starts the
 * real worker with `create()` and, until the worker has answered:
 *  - rewrites a start-up failure into a message naming the blocked URL
 *    (`urls.script`, `urls.wasm`: what diagnose() checks),
 *  - switches to `fallback()` (a main-thread worker) when workers are
 *    impossible here: the constructor throws, or the worker fails although
 *    every URL is fine,
 *  - checks the script's URL after `checkAfterMs` of silence, in case no
 *    error event arrives, and fails naming it if it is blocked.
 * Messages posted before that are kept and sent again after a switch.
 */
export function resilientWorker({ create, urls = {}, fallback, checkAfterMs = STARTUP_CHECK_MS }) {
  const sent = [];
  let answered = false;
  let closed = false;
  let inner = null;
  const outer = Object.assign(new WorkerLike(), {
    postMessage(message) {
      if (!answered) sent.push(message);
      inner?.postMessage(message);
    },
    terminate() {
      closed = true;
      clearTimeout(watchdog);
      inner?.terminate();
    },
  });
  Object.defineProperty(outer, 'mainThread', { get: () => Boolean(inner?.mainThread) });
  const fail = (message) => {
    clearTimeout(watchdog);
    if (!closed) outer.emit('error', { message });
  };
  const attach = (worker) => {
    inner = worker;
    worker.onmessage = (event) => {
      if (closed || inner !== worker) return;
      if (!answered) {
        answered = true;
        clearTimeout(watchdog);
        sent.length = 0;
        if (event.data?.type === 'init-error' && urls.wasm) {
          explainInitError(event.data, urls.wasm).then((data) => !closed && outer.emit('message', { data }));
          return;
        }
      }
      outer.emit('message', { data: event.data });
    };
    worker.onmessageerror = () => !closed && outer.emit('messageerror');
    worker.onerror = (event) => {
      event?.preventDefault?.();
      if (closed || inner !== worker) return;
      if (answered || worker.mainThread) {
        fail(event?.message ?? 'script error');
        return;
      }
      worker.terminate();
      startupFailed(event?.message);
    };
  };
  // A worker that neither answers nor fails (no error event reached us)
  // has its script checked all the same: a blocked script is then named,
  // never a silent wait. A script that is fine leaves a slow start alone
  // (the wasm is not fetched again: a blocked wasm is told by the worker).
  const watchdog = setTimeout(async () => {
    const problem = urls.script ? await diagnose(urls.script, 'script') : null;
    if (problem && !answered && !closed) {
      inner?.terminate();
      fail(problem);
    }
  }, checkAfterMs);
  watchdog.unref?.(); // in Node, a silent worker does not keep the process alive
  const switchToFallback = () => {
    const worker = fallback();
    attach(worker);
    for (const m of sent) worker.postMessage(m);
  };
  const startupFailed = async (browserMessage) => {
    clearTimeout(watchdog);
    const problem = (urls.script && (await diagnose(urls.script, 'script'))) || (urls.wasm && (await diagnose(urls.wasm, 'wasm'))) || null;
    if (closed) return;
    if (problem) {
      fail(problem);
    } else if (fallback) {
      switchToFallback();
    } else {
      fail(`the worker did not start (${browserMessage || 'script error'}); workers may be blocked by the page's Content Security Policy (worker-src)`);
    }
  };
  try {
    attach(create());
  } catch (e) {
    if (fallback) {
      switchToFallback();
    } else {
      setTimeout(() => fail(`cannot start a worker: ${e?.message ?? e}`));
    }
  }
  return outer;
}

/** An `init-error` whose message also says why the wasm URL is blocked, if it is. */
async function explainInitError(data, wasmUrl) {
  const problem = typeof wasmUrl === 'string' || wasmUrl instanceof URL ? await diagnose(wasmUrl, 'wasm') : null;
  if (!problem) return data;
  return { ...data, error: { ...data.error, message: `cannot load the WebAssembly module: ${problem}` } };
}
