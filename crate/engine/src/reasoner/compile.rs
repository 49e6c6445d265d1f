//! Compiles rules into join plans for the bottom-up interpreter.
//!
//! Each rule body (after expanding `or` into separate bodies) becomes a
//! sequence of operations in an order where every join has as many bound
//! arguments as possible and every `not` / `distinct` runs as soon as its
//! variables are bound. `(true (f ...))` reads a per-functor table of the
//! state, so the state is indexed like any other relation.

use crate::deps::{DepGraph, RelId, RuleGraph};
use crate::diagnostic::{Diagnostic, Span};
use crate::program::{Program, VarId};
use crate::terms::{kw, Sym, TermId, TermStore};
use build::Builder;
use demand::choose_demand;
use rustc_hash::FxHashMap;

mod build;
mod demand;
mod plan;
#[cfg(test)]
mod tests;

/// Most bodies one rule may expand into through `or`.
const MAX_EXPANSION: usize = 4096;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pat {
    Var(VarId),
    Const(TermId),
    App(Sym, Box<[Pat]>),
}

/// The value of a bound pattern without interning: `None` if the term does
/// not exist (so it cannot be in any relation, nor in any ground atom).
/// Shared by the interpreter's joins and the grounder's.
#[inline(always)]
pub(crate) fn value(store: &TermStore, p: &Pat, env: &[TermId]) -> Option<TermId> {
    match p {
        Pat::Var(v) => Some(env[*v as usize]),
        Pat::Const(t) => Some(*t),
        Pat::App(f, args) => value_of_app(store, *f, args, env),
    }
}

/// [`value`] of a compound pattern, out of line: the variables and
/// constants that most patterns are then pay no call.
#[inline(never)]
fn value_of_app(store: &TermStore, f: Sym, args: &[Pat], env: &[TermId]) -> Option<TermId> {
    let mut vals = smallvec::SmallVec::<[TermId; 8]>::new();
    for a in args.iter() {
        vals.push(value(store, a, env)?);
    }
    store.find(f, &vals)
}

/// The term of a pattern under `env`, interned; `None` while a variable
/// is unbound (`TermId::NONE`). For callers that build terms outside a
/// join (the fuzzy heuristic's formulas), where a new term is no error.
pub fn instantiate(store: &mut TermStore, p: &Pat, env: &[TermId]) -> Option<TermId> {
    match p {
        Pat::Var(v) => env.get(*v as usize).copied().filter(|&t| t != TermId::NONE),
        Pat::Const(t) => Some(*t),
        Pat::App(f, args) => {
            let mut vals = smallvec::SmallVec::<[TermId; 8]>::new();
            for a in args.iter() {
                vals.push(instantiate(store, a, env)?);
            }
            Some(store.app(*f, &vals))
        }
    }
}

/// Matches a pattern against a ground term, binding variables (recorded on
/// the trail so the caller can undo them).
#[inline(always)]
pub fn unify(
    store: &TermStore,
    p: &Pat,
    t: TermId,
    env: &mut [TermId],
    trail: &mut Vec<VarId>,
) -> bool {
    match p {
        Pat::Var(v) => {
            let slot = &mut env[*v as usize];
            if *slot == TermId::NONE {
                *slot = t;
                trail.push(*v);
                true
            } else {
                *slot == t
            }
        }
        Pat::Const(c) => *c == t,
        Pat::App(f, args) => unify_app(store, *f, args, t, env, trail),
    }
}

/// [`unify`] with a compound pattern, out of line: a call's entry and
/// exit cost more than unifying a variable or a constant (8% of chess's
/// instructions on the interpreter when every unification was a call).
#[inline(never)]
fn unify_app(
    store: &TermStore,
    f: Sym,
    args: &[Pat],
    t: TermId,
    env: &mut [TermId],
    trail: &mut Vec<VarId>,
) -> bool {
    store.functor(t) == f
        && store.arity(t) == args.len()
        && args
            .iter()
            .zip(store.args_of(t))
            .all(|(a, &u)| unify(store, a, u, env, trail))
}

impl Pat {
    fn for_each_var(&self, f: &mut impl FnMut(VarId)) {
        match self {
            Pat::Var(v) => f(*v),
            Pat::Const(_) => {}
            Pat::App(_, args) => args.iter().for_each(|a| a.for_each_var(f)),
        }
    }
    fn is_bound(&self, bound: &[bool]) -> bool {
        let mut b = true;
        self.for_each_var(&mut |v| b &= bound[v as usize]);
        b
    }
    /// Whether every variable is bound in `env` (`TermId::NONE` = unbound).
    pub fn is_bound_in(&self, env: &[TermId]) -> bool {
        let mut b = true;
        self.for_each_var(&mut |v| b &= env.get(v as usize).is_some_and(|&t| t != TermId::NONE));
        b
    }
}

