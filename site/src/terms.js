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
