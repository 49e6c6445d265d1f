// The engine worker on threads: engine/worker.js on the module built with
// shared memory (site/pkg-threads/; the build maps the glue's imports to
// it), which starts one thread worker (engine/thread-worker.js) per
// further core once the module is loaded. Only where the page is
// cross-origin isolated (engine/start.js); there the engine's parallel
// work (MCTS-Solver's walkers on one tree, alpha-beta's threads on one
// table, the solver's cores) runs as natively.

import { setThreadStarter } from '../../../js/wasm.js';
import './worker.js';

/** Each thread's shadow stack: the main thread's size (.cargo/config.toml). */
const STACK = 8 << 20;
/** A thread worker that has not started within this time is given up (the engine runs with fewer). */
const START_MS = 20_000;

setThreadStarter(async (share) => {
  const cores = Math.min(Math.max(1, globalThis.navigator?.hardwareConcurrency ?? 1), 8);
  const started = [];
  for (let i = 1; i < cores; i++) {
    const worker = await startThread(share);
    if (!worker) break;
    started.push(worker);
  }
  return started;
});

/** One thread worker, or null when it cannot start (the engine then has fewer threads). */
function startThread(share) {
  let worker;
  try {
    worker = new Worker(new URL('./thread-worker.js', import.meta.url), { type: 'module' });
  } catch {
    return Promise.resolve(null);
  }
  return new Promise((resolve) => {
    const fail = () => {
      clearTimeout(timer);
      worker.terminate();
      resolve(null);
    };
    const timer = setTimeout(fail, START_MS);
    worker.onerror = fail;
    worker.onmessage = () => {
      clearTimeout(timer);
      worker.onerror = null;
      resolve(worker);
    };
    worker.postMessage({ ...share, stack: STACK });
  });
}
