//! Tabled top-down evaluation of demand relations: each call pattern is a
//! subgoal whose answers go into the relation's table; mutually recursive
//! subgoals are iterated to a fixpoint and completed together.

use super::{ci, Args, Ctx, Status};
use crate::deps::RelId;
use crate::reasoner::compile::{unify, Class, Pat, Plan, StratumPlans};
use crate::reasoner::EvalError;
use crate::terms::TermId;
use std::sync::Arc;

impl Ctx<'_> {
    /// Makes sure the subgoal `rel(vals at mask)` has been evaluated (it may
    /// still be in progress if it is part of a recursion being solved).
    pub(super) fn call(&mut self, rel: RelId, class: Class, mask: u32, vals: &[TermId]) {
        let k = ci(class);
        let key = (rel, mask, Args::from_slice(vals));
        let table = &mut self.demand.subgoals[k];
        let id = match table.map.get(&key) {
            Some(&id) => id,
            None => {
                let id = table.status.len() as u32;
                table.status.push(Status::New);
                table.map.insert(key, id);
                id
            }
        };
        match table.status[id as usize] {
            Status::Complete => {}
            Status::Evaluating(d) => self.low = self.low.min(d),
            Status::Done { epoch, low } if epoch == self.demand.epoch => {
                self.low = self.low.min(low)
            }
            Status::Done { .. } | Status::New => self.solve(rel, class, mask, vals, id),
        }
    }

    /// Evaluates a subgoal's rules; a leader repeats until its component
    /// adds no answers, then completes it.
    fn solve(&mut self, rel: RelId, class: Class, mask: u32, vals: &[TermId], id: u32) {
        if !self.enter() {
            return;
        }
        let testing = std::mem::replace(&mut self.testing, 0);
        crate::stack::guarded(|| self.solve_inner(rel, class, mask, vals, id));
        self.testing = testing;
        self.nesting -= 1;
    }

    /// Counts one more nested subgoal; false (with an error) beyond
    /// [`Limits::max_nesting`], before the stack could overflow.
    pub(super) fn enter(&mut self) -> bool {
        if self.nesting >= self.limits.max_nesting {
            self.error = Some(EvalError::Limit {
                what: "nested subgoals of derived relations, or literals of one rule body (Limits::max_nesting)",
                limit: self.limits.max_nesting as u64,
            });
            return false;
        }
        self.nesting += 1;
        true
    }

    fn solve_inner(&mut self, rel: RelId, class: Class, mask: u32, vals: &[TermId], id: u32) {
        let k = ci(class);
        let depth = self.demand.depth;
        self.demand.depth += 1;
        self.demand.subgoals[k].status[id as usize] = Status::Evaluating(depth);
        self.demand.completion.push((k, id));
        let outer_low = self.low;
        let plans = self.demand_plans(rel, mask);
        let low = loop {
            self.low = u32::MAX;
            let before = self.demand.answers;
            for plan in &plans.plans {
                self.run_demand_plan(plan, class, mask, vals, false);
                if self.error.is_some() {
                    self.demand.depth -= 1;
                    return;
                }
            }
            let low = self.low;
            if low == u32::MAX {
                // Touched nothing in progress: not recursive, complete now.
                self.demand.completion.pop();
                self.demand.subgoals[k].status[id as usize] = Status::Complete;
                break u32::MAX;
            }
            if low < depth {
                self.demand.subgoals[k].status[id as usize] = Status::Done {
                    epoch: self.demand.epoch,
                    low,
                };
                break low;
            }
            if self.demand.answers == before {
                // Leader of a finished component: complete all its members.
                let pos = self
                    .demand
                    .completion
                    .iter()
                    .rposition(|&e| e == (k, id))
                    .expect("on completion stack");
                for (ck, cid) in self.demand.completion.drain(pos..) {
                    self.demand.subgoals[ck].status[cid as usize] = Status::Complete;
                }
                break u32::MAX;
            }
            // New answers: members of the component are evaluated again.
            self.demand.epoch += 1;
        };
        self.demand.depth -= 1;
        self.low = outer_low.min(low);
    }

    pub(super) fn demand_plans(&mut self, rel: RelId, mask: u32) -> Arc<StratumPlans> {
        let (c, dbs, demand) = (self.c, &*self.dbs, &*self.demand);
        let size = |r: RelId| {
            let k = ci(c.class[r]);
            if c.demand[r] {
                demand.dbs[k].rels[r].len()
            } else {
                dbs[k].rels[r].len()
            }
        };
        let found = demand.plans[rel].iter().position(|(m, _)| *m == mask);
        if let Some(i) = found {
            let p = &demand.plans[rel][i].1;
            if !p.stale(&size) {
                return Arc::clone(p);
            }
        }
        let plans = Arc::new(c.plan_demand(rel, mask, &size));
        match found {
            Some(i) => self.demand.plans[rel][i].1 = Arc::clone(&plans),
            None => self.demand.plans[rel].push((mask, Arc::clone(&plans))),
        }
        plans
    }

    /// Runs one rule body for a subgoal: binds the head at the called
    /// positions, joins, and adds the answers to the relation's table. With
    /// `test`, only records in `found` whether there is a derivation.
    pub(super) fn run_demand_plan(
        &mut self,
        plan: &Plan,
        class: Class,
        mask: u32,
        vals: &[TermId],
        test: bool,
    ) {
        let (mut env, mut trail, mut out) = self.demand.buffers.pop().unwrap_or_default();
        env.clear();
        env.resize(plan.num_vars, TermId::NONE);
        trail.clear();
        out.clear();
        let mut vi = vals.iter();
        let mut applies = true;
        for (i, p) in plan.head.iter().enumerate() {
            if i < 32 && mask >> i & 1 == 1 {
                let v = *vi.next().expect("one value per bound position");
                if !unify(self.store, p, v, &mut env, &mut trail) {
                    applies = false;
                    break;
                }
            }
        }
        if applies {
            trail.clear();
            let before = self.steps;
            if test {
                self.join_test(plan, &mut env, &mut trail);
            } else {
                self.join(plan, 0, &mut env, &mut trail, &mut out, (0, 0));
                self.add_answers(plan, class, &out);
            }
            plan.cost.add(self.steps - before);
        }
        self.demand.buffers.push((env, trail, out));
    }

    /// Joins a plan only to learn whether it derives anything.
    fn join_test(&mut self, plan: &Plan, env: &mut [TermId], trail: &mut Vec<u16>) {
        let mut out = Vec::new();
        self.testing += 1;
        self.join(plan, 0, env, trail, &mut out, (0, 0));
        self.testing -= 1;
        self.stop = false;
        if !out.is_empty() {
            self.demand.found = true;
        }
    }

    fn add_answers(&mut self, plan: &Plan, class: Class, out: &[TermId]) {
        let arity = plan.head.len();
        let table = &mut self.demand.dbs[ci(class)].rels[plan.head_rel];
        for row in out.chunks_exact(arity.max(1)) {
            let row = if arity == 0 { &[][..] } else { row };
            if table.insert(row) {
                self.demand.answers += 1;
                if self.budget == 0 {
                    self.error = Some(EvalError::Limit {
                        what: "derived facts",
                        limit: self.limits.max_rows_per_state as u64,
                    });
                    return;
                }
                self.budget -= 1;
            }
        }
    }

    /// Instantiates a bound pattern, interning new terms (bounded depth).
    pub(super) fn build(&mut self, p: &Pat, env: &[TermId]) -> Option<TermId> {
        match p {
            Pat::Var(v) => Some(env[*v as usize]),
            Pat::Const(t) => Some(*t),
            Pat::App(f, args) => {
                let mut vals = Args::new();
                for a in args.iter() {
                    vals.push(self.build(a, env)?);
                }
                let t = self.store.app(*f, &vals);
                if self.store.depth(t) > self.limits.max_term_depth {
                    self.error = Some(EvalError::Limit {
                        what: "levels of term nesting",
                        limit: self.limits.max_term_depth as u64,
                    });
                    return None;
                }
                Some(t)
            }
        }
    }

    pub(super) fn emit(&mut self, plan: &Plan, env: &[TermId], out: &mut Vec<TermId>) {
        if self.testing > 0 {
            out.push(TermId::NONE);
            self.stop = true;
            return;
        }
        // Rows are counted as they are derived, so an exploding rule stops
        // before it creates millions of terms.
        if out.len() / plan.head.len().max(1) >= self.budget {
            self.error = Some(EvalError::Limit {
                what: "derived facts",
                limit: self.limits.max_rows_per_state as u64,
            });
            return;
        }
        let start = out.len();
        for p in plan.head.iter() {
            match self.build(p, env) {
                Some(t) => out.push(t),
                None => {
                    out.truncate(start);
                    return;
                }
            }
        }
        if plan.head.is_empty() {
            // Zero-arity head: one marker so the caller sees a derivation.
            out.push(TermId::NONE);
        }
    }
}
