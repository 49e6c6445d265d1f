// Where the page's state lives outside the page: the URL (shared links and
// embeds: readable parameters, the game text compressed) and localStorage
// (autosave, so that no work is lost on reload).

const STORE_KEY = 'gdlkit.site.v1';
const DRAFTS_KEY = 'gdlkit.site.drafts';

// ------------------------------------------------------------ compression

function toBase64Url(bytes) {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

/** Text → deflate → base64url (for the URL). */
export async function compressText(text) {
  const bytes = new TextEncoder().encode(text);
  return toBase64Url(await pipe(bytes, new CompressionStream('deflate')));
}

/** The inverse of compressText; throws on a damaged string. */
export async function decompressText(encoded) {
  const bytes = await pipe(fromBase64Url(encoded), new DecompressionStream('deflate'));
  return new TextDecoder().decode(bytes);
}

// -------------------------------------------------------------------- URL

/** The parameters of the URL: the query, then the hash (which wins). */
export function urlParams(location = window.location) {
  const params = new URLSearchParams(location.search);
  const hash = location.hash.replace(/^#/, '');
  if (hash.includes('=')) {
    for (const [k, v] of new URLSearchParams(hash)) params.set(k, v);
  }
  return params;
}

/** A URL of this page with `params` in the hash (the text can be long: the hash never reaches a server). */
export function shareUrl(params, base = window.location) {
  const url = new URL(base.href);
  url.search = '';
  url.hash = new URLSearchParams(params).toString();
  return url.href;
}

// ----------------------------------------------------------- localStorage

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function loadSaved() {
  try {
    const raw = storage()?.getItem(STORE_KEY);
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}

/** Saves at once (returns whether it worked; a full storage is reported, not thrown). */
export function saveNow(state) {
  try {
    storage()?.setItem(STORE_KEY, JSON.stringify({ ...state, savedAt: Date.now() }));
    return true;
  } catch {
    return false;
  }
}

/** Earlier texts the page replaced (newest first, at most 10). */
export function loadDrafts() {
  try {
    return JSON.parse(storage()?.getItem(DRAFTS_KEY) ?? '[]');
  } catch {
    return [];
  }
}

/** Keeps a text that is about to be replaced, so that it can be restored. */
export function stashDraft(text, title) {
  if (!text?.trim()) return;
  const drafts = loadDrafts().filter((d) => d.text !== text);
  drafts.unshift({ text, title, at: Date.now() });
  try {
    storage()?.setItem(DRAFTS_KEY, JSON.stringify(drafts.slice(0, 10)));
  } catch {
    // Storage full: nothing more to do (the text is still in the editor's undo history).
  }
}

// ------------------------------------------------------------------ moves

/** Moves in the URL: steps separated by `;`, the roles' moves by `,`. */
export function movesToText(moves) {
  return moves.map((joint) => joint.join(',')).join(';');
}

export function movesFromText(text) {
  if (!text) return [];
  return text
    .split(';')
    .filter((s) => s.trim())
    .map((step) => step.split(',').map((m) => m.trim()));
}

