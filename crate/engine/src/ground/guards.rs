//! Guarded ANDs: a `does` input that feeds many ANDs leaves their counts.
//!
//! pancakes' `next (porder ...)` has one AND per move and ordering of the
//! pancakes, `does (flip p3) ∧ true (porder p5 p3 ...)`: each of the six
//! inputs feeds 720 ANDs, of which one has its other input true. Counted as
//! usual, a step updates 1,440 counts when the state changes two
//! propositions. Guarded, such an AND counts only its other inputs, and
//! its guard (the input) keeps the list of the ANDs whose other inputs are
//! all true, the armed ones: the guard's flip flips just those (see
//! `FastEngine::flip_armed`). An AND whose other inputs become all true
//! joins its guard's list when it is settled; one that stops being so
//! leaves it the next time the guard flips.
//!
//! A base proposition can guard too (checkers' `(true (control white))`
//! feeds its 640 move ANDs, crisscross's pieces feed thousands), and so can
//! a gate: kalaha's "seeds sown in another pit than `p`" feeds one frame
//! AND per count of seeds `p` may hold (202), of which one has its other
//! input true. A gate's flips reach its armed ANDs through the slow path
//! of propagation (its incoming edges are flagged as a guarded AND's are). Whether a
//! guard pays depends on how often the rest of its ANDs is true, which only
//! play tells (blobwars' inputs cost a third of its speed as guards): a
//! guard is kept only where a short walk finds its list much cheaper than
//! the counts it saves (`FastEngine::cheap_guards`).

use super::network::{Network, LEAF, NONE};
use super::passes::Gates;
use super::tables::Tables;

/// An input guards its ANDs when it feeds at least this many: below, the
/// counts cost less than the list.
const MIN_GUARDED: usize = 16;
/// A base proposition, when it feeds at least this many (and a walk finds
/// it cheaper): pancakes' orderings (six ANDs each) never qualify.
const MIN_BASE_GUARDED: usize = 64;

/// The guards chosen.
#[derive(Clone, Default)]
pub(super) struct Guards {
    /// Per node: the index of its guard in `nodes`, or `NONE` (also for
    /// every node of a network without guards, where it is empty).
    pub(super) of: Vec<u32>,
    /// The guard nodes, sorted.
    pub(super) nodes: Vec<u32>,
    /// Per node: whether it is a gate that guards (empty when none does).
    pub(super) gates: Vec<bool>,
}

impl Guards {
    /// Takes each guarded AND's guard out of its threshold.
    pub(super) fn take_out(&self, net: &mut Network) {
        for (x, &g) in self.of.iter().enumerate() {
            if g != NONE {
                net.thr[x] -= 1;
            }
        }
    }

    /// Whether node `v` is a guarded AND.
    pub(super) fn is_guarded(&self, v: u32) -> bool {
        !self.of.is_empty() && self.of[v as usize] != NONE
    }

    /// Whether gate `v` guards ANDs (its flips take the slow path, which
    /// flips its armed ANDs too).
    pub(super) fn is_gate_guard(&self, v: u32) -> bool {
        self.gates.get(v as usize).copied().unwrap_or(false)
    }

    /// Whether the edge from `v` to `target` is a guard's, left out of the
    /// propagated edges.
    pub(super) fn is_guard_edge(&self, v: u32, target: u32) -> bool {
        !self.of.is_empty() && {
            let g = self.of[target as usize];
            g != NONE && self.nodes[g as usize] == v
        }
    }
}

