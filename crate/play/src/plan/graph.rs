//! The relaxed planning graph (thesis 3.3.3–3.3.4): h_max, h_add and h_FF
//! of a state, computed on the [`Problem`] built once per game.
//!
//! Evaluating a state resets per-variable and per-operator counters (Fast
//! Downward's unary operators with precondition counters) instead of
//! rebuilding anything:
//! - **h_max** is a 0-1 breadth-first search over the costs (costs are 0 or
//!   1, so values are the layers of the parallel plan); each variable keeps
//!   a *supporter*, the operator that reached it first, preferring among
//!   those that reach it in the same layer the one with the fewest
//!   preconditions;
//! - **h_add** is Dijkstra's algorithm with the sum of the preconditions'
//!   costs;
//! - **h_FF** extracts the relaxed plan backwards from a goal variable:
//!   a variable true in the state persists (costs nothing, "persistence
//!   first"); any other is reached by an achiever applicable in the layer
//!   before the variable's first layer, choosing the one whose
//!   preconditions are cheapest (least sum of h_add: FF's "difficulty",
//!   here with h_add, so that a line of tic-tac-toe already half filled
//!   beats an empty one of the same depth), then the one with the fewest
//!   preconditions (thesis 3.3.4); its preconditions become subgoals and
//!   each operator is counted once. Achievers are restricted to operators
//!   whose preconditions were all reached before the variable in the
//!   h_max pass, so extraction never loops through cost-0 cycles. The
//!   plan is reported as the actions it uses, by layer.
//!
//! An unreachable goal has distance [`INF`].

use super::translate::{OpKind, Problem};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// Distance of an unreachable variable.
pub const INF: u32 = u32::MAX;
const NONE: u32 = u32::MAX;

/// One action of a relaxed plan: the layer it is applied in (0 = now),
/// the role and the move (in the problem's term store).
#[derive(Clone, Debug, PartialEq)]
pub struct PlanStep {
    pub layer: u32,
    pub role: u32,
    pub mv: crate::terms::TermId,
}

/// Distances of one goal variable.
#[derive(Clone, Debug, PartialEq)]
pub struct Distances {
    pub h_max: u32,
    pub h_add: u32,
    pub h_ff: u32,
    pub plan: Vec<PlanStep>,
}

/// Scratch space for evaluating states of one [`Problem`].
pub struct Graph {
    /// Operators by precondition: `by_pre[by_pre_start[v]..]`.
    by_pre_start: Vec<u32>,
    by_pre: Vec<u32>,
    /// Operators by effect: `by_eff[by_eff_start[v]..]`.
    by_eff_start: Vec<u32>,
    by_eff: Vec<u32>,
    /// Order in which the h_max and the h_add pass reached each variable.
    order: Vec<u32>,
    order_add: Vec<u32>,
    /// Operators without preconditions.
    roots: Vec<u32>,
    hmax: Vec<u32>,
    hadd: Vec<u32>,
    supporter: Vec<u32>,
    in_state: Vec<bool>,
    unsat: Vec<u32>,
    acc: Vec<u32>,
    done: Vec<bool>,
    marked_op: Vec<u32>,
    marked_var: Vec<u32>,
    finished_var: Vec<u32>,
    mark: u32,
    state: Vec<u32>,
    /// Truth of each variable in the state (derived rules evaluated), and
    /// whether each operator's negative preconditions hold there.
    truth: Vec<bool>,
    truth_prev: Vec<bool>,
    enabled: Vec<bool>,
    /// Whether h_add belongs to the current state.
    hadd_fresh: bool,
    /// Evaluations so far (for figures).
    pub evaluations: u64,
}

