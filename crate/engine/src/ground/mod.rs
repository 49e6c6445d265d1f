//! The fast engine: the game grounded into a propositional network, a state a
//! bit vector of base propositions. See `docs/fast-engine.md` for the design
//! and the measurements behind it.
//!
//! One file per concern:
//! - [`rules`]: the rules to ground (from the interpreter's compiled
//!   program) split so that no instance joins unrelated variables;
//! - [`instantiate`]: reachable atoms by a relaxed fixpoint, then every rule
//!   instance, with static relations and `distinct` resolved;
//! - [`network`]: threshold gates in flat arrays, cycles as components;
//! - [`engine`]: differential propagation and the [`StateMachine`]
//!   implementation.
//!
//! Grounding has a [`Budget`]; a game over it gets a [`GroundError`] and the
//! caller (see [`crate::engine`]) runs the interpreter instead.

mod constant;
pub mod demand;
mod duplicates;
pub mod engine;
mod factor;
mod grule;
pub mod instantiate;
pub mod network;
mod passes;
pub mod profile;
pub mod rules;
mod semijoin;
mod tables;
pub mod types;

pub use engine::{BitState, FastEngine};

use crate::clock::now_ms;
use crate::deps::RelId;
use crate::program::Program;
use crate::reasoner::{EvalError, Interpreter, Limits, StateMachine};
use crate::terms::{kw, Sym, TermId, TermStore};
use instantiate::{AtomId, Grounder};
use network::{HOOK_LEGAL, HOOK_NEXT, NONE};
use rustc_hash::FxHashMap;
use std::fmt;

/// Limits for grounding; over any of them the game is not grounded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    pub max_atoms: usize,
    /// Literals over all rule instances (the size of the network).
    pub max_literals: usize,
    /// Estimated memory of the grounder's tables and the network.
    pub max_bytes: usize,
    pub max_ms: f64,
    pub max_term_depth: usize,
    /// Join steps the interpreter may take computing the static relations.
    pub max_static_steps: u64,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            max_atoms: 4_000_000,
            max_literals: 30_000_000,
            max_bytes: 1_500_000_000,
            max_ms: 20_000.0,
            max_term_depth: 100,
            max_static_steps: 100_000_000,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum GroundError {
    Budget {
        what: &'static str,
        limit: u64,
    },
    /// Computing a static relation failed in the interpreter.
    Eval(EvalError),
    Unsupported(String),
}

impl fmt::Display for GroundError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GroundError::Budget { what, limit } => {
                write!(f, "grounding needs more than {limit} {what}")
            }
            GroundError::Eval(e) => write!(f, "grounding stopped: {e}"),
            GroundError::Unsupported(s) => write!(f, "cannot ground: {s}"),
        }
    }
}

impl std::error::Error for GroundError {}

/// Sizes and cost of a grounding.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GroundStats {
    pub ms: f64,
    /// Peak estimated memory of the grounder's tables (bytes).
    pub peak_bytes: usize,
    /// Memory of the network kept for play (bytes).
    pub network_bytes: usize,
    pub atoms: usize,
    pub rules: usize,
    pub aux_rules: usize,
    pub instances: usize,
    pub literals: usize,
    pub base: usize,
    pub inputs: usize,
    pub legals: usize,
    pub nodes: usize,
    pub edges: usize,
    pub cyclic_components: usize,
    pub rounds: usize,
}

