//! Building the fast engine from a grounded network: the passes that
//! reshape it (factoring, flattening, complement gates, legal gates), then
//! the edge list, hook bits and run-time buffers, and a first evaluation.

use super::{
    FastEngine, COMPLEMENT, E_SCC, FACTOR, FLATTEN, GATE_LEGALS, GUARDED, GUARDS, GUARD_ANDS,
    HOOKED, NEW_FIRST, OFFSET,
};
use crate::ground::factor::factor_ors;
use crate::ground::guards::{guard_ands, Guards};
use crate::ground::network::{Network, HOOK_LEGAL, HOOK_MASK, LEAF, NONE};
use crate::ground::passes::{
    complement_ors, flatten, frame_inputs, lazy_nodes, legal_gates, levels, Gates,
};
use crate::ground::tables::Tables;
use crate::ground::GroundStats;
use crate::terms::TermStore;
use smallvec::SmallVec;

/// What the passes before the guards decided: kept to assemble the engine
/// again without the guards that a walk found costly.
#[derive(Clone)]
struct Shaped {
    legal_word: Vec<u32>,
    lazy: Vec<bool>,
    complement: Vec<u32>,
    counted: Vec<bool>,
    gates: Gates,
    new_first: bool,
}

impl FastEngine {
    pub(in crate::ground) fn new(
        store: TermStore,
        mut net: Network,
        t: Tables,
        stats: GroundStats,
    ) -> FastEngine {
        let shaped = shape(&mut net, &t);
        if !GUARD_ANDS {
            return Self::assemble(store, net, t, stats, shaped, Guards::default());
        }
        let guards = guard_ands(
            &net,
            &t,
            &shaped.lazy,
            &shaped.gates,
            &shaped.complement,
            None,
        );
        let mut stats = stats;
        stats.guard_candidates = guards.nodes.len();
        // Guards are on trial: keep the network to build it again.
        let before = (!guards.nodes.is_empty()).then(|| net.clone());
        guards.take_out(&mut net);
        let Some(mut unguarded) = before else {
            return Self::assemble(store, net, t, stats, shaped, guards);
        };
        let mut e = Self::assemble(store, net, t, stats, shaped.clone(), guards);
        let Some(kept) = e.cheap_guards() else {
            return e;
        };
        let FastEngine {
            store, t, stats, ..
        } = e;
        let guards = guard_ands(
            &unguarded,
            &t,
            &shaped.lazy,
            &shaped.gates,
            &shaped.complement,
            Some(&kept),
        );
        guards.take_out(&mut unguarded);
        Self::assemble(store, unguarded, t, stats, shaped, guards)
    }

    /// The engine from the shaped network and its guards.
    fn assemble(
        store: TermStore,
        mut net: Network,
        t: Tables,
        mut stats: GroundStats,
        shaped: Shaped,
        guards: Guards,
    ) -> FastEngine {
        stats.guards = guards.nodes.len();
        stats.guarded_ands = guards.of.iter().filter(|&&g| g != NONE).count();
        let Shaped {
            mut legal_word,
            lazy,
            complement,
            counted,
            gates,
            new_first,
        } = shaped;
        let words = t.base_fluent.len().div_ceil(64).max(1);
        let (out_start, edges) = propagated_edges(&net, &lazy, &gates, &guards);
        let (lazy_order, lazy_in_start, lazy_in) = lazy_inputs(&net, &lazy, &read_nodes(&t));
        net.out_start = out_start;
        net.out = Vec::new();
        let hook_bits = hook_bits(&net, words);
        let hook = single_hooks(&net, &hook_bits);
        for w in legal_word.iter_mut() {
            *w += words as u32;
        }
        let ns = initial_counts(&net, &guards);
        let nscc = net.scc_start.len() - 1;
        let levels = levels(&net, &edges);
        let widest = legal_word.windows(2).map(|w| (w[1] - w[0]) as usize).max();
        let mut e = FastEngine {
            store,
            edges,
            hook,
            lazy_order,
            lazy_in_start,
            lazy_in,
            lazy_fresh: false,
            ns,
            cur: vec![0; words],
            hooked: vec![0; *legal_word.last().expect("one entry") as usize],
            spare: vec![0; words],
            diff: Vec::with_capacity(words),
            hook_bits,
            masked: vec![0; widest.unwrap_or(0)],
            legal_word,
            gates,
            inputs: SmallVec::new(),
            inputs_on: 0,
            complement,
            counted,
            buckets: vec![Vec::new(); levels.iter().max().map_or(1, |&l| l as usize + 1)],
            level: levels,
            stack: Vec::new(),
            lo: usize::MAX,
            hi: 0,
            dirty_flag: vec![false; nscc],
            new_first,
            armed: vec![Vec::new(); guards.nodes.len()],
            guard_flips: vec![0; guards.nodes.len()],
            guard_work: vec![0; guards.nodes.len()],
            work_done: 0,
            part: NONE,
            pass: None,
            held: None,
            guard_of: guards.of,
            guard_nodes: guards.nodes,
            scratch: Vec::new(),
            work: Vec::new(),
            net,
            t,
            stats,
        };
        e.initialise();
        e
    }
}

