//! Compile-time passes over the network, run once when the fast engine is
//! built (no behaviour at run time of their own): which nodes only goals
//! need ([`lazy_nodes`]), gate flattening ([`flatten`]), the order of input
//! flips ([`frame_inputs`]), legal gating ([`legal_gates`]), levels
//! ([`levels`]) and wide ORs over moves as their complement
//! ([`complement_ors`]; factoring, which prepares some, is in `factor.rs`).
//! `engine.rs` applies their results; `docs/fast-engine.md` (pipeline steps
//! 6-9 and the sessions after) has the measurements behind each.

use super::network::{Network, HOOK_LEGAL, HOOK_MASK, LEAF, MAX_FAN_IN, NONE};
use super::tables::Tables;
use rustc_hash::FxHashMap;

/// Nodes that only goals need: not an input of terminal, of a legal or
/// next proposition, or of a cycle (cycles are always propagated).
pub(super) fn lazy_nodes(net: &Network, terminal: u32) -> Vec<bool> {
    let n = net.len();
    let mut preds_start = vec![0u32; n + 1];
    for &e in &net.out {
        preds_start[(e >> 1) as usize + 1] += 1;
    }
    for i in 0..n {
        preds_start[i + 1] += preds_start[i];
    }
    let mut preds = vec![0u32; net.out.len()];
    let mut fill = preds_start.clone();
    for v in 0..n {
        for &e in &net.out[net.out_start[v] as usize..net.out_start[v + 1] as usize] {
            let t = (e >> 1) as usize;
            preds[fill[t] as usize] = v as u32;
            fill[t] += 1;
        }
    }
    let mut needed = vec![false; n];
    let mut stack: Vec<u32> = vec![terminal];
    for v in 0..n {
        let hooked = net.hook_start[v] != net.hook_start[v + 1];
        if hooked || net.scc[v] != NONE || net.thr[v] == LEAF {
            stack.push(v as u32);
        }
    }
    while let Some(v) = stack.pop() {
        let v = v as usize;
        if std::mem::replace(&mut needed[v], true) {
            continue;
        }
        stack.extend_from_slice(&preds[preds_start[v] as usize..preds_start[v + 1] as usize]);
    }
    needed.iter().map(|&x| !x).collect()
}