/// Semi-naive evaluation of `rules` (negations on dynamic relations
/// ignored) until no rule derives a new atom; `transfer` runs after each
/// round and may add atoms too. Returns the number of rounds.
fn fixpoint(
    gr: &mut Grounder<'_>,
    rules: &[rules::GRule],
    prof: &mut profile::Profile,
    phase: &'static str,
    mut transfer: impl FnMut(&mut Grounder<'_>),
) -> Result<usize, GroundError> {
    let mut lo = vec![0u32; gr.rels.len()];
    let mut rounds = 0;
    // Copies of an earlier rule derive nothing new (`duplicates.rs`).
    let copy = duplicates::of(rules);
    loop {
        let hi: Vec<u32> = gr.rels.iter().map(|r| r.rows.len() as u32).collect();
        if rounds > 0 && hi == lo {
            return Ok(rounds);
        }
        for (rule, _) in rules.iter().zip(&copy).filter(|(_, &c)| !c) {
            let (steps, t) = (gr.steps(), prof.on().then(now_ms));
            let mut added = 0;
            // Rounds in which the rule was joined (the profile's runs).
            let mut joined = rounds == 0;
            if rounds == 0 {
                added += gr.run_rule(rule, None, &hi, true);
            } else {
                for (i, l) in rule.body.iter().enumerate() {
                    if let rules::GLit::Pos(r, _) = l {
                        if lo[*r] < hi[*r] {
                            joined = true;
                            added += gr.run_rule(rule, Some((i, lo[*r], hi[*r])), &hi, true);
                        }
                    }
                }
            }
            if let Some(t) = t.filter(|_| joined) {
                prof.add(phase, rule, gr.steps() - steps, now_ms() - t, added);
            }
            if let Some(e) = gr.error.take() {
                if prof.on() {
                    prof.sizes = gr.rels.iter().map(|r| r.rows.len()).collect();
                }
                return Err(e);
            }
        }
        transfer(gr);
        gr.check_memory();
        if let Some(e) = gr.error.take() {
            return Err(e);
        }
        lo = hi;
        rounds += 1;
    }
}

/// A game grounded over its reachable atoms: every atom that can hold in
/// some reachable state (a relaxed over-approximation) and every rule
/// instance over them (static literals and `distinct` resolved). The fast
/// engine's network and the relaxed planning problem (`crate::plan`) are
/// both built from it.
pub struct GroundProgram {
    pub store: TermStore,
    pub roles: Vec<TermId>,
    pub atoms: instantiate::Atoms,
    pub rels: Vec<instantiate::Relation>,
    pub inst: instantiate::Instances,
    pub rel_init: Option<RelId>,
    pub rel_next: Option<RelId>,
    pub rel_legal: Option<RelId>,
    pub rel_does: Option<RelId>,
    pub rel_goal: Option<RelId>,
    pub rel_terminal: Option<RelId>,
    /// `(true (f a b))` is the atom `(true_tables[(f, 2)] a b)`.
    pub true_tables: FxHashMap<(Sym, u32), RelId>,
    /// Or, for fluents read by a variable, `(true_all f)`.
    pub true_all: Option<RelId>,
    /// Base fluents: every `init` fluent and every reachable `next` fluent.
    pub fluents: Vec<TermId>,
    pub base_of: FxHashMap<TermId, u32>,
    /// Indices into `fluents` of the initial state.
    pub init: Vec<u32>,
    /// Instances `0..facts` are facts (no body).
    pub facts: usize,
    pub rules: usize,
    pub aux_rules: usize,
    pub rounds: usize,
    pub peak_bytes: usize,
}

impl GroundProgram {
    /// The atom `(true f)` reads, if some rule reads it.
    pub fn true_atom(&self, f: TermId) -> Option<AtomId> {
        let key = (self.store.functor(f), self.store.arity(f) as u32);
        self.true_tables
            .get(&key)
            .and_then(|&t| self.atoms.find(t as u32, self.store.args_of(f)))
            .or_else(|| self.true_all.and_then(|t| self.atoms.find(t as u32, &[f])))
    }
}

/// Grounds a game (a program without errors) over its reachable atoms. An
/// interpreter with limits derived from the budget provides the static
/// relations, the roles and the compiled rules.
pub fn ground_program(program: &Program, budget: Budget) -> Result<GroundProgram, GroundError> {
    let t0 = now_ms();
    // The first strategy gets a part of the atom and literal budgets (every
    // corpus game it grounds needs at most 1.33M atoms and 3.3M literals);
    // over them, or out of memory, the second strategy (demand.rs) gets the
    // whole budget in the time left, and if that fails too the first
    // strategy the rest. Games that ground the first way are unchanged.
    // A budget over twice the default also splits the time: the first
    // strategy stops at half of it (at least the default's 20 s, which no
    // corpus game it grounds needs), so that the second gets a chance
    // (alexChess: the first strategy runs out of time, demand grounds it).
    let first_budget = Budget {
        max_atoms: budget.max_atoms.min(FIRST_ATOMS),
        max_literals: budget.max_literals.min(FIRST_LITERALS),
        max_ms: budget.max_ms.min(FIRST_MS.max(budget.max_ms / 2.0)),
        ..budget
    };
    // The first attempt is untyped (types.rs costs time and changes no
    // network the first strategy builds on the corpus); the others typed.
    let first = rules::Strategy {
        untyped: true,
        ..rules::Strategy::default()
    };
    let mut result = ground_with_strategy(program, first_budget, first);
    let out_of_time = |r: &Result<GroundProgram, GroundError>| {
        matches!(
            r,
            Err(GroundError::Budget {
                what: "milliseconds",
                ..
            })
        )
    };
    let retry = |r: &Result<GroundProgram, GroundError>| {
        matches!(r, Err(GroundError::Budget { .. }))
            && (!out_of_time(r) || first_budget.max_ms < budget.max_ms)
    };
    let left = |t0: f64| budget.max_ms - (now_ms() - t0);
    if retry(&result) && left(t0) > 0.0 {
        let demand = rules::Strategy {
            demand: true,
            project_first: true,
            ..rules::Strategy::default()
        };
        let b = Budget {
            max_ms: left(t0),
            ..budget
        };
        let second = ground_with_strategy(program, b, demand);
        let first_capped = match result {
            Err(GroundError::Budget {
                what: "ground atoms",
                ..
            }) => budget.max_atoms > FIRST_ATOMS,
            Err(GroundError::Budget {
                what: "literals in rule instances",
                ..
            }) => budget.max_literals > FIRST_LITERALS,
            _ => false,
        };
        result = second;
        if retry(&result) && first_capped && left(t0) > 0.0 {
            let b = Budget {
                max_ms: left(t0),
                ..budget
            };
            result = ground_with_strategy(program, b, rules::Strategy::default());
        }
    }
    if out_of_time(&result) {
        // The whole budget, not the last attempt's share of it.
        result = Err(GroundError::Budget {
            what: "milliseconds",
            limit: budget.max_ms as u64,
        });
    }
    result
}

/// Milliseconds the first strategy may use of a large time budget.
const FIRST_MS: f64 = 20_000.0;

/// Atoms the first strategy may use before the demand-driven one is tried.
const FIRST_ATOMS: usize = 1_500_000;
/// Literals the first strategy may use before the second is tried.
const FIRST_LITERALS: usize = 5_000_000;

/// A fast engine grounded with one strategy only (tests).
#[cfg(test)]
pub fn ground_with_strategy_for_tests(
    program: &Program,
    budget: Budget,
    strategy: rules::Strategy,
) -> Result<FastEngine, GroundError> {
    engine_of(ground_with_strategy(program, budget, strategy)?, now_ms())
}

/// Grounds with one strategy only (no second attempt); tests compare them.
#[cfg(test)]
pub fn ground_program_with_strategy(
    program: &Program,
    budget: Budget,
    strategy: rules::Strategy,
) -> Result<GroundProgram, GroundError> {
    ground_with_strategy(program, budget, strategy)
}

fn ground_with_strategy(
    program: &Program,
    budget: Budget,
    strategy: rules::Strategy,
) -> Result<GroundProgram, GroundError> {
    let mut prof = profile::Profile::default();
    let r = ground_program_with(program, budget, strategy, &mut prof);
    match &r {
        Ok(gp) => {
            prof.sizes = gp.rels.iter().map(|r| r.rows.len()).collect();
            prof.print("grounded");
        }
        Err(e) => prof.print(&e.to_string()),
    }
    r
}

fn ground_program_with(
    program: &Program,
    budget: Budget,
    strategy: rules::Strategy,
    prof: &mut profile::Profile,
) -> Result<GroundProgram, GroundError> {
    let limits = Limits {
        max_static_rows: budget.max_atoms,
        max_steps: budget.max_static_steps,
        max_term_depth: budget.max_term_depth,
        ..Limits::default()
    };
    let mut it = Interpreter::with_limits(program, limits).map_err(|d| {
        GroundError::Unsupported(d.first().map_or_else(String::new, |d| d.message.clone()))
    })?;
    let it = &mut it;
    let c = it.compiled();
    let g = &c.graph;
    // A diagnostic (native): `GDLKIT_DEMAND_ONLY=rel1,rel2` lets the demand
    // strategy restrict only the named relations (BENCHMARKS.md, chess).
    let focus: Option<Vec<bool>> = std::env::var("GDLKIT_DEMAND_ONLY").ok().map(|names| {
        let names: Vec<&str> = names.split(',').collect();
        g.rels
            .iter()
            .map(|k| names.contains(&it.terms().symbols.name(k.sym)))
            .collect()
    });
    let mut rs = rules::collect(c, strategy, focus.as_deref());
    // Constant fluents (`constant.rs`): their `true` tables are static, the
    // initial fluents (added below) their rows. Second strategy only, so
    // that the games the first grounds keep their networks.
    if strategy.demand {
        for t in constant::tables(c, it.terms()) {
            rs.is_static[t] = true;
        }
    }
    *prof = profile::Profile::from_env(|| {
        g.rels
            .iter()
            .map(|k| format!("{}/{}", it.terms().symbols.name(k.sym), k.arity))
            .collect()
    });
    let rel = |s, a| g.id_of(s, a);
    let (rel_init, rel_next, rel_legal, rel_does, rel_goal, rel_terminal) = (
        rel(kw::INIT, 1),
        rel(kw::NEXT, 1),
        rel(kw::LEGAL, 2),
        rel(kw::DOES, 2),
        rel(kw::GOAL, 2),
        rel(kw::TERMINAL, 0),
    );
    let dyn_facts: Vec<(RelId, Box<[TermId]>)> = c
        .facts
        .iter()
        .filter(|(r, _)| !rs.is_static[*r])
        .cloned()
        .collect();
    let static_facts: Vec<(RelId, Box<[TermId]>)> = c
        .facts
        .iter()
        .filter(|(r, _)| rs.is_static[*r])
        .cloned()
        .collect();
    let true_tables = c.true_tables.clone();
    let true_all = c.true_all;
    let roles = it.roles().to_vec();
    let mut store = it.terms().clone();
    let mut gr = Grounder::new(&mut store, &rs.arity, rs.is_static.clone(), budget);
    // Static relations, exactly: stratum by stratum, each to its fixpoint
    // (negations only read complete lower strata).
    for (r, row) in &static_facts {
        gr.add(*r, row);
    }
    for stratum in &rs.static_strata {
        fixpoint(&mut gr, stratum, prof, "static", |_| {})?;
    }
    // Argument types (types.rs): filters on head variables that drop the
    // atoms no rule instance can ask for. `GDLKIT_GROUND_UNTYPED` (native,
    // a diagnostic) switches them off.
    let untyped = strategy.untyped || std::env::var_os("GDLKIT_GROUND_UNTYPED").is_some();
    if !untyped {
        let roots = [rel_legal, rel_next, rel_goal, rel_terminal, rel_init]
            .into_iter()
            .chain([g.id_of(kw::ROLE, 1)])
            .flatten()
            .collect();
        let game = types::Roles {
            init: rel_init,
            next: rel_next,
            legal: rel_legal,
            does: rel_does,
            roots,
            true_tables: true_tables.iter().map(|(&k, &r)| (k, r)).collect(),
            true_all,
            first_aux: c.num_rels(),
        };
        let name = |r: RelId| {
            g.rels.get(r).map_or(format!("aux{r}"), |k| {
                format!("{}/{}", it.terms().symbols.name(k.sym), k.arity)
            })
        };
        let filters = types::restrict(&gr, &mut rs, &c.facts, &game, budget, &name);
        for r in gr.rels.len()..rs.arity.len() {
            let mut rel = instantiate::Relation::default();
            rel.arity = rs.arity[r];
            gr.rels.push(rel);
            gr.is_static.push(rs.is_static[r]);
        }
        for &(r, t) in &filters.rows {
            gr.add(r, &[t]);
        }
    }
    let mut fact_atoms = Vec::new();
    for (r, row) in &dyn_facts {
        fact_atoms.push(gr.add(*r, row).0);
    }
    // Base propositions: every fluent of `init` and of a reachable `next`.
    let mut fluents: Vec<TermId> = Vec::new();
    let mut base_of: FxHashMap<TermId, u32> = FxHashMap::default();
    let add_fluent = |gr: &mut Grounder<'_>,
                      fluents: &mut Vec<TermId>,
                      base_of: &mut FxHashMap<TermId, u32>,
                      f: TermId| {
        if base_of.contains_key(&f) {
            return;
        }
        base_of.insert(f, fluents.len() as u32);
        fluents.push(f);
        let key = (gr.store.functor(f), gr.store.arity(f) as u32);
        if let Some(&t) = true_tables.get(&key) {
            let args: Vec<TermId> = gr.store.args_of(f).to_vec();
            gr.add(t, &args);
        }
        if let Some(t) = true_all {
            gr.add(t, &[f]);
        }
    };
    let mut init = Vec::new();
    if let Some(ri) = rel_init {
        let rows: Vec<AtomId> = gr.rels[ri].rows.clone();
        for a in rows {
            let f = gr.atoms.args(a)[0];
            add_fluent(&mut gr, &mut fluents, &mut base_of, f);
            init.push(base_of[&f]);
        }
    }
    // The relaxed fixpoint, closing the loop next → true, legal → does.
    let (mut next_seen, mut legal_seen) = (0usize, 0usize);
    let rounds = fixpoint(&mut gr, &rs.rules, prof, "relaxed", |gr| {
        if let Some(rn) = rel_next {
            while next_seen < gr.rels[rn].rows.len() {
                let f = gr.atoms.args(gr.rels[rn].rows[next_seen])[0];
                add_fluent(gr, &mut fluents, &mut base_of, f);
                next_seen += 1;
            }
        }
        if let (Some(rl), Some(rd)) = (rel_legal, rel_does) {
            while legal_seen < gr.rels[rl].rows.len() {
                let args: Vec<TermId> = gr.atoms.args(gr.rels[rl].rows[legal_seen]).to_vec();
                gr.add(rd, &args);
                legal_seen += 1;
            }
        }
    })?;
    // Instantiation over the reachable atoms.
    let all: Vec<u32> = gr.rels.iter().map(|r| r.rows.len() as u32).collect();
    // Facts of dynamic relations, and the outputs that are static, are true.
    for r in [rel_legal, rel_next, rel_goal, rel_terminal]
        .into_iter()
        .flatten()
    {
        if rs.is_static[r] {
            fact_atoms.extend(gr.rels[r].rows.iter().copied());
        }
    }
    for &a in &fact_atoms {
        gr.inst.head.push(a);
        gr.inst.start.push(gr.inst.lits.len() as u32);
    }
    let facts = fact_atoms.len();
    for rule in &rs.rules {
        if rs.is_static[rule.head_rel] {
            continue;
        }
        let (steps, n, t) = (gr.steps(), gr.inst.len(), prof.on().then(now_ms));
        gr.run_rule(rule, None, &all, false);
        if let Some(t) = t {
            let out = gr.inst.len() - n;
            prof.add("instance", rule, gr.steps() - steps, now_ms() - t, out);
        }
        if let Some(e) = gr.error.take() {
            return Err(e);
        }
    }
    gr.check_memory();
    if let Some(e) = gr.error.take() {
        return Err(e);
    }
    let peak_bytes = gr.bytes();
    let (atoms, rels, inst) = (
        std::mem::take(&mut gr.atoms),
        std::mem::take(&mut gr.rels),
        std::mem::replace(
            &mut gr.inst,
            instantiate::Instances {
                head: Vec::new(),
                start: vec![0],
                lits: Vec::new(),
            },
        ),
    );
    drop(gr);
    Ok(GroundProgram {
        store,
        roles,
        atoms,
        rels,
        inst,
        rel_init,
        rel_next,
        rel_legal,
        rel_does,
        rel_goal,
        rel_terminal,
        true_tables,
        true_all,
        fluents,
        base_of,
        init,
        facts,
        rules: rs.rules.len(),
        aux_rules: rs.aux,
        rounds,
        peak_bytes,
    })
}

/// Grounds a game (a program without errors) into a fast engine.
pub fn ground(program: &Program, budget: Budget) -> Result<FastEngine, GroundError> {
    let t0 = now_ms();
    let gp = ground_program(program, budget)?;
    engine_of(gp, t0)
}

/// The fast engine of a grounded program (grounding started at `t0`).
fn engine_of(gp: GroundProgram, t0: f64) -> Result<FastEngine, GroundError> {
    crate::job::progress("grounding: network", String::new);
    let GroundProgram {
        store,
        roles,
        atoms,
        rels,
        inst,
        rel_next,
        rel_legal,
        rel_does,
        rel_goal,
        rel_terminal,
        true_tables,
        true_all,
        fluents,
        base_of,
        init,
        rules,
        aux_rules,
        rounds,
        peak_bytes,
        ..
    } = gp;
    // Leaves: base propositions read by some rule, and moves.
    let num_atoms = atoms.len();
    let mut leaf_of_atom = vec![NONE; num_atoms];
    let mut num_leaves = 0usize;
    let mut base_leaf = vec![NONE; fluents.len()];
    for (i, &f) in fluents.iter().enumerate() {
        let mut reads = Vec::new();
        if let Some(&t) = true_tables.get(&(store.functor(f), store.arity(f) as u32)) {
            reads.extend(atoms.find(t as u32, store.args_of(f)));
        }
        if let Some(t) = true_all {
            reads.extend(atoms.find(t as u32, &[f]));
        }
        if reads.is_empty() {
            continue;
        }
        let leaf = 2 + num_leaves as u32;
        num_leaves += 1;
        base_leaf[i] = leaf;
        for a in reads {
            leaf_of_atom[a as usize] = leaf;
        }
    }
    let mut inputs = 0;
    if let Some(rd) = rel_does {
        for &a in &rels[rd].rows {
            leaf_of_atom[a as usize] = 2 + num_leaves as u32;
            num_leaves += 1;
            inputs += 1;
        }
    }
    // Legal propositions per role, sorted by the move's text.
    let mut legal_start = vec![0u32];
    let mut legal_move = Vec::new();
    let mut legal_atom = Vec::new();
    let mut hooked: Vec<(AtomId, u32)> = Vec::new();
    for &role in &roles {
        let mut moves: Vec<(String, TermId, AtomId)> = Vec::new();
        if let Some(rl) = rel_legal {
            for &a in &rels[rl].rows {
                let args = atoms.args(a);
                if args[0] == role {
                    moves.push((store.display(args[1]), args[1], a));
                }
            }
        }
        moves.sort();
        for (_, m, a) in moves {
            hooked.push((a, HOOK_LEGAL | legal_move.len() as u32));
            legal_move.push(m);
            legal_atom.push(a);
        }
        legal_start.push(legal_move.len() as u32);
    }
    if let Some(rn) = rel_next {
        for &a in &rels[rn].rows {
            let f = atoms.args(a)[0];
            hooked.push((a, HOOK_NEXT | base_of[&f]));
        }
    }
    if legal_move.len() >= network::HOOK_MASK as usize
        || fluents.len() >= network::HOOK_MASK as usize
    {
        return Err(GroundError::Budget {
            what: "propositions",
            limit: network::HOOK_MASK as u64,
        });
    }
    let (net, node_of_atom) = network::build(
        num_atoms,
        &inst,
        &network::Leaves {
            leaf_of_atom: &leaf_of_atom,
            num_leaves,
        },
        &hooked,
    )?;
    let mut base_node = vec![NONE; fluents.len()];
    // (Direct mapping: a base leaf's atoms all map to the same node.)
    for (i, &f) in fluents.iter().enumerate() {
        if base_leaf[i] == NONE {
            continue;
        }
        let a = true_tables
            .get(&(store.functor(f), store.arity(f) as u32))
            .and_then(|&t| atoms.find(t as u32, store.args_of(f)))
            .or_else(|| true_all.and_then(|t| atoms.find(t as u32, &[f])));
        if let Some(a) = a {
            base_node[i] = node_of_atom[a as usize];
        }
    }
    let legal_input: Vec<u32> = (0..legal_move.len())
        .map(|i| {
            let args = atoms.args(legal_atom[i]).to_vec();
            rel_does
                .and_then(|rd| atoms.find(rd as u32, &args))
                .map_or(NONE, |a| node_of_atom[a as usize])
        })
        .collect();
    let mut move_index = FxHashMap::default();
    for r in 0..roles.len() {
        for i in legal_start[r]..legal_start[r + 1] {
            move_index.insert((r as u32, legal_move[i as usize]), i);
        }
    }
    let terminal = rel_terminal
        .and_then(|t| atoms.find(t as u32, &[]))
        .map_or(network::FALSE, |a| node_of_atom[a as usize]);
    let mut goals = vec![Vec::new(); roles.len()];
    if let Some(rg) = rel_goal {
        for &a in &rels[rg].rows {
            let args = atoms.args(a);
            if let (Some(r), Some(v)) = (
                roles.iter().position(|&x| x == args[0]),
                store.as_int(args[1]),
            ) {
                goals[r].push((v, node_of_atom[a as usize]));
            }
        }
    }
    // Do legal, goal or terminal depend on a move?
    let mut reach = vec![false; net.len()];
    let mut stack: Vec<u32> = legal_input.iter().copied().filter(|&n| n != NONE).collect();
    while let Some(v) = stack.pop() {
        let v = v as usize;
        if std::mem::replace(&mut reach[v], true) {
            continue;
        }
        for k in net.out_start[v]..net.out_start[v + 1] {
            stack.push(net.out[k as usize] >> 1);
        }
    }
    let queries_use_does = reach[terminal as usize]
        || legal_atom
            .iter()
            .any(|&a| reach[node_of_atom[a as usize] as usize])
        || goals.iter().flatten().any(|&(_, n)| reach[n as usize]);
    drop(reach);
    let stats = GroundStats {
        ms: now_ms() - t0,
        peak_bytes,
        network_bytes: net.bytes(),
        atoms: num_atoms,
        rules,
        aux_rules,
        instances: inst.len(),
        literals: inst.lits.len(),
        base: fluents.len(),
        inputs,
        legals: legal_move.len(),
        nodes: net.len(),
        edges: net.out.len(),
        cyclic_components: net.scc_start.len() - 1,
        rounds,
    };
    let tables = engine::Tables {
        roles,
        base_fluent: fluents,
        base_node,
        base_of_fluent: base_of,
        init,
        legal_start,
        legal_move,
        legal_input,
        move_index,
        terminal,
        goals,
        queries_use_does,
    };
    let mut e = FastEngine::new(store, net, tables, stats);
    e.finish_stats(t0);
    Ok(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The demand-driven strategy grounds a game over the first one's budget.
    #[test]
    fn the_second_strategy_grounds_what_the_first_cannot() {
        let program = crate::parse_program(include_str!("../../testdata/demand_game.kif"));
        let small = Budget {
            max_atoms: 2_000,
            max_ms: 600_000.0,
            ..Budget::default()
        };
        let first = rules::Strategy {
            untyped: true,
            ..rules::Strategy::default()
        };
        let plain = ground_program_with_strategy(&program, small, first);
        assert!(plain.is_err(), "the plain grounding fits in 2,000 atoms");
        let gp = ground_program(&program, small).expect("demand grounds it");
        assert!(gp.atoms.len() < 2_000);
    }
}
