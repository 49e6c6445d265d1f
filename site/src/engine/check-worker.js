// The editor's check worker: the package's worker protocol
// (js/worker-core.js) over the page's check wasm, site/pkg-check/. That
// wasm is the crate built without its `engine` feature (scripts/build.mjs):
// the very Rust check, format and fix of the engine's wasm, a fifth of its
// size, so the first diagnostics come long before the engine has loaded.
// Only the kinds `check`, `format` and `version` work here; everything else
// goes to the engine's workers (engine/client.js).
//
// Bundled on its own (site/build/check-worker.js, no shared chunks) so that
// it starts after one request.

import { serve } from '../../../js/worker-core.js';
import init, { check, fix, format, version } from '../../pkg-check/gdlkit_check.js';

/** What worker-core.js calls: the wasm's loader and its exports. */
const api = {
  init: (wasm) => init({ module_or_path: wasm }),
  version,
  check,
  format,
  fix,
};

const onMessage = serve(self, api);
self.onmessage = (event) => onMessage(event.data);
