// The KIF editor: CodeMirror 6 with KIF highlighting, bracket matching,
// auto-indent, the formatter (button and Shift-Alt-F) and live diagnostics
// from the validator in the `check` worker (@codemirror/lint: squiggles,
// gutter marks, the problems panel, hints, quick fixes).

import { autocompletion, closeBrackets, closeBracketsKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, foldGutter, indentOnInput, indentUnit } from '@codemirror/language';
import { forceLinting, lintGutter, lintKeymap, linter, openLintPanel } from '@codemirror/lint';
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search';
import { EditorState, StateEffect, StateField } from '@codemirror/state';
import {
  Decoration,
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { deferEngineUntil, runCheck, startChecker } from '../engine/client.js';
import { kif, KEYWORDS } from './kif.js';
import { quickFixes } from './fixes.js';

/** Rules marked in the text (the Structure panel's highlight): ranges set by `setMarks`, moved with edits. */
const setMarks = StateEffect.define();
const marks = StateField.define({
  create: () => Decoration.none,
  update(value, tr) {
    let next = value.map(tr.changes);
    for (const e of tr.effects) {
      if (e.is(setMarks)) next = Decoration.set(e.value.map(([from, to]) => Decoration.mark({ class: 'cm-structure-rule' }).range(from, to)), true);
    }
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});

/**
 * Runs the validator on the latest text only: while a check runs, newer
 * requests replace each other, and the superseded ones resolve empty (the
 * lint extension drops results for a document that has changed anyway).
 */
class LatestOnly {
  constructor(run) {
    this.run = run;
    this.running = false;
    this.waiting = null;
  }

  request(text) {
    return new Promise((resolve, reject) => {
      if (this.running) {
        this.waiting?.resolve(null);
        this.waiting = { text, resolve, reject };
        return;
      }
      this.start({ text, resolve, reject });
    });
  }

  start(job) {
    this.running = true;
    this.run(job.text)
      .then(job.resolve, job.reject)
      .finally(() => {
        this.running = false;
        const next = this.waiting;
        this.waiting = null;
        if (next) this.start(next);
      });
  }
}

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

/** The message of a diagnostic with its code, hint and related places (as text). */
function renderMessage(d) {
  const box = el('div', undefined, 'cm-gdl-message');
  const head = el('div');
  head.append(el('span', d.code, 'cm-gdl-code'), ' ', d.message);
  box.append(head);
  if (d.hint) {
    box.append(el('div', `hint: ${d.hint}`, 'cm-gdl-hint'));
  }
  for (const r of d.related ?? []) {
    box.append(el('div', `${r.line}:${r.column}: ${r.message}`, 'cm-gdl-related'));
  }
  return box;
}

/** A CodeMirror diagnostic from a gdlkit one (positions already UTF-16). */
export function toCodeMirror(d, docLength) {
  const from = Math.min(d.from, docLength);
  const to = Math.min(Math.max(d.to, from), docLength);
  return {
    from,
    to,
    severity: d.severity === 'info' ? 'info' : d.severity,
    source: d.code,
    message: `${d.message}${d.hint ? ` (hint: ${d.hint})` : ''}`,
    renderMessage: () => renderMessage(d),
    actions: quickFixes(d),
  };
}

const editorTheme = EditorView.theme({
  '&': { height: '100%', fontSize: '14px', backgroundColor: '#fff' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', lineHeight: '1.5' },
  '.cm-content': { caretColor: '#1d2330' },
  '.cm-gutters': { backgroundColor: '#f3f4f7', color: '#5d6677', borderRight: '1px solid #d9dde5' },
  '.cm-activeLine': { backgroundColor: '#f1f5fd' },
  '.cm-structure-rule': { backgroundColor: '#fff1b8', boxShadow: '0 0 0 1px #e0b800' },
  '.cm-activeLineGutter': { backgroundColor: '#e4ebf8' },
  '.cm-matchingBracket': { backgroundColor: '#d3e2ff', outline: '1px solid #8fb0ef' },
  '.cm-nonmatchingBracket': { backgroundColor: '#ffd9d6' },
  '.cm-gdl-code': { fontFamily: 'ui-monospace, monospace', fontWeight: '600', marginRight: '0.3em' },
  '.cm-gdl-hint': { color: '#3d4657', marginTop: '2px' },
  '.cm-gdl-related': { color: '#3d4657', fontSize: '0.9em' },
  // The focused problems panel marks its selected item in the system's highlight colours.
  '.cm-panel.cm-panel-lint ul:focus [aria-selected] :is(.cm-gdl-hint, .cm-gdl-related)': { color: 'inherit' },
  '.cm-tooltip-lint': { maxWidth: '40rem' },
  '.cm-diagnosticAction': { backgroundColor: '#2456c7' },
});

/** Completion of GDL keywords and the names already used in the text. */
function completeWords(context) {
  const word = context.matchBefore(/[?A-Za-z_][\w\-+.]*$/);
  if (!word || (word.from === word.to && !context.explicit)) {
    return null;
  }
  const text = context.state.doc.toString();
  const seen = new Set();
  const options = [];
  for (const k of KEYWORDS) {
    seen.add(k);
    options.push({ label: k, type: 'keyword' });
  }
  for (const m of text.matchAll(/\??[A-Za-z_][\w\-+.]*/g)) {
    const w = m[0];
    if (!seen.has(w) && m.index !== word.from) {
      seen.add(w);
      options.push({ label: w, type: w.startsWith('?') ? 'variable' : 'text' });
    }
  }
  return { from: word.from, options, validFor: /^[?\w\-+.]*$/ };
}

/**
 * Creates the editor in `parent`. `onChange(text)` runs after each change;
 * `onDiagnostics({diagnostics, latency, wasm})` after each check (latency: the round trip to the
 * check worker; wasm: 'check' or 'engine', which answered).
 */
export function createEditor(parent, { doc = '', onChange, onDiagnostics, onFormatError } = {}) {
  const checker = new LatestOnly((text) => runCheck('check', { text }));
  // The check worker starts as soon as the editor is shown, and the
  // engine's own load waits for the check wasm or the first check
  // (engine/client.js).
  let firstChecked;
  deferEngineUntil(new Promise((resolve) => {
    firstChecked = resolve;
  }));
  setTimeout(startChecker);

  const diagnose = async (view) => {
    const text = view.state.doc.toString();
    const started = performance.now();
    let result;
    try {
      result = await checker.request(text);
    } catch (e) {
      if (e.name === 'Cancelled') return [];
      throw e;
    }
    if (result === null) {
      return [];
    }
    const diagnostics = result.value;
    onDiagnostics?.({ diagnostics, latency: performance.now() - started, text, wasm: result.wasm });
    return diagnostics.map((d) => toCodeMirror(d, view.state.doc.length));
  };
  const source = async (view) => {
    try {
      return await diagnose(view);
    } finally {
      firstChecked(); // the first diagnostics are out (or failed): the engine may load
    }
  };

  let view;
  const format = async () => {
    const text = view.state.doc.toString();
    let formatted;
    try {
      formatted = (await runCheck('format', { text })).value;
    } catch (e) {
      onFormatError?.(e);
      return false;
    }
    if (view.state.doc.toString() !== text || formatted === text) {
      return formatted === text;
    }
    replaceMinimal(view, formatted);
    return true;
  };

  const formatKey = {
    key: 'Shift-Alt-f',
    run: () => {
      format();
      return true;
    },
  };

  const extensions = [
        lineNumbers(),
        highlightActiveLineGutter(),
        foldGutter(),
        history(),
        drawSelection(),
        indentUnit.of('    '),
        indentOnInput(),
        bracketMatching(),
        closeBrackets(),
        autocompletion({ override: [completeWords], activateOnTyping: false }),
        highlightActiveLine(),
        highlightSelectionMatches(),
        kif(),
        marks,
        linter(source, { delay: 150 }),
        lintGutter(),
        keymap.of([
          formatKey,
          ...closeBracketsKeymap,
          ...defaultKeymap,
          ...historyKeymap,
          ...searchKeymap,
          ...lintKeymap,
          indentWithTab,
        ]),
        EditorView.lineWrapping,
        editorTheme,
        EditorView.contentAttributes.of({ 'aria-label': 'Game rules (KIF)', spellcheck: 'false' }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) {
            onChange?.(update.state.doc.toString());
          }
        }),
  ];
  view = new EditorView({ parent, state: EditorState.create({ doc, extensions }) });

  return {
    view,
    getText: () => view.state.doc.toString(),
    /** Replaces the whole text (a new document: the undo history restarts). */
    setText(text) {
      view.setState(EditorState.create({ doc: text, extensions }));
      onChange?.(text);
    },
    /** Replaces the text as one undoable change. */
    replaceText(text) {
      replaceMinimal(view, text);
    },
    format,
    openProblems: () => openLintPanel(view),
    relint: () => forceLinting(view),
    focus: () => view.focus(),
    /** Marks these `[from, to]` ranges (UTF-16 offsets, as Rust gives them) and scrolls to the first; [] clears. */
    highlight(ranges) {
      const n = view.state.doc.length;
      const valid = ranges.map(([a, b]) => [Math.max(0, Math.min(a, n)), Math.max(0, Math.min(b, n))]).filter(([a, b]) => a < b);
      const effects = [setMarks.of(valid)];
      if (valid.length) effects.push(EditorView.scrollIntoView(valid[0][0], { y: 'center' }));
      view.dispatch({ effects });
    },
    goto(from, to = from) {
      view.dispatch({ selection: { anchor: from, head: to }, scrollIntoView: true });
      view.focus();
    },
  };
}

/** Replaces the document by `text`, changing only the part that differs. */
export function replaceMinimal(view, text) {
  const old = view.state.doc.toString();
  let start = 0;
  while (start < old.length && start < text.length && old[start] === text[start]) start++;
  let endOld = old.length;
  let endNew = text.length;
  while (endOld > start && endNew > start && old[endOld - 1] === text[endNew - 1]) {
    endOld--;
    endNew--;
  }
  view.dispatch({ changes: { from: start, to: endOld, insert: text.slice(start, endNew) } });
}
