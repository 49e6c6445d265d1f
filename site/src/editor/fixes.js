// Quick fixes for diagnostics whose hint names one exact edit. The
// validator reports a code, a span and a hint; where the code says what the
// edit is, the editor offers it as an action (in the tooltip and the
// problems panel). Every fix is one undoable change.

/** The first `quoted` part of a hint (e.g. "write `terminal`" → "terminal"). */
function quoted(hint) {
  const m = /`([^`]+)`/.exec(hint ?? '');
  return m ? m[1] : null;
}

const replace = (name, insert) => ({
  name,
  apply(view, from, to) {
    view.dispatch({ changes: { from, to, insert }, selection: { anchor: from + insert.length } });
  },
});

/** Removes the span and the blank space it leaves at the end of its line. */
const remove = (name) => ({
  name,
  apply(view, from, to) {
    const line = view.state.doc.lineAt(to);
    let end = to;
    if (line.text.slice(to - line.from).trim() === '' && view.state.doc.lineAt(from).text.slice(0, from - view.state.doc.lineAt(from).from).trim() === '') {
      end = Math.min(line.to + 1, view.state.doc.length);
    }
    view.dispatch({ changes: { from, to: end } });
  },
});

/** The quick fixes for one gdlkit diagnostic (possibly none). */
export function quickFixes(d) {
  const word = quoted(d.hint);
  switch (d.code) {
    case 'GDL001': // an unexpected `)`
      return [replace('Remove )', '')];
    case 'GDL002': {
      // An unclosed `(`: close it where the parser resumed (before the next form).
      const at = d.related?.[0]?.from ?? Infinity;
      return [
        {
          name: 'Insert )',
          apply(view) {
            // Close right after the last non-blank text before the next form.
            const doc = view.state.doc;
            let pos = Math.min(at, doc.length);
            while (pos > 0 && /\s/.test(doc.sliceString(pos - 1, pos))) pos--;
            view.dispatch({ changes: { from: pos, insert: ')' } });
          },
        },
      ];
    }
    case 'GDL003': // `?` without a name
      return [replace('Name it ?x', '?x')];
    case 'GDL011': // another rule arrow
      return [replace('Use <=', '<=')];
    case 'GDL107': // `(terminal)` → `terminal`
      return word && /^[^\s()]+$/.test(word) ? [replace(`Write ${word}`, word)] : [];
    case 'GDL111': // `(<= head)` is the fact `head`
      return [
        {
          name: 'Write the fact',
          apply(view, from, to) {
            const m = /^\(\s*<=\s*([\s\S]*?)\s*\)$/.exec(view.state.sliceDoc(from, to));
            if (m) view.dispatch({ changes: { from, to, insert: m[1] } });
          },
        },
      ];
    case 'GDL109': // a duplicate
      return [remove('Remove the copy')];
    case 'GDL103': {
      // "did you mean `x`"
      const m = /did you mean `([^`]+)`/.exec(`${d.message} ${d.hint}`);
      return m ? [replace(`Use ${m[1]}`, m[1])] : [];
    }
    default:
      return [];
  }
}