impl Graph {
    pub fn new(p: &Problem) -> Graph {
        let mut count = vec![0u32; p.num_vars + 1];
        let mut roots = Vec::new();
        for o in 0..p.num_ops() {
            if p.pre(o).is_empty() {
                roots.push(o as u32);
            }
            for &v in p.pre(o) {
                count[v as usize + 1] += 1;
            }
        }
        for v in 0..p.num_vars {
            count[v + 1] += count[v];
        }
        let mut fill = count.clone();
        let mut by_pre = vec![0u32; p.pre.len()];
        for o in 0..p.num_ops() {
            for &v in p.pre(o) {
                by_pre[fill[v as usize] as usize] = o as u32;
                fill[v as usize] += 1;
            }
        }
        let mut eff_count = vec![0u32; p.num_vars + 1];
        for o in 0..p.num_ops() {
            eff_count[p.op_eff[o] as usize + 1] += 1;
        }
        for v in 0..p.num_vars {
            eff_count[v + 1] += eff_count[v];
        }
        let mut fill = eff_count.clone();
        let mut by_eff = vec![0u32; p.num_ops()];
        for o in 0..p.num_ops() {
            let v = p.op_eff[o] as usize;
            by_eff[fill[v] as usize] = o as u32;
            fill[v] += 1;
        }
        Graph {
            by_eff_start: eff_count,
            by_eff,
            order: vec![u32::MAX; p.num_vars],
            order_add: vec![u32::MAX; p.num_vars],
            by_pre_start: count,
            by_pre,
            roots,
            hmax: vec![INF; p.num_vars],
            hadd: vec![INF; p.num_vars],
            supporter: vec![NONE; p.num_vars],
            in_state: vec![false; p.num_vars],
            unsat: vec![0; p.num_ops()],
            acc: vec![0; p.num_ops()],
            done: vec![false; p.num_vars],
            marked_op: vec![0; p.num_ops()],
            marked_var: vec![0; p.num_vars],
            finished_var: vec![0; p.num_vars],
            mark: 0,
            state: Vec::new(),
            hadd_fresh: false,
            truth: vec![false; p.num_vars],
            truth_prev: vec![false; p.num_vars],
            enabled: vec![true; p.num_ops()],
            evaluations: 0,
        }
    }

    /// Sets the state: the variables true in it (fluents' variables).
    pub fn set_state(&mut self, vars: &[u32]) {
        self.hadd_fresh = false;
        for &v in &self.state {
            self.in_state[v as usize] = false;
        }
        self.state.clear();
        self.state.extend_from_slice(vars);
        for &v in vars {
            self.in_state[v as usize] = true;
        }
    }

    fn reset_ops(&mut self, p: &Problem) {
        for o in 0..p.num_ops() {
            // A disabled operator never reaches 0 unsatisfied preconditions.
            self.unsat[o] = if self.enabled[o] {
                p.pre_start[o + 1] - p.pre_start[o]
            } else {
                u32::MAX
            };
            self.acc[o] = 0;
        }
    }

    /// Which variables hold in the state: the derived rules evaluated by an
    /// alternating fixpoint (a negation reads the previous pass; the passes
    /// alternate over- and under-approximations and meet at the stratified
    /// model), then which operators' negative preconditions hold.
    fn evaluate_negations(&mut self, p: &Problem) {
        if p.neg.is_empty() {
            return;
        }
        let mut queue: Vec<u32> = Vec::new();
        for pass in 0..8 {
            std::mem::swap(&mut self.truth, &mut self.truth_prev);
            self.truth.fill(false);
            for o in 0..p.num_ops() {
                self.unsat[o] = p.pre_start[o + 1] - p.pre_start[o];
            }
            queue.clear();
            for &v in &self.state {
                self.truth[v as usize] = true;
                queue.push(v);
            }
            let fires = |g: &Graph, o: usize| {
                p.op_kind[o] == OpKind::Derived
                    && (pass == 0 || p.neg(o).iter().all(|&x| !g.truth_prev[x as usize]))
            };
            for i in 0..self.roots.len() {
                let o = self.roots[i] as usize;
                let e = p.op_eff[o] as usize;
                if fires(self, o) && !self.truth[e] {
                    self.truth[e] = true;
                    queue.push(e as u32);
                }
            }
            while let Some(v) = queue.pop() {
                for k in self.by_pre_start[v as usize] as usize
                    ..self.by_pre_start[v as usize + 1] as usize
                {
                    let o = self.by_pre[k] as usize;
                    self.unsat[o] -= 1;
                    let e = p.op_eff[o] as usize;
                    if self.unsat[o] == 0 && !self.truth[e] && fires(self, o) {
                        self.truth[e] = true;
                        queue.push(e as u32);
                    }
                }
            }
            if pass > 0 && self.truth == self.truth_prev {
                break;
            }
        }
        for o in 0..p.num_ops() {
            self.enabled[o] = p.neg(o).iter().all(|&x| !self.truth[x as usize]);
        }
    }

