//! The reference interpreter.
//!
//! Materialised relations are computed bottom-up, stratum by stratum,
//! semi-naive in recursive strata; the static part once per game, the state
//! part once per state (kept until another state is asked about), the move
//! part per joint move — and only the strata a query needs.
//!
//! Demand relations (see `Compiled::demand`) are computed top-down with
//! tabling: each call pattern is a subgoal whose answers go into the
//! relation's table. Mutually recursive subgoals are iterated to a fixpoint
//! and completed together (Tarjan-style leaders), which is sound for
//! stratified programs because negated subgoals never depend on subgoals in
//! progress.

use super::compile::{compile_with, Class, Compiled, StratumPlans};
use super::content_keys::ContentKeys;
use super::db::Db;
use super::{EvalError, Limits};
use crate::deps::RelId;
use crate::diagnostic::Diagnostic;
use crate::program::Program;
use crate::terms::{kw, TermId, TermStore};
use rustc_hash::{FxHashMap, FxHasher};
use smallvec::SmallVec;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

mod eval;
mod join;
mod machine;
mod tabling;
#[cfg(test)]
mod tests;

/// A state: the sorted set of true fluents, with its hash precomputed.
#[derive(Clone, Debug)]
pub struct FluentState {
    fluents: Arc<[TermId]>,
    hash: u64,
}

impl FluentState {
    pub fn new(mut fluents: Vec<TermId>) -> FluentState {
        fluents.sort_unstable();
        fluents.dedup();
        let mut h = FxHasher::default();
        fluents.hash(&mut h);
        FluentState {
            hash: h.finish(),
            fluents: fluents.into(),
        }
    }
    pub fn fluents(&self) -> &[TermId] {
        &self.fluents
    }
    pub fn hash64(&self) -> u64 {
        self.hash
    }
}

impl PartialEq for FluentState {
    fn eq(&self, other: &Self) -> bool {
        self.hash == other.hash
            && (Arc::ptr_eq(&self.fluents, &other.fluents) || self.fluents == other.fluents)
    }
}
impl Eq for FluentState {}
impl Hash for FluentState {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

fn ci(c: Class) -> usize {
    match c {
        Class::Static => 0,
        Class::State => 1,
        Class::Move => 2,
    }
}

type Args = SmallVec<[TermId; 8]>;
/// A relation's demand plans, one per call mask.
type MaskPlans = SmallVec<[(u32, Arc<StratumPlans>); 2]>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    /// Never evaluated.
    New,
    Complete,
    /// On the evaluation stack at this depth.
    Evaluating(u32),
    /// Evaluated in `epoch` as part of the component led by depth `low`,
    /// which is still in progress.
    Done {
        epoch: u64,
        low: u32,
    },
}

/// Body literals that count as one level of [`Limits::max_nesting`]: the
/// join recurses once per literal, so a rule with thousands of literals is
/// as deep as that many nested subgoals. In wasm (a fixed stack) a level is
/// a few literals; natively the stack grows on the heap.
#[cfg(not(target_arch = "wasm32"))]
const LITERALS_PER_LEVEL: usize = 16;
#[cfg(target_arch = "wasm32")]
const LITERALS_PER_LEVEL: usize = 4;

/// Subgoals of one class: call patterns and their status.
#[derive(Clone, Default)]
struct Subgoals {
    map: FxHashMap<(RelId, u32, Args), u32>,
    status: Vec<Status>,
}

/// State of the top-down evaluation of demand relations.
#[derive(Clone, Default)]
struct Demand {
    /// Answer tables per class.
    dbs: [Db; 3],
    subgoals: [Subgoals; 3],
    /// Plans per relation and call mask.
    plans: Vec<MaskPlans>,
    /// Results of existence tests (fully bound calls of non-recursive
    /// demand relations), per class.
    exists: [FxHashMap<(RelId, Args), bool>; 3],
    /// Reusable join buffers (environment, trail, output).
    buffers: Vec<(Vec<TermId>, Vec<u16>, Vec<TermId>)>,
    /// Set when an existence test found its first derivation.
    found: bool,
    depth: u32,
    /// Subgoals evaluated but not yet complete, in order of evaluation.
    completion: Vec<(usize, u32)>,
    epoch: u64,
    /// Answers added so far (a leader iterates until this stops growing).
    answers: u64,
}

