// The script of a standalone lecture file (`gdlkit export`, "Download as
// standalone HTML"): one self-contained .html that opens from disk with no
// network. The template (scripts/standalone.mjs) holds the engine's worker
// script and the wasm (base64) in two inert <script> blocks; this script
// starts the engine from them and defines the same custom elements as
// build/elements.js, so the file steps exactly like the hosted page.

import { useInlineEngine } from './engine/start.js';

const text = (id) => document.getElementById(id)?.textContent ?? '';

function decodeBase64(b64) {
  if (typeof Uint8Array.fromBase64 === 'function') return Uint8Array.fromBase64(b64);
  const raw = atob(b64);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

try {
  const wasm = await WebAssembly.compile(decodeBase64(text('gdlkit-wasm').replace(/\s+/g, '')));
  useInlineEngine({ workerSource: text('gdlkit-worker'), wasm });
  await import('./elements.js');
  document.body.dataset.ready = 'true';
} catch (e) {
  const p = document.createElement('p');
  p.setAttribute('role', 'alert');
  p.textContent = `gdlkit: this file cannot start its engine: ${e.message}`;
  document.body.prepend(p);
}
