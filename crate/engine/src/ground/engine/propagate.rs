//! Differential propagation: flipping nodes, queueing the successors whose
//! threshold test changes, recomputing cyclic components as a unit, and
//! moving the network to another state or joint move.

use super::{
    BitState, FastEngine, ARMED, DENSE_WORDS, E_NEG, E_SCC, GUARDED, GUARDS, GUARD_ITEM, HOOKED,
    LEVELLED, OFFSET, QUEUED, SCC_MARK, V,
};
use crate::ground::network::{LEAF, NONE};
use smallvec::SmallVec;

/// What settling a guarded AND costs beside a count update (a queue push
/// and pop, a call, perhaps the list's push): a rough weight for
/// `cheap_guards`.
const SETTLE_COST: u64 = 4;

impl FastEngine {
    #[inline]
    pub(super) fn on(&self, v: usize) -> bool {
        self.ns[v] & V != 0
    }

    /// Evaluates every node from scratch (all leaves false), in topological
    /// order, and fills the hook bitsets.
    pub(super) fn initialise(&mut self) {
        let topo = std::mem::take(&mut self.net.topo);
        let mut i = 0;
        while i < topo.len() {
            let v = topo[i] as usize;
            let c = self.net.scc[v];
            if c == NONE {
                let mut val = self.net.thr[v] != LEAF && self.ns[v] & OFFSET != 0;
                if val && self.ns[v] & GUARDED != 0 {
                    // Its guard comes first in the order (every leaf is
                    // false, a gate has its value).
                    self.arm(v);
                    val = self.on(self.guard_nodes[self.guard_of[v] as usize] as usize);
                }
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

    /// [`Self::flip`] for a leaf (a base proposition or an input), which
    /// may guard ANDs: gates never do, so their flips skip the test.
    #[inline(always)]
    fn flip_leaf(&mut self, v: usize) {
        self.work_done += u64::from(self.net.out_start[v + 1] - self.net.out_start[v]);
        self.flip(v);
        let f = self.ns[v];
        if f & GUARDS != 0 {
            self.flip_armed(v, f & V != 0);
        }
    }

    /// Guard `g` turned `on` (or off): its armed ANDs take its value; those
    /// whose other inputs are no longer all true leave the list.
    #[inline(never)]
    fn flip_armed(&mut self, g: usize, on: bool) {
        let k = self.guard_slot(g);
        let mut armed = std::mem::take(&mut self.armed[k]);
        self.guard_flips[k] += 1;
        self.guard_work[k] += armed.len() as u64;
        let mut i = 0;
        while i < armed.len() {
            let t = armed[i] as usize;
            if self.ns[t] & OFFSET == 0 {
                self.ns[t] &= !ARMED;
                armed.swap_remove(i);
                continue;
            }
            if self.on(t) != on {
                self.flip(t);
            }
            i += 1;
        }
        self.armed[k] = armed;
    }

    fn guard_slot(&self, g: usize) -> usize {
        self.guard_nodes
            .binary_search(&(g as u32))
            .expect("a node flagged GUARDS is a guard")
    }

    /// Puts guarded AND `t`, whose other inputs are all true, on its guard's
    /// list (once).
    fn arm(&mut self, t: usize) {
        if self.ns[t] & ARMED == 0 {
            self.ns[t] |= ARMED;
            self.armed[self.guard_of[t] as usize].push(t as u32);
        }
    }

    /// A guarded AND whose count and value disagree: its value is its count's
    /// test and its guard's value.
    #[inline(never)]
    fn settle_guarded(&mut self, t: usize) {
        self.guard_work[self.guard_of[t] as usize] += SETTLE_COST;
        let full = self.ns[t] & OFFSET != 0;
        if full {
            self.arm(t);
        }
        let g = self.guard_nodes[self.guard_of[t] as usize] as usize;
        if (full && self.on(g)) != self.on(t) {
            self.flip(t);
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

    /// Schedules the recomputation of the cyclic component of member `t`,
    /// or guarded AND `t` when its count and value disagree.
    #[inline(never)]
    fn mark_dirty(&mut self, t: usize) {
        let k = self.net.scc[t];
        if k == NONE {
            if needs_queue(self.ns[t]) {
                self.ns[t] |= QUEUED;
                self.enqueue(t, SCC_MARK | GUARD_ITEM | t as u32);
            }
            return;
        }
        let k = k as usize;
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
            self.settle_marked(item);
            return;
        }
        let t = item as usize;
        let s = self.ns[t] & !QUEUED;
        self.ns[t] = s;
        if stale(s) {
            self.flip(t);
        }
    }

    /// A component to recompute, or a guarded AND to settle.
    #[inline(never)]
    fn settle_marked(&mut self, item: u32) {
        if item & GUARD_ITEM != 0 {
            let t = (item & !(SCC_MARK | GUARD_ITEM)) as usize;
            self.ns[t] &= !QUEUED;
            if stale(self.ns[t]) {
                if self.ns[t] & GUARDED != 0 {
                    self.settle_guarded(t);
                } else {
                    // A gate that guards ANDs: its armed ANDs follow it.
                    self.flip(t);
                    self.flip_armed(t, self.on(t));
                }
            }
            return;
        }
        let c = item & !SCC_MARK;
        self.dirty_flag[c as usize] = false;
        self.recompute(c, false);
    }

    /// Least fixpoint of cyclic component `c` given its external inputs;
    /// changed members update their successors outside the component.
    fn recompute(&mut self, c: u32, init: bool) {
        let (s, e) = (
            self.net.scc_start[c as usize] as usize,
            self.net.scc_start[c as usize + 1] as usize,
        );
        self.scratch.clear();
        self.work_done += (e - s) as u64;
        for k in s..e {
            let m = self.net.scc_members[k] as usize;
            self.scratch.push(self.on(m));
        }
        self.least_fixpoint(c, s, e);
        if init {
            self.count_first_values(c, s, e);
            return;
        }
        self.propagate_changed_members(c, s, e);
    }

    /// Recomputes the values of component `c` (its members are
    /// `scc_members[s..e]`) from false, counting internal edges only.
    fn least_fixpoint(&mut self, c: u32, s: usize, e: usize) {
        // Members to false (internal edges are positive).
        for k in s..e {
            let m = self.net.scc_members[k] as usize;
            if self.on(m) {
                self.ns[m] &= !V;
                self.work_done += u64::from(self.net.out_start[m + 1] - self.net.out_start[m]);
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
            self.work_done += u64::from(self.net.out_start[m + 1] - self.net.out_start[m]);
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
    }

    /// First evaluation: every member's value counts once outside.
    fn count_first_values(&mut self, c: u32, s: usize, e: usize) {
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
    }

    /// Propagates the members whose value changed (see `scratch`) to their
    /// successors outside the component.
    fn propagate_changed_members(&mut self, c: u32, s: usize, e: usize) {
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
                if edge & E_SCC != 0 {
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
    pub(super) fn sweep_lazy(&mut self) {
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
    pub(super) fn set_state(&mut self, s: &[u64]) {
        if s.len() <= DENSE_WORDS {
            if self.guard_nodes.is_empty() {
                self.set_state_dense::<false>(s);
            } else {
                self.set_state_dense::<true>(s);
            }
            return;
        }
        let mut diff = std::mem::take(&mut self.diff);
        changed_words(&self.cur, s, &mut diff);
        self.apply_diff(&diff);
        self.diff = diff;
    }

    /// [`Self::set_state`] for a small state: word by word, without the
    /// list (which cost ticTacToe 2.5% of its instructions); `GUARDED_ANDS`:
    /// whether a leaf may guard ANDs.
    #[inline(always)]
    fn set_state_dense<const GUARDED_ANDS: bool>(&mut self, s: &[u64]) {
        self.lazy_fresh = false;
        // As in `apply_diff`: fluents turning false first.
        for turning_on in [false, true] {
            for (w, &sw) in s.iter().enumerate() {
                let mut d = (self.cur[w] ^ sw) & if turning_on { sw } else { !sw };
                while d != 0 {
                    let b = d.trailing_zeros() as usize;
                    d &= d - 1;
                    let node = self.t.base_node[w * 64 + b];
                    if node == NONE {
                        continue;
                    }
                    if GUARDED_ANDS {
                        self.flip_leaf(node as usize);
                    } else {
                        self.flip(node as usize);
                    }
                }
            }
        }
        self.cur.copy_from_slice(s);
        self.propagate();
    }

    /// Makes the successor state that the hooks hold the current state.
    pub(super) fn set_state_to_next(&mut self) {
        let mut diff = std::mem::take(&mut self.diff);
        changed_words(&self.cur, &self.hooked, &mut diff);
        self.apply_diff(&diff);
        self.diff = diff;
    }

    /// Sets the state's words that differ, `(word, new value)`: the rest of
    /// a large state (pancakes88's 40,320 orderings) is not scanned again.
    fn apply_diff(&mut self, diff: &[(u32, u64)]) {
        self.lazy_fresh = false;
        // Fluents turning false first, true last: propagation is last in,
        // first out, so an OR fed by both sees its +1 before its -1 and
        // does not change and change back (as with the inputs).
        for turning_on in [false, true] {
            for &(w, sw) in diff {
                let w = w as usize;
                let mut d = (self.cur[w] ^ sw) & if turning_on { sw } else { !sw };
                while d != 0 {
                    let b = d.trailing_zeros() as usize;
                    d &= d - 1;
                    let node = self.t.base_node[w * 64 + b];
                    if node != NONE {
                        self.flip_leaf(node as usize);
                    }
                }
            }
        }
        for &(w, sw) in diff {
            self.cur[w as usize] = sw;
        }
        self.propagate();
    }

    /// The input flips of [`Self::set_inputs`], new moves on first (see
    /// [`frame_inputs`](crate::ground::passes::frame_inputs)); apart, so that the usual order's code is as before
    /// (inlined together, both orders cost ticTacToe ~5% in wasm).
    #[inline(never)]
    fn flip_inputs_new_first<const GUARDED_ANDS: bool>(&mut self, nodes: &[u32]) {
        for &n in nodes {
            if !self.on(n as usize) {
                self.flip_input::<GUARDED_ANDS>(n as usize);
            }
        }
        for k in 0..self.inputs.len() {
            let n = self.inputs[k];
            if !nodes.contains(&n) {
                self.flip_input::<GUARDED_ANDS>(n as usize);
            }
        }
    }

    #[inline(always)]
    fn flip_input<const GUARDED_ANDS: bool>(&mut self, v: usize) {
        if GUARDED_ANDS {
            self.flip_leaf(v);
        } else {
            self.flip(v);
        }
    }

    /// The input flips of [`Self::set_inputs`] in the usual order where
    /// inputs may guard ANDs; apart, so that networks without guards run
    /// the code they ran before (the test cost ticTacToe 1% of its
    /// instructions).
    #[inline(never)]
    fn flip_inputs_guarded(&mut self, nodes: &[u32]) {
        self.flip_inputs_old_first::<true>(nodes);
    }

    /// The input flips of [`Self::set_inputs`] in the usual order: old
    /// moves off, then new ones on.
    #[inline(always)]
    fn flip_inputs_old_first<const GUARDED_ANDS: bool>(&mut self, nodes: &[u32]) {
        for k in 0..self.inputs.len() {
            let n = self.inputs[k];
            if !nodes.contains(&n) {
                self.flip_input::<GUARDED_ANDS>(n as usize);
            }
        }
        for &n in nodes {
            if !self.on(n as usize) {
                self.flip_input::<GUARDED_ANDS>(n as usize);
            }
        }
    }

    /// Sets exactly these input nodes.
    pub(super) fn set_inputs(&mut self, nodes: &[u32]) {
        self.lazy_fresh = false;
        if self.new_first {
            if self.guard_nodes.is_empty() {
                self.flip_inputs_new_first::<false>(nodes);
            } else {
                self.flip_inputs_new_first::<true>(nodes);
            }
        } else if !self.guard_nodes.is_empty() {
            self.flip_inputs_guarded(nodes);
        } else {
            self.flip_inputs_old_first::<false>(nodes);
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
    pub(super) fn at(&mut self, s: &BitState) {
        if self.t.queries_use_does && !self.inputs.is_empty() {
            self.set_inputs(&[]);
        }
        self.go_to(s);
    }

    /// Makes `s` the current state (the joint move stays as it was); in a
    /// subgame with a held state, `s` in the part and the held state
    /// outside it.
    pub(super) fn go_to(&mut self, s: &BitState) {
        if let Some(held) = self.held.as_deref() {
            let parts = self.t.subgames.as_deref().expect("held in a subgame");
            let mask = &parts.mask[self.part as usize];
            let merged: SmallVec<[u64; 4]> = (s.0.iter().zip(mask).zip(held))
                .map(|((s, m), h)| s & m | h & !m)
                .collect();
            if merged[..] != self.cur[..] {
                self.set_state(&merged);
            }
            return;
        }
        if s.0[..] != self.cur[..] {
            self.set_state(&s.0);
        }
    }
}

/// The words of `new` that differ from `cur` (`new` may be longer: the
/// hooks' bitset holds the successor state in its first words), as
/// `(word, new value)`.
fn changed_words(cur: &[u64], new: &[u64], out: &mut Vec<(u32, u64)>) {
    out.clear();
    for (w, (&c, &n)) in cur.iter().zip(new).enumerate() {
        if c != n {
            out.push((w as u32, n));
        }
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
