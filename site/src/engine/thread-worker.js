// One thread of the engine on threads (engine/worker-threads.js starts
// it): instantiates the module on the engine's compiled module and shared
// memory, says so, then runs the pool's jobs (`threadPoolWorker`, which
// never returns: crate/wasm/src/wasm/threads.rs).

import { initSync, threadPoolWorker } from '../../pkg-threads/gdlkit.js';

self.onmessage = ({ data }) => {
  self.onmessage = null;
  initSync({ module: data.module, memory: data.memory, thread_stack_size: data.stack });
  self.postMessage('ready');
  threadPoolWorker();
};
