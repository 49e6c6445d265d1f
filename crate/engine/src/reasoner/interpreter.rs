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

use super::compile::{compile_with, unify, value, Class, Compiled, Op, Pat, Plan, StratumPlans};
use super::content_keys::{ContentKeys, Key};
use super::db::{Db, KeyHasher, Row};
use super::{EvalError, Limits, StateMachine};
use crate::deps::RelId;
use crate::diagnostic::Diagnostic;
use crate::program::Program;
use crate::terms::{kw, TermId, TermStore};
use rustc_hash::{FxHashMap, FxHasher};
use smallvec::SmallVec;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

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

    /// Evaluates the given strata (in order) that are not yet computed.
    /// Move strata are evaluated (afresh) only when `moves` is given or a
    /// stratum needs them.
    fn ensure(&mut self, strata: &[usize], moves: Option<&[TermId]>) -> Result<(), EvalError> {
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
    fn size(&self, r: RelId) -> usize {
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

    fn ctx(&mut self, class: Class) -> Ctx<'_> {
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
    fn finish_ctx(&mut self, class: Class, error: Option<EvalError>) -> Result<(), EvalError> {
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
    fn rows_of(&self, rel: Option<RelId>) -> Vec<&[TermId]> {
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
    fn prepare(&mut self, state: &FluentState, strata: Arc<[usize]>) -> Result<(), EvalError> {
        self.load_state(state);
        self.ensure(&strata, None)
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
    fn join(
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
                mask,
                delta: is_delta,
                demand,
            } => {
                let (k, rel, mask) = (ci(*class), *rel, *mask);
                let vals = if *demand {
                    let Some(vals) = self.call_values(pats, mask, env) else {
                        return;
                    };
                    self.call(rel, *class, mask, &vals);
                    if self.halted() {
                        return;
                    }
                    vals
                } else {
                    let Some(vals) = self.key_values(pats, mask, env) else {
                        return;
                    };
                    vals
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
                // Demand relations have at most MAX_DEMAND_ARITY (< 32)
                // arguments, so the full mask covers them all.
                let full = full_mask(pats.len());
                let present = if *demand && !self.c.graph.is_recursive(*rel) {
                    let Some(row) = self.call_values(pats, full, env) else {
                        return;
                    };
                    self.exists(*rel, *class, row)
                } else if *demand {
                    let Some(row) = self.call_values(pats, full, env) else {
                        return;
                    };
                    self.call(*rel, *class, full, &row);
                    if self.halted() {
                        return;
                    }
                    self.demand.dbs[ci(*class)].rels[*rel].contains(&row)
                } else {
                    match self.all_values(pats, env) {
                        None => false,
                        Some(row) => self.dbs[ci(*class)].rels[*rel].contains(&row),
                    }
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

    /// Makes sure the subgoal `rel(vals at mask)` has been evaluated (it may
    /// still be in progress if it is part of a recursion being solved).
    fn call(&mut self, rel: RelId, class: Class, mask: u32, vals: &[TermId]) {
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
    fn enter(&mut self) -> bool {
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

    fn demand_plans(&mut self, rel: RelId, mask: u32) -> Arc<StratumPlans> {
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
    fn run_demand_plan(
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
    fn build(&mut self, p: &Pat, env: &[TermId]) -> Option<TermId> {
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

    fn emit(&mut self, plan: &Plan, env: &[TermId], out: &mut Vec<TermId>) {
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

/// The mask with the first `n` positions set (all 32 when `n >= 32`).
fn full_mask(n: usize) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}

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
        if joint.len() != self.roles.len() {
            return Err(EvalError::BadMove(format!(
                "a joint move needs one move per role ({}), got {}",
                self.roles.len(),
                joint.len()
            )));
        }
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

#[cfg(test)]
mod tests {
    use crate::StateMachine;

    #[test]
    fn relations_with_more_than_32_arguments() {
        // 34 arguments: masks only track the first 32, checks must still
        // compare every argument.
        let args: Vec<String> = (0..34).map(|i| format!("a{i}")).collect();
        let vars: Vec<String> = (0..34).map(|i| format!("?v{i}")).collect();
        let mut other = args.clone();
        other[33] = "zz".into();
        let src = format!(
            "(role r) (init s) (big {a}) (<= (legal r go) (big {v}) (not (big {o}))) (<= (next s) (true s)) (<= terminal (not (true s))) (goal r 100)",
            a = args.join(" "),
            v = vars.join(" "),
            o = other.join(" "),
        );
        let mut m = crate::load_game(&src).unwrap();
        let s = m.initial_state().unwrap();
        assert_eq!(m.legal_moves(&s, 0).unwrap().len(), 1);
    }
}
