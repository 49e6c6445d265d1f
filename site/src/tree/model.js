// The search tree of a lecture trace (crate/play/src/trace.rs, docs/search.md):
// nodes with the event index at which each thing happens to them, so that
// the picture at any step is computed directly (stepping back is as cheap
// as stepping forward; nothing is replayed or mutated).
//
// For abstract trees such as ((3 12 8) (2 4 6) (14 5 2)) the whole tree is
// known: nodes never entered are there from the start (drawn faintly) and
// pruned subtrees keep their shape and leaf values, greyed. For game trees
// the pruned moves become single placeholder nodes.

export const INF = Infinity;

const num = (v) => (v === 'inf' ? INF : v === '-inf' ? -INF : v === null || v === undefined ? null : Number(v));

/** Formats a value or bound: 3, 50.07, ∞, −∞. */
export function fmt(v) {
  if (v === null || v === undefined || Number.isNaN(v)) return '';
  if (v === INF) return '∞';
  if (v === -INF) return '−∞';
  const r = Math.round(v * 100) / 100;
  return String(r).replace('-', '−');
}

/**
 * Builds the model from a search result with a trace. `labels` (the
 * engine's `labels` of a reordered tree) names abstract-tree moves by their
 * original child numbers.
 */
export function buildModel(result, { labels = null } = {}) {
  const events = result.events ?? [];
  const states = result.states ?? [];
  const abstract = result.game === 'tree';
  const nodes = [];
  const byId = new Map(); // trace node id → index
  const make = (props) => {
    const n = {
      index: nodes.length,
      parent: -1,
      children: [],
      depth: 0,
      kind: 'leaf',
      move: null,
      state: -1,
      enterAt: INF,
      returnAt: INF,
      leafAt: INF,
      cutoffAt: INF,
      prunedAt: INF,
      value: null,
      leafValue: null,
      staticValue: null,
      terminal: false,
      alpha: -INF,
      beta: INF,
      bounds: [],
      cutoff: null,
      path: null,
      ...props,
    };
    nodes.push(n);
    return n;
  };

  events.forEach((e, at) => {
    switch (e.type) {
      case 'enter': {
        const parent = e.parent === null || e.parent === undefined ? -1 : byId.get(e.parent) ?? -1;
        const n = make({
          id: e.node,
          parent,
          depth: e.ply ?? (parent >= 0 ? nodes[parent].depth + 1 : 0),
          kind: e.kind,
          move: e.move ?? null,
          state: e.state ?? -1,
          enterAt: at,
          alpha: num(e.alpha) ?? -INF,
          beta: num(e.beta) ?? INF,
          windowed: e.alpha !== null && e.alpha !== undefined,
          reply: Boolean(e.reply),
        });
        byId.set(e.node, n.index);
        if (parent >= 0) nodes[parent].children.push(n.index);
        break;
      }
      case 'leaf': {
        const n = nodes[byId.get(e.node)];
        if (n) Object.assign(n, { leafAt: at, leafValue: num(e.value), terminal: Boolean(e.terminal) });
        break;
      }
      case 'bound': {
        const n = nodes[byId.get(e.node)];
        n?.bounds.push({ at, bound: e.bound, value: num(e.value) });
        break;
      }
      case 'cutoff': {
        const n = nodes[byId.get(e.node)];
        if (!n) break;
        n.cutoffAt = at;
        n.cutoff = { alpha: num(e.alpha), beta: num(e.beta), value: num(e.value), pruned: (e.pruned ?? []).map((p) => p.move) };
        for (const move of n.cutoff.pruned) {
          const child = make({ parent: n.index, depth: n.depth + 1, kind: 'pruned', move, prunedAt: at, placeholder: true });
          n.children.push(child.index);
        }
        break;
      }
      case 'return': {
        const n = nodes[byId.get(e.node)];
        if (n) Object.assign(n, { returnAt: at, value: num(e.value) });
        break;
      }
      default:
        break;
    }
  });

  const best = events.find((e) => e.type === 'best_move');
  const model = {
    abstract,
    nodes,
    events,
    states,
    result,
    root: nodes.length ? 0 : -1,
    bestMove: best ? { move: best.move, value: num(best.value), at: events.indexOf(best) } : null,
    truncated: Boolean(result.truncated),
  };

  if (abstract && result.shape) completeAbstract(model);
  model.indexOfId = new Map(model.nodes.filter((n) => n.id !== undefined && !n.placeholder).map((n) => [n.id, n.index]));
  labelMoves(model, labels);
  sortChildrenBySearchOrder(model);
  computePv(model);
  computeInfoSets(model);
  return model;
}

