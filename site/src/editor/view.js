// The rules view: the editor, its toolbar (format, problems, semantic
// check), a one-line summary of the diagnostics and the semantic check's
// progress and results (counterexamples open in the play view).

import { h, formatMs } from '../dom.js';
import { engine, features } from '../engine/client.js';
import { createEditor } from './editor.js';
import { mountGroundPanel } from './ground-panel.js';
import { mountStructurePanel } from './structure-panel.js';

const PROPERTY_LABELS = {
  terminates: 'Terminates',
  playable: 'Playable (every role always has a legal move)',
  goalsDefined: 'Goals defined in terminal states',
  monotone: 'Goals monotone',
  weaklyWinnable: 'Weakly winnable (each role can reach 100)',
  stronglyWinnable: 'Strongly winnable (a role can force 100)',
};

export function mountEditorView(panel, { text, onChange, onDiagnostics, onCounterexample, embed = false }) {
  const summary = h('button', { type: 'button', class: 'lint-summary', 'aria-live': 'polite', title: 'Open the problems panel (Ctrl+Shift+M)' });
  const formatBtn = h('button', { type: 'button', text: 'Format', title: 'Format the rules (Shift+Alt+F)', 'aria-keyshortcuts': 'Shift+Alt+F' });
  const checkBtn = h('button', { type: 'button', text: 'Check semantics', title: 'Explore the game: termination, playability, goals, winnability' });
  const structure = mountStructurePanel(() => editor.getText(), (offset) => editor.goto(offset), (ranges) => editor.highlight(ranges));
  const ground = mountGroundPanel(() => editor.getText(), (offset) => editor.goto(offset));
  const toolbar = h('div', { class: 'editor-toolbar', role: 'toolbar', 'aria-label': 'Rules tools' }, formatBtn, checkBtn, structure.button, ground.button, summary);
  const host = h('div', { class: 'editor-host' });
  const analysis = h('section', { class: 'analysis', hidden: true, 'aria-label': 'Semantic check' });
  // The Structure and Instantiation panels sit beside the editor (below it on a narrow screen).
  panel.replaceChildren(toolbar, h('div', { class: 'editor-main' }, host, structure.panel, ground.panel), analysis);

  const editor = createEditor(host, {
    doc: text,
    onChange,
    onDiagnostics(result) {
      const errors = result.diagnostics.filter((d) => d.severity === 'error').length;
      const warnings = result.diagnostics.filter((d) => d.severity === 'warning').length;
      const infos = result.diagnostics.length - errors - warnings;
      summary.textContent = result.diagnostics.length === 0
        ? '✓ No problems'
        : [errors && `${errors} error${errors === 1 ? '' : 's'}`, warnings && `${warnings} warning${warnings === 1 ? '' : 's'}`, infos && `${infos} note${infos === 1 ? '' : 's'}`].filter(Boolean).join(', ');
      summary.className = `lint-summary ${errors ? 'has-errors' : warnings ? 'has-warnings' : 'clean'}`;
      summary.dataset.errors = String(errors);
      summary.dataset.warnings = String(warnings);
      onDiagnostics?.(result);
    },
    onFormatError(e) {
      summary.textContent = e.diagnostics?.length ? 'Fix the syntax errors first: formatting needs readable text' : `Cannot format: ${e.message}`;
      summary.className = 'lint-summary has-errors';
    },
  });
  summary.textContent = 'Checking…';
  features({ deferred: true }).then((f) => {
    if (!f.analysis) {
      checkBtn.disabled = true;
      checkBtn.title = 'This build has no semantic check';
    }
  }).catch(() => {});
  summary.addEventListener('click', () => editor.openProblems());
  formatBtn.addEventListener('click', () => editor.format());

  // ---- semantic check (on demand, cancellable, with progress) ----
  let job = null;
  checkBtn.addEventListener('click', async () => {
    if (job) return;
    const started = performance.now();
    const bar = h('progress', { max: 1, 'aria-label': 'semantic check progress' });
    const label = h('span', { class: 'muted', text: 'Starting…' });
    const cancel = h('button', { type: 'button', class: 'danger', text: 'Cancel' });
    const results = h('div', { class: 'analysis-results' });
    analysis.replaceChildren(h('h3', { text: 'Semantic check' }), h('div', { class: 'row' }, bar, label, cancel), results);
    analysis.hidden = false;
    checkBtn.disabled = true;
    const call = engine().think.call('analyze', { kif: editor.getText(), options: {} }, {
      onProgress(p) {
        // Exploring has no known end (the state count is open): an
        // indeterminate bar; sampling counts its playouts.
        if (p.phase === 'sampling' && p.maxPlayouts) bar.value = Math.min(p.playouts / p.maxPlayouts, 1);
        else bar.removeAttribute('value');
        label.textContent = `${String(p.phase).toLowerCase()}: ${p.states ?? 0} states${p.playouts ? `, ${p.playouts} playouts` : ''} · ${formatMs(performance.now() - started)}`;
      },
    });
    job = call;
    let stopped = false;
    cancel.addEventListener('click', () => {
      stopped = true;
      // Soft: the job stops between two slices (GdlWorker restarts the worker if it does not).
      call.cancel();
    });
    try {
      const result = await call;
      renderReport(results, result, { onCounterexample, goto: (d) => editor.goto(d.from, d.to) });
      label.textContent = `Done in ${formatMs(performance.now() - started)}.${result?.error ? ` The engine stopped early: ${result.error}` : ''}`;
      bar.value = 1;
    } catch (e) {
      if (e.partial) renderReport(results, e.partial, { onCounterexample, goto: (d) => editor.goto(d.from, d.to), partial: true });
      label.textContent = stopped || e.name === 'Cancelled' ? 'Cancelled.' : e.name === 'GdlUnsupported' ? 'This build has no semantic check yet.' : `Failed: ${e.message}`;
      if (e.diagnostics?.length) label.textContent = 'Fix the errors in the rules first.';
    } finally {
      job = null;
      checkBtn.disabled = false;
      cancel.hidden = true;
    }
  });

  if (embed) toolbar.classList.add('compact');
  return editor;
}

