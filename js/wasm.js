// Loading the WebAssembly module (once), shared by every area of the API,
// and `wasm`: the module's exports as the other areas call them. A wasm
// trap (a bug: `unreachable`, out-of-bounds memory, a stack overflow)
// leaves the instance unusable, so every call goes through `guarded`: on a
// trap the instance is rebuilt from the same compiled module and only that
// call fails, with a GdlCrashError. The objects of the old instance (games,
// players, jobs) are gone: their methods throw a GdlCrashError saying so.

import * as raw from '../pkg/gdlkit.js';
import { waitForThreads } from './threads-wait.js';

let ready = false;
let loading = null;
/** Whether the instance is being rebuilt in the background after a trap. */
let rebuilding = false;
/** WeakRefs to the wasm objects of the current instance (destroyed on a rebuild). */
let live = new Set();
let pruneAt = 1024;
/** What to do again on a new instance (the memory budget). */
const rebuildHooks = [];

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
    loading = raw
      .default(options)
      .then(startThreads)
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
    raw.initSync({ module: module?.module ?? module });
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
    const why = rebuilding ? 'is being rebuilt after a crash' : 'is not loaded yet';
    throw new Error(`gdlkit: the WebAssembly module ${why}: \`await init()\` first`);
  }
}

/** Runs `f` again on every new instance (after a trap). */
export function onRebuild(f) {
  rebuildHooks.push(f);
}

// ------------------------------------------------------------ threads

/** How this host starts the threads of a module with shared memory (`setThreadStarter`), and the ones it started. */
let threadStarter = null;
let threadWorkers = [];

/**
 * Where the module is built with shared memory (the page's engine on
 * threads, site/src/engine/worker-threads.js), `start(share)` starts the
 * workers that run its parallel work: `share` is `{module, memory}`, the
 * result the started workers (terminated when the instance is rebuilt).
 * Set before the module is loaded.
 */
export function setThreadStarter(start) {
  threadStarter = start;
}

/** Starts the threads of a module with shared memory (none for other modules, or without a starter). */
async function startThreads() {
  const share = raw.threadShare?.();
  if (!share || !threadStarter) return;
  for (const w of threadWorkers) w.terminate();
  threadWorkers = [];
  threadWorkers = await threadStarter(share);
  // Fewer threads after the wait: the engine reports the count it has.
  await waitForThreads(raw, 1 + threadWorkers.length, 5000);
}

// ------------------------------------------------------------ traps

/** Whether `e` is a trap of the instance rather than an error it threw. */
function isTrap(e) {
  return e instanceof WebAssembly.RuntimeError || (e instanceof RangeError && /Maximum call stack/.test(e.message));
}

function crashError(message, cause) {
  const err = new Error(message, { cause });
  err.name = 'GdlCrashError';
  return err;
}

/**
 * Throws away the trapped instance and starts a new one from the same
 * compiled module (wasm-bindgen's `__wbg_reset_state`): synchronously
 * where the host allows it (Node, workers), else in the background (a
 * browser's main thread refuses to instantiate a large module
 * synchronously); `init()` then waits for it.
 */
function rebuild() {
  for (const ref of live) {
    ref.deref()?.__destroy_into_raw();
  }
  live = new Set();
  ready = false;
  loading = null;
  const done = () => {
    ready = true;
    rebuilding = false;
    for (const f of rebuildHooks) {
      f();
    }
    // The new instance has a memory of its own: new threads for it (until
    // they run, its parallel work runs on this thread).
    startThreads().catch(() => {});
  };
  const trapped = raw.__gdlkit_instance();
  try {
    raw.__wbg_reset_state();
  } catch {
    // Either the host refused (below), or the instance was made and
    // wasm-bindgen then called a start function this module does not have.
  }
  if (raw.__gdlkit_instance() !== trapped) {
    done();
  } else {
    rebuilding = true;
    loading = raw.default({ module_or_path: raw.__gdlkit_forget() }).then(done, (e) => {
      loading = null;
      throw e;
    });
  }
}

