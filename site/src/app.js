// The gdlkit page: the rules editor, the play view and the search-tree view
// over one game text. The views load on demand (code splitting); all engine
// work runs in Web Workers (engine/client.js).
//
// State: the URL (shared links and embeds: `?embed=1&view=tree|play|editor
// &game=NAME` or `kif=COMPRESSED`, `moves=`, `players=`, tree settings) wins
// over localStorage (autosave of everything the user did), which wins over
// the default (tic-tac-toe).

import { h } from './dom.js';
import { engine, engineEvents, features, onBeforeLongJob } from './engine/client.js';
import { compressText, decompressText, loadDrafts, loadSaved, movesFromText, movesToText, saveNow, shareUrl, stashDraft, urlParams } from './state.js';

const $ = (id) => document.getElementById(id);
const VIEWS = ['editor', 'play', 'tree', 'match'];

const params = urlParams();
const embed = params.get('embed') === '1';

const app = {
  text: '',
  gameName: null, // the library game the text came from (null once edited or for a user's own game)
  view: 'play',
  games: [], // the library: [{file, name, title, category, description, credit, thumbnail}]
  editor: null,
  play: null,
  tree: null,
  playState: null, // {moves, cursor, players} restored before the play view exists
  treeState: null,
  diagnostics: [],
  loadedText: null, // the text the play view has loaded
};

// ------------------------------------------------------------------ notice

function notify(message, actions = []) {
  const box = $('notice');
  if (!box) return;
  box.replaceChildren(h('span', { text: message }), ...actions.map(([label, fn]) => h('button', { type: 'button', text: label, on: { click: () => { fn(); box.hidden = true; } } })),
    h('button', { type: 'button', class: 'close', 'aria-label': 'Dismiss', text: '×', on: { click: () => { box.hidden = true; } } }));
  box.hidden = false;
}

// --------------------------------------------------------------- autosave

let saveTimer = null;

function snapshot() {
  return {
    text: app.text,
    gameName: app.gameName,
    view: app.view,
    play: app.play?.serialize() ?? app.playState,
    orientation: app.play?.orientation,
    tree: app.tree?.serialize() ?? app.treeState,
    // The link this work came from (or was shared as): reloading that same
    // link restores the work done since, not the link's older state.
    url: app.consumedUrl ?? null,
  };
}

function save() {
  if (embed) return; // an embed never overwrites the user's own work
  clearTimeout(saveTimer);
  saveTimer = setTimeout(flush, 300);
}

function flush() {
  clearTimeout(saveTimer);
  saveTimer = null;
  if (embed) return;
  if (!saveNow(snapshot())) {
    notify('Could not autosave: the browser’s storage is full or disabled. Use Share to keep a link to your game.');
  }
}

addEventListener('pagehide', flush);

// Faults: the work is saved before any job that may run long, and
// a worker that died is named (the views reload what it held).
onBeforeLongJob(() => app.text && flush());
engineEvents.addEventListener('restarted', (event) => {
  notify(`The engine stopped unexpectedly (${event.detail.message}) and was restarted. Your rules and moves are kept.`);
});
document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && flush());

// ---------------------------------------------------------------- library

async function fetchLibrary() {
  try {
    const r = await fetch('games/index.json');
    return r.ok ? await r.json() : [];
  } catch {
    return [];
  }
}

async function fetchGame(name) {
  const entry = app.games.find((g) => g.name === name || g.file === name);
  if (!entry) throw new Error(`no game named ${name} in the library`);
  const r = await fetch(`games/${encodeURIComponent(entry.file)}`);
  if (!r.ok) throw new Error(`cannot fetch ${entry.file}: ${r.status}`);
  return r.text();
}

function libraryText(name) {
  return app.libraryTexts?.get(name);
}

function renderPicker() {
  const picker = $('picker');
  if (!picker) return;
  picker.replaceChildren(h('option', { value: '', text: app.gameName ? '(your own game)' : '(your own game: edited)' }));
  for (const g of app.games) picker.append(h('option', { value: g.name, text: g.title }));
  picker.value = app.gameName ?? '';
}

/** Replaces the text by a library game (the old text is kept as a draft when it was the user's own). */
async function pickGame(name) {
  const text = await fetchGame(name);
  app.libraryTexts ??= new Map();
  app.libraryTexts.set(name, text);
  if (app.text && !app.gameName && app.text !== text) {
    stashDraft(app.text, 'before picking a game');
    notify('Your previous text was kept.', [['Restore it', restoreDraft]]);
  }
  setText(text, name, { play: null, tree: null });
}