/**
 * Adds the nodes of an abstract tree that the search never entered. Their
 * shape, who chooses at each and the leaves' values come from the engine
 * (`shape`, every node of the tree by its path of child numbers).
 */
function completeAbstract(model) {
  const { nodes } = model;
  const shape = new Map(model.result.shape.map((s) => [s.path.join(' '), s]));
  for (const n of nodes) {
    if (n.placeholder) continue;
    n.path = model.result.paths?.[n.state] ?? null; // the engine's path of the node's state
  }
  const add = (parentIndex, path, prunedAt) => {
    const s = shape.get(path.join(' '));
    const p = nodes[parentIndex];
    const leaf = s.kind === 'leaf';
    const n = {
      index: nodes.length, parent: parentIndex, children: [], depth: p.depth + 1,
      kind: s.kind, move: String(path[path.length - 1]), state: -1,
      enterAt: INF, returnAt: INF, leafAt: INF, cutoffAt: INF, prunedAt, value: null, leafValue: null,
      staticValue: leaf ? s.value : null, terminal: leaf, alpha: -INF, beta: INF, bounds: [], cutoff: null,
      path, unvisited: true,
    };
    nodes.push(n);
    p.children.push(n.index);
    for (let i = 1; i <= s.children; i++) add(n.index, [...path, i], prunedAt);
  };
  // Every entered node: give leaves their static value and add missing children.
  const entered = nodes.filter((n) => !n.placeholder && n.path);
  for (const n of entered) {
    const s = shape.get(n.path.join(' '));
    if (!s) continue;
    if (s.kind === 'leaf') {
      n.staticValue = s.value;
      continue;
    }
    const have = new Set(n.children.map((c) => nodes[c]).filter((c) => !c.placeholder).map((c) => c.path?.[c.path.length - 1]));
    // Placeholders of pruned moves become the real (greyed) subtrees.
    const pruned = n.children.map((c) => nodes[c]).filter((c) => c.placeholder);
    n.children = n.children.filter((c) => !nodes[c].placeholder);
    for (const ph of pruned) ph.dead = true;
    for (let i = 1; i <= s.children; i++) {
      if (have.has(i)) continue;
      const ph = pruned.find((p) => Number(p.move) === i);
      add(n.index, [...n.path, i], ph ? ph.prunedAt : INF);
    }
  }
  // Drop the dead placeholders (keep indices stable by compacting).
  compact(model);
}

function compact(model) {
  const keep = model.nodes.filter((n) => !n.dead);
  const map = new Map(keep.map((n, i) => [n.index, i]));
  for (const n of keep) {
    n.index = map.get(n.index);
    n.parent = n.parent >= 0 ? map.get(n.parent) : -1;
    n.children = n.children.filter((c) => map.has(c)).map((c) => map.get(c));
  }
  model.nodes = keep;
}

/** Edge labels: game moves as they are; abstract trees by original child number. */
function labelMoves(model, labels) {
  for (const n of model.nodes) {
    n.label = n.move ?? '';
  }
  if (!model.abstract || !labels) return;
  // labels: per node, its children's original numbers in the reordered order.
  const walk = (index, lab) => {
    const n = model.nodes[index];
    for (const c of n.children) {
      const child = model.nodes[c];
      const pos = Number(child.move) - 1;
      const entry = lab?.[pos];
      if (entry) {
        child.label = String(entry.label);
        walk(c, entry.sub);
      }
    }
  };
  if (model.root >= 0) walk(model.root, labels);
}

/** Children in the order the search looked at them (the move number for abstract trees). */
function sortChildrenBySearchOrder(model) {
  for (const n of model.nodes) {
    if (model.abstract) n.children.sort((a, b) => Number(model.nodes[a].move) - Number(model.nodes[b].move));
    else n.children.sort((a, b) => (model.nodes[a].enterAt === model.nodes[b].enterAt ? a - b : Math.min(model.nodes[a].enterAt, model.nodes[a].prunedAt) - Math.min(model.nodes[b].enterAt, model.nodes[b].prunedAt)));
  }
}

/** The principal variation the engine found (`principalVariation`: trace node ids from the root). */
function computePv(model) {
  const ids = model.result.principalVariation ?? [];
  model.pv = new Set(ids.map((id) => model.indexOfId.get(id)).filter((i) => i !== undefined));
}

/**
 * GDL-II: the searching role's information sets (the engine's
 * `informationSets`: node ids) as node indices, and each node's set number.
 */
