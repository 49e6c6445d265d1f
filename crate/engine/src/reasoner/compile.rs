//! Compiles rules into join plans for the bottom-up interpreter.
//!
//! Each rule body (after expanding `or` into separate bodies) becomes a
//! sequence of operations in an order where every join has as many bound
//! arguments as possible and every `not` / `distinct` runs as soon as its
//! variables are bound. `(true (f ...))` reads a per-functor table of the
//! state, so the state is indexed like any other relation.

use crate::deps::{DepGraph, RelId, RuleGraph};
use crate::diagnostic::{Diagnostic, Span};
use crate::program::{Literal, Program, Rule, Term, VarId};
use crate::terms::{kw, Sym, TermId, TermStore};
use rustc_hash::FxHashMap;

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
#[inline]
pub(crate) fn value(store: &TermStore, p: &Pat, env: &[TermId]) -> Option<TermId> {
    match p {
        Pat::Var(v) => Some(env[*v as usize]),
        Pat::Const(t) => Some(*t),
        Pat::App(f, args) => {
            let mut vals = smallvec::SmallVec::<[TermId; 8]>::new();
            for a in args.iter() {
                vals.push(value(store, a, env)?);
            }
            store.find(*f, &vals)
        }
    }
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
#[inline]
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
        Pat::App(f, args) => {
            store.functor(t) == *f
                && store.arity(t) == args.len()
                && args
                    .iter()
                    .zip(store.args_of(t))
                    .all(|(a, &u)| unify(store, a, u, env, trail))
        }
    }
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