/** The game gallery (site/src/gallery/), loaded on first use. */
async function openGallery() {
  if (!app.gallery) {
    const { Gallery } = await import('./gallery/gallery.js');
    app.gallery = new Gallery(app.games, {
      onPick: (name) => pickGame(name).catch((err) => notify(err.message)),
      onOpenText: (text, label) => {
        if (app.text && !app.gameName && app.text !== text) stashDraft(app.text, 'before opening a repository game');
        setText(text, null, { play: null, tree: null });
        notify(`Opened ${label}.`);
      },
      repository: (p) => engine().lint.call('repository', p),
    });
  }
  app.gallery.open();
}

function restoreDraft() {
  const [draft] = loadDrafts();
  if (!draft) return;
  stashDraft(app.text, 'before restoring');
  setText(draft.text, null, { play: null });
}

/** Sets the game text everywhere (editor, play, tree). */
function setText(text, gameName, { play = undefined, tree = undefined } = {}) {
  app.text = text;
  app.gameName = gameName;
  if (play !== undefined) app.playState = play;
  if (tree !== undefined) app.treeState = tree;
  app.editor?.setText(text);
  renderPicker();
  app.loadedText = null;
  if (app.view === 'play') refreshPlay();
  if (app.view === 'tree') app.tree?.setGame(text, app.play?.currentFluents());
  if (app.view === 'match') app.match?.refresh();
  save();
}

function onEdit(text) {
  if (text === app.text) return;
  app.text = text;
  if (app.gameName && libraryText(app.gameName) !== text) {
    app.gameName = null;
    renderPicker();
  }
  save();
}

// ------------------------------------------------------------------ views

/** The view modules, imported on demand (code splitting). */
const VIEW_MODULES = {
  editor: () => import('./editor/view.js'),
  play: () => import('./play/play.js'),
  tree: () => import('./tree/tree-view.js'),
  match: () => import('./match/match.js'),
};

async function showView(view, { focus = false } = {}) {
  if (!VIEWS.includes(view)) view = 'play';
  app.view = view;
  for (const v of VIEWS) {
    const panel = $(`view-${v}`);
    if (panel) panel.hidden = v !== view;
    const tab = $(`tab-${v}`);
    if (tab) {
      tab.setAttribute('aria-selected', String(v === view));
      tab.tabIndex = v === view ? 0 : -1;
    }
  }
  document.body.dataset.view = view;
  if (view === 'editor') await ensureEditor();
  if (view === 'play') await refreshPlay();
  if (view === 'tree') await ensureTree();
  if (view === 'match') await ensureMatch();
  if (focus) $(`view-${view}`)?.querySelector('button, select, input, [tabindex="0"], .cm-content')?.focus();
  save();
}

async function ensureEditor() {
  if (app.editor) return;
  const panel = $('view-editor');
  const { mountEditorView } = await VIEW_MODULES.editor();
  app.editor = mountEditorView(panel, {
    text: app.text,
    embed,
    onChange: onEdit,
    onDiagnostics: (d) => {
      app.diagnostics = d.diagnostics;
      document.body.dataset.lintMs = String(Math.round(d.latency));
      performance.mark('gdlkit:diagnostics', { detail: { count: d.diagnostics.length, roundTripMs: d.latency, wasm: d.wasm } });
    },
    onCounterexample: (moves) => openCounterexample(moves),
  });
  document.body.dataset.editorReady = 'true';
  performance.mark('gdlkit:editor-ready');
}

async function ensurePlay() {
  if (app.play) return app.play;
  const { PlayView } = await VIEW_MODULES.play();
  const panel = $('view-play');
  const body = h('div', { class: 'play-body' });
  app.playError = h('div', { class: 'play-error', role: 'alert', hidden: true });
  panel.replaceChildren(app.playError, body);
  app.play = new PlayView(body, {
    onChange: save,
    compact: embed,
    onShowTree: embed ? undefined : async () => {
      app.treeState = { ...(app.tree?.serialize() ?? app.treeState ?? {}), source: 'position', step: 0 };
      if (app.tree) app.tree.setSource('position');
      await showView('tree');
    },
  });
  if (app.orientation) app.play.orientation = app.orientation;
  return app.play;
}

/** (Re)loads the game into the play view when its text changed. */
async function refreshPlay() {
  const play = await ensurePlay();
  if (app.loadedText === app.text) return;
  const text = app.text;
  const saved = app.play.session ? app.play.serialize() : app.playState;
  try {
    await play.load(text, { moves: saved?.moves ?? [], cursor: saved?.cursor, players: saved?.players, paused: saved?.paused });
    app.loadedText = text;
    app.playError.hidden = true;
    play.root.hidden = false;
  } catch (e) {
    app.loadedText = text;
    play.root.hidden = true; // the old game's board would mislead
    showPlayError(e);
  }
  document.body.dataset.playReady = 'true';
}

