// One tree on a canvas: zoom (wheel, buttons, keys), pan (drag, keys),
// hover tooltips with the node's board, click to select, double-click to
// collapse or expand a subtree. Redraws at most once per frame.

import { h } from '../dom.js';
import { layoutTree, subtreeSize } from './layout.js';
import { drawTree, hitTest, pos, solvedLabel, worldSize } from './render.js';
import { countersAt, eventNode, fmt, nodeAt } from './model.js';

const OUTLINE_MAX = 400;

export class TreePane {
  constructor(host, { label = 'search tree', describeNode, boardOf, onSelect } = {}) {
    this.label = label;
    this.describeNode = describeNode;
    this.boardOf = boardOf;
    this.onSelect = onSelect;
    this.model = null;
    this.layout = null;
    this.step = 0;
    this.collapsed = new Set();
    this.view = { k: 1, tx: 0, ty: 0 };
    this.selected = -1;
    this.hover = -1;
    this.frame = 0;
    this.size = { w: 300, h: 200 };

    // Focusable, so that the keyboard reaches the tree (→/← step, ↑/↓ select, +/− zoom).
    this.canvas = h('canvas', { class: 'tree-canvas', role: 'img', tabindex: '0', 'aria-label': `${label}. Arrow keys: → and ← step the search, ↑ and ↓ select nodes, [ and ] siblings, Enter collapses; + and − zoom.` });
    this.tooltip = h('div', { class: 'tree-tooltip', hidden: true, role: 'tooltip' });
    this.counter = h('div', { class: 'pane-counter', 'aria-live': 'off' });
    this.zoomIn = h('button', { type: 'button', text: '+', title: 'Zoom in (+)', 'aria-label': 'zoom in', on: { click: () => this.zoomAt(1.25) } });
    this.zoomOut = h('button', { type: 'button', text: '−', title: 'Zoom out (−)', 'aria-label': 'zoom out', on: { click: () => this.zoomAt(0.8) } });
    this.fitBtn = h('button', { type: 'button', text: 'Fit', title: 'Fit the tree (0)', on: { click: () => this.fit() } });
    const zoomBar = h('div', { class: 'zoom-bar' }, this.zoomIn, this.zoomOut, this.fitBtn);
    // A text version of the picture for screen readers (and tests): the
    // tree as nested lists, kept for trees of up to OUTLINE_MAX nodes.
    this.outline = h('div', { class: 'sr-only tree-outline' });
    this.stage = h('div', { class: 'tree-stage' }, this.canvas, zoomBar, this.tooltip, this.outline);
    this.title = h('div', { class: 'pane-title', text: label });
    this.el = h('div', { class: 'tree-pane' }, h('div', { class: 'pane-head' }, this.title, this.counter), this.stage);
    host.append(this.el);

    this.ctx = this.canvas.getContext('2d');
    new ResizeObserver(() => this.resize()).observe(this.stage);
    this.bindPointer();
  }

  // -------------------------------------------------------------- model

  setModel(model) {
    this.model = model;
    this.collapsed = new Set();
    this.selected = -1;
    this.relayout();
    this.fit({ readable: true });
  }

  relayout() {
    if (!this.model) return;
    this.layout = layoutTree(this.model.nodes, this.model.root, { collapsed: this.collapsed });
  }

  setStep(s) {
    this.step = Math.max(0, Math.min(s, this.model ? this.model.events.length : 0));
    this.request();
  }

  get showPv() {
    return this.model && this.step >= this.model.events.length;
  }

  toggle(i) {
    if (i < 0 || !this.model?.nodes[i]?.children.length) return;
    const before = this.screenOf(i);
    if (this.collapsed.has(i)) this.collapsed.delete(i);
    else {
      this.collapsed.add(i);
      this.model.nodes[i].hiddenCount = subtreeSize(this.model.nodes, i) - 1;
    }
    this.relayout();
    // Keep the toggled node where it was on the screen.
    const after = this.screenOf(i);
    this.view.tx += before.x - after.x;
    this.view.ty += before.y - after.y;
    this.request();
  }

  screenOf(i) {
    const p = pos(this.layout, this.model, i);
    return { x: p.x * this.view.k + this.view.tx, y: p.y * this.view.k + this.view.ty };
  }

  // -------------------------------------------------------------- view

  resize() {
    const rect = this.canvas.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(50, Math.round(rect.width));
    const hgt = Math.max(50, Math.round(rect.height));
    if (w === this.size.w && hgt === this.size.h && this.canvas.width === Math.round(w * dpr)) return;
    const first = !this.sized;
    this.sized = true;
    this.size = { w, h: hgt };
    this.canvas.width = Math.round(w * dpr);
    this.canvas.height = Math.round(hgt * dpr);
    if (first) this.fit({ readable: true });
    else this.request();
  }

