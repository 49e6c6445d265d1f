// Tidy tree layout (Reingold–Tilford style, with subtree contours): each
// parent centred over its children, subtrees as close as their contours
// allow, every level on one line. Iterative (no recursion: trees can be
// deep), O(n · height). Collapsed nodes count as leaves.
//
// Returns Float64Array x (in units of one node slot) per node index, the
// depth per node, the nodes per depth sorted by x (for viewport culling and
// hit tests), and the extent.

export function layoutTree(nodes, root, { collapsed = new Set(), separation = 1, subtreeSeparation = 1.25 } = {}) {
  const n = nodes.length;
  const rel = new Float64Array(n); // x relative to the parent
  const x = new Float64Array(n).fill(NaN);
  const left = new Array(n); // contours relative to the node's own x, per depth below it
  const right = new Array(n);
  if (root < 0 || n === 0) return { x, rows: [], width: 0, height: 0, visible: new Uint8Array(n) };

  // Post-order over the visible tree (explicit stack).
  const order = [];
  const stack = [root];
  const visible = new Uint8Array(n);
  while (stack.length) {
    const v = stack.pop();
    visible[v] = 1;
    order.push(v);
    if (!collapsed.has(v)) for (const c of nodes[v].children) stack.push(c);
  }
  for (let k = order.length - 1; k >= 0; k--) {
    const v = order[k];
    const kids = collapsed.has(v) ? [] : nodes[v].children;
    if (kids.length === 0) {
      left[v] = [0];
      right[v] = [0];
      continue;
    }
    const offsets = new Array(kids.length);
    const cl = left[kids[0]].slice();
    const cr = right[kids[0]].slice();
    offsets[0] = 0;
    for (let i = 1; i < kids.length; i++) {
      const c = kids[i];
      const lc = left[c];
      const rc = right[c];
      let shift = -Infinity;
      const depth = Math.min(cr.length, lc.length);
      for (let d = 0; d < depth; d++) {
        const gap = d === 0 ? separation : subtreeSeparation;
        shift = Math.max(shift, cr[d] - lc[d] + gap);
      }
      shift = Math.max(shift, offsets[i - 1] + separation);
      offsets[i] = shift;
      for (let d = 0; d < rc.length; d++) {
        if (d < cr.length) cr[d] = shift + rc[d];
        else cr.push(shift + rc[d]);
      }
      for (let d = cl.length; d < lc.length; d++) cl.push(shift + lc[d]);
      left[c] = null; // free memory early
      right[c] = null;
    }
    left[kids[0]] = null;
    right[kids[0]] = null;
    const mid = (offsets[0] + offsets[kids.length - 1]) / 2;
    kids.forEach((c, i) => {
      rel[c] = offsets[i] - mid;
    });
    const l = [0];
    const r = [0];
    for (const v2 of cl) l.push(v2 - mid);
    for (const v2 of cr) r.push(v2 - mid);
    left[v] = l;
    right[v] = r;
  }
  // Pre-order: absolute positions, shifted so that the leftmost node is at 0.
  const minLeft = Math.min(...left[root]);
  x[root] = -minLeft;
  let maxX = 0;
  let maxDepth = 0;
  const rows = [];
  for (let k = 0; k < order.length; k++) {
    const v = order[k];
    if (v !== root) x[v] = x[nodes[v].parent] + rel[v];
    const d = nodes[v].depth - nodes[root].depth;
    if (!rows[d]) rows[d] = [];
    rows[d].push(v);
    if (x[v] > maxX) maxX = x[v];
    if (d > maxDepth) maxDepth = d;
  }
  for (const row of rows) row.sort((a, b) => x[a] - x[b]);
  return { x, rows, width: maxX + 1, height: maxDepth + 1, visible };
}

/** Number of nodes under v (v included). */
export function subtreeSize(nodes, v) {
  let count = 0;
  const stack = [v];
  while (stack.length) {
    const u = stack.pop();
    count++;
    for (const c of nodes[u].children) stack.push(c);
  }
  return count;
}
