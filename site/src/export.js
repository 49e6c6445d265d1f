// "Download as standalone HTML": the current tree or game as one
// self-contained lecture file that works offline from disk. The file is made
// by `gdlkit export` (crate/src/cli/export.rs) run in the engine's worker
// (the package's `cli` job) over the standalone template the build wrote
// beside this script (build/standalone.html), so the page and the command
// line make the very same file.

import { engine } from './engine/client.js';

const TEMPLATE_URL = new URL('./standalone.html', import.meta.url);

/** `gdlkit export` arguments for link parameters `p` (app.js linkParams): tree or play view. */
export function exportArgs(p) {
  const args = ['export'];
  const opt = (name, value) => value !== undefined && value !== null && value !== '' && args.push(`--${name}`, String(value));
  if (p.view === 'tree') {
    if (p.tree) opt('tree', p.tree);
    else {
      args.push('game.kif', '--view', 'tree', '--depth', String(p.depth ?? 2));
      // A position of the play view goes into the file as its fluents.
      if (p.source === 'position' && p.position?.length) opt('position', p.position.join(';'));
      else opt('source', 'initial');
    }
    opt('algorithm', p.algo);
    opt('order', p.order);
    opt('compare', p.compare);
    opt('role', p.role);
    opt('step', p.step);
  } else {
    args.push('game.kif', '--view', 'play');
    opt('players', p.players);
    opt('moves', p.moves);
  }
  if (p.title) opt('title', p.title);
  return args;
}

/**
 * The standalone file for link parameters `p` and the game text: `{name,
 * html}`. Rejects with the command's message when it fails.
 */
export async function standaloneFile(p, text) {
  const response = await fetch(TEMPLATE_URL);
  if (!response.ok) throw new Error(`cannot fetch the standalone template ${TEMPLATE_URL.href}: HTTP ${response.status}`);
  const template = await response.text();
  const out = 'export.html';
  const args = [...exportArgs(p), '--template', 'standalone.html', '--out', out];
  const result = await engine().lint.call('cli', { args, files: { 'standalone.html': template, 'game.kif': text ?? '' } });
  const html = result.written?.[out];
  if (result.code !== 0 || typeof html !== 'string') throw new Error(result.stderr.trim() || `gdlkit export failed (exit ${result.code})`);
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
