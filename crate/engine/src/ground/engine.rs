//! The fast engine at run time: differential propagation over the network.
//!
//! The network keeps the values of one current state and joint move. Asking
//! about another state flips only the base propositions that differ (in a
//! playout, a handful) and propagates: each flip adjusts the counts of the
//! node's successors, and a successor whose threshold test changes is
//! flipped in turn. Legal moves (per role) and the next state are bitsets
//! maintained by hooks on the nodes that define them, so reading them costs
//! nothing extra. A cyclic component is recomputed as a unit (least
//! fixpoint) when one of its inputs changed. No allocation per step.

use super::factor::factor_ors;
use super::network::{Network, HOOK_LEGAL, HOOK_MASK, LEAF, NONE};
use super::passes::{
    complement_ors, flatten, frame_inputs, lazy_nodes, legal_gates, levels, Gates,
};
pub use super::tables::Tables;
use super::GroundStats;
use crate::reasoner::mast::Mast;
use crate::reasoner::{EvalError, StateMachine};
use crate::terms::{TermId, TermStore};
use smallvec::SmallVec;

mod greedy;

/// A state of the fast engine: one bit per base proposition.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct BitState(pub SmallVec<[u64; 4]>);

impl BitState {
    fn zero(words: usize) -> BitState {
        BitState(SmallVec::from_elem(0, words))
    }
    pub fn get(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
    fn set(&mut self, i: usize, v: bool) {
        if v {
            self.0[i / 64] |= 1 << (i % 64);
        } else {
            self.0[i / 64] &= !(1 << (i % 64));
        }
    }
    pub fn count(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
}

/// A node's run-time state is one `u32`: its count in the low 24 bits and
/// its flags above (4 bytes a node: one load for a count update and its
/// target's test, and a smaller working set than separate arrays).
/// Count offset: a gate of threshold `thr` starts at `OFFSET - thr` and
/// its count says true when bit 23 is set (no load of `thr`). The count
/// stays within 24 bits because no gate has `MAX_FAN_IN` inputs or more.
const OFFSET: u32 = 1 << 23;
/// Flags: the node's value (one bit above the count's test bit, so that
/// `s ^ s >> 1` compares them), it has hooks, it is queued.
const V: u32 = 1 << 24;
const HOOKED: u32 = 1 << 25;
/// Edge flags: the target is in a cyclic component; the input is negated.
const E_SCC: u32 = 2;
const E_NEG: u32 = 1;
const QUEUED: u32 = 1 << 26;
/// Propagate level by level (each node changes at most once per update)
/// rather than last in, first out. Measured (instructions per playout,
/// callgrind): ticTacToe 60k levelled vs 54k LIFO, chess_200 85M both, so
/// the simpler order is used; the levels stay for the comparison.
const LEVELLED: bool = false;
const SCC_MARK: u32 = 1 << 31;
/// Take shared inputs out of legal gates (see [`Gates`]); a switch for
/// measuring.
const GATE_LEGALS: bool = true;
/// Merge single-successor ORs into ORs, ANDs into ANDs (see [`flatten`]).
const FLATTEN: bool = true;
/// Allow the new-move-first order in [`FastEngine::set_inputs`] (see
/// [`frame_inputs`]); a switch for measuring.
const NEW_FIRST: bool = true;
/// Rewrite wide ORs over most `does` inputs as their complement (see
/// [`complement_ors`]); a switch for measuring.
const COMPLEMENT: bool = true;
/// Factor shared literals out of ORs of ANDs (see [`factor_ors`]); a
/// switch for measuring.
const FACTOR: bool = true;

/// The fast engine: a grounded game evaluated as a propositional network.
#[derive(Clone)]
pub struct FastEngine {
    store: TermStore,
    net: Network,
    t: Tables,
    stats: GroundStats,
    /// `target << 2 | in-cycle << 1 | negated`, per node from `out_start`.
    edges: Vec<u32>,
    // Run-time values.
    /// Per node its count and flags (see [`OFFSET`]).
    ns: Vec<u32>,
    /// The state held and its successor under the inputs set: plain
    /// vectors, not `BitState`s, so that the hooks' bit flips do not test
    /// whether a small vector spilled.
    cur: Vec<u64>,
    /// What the hooks maintain, in one bitset so that a hook is a bit
    /// position and its update one XOR: the successor state in the first
    /// `cur.len()` words, then the legal propositions (see `legal_word`).
    hooked: Vec<u64>,
    /// A buffer for copying the successor state without allocating.
    spare: Vec<u64>,
    /// The one hook bit of a node, or `NONE` (several: `hook_bits`).
    hook: Vec<u32>,
    /// `net.hooks` as positions in `hooked` (same `net.hook_start`).
    hook_bits: Vec<u32>,
    /// Nodes needed only for goals: not propagated, evaluated on demand
    /// (`lazy_order`, topological, with their inputs `lazy_in`).
    lazy_order: Vec<u32>,
    lazy_in_start: Vec<u32>,
    lazy_in: Vec<u32>,
    lazy_fresh: bool,
    /// Legal propositions that are true: role `r`'s bits start at word
    /// `legal_word[r]` of `hooked` (bit `i` is legal proposition
    /// `legal_start[r] + i`).
    legal_word: Vec<u32>,
    /// Inputs taken out of legal gates (see [`Gates`]), and a buffer for
    /// a role's legal bits with their masks applied.
    gates: Gates,
    masked: Vec<u64>,
    /// Input nodes currently set, and how many distinct ones count in the
    /// complement gates (see [`complement_ors`]).
    inputs: SmallVec<[u32; 8]>,
    inputs_on: u32,
    /// Gates whose count includes `inputs_on`, and per node whether it
    /// counts in it (see [`complement_ors`]).
    complement: Vec<u32>,
    counted: Vec<bool>,
    /// Longest path from a leaf: a node's inputs all have smaller levels.
    level: Vec<u32>,
    /// Nodes (or `SCC_MARK | component`) waiting, per level: propagation
    /// goes level by level, so each node changes at most once per update.
    buckets: Vec<Vec<u32>>,
    /// Nodes (or `SCC_MARK | component`) waiting, last in first out (the
    /// order used, see [`LEVELLED`]).
    stack: Vec<u32>,
    /// Lowest and highest level with waiting nodes.
    lo: usize,
    hi: usize,
    dirty_flag: Vec<bool>,
    scratch: Vec<bool>,
    work: Vec<u32>,
    /// [`Self::set_inputs`] turns the new moves on before the old ones off
    /// (see [`frame_inputs`]).
    new_first: bool,
}

impl FastEngine {
    pub(super) fn new(
        store: TermStore,
        mut net: Network,
        t: Tables,
        stats: GroundStats,
    ) -> FastEngine {
        let words = t.base_fluent.len().div_ceil(64).max(1);
        let mut legal_word = vec![0u32];
        for r in 0..t.roles.len() {
            let len = (t.legal_start[r + 1] - t.legal_start[r]) as usize;
            legal_word.push(legal_word[r] + len.div_ceil(64).max(1) as u32);
        }
        // Legal hooks address their bit directly.
        for h in net.hooks.iter_mut() {
            if *h & !HOOK_MASK == HOOK_LEGAL {
                let i = (*h & HOOK_MASK) as usize;
                let r = t.legal_role(i);
                let bit = legal_word[r] as usize * 64 + i - t.legal_start[r] as usize;
                *h = HOOK_LEGAL | bit as u32;
            }
        }
        if FLATTEN {
            flatten(&mut net, &t);
        }
        let new_first = NEW_FIRST && frame_inputs(&net, &t);
        if FACTOR {
            let mut keep = vec![false; net.len()];
            keep[t.terminal as usize] = true;
            for g in t.goals.iter().flatten() {
                keep[g.1 as usize] = true;
            }
            let mut is_input = vec![false; net.len()];
            for &i in t.legal_input.iter().filter(|&&i| i != NONE) {
                is_input[i as usize] = true;
            }
            factor_ors(&mut net, &keep, &is_input);
        }
        let n = net.len();
        let mut lazy = lazy_nodes(&net, t.terminal);
        let (complement, counted) = if COMPLEMENT {
            complement_ors(&mut net, &t, &lazy)
        } else {
            (Vec::new(), Vec::new())
        };
        if !complement.is_empty() {
            // ORs that fed only rewritten gates are no longer needed.
            lazy = lazy_nodes(&net, t.terminal);
        }
        let gates = if GATE_LEGALS {
            legal_gates(&net, &legal_word)
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
        // Edges into lazy nodes are not propagated.
        let mut out_start = vec![0u32; n + 1];
        let mut edges: Vec<u32> = Vec::with_capacity(net.out.len());
        for v in 0..n {
            for &e in &net.out[net.out_start[v] as usize..net.out_start[v + 1] as usize] {
                let target = e >> 1;
                if !lazy[target as usize] && gates.removed[target as usize] != v as u32 {
                    edges.push(
                        (target << 2)
                            | if net.scc[target as usize] != NONE {
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
        // Inputs of lazy nodes, in topological order.
        let lazy_order: Vec<u32> = net
            .topo
            .iter()
            .copied()
            .filter(|&v| lazy[v as usize])
            .collect();
        let mut pos = vec![NONE; n];
        for (i, &v) in lazy_order.iter().enumerate() {
            pos[v as usize] = i as u32;
        }
        let mut lazy_in_start = vec![0u32; lazy_order.len() + 1];
        for v in 0..n {
            for &e in &net.out[net.out_start[v] as usize..net.out_start[v + 1] as usize] {
                let p = pos[(e >> 1) as usize];
                if p != NONE {
                    lazy_in_start[p as usize + 1] += 1;
                }
            }
        }
        for i in 0..lazy_order.len() {
            lazy_in_start[i + 1] += lazy_in_start[i];
        }
        let mut lazy_in = vec![0u32; lazy_in_start[lazy_order.len()] as usize];
        let mut fill = lazy_in_start.clone();
        for v in 0..n {
            for &e in &net.out[net.out_start[v] as usize..net.out_start[v + 1] as usize] {
                let p = pos[(e >> 1) as usize];
                if p != NONE {
                    lazy_in[fill[p as usize] as usize] = (v as u32) << 1 | (e & 1);
                    fill[p as usize] += 1;
                }
            }
        }
        drop(pos);
        net.out_start = out_start;
        net.out = Vec::new();
        // Hooks as positions in `hooked`: next bits first, then legal bits.
        let hook_bits: Vec<u32> = net
            .hooks
            .iter()
            .map(|&h| match h & !HOOK_MASK {
                HOOK_LEGAL => (words * 64) as u32 + (h & HOOK_MASK),
                _ => h & HOOK_MASK,
            })
            .collect();
        let hook: Vec<u32> = (0..n)
            .map(|v| {
                let (a, b) = (net.hook_start[v] as usize, net.hook_start[v + 1] as usize);
                if b == a + 1 {
                    hook_bits[a]
                } else {
                    NONE
                }
            })
            .collect();
        for w in legal_word.iter_mut() {
            *w += words as u32;
        }
        let ns = (0..n)
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
        let nscc = net.scc_start.len() - 1;
        let levels = levels(&net, &edges);
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
            hook_bits,
            masked: vec![
                0;
                legal_word
                    .windows(2)
                    .map(|w| (w[1] - w[0]) as usize)
                    .max()
                    .unwrap_or(0)
            ],
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
            scratch: Vec::new(),
            work: Vec::new(),
            net,
            t,
            stats,
        };
        e.initialise();
        e
    }

    pub fn stats(&self) -> &GroundStats {
        &self.stats
    }

    /// The network as run (flattened; its edges, as in [`Self::edges`], and
    /// each node's level): `crate::engine::choice` reads its shape.
    pub fn layout(&self) -> (&Network, &[u32], &[u32]) {
        (&self.net, &self.edges, &self.level)
    }

    pub(super) fn finish_stats(&mut self, t0: f64) {
        self.stats.ms = crate::clock::now_ms() - t0;
    }

    #[inline]
    fn on(&self, v: usize) -> bool {
        self.ns[v] & V != 0
    }

    /// Evaluates every node from scratch (all leaves false), in topological
    /// order, and fills the hook bitsets.
    fn initialise(&mut self) {
        let topo = std::mem::take(&mut self.net.topo);
        let mut i = 0;
        while i < topo.len() {
            let v = topo[i] as usize;
            let c = self.net.scc[v];
            if c == NONE {
                let val = self.net.thr[v] != LEAF && self.ns[v] & OFFSET != 0;
                if val {
                    self.ns[v] |= V;
                }
                for k in self.net.out_start[v]..self.net.out_start[v + 1] {
                    let e = self.edges[k as usize];
                    if val != (e & E_NEG != 0) {
                        self.ns[(e >> 2) as usize] += 1;
                    }
                }
                i += 1;
            } else {
                let len =
                    (self.net.scc_start[c as usize + 1] - self.net.scc_start[c as usize]) as usize;
                self.recompute(c, true);
                i += len;
            }
        }
        self.net.topo = topo;
        for v in 0..self.net.len() {
            if self.on(v) && self.ns[v] & HOOKED != 0 {
                self.run_hooks(v);
            }
        }
    }

    /// Applies the hooks of node `v` after its value changed.
    #[inline(never)]
    fn run_hooks(&mut self, v: usize) {
        let (s, e) = (
            self.net.hook_start[v] as usize,
            self.net.hook_start[v + 1] as usize,
        );
        for &i in &self.hook_bits[s..e] {
            self.hooked[i as usize / 64] ^= 1 << (i % 64);
        }
    }

    /// Sets node `v` (whose value differs) and updates its successors.
    #[inline(always)]
    fn flip(&mut self, v: usize) {
        let f = self.ns[v] ^ V;
        self.ns[v] = f;
        if f & HOOKED != 0 {
            let h = self.hook[v];
            if h != NONE {
                self.hooked[h as usize / 64] ^= 1 << (h % 64);
            } else {
                self.run_hooks(v);
            }
        }
        let val = f & V != 0;
        let (s, e) = (
            self.net.out_start[v] as usize,
            self.net.out_start[v + 1] as usize,
        );
        for k in s..e {
            let edge = self.edges[k];
            let t = (edge >> 2) as usize;
            // The count never leaves its 24 bits, so +-1 on the word.
            let c = if val != (edge & E_NEG != 0) {
                self.ns[t] + 1
            } else {
                self.ns[t] - 1
            };
            self.ns[t] = c;
            if edge & E_SCC != 0 {
                self.mark_dirty(t);
            } else if needs_queue(c) {
                self.ns[t] = c | QUEUED;
                self.enqueue(t, t as u32);
            }
        }
    }

    #[inline]
    fn enqueue(&mut self, at: usize, item: u32) {
        if LEVELLED {
            let l = self.level[at] as usize;
            self.buckets[l].push(item);
            self.lo = self.lo.min(l);
            self.hi = self.hi.max(l);
        } else {
            self.stack.push(item);
        }
    }

    /// Schedules the recomputation of the cyclic component of member `t`.
    #[inline(never)]
    fn mark_dirty(&mut self, t: usize) {
        let k = self.net.scc[t] as usize;
        if !self.dirty_flag[k] {
            self.dirty_flag[k] = true;
            self.enqueue(t, SCC_MARK | k as u32);
        }
    }

    /// Propagates until nothing changes: last in, first out (or level by
    /// level with [`LEVELLED`]).
    fn propagate(&mut self) {
        if !LEVELLED {
            while let Some(item) = self.stack.pop() {
                self.settle(item);
            }
            return;
        }
        while self.lo <= self.hi && self.lo != usize::MAX {
            let l = self.lo;
            while let Some(item) = self.buckets[l].pop() {
                self.settle(item);
            }
            self.lo += 1;
        }
        self.lo = usize::MAX;
        self.hi = 0;
    }

    /// A queued node (or `SCC_MARK | component`) taken off the queue: flip
    /// it if its count says its value changed.
    #[inline(always)]
    fn settle(&mut self, item: u32) {
        if item & SCC_MARK != 0 {
            let c = item & !SCC_MARK;
            self.dirty_flag[c as usize] = false;
            self.recompute(c, false);
            return;
        }
        let t = item as usize;
        let s = self.ns[t] & !QUEUED;
        self.ns[t] = s;
        if stale(s) {
            self.flip(t);
        }
    }

    /// Least fixpoint of cyclic component `c` given its external inputs;
    /// changed members update their successors outside the component.
    fn recompute(&mut self, c: u32, init: bool) {
        let (s, e) = (
            self.net.scc_start[c as usize] as usize,
            self.net.scc_start[c as usize + 1] as usize,
        );
        self.scratch.clear();
        for k in s..e {
            let m = self.net.scc_members[k] as usize;
            self.scratch.push(self.on(m));
        }
        // Members to false (internal edges are positive).
        for k in s..e {
            let m = self.net.scc_members[k] as usize;
            if self.on(m) {
                self.ns[m] &= !V;
                for j in self.net.out_start[m]..self.net.out_start[m + 1] {
                    let t = (self.edges[j as usize] >> 2) as usize;
                    if self.net.scc[t] == c {
                        self.ns[t] -= 1;
                    }
                }
            }
        }
        self.work.clear();
        for k in s..e {
            let m = self.net.scc_members[k];
            if self.ns[m as usize] & OFFSET != 0 {
                self.work.push(m);
            }
        }
        while let Some(m) = self.work.pop() {
            let m = m as usize;
            if self.on(m) || self.ns[m] & OFFSET == 0 {
                continue;
            }
            self.ns[m] |= V;
            for j in self.net.out_start[m]..self.net.out_start[m + 1] {
                let t = (self.edges[j as usize] >> 2) as usize;
                if self.net.scc[t] == c {
                    self.ns[t] += 1;
                    if !self.on(t) && self.ns[t] & OFFSET != 0 {
                        self.work.push(t as u32);
                    }
                }
            }
        }
        if init {
            // First evaluation: every member's value counts once outside.
            for idx in s..e {
                let m = self.net.scc_members[idx] as usize;
                let val = self.on(m);
                for j in self.net.out_start[m]..self.net.out_start[m + 1] {
                    let edge = self.edges[j as usize];
                    let t = (edge >> 2) as usize;
                    if self.net.scc[t] != c && val != (edge & E_NEG != 0) {
                        self.ns[t] += 1;
                    }
                }
            }
            return;
        }
        for (k, idx) in (s..e).enumerate() {
            let m = self.net.scc_members[idx] as usize;
            let val = self.on(m);
            if val == self.scratch[k] {
                continue;
            }
            if self.ns[m] & HOOKED != 0 {
                self.run_hooks(m);
            }
            for j in self.net.out_start[m]..self.net.out_start[m + 1] {
                let edge = self.edges[j as usize];
                let t = (edge >> 2) as usize;
                let tc = self.net.scc[t];
                if tc == c {
                    continue;
                }
                if val != (edge & E_NEG != 0) {
                    self.ns[t] += 1;
                } else {
                    self.ns[t] -= 1;
                }
                if tc != NONE {
                    self.mark_dirty(t);
                } else {
                    let ft = self.ns[t];
                    if needs_queue(ft) {
                        self.ns[t] = ft | QUEUED;
                        self.enqueue(t, t as u32);
                    }
                }
            }
        }
    }

    /// Evaluates the lazy (goal-only) nodes from their inputs.
    fn sweep_lazy(&mut self) {
        if self.lazy_fresh {
            return;
        }
        for (i, &v) in self.lazy_order.iter().enumerate() {
            let v = v as usize;
            let mut c = OFFSET - self.net.thr[v];
            for &e in
                &self.lazy_in[self.lazy_in_start[i] as usize..self.lazy_in_start[i + 1] as usize]
            {
                if (self.ns[(e >> 1) as usize] & V != 0) != (e & 1 == 1) {
                    c += 1;
                }
            }
            let flags = self.ns[v] & HOOKED;
            self.ns[v] = c | flags | if c & OFFSET != 0 { V } else { 0 };
        }
        self.lazy_fresh = true;
    }

    /// Makes `s` the current state (the joint move stays as it was).
    fn set_state(&mut self, s: &[u64]) {
        self.lazy_fresh = false;
        // Fluents turning false first, true last: propagation is last in,
        // first out, so an OR fed by both sees its +1 before its -1 and
        // does not change and change back (as with the inputs).
        for turning_on in [false, true] {
            for (w, &sw) in s.iter().enumerate() {
                let mut d = (self.cur[w] ^ sw) & if turning_on { sw } else { !sw };
                while d != 0 {
                    let b = d.trailing_zeros() as usize;
                    d &= d - 1;
                    let node = self.t.base_node[w * 64 + b];
                    if node != NONE {
                        self.flip(node as usize);
                    }
                }
            }
        }
        self.cur.copy_from_slice(s);
        self.propagate();
    }

    /// The input flips of [`Self::set_inputs`], new moves on first (see
    /// [`frame_inputs`]); apart, so that the usual order's code is as before
    /// (inlined together, both orders cost ticTacToe ~5% in wasm).
    #[inline(never)]
    fn flip_inputs_new_first(&mut self, nodes: &[u32]) {
        for &n in nodes {
            if !self.on(n as usize) {
                self.flip(n as usize);
            }
        }
        for k in 0..self.inputs.len() {
            let n = self.inputs[k];
            if !nodes.contains(&n) {
                self.flip(n as usize);
            }
        }
    }

    /// Sets exactly these input nodes.
    fn set_inputs(&mut self, nodes: &[u32]) {
        self.lazy_fresh = false;
        if self.new_first {
            self.flip_inputs_new_first(nodes);
        } else {
            for k in 0..self.inputs.len() {
                let n = self.inputs[k];
                if !nodes.contains(&n) {
                    self.flip(n as usize);
                }
            }
            for &n in nodes {
                if !self.on(n as usize) {
                    self.flip(n as usize);
                }
            }
        }
        self.inputs.clear();
        self.inputs.extend_from_slice(nodes);
        if !self.complement.is_empty() {
            let on = (0..nodes.len())
                .filter(|&i| self.counted[nodes[i] as usize] && !nodes[..i].contains(&nodes[i]))
                .count() as u32;
            if on != self.inputs_on {
                self.add_inputs_on(on.wrapping_sub(self.inputs_on));
                self.inputs_on = on;
            }
        }
        self.propagate();
    }

    /// Adds `d` (wrapping: may be negative) to the counts of the complement
    /// gates, whose global term is the number of inputs set.
    #[inline(never)]
    fn add_inputs_on(&mut self, d: u32) {
        for k in 0..self.complement.len() {
            let t = self.complement[k] as usize;
            let c = self.ns[t].wrapping_add(d);
            self.ns[t] = c;
            if needs_queue(c) {
                self.ns[t] = c | QUEUED;
                self.enqueue(t, t as u32);
            }
        }
    }

    /// Prepares the network to answer about state `s`.
    fn at(&mut self, s: &BitState) {
        if self.t.queries_use_does && !self.inputs.is_empty() {
            self.set_inputs(&[]);
        }
        if s.0[..] != self.cur[..] {
            self.set_state(&s.0);
        }
    }

    fn check_state(&self, s: &BitState) -> Result<(), EvalError> {
        if s.0.len() != self.cur.len() {
            return Err(EvalError::BadMove("a state of another game".into()));
        }
        Ok(())
    }

    /// The input nodes for a joint move.
    fn input_nodes(&self, joint: &[TermId]) -> Result<SmallVec<[u32; 8]>, EvalError> {
        if joint.len() != self.t.roles.len() {
            return Err(EvalError::BadMove(format!(
                "a joint move needs one move per role ({}), got {}",
                self.t.roles.len(),
                joint.len()
            )));
        }
        let mut nodes = SmallVec::new();
        for (r, &m) in joint.iter().enumerate() {
            match self.t.move_index.get(&(r as u32, m)) {
                Some(&i) => {
                    let n = self.t.legal_input[i as usize];
                    if n != NONE {
                        nodes.push(n);
                    }
                }
                None => {
                    return Err(EvalError::BadMove(format!(
                        "{} is not a legal move of {} in any reachable state",
                        self.store.display(m),
                        self.store.display(self.t.roles[r])
                    )))
                }
            }
        }
        Ok(nodes)
    }

    /// Role `r`'s legal bits, with the masks of its gates that are off.
    fn legal_bits(&mut self, r: usize) -> &[u64] {
        let raw = &self.hooked[self.legal_word[r] as usize..self.legal_word[r + 1] as usize];
        let (a, b) = (
            self.gates.start[r] as usize,
            self.gates.start[r + 1] as usize,
        );
        if a == b {
            return raw;
        }
        let out = &mut self.masked[..raw.len()];
        out.copy_from_slice(raw);
        for g in a..b {
            if self.ns[self.gates.node[g] as usize] & V == 0 {
                let mask = &self.gates.mask[self.gates.mask_at[g] as usize..][..raw.len()];
                for (o, m) in out.iter_mut().zip(mask) {
                    *o &= !m;
                }
            }
        }
        out
    }

    /// Random playouts without allocation: the same moves as
    /// [`crate::reasoner::random_playout`] would pick with the same `rng`
    /// (legal moves in the order [`StateMachine::legal_moves`] returns them).
    /// Returns the number of joint moves made and whether the end is terminal.
    pub fn playout(
        &mut self,
        state: &BitState,
        rng: &mut fastrand::Rng,
        max_steps: usize,
    ) -> (usize, bool) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has `popcnt`, checked just above.
            return unsafe { self.playout_popcnt(state, rng, max_steps) };
        }
        // Halving did not pay in wasm (`bench/wasm-ab.mjs`, BENCHMARKS.md).
        self.playout_body::<false>(state, rng, max_steps)
    }

    /// [`Self::playout`] compiled with the `popcnt` instruction: counting
    /// and selecting legal moves took a tenth of a breakthrough step (perf), and
    /// x86-64's baseline (which the release build keeps, to run anywhere)
    /// counts bits in a dozen instructions.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn playout_popcnt(
        &mut self,
        state: &BitState,
        rng: &mut fastrand::Rng,
        max_steps: usize,
    ) -> (usize, bool) {
        self.playout_body::<true>(state, rng, max_steps)
    }

    /// `HALVING`: bit counts are one instruction, so a move is selected by
    /// halving (see [`select`]).
    #[inline(always)]
    fn playout_body<const HALVING: bool>(
        &mut self,
        state: &BitState,
        rng: &mut fastrand::Rng,
        max_steps: usize,
    ) -> (usize, bool) {
        self.at(state);
        let mut nodes: SmallVec<[u32; 8]> = SmallVec::new();
        let terminal = self.t.terminal as usize;
        for steps in 0..=max_steps {
            if self.on(terminal) {
                return (steps, true);
            }
            if steps == max_steps {
                break;
            }
            nodes.clear();
            for r in 0..self.t.roles.len() {
                let bits = self.legal_bits(r);
                let n: usize = bits.iter().map(|w| w.count_ones() as usize).sum();
                if n == 0 {
                    return (steps, false);
                }
                let pick = select::<HALVING>(bits, crate::reasoner::random_index(rng, n));
                let i = self.t.legal_start[r] as usize + pick;
                let node = self.t.legal_input[i];
                if node != NONE {
                    nodes.push(node);
                }
            }
            self.play_step(&nodes);
        }
        (max_steps, false)
    }

    /// The MAST slot of a role's move: its legal index (one slot past
    /// them for a move that is never legal).
    pub fn move_slot(&self, role: usize, mv: TermId) -> u32 {
        self.t
            .move_index
            .get(&(role as u32, mv))
            .copied()
            .unwrap_or(self.t.legal_move.len() as u32)
    }

    /// The move whose legal index is `slot` ([`FastEngine::move_slot`]).
    pub fn slot_move(&self, slot: u32) -> Option<TermId> {
        self.t.legal_move.get(slot as usize).copied()
    }

    /// A MAST playout in the network (see [`crate::reasoner::mast`]): a
    /// move's slot is its legal index, so the statistics need no lookup.
    /// The moves stay on `mast`'s trail until [`Mast::finish`].
    pub fn playout_mast(
        &mut self,
        state: &BitState,
        rng: &mut fastrand::Rng,
        max_steps: usize,
        mast: &mut Mast,
    ) -> (usize, bool) {
        self.at(state);
        let mut nodes: SmallVec<[u32; 8]> = SmallVec::new();
        let terminal = self.t.terminal as usize;
        for steps in 0..=max_steps {
            if self.on(terminal) {
                return (steps, true);
            }
            if steps == max_steps {
                break;
            }
            nodes.clear();
            for r in 0..self.t.roles.len() {
                let start = self.t.legal_start[r];
                let bits = self.legal_bits(r);
                let n: usize = bits.iter().map(|w| w.count_ones() as usize).sum();
                if n == 0 {
                    return (steps, false);
                }
                let pick = draw(bits, n, start, rng, Some(mast));
                let i = start as usize + pick;
                let among = bit_positions(bits).map(|pos| start + pos as u32);
                mast.record_among(i as u32, r, among.filter(|_| n > 1));
                let node = self.t.legal_input[i];
                if node != NONE {
                    nodes.push(node);
                }
            }
            self.play_step(&nodes);
        }
        (max_steps, false)
    }

    /// One step of a playout inside the network: the chosen moves' input
    /// nodes in, the successor state (read from the hooks) becomes the
    /// current one. `spare` is reused so the step allocates nothing.
    #[inline]
    fn play_step(&mut self, nodes: &[u32]) {
        self.set_inputs(nodes);
        let mut next = std::mem::take(&mut self.spare);
        next.copy_from_slice(&self.hooked[..self.cur.len()]);
        if self.t.queries_use_does {
            self.set_inputs(&[]);
        }
        self.set_state(&next);
        self.spare = next;
    }

    /// The state the network holds (e.g. the end of the last playout).
    pub fn current_state(&self) -> BitState {
        BitState(SmallVec::from_slice(&self.cur))
    }

    pub fn num_nodes(&self) -> usize {
        self.net.len()
    }
}

/// Whether a node's count and value disagree (bit 23 against bit 24).
#[inline(always)]
fn stale(s: u32) -> bool {
    (s ^ s >> 1) & OFFSET != 0
}

/// Whether a node's count and value disagree and it is not queued yet
/// (`QUEUED`, bit 26, shifted onto bit 23): one test.
#[inline(always)]
fn needs_queue(s: u32) -> bool {
    (s ^ s >> 1) & !(s >> 3) & OFFSET != 0
}

/// Position of the `k`-th set bit. With `HALVING`, within its word by
/// [`select_in_word`], else by clearing the `k` lower bits (a loop whose
/// random length the branch predictor cannot guess, but without cheap bit
/// counts the cheaper one).
#[inline(always)]
fn select<const HALVING: bool>(bits: &[u64], mut k: usize) -> usize {
    for (w, &word) in bits.iter().enumerate() {
        let c = word.count_ones() as usize;
        if k < c {
            if HALVING {
                return w * 64 + select_in_word(word, k as u32) as usize;
            }
            let mut x = word;
            for _ in 0..k {
                x &= x - 1;
            }
            return w * 64 + x.trailing_zeros() as usize;
        }
        k -= c;
    }
    unreachable!("k < number of set bits")
}

/// Position of the `k`-th set bit of `x` (`k < x.count_ones()`): the
/// window holding it halves six times, each step a bit count and
/// conditional moves, no branch to mispredict.
#[inline(always)]
fn select_in_word(mut x: u64, mut k: u32) -> u32 {
    let mut pos = 0;
    for half in [32, 16, 8, 4, 2, 1] {
        let low = x & ((1u64 << half) - 1);
        let c = low.count_ones();
        let up = k >= c;
        k -= if up { c } else { 0 };
        x = if up { x >> half } else { low };
        pos += if up { half } else { 0 };
    }
    pos
}

/// A move among `legal`'s `n` bits, as an offset from the role's first
/// legal index `start`: uniform, or drawn by MAST's rule.
fn draw(
    legal: &[u64],
    n: usize,
    start: u32,
    rng: &mut fastrand::Rng,
    mast: Option<&Mast>,
) -> usize {
    let drawn = match mast {
        Some(mast) if n > 1 => {
            let set = bit_positions(legal).map(|pos| (pos, start + pos as u32));
            mast.pick(rng, set)
        }
        _ => None,
    };
    drawn.unwrap_or_else(|| select::<false>(legal, crate::reasoner::random_index(rng, n)))
}

/// The positions of the set bits of `words`, in order.
pub(crate) fn bit_positions(words: &[u64]) -> impl Iterator<Item = usize> + Clone + '_ {
    words.iter().enumerate().flat_map(|(w, &word)| {
        let mut x = word;
        std::iter::from_fn(move || {
            (x != 0).then(|| {
                let pos = w * 64 + x.trailing_zeros() as usize;
                x &= x - 1;
                pos
            })
        })
    })
}

impl StateMachine for FastEngine {
    type State = BitState;

    fn roles(&self) -> &[TermId] {
        &self.t.roles
    }

    fn terms(&self) -> &TermStore {
        &self.store
    }

    fn terms_mut(&mut self) -> &mut TermStore {
        &mut self.store
    }

    fn initial_state(&mut self) -> Result<BitState, EvalError> {
        let mut s = BitState::zero(self.cur.len());
        for &b in &self.t.init {
            s.set(b as usize, true);
        }
        Ok(s)
    }

    fn legal_moves(&mut self, state: &BitState, role: usize) -> Result<Vec<TermId>, EvalError> {
        self.check_state(state)?;
        self.at(state);
        if role >= self.t.roles.len() {
            return Ok(Vec::new());
        }
        let bits = self.legal_bits(role).to_vec();
        let base = self.t.legal_start[role] as usize;
        let mut out = Vec::new();
        for (w, &word) in bits.iter().enumerate() {
            let mut x = word;
            while x != 0 {
                let b = x.trailing_zeros() as usize;
                x &= x - 1;
                out.push(self.t.legal_move[base + w * 64 + b]);
            }
        }
        Ok(out)
    }

    fn next_state(&mut self, state: &BitState, joint: &[TermId]) -> Result<BitState, EvalError> {
        self.check_state(state)?;
        let nodes = self.input_nodes(joint)?;
        if state.0[..] != self.cur[..] {
            self.set_state(&state.0);
        }
        self.set_inputs(&nodes);
        Ok(BitState(SmallVec::from_slice(
            &self.hooked[..self.cur.len()],
        )))
    }

    fn is_terminal(&mut self, state: &BitState) -> Result<bool, EvalError> {
        self.check_state(state)?;
        self.at(state);
        Ok(self.on(self.t.terminal as usize))
    }

    fn goal_values(&mut self, state: &BitState) -> Result<Vec<Vec<i64>>, EvalError> {
        self.check_state(state)?;
        self.at(state);
        self.sweep_lazy();
        Ok(self
            .t
            .goals
            .iter()
            .map(|gs| {
                let mut v: Vec<i64> = gs
                    .iter()
                    .filter(|(_, n)| self.on(*n as usize))
                    .map(|(v, _)| *v)
                    .collect();
                v.sort_unstable();
                v.dedup();
                v
            })
            .collect())
    }

    fn fluents(&self, state: &BitState) -> Vec<TermId> {
        (0..self.t.base_fluent.len())
            .filter(|&i| state.get(i))
            .map(|i| self.t.base_fluent[i])
            .collect()
    }

    /// Fluents that are in no reachable state (outside the grounded base
    /// propositions) are dropped: the network has no place for them.
    fn state_from_fluents(&mut self, fluents: &[TermId]) -> BitState {
        let mut s = BitState::zero(self.cur.len());
        for f in fluents {
            if let Some(&b) = self.t.base_of_fluent.get(f) {
                s.set(b as usize, true);
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::super::{ground, Budget};
    use super::{select, select_in_word};

    /// Both ways of selecting the `k`-th set bit against a scan of the bits.
    #[test]
    fn select_finds_the_kth_set_bit() {
        let mut rng = fastrand::Rng::with_seed(7);
        let mut words = vec![u64::MAX, 1, 1 << 63, 0x8000_0001_0000_0000];
        words.extend((0..2000).map(|_| rng.u64(..) & rng.u64(..)));
        let mut checked = 0;
        for x in words {
            let ones: Vec<usize> = (0..64).filter(|&i| x >> i & 1 == 1).collect();
            for (k, &i) in ones.iter().enumerate() {
                assert_eq!(select_in_word(x, k as u32) as usize, i, "{x:#x} k={k}");
                assert_eq!(select::<true>(&[5, x], k + 2), 64 + i);
                assert_eq!(select::<false>(&[5, x], k + 2), 64 + i);
                checked += 1;
            }
        }
        assert!(checked > 20_000, "{checked} bits checked");
    }

    /// Marking cells of a 3x3 board in turn, with ticTacToe's frame axiom
    /// for blank cells (a disjunction in the body).
    const MARKS: &str = "(role xp) (role op) (index 1) (index 2) (index 3)
        (<= (init (cell ?x ?y blank)) (index ?x) (index ?y))
        (init (control xp))
        (<= (legal ?r (mark ?x ?y)) (true (control ?r)) (true (cell ?x ?y blank)))
        (<= (legal xp noop) (true (control op)))
        (<= (legal op noop) (true (control xp)))
        (<= (next (cell ?x ?y ?r)) (does ?r (mark ?x ?y)))
        (<= (next (cell ?x ?y ?r)) (true (cell ?x ?y ?r)) (distinct ?r blank))
        (<= (next (cell ?x ?y blank)) (true (cell ?x ?y blank)) (does ?r (mark ?j ?k))
            (or (distinct ?x ?j) (distinct ?y ?k)))
        (<= (next (control xp)) (true (control op)))
        (<= (next (control op)) (true (control xp)))
        (<= open (true (cell ?x ?y blank)))
        (<= terminal (not open))
        (<= (goal ?r 50) (role ?r))";

    /// The frame as breakthrough writes it: a static relation of distinct
    /// cells, so one wide OR over the moves per cell.
    const DISTINCT_CELL: &str = "(distinctCell ?x ?y ?j ?k))
        (<= (distinctCell ?x ?y ?j ?k) (index ?x) (index ?y) (index ?j) (index ?k)
            (distinct ?x ?j))
        (<= (distinctCell ?x ?y ?j ?k) (index ?x) (index ?y) (index ?j) (index ?k)
            (distinct ?y ?k)";

    /// Frame axioms as ticTacToe (after factoring) and breakthrough write
    /// them are rewritten as complement gates, one per cell, so that a
    /// move's input updates at most its own cell's gate and its `next`
    /// gates: at most 4 propagated edges out of any `does` input (before:
    /// breakthrough ~62, each into the frame OR of a cell the move leaves
    /// alone). The answers are checked by `tests/fast_vs_interpreter.rs`.
    #[test]
    fn moves_touch_only_their_own_cells_frame_gates() {
        for (text, cells) in [
            (MARKS.to_string(), 9),
            (
                MARKS.replace("(or (distinct ?x ?j) (distinct ?y ?k))", DISTINCT_CELL),
                9,
            ),
        ] {
            let e = ground(&crate::parse_program(&text), Budget::default()).expect("grounds");
            assert_eq!(e.complement.len(), cells, "one complement gate per cell");
            let mut inputs = 0;
            for &i in e.t.legal_input.iter().filter(|&&i| i != super::NONE) {
                let i = i as usize;
                let fan_out = e.net.out_start[i + 1] - e.net.out_start[i];
                assert!(fan_out <= 4, "a move input with {fan_out} propagated edges");
                inputs += 1;
            }
            assert!(inputs >= 18, "only {inputs} move inputs");
        }
    }
}