/// Wraps a size function so that the sizes it reports are recorded.
fn recording<'a>(
    size: &'a dyn Fn(RelId) -> usize,
    seen: &'a std::cell::RefCell<Vec<(RelId, usize)>>,
) -> impl Fn(RelId) -> usize + 'a {
    move |r| {
        let n = size(r);
        let mut seen = seen.borrow_mut();
        if !seen.iter().any(|&(x, _)| x == r) {
            seen.push((r, n));
        }
        n
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
    /// positions in `mask` bound (see [`choose_demand`]).
    pub safe: Vec<Vec<bool>>,
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

impl Compiled {
    pub fn num_rels(&self) -> usize {
        self.class.len()
    }

    /// Strata needed to compute `rels`, in evaluation order.
    pub fn strata_for(&self, rels: &[RelId]) -> Vec<usize> {
        let rg = &self.rule_graph;
        let mut seen = vec![false; rg.rules.len()];
        let mut stack: Vec<usize> = Vec::new();
        for &rel in rels {
            for &ri in &self.graph.rules_of[rel] {
                if let Ok(node) = rg.rules.binary_search(&ri) {
                    stack.push(node);
                }
            }
        }
        while let Some(n) = stack.pop() {
            if !std::mem::replace(&mut seen[n], true) {
                stack.extend(rg.edges[n].iter().map(|e| e.to));
            }
        }
        let mut out: Vec<usize> = (0..seen.len())
            .filter(|&n| seen[n])
            .map(|n| self.stratum_of_node[n])
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Orders every rule body of stratum `s` for evaluation, with `size`
    /// giving the current number of rows of each relation.
    pub fn plan(&self, s: usize, size: &dyn Fn(RelId) -> usize) -> StratumPlans {
        let st = &self.strata[s];
        let mut out = StratumPlans::default();
        let seen = std::cell::RefCell::new(Vec::new());
        let size = &recording(size, &seen);
        for rule in &st.rules {
            for body in &rule.bodies {
                let mut make = |delta: Option<usize>| {
                    let ops = order(
                        body,
                        rule.num_vars,
                        &[],
                        delta,
                        size,
                        self,
                        &mut out.indexes,
                    )
                    .expect("bodies were checked for safety at compile time");
                    let delta_rel = delta.map(|i| match &body[i] {
                        Lit::Pos { rel, .. } => *rel,
                        _ => unreachable!("delta literals are positive"),
                    });
                    Plan {
                        head_rel: rule.head_rel,
                        head: rule.head.clone(),
                        ops,
                        num_vars: rule.num_vars,
                        delta_rel,
                        cost: Cost::default(),
                    }
                };
                let full = make(None);
                let mut deltas = Vec::new();
                if st.recursive {
                    for (i, lit) in body.iter().enumerate() {
                        if matches!(lit, Lit::Pos { rel, .. } if st.heads.contains(rel)) {
                            deltas.push(make(Some(i)));
                        }
                    }
                }
                out.plans.push(full);
                out.delta_plans.extend(deltas);
            }
        }
        out.indexes.sort_unstable();
        out.indexes.dedup();
        out.sizes = seen.borrow().clone();
        out
    }

    /// Switches demand relations to materialised evaluation (their strata
    /// run bottom-up again). Only valid before any plan was built for a
    /// stratum that uses them as demand relations.
    pub fn materialise(&mut self, rels: &[RelId]) {
        for &r in rels {
            self.demand[r] = false;
            self.demand_rules[r].clear();
        }
        for st in &mut self.strata {
            if st.heads.iter().any(|h| rels.contains(h)) {
                st.demand = false;
            }
        }
    }

    /// Undoes [`Compiled::materialise`].
    pub fn dematerialise(&mut self, rels: &[RelId]) {
        for &r in rels {
            self.demand[r] = true;
        }
        for st in &mut self.strata {
            if st.heads.iter().any(|h| rels.contains(h)) {
                st.demand = true;
                for rule in &st.rules {
                    self.demand_rules[rule.head_rel].push(rule.clone());
                }
            }
        }
    }

    /// Plans to answer a call of demand relation `rel` with the argument
    /// positions in `mask` bound: one plan per rule body, with the head
    /// variables at those positions bound before the body runs.
    pub fn plan_demand(
        &self,
        rel: RelId,
        mask: u32,
        size: &dyn Fn(RelId) -> usize,
    ) -> StratumPlans {
        let mut out = StratumPlans::default();
        let seen = std::cell::RefCell::new(Vec::new());
        let size = &recording(size, &seen);
        for rule in &self.demand_rules[rel] {
            let mut pre = vec![false; rule.num_vars];
            for (i, p) in rule.head.iter().enumerate().take(32) {
                if mask >> i & 1 == 1 {
                    p.for_each_var(&mut |v| pre[v as usize] = true);
                }
            }
            for body in &rule.bodies {
                let ops = order(
                    body,
                    rule.num_vars,
                    &pre,
                    None,
                    size,
                    self,
                    &mut out.indexes,
                )
                .expect("bodies were checked for safety at compile time");
                out.plans.push(Plan {
                    head_rel: rel,
                    head: rule.head.clone(),
                    ops,
                    num_vars: rule.num_vars,
                    delta_rel: None,
                    cost: Cost::default(),
                });
            }
        }
        out.indexes.sort_unstable();
        out.indexes.dedup();
        out.sizes = seen.borrow().clone();
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

struct Builder<'a> {
    store: &'a mut TermStore,
    c: &'a mut Compiled,
    errors: &'a mut Vec<Diagnostic>,
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

impl Builder<'_> {
    fn build(&mut self, program: &Program) {
        for rule in program.rules.iter().filter(|r| r.body.is_empty()) {
            self.fact(rule);
        }
        for comp in self.c.rule_graph.sccs.clone() {
            let idx = self.c.strata.len();
            let recursive = self
                .c
                .rule_graph
                .is_recursive(self.c.rule_graph.scc_of[comp[0]]);
            let mut st = Stratum {
                rules: Vec::new(),
                heads: Vec::new(),
                class: Class::Static,
                recursive,
                demand: false,
            };
            for &node in &comp {
                self.c.stratum_of_node[node] = idx;
                let rule = &program.rules[self.c.rule_graph.rules[node]];
                let rel = self
                    .c
                    .graph
                    .id_of(rule.head.rel, rule.head.arity())
                    .expect("head relation in graph");
                st.class = st.class.max(self.c.class[rel]);
                if !st.heads.contains(&rel) {
                    st.heads.push(rel);
                }
                if let Some(r) = self.rule(rule, rel) {
                    st.rules.push(r);
                }
            }
            self.c.strata.push(st);
        }
        self.check_keywords(program);
    }

    fn fact(&mut self, rule: &Rule) {
        let rel = self
            .c
            .graph
            .id_of(rule.head.rel, rule.head.arity())
            .expect("head relation in graph");
        let head: Vec<Pat> = rule.head.args.iter().map(|t| self.pat(t)).collect();
        if let Some(v) = first_var(&head) {
            self.unsafe_var(rule, v, rule.head.span);
            return;
        }
        let row: Vec<TermId> = head.iter().map(|p| self.ground(p)).collect();
        self.c.facts.push((rel, row.into()));
    }

    /// Expands and safety-checks a rule with a body.
    fn rule(&mut self, rule: &Rule, head_rel: RelId) -> Option<RuleBodies> {
        let head: Vec<Pat> = rule.head.args.iter().map(|t| self.pat(t)).collect();
        let bodies = match self.expand(rule) {
            Ok(b) => b,
            Err(d) => {
                self.errors.push(d);
                return None;
            }
        };
        let num_vars = rule.vars.len();
        for body in &bodies {
            let mut scratch = Vec::new();
            if let Err((v, span)) = order(body, num_vars, &[], None, &|_| 1, self.c, &mut scratch) {
                self.unsafe_var(rule, v, span);
                return None;
            }
            let mut bound = vec![false; num_vars];
            for lit in body {
                if let Lit::Pos { pats, .. } = lit {
                    pats.iter()
                        .for_each(|p| p.for_each_var(&mut |v| bound[v as usize] = true));
                }
            }
            let unbound = first_var(&head).and_then(|_| {
                let mut u = None;
                head.iter().for_each(|p| {
                    p.for_each_var(&mut |v| {
                        if !bound[v as usize] {
                            u.get_or_insert(v);
                        }
                    })
                });
                u
            });
            if let Some(v) = unbound {
                self.unsafe_var(rule, v, rule.head.span);
                return None;
            }
        }
        Some(RuleBodies {
            head_rel,
            head: head.into(),
            bodies,
            num_vars,
        })
    }

    fn check_keywords(&mut self, program: &Program) {
        for rule in &program.rules {
            let head = rule.head.rel;
            if head == kw::TRUE || head == kw::DOES {
                self.errors.push(
                    Diagnostic::error(
                        "GDL040",
                        rule.head.name_span,
                        format!(
                            "`{}` cannot be defined by a fact or rule",
                            self.store.symbols.name(head)
                        ),
                    )
                    .with_hint("`true` and `does` are given by the game state and the moves"),
                );
            }
        }
        if let Some(init) = self.c.graph.id_of(kw::INIT, 1) {
            if !self.c.graph.is_static(init) {
                let span = self.c.graph.rules_of[init]
                    .first()
                    .map(|&r| program.rules[r].span)
                    .unwrap_or_default();
                self.errors.push(
                    Diagnostic::error("GDL041", span, "`init` depends on `true` or `does`")
                        .with_hint("the initial state must not depend on a state or on moves"),
                );
            }
        }
    }

    fn unsafe_var(&mut self, rule: &Rule, v: VarId, span: Span) {
        let name = rule.vars.get(v as usize).cloned().unwrap_or_default();
        let mut at = span;
        rule.head.for_each_var(&mut |w, s| {
            if w == v {
                at = s;
            }
        });
        for l in &rule.body {
            l.for_each_var(&mut |w, s| {
                if w == v && at == span {
                    at = s;
                }
            });
        }
        self.errors.push(
            Diagnostic::error(
                "GDL020",
                at,
                format!("unsafe rule: variable `?{name}` is not bound by a positive literal"),
            )
            .with_hint(format!(
                "add a positive literal to the body that mentions `?{name}`"
            )),
        );
    }

    fn ground(&mut self, p: &Pat) -> TermId {
        match p {
            Pat::Const(t) => *t,
            Pat::Var(_) => unreachable!("ground patterns have no variables"),
            Pat::App(f, args) => {
                let args: Vec<TermId> = args.iter().map(|a| self.ground(a)).collect();
                self.store.app(*f, &args)
            }
        }
    }

    fn pat(&mut self, t: &Term) -> Pat {
        match t {
            Term::Var(v, _) => Pat::Var(*v),
            Term::Const(s, _) => Pat::Const(self.store.constant(*s)),
            Term::App { functor, args, .. } => {
                let args: Vec<Pat> = args.iter().map(|a| self.pat(a)).collect();
                if args.iter().all(|a| matches!(a, Pat::Const(_))) {
                    let ids: Vec<TermId> = args
                        .iter()
                        .map(|a| {
                            if let Pat::Const(t) = a {
                                *t
                            } else {
                                unreachable!()
                            }
                        })
                        .collect();
                    Pat::Const(self.store.app(*functor, &ids))
                } else {
                    Pat::App(*functor, args.into())
                }
            }
        }
    }

    // Diagnostic (with its fixes) is the load-time error type; these run
    // once per rule while compiling, not on a hot path.
    #[allow(clippy::result_large_err)]
    fn expand(&mut self, rule: &Rule) -> Result<Vec<Vec<Lit>>, Diagnostic> {
        let mut bodies: Vec<Vec<Lit>> = vec![Vec::new()];
        for lit in &rule.body {
            let alts = self.alternatives(lit)?;
            if alts.len() == 1 {
                for b in &mut bodies {
                    b.extend(alts[0].iter().cloned());
                }
                continue;
            }
            if bodies.len() * alts.len() > MAX_EXPANSION {
                return Err(Diagnostic::error(
                    "GDL050",
                    rule.span,
                    "this rule's `or`s expand into too many alternatives",
                )
                .with_hint("split the rule into several rules or define helper relations"));
            }
            bodies = bodies
                .iter()
                .flat_map(|b| {
                    alts.iter()
                        .map(move |a| b.iter().chain(a.iter()).cloned().collect())
                })
                .collect();
        }
        Ok(bodies)
    }

    // Diagnostic (with its fixes) is the load-time error type; these run
    // once per rule while compiling, not on a hot path.
    #[allow(clippy::result_large_err)]
    fn alternatives(&mut self, lit: &Literal) -> Result<Vec<Vec<Lit>>, Diagnostic> {
        match lit {
            Literal::Pos(a) => Ok(vec![vec![self.atom_lit(a, false)]]),
            Literal::Not(inner, span) => match &**inner {
                Literal::Pos(a) => Ok(vec![vec![self.atom_lit(a, true)]]),
                _ => Err(Diagnostic::error("GDL031", *span, "`not` must wrap a single sentence")
                    .with_hint("negate an atom such as `(not (p ?x))`; for `(not (distinct ?x ?y))` write the equality by reusing one variable")),
            },
            Literal::Distinct(a, b, span) => Ok(vec![vec![Lit::Distinct(self.pat(a), self.pat(b), *span)]]),
            Literal::Or(ds, span) => {
                let mut out = Vec::new();
                for d in ds {
                    let mut conj: Vec<Vec<Lit>> = vec![Vec::new()];
                    for l in d {
                        let alts = self.alternatives(l)?;
                        conj = conj
                            .iter()
                            .flat_map(|c| alts.iter().map(move |a| c.iter().chain(a.iter()).cloned().collect()))
                            .collect();
                        if conj.len() > MAX_EXPANSION {
                            return Err(Diagnostic::error("GDL050", *span, "this `or` expands into too many alternatives"));
                        }
                    }
                    out.extend(conj);
                }
                Ok(out)
            }
        }
    }

    fn atom_lit(&mut self, a: &crate::program::Atom, negated: bool) -> Lit {
        let (rel, pats) = if a.rel == kw::TRUE && a.args.len() == 1 {
            self.true_access(&a.args[0])
        } else {
            let rel = self
                .c
                .graph
                .id_of(a.rel, a.args.len())
                .expect("every literal relation is in the graph");
            (rel, a.args.iter().map(|t| self.pat(t)).collect())
        };
        if negated {
            Lit::Neg {
                rel,
                pats,
                span: a.span,
            }
        } else {
            Lit::Pos {
                rel,
                pats,
                span: a.span,
            }
        }
    }

    fn true_access(&mut self, t: &Term) -> (RelId, Vec<Pat>) {
        let (key, pats) = match t {
            Term::Const(s, _) => ((*s, 0), Vec::new()),
            Term::App { functor, args, .. } => (
                (*functor, args.len() as u32),
                args.iter().map(|a| self.pat(a)).collect(),
            ),
            Term::Var(..) => {
                let rel = match self.c.true_all {
                    Some(r) => r,
                    None => {
                        let r = self.new_state_table(1);
                        self.c.true_all = Some(r);
                        r
                    }
                };
                return (rel, vec![self.pat(t)]);
            }
        };
        let rel = match self.c.true_tables.get(&key) {
            Some(&r) => r,
            None => {
                let r = self.new_state_table(key.1 as usize);
                self.c.true_tables.insert(key, r);
                r
            }
        };
        (rel, pats)
    }

    fn new_state_table(&mut self, arity: usize) -> RelId {
        self.c.class.push(Class::State);
        self.c.demand.push(false);
        self.c.arity.push(arity);
        self.c.class.len() - 1
    }
}

/// Estimated rows a scan yields: `size^(unbound/arity)` (uniform spread).
///
/// A demand relation has no size until it is called, so it is estimated as
/// a relation of at least [`DEMAND_PRIOR`] rows; it is only ever called in a
/// safe pattern (see [`choose_demand`]).
fn estimate(size: usize, bound: usize, arity: usize, demand: bool) -> f64 {
    if arity == 0 || bound == arity {
        return 0.0;
    }
    let size = if demand {
        size.max(DEMAND_PRIOR)
    } else {
        size.max(1)
    };
    (size as f64).powf((arity - bound) as f64 / arity as f64)
}

/// Assumed size of a demand relation when planning.
const DEMAND_PRIOR: usize = 10_000;

/// Relations that change with the state are planned with at least this many
/// rows: the state the plan is made on may be unusually small.
const DYNAMIC_FLOOR: usize = 8;

fn bound_mask(pats: &[Pat], bound: &[bool]) -> u32 {
    let mut mask = 0u32;
    for (i, p) in pats.iter().enumerate().take(32) {
        if p.is_bound(bound) {
            mask |= 1 << i;
        }
    }
    mask
}

/// Orders a body into operations: filters (`not`, `distinct`, fully bound
/// literals) as soon as their variables are bound, otherwise the scan with
/// the fewest estimated rows. `delta` puts that literal first as a
/// semi-naive delta scan. Fails with an unbound variable if the body is
/// unsafe. Index lookups are appended to `indexes`.
fn order(
    body: &[Lit],
    num_vars: usize,
    pre_bound: &[bool],
    delta: Option<usize>,
    size: &dyn Fn(RelId) -> usize,
    c: &Compiled,
    indexes: &mut Vec<(RelId, u32)>,
) -> Result<Vec<Op>, (VarId, Span)> {
    let class = &c.class;
    let demand = &c.demand;
    let mut bound = vec![false; num_vars];
    for (v, &b) in pre_bound.iter().enumerate() {
        bound[v] |= b;
    }
    let mut done = vec![false; body.len()];
    let mut ops = Vec::new();
    let mut scan = |i: usize, bound: &mut Vec<bool>, ops: &mut Vec<Op>, is_delta: bool| {
        let Lit::Pos { rel, pats, .. } = &body[i] else {
            unreachable!("only positive literals are scanned")
        };
        let mask = bound_mask(pats, bound);
        if mask != 0 {
            indexes.push((*rel, mask));
        }
        pats.iter()
            .for_each(|p| p.for_each_var(&mut |v| bound[v as usize] = true));
        let demand = demand[*rel];
        ops.push(Op::Scan {
            rel: *rel,
            class: class[*rel],
            pats: pats.clone().into(),
            mask,
            delta: is_delta,
            demand,
        });
    };
    if let Some(i) = delta {
        scan(i, &mut bound, &mut ops, true);
        done[i] = true;
    }
    loop {
        for (i, lit) in body.iter().enumerate() {
            if done[i] {
                continue;
            }
            let op = match lit {
                Lit::Pos { rel, pats, .. } if pats.iter().all(|p| p.is_bound(&bound)) => {
                    Some(Op::Check {
                        rel: *rel,
                        class: class[*rel],
                        pats: pats.clone().into(),
                        negated: false,
                        demand: demand[*rel],
                    })
                }
                Lit::Neg { rel, pats, .. } if pats.iter().all(|p| p.is_bound(&bound)) => {
                    Some(Op::Check {
                        rel: *rel,
                        class: class[*rel],
                        pats: pats.clone().into(),
                        negated: true,
                        demand: demand[*rel],
                    })
                }
                Lit::Distinct(a, b, _) if a.is_bound(&bound) && b.is_bound(&bound) => {
                    Some(Op::Distinct(a.clone(), b.clone()))
                }
                _ => None,
            };
            if let Some(op) = op {
                ops.push(op);
                done[i] = true;
            }
        }
        let best = body
            .iter()
            .enumerate()
            .filter(|(i, l)| !done[*i] && matches!(l, Lit::Pos { .. }))
            .map(|(i, l)| {
                let Lit::Pos { rel, pats, .. } = l else {
                    unreachable!()
                };
                let b = pats.iter().filter(|p| p.is_bound(&bound)).count();
                let n = if class[*rel] == Class::Static {
                    size(*rel)
                } else {
                    size(*rel).max(DYNAMIC_FLOOR)
                };
                let mut cost = estimate(n, b, pats.len(), demand[*rel]);
                if demand[*rel]
                    && !c.safe.is_empty()
                    && !eligible(&c.safe, *rel, bound_mask(pats, &bound))
                {
                    // Not callable yet in this pattern: last resort only.
                    cost = f64::INFINITY;
                }
                (cost, i)
            })
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
            .map(|(_, i)| i);
        match best {
            Some(i) => {
                scan(i, &mut bound, &mut ops, false);
                done[i] = true;
            }
            None => break,
        }
    }
    // Anything left is a `not` or `distinct` with a variable that no
    // positive literal binds.
    for (i, lit) in body.iter().enumerate() {
        if done[i] {
            continue;
        }
        let (pats, span): (Vec<&Pat>, Span) = match lit {
            Lit::Neg { pats, span, .. } | Lit::Pos { pats, span, .. } => {
                (pats.iter().collect(), *span)
            }
            Lit::Distinct(a, b, span) => (vec![a, b], *span),
        };
        for p in pats {
            let mut unbound = None;
            p.for_each_var(&mut |v| {
                if !bound[v as usize] {
                    unbound.get_or_insert(v);
                }
            });
            if let Some(v) = unbound {
                return Err((v, span));
            }
        }
    }
    Ok(ops)
}

fn first_var(pats: &[Pat]) -> Option<VarId> {
    let mut out = None;
    for p in pats {
        p.for_each_var(&mut |v| {
            out.get_or_insert(v);
        });
    }
    out
}

/// Largest arity for which a relation may be evaluated on demand (its call
/// patterns are enumerated as bit masks).
const MAX_DEMAND_ARITY: u32 = 12;

/// Decides which relations are evaluated on demand (see [`Compiled::demand`])
/// and under which call patterns (`Compiled::safe`).
///
/// A call pattern (bound-argument mask) of a demand relation is *safe* when
/// every body of its rules can place all its literals starting from the
/// head variables the pattern binds, where a materialised literal can always
/// be placed and a demand literal only under one of its own safe patterns.
/// That is a greatest fixpoint (recursion is assumed safe until refuted;
/// tabling handles it). The planner obeys the same rule, so at run time a
/// demand relation is never called in a pattern that would force computing
/// it in full. A materialised relation's rule whose demand literal can never
/// be placed makes that literal's component materialised; then everything
/// is recomputed, until nothing changes.
fn choose_demand(c: &mut Compiled, program: &Program) {
    let n = c.graph.rels.len();
    let candidate = |r: RelId| {
        let k = c.graph.rels[r];
        !kw::is_gdl_keyword(k.sym)
            && k.arity > 0
            && k.arity <= MAX_DEMAND_ARITY
            && c.graph.rules_of[r]
                .iter()
                .any(|&i| !program.rules[i].body.is_empty())
    };
    let mut demand: Vec<bool> = (0..c.class.len()).map(|r| r < n && candidate(r)).collect();
    let mut rules: Vec<Vec<RuleBodies>> = vec![Vec::new(); c.class.len()];
    for st in &c.strata {
        for r in &st.rules {
            rules[r.head_rel].push(r.clone());
        }
    }
    loop {
        let safe = safe_patterns(&rules, &demand, &c.arity);
        let mut stuck = Vec::new();
        for r in (0..n).filter(|&r| !demand[r]) {
            for rule in &rules[r] {
                for body in &rule.bodies {
                    stuck.extend(unplaceable(
                        body,
                        &vec![false; rule.num_vars],
                        &demand,
                        &safe,
                    ));
                }
            }
        }
        if stuck.is_empty() {
            c.demand = demand;
            c.safe = safe;
            break;
        }
        for r in stuck {
            for &m in &c.graph.sccs[c.graph.scc_of[r]] {
                demand[m] = false;
            }
        }
    }
    c.demand_rules = vec![Vec::new(); c.class.len()];
    for st in &mut c.strata {
        if st.heads.iter().all(|&h| c.demand[h]) {
            st.demand = true;
            for r in &st.rules {
                c.demand_rules[r.head_rel].push(r.clone());
            }
        }
    }
}

/// The greatest fixpoint of safe call patterns: `safe[rel][mask]`.
fn safe_patterns(rules: &[Vec<RuleBodies>], demand: &[bool], arity: &[usize]) -> Vec<Vec<bool>> {
    let mut safe: Vec<Vec<bool>> = (0..demand.len())
        .map(|r| {
            if demand[r] {
                (0..1usize << arity[r]).map(|m| m != 0).collect()
            } else {
                Vec::new()
            }
        })
        .collect();
    loop {
        let mut changed = false;
        for r in (0..demand.len()).filter(|&r| demand[r]) {
            for mask in 1..safe[r].len() {
                if !safe[r][mask] {
                    continue;
                }
                let ok = rules[r].iter().all(|rule| {
                    let mut pre = vec![false; rule.num_vars];
                    for (i, p) in rule.head.iter().enumerate() {
                        if mask >> i & 1 == 1 {
                            p.for_each_var(&mut |v| pre[v as usize] = true);
                        }
                    }
                    rule.bodies
                        .iter()
                        .all(|b| unplaceable(b, &pre, demand, &safe).is_empty())
                });
                if !ok {
                    safe[r][mask] = false;
                    changed = true;
                }
            }
        }
        if !changed {
            return safe;
        }
    }
}

/// Whether a demand literal may be called with the bound positions `mask`.
fn eligible(safe: &[Vec<bool>], rel: RelId, mask: u32) -> bool {
    safe[rel].get(mask as usize).copied().unwrap_or(false)
}

/// The demand relations of positive literals in `body` that can never be
/// placed when the variables in `pre` are bound (order-independent: the
/// bound set only grows).
fn unplaceable(body: &[Lit], pre: &[bool], demand: &[bool], safe: &[Vec<bool>]) -> Vec<RelId> {
    let mut bound = pre.to_vec();
    let mut placed = vec![false; body.len()];
    loop {
        let mut progress = false;
        for (i, lit) in body.iter().enumerate() {
            let Lit::Pos { rel, pats, .. } = lit else {
                continue;
            };
            if placed[i] || (demand[*rel] && !eligible(safe, *rel, bound_mask(pats, &bound))) {
                continue;
            }
            placed[i] = true;
            progress = true;
            pats.iter()
                .for_each(|p| p.for_each_var(&mut |v| bound[v as usize] = true));
        }
        if !progress {
            break;
        }
    }
    body.iter()
        .enumerate()
        .filter_map(|(i, lit)| match lit {
            Lit::Pos { rel, .. } if !placed[i] => Some(*rel),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::parse_program;

    /// Facts and rules come back in the program's order, although the
    /// rules fall into different strata (`c` before the recursive `b`).
    #[test]
    fn rules_in_order_follows_the_program() {
        let p = parse_program(
            "(role r) (<= (b ?x) (c ?x) (a ?x)) (a 1) (<= (c ?x) (a ?x)) \
             (<= (b ?x) (b ?x)) (a 2) (<= (d) (or (true (f 1)) (true ?y)))",
        );
        let mut store = TermStore::new(p.symbols.clone());
        let c = compile_with(&p, &mut store, false).unwrap();
        let got: Vec<String> = c
            .rules_in_order(&p)
            .iter()
            .map(|r| {
                let (rel, n) = match r {
                    ProgramRule::Fact(rel, row) => (*rel, format!("{} args", row.len())),
                    ProgramRule::Rule(rb) => (rb.head_rel, format!("{} bodies", rb.bodies.len())),
                };
                format!("{} {n}", store.symbols.name(c.graph.rels[rel].sym))
            })
            .collect();
        assert_eq!(
            got,
            [
                "role 1 args",
                "b 1 bodies",
                "a 1 args",
                "c 1 bodies",
                "b 1 bodies",
                "a 1 args",
                "d 2 bodies"
            ]
        );
        // The first `b` rule is the one reading `c`, not the recursive one.
        let ProgramRule::Rule(first_b) = c.rules_in_order(&p)[1] else {
            panic!("a rule")
        };
        assert_eq!(first_b.bodies[0].len(), 2);
    }
}