/// Gate flattening: an OR gate whose only successor is an OR gate (an AND
/// gate whose only successor is an AND gate), through a positive edge,
/// is merged into it: its inputs feed the successor directly (an AND's
/// threshold grows by the merged gate's inputs less one). Each flip of such
/// an input then updates one count, as before, but the inner gate no longer
/// flips. Bucket elimination makes such chains: breakthrough's frame rule
/// becomes "a move to (x2, y2) from a cell other than (x, y)" (one OR per
/// destination and cell) ORed into "a move leaves (x, y) alone", and every
/// move switched ~63 of the inner ORs. Gates with hooks, the terminal and
/// goal nodes, and cyclic components are left alone, and a merge that would
/// give the successor a second edge from the same node is skipped.
pub(super) fn flatten(net: &mut Network, t: &Tables) -> usize {
    let n = net.len();
    let mut keep = vec![false; n];
    keep[t.terminal as usize] = true;
    for g in t.goals.iter().flatten() {
        keep[g.1 as usize] = true;
    }
    for p in t.sees.iter().flatten().flatten() {
        keep[p.1 as usize] = true;
    }
    let mut out: Vec<Vec<u32>> = (0..n)
        .map(|v| net.out[net.out_start[v] as usize..net.out_start[v + 1] as usize].to_vec())
        .collect();
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (v, outs) in out.iter().enumerate() {
        for &e in outs {
            preds[(e >> 1) as usize].push(v as u32);
        }
    }
    let gate = |net: &Network, v: usize| net.thr[v] != LEAF && net.scc[v] == NONE;
    let mut mark = Marks::new(n);
    let mut merged = 0;
    for i in 0..net.topo.len() {
        let v = net.topo[i] as usize;
        if keep[v]
            || !gate(net, v)
            || net.hook_start[v] != net.hook_start[v + 1]
            || out[v].len() != 1
            || out[v][0] & 1 != 0
        {
            continue;
        }
        let tg = (out[v][0] >> 1) as usize;
        if !gate(net, tg) {
            continue;
        }
        let or = net.thr[v] == 1 && net.thr[tg] == 1;
        let and = net.thr[v] as usize == preds[v].len() && net.thr[tg] as usize == preds[tg].len();
        if !(or || and)
            || preds[v].len() + preds[tg].len() > MAX_FAN_IN
            || shares_pred(&preds, &out, v, tg, &mut mark)
        {
            continue;
        }
        let mut ps = std::mem::take(&mut preds[v]);
        ps.sort_unstable();
        ps.dedup();
        for &p in &ps {
            for e in out[p as usize].iter_mut() {
                if (*e >> 1) as usize == v {
                    *e = (tg as u32) << 1 | (*e & 1);
                    preds[tg].push(p);
                }
            }
        }
        let at = preds[tg]
            .iter()
            .position(|&p| p as usize == v)
            .expect("edge v -> tg");
        preds[tg].swap_remove(at);
        if !or {
            net.thr[tg] += net.thr[v] - 1;
        }
        net.thr[v] = LEAF;
        out[v].clear();
        merged += 1;
    }
    let mut k = 0;
    net.out.clear();
    for (v, outs) in out.iter().enumerate() {
        net.out.extend_from_slice(outs);
        k += outs.len();
        net.out_start[v + 1] = k as u32;
    }
    merged
}

/// Whether a predecessor of `v` also has an edge to `tg` (then `v` cannot
/// be merged into `tg`). Scans either the predecessors' out-edges or the
/// marked predecessors of `tg`, whichever is shorter: a `does` input with
/// thousands of out-edges made the first way quadratic (amazons: 16 s).
fn shares_pred(
    preds: &[Vec<u32>],
    out: &[Vec<u32>],
    v: usize,
    tg: usize,
    mark: &mut Marks,
) -> bool {
    let scan: usize = preds[v].iter().map(|&p| out[p as usize].len()).sum();
    if scan <= preds[tg].len() + preds[v].len() {
        return preds[v]
            .iter()
            .any(|&p| out[p as usize].iter().any(|&e| (e >> 1) as usize == tg));
    }
    mark.next();
    for &p in &preds[tg] {
        mark.set(p as usize);
    }
    preds[v].iter().any(|&p| mark.is_set(p as usize))
}

/// A set of nodes cleared in O(1): a node is in it when its stamp is the
/// current one.
struct Marks {
    stamp: Vec<u32>,
    now: u32,
}

impl Marks {
    fn new(n: usize) -> Self {
        Marks {
            stamp: vec![0; n],
            now: 0,
        }
    }
    fn next(&mut self) {
        self.now += 1;
    }
    fn set(&mut self, v: usize) {
        self.stamp[v] = self.now;
    }
    fn is_set(&self, v: usize) -> bool {
        self.stamp[v] == self.now
    }
}

