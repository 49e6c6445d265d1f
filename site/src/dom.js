// Small DOM helpers. Text from games is always set as text (textContent,
// attributes), never parsed as HTML: nothing here touches innerHTML.

/**
 * Creates an element. `props`: `class`, `text`, `on` ({event: handler}),
 * `data` ({key: value}), any other key is set as an attribute (booleans:
 * present or absent). Children may be nodes, strings (as text) or null.
 */
export function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key === 'on') for (const [ev, fn] of Object.entries(value)) node.addEventListener(ev, fn);
    else if (key === 'data') for (const [k, v] of Object.entries(value)) node.dataset[k] = v;
    else if (key === 'style' && typeof value === 'object') Object.assign(node.style, value);
    else if (key === 'value') node.value = value;
    else if (key === 'checked' || key === 'disabled' || key === 'hidden' || key === 'selected') node[key] = Boolean(value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** A <select> with options [[value, label], ...]. */
export function select(options, value, props = {}) {
  const node = h('select', props);
  for (const [v, label] of options) {
    node.append(h('option', { value: v, text: label, selected: v === value }));
  }
  node.value = value;
  return node;
}

/** A labelled control: <label>text control</label>. */
export function labelled(text, control, props = {}) {
  return h('label', { class: 'field', ...props }, h('span', { class: 'field-label', text }), control);
}

/** Formats milliseconds as "0.4 s" / "12 ms". */
export function formatMs(ms) {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

/** Whether a keyboard event comes from a text field (shortcuts stay out of typing). */
export function isTyping(event) {
  const t = event.composedPath?.()[0] ?? event.target;
  if (!(t instanceof Element)) return false;
  return t.closest('input, textarea, select, [contenteditable], .cm-editor') !== null;
}

const ICONS = {
  start: 'M5 4h2v16H5zM19 4v16L8 12z',
  back: 'M17 4v16L6 12z',
  play: 'M7 4v16l13-8z',
  pause: 'M6 4h4v16H6zM14 4h4v16h-4z',
  forward: 'M7 4v16l11-8zM18 4h2v16h-2z',
  end: 'M5 4v16l11-8zM17 4h2v16h-2z',
};

/** A small inline SVG icon (media controls), hidden from screen readers: the button has a label. */
export function icon(name) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '18');
  svg.setAttribute('height', '18');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', 'icon');
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', ICONS[name]);
  path.setAttribute('fill', 'currentColor');
  svg.append(path);
  return svg;
}
