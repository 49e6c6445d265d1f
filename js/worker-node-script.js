// The worker script of `gdlkit/worker` in Node (a worker_threads thread):
// the same protocol as the Web Worker (worker-core.js), over parentPort.

import { parentPort } from 'node:worker_threads';
import * as api from './node.js';
import { serve } from './worker-core.js';

const onMessage = serve(parentPort, api);
parentPort.on('message', onMessage);