  /**
   * Shows the whole tree. `readable`: a very wide tree is shown at a
   * readable scale instead, its top centred on the root (zoom out with 0).
   */
  fit({ readable = false } = {}) {
    if (!this.layout) return;
    const { w, h: hh } = worldSize(this.layout);
    let k = Math.min(this.size.w / w, this.size.h / hh, 1.6);
    const minReadable = Math.min(0.6, this.size.h / hh);
    if (readable && k < minReadable) {
      k = minReadable;
      const root = pos(this.layout, this.model, this.model.root);
      this.view = { k, tx: this.size.w / 2 - root.x * k, ty: Math.max(0, (this.size.h - hh * k) / 2) };
    } else {
      this.view = { k, tx: (this.size.w - w * k) / 2, ty: Math.max(0, (this.size.h - hh * k) / 2) };
    }
    this.request();
  }

  zoomAt(f, sx = this.size.w / 2, sy = this.size.h / 2) {
    const k = Math.min(Math.max(this.view.k * f, 0.002), 4);
    const f2 = k / this.view.k;
    this.view = { k, tx: sx - (sx - this.view.tx) * f2, ty: sy - (sy - this.view.ty) * f2 };
    this.request();
  }

  panBy(dx, dy) {
    this.view.tx += dx;
    this.view.ty += dy;
    this.request();
  }

  /** Brings node i into view (after keyboard selection). */
  reveal(i) {
    const p = this.screenOf(i);
    const m = 40;
    if (p.x < m || p.x > this.size.w - m || p.y < m || p.y > this.size.h - m) {
      this.view.tx += this.size.w / 2 - p.x;
      this.view.ty += this.size.h / 2 - p.y;
    }
    this.request();
  }

  request() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  draw() {
    if (!this.model || !this.layout) {
      this.ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
      return;
    }
    const dpr = window.devicePixelRatio || 1;
    this.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const current = eventNode(this.model, this.step);
    const boards = drawTree(this.ctx, this.model, this.layout, this.step, this.view, {
      current,
      selected: this.selected,
      showPv: this.showPv,
      collapsed: this.collapsed,
      boardOf: this.boardOf ? (i) => this.boardOf(this.model, i) : null,
      w: this.size.w,
      h: this.size.h,
    });
    this.canvas.dataset.boards = String(boards);
    this.updateOutline();
    const c = countersAt(this.model, this.step);
    this.counter.textContent = `visited ${c.visited} · pruned ${c.pruned}`;
    this.counter.dataset.visited = String(c.visited);
    this.counter.dataset.pruned = String(c.pruned);
    this.counter.dataset.nodes = String(c.total);
    if (this.hover >= 0 && !this.tooltip.hidden) this.showTooltip(this.hover);
  }

  updateOutline() {
    const m = this.model;
    if (this.outlineModel === m && this.outlineStep === this.step) return;
    this.outlineModel = m;
    this.outlineStep = this.step;
    if (m.nodes.length > OUTLINE_MAX) {
      this.outline.textContent = `${this.label}: ${m.nodes.length} nodes (too many to list; use the arrow keys to select nodes).`;
      return;
    }
    const item = (i) => {
      const n = m.nodes[i];
      const st = nodeAt(m, n, this.step);
      const status = st.pruned ? 'pruned' : st.active ? 'active' : st.done || (st.visited && n.kind === 'leaf' && st.value !== null) ? 'done' : st.visited ? 'visited' : 'unvisited';
      const value = st.value !== null ? fmt(st.value) : st.partial !== null ? `${n.kind === 'min' ? '≤' : '≥'}${fmt(st.partial)}` : n.staticValue !== null ? fmt(n.staticValue) : '';
      const solved = solvedLabel(m, n).slice(1);
      const infoSet = m.infoSetOf?.get(i);
      const li = h('li', { data: { kind: n.kind, label: n.label ?? '', status, value, ...(solved ? { solved } : {}), ...(infoSet ? { infoSet: String(infoSet) } : {}) } },
        `${n.kind}${n.label ? ` ${n.label}` : ''}: ${status}${value ? `, value ${value}` : ''}${solved ? `, solved ${solved}` : ''}${st.cut && n.cutoff ? `, cut-off ${n.kind === 'max' ? '≥' : '≤'} ${fmt(n.cutoff.value)}` : ''}`);
      if (n.children.length) li.append(h('ul', {}, n.children.map(item)));
      return li;
    };
    this.outline.replaceChildren(h('ul', { 'aria-label': `${this.label} as a list` }, m.root >= 0 ? item(m.root) : ''));
  }