/// Whether most edges out of the `does` inputs go into wide ORs (16 inputs
/// or more, after [`flatten`]): frame axioms over "every move but those
/// touching this cell" (breakthrough: 19,096 of 19,712 edges; chess_200
/// 18,668 of 23,228). Such an OR is fed by both the old and the new move;
/// turning the new move on first takes its count 1 -> 2 -> 1, and it is not
/// queued, where old-first takes it 1 -> 0 (queued) -> 1 and pops it again
/// for nothing. Where the inputs feed mostly narrow gates (ticTacToe,
/// connectFour, reversi) old-first stays: there the order of propagation
/// (the new move's cone first) avoids glitches, and new-first measured 7%
/// more instructions on ticTacToe.
pub(super) fn frame_inputs(net: &Network, t: &Tables) -> bool {
    let n = net.len();
    let mut indeg = vec![0u32; n];
    for &e in &net.out {
        indeg[(e >> 1) as usize] += 1;
    }
    let mut seen = vec![false; n];
    let (mut wide, mut all) = (0usize, 0usize);
    for &i in &t.legal_input {
        if i == NONE || std::mem::replace(&mut seen[i as usize], true) {
            continue;
        }
        for &e in
            &net.out[net.out_start[i as usize] as usize..net.out_start[i as usize + 1] as usize]
        {
            let tg = (e >> 1) as usize;
            all += 1;
            if e & 1 == 0 && net.thr[tg] == 1 && indeg[tg] >= 16 && net.scc[tg] == NONE {
                wide += 1;
            }
        }
    }
    2 * wide > all
}

/// Legal gating: a legal proposition that is an AND gate with no successor
/// often shares one input with every other legal move of its role (in
/// alternating games, `(true (control ?r))`). Each flip of that input then
/// updates the counts of all those gates, and every one of them flips. Such
/// an input is taken out of the gates (threshold one lower) and applied as a
/// mask when the role's legal bits are read instead: when control passes,
/// one node flips instead of every legal move of both roles.
#[derive(Clone)]
pub(super) struct Gates {
    /// Per node: the input removed from it, or `NONE`.
    pub(super) removed: Vec<u32>,
    /// Per role `r`, gates `start[r]..start[r + 1]`: the node, and its mask
    /// over the role's legal words (from `mask[mask_at[g]]`).
    pub(super) start: Vec<u32>,
    pub(super) node: Vec<u32>,
    pub(super) mask_at: Vec<u32>,
    pub(super) mask: Vec<u64>,
}

/// A gate needs at least this many legal propositions to pay for its mask.
const MIN_GATED: usize = 4;
const MAX_GATES_PER_ROLE: usize = 8;

pub(super) fn legal_gates(net: &Network, legal_word: &[u32]) -> Gates {
    let role_of = gate_roles(net, legal_word);
    let mut per_role = gate_groups(net, &role_of, legal_word.len() - 1);
    let mut g = Gates {
        removed: vec![NONE; net.len()],
        start: vec![0],
        node: Vec::new(),
        mask_at: Vec::new(),
        mask: Vec::new(),
    };
    for (r, list) in per_role.iter_mut().enumerate() {
        list.sort_by_key(|(c, m)| (std::cmp::Reverse(m.len()), *c));
        list.truncate(MAX_GATES_PER_ROLE);
        let words = (legal_word[r + 1] - legal_word[r]) as usize;
        for (c, members) in list.iter() {
            let at = g.mask.len();
            g.mask.resize(at + words, 0);
            g.mask_at.push(at as u32);
            for &v in members {
                g.removed[v as usize] = *c;
                for &h in &net.hooks
                    [net.hook_start[v as usize] as usize..net.hook_start[v as usize + 1] as usize]
                {
                    let bit = (h & HOOK_MASK) as usize - legal_word[r] as usize * 64;
                    g.mask[at + bit / 64] |= 1 << (bit % 64);
                }
            }
            g.node.push(*c);
        }
        g.start.push(g.node.len() as u32);
    }
    g
}

fn outdeg(net: &Network, v: usize) -> u32 {
    net.out_start[v + 1] - net.out_start[v]
}

