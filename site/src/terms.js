// Reading ground terms as the engine prints them ("(cell 1 2 x)", "noop")
// into nested arrays, for display only (boards, labels). The rules are never
// evaluated here: every game question goes to the engine.

/** Parses canonical term text: an atom is a string, a compound an array. */
export function parseTerm(text) {
  const tokens = text.match(/\(|\)|[^\s()]+/g) ?? [];
  let i = 0;
  const stack = [[]];
  for (; i < tokens.length; i++) {
    const tok = tokens[i];
    if (tok === '(') {
      stack.push([]);
    } else if (tok === ')') {
      if (stack.length === 1) break;
      const done = stack.pop();
      stack[stack.length - 1].push(done);
    } else {
      stack[stack.length - 1].push(tok);
    }
  }
  while (stack.length > 1) {
    const done = stack.pop();
    stack[stack.length - 1].push(done);
  }
  return stack[0][0] ?? '';
}

/** Prints a parsed term back as canonical text. */
export function termText(term) {
  return Array.isArray(term) ? `(${term.map(termText).join(' ')})` : term;
}

/** The name of a term: its atom or its function symbol. */
export function termName(term) {
  return Array.isArray(term) ? String(term[0] ?? '') : term;
}

/** The arguments of a compound term (none for an atom). */
export function termArgs(term) {
  return Array.isArray(term) ? term.slice(1) : [];
}

/**
 * Top-level forms of a KIF text as parsed terms (comments dropped), used to
 * find static ordering facts such as `(succ 1 2)` for board axes.
 */
export function topLevelForms(text, limit = 20000) {
  const forms = [];
  const clean = text.replace(/;[^\n]*/g, ' ');
  const tokens = clean.match(/\(|\)|[^\s()]+/g) ?? [];
  const stack = [];
  for (const tok of tokens) {
    if (tok === '(') {
      stack.push([]);
    } else if (tok === ')') {
      const done = stack.pop();
      if (!done) continue;
      if (stack.length) stack[stack.length - 1].push(done);
      else if (forms.push(done) >= limit) break;
    } else if (stack.length) {
      stack[stack.length - 1].push(tok.toLowerCase());
    } else {
      forms.push(tok.toLowerCase());
    }
  }
  return forms;
}