/** Calls `f` on the instance; a trap rebuilds it and fails only this call. */
function guarded(f) {
  needReady();
  try {
    return f();
  } catch (e) {
    if (!isTrap(e)) {
      throw e;
    }
    rebuild();
    throw crashError(
      `gdlkit: the WebAssembly instance crashed (${e}) and was rebuilt: this call failed, and the games, players and jobs made before are gone (make them again). This is a bug in gdlkit.`,
      e,
    );
  }
}

/** Remembers a wasm object of this instance, so that a rebuild can retire it. */
function track(obj) {
  if (obj && typeof obj === 'object' && '__wbg_ptr' in obj) {
    live.add(new WeakRef(obj));
    if (live.size >= pruneAt) {
      for (const ref of live) {
        if (!ref.deref()) {
          live.delete(ref);
        }
      }
      pruneAt = Math.max(1024, 2 * live.size);
    }
  }
  return obj;
}

function lost(name) {
  return crashError(`gdlkit: this ${name} was lost when the WebAssembly instance was rebuilt after a crash (or it was freed): make it again`);
}

/** A class of the module whose methods check the object and run guarded; `new` and static methods track what they make. */
function guardClass(C) {
  const proto = C.prototype;
  for (const key of Object.getOwnPropertyNames(proto)) {
    if (key === 'constructor' || key.startsWith('__')) {
      continue;
    }
    const d = Object.getOwnPropertyDescriptor(proto, key);
    const wrap = (f) =>
      key === 'free'
        ? function free() {
            if (this.__wbg_ptr) {
              guarded(() => f.call(this));
            }
          }
        : function method(...args) {
            if (!this.__wbg_ptr) {
              throw lost(C.name);
            }
            return guarded(() => f.apply(this, args));
          };
    if (typeof d.value === 'function') {
      d.value = wrap(d.value);
    } else if (d.get) {
      d.get = wrap(d.get);
    }
    Object.defineProperty(proto, key, d);
  }
  function Guarded(...args) {
    return track(guarded(() => new C(...args)));
  }
  for (const key of Object.getOwnPropertyNames(C)) {
    if (typeof C[key] === 'function' && !key.startsWith('__')) {
      Guarded[key] = (...args) => track(guarded(() => C[key](...args)));
    }
  }
  return Guarded;
}

/** The module's exports, each call guarded (what the API areas import). */
export const wasm = {};
for (const [key, value] of Object.entries(raw)) {
  if (key === 'default' || key === 'initSync' || key.startsWith('__') || typeof value !== 'function') {
    continue;
  }
  wasm[key] = value.prototype && /^[A-Z]/.test(key) ? guardClass(value) : (...args) => guarded(() => value(...args));
}
Object.freeze(wasm);

// ------------------------------------------------------------ arguments

/** A TypeError unless `value` is a string. */
export function needString(value, what) {
  if (typeof value !== 'string') {
    throw new TypeError(`${what} must be a string`);
  }
  return value;
}

/** A TypeError unless `value` is absent (undefined, null) or a string; absent is undefined. */
export function optionalString(value, what) {
  if (value === undefined || value === null) {
    return undefined;
  }
  return needString(value, what);
}

/** A TypeError unless `value` is an array of strings. */
export function needStrings(value, what) {
  if (!Array.isArray(value)) {
    throw new TypeError(`${what} must be an array of strings`);
  }
  value.forEach((v, i) => {
    if (typeof v !== 'string') {
      throw new TypeError(`${what}[${i}] must be a string, got ${v === null ? 'null' : typeof v}`);
    }
  });
  return value;
}

/** A TypeError unless `value` is absent or a plain object (an options bag); absent is `{}`. */
export function optionsObject(value, what) {
  if (value === undefined || value === null) {
    return {};
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(`${what} options must be an object`);
  }
  return value;
}