function showPlayError(e) {
  const box = app.playError;
  const diags = Array.isArray(e.diagnostics) ? e.diagnostics : [];
  const errors = diags.filter((d) => d.severity === 'error');
  box.replaceChildren(
    h('p', { text: errors.length ? `The rules have ${errors.length} error${errors.length === 1 ? '' : 's'}, so the game cannot be played:` : `The game cannot be loaded: ${e.message}` }),
    errors.length ? h('ul', {}, errors.slice(0, 5).map((d) => h('li', { text: `${d.line}:${d.column} ${d.code} ${d.message}` }))) : '',
    embed ? '' : h('button', { type: 'button', text: 'Show the rules', on: { click: () => showView('editor', { focus: true }) } }),
  );
  box.hidden = false;
}

/** The Match view (hosting a GGP match), loaded on first use. */
async function ensureMatch() {
  if (!app.match) {
    const { MatchView } = await VIEW_MODULES.match();
    app.match = new MatchView($('view-match'), { getText: () => app.text });
  }
  await app.match.refresh();
}

async function ensureTree() {
  if (app.tree) {
    app.tree.setGame(app.text, app.play?.currentFluents() ?? null, app.play?.session?.moves?.slice(0, app.play.session.cursor));
    return;
  }
  const { TreeView } = await VIEW_MODULES.tree();
  app.tree = new TreeView($('view-tree'), { onChange: save, embed, settings: app.treeState ?? {} });
  app.tree.setGame(app.text, app.play?.currentFluents() ?? null, app.play?.session?.moves?.slice(0, app.play.session.cursor));
  await app.tree.ready;
  document.body.dataset.treeReady = 'true';
}

async function openCounterexample(moves) {
  app.playState = { moves, cursor: moves.length, players: null, paused: true };
  app.loadedText = null;
  if (app.play) {
    app.play.session = null;
  }
  await showView('play');
  const roles = app.play.session?.roles ?? [];
  const { DEFAULT_ENGINE } = await VIEW_MODULES.play();
  app.play.players = roles.map(() => ({ kind: 'human', ...DEFAULT_ENGINE }));
  app.play.renderRoles();
  app.play.render();
}

// ------------------------------------------------------------------ share

async function linkParams({ forEmbed = false } = {}) {
  const p = {};
  if (forEmbed) p.embed = '1';
  p.view = app.view === 'editor' && forEmbed ? 'editor' : app.view;
  if (app.gameName) p.game = app.gameName;
  else p.kif = await compressText(app.text);
  const play = app.play?.serialize() ?? app.playState;
  if (play?.moves?.length) {
    p.moves = movesToText(play.moves.slice(0, play.cursor ?? play.moves.length));
  }
  if (play?.players) p.players = play.players.join(';');
  if (app.tree) Object.assign(p, app.tree.urlParams());
  return p;
}

async function copy(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    notify(`${what} copied to the clipboard.`);
  } catch {
    notify(`${what}:`, []);
    $('notice').append(h('input', { type: 'text', value: text, readonly: true, 'aria-label': what, class: 'copy-field', on: { focus: (e) => e.target.select() } }));
  }
}

async function share() {
  const url = shareUrl(await linkParams());
  history.replaceState(null, '', url);
  app.consumedUrl = url;
  flush();
  await copy(url, 'Link');
}