/// The positions (of the first 32) of `pats` that `bound` binds.
fn bound_mask(pats: &[Pat], bound: &[bool]) -> u32 {
    let mut mask = 0u32;
    for (i, p) in pats.iter().enumerate().take(32) {
        if p.is_bound(bound) {
            mask |= 1 << i;
        }
    }
    mask
}

/// Which database a relation lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    /// Independent of state and moves: computed once per game.
    Static,
    /// Depends on `true` only: computed once per state.
    State,
    /// Depends on `does`: computed per joint move.
    Move,
}

#[derive(Clone, Debug)]
pub enum Op {
    /// Iterate the rows of `rel` matching `pats`; `mask` marks the argument
    /// positions already bound (used for an index lookup). With `delta`, only
    /// the rows new in the last semi-naive round.
    /// `demand`: the relation is evaluated top-down for this call pattern.
    Scan {
        rel: RelId,
        class: Class,
        pats: Box<[Pat]>,
        mask: u32,
        delta: bool,
        demand: bool,
    },
    /// All arguments bound: test membership (or absence when `negated`).
    Check {
        rel: RelId,
        class: Class,
        pats: Box<[Pat]>,
        negated: bool,
        demand: bool,
    },
    Distinct(Pat, Pat),
}

#[derive(Clone, Debug)]
pub struct Plan {
    pub head_rel: RelId,
    pub head: Box<[Pat]>,
    pub ops: Vec<Op>,
    pub num_vars: usize,
    /// The relation read through the delta scan, if any.
    pub delta_rel: Option<RelId>,
    /// Runs and join steps (including nested subgoals), for profiling.
    pub cost: Cost,
}

/// Counters of a plan's evaluations (relaxed atomics: plans are shared
/// through `Arc`, and this is statistics, not synchronisation).
#[derive(Debug, Default)]
pub struct Cost {
    pub runs: std::sync::atomic::AtomicU64,
    pub steps: std::sync::atomic::AtomicU64,
}

impl Clone for Cost {
    fn clone(&self) -> Cost {
        Cost::default()
    }
}

impl Cost {
    pub fn add(&self, steps: u64) {
        use std::sync::atomic::Ordering::Relaxed;
        self.runs.fetch_add(1, Relaxed);
        self.steps.fetch_add(steps, Relaxed);
    }
    pub fn get(&self) -> (u64, u64) {
        use std::sync::atomic::Ordering::Relaxed;
        (self.runs.load(Relaxed), self.steps.load(Relaxed))
    }
}

/// One rule after `or` expansion: a head and alternative bodies.
#[derive(Clone, Debug)]
pub struct RuleBodies {
    pub head_rel: RelId,
    pub head: Box<[Pat]>,
    pub bodies: Vec<Vec<Lit>>,
    pub num_vars: usize,
}

/// A group of mutually recursive rules, evaluated together.
#[derive(Clone, Debug)]
pub struct Stratum {
    pub rules: Vec<RuleBodies>,
    /// Relations these rules define (their deltas drive recursion).
    pub heads: Vec<RelId>,
    pub class: Class,
    pub recursive: bool,
    /// Its relations are demand relations: skipped bottom-up.
    pub demand: bool,
}

/// A stratum's plans, built at its first evaluation when relation sizes are
/// known (static relations exactly, state relations from the first state).
#[derive(Clone, Debug, Default)]
pub struct StratumPlans {
    /// Plans reading full relations (first round, or the only round).
    pub plans: Vec<Plan>,
    /// Semi-naive plans: one per body literal on a relation of this stratum.
    pub delta_plans: Vec<Plan>,
    /// Index lookups the plans make: (relation, bound-position mask).
    pub indexes: Vec<(RelId, u32)>,
    /// The relation sizes the plans were ordered with.
    pub sizes: Vec<(RelId, usize)>,
}

impl StratumPlans {
    /// Whether a relation has grown so much since planning that the order
    /// may be wrong (plans are first made on the initial state, where e.g.
    /// the board is empty).
    pub fn stale(&self, size: &dyn Fn(RelId) -> usize) -> bool {
        self.sizes
            .iter()
            .any(|&(r, planned)| size(r) > 4 * planned.max(8))
    }
}

