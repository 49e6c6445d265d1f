// Custom elements for slide decks and other pages, with one script tag:
//
//   <script type="module" src="build/elements.js"></script>
//   <gdl-tree tree="((3 12 8) (2 4 6) (14 5 2))" algorithm="alphabeta"></gdl-tree>
//   <gdl-tree game="ticTacToe" source="initial" depth="2" compare="best"></gdl-tree>
//   <gdl-play game="ticTacToe" players="human;alphabeta:ms=500"></gdl-play>
//
//   <gdl-tree game="ticTacToe" position="(cell 1 1 x);(cell 1 2 b);…;(control oplayer)"></gdl-tree>
//
// A game is a library name (`game="connectFour"`), a URL (`src="my.kif"`)
// or inline rules: <gdl-play><script type="text/kif">(role robot) …</script></gdl-play>.
// The engine runs in a Web Worker next to this script (worker.js, ../pkg/),
// also when this script is loaded from another origin that sends CORS
// headers (engine/start.js); what is blocked is said in the element.
// Each element renders into its own shadow root with the page's stylesheet.

import css from './style.css';
import { h } from './dom.js';
import { engine } from './engine/client.js';
import { diagnose } from '../../js/worker-start.js';

const base = new URL('.', import.meta.url);

async function gameText(el) {
  const inline = el.querySelector('script[type="text/kif"], script[type="text/gdl"]');
  if (inline) return inline.hasAttribute('data-base64') ? fromBase64(inline.textContent) : inline.textContent;
  const src = el.getAttribute('src');
  const name = el.getAttribute('game');
  const url = src ? new URL(src, document.baseURI) : name ? new URL(`../games/${encodeURIComponent(name)}.kif`, base) : null;
  if (!url) return null;
  let r;
  try {
    r = await fetch(url);
  } catch (e) {
    throw new Error((await diagnose(url.href, 'game')) ?? `cannot fetch ${url.href}: ${e.message}`);
  }
  if (!r.ok) throw new Error(`cannot fetch ${url.href}: HTTP ${r.status}`);
  return r.text();
}

/** UTF-8 text from base64 (an inline game that holds `</script`, as the standalone export writes it). */
function fromBase64(text) {
  return new TextDecoder().decode(Uint8Array.from(atob(text.replace(/\s+/g, '')), (c) => c.charCodeAt(0)));
}

/**
 * Resolves when the engine's worker has loaded the wasm; rejects with what
 * is blocked (engine/start.js names the URL and the missing header).
 */
function engineReady() {
  return engine().think.gdl.ready;
}

class GdlElement extends HTMLElement {
  connectedCallback() {
    if (this.started) return;
    this.started = true;
    const root = this.attachShadow({ mode: 'open' });
    root.append(h('style', { text: css }));
    this.container = h('div', { class: 'gdl-root' });
    root.append(this.container);
    const fail = (e) => {
      if (this.failed) return;
      this.failed = true;
      this.dataset.error = 'true';
      this.container.replaceChildren(h('p', { class: 'error', role: 'alert', text: `gdlkit: ${e.message}` }));
    };
    this.start().catch(fail);
    engineReady().catch(fail);
  }
}

class GdlTree extends GdlElement {
  static get observedAttributes() {
    return ['step'];
  }

  /** `step` set after the start (a deck's fragments, a script): the tree goes there. */
  attributeChangedCallback(name, _old, value) {
    if (name === 'step' && this.view) this.goTo(value);
  }

  /** Shows step `value` (a number or `end`), now or once the search has run. */
  goTo(value) {
    const view = this.view;
    if (!view.panes?.length) {
      view.initialStep = value ?? undefined;
      return;
    }
    view.go(value === 'end' ? view.length : Number(value) || 0);
  }

  /** The step shown. */
  get step() {
    return this.view?.step ?? 0;
  }

  async start() {
    const { TreeView } = await import('./tree/tree-view.js');
    const text = (await gameText(this)) ?? '';
    if (this.failed) return; // the engine failed while the view's script loaded: its alert stays
    const a = (name) => this.getAttribute(name) ?? undefined;
    // `position`: a game position's fluents separated by `;` (what the play view exports), searched from there.
    const position = a('position')?.split(';').map((f) => f.trim()).filter(Boolean) ?? null;
    const source = a('source') ?? (text && !a('tree') ? (position ? 'position' : 'initial') : 'tree');
    this.view = new TreeView(this.container, {
      compact: true,
      settings: {
        source,
        tree: a('tree'),
        algo: a('algorithm') ?? a('algo'),
        depth: a('depth'),
        order: a('order'),
        compare: a('compare'),
        role: a('role'),
        step: a('step'),
      },
    });
    this.view.el.tabIndex = 0;
    this.view.el.setAttribute('aria-label', this.getAttribute('aria-label') ?? 'search tree: arrow keys step, space plays');
    this.view.setGame(text, position, []);
  }
}

class GdlPlay extends GdlElement {
  async start() {
    const { PlayView, movesFromText } = await import('./play/play.js');
    const text = await gameText(this);
    if (!text) throw new Error('no game: give game="name", src="file.kif" or a <script type="text/kif"> child');
    if (this.failed) return; // as in GdlTree
    this.view = new PlayView(this.container, { compact: true });
    const players = this.getAttribute('players')?.split(';');
    await this.view.load(text, { moves: movesFromText(this.getAttribute('moves') ?? ''), players });
  }
}

if (!customElements.get('gdl-tree')) customElements.define('gdl-tree', GdlTree);
if (!customElements.get('gdl-play')) customElements.define('gdl-play', GdlPlay);
