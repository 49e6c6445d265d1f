// KIF (the syntax of GDL) for CodeMirror 6: a stream tokenizer with
// highlighting (GDL keywords, `<=`, `?variables`, numbers, comments,
// brackets, the relation name after a `(`) and Lisp-style indentation
// (arguments line up under the first argument of their form, the body of a
// rule four columns in, as `gdlkit fmt` writes it). Colours and indentation
// only: the page parses no game text itself (checks, formatting, fixes,
// boards and moves all come from the engine, crate/).

import { HighlightStyle, LanguageSupport, StreamLanguage, syntaxHighlighting } from '@codemirror/language';
import { tags as t } from '@lezer/highlight';

/**
 * GDL's keywords, GDL-II's (`sees`, the chance role `random`) and KIF's
 * logical connectives (lower case; KIF ignores case).
 */
export const KEYWORDS = new Set([
  'role', 'init', 'true', 'next', 'legal', 'does', 'goal', 'terminal', 'base', 'input',
  'sees', 'random',
  'distinct', 'not', 'or', 'and',
]);

const WORD = /^[^\s();?"]+/;

function copyStack(stack) {
  return stack.map((f) => ({ ...f }));
}

export const kifLanguage = StreamLanguage.define({
  name: 'kif',

  startState() {
    // One frame per open `(`: its column, the column of its first argument
    // (once seen on the same line), and how many elements it has so far.
    return { stack: [], afterOpen: false };
  },

  copyState(s) {
    return { stack: copyStack(s.stack), afterOpen: s.afterOpen };
  },

  token(stream, state) {
    if (stream.sol()) {
      // Arguments on a later line do not define the alignment column.
      for (const f of state.stack) f.line = false;
    }
    if (stream.eatSpace()) {
      return null;
    }
    const top = state.stack[state.stack.length - 1];
    const col = stream.column();
    const element = () => {
      if (top) {
        top.count += 1;
        if (top.count === 2 && top.line && top.arg === null) top.arg = col;
      }
    };
    const ch = stream.peek();
    if (ch === ';') {
      stream.skipToEnd();
      return 'comment';
    }
    if (ch === '(') {
      stream.next();
      element();
      state.stack.push({ col, arg: null, count: 0, line: true });
      state.afterOpen = true;
      return 'paren';
    }
    if (ch === ')') {
      stream.next();
      state.stack.pop();
      state.afterOpen = false;
      return 'paren';
    }
    const first = state.afterOpen;
    state.afterOpen = false;
    element();
    if (ch === '?') {
      stream.next();
      stream.match(WORD);
      return 'variableName';
    }
    if (ch === '"') {
      stream.next();
      while (!stream.eol()) {
        if (stream.next() === '"') break;
      }
      return 'string';
    }
    if (stream.match('<=') && (stream.eol() || /[\s()]/.test(stream.peek()))) {
      return 'operatorKeyword';
    }
    if (!stream.match(WORD)) {
      stream.next();
      return 'invalid';
    }
    const word = stream.current().toLowerCase();
    if (KEYWORDS.has(word)) {
      return 'keyword';
    }
    if (/^-?\d+$/.test(word)) {
      return 'number';
    }
    return first ? 'function' : 'atom';
  },

  indent(state, _textAfter, cx) {
    const { stack } = state;
    if (stack.length === 0) {
      return 0;
    }
    const top = stack[stack.length - 1];
    // A line that starts with `)` (usually the bracket closed automatically,
    // pushed down by Enter) is indented like an argument: the text typed
    // before it is one.
    if (top.arg !== null) {
      return top.arg;
    }
    return top.col + (cx?.unit ?? 4);
  },

  languageData: {
    commentTokens: { line: ';' },
    closeBrackets: { brackets: ['(', '"'] },
    indentOnInput: /^\s*\)$/,
  },

  tokenTable: {
    paren: t.paren,
    operatorKeyword: t.definitionOperator,
    function: t.function(t.variableName),
  },
});

/** Colours with at least 4.5:1 contrast on white (WCAG AA). */
export const kifHighlight = HighlightStyle.define([
  { tag: t.comment, color: '#5c6370', fontStyle: 'italic' },
  { tag: t.keyword, color: '#7a1fa2', fontWeight: '600' },
  { tag: t.definitionOperator, color: '#b0003a', fontWeight: '700' },
  { tag: t.variableName, color: '#0b6e4f' },
  { tag: t.function(t.variableName), color: '#1a4fb5' },
  { tag: t.number, color: '#a04500' },
  { tag: t.atom, color: '#1d2330' },
  { tag: t.string, color: '#8a4b00' },
  { tag: t.paren, color: '#6b7280' },
  { tag: t.invalid, color: '#b3261e', textDecoration: 'underline' },
]);

/** The KIF language with its highlighting. */
export function kif() {
  return new LanguageSupport(kifLanguage, [syntaxHighlighting(kifHighlight)]);
}