/// The passes before the guards: legal hooks addressed, flattening, the
/// input order, factoring, complement ORs and legal gates.
fn shape(net: &mut Network, t: &Tables) -> Shaped {
    let legal_word = legal_words(t);
    address_legal_hooks(net, t, &legal_word);
    if FLATTEN {
        flatten(net, t);
    }
    let new_first = NEW_FIRST && frame_inputs(net, t);
    if FACTOR {
        factor(net, t);
    }
    let mut lazy = lazy_nodes(net, t.terminal);
    let (complement, counted) = if COMPLEMENT {
        complement_ors(net, t, &lazy)
    } else {
        (Vec::new(), Vec::new())
    };
    if !complement.is_empty() {
        // ORs that fed only rewritten gates are no longer needed.
        lazy = lazy_nodes(net, t.terminal);
    }
    let gates = take_gates(net, t, &legal_word);
    Shaped {
        legal_word,
        lazy,
        complement,
        counted,
        gates,
        new_first,
    }
}

/// The first word of each role's legal bits (relative to the legal part of
/// `hooked`), and one past the last.
fn legal_words(t: &Tables) -> Vec<u32> {
    let mut legal_word = vec![0u32];
    for r in 0..t.roles.len() {
        let len = (t.legal_start[r + 1] - t.legal_start[r]) as usize;
        legal_word.push(legal_word[r] + len.div_ceil(64).max(1) as u32);
    }
    legal_word
}

/// Legal hooks address their bit directly.
fn address_legal_hooks(net: &mut Network, t: &Tables, legal_word: &[u32]) {
    for h in net.hooks.iter_mut() {
        if *h & !HOOK_MASK == HOOK_LEGAL {
            let i = (*h & HOOK_MASK) as usize;
            let r = t.legal_role(i);
            let bit = legal_word[r] as usize * 64 + i - t.legal_start[r] as usize;
            *h = HOOK_LEGAL | bit as u32;
        }
    }
}

/// Factors shared literals out of ORs of ANDs, keeping the terminal and
/// goal nodes and the inputs.
fn factor(net: &mut Network, t: &Tables) {
    let mut keep = vec![false; net.len()];
    keep[t.terminal as usize] = true;
    for g in t.goals.iter().flatten() {
        keep[g.1 as usize] = true;
    }
    for p in t.sees.iter().flatten().flatten() {
        keep[p.1 as usize] = true;
    }
    let mut is_input = vec![false; net.len()];
    for &i in t.legal_input.iter().filter(|&&i| i != NONE) {
        is_input[i as usize] = true;
    }
    factor_ors(net, &keep, &is_input);
}

/// The legal gates (none without [`GATE_LEGALS`]); a gate whose input was
/// taken out needs one input fewer.
fn take_gates(net: &mut Network, t: &Tables, legal_word: &[u32]) -> Gates {
    let n = net.len();
    let gates = if GATE_LEGALS {
        legal_gates(net, legal_word)
    } else {
        Gates {
            removed: vec![NONE; n],
            start: vec![0; t.roles.len() + 1],
            node: Vec::new(),
            mask_at: Vec::new(),
            mask: Vec::new(),
        }
    };
    for v in 0..n {
        if gates.removed[v] != NONE {
            net.thr[v] -= 1;
        }
    }
    gates
}

/// The edges propagated (as in [`FastEngine::edges`]) and each node's first
/// edge: edges into lazy nodes, those taken out of legal gates and guards'
/// edges to their ANDs are not.
fn propagated_edges(
    net: &Network,
    lazy: &[bool],
    gates: &Gates,
    guards: &Guards,
) -> (Vec<u32>, Vec<u32>) {
    let n = net.len();
    let mut out_start = vec![0u32; n + 1];
    let mut edges: Vec<u32> = Vec::with_capacity(net.out.len());
    for v in 0..n {
        for &e in &net.out[net.out_start[v] as usize..net.out_start[v + 1] as usize] {
            let target = e >> 1;
            if !lazy[target as usize]
                && gates.removed[target as usize] != v as u32
                && !guards.is_guard_edge(v as u32, target)
            {
                edges.push(
                    (target << 2)
                        | if net.scc[target as usize] != NONE
                            || guards.is_guarded(target)
                            || guards.is_gate_guard(target)
                        {
                            E_SCC
                        } else {
                            0
                        }
                        | (e & 1),
                );
            }
        }
        out_start[v + 1] = edges.len() as u32;
    }
    (out_start, edges)
}

