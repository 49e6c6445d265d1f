// "Download as standalone HTML": the current tree or game as one
// self-contained lecture file that works offline from disk. The file is made
// in the engine's worker by the Rust function behind `gdlkit export`
// (crate/play/src/standalone.rs, the `standaloneHtml` binding) over the
// standalone template the build wrote beside this script
// (build/standalone.html), so the page and the command line make the very
// same file.

import { engine } from './engine/client.js';

const TEMPLATE_URL = new URL('./standalone.html', import.meta.url);

const given = (value) => value !== undefined && value !== null && value !== '';

/**
 * What the file shows for link parameters `p` (app.js linkParams) and the
 * game text: `{view, tree?, game?, gameName?, title?, attrs}`, as
 * `gdlkit export`'s options would say it.
 */
export function exportRequest(p, text) {
  const attrs = {};
  const attr = (name, value) => {
    if (given(value)) attrs[name] = String(value);
  };
  const request = { attrs };
  if (p.view === 'tree') {
    request.view = 'tree';
    if (p.tree) request.tree = p.tree;
    else {
      request.game = text ?? '';
      attr('depth', p.depth ?? 2);
      // A position of the play view goes into the file as its fluents.
      if (p.source === 'position' && p.position?.length) attr('position', p.position.join(';'));
      else attr('source', 'initial');
    }
    attr('algorithm', p.algo);
    attr('order', p.order);
    attr('compare', p.compare);
    attr('role', p.role);
    attr('step', p.step);
  } else {
    request.view = 'play';
    request.game = text ?? '';
    attr('players', p.players);
    attr('moves', p.moves);
  }
  if (request.game !== undefined) request.gameName = 'game.kif';
  if (given(p.title)) request.title = p.title;
  return request;
}

/**
 * The standalone file for link parameters `p` and the game text: `{name,
 * html}`. Rejects with the engine's message when it fails.
 */
export async function standaloneFile(p, text) {
  const response = await fetch(TEMPLATE_URL);
  if (!response.ok) throw new Error(`cannot fetch the standalone template ${TEMPLATE_URL.href}: HTTP ${response.status}`);
  const template = await response.text();
  const html = await engine().lint.call('standalone', { template, request: exportRequest(p, text) });
  const base = p.view === 'tree' && p.tree ? 'tree' : `${p.game ?? 'game'}-${p.view === 'tree' ? 'tree' : 'play'}`;
  return { name: `gdlkit-${base}.html`, html };
}

/** Downloads the standalone file (see standaloneFile); resolves to its name and size in bytes. */
export async function downloadStandalone(p, text) {
  const { name, html } = await standaloneFile(p, text);
  const blob = new Blob([html], { type: 'text/html' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  return { name, size: blob.size };
}