/// Candidates for gating: per node, the role of a legal AND gate with no
/// successor, outside cycles, whose hooks are all legal bits of that role;
/// `NONE` for other nodes.
fn gate_roles(net: &Network, legal_word: &[u32]) -> Vec<u32> {
    let n = net.len();
    let roles = legal_word.len() - 1;
    let mut indeg = vec![0u32; n];
    for &e in &net.out {
        indeg[(e >> 1) as usize] += 1;
    }
    let mut role_of = vec![NONE; n];
    for v in 0..n {
        let hooks = &net.hooks[net.hook_start[v] as usize..net.hook_start[v + 1] as usize];
        if hooks.is_empty() || outdeg(net, v) != 0 || net.scc[v] != NONE || net.thr[v] == LEAF {
            continue;
        }
        if net.thr[v] < 2 || net.thr[v] != indeg[v] {
            continue;
        }
        let role = |h: u32| {
            let bit = (h & HOOK_MASK) / 64;
            (0..roles)
                .find(|&r| legal_word[r] <= bit && bit < legal_word[r + 1])
                .map_or(NONE, |r| r as u32)
        };
        let r = role(hooks[0]);
        if hooks
            .iter()
            .all(|&h| h & !HOOK_MASK == HOOK_LEGAL && role(h) == r)
        {
            role_of[v] = r;
        }
    }
    role_of
}

/// Per role, the inputs worth taking out of its candidates (`role_of`):
/// each with the candidates whose best input it is, at least
/// [`MIN_GATED`] of them.
fn gate_groups(net: &Network, role_of: &[u32], roles: usize) -> Vec<Vec<(u32, Vec<u32>)>> {
    let n = net.len();
    // How many candidates of a role each positive, acyclic input feeds.
    let inputs = |v: usize| {
        net.out[net.out_start[v] as usize..net.out_start[v + 1] as usize]
            .iter()
            .filter(|&&e| e & 1 == 0 && role_of[(e >> 1) as usize] != NONE)
            .map(|&e| (e >> 1) as usize)
    };
    let mut shared: FxHashMap<(u32, u32), u32> = FxHashMap::default();
    for v in (0..n).filter(|&v| net.scc[v] == NONE) {
        for t in inputs(v) {
            *shared.entry((role_of[t], v as u32)).or_default() += 1;
        }
    }
    // Each candidate's input shared by most of its role's candidates (the
    // one of highest fan-out on ties), if it is an input once.
    let mut best = vec![NONE; n];
    let mut times = vec![0u8; n];
    let rank = |t: usize, v: usize| (shared[&(role_of[t], v as u32)], outdeg(net, v));
    for v in (0..n).filter(|&v| net.scc[v] == NONE) {
        for t in inputs(v) {
            if best[t] == v as u32 {
                times[t] = times[t].saturating_add(1);
            } else if best[t] == NONE || rank(t, v) > rank(t, best[t] as usize) {
                best[t] = v as u32;
                times[t] = 1;
            }
        }
    }
    let mut groups: FxHashMap<(u32, u32), Vec<u32>> = FxHashMap::default();
    for v in 0..n {
        if best[v] != NONE && times[v] == 1 {
            groups
                .entry((role_of[v], best[v]))
                .or_default()
                .push(v as u32);
        }
    }
    let mut per_role: Vec<Vec<(u32, Vec<u32>)>> = vec![Vec::new(); roles];
    for ((r, c), members) in groups {
        if members.len() >= MIN_GATED {
            per_role[r as usize].push((c, members));
        }
    }
    per_role
}

/// Levels: leaves 0, a node one more than its highest input; a cyclic
/// component's members share one level.
pub(super) fn levels(net: &Network, edges: &[u32]) -> Vec<u32> {
    let n = net.len();
    let mut level = vec![0u32; n];
    let mut i = 0;
    while i < n {
        let v = net.topo[i] as usize;
        let c = net.scc[v];
        let members: &[u32] = if c == NONE {
            &net.topo[i..i + 1]
        } else {
            &net.scc_members
                [net.scc_start[c as usize] as usize..net.scc_start[c as usize + 1] as usize]
        };
        let l = members
            .iter()
            .map(|&m| level[m as usize])
            .max()
            .unwrap_or(0);
        for &m in members {
            level[m as usize] = l;
        }
        for &m in members {
            let m = m as usize;
            for &e in &edges[net.out_start[m] as usize..net.out_start[m + 1] as usize] {
                let t = (e >> 2) as usize;
                if c == NONE || net.scc[t] != c {
                    level[t] = level[t].max(l + 1);
                }
            }
        }
        i += members.len();
    }
    level
}