    /// h_max of every variable, with supporters (0-1 BFS by layers).
    pub fn run_hmax(&mut self, p: &Problem) {
        self.evaluations += 1;
        self.evaluate_negations(p);
        self.reset_ops(p);
        self.hmax.fill(INF);
        self.supporter.fill(NONE);
        self.done.fill(false);
        self.order.fill(u32::MAX);
        let mut popped = 0u32;
        let mut queue: VecDeque<u32> = VecDeque::new();
        for i in 0..self.state.len() {
            let v = self.state[i];
            self.hmax[v as usize] = 0;
            queue.push_back(v);
        }
        for i in 0..self.roots.len() {
            let o = self.roots[i] as usize;
            if self.enabled[o] {
                self.offer(p, o, 0, &mut queue);
            }
        }
        while let Some(v) = queue.pop_front() {
            if std::mem::replace(&mut self.done[v as usize], true) {
                continue;
            }
            self.order[v as usize] = popped;
            popped += 1;
            let h = self.hmax[v as usize];
            let (s, e) = (
                self.by_pre_start[v as usize] as usize,
                self.by_pre_start[v as usize + 1] as usize,
            );
            for k in s..e {
                let o = self.by_pre[k] as usize;
                self.unsat[o] -= 1;
                if self.unsat[o] == 0 {
                    self.offer(p, o, h, &mut queue);
                }
            }
        }
    }

    /// Operator `o` became applicable in layer `h`: offers its effect.
    fn offer(&mut self, p: &Problem, o: usize, h: u32, queue: &mut VecDeque<u32>) {
        let eff = p.op_eff[o] as usize;
        if self.done[eff] || self.in_state[eff] {
            return;
        }
        let c = p.op_cost[o];
        let val = h + c;
        let cur = self.hmax[eff];
        let fewer = || {
            let s = self.supporter[eff] as usize;
            p.pre(o).len() < p.pre(s).len()
        };
        if val < cur || (val == cur && fewer()) {
            self.hmax[eff] = val;
            self.supporter[eff] = o as u32;
            if val < cur {
                if c == 0 {
                    queue.push_front(eff as u32);
                } else {
                    queue.push_back(eff as u32);
                }
            }
        }
    }

    /// h_add of every variable (Dijkstra).
    pub fn run_hadd(&mut self, p: &Problem) {
        self.reset_ops(p);
        self.hadd.fill(INF);
        self.done.fill(false);
        self.order_add.fill(u32::MAX);
        let mut popped = 0u32;
        self.hadd_fresh = true;
        let mut heap: BinaryHeap<Reverse<(u32, u32)>> = BinaryHeap::new();
        for &v in &self.state {
            self.hadd[v as usize] = 0;
            heap.push(Reverse((0, v)));
        }
        for i in 0..self.roots.len() {
            let o = self.roots[i] as usize;
            let eff = p.op_eff[o] as usize;
            if self.enabled[o] && p.op_cost[o] < self.hadd[eff] {
                self.hadd[eff] = p.op_cost[o];
                heap.push(Reverse((p.op_cost[o], eff as u32)));
            }
        }
        while let Some(Reverse((h, v))) = heap.pop() {
            if std::mem::replace(&mut self.done[v as usize], true) {
                continue;
            }
            self.order_add[v as usize] = popped;
            popped += 1;
            for k in
                self.by_pre_start[v as usize] as usize..self.by_pre_start[v as usize + 1] as usize
            {
                let o = self.by_pre[k] as usize;
                self.unsat[o] -= 1;
                self.acc[o] = self.acc[o].saturating_add(h);
                if self.unsat[o] == 0 {
                    let eff = p.op_eff[o] as usize;
                    let val = self.acc[o].saturating_add(p.op_cost[o]);
                    if val < self.hadd[eff] {
                        self.hadd[eff] = val;
                        heap.push(Reverse((val, eff as u32)));
                    }
                }
            }
        }
    }

    pub fn hmax(&self, v: u32) -> u32 {
        self.hmax[v as usize]
    }

    pub fn hadd(&self, v: u32) -> u32 {
        self.hadd[v as usize]
    }