/// Chooses guards (see [`Guards::take_out`]).
/// An AND qualifies when it is propagated (not `lazy`, not in a cycle, not
/// rewritten by [`complement_ors`](super::passes::complement_ors) or
/// [`Gates`]) and all its inputs count (threshold = inputs); the guard's
/// edge to it must be positive and single. `does` inputs choose first, then
/// base propositions by falling fan-out, then gates (all of them, or only
/// those `kept`); an AND has one guard, and a guard is not guarded.
pub(super) fn guard_ands(
    net: &Network,
    t: &Tables,
    lazy: &[bool],
    gates: &Gates,
    complement: &[u32],
    kept: Option<&[u32]>,
) -> Guards {
    let n = net.len();
    let mut eligible = and_gates(net, gates);
    for (v, l) in lazy.iter().enumerate() {
        if *l {
            eligible[v] = false;
        }
    }
    for &c in complement {
        eligible[c as usize] = false;
    }
    let mut inputs = candidates(&t.legal_input, kept);
    inputs.sort_unstable();
    inputs.dedup();
    let fan_out = |g: u32| net.out_start[g as usize + 1] - net.out_start[g as usize];
    let mut bases = candidates(&t.base_node, kept);
    bases.sort_unstable_by_key(|&b| (std::cmp::Reverse(fan_out(b)), b));
    // Gates last, by falling fan-out: wide, outside cycles, propagated by
    // counts (not complement gates, which the inputs' number updates), and
    // not guarded themselves (an armed AND's flip does not test for a list).
    let mut is_kept = vec![kept.is_none(); n];
    kept.unwrap_or_default()
        .iter()
        .for_each(|&k| is_kept[k as usize] = true);
    complement.iter().for_each(|&c| is_kept[c as usize] = false);
    // `GDLKIT_GROUND_NO_GATE_GUARDS` (native, a diagnostic): leaves only.
    let gate_guards = std::env::var_os("GDLKIT_GROUND_NO_GATE_GUARDS").is_none();
    let mut inner: Vec<u32> = (0..n as u32)
        .filter(|_| gate_guards)
        .filter(|&v| {
            let v = v as usize;
            net.thr[v] != LEAF
                && fan_out(v as u32) as usize >= MIN_BASE_GUARDED
                && net.scc[v] == NONE
                && !lazy[v]
                && gates.removed[v] == NONE
                && is_kept[v]
        })
        .collect();
    inner.sort_unstable_by_key(|&b| (std::cmp::Reverse(fan_out(b)), b));
    let mut guards = Guards {
        of: vec![NONE; n],
        nodes: Vec::new(),
        gates: Vec::new(),
    };
    let candidates = inputs.iter().map(|&g| (g, false, false));
    let candidates = candidates
        .chain(bases.iter().map(|&g| (g, true, false)))
        .chain(inner.iter().map(|&g| (g, true, true)));
    for (g, base, gate) in candidates {
        if gate && guards.of[g as usize] != NONE {
            continue;
        }
        let mut edges: Vec<u32> = net.out
            [net.out_start[g as usize] as usize..net.out_start[g as usize + 1] as usize]
            .to_vec();
        edges.sort_unstable();
        let mut chosen = Vec::new();
        for (i, &e) in edges.iter().enumerate() {
            let x = e >> 1;
            let single =
                (i == 0 || edges[i - 1] >> 1 != x) && edges.get(i + 1).is_none_or(|&f| f >> 1 != x);
            if single
                && e & 1 == 0
                && eligible[x as usize]
                && guards.of[x as usize] == NONE
                && !guards.is_gate_guard(x)
            {
                chosen.push(x);
            }
        }
        if chosen.len() < if base { MIN_BASE_GUARDED } else { MIN_GUARDED } {
            continue;
        }
        let slot = guards.nodes.len() as u32;
        guards.nodes.push(g);
        if gate {
            guards.gates.resize(n, false);
            guards.gates[g as usize] = true;
        }
        for x in chosen {
            guards.of[x as usize] = slot;
        }
    }
    sorted(guards)
}

/// The nodes among `nodes` that may guard: present, and `kept` if given.
fn candidates(nodes: &[u32], kept: Option<&[u32]>) -> Vec<u32> {
    nodes
        .iter()
        .copied()
        .filter(|&g| g != NONE && kept.is_none_or(|k| k.contains(&g)))
        .collect()
}

/// The guards renumbered in node order (the engine finds a guard's slot by
/// binary search), or none at all.
fn sorted(mut guards: Guards) -> Guards {
    if guards.nodes.is_empty() {
        return Guards::default();
    }
    let mut order: Vec<u32> = (0..guards.nodes.len() as u32).collect();
    order.sort_unstable_by_key(|&k| guards.nodes[k as usize]);
    let mut slot = vec![0u32; order.len()];
    for (i, &k) in order.iter().enumerate() {
        slot[k as usize] = i as u32;
    }
    for g in guards.of.iter_mut().filter(|g| **g != NONE) {
        *g = slot[*g as usize];
    }
    Guards {
        of: guards.of,
        nodes: order.iter().map(|&k| guards.nodes[k as usize]).collect(),
        gates: guards.gates,
    }
}

/// Per node: whether it is an AND of at least two inputs outside cycles
/// whose threshold counts every input, none taken out by `gates`.
fn and_gates(net: &Network, gates: &Gates) -> Vec<bool> {
    let n = net.len();
    let mut indeg = vec![0u32; n];
    for &e in &net.out {
        indeg[(e >> 1) as usize] += 1;
    }
    (0..n)
        .map(|v| {
            net.scc[v] == NONE
                && gates.removed[v] == NONE
                && net.thr[v] >= 2
                && net.thr[v] == indeg[v]
        })
        .collect()
}
