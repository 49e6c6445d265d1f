// The Web Worker script of `gdlkit/worker` (a module worker). GdlWorker
// starts it with `new Worker(new URL('./worker-script.js', import.meta.url),
// { type: 'module' })`; the protocol is in worker-core.js.

import * as api from './index.js';
import { serve } from './worker-core.js';

const onMessage = serve(self, api);
self.onmessage = (event) => onMessage(event.data);
