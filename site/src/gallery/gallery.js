// The game gallery: a dialog listing the library (games/index.json, made
// by scripts/build.mjs from the Rust library) with a search box, category
// filters and a thumbnail of each board (an SVG drawn by Rust at build
// time, shown as an image). Picking a card opens the game.

import { h } from '../dom.js';
import css from './gallery.css';

const CATEGORIES = [
  ['', 'All'],
  ['board', 'Board games'],
  ['puzzle', 'Puzzles'],
  ['simultaneous', 'Simultaneous'],
  ['n-player', 'Three or more players'],
  ['lecture', 'From the lectures'],
  ['chance', 'Chance and hidden information'],
];

/** Whether a game matches every word of the query (title, name, description, credit). */
export function matches(game, query) {
  const text = [game.title, game.name, game.description, game.credit, game.category].join(' ').toLowerCase();
  return query.toLowerCase().split(/\s+/).filter(Boolean).every((w) => text.includes(w));
}

/** The Stanford base repository. */
export const DEFAULT_REPOSITORY = 'http://games.ggp.org/base/';

/**
 * A gallery over `games` ([{name, title, category, description, credit,
 * thumbnail}]); `onPick(name)` opens a library game. `repository(params)`
 * asks the engine for a GGP repository's URLs and reads its answers
 * (`site.repository`); `onOpenText(text, label)` opens a fetched game.
 * `open()` shows the dialog.
 */
export class Gallery {
  constructor(games, { onPick, onOpenText, repository }) {
    this.games = games;
    this.onPick = onPick;
    this.onOpenText = onOpenText;
    this.repository = repository;
    this.category = '';
    this.search = h('input', { type: 'search', class: 'gallery-search', placeholder: 'Search games', 'aria-label': 'Search games', on: { input: () => this.render() } });
    this.filters = h('div', { class: 'gallery-filters', role: 'group', 'aria-label': 'Categories' },
      CATEGORIES.map(([value, label]) => h('button', { type: 'button', data: { category: value }, 'aria-pressed': String(value === ''), text: label, on: { click: () => this.setCategory(value) } })));
    this.count = h('p', { class: 'gallery-count muted', 'aria-live': 'polite' });
    this.list = h('ul', { class: 'gallery-list' });
    this.dialog = h('dialog', { class: 'gallery', 'aria-labelledby': 'gallery-title' },
      h('div', { class: 'gallery-head' },
        h('h2', { id: 'gallery-title', text: 'Games' }),
        this.search,
        h('form', { method: 'dialog' }, h('button', { class: 'close', 'aria-label': 'Close the gallery', text: '×' }))),
      this.filters, this.count, this.list, this.repositoryPanel());
    document.head.append(h('style', { text: css }));
    document.body.append(this.dialog);
    this.render();
  }

  setCategory(value) {
    this.category = value;
    for (const b of this.filters.querySelectorAll('button')) b.setAttribute('aria-pressed', String(b.dataset.category === value));
    this.render();
  }

  /** The games shown for the current search and category. */
  visible() {
    return this.games.filter((g) => (!this.category || g.category === this.category) && matches(g, this.search.value));
  }

  render() {
    const shown = this.visible();
    this.count.textContent = `${shown.length} of ${this.games.length} games`;
    this.list.replaceChildren(...shown.map((g) => this.card(g)));
  }

  card(g) {
    const picture = g.thumbnail
      ? h('img', { src: `games/${encodeURIComponent(g.thumbnail)}`, alt: '', class: 'gallery-thumb' })
      : h('div', { class: 'gallery-thumb gallery-nothumb', 'aria-hidden': 'true', text: g.title.slice(0, 1) });
    return h('li', { class: 'gallery-card', data: { name: g.name } },
      h('button', { type: 'button', class: 'gallery-open', 'aria-describedby': `gallery-desc-${g.name}`, on: { click: () => this.pick(g.name) } },
        picture,
        h('span', { class: 'gallery-title', text: g.title }),
        h('span', { class: 'gallery-category muted', text: g.category ?? '' })),
      h('p', { class: 'gallery-desc', id: `gallery-desc-${g.name}`, text: g.description ?? '' }),
      g.credit ? h('p', { class: 'gallery-credit muted', text: g.credit }) : null);
  }

  /** The "GGP repository" section: a URL, its games (searchable), one click to open. */
  repositoryPanel() {
    this.repoUrl = h('input', { type: 'url', class: 'repo-url', value: DEFAULT_REPOSITORY, 'aria-label': 'Repository URL' });
    this.repoFilter = h('input', { type: 'search', class: 'repo-filter', placeholder: 'Filter the repository', 'aria-label': 'Filter the repository', hidden: true, on: { input: () => this.renderRepo() } });
    this.repoStatus = h('p', { class: 'repo-status muted', role: 'status' });
    this.repoList = h('ul', { class: 'repo-list' });
    this.repoKeys = [];
    return h('section', { class: 'gallery-repo', 'aria-label': 'GGP repository' },
      h('h3', { text: 'From a GGP repository' }),
      h('form', { class: 'repo-form', on: { submit: (e) => { e.preventDefault(); this.listRepository(); } } },
        this.repoUrl, h('button', { type: 'submit', text: 'List games' })),
      this.repoFilter, this.repoStatus, this.repoList);
  }

  async fetchText(url) {
    let r;
    try {
      r = await fetch(url);
    } catch (e) {
      throw new Error(`${url}: cannot connect (${e.message}; the server may not allow this page to read it)`);
    }
    if (!r.ok) throw new Error(`${url}: the server answered ${r.status}`);
    return r.text();
  }

  async listRepository() {
    const repo = this.repoUrl.value.trim();
    this.repoStatus.textContent = `Listing ${repo}…`;
    this.repoList.replaceChildren();
    try {
      const url = await this.repository({ repo });
      this.repoKeys = await this.repository({ body: await this.fetchText(url) });
      this.repoRepo = repo;
      this.repoFilter.hidden = false;
      this.renderRepo();
    } catch (e) {
      this.repoStatus.textContent = e.message;
    }
  }

  renderRepo() {
    const q = this.repoFilter.value.toLowerCase();
    const shown = this.repoKeys.filter((k) => k.toLowerCase().includes(q));
    this.repoStatus.textContent = `${shown.length} of ${this.repoKeys.length} games in ${this.repoRepo}`;
    this.repoList.replaceChildren(...shown.slice(0, 300).map((key) => h('li', {}, h('button', { type: 'button', class: 'repo-game', data: { key }, text: key, on: { click: () => this.openRepositoryGame(key) } }))));
  }

  async openRepositoryGame(key) {
    const repo = this.repoRepo;
    this.repoStatus.textContent = `Fetching ${key}…`;
    try {
      const meta = await this.repository({ repo, key, body: await this.fetchText(await this.repository({ repo, key })) });
      const text = await this.fetchText(meta.rulesUrl);
      this.dialog.close();
      this.onOpenText(text, `${meta.gameName ?? key} (${repo}, version ${meta.version})`);
    } catch (e) {
      this.repoStatus.textContent = e.message;
    }
  }

  pick(name) {
    this.dialog.close();
    this.onPick(name);
  }

  open() {
    this.dialog.showModal();
    this.search.focus();
  }
}