/** The analysis report: one line per property, counterexamples as "Open in play" buttons. */
/** `result`: {report, diagnostics, error} of the package's `analyze` job. */
function renderReport(box, result, { onCounterexample, goto, partial = false }) {
  box.replaceChildren();
  const report = result?.report;
  if (!report) return;
  const props = report.properties ?? {};
  box.append(h('p', { class: 'muted', text: `${partial ? 'Stopped early. So far: ' : ''}${report.mode ?? ''} exploration, ${report.states ?? '?'} states${report.terminalStates !== undefined ? ` (${report.terminalStates} terminal)` : ''}${report.maxDepth !== undefined ? `, depth ${report.maxDepth}` : ''}.` }));
  const list = h('ul', { class: 'properties' });
  for (const [name, p] of Object.entries(props)) {
    const verdict = p.holds === true ? 'yes' : p.holds === false ? 'no' : 'unknown';
    const item = h('li', { class: `prop ${verdict}`, data: { property: name } },
      h('span', { class: 'verdict', text: verdict === 'yes' ? '✓' : verdict === 'no' ? '✗' : '?' , 'aria-label': verdict }),
      h('span', { class: 'prop-name', text: PROPERTY_LABELS[name] ?? name }),
      p.detail ? h('span', { class: 'muted', text: ` — ${p.detail}` }) : '');
    if (Array.isArray(p.counterexample)) {
      item.append(' ', h('button', {
        type: 'button',
        class: 'small',
        text: p.counterexample.length ? `Open the counterexample in Play (${p.counterexample.length} step${p.counterexample.length === 1 ? '' : 's'})` : 'Open the initial state in Play',
        on: { click: () => onCounterexample?.(p.counterexample) },
      }));
    }
    list.append(item);
  }
  box.append(list);
  // The analysis' findings placed in the rules (GDL2xx), each a link to its place.
  const diags = result.diagnostics ?? [];
  if (diags.length) {
    box.append(h('h4', { text: 'In the rules' }), h('ul', { class: 'analysis-diagnostics' }, diags.map((d) => h('li', {},
      h('button', { type: 'button', class: 'link', text: `${d.line}:${d.column}`, on: { click: () => goto?.(d) } }),
      ` ${d.code} ${d.message}`, d.hint ? h('div', { class: 'muted', text: `hint: ${d.hint}` }) : ''))));
  }
}
