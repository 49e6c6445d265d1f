// `gdlkit/worker` in Node: the same GdlWorker over a worker_threads thread
// running worker-node-script.js (the wasm is read from the package files).

import { Worker } from 'node:worker_threads';
import { GdlWorker as WebGdlWorker } from './worker.js';

export class GdlWorker extends WebGdlWorker {
  constructor(options = {}) {
    super({ createWorker: () => new Worker(new URL('./worker-node-script.js', import.meta.url)), ...options });
  }
}