    /// h_FF of `goal` after [`Graph::run_hmax`]: the relaxed plan's cost,
    /// and its actions by layer when `plan` is given.
    pub fn hff(&mut self, p: &Problem, goal: u32, mut plan: Option<&mut Vec<PlanStep>>) -> u32 {
        if self.hmax[goal as usize] == INF {
            return INF;
        }
        self.mark = self.mark.wrapping_add(1);
        if self.mark == 0 {
            self.marked_op.fill(0);
            self.marked_var.fill(0);
            self.finished_var.fill(0);
            self.mark = 1;
        }
        let mut cost = 0u32;
        // Depth-first; `v | FINISH` closes `v` once its subplan is complete
        // (only then does it make achievers that need it free).
        const FINISH: u32 = 1 << 31;
        let mut stack = vec![goal];
        while let Some(e) = stack.pop() {
            if e & FINISH != 0 {
                self.finished_var[(e & !FINISH) as usize] = self.mark;
                continue;
            }
            let vi = e as usize;
            if self.marked_var[vi] == self.mark || self.in_state[vi] {
                continue; // already a subgoal, or persists from the state
            }
            self.marked_var[vi] = self.mark;
            stack.push(e | FINISH);
            let o = self.achiever(p, vi);
            if o == NONE as usize || self.marked_op[o] == self.mark {
                continue;
            }
            self.marked_op[o] = self.mark;
            cost = cost.saturating_add(p.op_cost[o]);
            let pre = p.pre(o);
            if let (Some(plan), OpKind::Action { role, mv }) = (plan.as_deref_mut(), p.op_kind[o]) {
                let layer = pre
                    .iter()
                    .map(|&q| self.hmax[q as usize])
                    .max()
                    .unwrap_or(0);
                plan.push(PlanStep { layer, role, mv });
            }
            // Reversed, so the first precondition (a goal formula's `goal`
            // before its `terminal`) is extracted first.
            stack.extend(pre.iter().rev());
        }
        if let Some(plan) = plan {
            plan.sort_by_key(|s| (s.layer, s.role, p.store.display(s.mv)));
        }
        cost
    }

    /// The achiever of `v` in the relaxed plan (after both passes), the
    /// first by: *free* (every precondition already in the plan or the
    /// state: generalised persistence, so `terminal` in `goal ∧ terminal`
    /// reuses the goal's subplan), earliest layer, cheapest preconditions
    /// not yet in the plan (sum of h_add), fewest preconditions. Achievers
    /// that are not free must have all preconditions reached before `v` in
    /// the h_max pass or in the h_add pass (each order alone is acyclic, so
    /// the plan does not justify a variable by itself through cost-0 rules;
    /// the visited marks stop extraction in any case).
    /// Without h_add: the h_max supporter.
    fn achiever(&self, p: &Problem, v: usize) -> usize {
        let sup = self.supporter[v];
        if sup == NONE || !self.hadd_fresh {
            return sup as usize;
        }
        let (ord, ord_add) = (self.order[v], self.order_add[v]);
        let mut best = (true, u32::MAX, u64::MAX, usize::MAX, NONE as usize);
        for k in self.by_eff_start[v] as usize..self.by_eff_start[v + 1] as usize {
            let o = self.by_eff[k] as usize;
            if !self.enabled[o] {
                continue;
            }
            let pre = p.pre(o);
            let (mut max, mut sum) = (0u32, 0u64);
            let (mut free, mut ordered, mut ordered_add) = (true, true, true);
            for &q in pre {
                let q = q as usize;
                if self.hmax[q] == INF {
                    (ordered, ordered_add, free) = (false, false, false);
                    break;
                }
                max = max.max(self.hmax[q]);
                if !(self.in_state[q] || self.finished_var[q] == self.mark) {
                    free = false;
                    sum += self.hadd[q] as u64;
                }
                if self.order[q] >= ord {
                    ordered = false;
                }
                if self.order_add[q] >= ord_add {
                    ordered_add = false;
                }
            }
            if !(free || ordered || ordered_add) {
                continue;
            }
            let key = (!free, max + p.op_cost[o], sum, pre.len(), o);
            if key < best {
                best = key;
            }
        }
        if best.4 == NONE as usize {
            sup as usize
        } else {
            best.4
        }
    }

    /// All three distances of `goal` (runs both passes).
    pub fn distances(&mut self, p: &Problem, goal: u32) -> Distances {
        self.run_hmax(p);
        self.run_hadd(p);
        let mut plan = Vec::new();
        let h_ff = self.hff(p, goal, Some(&mut plan));
        Distances {
            h_max: self.hmax(goal),
            h_add: self.hadd(goal),
            h_ff,
            plan,
        }
    }
}
