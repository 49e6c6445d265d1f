//! The interpreter as a [`StateMachine`], and its profiling reports (relation
//! sizes, plans). Queries only pick the strata they need and read the
//! relations; evaluation lives in `eval`.

use super::{FluentState, Interpreter};
use crate::deps::RelId;
use crate::reasoner::compile::{Class, Op, Plan};
use crate::reasoner::content_keys::Key;
use crate::reasoner::{EvalError, StateMachine};
use crate::terms::{kw, TermId, TermStore};
use std::sync::Arc;

impl StateMachine for Interpreter {
    type State = FluentState;

    fn roles(&self) -> &[TermId] {
        &self.roles
    }

    fn terms(&self) -> &TermStore {
        &self.store
    }

    fn terms_mut(&mut self) -> &mut TermStore {
        &mut self.store
    }

    fn initial_state(&mut self) -> Result<FluentState, EvalError> {
        let Some(init) = self.c.graph.id_of(kw::INIT, 1) else {
            return Ok(FluentState::new(Vec::new()));
        };
        let need = self.c.strata_for(&[init]);
        self.ensure(&need, None)?;
        let fluents = self.rows_of(Some(init)).into_iter().map(|r| r[0]).collect();
        Ok(FluentState::new(fluents))
    }

    fn legal_moves(&mut self, state: &FluentState, role: usize) -> Result<Vec<TermId>, EvalError> {
        self.prepare(state, Arc::clone(&self.strata_legal))?;
        let Some(&r) = self.roles.get(role) else {
            return Ok(Vec::new());
        };
        Ok(self
            .rows_of(self.rel_legal)
            .into_iter()
            .filter(|row| row[0] == r)
            .map(|row| row[1])
            .collect())
    }

    fn all_legal_moves(&mut self, state: &FluentState) -> Result<Vec<Vec<TermId>>, EvalError> {
        self.prepare(state, Arc::clone(&self.strata_legal))?;
        let mut out = vec![Vec::new(); self.roles.len()];
        for row in self.rows_of(self.rel_legal) {
            if let Some(i) = self.roles.iter().position(|&r| r == row[0]) {
                out[i].push(row[1]);
            }
        }
        Ok(out)
    }

    fn next_state(
        &mut self,
        state: &FluentState,
        joint: &[TermId],
    ) -> Result<FluentState, EvalError> {
        self.check_joint(joint)?;
        self.load_state(state);
        let budget = self.state_budget;
        self.ensure(&Arc::clone(&self.strata_next), Some(joint))?;
        let fluents = self
            .rows_of(self.rel_next)
            .into_iter()
            .map(|r| r[0])
            .collect();
        // Move rows do not count against the state's budget for later queries.
        self.state_budget = budget;
        Ok(FluentState::new(fluents))
    }

    fn is_terminal(&mut self, state: &FluentState) -> Result<bool, EvalError> {
        self.prepare(state, Arc::clone(&self.strata_terminal))?;
        Ok(!self.rows_of(self.rel_terminal).is_empty())
    }

    fn goal_values(&mut self, state: &FluentState) -> Result<Vec<Vec<i64>>, EvalError> {
        self.prepare(state, Arc::clone(&self.strata_goal))?;
        let mut out = vec![Vec::new(); self.roles.len()];
        for row in self.rows_of(self.rel_goal) {
            if let (Some(i), Some(v)) = (
                self.roles.iter().position(|&r| r == row[0]),
                self.store.as_int(row[1]),
            ) {
                out[i].push(v);
            }
        }
        for v in &mut out {
            v.sort_unstable();
            v.dedup();
        }
        Ok(out)
    }

    fn percepts(
        &mut self,
        state: &FluentState,
        joint: &[TermId],
    ) -> Result<Vec<Vec<TermId>>, EvalError> {
        let mut out = vec![Vec::new(); self.roles.len()];
        if self.rel_sees.is_none() {
            return Ok(out);
        }
        self.check_joint(joint)?;
        self.load_state(state);
        let budget = self.state_budget;
        self.ensure(&Arc::clone(&self.strata_sees), Some(joint))?;
        for row in self.rows_of(self.rel_sees) {
            if let Some(i) = self.roles.iter().position(|&r| r == row[0]) {
                out[i].push(row[1]);
            }
        }
        self.state_budget = budget;
        for p in &mut out {
            crate::reasoner::sort_by_text(&self.store, p);
            p.dedup();
        }
        Ok(out)
    }

