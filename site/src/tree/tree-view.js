// The search-tree view for lectures: choose a position of the game (its
// initial state or the play view's position) or type an abstract tree;
// minimax or alpha-beta, depth, move ordering (two orderings side by side);
// then step through the search: play / pause, step, jump, speed, keyboard
// shortcuts, the (α, β) window, pruned subtrees greyed with their bound,
// the principal variation at the end; export SVG and PNG.

import { h, icon, isTyping, labelled, select } from '../dom.js';
import { engine, features } from '../engine/client.js';
import { flatBoard, flatKey, renderBoard, renderFluentList, symbolLook } from '../play/board.js';
import { formatValue, heatColor, overlayOf } from '../play/overlay.js';
import { COSTS } from '../play/why.js';
import { buildModel, countersAt, describeEvent, eventNode, fmt, nodeAt } from './model.js';
import { TreePane } from './pane.js';
import { treeSvg, worldSize } from './render.js';

export const CLASSIC = '((3 12 8) (2 4 6) (14 5 2))';

const PRESETS = [
  ['classic', 'Lecture: ((3 12 8) (2 4 6) (14 5 2))', CLASSIC],
  ['deeper', 'Depth 3: ((…)(…)) with cut-offs on both sides', '(((3 17) (2 12)) ((15 25) (0 2)) ((2 5) (3 2)))'],
  ['chance', 'Chance: MAX, then dice, then MIN (expectimax)', '((chance (3 12) (8 2)) (chance (4 6) (14 5)))'],
  ['wide', 'Depth 4, branching 3 (81 leaves)', null],
  ['huge', 'Large: branching 10, depth 4 (11,111 nodes)', null],
];

const ORDERS = [
  ['given', 'as given'],
  ['reversed', 'reversed'],
  ['best', 'best move first'],
  ['worst', 'worst move first'],
];

const SPEEDS = [0.5, 1, 2, 4, 8, 16, 32, 64, 128, 512, 2048];

/** The text of an example tree; the large ones are random trees made by the engine. */
async function presetText(name) {
  if (name === 'wide') return engine().think.call('randomTree', { branching: 3, depth: 4, seed: 11 });
  if (name === 'huge') return engine().think.call('randomTree', { branching: 10, depth: 4, seed: 5 });
  return PRESETS.find((p) => p[0] === name)?.[2] ?? CLASSIC;
}

/** Tree views made on this page (each names its radio group after its number). */
let viewCount = 0;

export class TreeView {
  constructor(root, { onChange, embed = false, settings = {}, compact = false } = {}) {
    this.root = root;
    this.onChange = onChange ?? (() => {});
    this.embed = embed;
    this.compact = compact || embed;
    const s = settings;
    this.settings = {
      source: s.source ?? (s.tree ? 'tree' : 'tree'),
      tree: s.tree ?? CLASSIC,
      algo: s.algo ?? 'alphabeta',
      depth: Number(s.depth ?? 2),
      order: s.order ?? 'given',
      compare: s.compare ?? '',
      role: s.role ?? '',
      // A planning heuristic with the `thesis` costs is named `NAME-thesis` (links carry that name).
      heuristic: (s.heuristic ?? 'fuzzy').replace(/-thesis$/, ''),
      costs: s.costs ?? (/-thesis$/.test(s.heuristic ?? '') ? 'thesis' : 'default'),
    };
    this.initialStep = s.step;
    this.step = 0;
    this.playing = false;
    this.speedIndex = 4;
    this.panes = [];
    this.text = '';
    this.fluents = null;
    this.build();
    this.ready = Promise.resolve();
  }

  // ------------------------------------------------------------ layout

  /** A name for this view's radio group, unique on the page. */
  radioGroup() {
    if (!this.uid) this.uid = `tree-${++viewCount}`;
    return this.uid;
  }

