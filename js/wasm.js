// Loading the WebAssembly module (once), shared by every area of the API.

import * as wasm from '../pkg/gdlkit.js';

let ready = false;
let loading = null;

/**
 * Loads the WebAssembly module once. `source` is anything wasm-bindgen's
 * init accepts (URL, string, Response, bytes, WebAssembly.Module) or
 * undefined for its default: `gdlkit_bg.wasm` next to pkg/gdlkit.js.
 */
export function initFrom(source) {
  if (ready) {
    return Promise.resolve();
  }
  if (!loading) {
    const options = source === undefined ? undefined : { module_or_path: source };
    loading = wasm
      .default(options)
      .then(() => {
        ready = true;
      })
      .catch((e) => {
        loading = null;
        throw e;
      });
  }
  return loading;
}

/** Loads the module synchronously from bytes or a compiled WebAssembly.Module. */
export function initSync(module) {
  if (!ready) {
    wasm.initSync({ module: module?.module ?? module });
    ready = true;
  }
}

/** Whether the wasm module is loaded. */
export function isReady() {
  return ready;
}

/** The options object or the bare source accepted by init(). */
export function wasmSource(input) {
  if (input !== null && typeof input === 'object' && Object.getPrototypeOf(input) === Object.prototype) {
    return input.wasm;
  }
  return input ?? undefined;
}

export function needReady() {
  if (!ready) {
    throw new Error('gdlkit: the WebAssembly module is not loaded yet: `await init()` first');
  }
}