/// The nodes read after a sweep of the lazy nodes: goals and percepts.
fn read_nodes(t: &Tables) -> Vec<u32> {
    let goals = t.goals.iter().flatten().map(|g| g.1);
    let sees = t.sees.iter().flatten().flatten().map(|p| p.1);
    goals.chain(sees).collect()
}

/// The lazy nodes that `read` depends on, in topological order, and their
/// inputs (`node << 1 | negated`, starting at `lazy_in_start[i]` for the
/// `i`-th). Lazy nodes outside that cone are never evaluated: a relation
/// grounded for every argument where the goals ask about a few
/// (chineseCheckers3 counts pieces on every triple of its 36 cells, 746k
/// atoms, for three triples) would otherwise be swept at every goal query.
fn lazy_inputs(net: &Network, lazy: &[bool], read: &[u32]) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let (pred_start, preds) = lazy_predecessors(net, lazy);
    let preds_of = |v: usize| &preds[pred_start[v] as usize..pred_start[v + 1] as usize];
    let mut needed = vec![false; net.len()];
    let mut stack: Vec<u32> = read.iter().copied().filter(|&v| lazy[v as usize]).collect();
    while let Some(v) = stack.pop() {
        if std::mem::replace(&mut needed[v as usize], true) {
            continue;
        }
        let lazy_preds = preds_of(v as usize).iter().map(|&e| e >> 1);
        stack.extend(lazy_preds.filter(|&p| lazy[p as usize]));
    }
    let lazy_order: Vec<u32> = net
        .topo
        .iter()
        .copied()
        .filter(|&v| needed[v as usize])
        .collect();
    let mut lazy_in_start = Vec::with_capacity(lazy_order.len() + 1);
    let mut lazy_in = Vec::new();
    lazy_in_start.push(0);
    for &v in &lazy_order {
        lazy_in.extend_from_slice(preds_of(v as usize));
        lazy_in_start.push(lazy_in.len() as u32);
    }
    (lazy_order, lazy_in_start, lazy_in)
}

/// Each lazy node's inputs (`node << 1 | negated`) in flat arrays: those
/// of `v` start at `start[v]` (a list per node would cost a 1.3M-node
/// network an allocation each).
fn lazy_predecessors(net: &Network, lazy: &[bool]) -> (Vec<u32>, Vec<u32>) {
    let n = net.len();
    let outs = |v: usize| &net.out[net.out_start[v] as usize..net.out_start[v + 1] as usize];
    let mut start = vec![0u32; n + 1];
    for v in 0..n {
        for &e in outs(v).iter().filter(|&&e| lazy[(e >> 1) as usize]) {
            start[(e >> 1) as usize + 1] += 1;
        }
    }
    for v in 0..n {
        start[v + 1] += start[v];
    }
    let mut fill = start.clone();
    let mut preds = vec![0u32; start[n] as usize];
    for v in 0..n {
        for &e in outs(v).iter().filter(|&&e| lazy[(e >> 1) as usize]) {
            let t = (e >> 1) as usize;
            preds[fill[t] as usize] = (v as u32) << 1 | (e & 1);
            fill[t] += 1;
        }
    }
    (start, preds)
}

/// Hooks as positions in `hooked`: next bits first, then legal bits.
fn hook_bits(net: &Network, words: usize) -> Vec<u32> {
    net.hooks
        .iter()
        .map(|&h| match h & !HOOK_MASK {
            HOOK_LEGAL => (words * 64) as u32 + (h & HOOK_MASK),
            _ => h & HOOK_MASK,
        })
        .collect()
}

/// Per node its one hook bit, or `NONE` (no hook, or several).
fn single_hooks(net: &Network, hook_bits: &[u32]) -> Vec<u32> {
    (0..net.len())
        .map(|v| {
            let (a, b) = (net.hook_start[v] as usize, net.hook_start[v + 1] as usize);
            if b == a + 1 {
                hook_bits[a]
            } else {
                NONE
            }
        })
        .collect()
}

/// Each node's count and flags with every input false.
fn initial_counts(net: &Network, guards: &Guards) -> Vec<u32> {
    let mut ns: Vec<u32> = (0..net.len())
        .map(|v| {
            let thr = net.thr[v];
            let count = if thr == LEAF { 0 } else { OFFSET - thr };
            if net.hook_start[v] != net.hook_start[v + 1] {
                count | HOOKED
            } else {
                count
            }
        })
        .collect();
    for (v, &g) in guards.of.iter().enumerate() {
        if g != NONE {
            ns[v] |= GUARDED;
        }
    }
    for &g in &guards.nodes {
        ns[g as usize] |= GUARDS;
    }
    ns
}