/// The compiled program.
#[derive(Clone, Debug)]
pub struct Compiled {
    pub graph: DepGraph,
    pub rule_graph: RuleGraph,
    /// Per relation id (program relations first, then state tables).
    pub class: Vec<Class>,
    pub arity: Vec<usize>,
    /// Strata in evaluation order (dependencies first).
    pub strata: Vec<Stratum>,
    /// Ground facts: inserted when the database of their class is filled.
    pub facts: Vec<(RelId, Box<[TermId]>)>,
    /// `(true (f a b))` reads the table `true_tables[(f, 2)]` of args rows.
    pub true_tables: FxHashMap<(Sym, u32), RelId>,
    /// `(true ?x)` reads this table of whole fluents.
    pub true_all: Option<RelId>,
    /// The stratum of each rule-graph node.
    stratum_of_node: Vec<usize>,
    /// Relations evaluated top-down on demand (per call pattern) instead of
    /// being materialised: those only ever called with a bound argument.
    pub demand: Vec<bool>,
    /// The rules of each demand relation.
    pub demand_rules: Vec<Vec<RuleBodies>>,
    /// `safe[rel][mask]`: a demand relation may be called with the argument
    /// positions in `mask` bound (see `choose_demand`).
    pub safe: Vec<Vec<bool>>,
    /// GDL-II's `(sees role percept)`, where the program defines it.
    pub sees: Option<RelId>,
}

/// A rule of the program in compiled form (see [`Compiled::rules_in_order`]).
pub enum ProgramRule<'a> {
    Fact(RelId, &'a [TermId]),
    Rule(&'a RuleBodies),
}

impl Compiled {
    /// Every fact and rule of `program` (the one compiled) in the order of
    /// the program, for readers that unroll rules top-down in the order they
    /// are written (the fuzzy heuristic). Only for a program compiled
    /// without demand relations (their strata are added after the rules').
    pub fn rules_in_order(&self, program: &Program) -> Vec<ProgramRule<'_>> {
        let (mut facts, mut node) = (self.facts.iter(), 0);
        let mut out = Vec::new();
        for rule in &program.rules {
            if rule.body.is_empty() {
                if let Some((rel, row)) = facts.next() {
                    out.push(ProgramRule::Fact(*rel, row));
                }
                continue;
            }
            let s = self.stratum_of_node[node];
            let comp = &self.rule_graph.sccs[s];
            if let Some(i) = comp.iter().position(|&n| n == node) {
                out.push(ProgramRule::Rule(&self.strata[s].rules[i]));
            }
            node += 1;
        }
        out
    }
}

/// Compiles a program, optionally without demand relations (everything
/// materialised bottom-up: the simpler reference the tests compare with).
/// Errors are the restrictions the interpreter relies on (safety, stratified
/// negation, `not` only around sentences); the validator reports the same
/// problems with more context.
pub fn compile_with(
    program: &Program,
    store: &mut TermStore,
    use_demand: bool,
) -> Result<Compiled, Vec<Diagnostic>> {
    let graph = DepGraph::build(program);
    let rule_graph = RuleGraph::build(program, &graph);
    let mut errors = Vec::new();
    for e in rule_graph.negative_cycle_edges() {
        let head = store
            .symbols
            .name(program.rules[rule_graph.rules[e.from]].head.rel)
            .to_string();
        let neg = store
            .symbols
            .name(program.rules[rule_graph.rules[e.to]].head.rel)
            .to_string();
        errors.push(
            Diagnostic::error(
                "GDL030",
                e.span,
                format!("`{head}` depends on the negation of `{neg}`, which depends on `{head}` again"),
            )
            .with_hint("GDL requires stratified negation: a relation must not depend on its own negation (`gdlkit check` names the whole cycle)"),
        );
    }
    let n = graph.rels.len();
    let class: Vec<Class> = (0..n)
        .map(|r| {
            if graph.uses_does[r] || graph.rels[r].sym == kw::DOES {
                Class::Move
            } else if graph.uses_true[r] {
                Class::State
            } else {
                Class::Static
            }
        })
        .collect();
    let arity = graph.rels.iter().map(|k| k.arity as usize).collect();
    let mut c = Compiled {
        stratum_of_node: vec![usize::MAX; rule_graph.rules.len()],
        strata: Vec::new(),
        facts: Vec::new(),
        true_tables: FxHashMap::default(),
        true_all: None,
        demand: vec![false; n],
        demand_rules: Vec::new(),
        safe: Vec::new(),
        sees: program.sees_sym().and_then(|s| graph.id_of(s, 2)),
        class,
        arity,
        graph,
        rule_graph,
    };
    Builder {
        store,
        c: &mut c,
        errors: &mut errors,
    }
    .build(program);
    if errors.is_empty() {
        if use_demand {
            choose_demand(&mut c, program);
        } else {
            c.demand_rules = vec![Vec::new(); c.class.len()];
            c.demand = vec![false; c.class.len()];
        }
    }
    if errors.is_empty() {
        Ok(c)
    } else {
        Err(errors)
    }
}

/// A body literal after `or` expansion, with patterns compiled.
#[derive(Clone, Debug)]
pub enum Lit {
    Pos {
        rel: RelId,
        pats: Vec<Pat>,
        span: Span,
    },
    Neg {
        rel: RelId,
        pats: Vec<Pat>,
        span: Span,
    },
    Distinct(Pat, Pat, Span),
}
