//! Bottom-up evaluation of materialised strata: which strata a query needs,
//! semi-naive iteration within a stratum, and the plan runs that fill the
//! relations. Kept apart from the interpreter's set-up and state loading,
//! which decide what is stale; this part only recomputes it.

use super::{ci, Ctx, FluentState, Interpreter};
use crate::deps::RelId;
use crate::reasoner::compile::{Class, Plan, StratumPlans};
use crate::reasoner::db::Row;
use crate::reasoner::EvalError;
use crate::terms::TermId;
use std::sync::Arc;

impl Interpreter {
    /// Evaluates the given strata (in order) that are not yet computed.
    /// Move strata are evaluated (afresh) only when `moves` is given or a
    /// stratum needs them.
    pub(super) fn ensure(
        &mut self,
        strata: &[usize],
        moves: Option<&[TermId]>,
    ) -> Result<(), EvalError> {
        let mut moves_loaded = false;
        if moves.is_some() {
            self.load_moves(moves);
            moves_loaded = true;
        }
        for &s in strata {
            let st = &self.c.strata[s];
            if st.demand {
                continue;
            }
            match st.class {
                Class::Static if !self.static_done[s] => {
                    self.eval_stratum(s)?;
                    self.static_done[s] = true;
                }
                Class::State if !self.state_done[s] => {
                    self.eval_stratum(s)?;
                    self.state_done[s] = true;
                }
                Class::Move => {
                    if !moves_loaded {
                        self.load_moves(None);
                        moves_loaded = true;
                    }
                    self.eval_stratum(s)?;
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn eval_stratum(&mut self, s: usize) -> Result<(), EvalError> {
        let c = Arc::clone(&self.c);
        let st = &c.strata[s];
        let plans = self.plans_for(s);
        let k = ci(st.class);
        let len = |it: &Interpreter, r: RelId| it.dbs[k].rels[r].len() as Row;
        let start: Vec<Row> = st.heads.iter().map(|&r| len(self, r)).collect();
        for plan in &plans.plans {
            self.run(plan, st.class, (0, 0))?;
        }
        if !st.recursive {
            return Ok(());
        }
        // Semi-naive rounds: the delta of a relation is the rows added in the
        // previous round, a contiguous range since rows are append-only.
        let mut lo = start;
        loop {
            let hi: Vec<Row> = st.heads.iter().map(|&r| len(self, r)).collect();
            if hi == lo {
                return Ok(());
            }
            for plan in &plans.delta_plans {
                let i = st
                    .heads
                    .iter()
                    .position(|&r| Some(r) == plan.delta_rel)
                    .expect("delta rel in stratum");
                self.run(plan, st.class, (lo[i], hi[i]))?;
            }
            lo = hi;
        }
    }

    /// Current number of rows of a relation (materialised or answers so far).
    pub(super) fn size(&self, r: RelId) -> usize {
        let k = ci(self.c.class[r]);
        if self.c.demand[r] {
            self.demand.dbs[k].rels[r].len()
        } else {
            self.dbs[k].rels[r].len()
        }
    }

    /// The plans of stratum `s`, ordered with the current relation sizes on
    /// first use; registers the indexes they look up.
    fn plans_for(&mut self, s: usize) -> Arc<StratumPlans> {
        if let Some(p) = &self.plans[s] {
            if !p.stale(&|r| self.size(r)) {
                return Arc::clone(p);
            }
        }
        let c = Arc::clone(&self.c);
        let plans = Arc::new(c.plan(s, &|r| self.size(r)));
        self.plans[s] = Some(Arc::clone(&plans));
        plans
    }

    pub(super) fn ctx(&mut self, class: Class) -> Ctx<'_> {
        let budget = if class == Class::Static {
            self.static_budget
        } else {
            self.state_budget
        };
        Ctx {
            store: &mut self.store,
            dbs: &mut self.dbs,
            c: &self.c,
            demand: &mut self.demand,
            limits: &self.limits,
            steps: 0,
            budget,
            low: u32::MAX,
            testing: 0,
            nesting: 0,
            stop: false,
            error: None,
        }
    }

    /// Accounts for a finished context and turns its error into a reset.
    pub(super) fn finish_ctx(
        &mut self,
        class: Class,
        error: Option<EvalError>,
    ) -> Result<(), EvalError> {
        if let Some(e) = error {
            self.reset_after_error();
            return Err(e);
        }
        if self.store.len() > self.limits.max_terms {
            self.reset_after_error();
            return Err(EvalError::Limit {
                what: "terms",
                limit: self.limits.max_terms as u64,
            });
        }
        let _ = class;
        Ok(())
    }

    /// Runs one plan and inserts what it derives into its head relation.
    fn run(&mut self, plan: &Plan, class: Class, delta: (Row, Row)) -> Result<(), EvalError> {
        let k = ci(class);
        let mut out = Vec::new();
        let mut env: Vec<TermId> = vec![TermId::NONE; plan.num_vars];
        let mut trail = Vec::new();
        let mut ctx = self.ctx(class);
        ctx.join(plan, 0, &mut env, &mut trail, &mut out, delta);
        plan.cost.add(ctx.steps);
        let (error, budget) = (ctx.error.take(), ctx.budget);
        self.set_budget(class, budget);
        self.finish_ctx(class, error)?;
        let arity = plan.head.len();
        let rel = &mut self.dbs[k].rels[plan.head_rel];
        let mut added = 0;
        if arity == 0 {
            added += usize::from(!out.is_empty() && rel.insert(&[]));
        } else {
            for row in out.chunks_exact(arity) {
                added += usize::from(rel.insert(row));
            }
        }
        let budget = if class == Class::Static {
            &mut self.static_budget
        } else {
            &mut self.state_budget
        };
        if added > *budget {
            let limit = if class == Class::Static {
                self.limits.max_static_rows
            } else {
                self.limits.max_rows_per_state
            };
            self.reset_after_error();
            return Err(EvalError::Limit {
                what: "derived facts",
                limit: limit as u64,
            });
        }
        *budget -= added;
        Ok(())
    }

    fn set_budget(&mut self, class: Class, budget: usize) {
        if class == Class::Static {
            self.static_budget = budget;
        } else {
            self.state_budget = budget;
        }
    }

    /// All rows of a materialised relation, or the answers found so far of a
    /// demand relation.
    pub(super) fn rows_of(&self, rel: Option<RelId>) -> Vec<&[TermId]> {
        let Some(rel) = rel else { return Vec::new() };
        let k = ci(self.c.class[rel]);
        let r = if self.c.demand[rel] {
            &self.demand.dbs[k].rels[rel]
        } else {
            &self.dbs[k].rels[rel]
        };
        (0..r.len() as Row).map(|i| r.row(i)).collect()
    }

    /// Evaluates the strata a query on `state` needs.
    pub(super) fn prepare(
        &mut self,
        state: &FluentState,
        strata: Arc<[usize]>,
    ) -> Result<(), EvalError> {
        self.load_state(state);
        self.ensure(&strata, None)
    }
}