/// Complement ORs: an OR gate fed only by `does` inputs, by most of them
/// (breakthrough's frame axiom "some move leaves (x, y) alone": all moves
/// but the ~12 touching (x, y)), is rewritten as "some input is set, and
/// none of the few others (the moves touching (x, y)) is": negated edges
/// from the inputs that do not feed it, threshold one more than their
/// number, plus a global term, the number of inputs set, which the engine
/// adds to these gates' counts when it changes. A move then updates the ~2
/// cells it touches instead of the ~62 it does not.
///
/// Inputs that feed none of the rewritten gates (breakthrough's `noop`s)
/// are left out of both the negated edges and the global term: they are in
/// no gate's OR, so they change neither side of "some input set is not
/// left out". (Counted, the two `noop`s, which swap every step in an
/// alternating game, fed every gate and cost 28% more instructions.)
/// Only gates that are propagated (not `lazy`), outside cycles, with at
/// least 16 inputs and at most half as many left out. Returns the rewritten
/// gates and, per node, whether it counts in the global term.
pub(super) fn complement_ors(
    net: &mut Network,
    t: &Tables,
    lazy: &[bool],
) -> (Vec<u32>, Vec<bool>) {
    let n = net.len();
    let mut is_input = vec![false; n];
    let mut inputs: Vec<u32> = Vec::new();
    for &i in &t.legal_input {
        if i != NONE && !std::mem::replace(&mut is_input[i as usize], true) {
            inputs.push(i);
        }
    }
    let support = input_support(net, lazy, &is_input, inputs.len());
    let Some((chosen, counted)) = choose_complemented(&support, &mut inputs) else {
        return (Vec::new(), Vec::new());
    };
    rewire_complemented(net, &chosen, &support, &inputs);
    (chosen, counted)
}

/// Predecessors, flat: node `v`'s are `pred[pred_start[v]..pred_start[v + 1]]`
/// (as `source << 1 | negated`). Returns `(pred_start, pred)`.
fn predecessors(net: &Network) -> (Vec<u32>, Vec<u32>) {
    let n = net.len();
    let mut pred_start = vec![0u32; n + 1];
    for &e in &net.out {
        pred_start[(e >> 1) as usize + 1] += 1;
    }
    for i in 0..n {
        pred_start[i + 1] += pred_start[i];
    }
    let mut pred = vec![0u32; net.out.len()];
    let mut fill = pred_start.clone();
    for v in 0..n {
        for &e in &net.out[net.out_start[v] as usize..net.out_start[v + 1] as usize] {
            let t = (e >> 1) as usize;
            pred[fill[t] as usize] = (v as u32) << 1 | (e & 1);
            fill[t] += 1;
        }
    }
    (pred_start, pred)
}