    fn has_percepts(&self) -> bool {
        self.rel_sees.is_some()
    }

    fn fluents(&self, state: &FluentState) -> Vec<TermId> {
        state.fluents().to_vec()
    }

    fn state_from_fluents(&mut self, fluents: &[TermId]) -> FluentState {
        FluentState::new(fluents.to_vec())
    }

    fn state_key(&mut self, state: &FluentState) -> Key {
        self.keys.state(&self.store, state.fluents())
    }

    fn term_key(&mut self, t: TermId) -> Key {
        self.keys.term(&self.store, t)
    }
}

impl Interpreter {
    /// A joint move has one move per role.
    fn check_joint(&self, joint: &[TermId]) -> Result<(), EvalError> {
        if joint.len() != self.roles.len() {
            return Err(EvalError::BadMove(format!(
                "a joint move needs one move per role ({}), got {}",
                self.roles.len(),
                joint.len()
            )));
        }
        Ok(())
    }

    /// Row counts of every non-empty relation (`name/arity`, class, rows,
    /// demand), for profiling.
    pub fn relation_sizes(&self) -> Vec<(String, Class, usize, bool)> {
        let mut out = Vec::new();
        for r in 0..self.c.num_rels() {
            let n = self.size(r);
            if n == 0 {
                continue;
            }
            out.push((self.rel_name(r), self.c.class[r], n, self.c.demand[r]));
        }
        out.sort_by_key(|x| std::cmp::Reverse(x.2));
        out
    }

    fn rel_name(&self, r: RelId) -> String {
        match self.c.graph.rels.get(r) {
            Some(k) => format!("{}/{}", self.store.symbols.name(k.sym), k.arity),
            None => match self.c.true_tables.iter().find(|(_, &v)| v == r) {
                Some(((f, a), _)) => format!("true:{}/{}", self.store.symbols.name(*f), a),
                None => "true:*".to_string(),
            },
        }
    }

    /// The evaluation plans built so far with their costs, most expensive
    /// first (join steps include the subgoals a plan calls): a profile of
    /// the rules for game authors.
    pub fn describe_plans(&self) -> String {
        let mut lines: Vec<(u64, String)> = Vec::new();
        let mut describe = |label: String, plan: &Plan| {
            let ops: Vec<String> = plan
                .ops
                .iter()
                .map(|op| match op {
                    Op::Scan {
                        rel,
                        mask,
                        delta,
                        demand,
                        ..
                    } => format!(
                        "{}{}{} m{mask:b}",
                        if *demand { "call " } else { "scan " },
                        if *delta { "Δ" } else { "" },
                        self.rel_name(*rel)
                    ),
                    Op::Check { rel, negated, .. } => format!(
                        "{}check {}",
                        if *negated { "!" } else { "" },
                        self.rel_name(*rel)
                    ),
                    Op::Distinct(..) => "distinct".to_string(),
                })
                .collect();
            let (runs, steps) = plan.cost.get();
            lines.push((
                steps,
                format!(
                    "{steps:>12} steps {runs:>9} runs  {label} {} <- {}",
                    self.rel_name(plan.head_rel),
                    ops.join(", ")
                ),
            ));
        };
        for (i, p) in self.plans.iter().enumerate() {
            if let Some(p) = p {
                for plan in p.plans.iter().chain(&p.delta_plans) {
                    describe(format!("s{i}"), plan);
                }
            }
        }
        for (rel, per_mask) in self.demand.plans.iter().enumerate() {
            for (mask, p) in per_mask {
                for plan in &p.plans {
                    describe(format!("demand {}@{mask:b}", self.rel_name(rel)), plan);
                }
            }
        }
        lines.sort_by_key(|l| std::cmp::Reverse(l.0));
        lines.into_iter().map(|(_, l)| l + "\n").collect()
    }
}