impl Demand {
    fn clear_class(&mut self, k: usize, rels: &[RelId]) {
        for &r in rels {
            self.dbs[k].rels[r].clear();
        }
        self.subgoals[k].map.clear();
        self.subgoals[k].status.clear();
        self.exists[k].clear();
    }
}

#[derive(Clone)]
pub struct Interpreter {
    store: TermStore,
    c: Arc<Compiled>,
    limits: Limits,
    roles: Vec<TermId>,
    /// Materialised relations per class (static, state, move).
    dbs: [Db; 3],
    static_done: Vec<bool>,
    state_done: Vec<bool>,
    cached: Option<FluentState>,
    /// Rows still allowed in the current state's (or the static) evaluation.
    static_budget: usize,
    state_budget: usize,
    demand: Demand,
    /// Plans per stratum, ordered at its first evaluation.
    plans: Vec<Option<Arc<StratumPlans>>>,
    rels_of_class: [Vec<RelId>; 3],
    rel_legal: Option<RelId>,
    rel_next: Option<RelId>,
    rel_goal: Option<RelId>,
    rel_terminal: Option<RelId>,
    rel_does: Option<RelId>,
    /// GDL-II's `(sees role percept)`, materialised like `next`.
    rel_sees: Option<RelId>,
    strata_sees: Arc<[usize]>,
    strata_legal: Arc<[usize]>,
    strata_next: Arc<[usize]>,
    strata_goal: Arc<[usize]>,
    strata_terminal: Arc<[usize]>,
    /// Content keys of this copy's terms (its ids are its own).
    keys: ContentKeys,
}

impl Interpreter {
    /// Builds an interpreter for a program without errors.
    pub fn new(program: &Program) -> Result<Interpreter, Vec<Diagnostic>> {
        Interpreter::with_limits(program, Limits::default())
    }

    pub fn with_limits(program: &Program, limits: Limits) -> Result<Interpreter, Vec<Diagnostic>> {
        Interpreter::build(program, limits, true)
    }

    /// An interpreter that materialises every relation bottom-up (no
    /// top-down demand evaluation). Simpler and often much slower; tests
    /// compare it with the hybrid one.
    pub fn materialising(
        program: &Program,
        limits: Limits,
    ) -> Result<Interpreter, Vec<Diagnostic>> {
        Interpreter::build(program, limits, false)
    }