function computeInfoSets(model) {
  const sets = (model.result.informationSets ?? []).map((ids) => ids.map((id) => model.indexOfId.get(id)).filter((i) => i !== undefined));
  model.infoSets = sets.filter((g) => g.length > 1);
  model.infoSetOf = new Map(model.infoSets.flatMap((g, k) => g.map((i) => [i, k + 1])));
}

/** What a node looks like at step `s` (events [0, s) applied). */
export function nodeAt(model, n, s) {
  const visited = n.enterAt < s;
  const done = n.returnAt < s;
  const pruned = n.prunedAt < s;
  const active = visited && !done;
  let value = null;
  let partial = null;
  if (done) value = n.value;
  else if (n.leafAt < s) value = n.leafValue;
  else if (active && n.children.length && n.kind !== 'chance') {
    // Best value so far among the children that have returned (a chance node's mean needs them all).
    let best = null;
    for (const c of n.children) {
      const child = model.nodes[c];
      if (child.returnAt < s) {
        if (best === null || (n.kind === 'min' ? child.value < best : child.value > best)) best = child.value;
      }
    }
    partial = best;
  }
  let alpha = n.alpha;
  let beta = n.beta;
  for (const b of n.bounds) {
    if (b.at >= s) break;
    if (b.bound === 'alpha') alpha = b.value;
    else beta = b.value;
  }
  return { visited, done, active, pruned, value, partial, alpha, beta, cut: n.cutoffAt < s };
}

/** Counters at step s: nodes visited, branches pruned, leaves evaluated. */
export function countersAt(model, s) {
  let visited = 0;
  let pruned = 0;
  let prunedNodes = 0;
  for (const n of model.nodes) {
    if (n.enterAt < s) visited++;
    if (n.prunedAt < s) {
      prunedNodes++;
      const p = model.nodes[n.parent];
      if (p && p.prunedAt >= s) pruned++;
    }
  }
  return { visited, pruned, prunedNodes, total: model.nodes.length };
}

/** The node an event is about, or -1. */
export function eventNode(model, s) {
  const e = model.events[s - 1];
  if (!e) return -1;
  return model.indexOfId.get(e.node) ?? -1;
}

const KIND = { max: 'MAX', min: 'MIN', chance: 'chance', leaf: 'leaf', forced: 'forced', pruned: 'pruned' };

/** A readable sentence for event number s-1 (what the last step did). */
export function describeEvent(model, s, name = (i) => `node ${i}`) {
  const e = model.events[s - 1];
  if (!e) return s === 0 ? 'Start: nothing searched yet.' : '';
  const i = eventNode(model, s);
  const n = i >= 0 ? model.nodes[i] : null;
  const who = n ? name(i) : `node ${e.node}`;
  switch (e.type) {
    case 'enter':
      return `Enter ${KIND[e.kind] ?? e.kind} ${who}${n?.label ? ` (move ${n.label})` : ''}${e.alpha !== null && e.alpha !== undefined ? ` with window (α, β) = (${fmt(num(e.alpha))}, ${fmt(num(e.beta))})` : ''}.`;
    case 'leaf':
      return `${who} is a leaf: value ${fmt(num(e.value))}${e.terminal ? ' (terminal)' : ' (estimate)'}.`;
    case 'bound':
      return `${e.bound === 'alpha' ? 'α' : 'β'} of ${who} becomes ${fmt(num(e.value))}.`;
    case 'cutoff': {
      const max = n?.kind === 'max';
      return `Cut-off at ${who}: ${fmt(num(e.value))} ${max ? '≥ β' : '≤ α'} = ${fmt(num(max ? e.beta : e.alpha))}; ${e.pruned?.length ?? 0} move${e.pruned?.length === 1 ? '' : 's'} pruned (${(e.pruned ?? []).map((p) => p.move).join(', ')}).`;
    }
    case 'return':
      return n?.kind === 'chance'
        ? `${who} returns ${fmt(num(e.value))}, the mean of its ${n.children.length} children (each equally likely).`
        : `${who} returns ${fmt(num(e.value))}.`;
    case 'best_move':
      return `Best move: ${model.abstract ? labelOfRootMove(model, e.move) : e.move}, value ${fmt(num(e.value))}.`;
    case 'truncated':
      return `The trace stops here: more than ${e.nodes} nodes.`;
    default:
      return e.type;
  }
}

function labelOfRootMove(model, move) {
  const root = model.nodes[model.root];
  const child = root?.children.map((c) => model.nodes[c]).find((c) => c.move === move);
  return child?.label ?? move;
}