async function embedLink() {
  const p = await linkParams({ forEmbed: true });
  // Everything in the hash: course pages (LMS) that allow only an <iframe> keep it as it is, and it never reaches a server.
  const url = shareUrl(p).replace(/"/g, '%22');
  await copy(`<iframe src="${url}" width="800" height="500" style="border:0" title="gdlkit ${p.view}"></iframe>`, 'Embed code');
}

async function standaloneDownload() {
  const p = await linkParams();
  if (p.view === 'editor') p.view = 'play';
  if (p.source === 'position') p.position = app.tree?.fluents ?? app.play?.currentFluents();
  try {
    const { downloadStandalone } = await import('./export.js');
    const { name, size } = await downloadStandalone(p, app.text);
    notify(`${name} (${(size / 1024 / 1024).toFixed(1)} MB): works offline, opened from disk.`);
  } catch (e) {
    notify(`Download as standalone HTML failed: ${e.message}`);
  }
}

// ------------------------------------------------------------------- boot

async function restoreFromUrl() {
  const kif = params.get('kif');
  const name = params.get('game');
  let text = null;
  let gameName = null;
  if (kif) {
    try {
      text = await decompressText(kif);
    } catch {
      notify('The game in this link is damaged and could not be read.');
    }
  } else if (name) {
    try {
      text = await fetchGame(name);
      gameName = app.games.find((g) => g.name === name || g.file === name)?.name ?? name;
      app.libraryTexts ??= new Map();
      app.libraryTexts.set(gameName, text);
    } catch (e) {
      notify(e.message);
    }
  }
  if (text === null) return false;
  app.text = text;
  app.gameName = gameName;
  const moves = movesFromText(params.get('moves'));
  const players = params.get('players')?.split(';');
  app.playState = { moves, cursor: moves.length, players };
  app.treeState = Object.fromEntries([...params].filter(([k]) => ['tree', 'algo', 'depth', 'order', 'compare', 'step', 'source', 'role', 'heuristic'].includes(k)));
  return true;
}

async function main() {
  if (embed) document.body.classList.add('embed');
  const saved = embed ? null : loadSaved();
  // The view the page will most likely show: its code downloads while the
  // game library and the game text are fetched.
  const likely = params.get('view') ?? saved?.view ?? 'play';
  if (Object.hasOwn(VIEW_MODULES, likely)) VIEW_MODULES[likely]().catch(() => {});
  app.games = await fetchLibrary();
  // A reload of the link the saved work came from restores the saved work.
  const reload = saved?.url && saved.url === window.location.href;
  const fromUrl = !reload && (await restoreFromUrl());
  if (fromUrl) app.consumedUrl = window.location.href;
  else if (reload) app.consumedUrl = saved.url;
  if (fromUrl) {
    if (saved?.text && saved.text !== app.text && !saved.gameName) {
      stashDraft(saved.text, 'before opening a link');
      notify('This link opened another game; your own text was kept.', [['Restore it', restoreDraft]]);
    }
    app.view = params.get('view') ?? (params.get('tree') ? 'tree' : 'play');
  } else if (saved?.text !== undefined) {
    app.text = saved.text;
    app.gameName = saved.gameName ?? null;
    app.view = (reload ? saved.view : params.get('view')) ?? saved.view ?? 'play';
    app.playState = saved.play ?? null;
    app.treeState = saved.tree ?? null;
    app.orientation = saved.orientation;
    if (app.gameName) {
      app.libraryTexts = new Map([[app.gameName, (await fetchGame(app.gameName).catch(() => null)) ?? '']]);
    }
  } else {
    const first = app.games.find((g) => g.name === 'ticTacToe') ?? app.games[0];
    if (first) {
      app.text = await fetchGame(first.name);
      app.gameName = first.name;
      app.libraryTexts = new Map([[first.name, app.text]]);
    }
    app.view = params.get('view') ?? 'play';
  }
  if (params.get('view') === 'tree' && params.get('tree') && !fromUrl && !reload) {
    app.treeState = Object.fromEntries([...params].filter(([k]) => ['tree', 'algo', 'depth', 'order', 'compare', 'step', 'source', 'heuristic'].includes(k)));
  }

  $('boot')?.remove();
  if (!embed) {
    renderPicker();
    $('picker').addEventListener('change', (e) => {
      const name = e.target.value;
      if (name) pickGame(name).catch((err) => notify(err.message));
    });
    for (const tab of document.querySelectorAll('[role="tab"]')) {
      tab.addEventListener('click', () => showView(tab.dataset.view));
      tab.addEventListener('keydown', (e) => {
        const i = VIEWS.indexOf(tab.dataset.view);
        const n = VIEWS.length;
        const j = e.key === 'ArrowRight' ? (i + 1) % n : e.key === 'ArrowLeft' ? (i + n - 1) % n : -1;
        if (j >= 0) {
          e.preventDefault();
          showView(VIEWS[j]).then(() => $(`tab-${VIEWS[j]}`).focus());
        }
      });
    }
    $('gallery-open').addEventListener('click', openGallery);
    if (params.get('gallery') === '1') openGallery();
    $('share').addEventListener('click', share);
    $('embed-link').addEventListener('click', embedLink);
    $('download-standalone').addEventListener('click', standaloneDownload);
    $('shortcuts-open').addEventListener('click', () => $('shortcuts').showModal());
    addEventListener('keydown', (e) => {
      const digit = /^Digit([1234])$/.exec(e.code ?? '')?.[1];
      if (e.altKey && !e.ctrlKey && !e.metaKey && digit) {
        e.preventDefault();
        showView(VIEWS[Number(digit) - 1], { focus: true });
      }
    });
  }
  await showView(app.view);
  // The engine (its worker and the wasm) loads once the view is shown, so
  // that on a slow connection its download does not delay the editor (nor,
  // in the editor, the first diagnostics: features() waits for them).
  if (!embed) {
    features({ deferred: true }).then((f) => {
      if (!f.version) return;
      $('version').textContent = `v${f.version}`;
      app.features = f;
      performance.mark('gdlkit:engine-ready');
    }).catch(() => {});
  }
  document.body.dataset.ready = 'true';
}

main().catch((error) => {
  console.error(error);
  const boot = $('boot');
  if (boot) boot.textContent = `gdlkit failed to start: ${error.message}`;
  else notify(`gdlkit failed to start: ${error.message}`);
});