    fn build(
        program: &Program,
        limits: Limits,
        use_demand: bool,
    ) -> Result<Interpreter, Vec<Diagnostic>> {
        let mut store = TermStore::new(program.symbols.clone());
        let c = compile_with(program, &mut store, use_demand)?;
        let g = &c.graph;
        let (rel_legal, rel_next, rel_goal, rel_terminal, rel_role, rel_does) = (
            g.id_of(kw::LEGAL, 2),
            g.id_of(kw::NEXT, 1),
            g.id_of(kw::GOAL, 2),
            g.id_of(kw::TERMINAL, 0),
            g.id_of(kw::ROLE, 1),
            g.id_of(kw::DOES, 2),
        );
        let rel_sees = program.sees_sym().and_then(|s| g.id_of(s, 2));
        let strata = |r: Option<RelId>| -> Arc<[usize]> {
            r.map(|r| c.strata_for(&[r])).unwrap_or_default().into()
        };
        let of_class =
            |k: Class| -> Vec<RelId> { (0..c.num_rels()).filter(|&r| c.class[r] == k).collect() };
        let ns = c.strata.len();
        let db = || Db::new(&c.arity);
        let mut it = Interpreter {
            store,
            limits,
            roles: Vec::new(),
            dbs: [db(), db(), db()],
            static_done: vec![false; ns],
            state_done: vec![false; ns],
            cached: None,
            static_budget: limits.max_static_rows,
            state_budget: limits.max_rows_per_state,
            demand: Demand {
                dbs: [db(), db(), db()],
                plans: vec![SmallVec::new(); c.num_rels()],
                ..Demand::default()
            },
            plans: vec![None; ns],
            rels_of_class: [
                of_class(Class::Static),
                of_class(Class::State),
                of_class(Class::Move),
            ],
            rel_legal,
            rel_next,
            rel_goal,
            rel_terminal,
            rel_does,
            rel_sees,
            strata_sees: strata(rel_sees),
            strata_legal: strata(rel_legal),
            strata_next: strata(rel_next),
            strata_goal: strata(rel_goal),
            strata_terminal: strata(rel_terminal),
            keys: ContentKeys::default(),
            c: Arc::new(c),
        };
        it.insert_facts(Class::Static);
        it.materialise_static();
        if let Some(role) = rel_role {
            let need = it.c.strata_for(&[role]);
            it.ensure(&need, None).map_err(|e| vec![eval_diag(&e)])?;
            it.roles = it.rows_of(Some(role)).into_iter().map(|r| r[0]).collect();
        }
        Ok(it)
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Static relations are computed once per game, so materialising them is
    /// usually cheaper than answering each call top-down. Tries each static
    /// demand component (dependencies first, only if everything it uses is
    /// materialised) under a small budget; components that are too large
    /// (e.g. all lists over 25 elements) stay on demand.
    fn materialise_static(&mut self) {
        const TRIAL_ROWS: usize = 200_000;
        const TRIAL_STEPS: u64 = 5_000_000;
        let sccs = self.c.graph.sccs.clone();
        for comp in sccs {
            let c = &self.c;
            if !comp
                .iter()
                .all(|&r| c.demand[r] && c.class[r] == Class::Static)
            {
                continue;
            }
            let uses_demand = comp.iter().any(|&r| {
                c.graph.edges[r]
                    .iter()
                    .any(|e| !comp.contains(&e.body) && c.demand[e.body])
            });
            if uses_demand {
                continue;
            }
            Arc::get_mut(&mut self.c)
                .expect("no plans share the program yet")
                .materialise(&comp);
            let facts: Vec<_> = self
                .c
                .facts
                .iter()
                .filter(|(r, _)| comp.contains(r))
                .cloned()
                .collect();
            for (r, row) in &facts {
                self.dbs[0].rels[*r].insert(row);
            }
            let (budget, limits) = (self.static_budget, self.limits);
            self.static_budget = budget.min(TRIAL_ROWS);
            self.limits.max_steps = limits.max_steps.min(TRIAL_STEPS);
            let need = self.c.strata_for(&comp);
            let ok = self.ensure(&need, None).is_ok();
            let used = budget.min(TRIAL_ROWS) - self.static_budget;
            self.limits = limits;
            if ok {
                self.static_budget = budget - used;
                continue;
            }
            // Too large: back to demand evaluation.
            self.static_budget = budget;
            for &r in &comp {
                self.dbs[0].rels[r].clear();
            }
            for &s in &need {
                if self.c.strata[s].heads.iter().any(|h| comp.contains(h)) {
                    self.static_done[s] = false;
                    self.plans[s] = None;
                }
            }
            Arc::get_mut(&mut self.c)
                .expect("no plans share the program yet")
                .dematerialise(&comp);
        }
    }

    pub fn compiled(&self) -> &Compiled {
        &self.c
    }

    /// All rows of a static relation (computing it if needed), e.g. for the
    /// validator or the grounder.
    pub fn static_rows(&mut self, rel: RelId) -> Result<Vec<Vec<TermId>>, EvalError> {
        if self.c.demand[rel] {
            let mut ctx = self.ctx(Class::Static);
            ctx.call(rel, Class::Static, 0, &[]);
            let e = ctx.error.take();
            self.finish_ctx(Class::Static, e)?;
        } else {
            let need = self.c.strata_for(&[rel]);
            self.ensure(&need, None)?;
        }
        Ok(self
            .rows_of(Some(rel))
            .into_iter()
            .map(<[TermId]>::to_vec)
            .collect())
    }

    /// Inserts the facts of relations of one class (materialised or demand).
    fn insert_facts(&mut self, class: Class) {
        let k = ci(class);
        for (rel, row) in self
            .c
            .facts
            .iter()
            .filter(|(r, _)| self.c.class[*r] == class)
        {
            if self.c.demand[*rel] {
                self.demand.dbs[k].rels[*rel].insert(row);
            } else {
                self.dbs[k].rels[*rel].insert(row);
            }
        }
    }

    /// Makes `state` the cached state, filling the `true` tables.
    fn load_state(&mut self, state: &FluentState) {
        if self.cached.as_ref() == Some(state) {
            return;
        }
        for &r in &self.rels_of_class[1] {
            self.dbs[1].rels[r].clear();
        }
        self.demand.clear_class(1, &self.rels_of_class[1]);
        self.state_done.iter_mut().for_each(|d| *d = false);
        for &f in state.fluents() {
            let key = (self.store.functor(f), self.store.arity(f) as u32);
            if let Some(&t) = self.c.true_tables.get(&key) {
                self.dbs[1].rels[t].insert(self.store.args_of(f));
            }
            if let Some(t) = self.c.true_all {
                self.dbs[1].rels[t].insert(&[f]);
            }
        }
        self.state_budget = self.limits.max_rows_per_state;
        self.insert_facts(Class::State);
        self.cached = Some(state.clone());
    }

    /// Clears the move part and records a joint move as `does` rows.
    fn load_moves(&mut self, joint: Option<&[TermId]>) {
        for &r in &self.rels_of_class[2] {
            self.dbs[2].rels[r].clear();
        }
        self.demand.clear_class(2, &self.rels_of_class[2]);
        self.insert_facts(Class::Move);
        if let (Some(does), Some(joint)) = (self.rel_does, joint) {
            for (role, &m) in self.roles.iter().zip(joint) {
                self.dbs[2].rels[does].insert(&[*role, m]);
            }
        }
    }

    /// Forgets everything derived for states and moves, and any subgoal left
    /// incomplete (after an error).
    fn reset_after_error(&mut self) {
        self.cached = None;
        for k in 0..3 {
            let rels = self.rels_of_class[k].clone();
            if k > 0 {
                for &r in &rels {
                    self.dbs[k].rels[r].clear();
                }
            }
            let incomplete = self.demand.subgoals[k]
                .status
                .iter()
                .any(|s| *s != Status::Complete);
            if k > 0 || incomplete {
                self.demand.clear_class(k, &rels);
                if k == 0 {
                    self.insert_facts(Class::Static);
                }
            }
        }
        self.state_done.iter_mut().for_each(|d| *d = false);
        self.demand.completion.clear();
        self.demand.depth = 0;
    }
}

fn eval_diag(e: &EvalError) -> Diagnostic {
    Diagnostic::error("GDL090", Default::default(), e.to_string()).with_hint(
        "check recursive rules over function terms: each recursion must shrink or be bounded",
    )
}

/// The state of one evaluation: a plan run and the subgoals it calls.
struct Ctx<'a> {
    store: &'a mut TermStore,
    /// Materialised relations: only read during a join, but indexes are
    /// built on first lookup.
    dbs: &'a mut [Db; 3],
    c: &'a Compiled,
    demand: &'a mut Demand,
    limits: &'a Limits,
    steps: u64,
    /// Rows that may still be derived.
    budget: usize,
    /// Lowest stack depth of an in-progress subgoal touched by the current
    /// subgoal evaluation (Tarjan's low-link).
    low: u32,
    /// Inside an existence test's own join (reset while a nested subgoal is
    /// solved): the first derived row stops the join.
    testing: u32,
    /// Subgoals (demand calls and existence tests) nested on the stack.
    nesting: usize,
    stop: bool,
    error: Option<EvalError>,
}