  build() {
    const st = this.settings;
    const radio = (value, label) =>
      h('label', { class: 'radio' }, h('input', { type: 'radio', name: `tree-source-${this.radioGroup()}`, value, checked: st.source === value, on: { change: () => { this.settings.source = value; this.syncForm(); this.rebuild(); } } }), label);
    this.treeInput = h('textarea', { class: 'tree-input', rows: 2, spellcheck: 'false', 'aria-label': 'abstract tree (nested lists of numbers)', value: st.tree });
    this.treeInput.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey || !e.shiftKey)) {
        e.preventDefault();
        this.settings.tree = this.treeInput.value;
        this.rebuild();
      }
    });
    this.preset = select([['', 'Examples…'], ...PRESETS.map(([v, l]) => [v, l])], '', { 'aria-label': 'example trees' });
    this.preset.addEventListener('change', async () => {
      if (!this.preset.value) return;
      this.treeInput.value = await presetText(this.preset.value);
      this.settings.tree = this.treeInput.value;
      this.preset.value = '';
      this.rebuild();
    });
    // The algorithms are the engine's registry's players that draw a tree
    // (`drawsTree`, crate/play/src/search/mod.rs); until it answers, the chosen one.
    this.algo = select([[st.algo, st.algo]], st.algo, { 'aria-label': 'algorithm' });
    this.algorithmList().catch(() => {}); // a failure shows at the search
    this.depth = h('input', { type: 'number', min: 1, max: 8, value: String(st.depth), class: 'num', 'aria-label': 'search depth (game positions)' });
    this.order = select(ORDERS, st.order, { 'aria-label': 'move ordering' });
    this.compareBox = h('input', { type: 'checkbox', checked: Boolean(st.compare), 'aria-label': 'compare with a second ordering' });
    this.order2 = select(ORDERS, st.compare || 'best', { 'aria-label': 'second move ordering' });
    this.role = select([['', 'first role']], st.role, { 'aria-label': 'role to maximise' });
    // The evaluation at the cut-off leaves of a depth-limited game tree
    // (fjo: the thesis's f_JO, docs/planning.md), scaled into [1, 99].
    // The list is the engine's (crate/play/src/search/heuristics.rs), filled by
    // loadAlgorithms; until it answers, the chosen one.
    this.heuristic = select([[st.heuristic, st.heuristic]], st.heuristic, { 'aria-label': 'evaluation at the cut-off leaves' });
    // The planning heuristics' action costs (as the Why? panel's).
    this.costs = select(COSTS.map(([v, l]) => [v, l]), st.costs, { 'aria-label': 'action costs of the planning heuristics at the leaves' });
    COSTS.forEach(([, , title], i) => {
      this.costs.options[i].title = title;
    });
    this.buildBtn = h('button', { type: 'button', class: 'primary', text: 'Build the tree' });
    this.cancelBtn = h('button', { type: 'button', class: 'danger', text: 'Cancel', hidden: true });
    this.status = h('span', { class: 'muted tree-status', role: 'status' });
    for (const c of [this.algo, this.depth, this.order, this.compareBox, this.order2, this.role, this.heuristic, this.costs]) c.addEventListener('change', () => this.rebuild());
    this.buildBtn.addEventListener('click', () => {
      this.settings.tree = this.treeInput.value;
      this.rebuild();
    });
    this.cancelBtn.addEventListener('click', () => engine().think.terminate());

    this.sourceGame = h('div', { class: 'row source-game' }, labelled('Depth', this.depth), labelled('MAX is', this.role), labelled('Leaves', this.heuristic), this.costs);
    this.sourceTree = h('div', { class: 'row source-tree' }, this.treeInput, this.preset);
    const form = h('div', { class: 'tree-form', role: 'group', 'aria-label': 'Tree settings' },
      h('div', { class: 'row' },
        h('span', { class: 'field-label', text: 'Tree of' }),
        radio('tree', 'an abstract tree'), radio('initial', 'the game’s initial state'), radio('position', 'the position in Play')),
      this.sourceTree,
      this.sourceGame,
      h('div', { class: 'row' },
        labelled('Algorithm', this.algo),
        labelled('Ordering', this.order),
        h('label', { class: 'field' }, this.compareBox, h('span', { class: 'field-label', text: 'Compare with' })),
        this.order2,
        this.buildBtn, this.cancelBtn, this.status));

    const btn = (name, label, fn, key) => h('button', { type: 'button', class: 'icon-button', 'aria-label': label, title: `${label} (${key})`, 'aria-keyshortcuts': key, on: { click: fn } }, icon(name));
    this.startBtn = btn('start', 'Jump to the start', () => this.go(0), 'Home');
    this.backBtn = btn('back', 'Step back', () => this.go(this.step - 1), 'ArrowLeft');
    this.playBtn = btn('play', 'Play', () => this.togglePlay(), 'Space');
    this.fwdBtn = btn('forward', 'Step forward', () => this.go(this.step + 1), 'ArrowRight');
    this.endBtn = btn('end', 'Jump to the end', () => this.go(this.length), 'End');
    this.speed = h('input', { type: 'range', min: 0, max: SPEEDS.length - 1, value: String(this.speedIndex), 'aria-label': 'speed (steps per second)' });
    this.speedLabel = h('span', { class: 'muted speed-label' });
    this.speed.addEventListener('input', () => {
      this.speedIndex = Number(this.speed.value);
      this.updateSpeedLabel();
    });
    this.updateSpeedLabel();
    this.counter = h('span', { class: 'step-counter', 'aria-live': 'off' });
    this.svgBtn = h('button', { type: 'button', text: 'SVG', title: 'Download the tree at this step as SVG', on: { click: () => this.exportSvg() } });
    this.pngBtn = h('button', { type: 'button', text: 'PNG', title: 'Download the tree at this step as PNG', on: { click: () => this.exportPng() } });
    const controls = h('div', { class: 'tree-controls', role: 'toolbar', 'aria-label': 'Step through the search' },
      this.startBtn, this.backBtn, this.playBtn, this.fwdBtn, this.endBtn,
      h('label', { class: 'field speed' }, h('span', { class: 'field-label', text: 'Speed' }), this.speed, this.speedLabel),
      this.counter,
      h('span', { class: 'spacer' }),
      h('span', { class: 'muted', text: 'Export' }), this.svgBtn, this.pngBtn);
    this.windowLine = h('div', { class: 'window-line' });
    this.eventLine = h('p', { class: 'event-line', 'aria-live': 'polite' });
    this.panesBox = h('div', { class: 'panes' });
    this.details = h('div', { class: 'node-details', 'aria-live': 'polite' });
    this.legend = h('p', { class: 'legend muted', text: '△ MAX (chooses the largest) · ▽ MIN (the smallest) · □ leaf · dashed: not yet searched · grey: pruned, ✂ with the bound that cut it · thick orange: principal variation · (α, β) under the nodes on the search path.' });
    this.el = h('div', { class: `tree-view${this.compact ? ' compact' : ''}`, tabindex: '-1' },
      this.compact ? null : form, controls, this.windowLine, this.eventLine, this.panesBox, this.details, this.compact ? null : this.legend);
    this.root.replaceChildren(this.el);
    this.el.addEventListener('keydown', (e) => this.key(e));
    // Keys pressed with nothing focused (a lecturer's clicker) drive the tree when it is on screen.
    if (this.root.getRootNode() === document) {
      window.addEventListener('keydown', (e) => {
        if ((e.target === document.body || e.target === document.documentElement || e.target?.id === 'main') && this.el.offsetParent !== null) this.key(e);
      });
    }
    this.syncForm();
  }

  syncForm() {
    const src = this.settings.source;
    this.sourceTree.hidden = src !== 'tree';
    this.sourceGame.hidden = src === 'tree';
    this.order2.disabled = !this.compareBox.checked;
    const gameOrders = src !== 'tree';
    // A game's moves come in the engine's order; reordering them needs the engine's help.
    for (const sel of [this.order, this.order2]) {
      for (const opt of sel.options) opt.disabled = gameOrders && !this.canOrderGames() && opt.value !== 'given';
    }
  }

  /** Switches the tree's source (`tree`, `initial`, `position`) and rebuilds it. */
  setSource(source) {
    this.settings.source = source;
    for (const input of this.el.querySelectorAll('input[type="radio"]')) input.checked = input.value === source;
    this.syncForm();
    this.models = null;
  }

  canOrderGames() {
    return Boolean(this.features?.searchFrom);
  }

  updateSpeedLabel() {
    const v = SPEEDS[this.speedIndex];
    this.speedLabel.textContent = `${v} / s`;
  }

  // ----------------------------------------------------------- settings

  /** The game text and the play view's position (fluents, and moves to reach it). */
  async setGame(text, fluents, moves) {
    const changed = text !== this.text || JSON.stringify(fluents) !== JSON.stringify(this.fluents);
    this.text = text;
    this.fluents = fluents;
    this.moves = moves;
    // The role list first: the search reads the chosen role from it.
    await this.updateRoles();
    if (text !== this.text) return; // a newer game came meanwhile
    if (!this.models || (changed && this.settings.source !== 'tree')) this.rebuild();
  }

  /** The role list from the rules' `(role r)` facts, read by the engine (Rust). */
  async updateRoles() {
    const text = this.text;
    const roles = await engine()
      .lint.call('roles', { text })
      .catch(() => []);
    if (text !== this.text) return; // a newer text asked meanwhile
    const value = this.settings.role;
    this.role.replaceChildren(...[['', roles[0] ? `${roles[0]} (first role)` : 'first role'], ...roles.slice(1).map((r) => [r, r])].map(([v, l]) => h('option', { value: v, text: l })));
    this.role.value = roles.includes(value) ? value : '';
  }

  /** The algorithm list, loaded once (again after a failure: the worker may have died). */
  algorithmList() {
    this.algorithms ??= this.loadAlgorithms().catch((e) => {
      this.algorithms = null;
      throw e;
    });
    return this.algorithms;
  }

  /** Fills the algorithm and leaf-evaluation lists from the engine's registries (players, heuristics; in the `think` worker). */
  async loadAlgorithms() {
    const { registry, heuristics } = await engine().think.call('players', {});
    if (heuristics?.length) {
      const value = heuristics.some((x) => x.name === this.settings.heuristic) ? this.settings.heuristic : heuristics[0].name;
      this.heuristicList = heuristics;
      this.heuristic.replaceChildren(...heuristics.map((x) => h('option', { value: x.name, text: x.name, title: x.description })));
      this.heuristic.value = value;
      this.settings.heuristic = value;
    }
    const algos = registry.filter((p) => p.drawsTree);
    if (!algos.length) return;
    this.algoLabels = Object.fromEntries(algos.map((p) => [p.name, p.label]));
    const value = this.algoLabels[this.settings.algo] ? this.settings.algo : algos[0].name;
    this.algo.replaceChildren(...algos.map((p) => h('option', { value: p.name, text: p.label })));
    this.algo.value = value;
    this.settings.algo = value;
  }

  /** The algorithm's name for people, capitalised (`Alpha-beta`). */
  algoLabel(name) {
    const label = this.algoLabels?.[name] ?? name;
    return label.charAt(0).toUpperCase() + label.slice(1);
  }

  readForm() {
    Object.assign(this.settings, {
      tree: this.treeInput.value,
      algo: this.algo.value,
      depth: Math.max(1, Math.min(8, Number(this.depth.value) || 2)),
      order: this.order.value,
      compare: this.compareBox.checked ? this.order2.value : '',
      role: this.role.value,
      heuristic: this.heuristic.value,
      costs: this.costs.value,
    });
    this.syncForm();
  }

  /**
   * Whether a heuristic has planning costs: f_JO and the registry's
   * distances (h_FF, h_add, h_max: crate/play/src/search/fjo.rs).
   */
  planning(name) {
    return name === 'fjo' || Boolean(this.heuristicList?.find((x) => x.name === name)?.distance);
  }

  /** The heuristic the leaves are evaluated with: `NAME-thesis` with the thesis costs. */
  leafHeuristic() {
    const { heuristic, costs } = this.settings;
    return costs === 'thesis' && this.planning(heuristic) ? `${heuristic}-thesis` : heuristic;
  }

  serialize() {
    return { ...this.settings, step: this.step };
  }

  /** The tree's state as URL parameters (for shared links and embeds). */
  urlParams() {
    const p = { algo: this.settings.algo, order: this.settings.order, step: this.step >= this.length ? 'end' : String(this.step) };
    if (this.settings.source === 'tree') p.tree = this.settings.tree;
    else {
      p.source = this.settings.source;
      p.depth = String(this.settings.depth);
      if (this.settings.role) p.role = this.settings.role;
      if (this.leafHeuristic() !== 'fuzzy') p.heuristic = this.leafHeuristic();
    }
    if (this.settings.compare) p.compare = this.settings.compare;
    return p;
  }

  get length() {
    return Math.max(0, ...this.panes.map((p) => p.model?.events.length ?? 0));
  }

  // ------------------------------------------------------------ search

  async rebuild() {
    this.readForm();
    this.pause();
    const st = this.settings;
    const orders = [st.order, ...(st.compare ? [st.compare] : [])];
    this.epoch = (this.epoch ?? 0) + 1;
    const epoch = this.epoch;
    this.status.textContent = 'Searching…';
    this.status.className = 'muted tree-status';
    this.buildBtn.disabled = true;
    const slow = setTimeout(() => { if (epoch === this.epoch) this.cancelBtn.hidden = false; }, 400);
    try {
      this.features ??= await features();
      // The registry's list first (a failure shows below like the search's).
      await this.algorithmList();
      this.syncForm();
      if (!this.features.searchTree) throw new Error('This build has no search engine yet: the search trees need it.');
      const models = [];
      for (const order of orders) models.push(await this.search(order));
      if (epoch !== this.epoch) return;
      this.models = models;
      this.showModels(models, orders);
      const c = models.map((m) => m.result.stats?.nodes ?? m.nodes.length);
      this.status.textContent = models.some((m) => m.truncated) ? `The trace was cut at ${models[0].result.nodeCap} nodes.` : `${c.join(' / ')} nodes searched.`;
    } catch (e) {
      if (epoch !== this.epoch) return;
      this.status.textContent = e.name === 'Cancelled' ? 'Cancelled.' : e.diagnostics?.length ? 'The rules have errors: fix them in the Rules view first.' : e.message;
      this.status.className = 'tree-status error';
    } finally {
      clearTimeout(slow);
      if (epoch === this.epoch) {
        this.buildBtn.disabled = false;
        this.cancelBtn.hidden = true;
      }
    }
    this.onChange();
  }

  async search(order) {
    const st = this.settings;
    const options = { algorithm: st.algo, trace: true, nodeCap: 50000 };
    if (st.source === 'tree') {
      // The engine parses, reorders (result.tree, result.labels) and searches.
      const result = await engine().think.call('searchTree', { tree: st.tree, options: { ...options, ordering: order } });
      return buildModel(result, { labels: result.labels ?? null });
    }
    if (st.role) options.role = st.role;
    options.depth = st.depth;
    options.heuristic = this.leafHeuristic();
    const fluents = st.source === 'position' ? this.fluents : null;
    const [result, structure] = await Promise.all([
      engine().think.call('searchGame', { text: this.text, options, fluents, order }),
      engine().game.call('structure', { text: this.text }).catch(() => null),
    ]);
    const model = buildModel(result);
    model.structure = structure;
    await this.addSolved(model);
    // The board cells of every state, split in Rust (the worker's boardCells).
    model.boards = structure?.boards?.length || structure?.scene
      ? await engine().game.call('boardCells', { structure, states: model.states.map((f) => f ?? []) }).catch(() => null)
      : null;
    return model;
  }

  /**
   * The solved value of every state of the tree (model.solved), when the
   * Perfect-play switch of the play view has solved this game (the `solve`
   * worker keeps the solution); for the searching role (model.solvedRole).
   */
  async addSolved(model) {
    // The solve worker starts only with the switch: before, nothing is solved.
    if (!engine().solve.worker) return;
    try {
      const [values, roles] = await Promise.all([
        engine().solve.call('solvedValues', { text: this.text, states: model.states.map((f) => f ?? []) }),
        engine().game.call('roles', { text: this.text }),
      ]);
      if (!values) return;
      model.solved = values;
      model.solvedRole = roles.indexOf(model.result.role);
    } catch {
      // No solution in this page (or the worker restarted): no solved values.
    }
  }

  showModels(models, orders) {
    // Chance nodes get their line in the legend only where the tree has some.
    const chance = models.some((m) => m.nodes.some((n) => n.kind === 'chance'));
    const infoSets = models.some((m) => m.infoSets?.length);
    this.legend.textContent = `△ MAX (chooses the largest) · ▽ MIN (the smallest) · ${chance ? '○ chance (the mean of its children, each equally likely) · ' : ''}□ leaf · dashed: not yet searched · grey: pruned, ✂ with the bound that cut it · thick orange: principal variation · (α, β) under the nodes on the search path.${infoSets ? ' Teal dashes join an information set: MAX nodes its role cannot tell apart (the same own moves and percepts); the search itself sees the whole state.' : ''}`;
    this.panes = [];
    this.panesBox.replaceChildren();
    this.panesBox.classList.toggle('two', models.length > 1);
    const names = Object.fromEntries(ORDERS);
    models.forEach((model, i) => {
      const label = `${this.algoLabel(this.settings.algo)}, ordering: ${names[orders[i]]}`;
      const pane = new TreePane(this.panesBox, {
        label,
        describeNode: (m, n, s, opts) => this.describeNode(m, n, s, opts),
        boardOf: (m, n) => this.nodeBoard(m, n),
        onSelect: (n, p) => this.showDetails(p, n),
      });
      pane.setModel(model);
      this.panes.push(pane);
    });
    this.boardInfo = null;
    const wanted = this.initialStep;
    this.initialStep = undefined;
    this.go(wanted === 'end' ? this.length : wanted !== undefined ? Number(wanted) || 0 : 0);
    this.details.replaceChildren();
  }

  // ---------------------------------------------------------- stepping

  go(s) {
    this.step = Math.max(0, Math.min(s, this.length));
    for (const p of this.panes) p.setStep(this.step);
    this.updateStatus();
    this.onChangeSoon();
  }

  onChangeSoon() {
    clearTimeout(this.changeTimer);
    this.changeTimer = setTimeout(() => this.onChange(), 400);
  }

  togglePlay() {
    if (this.playing) this.pause();
    else this.play();
  }

  play() {
    if (this.step >= this.length) this.go(0);
    this.playing = true;
    this.playBtn.replaceChildren(icon('pause'));
    this.playBtn.setAttribute('aria-label', 'Pause');
    let last = performance.now();
    let carry = 0;
    const tick = (now) => {
      if (!this.playing) return;
      carry += ((now - last) / 1000) * SPEEDS[this.speedIndex];
      last = now;
      const n = Math.floor(carry);
      if (n > 0) {
        carry -= n;
        this.go(this.step + n);
      }
      if (this.step >= this.length) {
        this.pause();
        return;
      }
      this.raf = requestAnimationFrame(tick);
    };
    this.raf = requestAnimationFrame(tick);
    this.updateStatus();
  }

  pause() {
    this.playing = false;
    cancelAnimationFrame(this.raf);
    if (this.playBtn) {
      this.playBtn.replaceChildren(icon('play'));
      this.playBtn.setAttribute('aria-label', 'Play');
    }
  }

  updateStatus() {
    const total = this.length;
    this.counter.textContent = `Step ${this.step} / ${total}`;
    this.counter.dataset.step = String(this.step);
    this.counter.dataset.total = String(total);
    this.startBtn.disabled = this.backBtn.disabled = this.step === 0;
    this.endBtn.disabled = this.fwdBtn.disabled = this.step >= total;
    const pane = this.panes[0];
    if (!pane?.model) {
      this.windowLine.textContent = '';
      this.eventLine.textContent = '';
      return;
    }
    const m = pane.model;
    const current = eventNode(m, this.step);
    // The window of the innermost active node.
    let active = current;
    if (active >= 0 && !nodeAt(m, m.nodes[active], this.step).active) active = m.nodes[active].parent;
    const line = [];
    if (active >= 0 && m.nodes[active].windowed) {
      const st = nodeAt(m, m.nodes[active], this.step);
      line.push(h('span', { class: 'window', text: `(α, β) = (${fmt(st.alpha)}, ${fmt(st.beta)})` }), ` at ${this.nodeName(m, active)}`);
    } else if (active >= 0) {
      line.push(`at ${this.nodeName(m, active)}`);
    }
    const root = m.nodes[m.root];
    const rootState = root ? nodeAt(m, root, this.step) : null;
    if (rootState?.value !== null && rootState?.value !== undefined) {
      if (line.length) line.push(' · ');
      line.push(h('span', { class: 'root-value', data: { value: String(rootState.value) }, text: `root value ${fmt(rootState.value)}` }));
    }
    if (this.step >= total && m.bestMove) {
      const child = root.children.map((c) => m.nodes[c]).find((c) => c.move === m.bestMove.move);
      if (line.length) line.push(' · ');
      line.push(h('span', { class: 'best', text: `best move ${child?.label ?? m.bestMove.move}` }));
    }
    this.windowLine.replaceChildren(...line);
    const text = this.panes.map((p, i) => (this.panes.length > 1 ? `${i === 0 ? 'Left' : 'Right'}: ` : '') + describeEvent(p.model, Math.min(this.step, p.model.events.length), (n) => this.nodeName(p.model, n))).join('  ');
    // Announce single steps only (not while playing fast).
    this.eventLine.setAttribute('aria-live', this.playing ? 'off' : 'polite');
    this.eventLine.textContent = text;
  }

  nodeName(model, i) {
    const n = model.nodes[i];
    if (!n) return '';
    if (n.parent < 0) return 'the root';
    const path = [];
    let j = i;
    while (j >= 0 && model.nodes[j].parent >= 0) {
      path.unshift(model.nodes[j].label || '?');
      j = model.nodes[j].parent;
    }
    return model.abstract ? `node ${path.join('.')}` : `the node after ${path.join(', ')}`;
  }

  // ------------------------------------------------------------ details

  /** The board of node i for drawing inside it ({cols, rows, cells}), or null. */
  nodeBoard(model, i) {
    const info = this.boardFor(model);
    const board = this.stateBoard(model, i);
    if (!board) return null;
    info.cells ??= new Map();
    if (!info.cells.has(i)) {
      // As the play view: y grows upwards, layers side by side.
      info.cells.set(i, { ...flatBoard(board), look: (c) => symbolLook(c, board) });
    }
    const overlay = this.overlayOf(model, i);
    return overlay ? { ...info.cells.get(i), overlay: flatOverlay(overlay) } : info.cells.get(i);
  }

  /**
   * An explanation on node i's board: the explained node's own (heat map,
   * plan, chosen move and runner-up, as in Play); on its children, the
   * cells their move changes in the heat colour of its value.
   */
  overlayOf(model, i) {
    const x = this.explained;
    if (!x || x.model !== model) return null;
    if (x.node === i) return overlayOf(x.e, { distance: x.distance, planMove: x.planMove });
    const n = model.nodes[i];
    if (n.parent !== x.node) return null;
    const full = overlayOf(x.e, { distance: x.distance, planMove: null });
    const move = x.e.moves.find((m) => m.move === n.move);
    if (!move) return null;
    const keys = new Set((move.cells ?? []).map((c) => c.join('|')));
    const heat = new Map([...full.heat].filter(([k]) => keys.has(k)).map(([k, v]) => [k, { ...v, entries: [[move.move, move.value]] }]));
    const mark = (mv) => (mv === move.move ? keys : new Set());
    return { heat, plan: new Map(), planMove: null, planGoal: null, chosen: mark(x.e.chosen), runnerUp: mark(x.e.runnerUp) };
  }

  /** Explains node i's position (as the Why? panel: every move's value, drawn on its board and its children's). */
  async explainNode(pane, i) {
    const m = pane.model;
    const n = m.nodes[i];
    const fluents = m.states[n.state];
    if (!fluents) return;
    const { heuristic, costs } = this.settings;
    const box = this.details.querySelector('.node-why');
    box?.replaceChildren(h('span', { class: 'muted', text: 'computing…' }));
    try {
      const e = await engine().think.call('explain', { kif: this.text, options: { from: fluents, heuristic, costs } });
      const distance = Boolean(this.heuristicList?.find((x) => x.name === heuristic)?.distance);
      this.explained = { model: m, node: i, e, distance, planMove: e.chosen ?? null };
      for (const p of this.panes) p.request();
      this.showDetails(pane, i);
    } catch (err) {
      box?.replaceChildren(h('span', { class: 'error', text: err.message }));
    }
  }

  /** The board of node i's state, as split in Rust (model.boards), or null. */
  stateBoard(model, i) {
    const n = model.nodes[i];
    if (model.abstract || !(n.state >= 0)) return null;
    return model.boards?.[n.state] ?? null;
  }

  boardFor(model) {
    if (model.abstract) return null;
    if (!this.boardInfo || this.boardInfo.model !== model) {
      this.boardInfo = { model };
    }
    return this.boardInfo;
  }

  describeNode(model, i, s, { small = false } = {}) {
    const n = model.nodes[i];
    const st = nodeAt(model, n, s);
    const kind = { max: 'MAX', min: 'MIN', chance: 'chance (the mean of its children)', leaf: 'leaf', forced: 'forced', pruned: 'pruned move' }[n.kind] ?? n.kind;
    const lines = [h('strong', { text: `${kind}${n.label ? ` · move ${n.label}` : ''}` })];
    const facts = [];
    if (st.value !== null) facts.push(`value ${fmt(st.value)}`);
    else if (st.partial !== null) facts.push(`so far ${n.kind === 'min' ? '≤' : '≥'} ${fmt(st.partial)}`);
    else if (n.staticValue !== null) facts.push(`leaf value ${fmt(n.staticValue)}`);
    if (n.windowed && st.visited) facts.push(`(α, β) = (${fmt(st.alpha)}, ${fmt(st.beta)})`);
    if (st.cut && n.cutoff) facts.push(`cut-off: ${n.kind === 'max' ? '≥' : '≤'} ${fmt(n.cutoff.value)}`);
    if (st.pruned) facts.push('pruned: never searched');
    else if (!st.visited) facts.push('not searched yet');
    if (n.leafAt < Infinity && n.leafAt < s) facts.push(n.terminal ? 'terminal' : 'heuristic estimate');
    const solved = model.solved?.[n.state];
    if (solved && model.solvedRole >= 0) facts.push(`solved ${solved.goals[model.solvedRole]} (${solved.movesToEnd} moves to the end)`);
    lines.push(h('div', { text: facts.join(' · ') }));
    const box = h('div', { class: 'node-info' }, ...lines);
    if (n.state >= 0 && model.states[n.state]) {
      const fluents = model.states[n.state];
      const board = this.stateBoard(model, i);
      if (board) {
        box.append(renderBoard(board, { small, overlay: this.overlayOf(model, i) }));
      } else if (!model.abstract) {
        const list = renderFluentList(fluents.slice(0, small ? 12 : 200), 'fluents small');
        box.append(list);
        if (small && fluents.length > 12) box.append(h('div', { class: 'muted', text: `… ${fluents.length - 12} more` }));
      }
    }
    return box;
  }

  showDetails(pane, i) {
    if (i < 0) {
      this.details.replaceChildren();
      return;
    }
    const m = pane.model;
    const n = m.nodes[i];
    const toggle = n.children.length
      ? h('button', { type: 'button', text: pane.collapsed.has(i) ? 'Expand' : 'Collapse', on: { click: () => { pane.toggle(i); this.showDetails(pane, i); } } })
      : null;
    const explainable = !m.abstract && n.state >= 0 && m.states[n.state] && !n.terminal;
    const why = explainable
      ? h('div', { class: 'node-why' },
        h('button', { type: 'button', text: 'Why? (values of its moves)', title: 'Every move’s value in this position under the leaf evaluation, drawn on its board and its children’s', on: { click: () => this.explainNode(pane, i) } }),
        this.explanationText(m, i))
      : null;
    this.details.replaceChildren(h('h3', { text: `Selected: ${this.nodeName(m, i)}` }), this.describeNode(m, i, this.step), why, toggle);
  }

  /** The explanation of node i in words (the board's colours, for screen readers and copying). */
  explanationText(model, i) {
    const x = this.explained;
    if (!x || x.model !== model || x.node !== i) return null;
    const { e } = x;
    const swatch = (v) => {
      const o = overlayOf(e, { distance: x.distance });
      const cell = [...o.heat.values()].find((c) => c.entries.some(([, w]) => w === v));
      return h('span', { class: 'swatch', style: { background: cell?.color ?? heatColor(0.5) } });
    };
    return h('ul', { class: 'node-why-list' },
      ...e.moves.map((mv) => h('li', { 'data-move': mv.move, 'data-value': String(mv.value) }, swatch(mv.value),
        `${mv.move}: ${formatValue(mv.value)}${mv.move === e.chosen ? ' (best)' : mv.move === e.runnerUp ? ' (runner-up)' : ''}`)));
  }

  // ----------------------------------------------------------- keyboard

  key(e) {
    if (isTyping(e) || e.altKey || e.ctrlKey || e.metaKey) return;
    const pane = this.panes[0];
    const handled = () => e.preventDefault();
    switch (e.key) {
      case 'ArrowRight':
        if (e.shiftKey) pane?.panBy(-60, 0);
        else this.go(this.step + 1);
        return handled();
      case 'ArrowLeft':
        if (e.shiftKey) pane?.panBy(60, 0);
        else this.go(this.step - 1);
        return handled();
      case 'ArrowUp':
        if (e.shiftKey) pane?.panBy(0, 60);
        else pane?.navigate('up');
        return handled();
      case 'ArrowDown':
        if (e.shiftKey) pane?.panBy(0, -60);
        else pane?.navigate('down');
        return handled();
      case '[':
        pane?.navigate('prev');
        return handled();
      case ']':
        pane?.navigate('next');
        return handled();
      case 'Home':
        this.go(0);
        return handled();
      case 'End':
        this.go(this.length);
        return handled();
      case ' ':
        if (e.target?.tagName === 'BUTTON') return undefined;
        this.togglePlay();
        return handled();
      case '+':
      case '=':
        for (const p of this.panes) p.zoomAt(1.25);
        return handled();
      case '-':
        for (const p of this.panes) p.zoomAt(0.8);
        return handled();
      case '0':
        for (const p of this.panes) p.fit();
        return handled();
      case 'Enter':
        if (e.target?.tagName === 'BUTTON') return undefined;
        if (pane && pane.selected >= 0) {
          pane.toggle(pane.selected);
          this.showDetails(pane, pane.selected);
        }
        return handled();
      default:
        return undefined;
    }
  }

  // ------------------------------------------------------------- export

  /** A pane's tree at this step as SVG, with its node boards (and an explanation's marks) as on screen. */
  paneSvg(p) {
    const boardOf = p.model.abstract ? null : (i) => this.nodeBoard(p.model, i);
    return treeSvg(p.model, p.layout, this.step, { current: eventNode(p.model, this.step), showPv: p.showPv, collapsed: p.collapsed, title: p.label, boardOf });
  }

  exportSvg() {
    const parts = this.panes.map((p) => this.paneSvg(p));
    parts.forEach((svg, i) => {
      download(new Blob([svg], { type: 'image/svg+xml' }), `search-tree${parts.length > 1 ? `-${i + 1}` : ''}-step-${this.step}.svg`);
    });
  }

  async exportPng() {
    for (const [i, p] of this.panes.entries()) {
      const svg = this.paneSvg(p);
      const { w, h: hh } = worldSize(p.layout);
      const scale = Math.min(2, 8192 / w, 8192 / hh);
      const img = new Image();
      const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
      try {
        await new Promise((resolve, reject) => {
          img.onload = resolve;
          img.onerror = () => reject(new Error('cannot render the SVG'));
          img.src = url;
        });
        const canvas = document.createElement('canvas');
        canvas.width = Math.max(1, Math.round(w * scale));
        canvas.height = Math.max(1, Math.round(hh * scale));
        const ctx = canvas.getContext('2d');
        ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
        const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
        download(blob, `search-tree${this.panes.length > 1 ? `-${i + 1}` : ''}-step-${this.step}.png`);
      } finally {
        URL.revokeObjectURL(url);
      }
    }
  }
}

function download(blob, name) {
  const a = h('a', { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 5000);
}

export { countersAt };

/** An overlay keyed as flatBoard keys its cells (the tree's small boards). */
function flatOverlay(o) {
  const keys = (map) => new Map([...map].map(([k, v]) => [flatKey(k), v]));
  const set = (keys) => new Set([...keys].map(flatKey));
  return { ...o, heat: keys(o.heat), plan: keys(o.plan), chosen: set(o.chosen), runnerUp: set(o.runnerUp) };
}
