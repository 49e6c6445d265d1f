//! Joins: running a plan's operations over the materialised relations and
//! the demand tables, and existence tests for negated and fully bound
//! literals. The subgoals a join calls are solved in `tabling`.

use super::{ci, Args, Ctx, LITERALS_PER_LEVEL};
use crate::deps::RelId;
use crate::reasoner::compile::{unify, value, Class, Op, Pat, Plan};
use crate::reasoner::db::{KeyHasher, Row};
use crate::reasoner::EvalError;
use crate::terms::TermId;
use smallvec::SmallVec;

impl Ctx<'_> {
    fn step(&mut self) -> bool {
        self.steps += 1;
        if self.steps.is_multiple_of(4096) {
            if let Err(e) = crate::job::check() {
                self.error = Some(e);
                return false;
            }
        }
        if self.steps > self.limits.max_steps {
            self.error = Some(EvalError::Limit {
                what: "join steps",
                limit: self.limits.max_steps,
            });
            return false;
        }
        true
    }

    /// The bound values of `pats` at the positions in `mask`, or `None` if
    /// one of them is a term that does not exist (so no row of a complete
    /// relation can match).
    fn key_values(&self, pats: &[Pat], mask: u32, env: &[TermId]) -> Option<Args> {
        let mut vals = Args::new();
        for (k, p) in pats.iter().enumerate() {
            if k < 32 && mask >> k & 1 == 1 {
                vals.push(value(self.store, p, env)?);
            }
        }
        Some(vals)
    }

    /// The values of fully bound patterns (any arity), or `None` if one is a
    /// term that does not exist.
    fn all_values(&self, pats: &[Pat], env: &[TermId]) -> Option<Args> {
        pats.iter().map(|p| value(self.store, p, env)).collect()
    }

    /// The bound values of a call to a demand relation. Its answers are not
    /// computed yet, so argument terms are interned rather than looked up.
    fn call_values(&mut self, pats: &[Pat], mask: u32, env: &[TermId]) -> Option<Args> {
        let mut vals = Args::new();
        for (k, p) in pats.iter().enumerate() {
            if k < 32 && mask >> k & 1 == 1 {
                vals.push(self.build(p, env)?);
            }
        }
        Some(vals)
    }

    /// Whether the current join must stop (an error, or a test succeeded).
    fn halted(&self) -> bool {
        self.stop || self.error.is_some()
    }

    /// Nested-loop join over `plan.ops[i..]`, pushing head rows onto `out`.
    pub(super) fn join(
        &mut self,
        plan: &Plan,
        i: usize,
        env: &mut [TermId],
        trail: &mut Vec<u16>,
        out: &mut Vec<TermId>,
        delta: (Row, Row),
    ) {
        // One frame per body literal: every LITERALS_PER_LEVEL literals of a
        // rule body count as one nested level (bounded by max_nesting, as in
        // wasm the stack cannot grow), and natively the stack grows there.
        if i % LITERALS_PER_LEVEL == LITERALS_PER_LEVEL - 1 {
            if !self.enter() {
                return;
            }
            crate::stack::guarded(|| self.join_op(plan, i, env, trail, out, delta));
            self.nesting -= 1;
            return;
        }
        self.join_op(plan, i, env, trail, out, delta)
    }

    /// [`Self::join`] from the `i`th operation of the plan.
    fn join_op(
        &mut self,
        plan: &Plan,
        i: usize,
        env: &mut [TermId],
        trail: &mut Vec<u16>,
        out: &mut Vec<TermId>,
        delta: (Row, Row),
    ) {
        if self.halted() {
            return;
        }
        let Some(op) = plan.ops.get(i) else {
            self.emit(plan, env, out);
            return;
        };
        match op {
            Op::Scan {
                rel,
                class,
                pats,
                demand,
                ..
            } => {
                let Some(rows) = self.scan_rows(op, env, delta) else {
                    return;
                };
                let (k, rel) = (ci(*class), *rel);
                for r in rows {
                    if !self.step() {
                        return;
                    }
                    let mark = trail.len();
                    let table = if *demand {
                        &self.demand.dbs[k].rels[rel]
                    } else {
                        &self.dbs[k].rels[rel]
                    };
                    if pats
                        .iter()
                        .zip(table.row(r))
                        .all(|(p, &t)| unify(self.store, p, t, env, trail))
                    {
                        self.join(plan, i + 1, env, trail, out, delta);
                    }
                    for v in trail.drain(mark..) {
                        env[v as usize] = TermId::NONE;
                    }
                    if self.halted() {
                        return;
                    }
                }
            }
            Op::Check {
                rel,
                class,
                pats,
                negated,
                demand,
            } => {
                let Some(present) = self.holds(*rel, *class, pats, *demand, env) else {
                    return;
                };
                if present != *negated {
                    self.join(plan, i + 1, env, trail, out, delta);
                }
            }
            Op::Distinct(a, b) => {
                let (x, y) = (self.build(a, env), self.build(b, env));
                if let (Some(x), Some(y)) = (x, y) {
                    if x != y {
                        self.join(plan, i + 1, env, trail, out, delta);
                    }
                }
            }
        }
    }

    /// The rows a scan visits: those matching its bound arguments (calling
    /// the subgoal first for a demand relation), in the delta range for a
    /// delta scan. `None` if the join stops here.
    fn scan_rows(
        &mut self,
        op: &Op,
        env: &[TermId],
        delta: (Row, Row),
    ) -> Option<SmallVec<[Row; 32]>> {
        let Op::Scan {
            rel,
            class,
            pats,
            mask,
            delta: is_delta,
            demand,
        } = op
        else {
            unreachable!("only scans have rows")
        };
        let (k, rel, mask) = (ci(*class), *rel, *mask);
        let vals = if *demand {
            let vals = self.call_values(pats, mask, env)?;
            self.call(rel, *class, mask, &vals);
            if self.halted() {
                return None;
            }
            vals
        } else {
            self.key_values(pats, mask, env)?
        };
        let mut key = KeyHasher::default();
        vals.iter().for_each(|&v| key.add(v));
        // Row ids are taken first: tables may grow while we iterate
        // (answers of recursive subgoals) and indexes are built here.
        let table = if *demand {
            &mut self.demand.dbs[k].rels[rel]
        } else {
            &mut self.dbs[k].rels[rel]
        };
        let (lo, hi) = if *is_delta {
            delta
        } else {
            (0, table.len() as Row)
        };
        let mut rows: SmallVec<[Row; 32]> = SmallVec::new();
        table.lookup(mask, key.finish(), lo, hi, &mut rows);
        Some(rows)
    }

    /// Whether the fully bound literal `rel(pats)` holds. `None` if the join
    /// stops here.
    fn holds(
        &mut self,
        rel: RelId,
        class: Class,
        pats: &[Pat],
        demand: bool,
        env: &[TermId],
    ) -> Option<bool> {
        // Demand relations have at most MAX_DEMAND_ARITY (< 32)
        // arguments, so the full mask covers them all.
        let full = full_mask(pats.len());
        let present = if demand && !self.c.graph.is_recursive(rel) {
            let row = self.call_values(pats, full, env)?;
            self.exists(rel, class, row)
        } else if demand {
            let row = self.call_values(pats, full, env)?;
            self.call(rel, class, full, &row);
            if self.halted() {
                return None;
            }
            self.demand.dbs[ci(class)].rels[rel].contains(&row)
        } else {
            match self.all_values(pats, env) {
                None => false,
                Some(row) => self.dbs[ci(class)].rels[rel].contains(&row),
            }
        };
        Some(present)
    }

    /// Whether the fully bound atom `rel(row)` of a non-recursive demand
    /// relation is derivable: runs its rules with the head bound and stops at
    /// the first derivation (memoised per state).
    fn exists(&mut self, rel: RelId, class: Class, row: Args) -> bool {
        let testing = std::mem::replace(&mut self.testing, 0);
        let r = crate::stack::guarded(|| self.exists_inner(rel, class, row));
        self.testing = testing;
        r
    }

    fn exists_inner(&mut self, rel: RelId, class: Class, row: Args) -> bool {
        let k = ci(class);
        if let Some(&b) = self.demand.exists[k].get(&(rel, row.clone())) {
            return b;
        }
        // Facts (and answers of earlier calls) are in the table already.
        if self.demand.dbs[k].rels[rel].contains(&row) {
            return true;
        }
        if !self.enter() {
            return false;
        }
        let full = full_mask(row.len());
        let plans = self.demand_plans(rel, full);
        let mut found = false;
        for plan in &plans.plans {
            let outer = std::mem::replace(&mut self.demand.found, false);
            self.run_demand_plan(plan, class, full, &row, true);
            found = std::mem::replace(&mut self.demand.found, outer);
            if found || self.error.is_some() {
                break;
            }
        }
        self.nesting -= 1;
        if self.error.is_none() {
            self.demand.exists[k].insert((rel, row), found);
        }
        found
    }
}

/// The mask with the first `n` positions set (all 32 when `n >= 32`).
fn full_mask(n: usize) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}
