// The library on threads in Node: a second instance of the WebAssembly
// module, the build with shared memory (pkg-threads/, scripts/build.mjs),
// whose parallel work (the solver's cores, MCTS-Solver's walkers on one
// shared tree, the ensemble's members) runs on worker threads that
// instantiate the same module on the same memory and serve its jobs
// (`threadPoolWorker`, crate/wasm/src/wasm/threads.rs). The default
// instance (js/node.js) stays the build without threads.

import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { waitForThreads } from './threads-wait.js';

const GLUE = new URL('../pkg-threads/gdlkit.js', import.meta.url);
const WASM = new URL('../pkg-threads/gdlkit_bg.wasm', import.meta.url);
/** Each thread's shadow stack: the main thread's size (.cargo/config.toml). */
const THREAD_STACK = 8 << 20;

/**
 * Loads the threaded module and starts `threads - 1` workers beside this
 * thread (default: every core). Resolves to `{ wasm, threads, terminate }`:
 * `wasm` the module's raw bindings (wasm-bindgen's, unguarded: a trap
 * leaves this instance unusable), `threads` the cores its parallel work
 * uses, `terminate()` stops the workers. Rejects when the package has no
 * threaded build.
 */
export async function loadThreaded({ threads = availableParallelism() } = {}) {
  const wasm = await import(GLUE.href);
  await wasm.default({ module_or_path: readFileSync(WASM) });
  const share = wasm.threadShare();
  if (!share) throw new Error('gdlkit: pkg-threads/ was built without shared memory');
  const workers = [];
  try {
    for (let i = 1; i < threads; i++) {
      workers.push(await startWorker(share));
    }
    const running = await waitForThreads(wasm, threads, 10_000);
    if (running < threads) throw new Error(`gdlkit: ${running - 1} of ${threads - 1} worker threads started`);
  } catch (e) {
    for (const w of workers) w.terminate();
    throw e;
  }
  return { wasm, threads: wasm.threadCount(), terminate: () => Promise.all(workers.map((w) => w.terminate())) };
}

function startWorker(share) {
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    import(workerData.glue).then((wasm) => {
      wasm.initSync({ module: workerData.module, memory: workerData.memory, thread_stack_size: workerData.stack });
      parentPort.postMessage('ready');
      wasm.threadPoolWorker();
    });`;
  const worker = new Worker(source, { eval: true, workerData: { glue: GLUE.href, stack: THREAD_STACK, ...share } });
  return new Promise((resolve, reject) => {
    worker.once('message', () => {
      // The pool's threads never end on their own: they must not keep Node alive.
      worker.unref();
      resolve(worker);
    });
    worker.once('error', reject);
  });
}