/// Per gate, the inputs its OR reaches: directly, or through an OR gate
/// over inputs only (ticTacToe's "some move in row j", see `factor.rs`);
/// none if it reads anything else. The expansion stops at twice the number
/// of inputs (no gate is rewritten that would need more).
fn input_support(
    net: &Network,
    lazy: &[bool],
    is_input: &[bool],
    num_inputs: usize,
) -> Vec<Vec<u32>> {
    let n = net.len();
    let (pred_start, pred) = predecessors(net);
    let preds = |v: usize| &pred[pred_start[v] as usize..pred_start[v + 1] as usize];
    let gate = |v: usize| net.thr[v] == 1 && !lazy[v] && net.scc[v] == NONE;
    // Once per node (a wide OR over inputs can feed thousands of gates).
    let over_inputs: Vec<bool> = (0..n)
        .map(|v| {
            gate(v)
                && net.hook_start[v] == net.hook_start[v + 1]
                && preds(v)
                    .iter()
                    .all(|&p| p & 1 == 0 && is_input[(p >> 1) as usize])
        })
        .collect();
    let mut mark = vec![NONE; n];
    let mut support: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (v, slot) in support.iter_mut().enumerate() {
        if !gate(v) || preds(v).len() > 2 * num_inputs {
            continue;
        }
        let mut work = 0;
        let mut sup = Vec::new();
        let mut ok = true;
        for &p in preds(v) {
            let u = (p >> 1) as usize;
            let reach: &[u32] = if p & 1 == 0 && is_input[u] {
                &[] // `u` is an input itself: below
            } else if p & 1 == 0 && over_inputs[u] {
                preds(u)
            } else {
                ok = false;
                break;
            };
            work += reach.len().max(1);
            if work > 2 * num_inputs {
                ok = false;
                break;
            }
            if is_input[u] && mark[u] != v as u32 {
                mark[u] = v as u32;
                sup.push(u as u32);
            }
            for &q in reach {
                let i = (q >> 1) as usize;
                if mark[i] != v as u32 {
                    mark[i] = v as u32;
                    sup.push(i as u32);
                }
            }
        }
        if ok {
            *slot = sup;
        }
    }
    support
}

/// The gates to rewrite (wide, with at most half as many inputs left out
/// as in their support), and per node whether it counts in the global
/// term; `inputs` keeps only those that count. `None` if no gate is chosen.
fn choose_complemented(
    support: &[Vec<u32>],
    inputs: &mut Vec<u32>,
) -> Option<(Vec<u32>, Vec<bool>)> {
    let n = support.len();
    // The inputs that some wide gate reaches: only they count.
    let wide = |v: usize| support[v].len() >= 16;
    let mut counted = vec![false; n];
    for v in (0..n).filter(|&v| wide(v)) {
        for &i in &support[v] {
            counted[i as usize] = true;
        }
    }
    inputs.retain(|&i| counted[i as usize]);
    let mut chosen = Vec::new();
    for (v, sup) in support.iter().enumerate() {
        let p = sup.len();
        if wide(v) && 2 * (inputs.len().saturating_sub(p)) <= p {
            chosen.push(v as u32);
        }
    }
    if chosen.is_empty() {
        return None;
    }
    // Inputs that feed no chosen gate after all do not count either.
    counted.fill(false);
    for &g in &chosen {
        for &i in &support[g as usize] {
            counted[i as usize] = true;
        }
    }
    inputs.retain(|&i| counted[i as usize]);
    Some((chosen, counted))
}

/// Rewires the chosen gates: each loses its incoming edges and gets a
/// negated edge from every counted input outside its support, its
/// threshold one more than the number of those.
fn rewire_complemented(net: &mut Network, chosen: &[u32], support: &[Vec<u32>], inputs: &[u32]) {
    let n = net.len();
    let mut complement = vec![false; n];
    for &g in chosen {
        complement[g as usize] = true;
    }
    let mut extra: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut mark = vec![NONE; n];
    for &g in chosen {
        for &i in &support[g as usize] {
            mark[i as usize] = g;
        }
        for &i in inputs {
            if mark[i as usize] != g {
                extra[i as usize].push(g << 1 | 1);
            }
        }
    }
    let mut out = Vec::with_capacity(net.out.len());
    let mut start = vec![0u32; n + 1];
    for v in 0..n {
        for &e in &net.out[net.out_start[v] as usize..net.out_start[v + 1] as usize] {
            if !complement[(e >> 1) as usize] {
                out.push(e);
            }
        }
        out.extend_from_slice(&extra[v]);
        start[v + 1] = out.len() as u32;
    }
    for &g in chosen {
        let left_out = inputs.len() - support[g as usize].len();
        net.thr[g as usize] = left_out as u32 + 1;
    }
    net.out = out;
    net.out_start = start;
}