  // -------------------------------------------------------- pointer

  toWorld(sx, sy) {
    return { x: (sx - this.view.tx) / this.view.k, y: (sy - this.view.ty) / this.view.k };
  }

  bindPointer() {
    const c = this.canvas;
    let drag = null;
    c.addEventListener('pointerdown', (e) => {
      drag = { x: e.clientX, y: e.clientY, moved: false };
      c.setPointerCapture(e.pointerId);
    });
    c.addEventListener('pointermove', (e) => {
      const rect = c.getBoundingClientRect();
      if (drag) {
        const dx = e.clientX - drag.x;
        const dy = e.clientY - drag.y;
        if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
        if (drag.moved) {
          this.panBy(dx, dy);
          drag.x = e.clientX;
          drag.y = e.clientY;
          this.tooltip.hidden = true;
          return;
        }
      }
      if (!this.model) return;
      const w = this.toWorld(e.clientX - rect.left, e.clientY - rect.top);
      const i = hitTest(this.model, this.layout, w.x, w.y);
      this.hover = i;
      c.style.cursor = i >= 0 ? 'pointer' : drag ? 'grabbing' : 'grab';
      if (i >= 0) this.showTooltip(i, e.clientX - rect.left, e.clientY - rect.top);
      else this.tooltip.hidden = true;
    });
    c.addEventListener('pointerup', (e) => {
      const wasDrag = drag?.moved;
      drag = null;
      if (wasDrag || !this.model) return;
      const rect = c.getBoundingClientRect();
      const w = this.toWorld(e.clientX - rect.left, e.clientY - rect.top);
      const i = hitTest(this.model, this.layout, w.x, w.y);
      if (i >= 0) this.select(i);
    });
    c.addEventListener('pointerleave', () => {
      this.tooltip.hidden = true;
      this.hover = -1;
    });
    c.addEventListener('dblclick', (e) => {
      const rect = c.getBoundingClientRect();
      const w = this.toWorld(e.clientX - rect.left, e.clientY - rect.top);
      const i = hitTest(this.model, this.layout, w.x, w.y);
      if (i >= 0) this.toggle(i);
    });
    c.addEventListener('wheel', (e) => {
      e.preventDefault();
      const rect = c.getBoundingClientRect();
      if (e.shiftKey) this.panBy(-e.deltaY, 0);
      else this.zoomAt(Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0015)), e.clientX - rect.left, e.clientY - rect.top);
    }, { passive: false });
  }

  select(i) {
    this.selected = i;
    this.request();
    this.onSelect?.(i, this);
  }

  showTooltip(i, sx, sy) {
    if (sx === undefined) {
      const p = this.screenOf(i);
      sx = p.x;
      sy = p.y;
    }
    this.tooltip.replaceChildren(this.describeNode?.(this.model, i, this.step, { small: true }) ?? h('span', { text: `node ${i}` }));
    this.tooltip.hidden = false;
    const tw = this.tooltip.offsetWidth;
    const th = this.tooltip.offsetHeight;
    const x = sx + 16 + tw > this.size.w ? Math.max(4, sx - tw - 12) : sx + 16;
    const y = sy + 16 + th > this.size.h ? Math.max(4, sy - th - 12) : sy + 16;
    this.tooltip.style.left = `${x}px`;
    this.tooltip.style.top = `${y}px`;
  }

  /** Keyboard navigation of the selection: parent, first child, siblings. */
  navigate(dir) {
    if (!this.model) return;
    let i = this.selected >= 0 ? this.selected : this.model.root;
    const n = this.model.nodes[i];
    if (this.selected < 0) i = this.model.root;
    else if (dir === 'up' && n.parent >= 0) i = n.parent;
    else if (dir === 'down' && n.children.length && !this.collapsed.has(i)) i = n.children[0];
    else if ((dir === 'prev' || dir === 'next') && n.parent >= 0) {
      const sib = this.model.nodes[n.parent].children;
      const j = sib.indexOf(i) + (dir === 'next' ? 1 : -1);
      if (j >= 0 && j < sib.length) i = sib[j];
    }
    this.select(i);
    this.reveal(i);
  }

  summary() {
    if (!this.model) return '';
    const c = countersAt(this.model, this.step);
    const root = this.model.nodes[this.model.root];
    const st = root ? nodeAt(this.model, root, this.step) : null;
    return `${this.label}: visited ${c.visited}, pruned ${c.pruned}${st?.value !== null && st?.value !== undefined ? `, root value ${fmt(st.value)}` : ''}`;
  }
}
