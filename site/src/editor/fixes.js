// Quick fixes: each gdlkit diagnostic carries its fixes, `[{title, edits:
// [{from, to, insert}]}]`, computed by the engine where the diagnostic is
// made (UTF-16 offsets into the checked text, docs/diagnostics.md). The
// editor only offers them as actions and applies the edits it is given, as
// one undoable change.

/** The CodeMirror actions of one gdlkit diagnostic (possibly none). */
export function quickFixes(d) {
  return (d.fixes ?? []).map((fix) => ({
    name: fix.title.replace(/`/g, ''),
    apply(view) {
      const length = view.state.doc.length;
      if (fix.edits.some((e) => e.to > length)) {
        return; // the text changed under the diagnostic; the next check offers fresh fixes
      }
      view.dispatch({ changes: fix.edits.map(({ from, to, insert }) => ({ from, to, insert })) });
    },
  }));
}
