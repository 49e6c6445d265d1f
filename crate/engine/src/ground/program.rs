//! Grounding a program over its reachable atoms: the static relations
//! exactly, then a relaxed fixpoint (negations on dynamic relations
//! ignored) that closes the loops next → true and legal → does, then every
//! rule instance over the atoms reached.

use super::exclusion::{self, Exclusions};
use super::instantiate::{self, AtomId, Grounder};
use super::{constant, duplicates, profile, rules, types};
use super::{Budget, GroundError, GroundProgram};
use crate::clock::now_ms;
use crate::deps::{DepGraph, RelId};
use crate::program::Program;
use crate::reasoner::compile::Compiled;
use crate::reasoner::{Interpreter, Limits, StateMachine};
use crate::terms::{kw, Sym, TermId, TermStore};
use rustc_hash::FxHashMap;

/// Semi-naive evaluation of `rules` (negations on dynamic relations
/// ignored) until no rule derives a new atom; `transfer` runs after each
/// round and may add atoms too. Returns the number of rounds.
pub(super) fn fixpoint(
    gr: &mut Grounder<'_>,
    rules: &[rules::GRule],
    prof: &mut profile::Profile,
    phase: &'static str,
    exclusions: &mut Exclusions,
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
        for (i, (rule, _)) in rules
            .iter()
            .zip(&copy)
            .enumerate()
            .filter(|(_, (_, &c))| !c)
        {
            let (steps, t) = (gr.steps(), prof.on().then(now_ms));
            let mut added = 0;
            // Rounds in which the rule was joined (the profile's runs).
            let mut joined = rounds == 0;
            if let Some(e) = exclusions.get_mut(i) {
                added += e.run_relaxed(gr, &hi);
                joined = true;
            } else if rounds == 0 {
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

/// The relations of the game's keywords, where the program has them.
#[derive(Clone, Copy)]
struct Keywords {
    init: Option<RelId>,
    next: Option<RelId>,
    legal: Option<RelId>,
    does: Option<RelId>,
    goal: Option<RelId>,
    terminal: Option<RelId>,
    sees: Option<RelId>,
}

impl Keywords {
    fn of(g: &DepGraph, sees: Option<RelId>) -> Keywords {
        let rel = |s, a| g.id_of(s, a);
        Keywords {
            init: rel(kw::INIT, 1),
            next: rel(kw::NEXT, 1),
            legal: rel(kw::LEGAL, 2),
            does: rel(kw::DOES, 2),
            goal: rel(kw::GOAL, 2),
            terminal: rel(kw::TERMINAL, 0),
            sees,
        }
    }
}

/// Facts as the compiled program lists them.
type Facts = Vec<(RelId, Box<[TermId]>)>;

pub(super) fn ground_program_with(
    program: &Program,
    budget: Budget,
    strategy: rules::Strategy,
    prof: &mut profile::Profile,
) -> Result<GroundProgram, GroundError> {
    let mut it = static_interpreter(program, budget)?;
    let it = &mut it;
    let c = it.compiled();
    let mut rs = rule_set(c, it.terms(), strategy, prof);
    let k = Keywords::of(&c.graph, c.sees);
    let (dyn_facts, static_facts) = split_facts(c, &rs.is_static);
    let true_tables = c.true_tables.clone();
    let true_all = c.true_all;
    let roles = it.roles().to_vec();
    let mut store = it.terms().clone();
    let mut gr = Grounder::new(&mut store, &rs.arity, rs.is_static.clone(), budget);
    ground_static(&mut gr, &rs, &static_facts, prof)?;
    // Argument types (types.rs): filters on head variables that drop the
    // atoms no rule instance can ask for. `GDLKIT_GROUND_UNTYPED` (native,
    // a diagnostic) switches them off.
    let untyped = strategy.untyped || std::env::var_os("GDLKIT_GROUND_UNTYPED").is_some();
    if !untyped {
        let game = type_roots(c, k, &true_tables, true_all);
        add_type_filters(&mut gr, &mut rs, c, it.terms(), &game, budget);
    }
    let mut fact_atoms = Vec::new();
    for (r, row) in &dyn_facts {
        fact_atoms.push(gr.add(*r, row).0);
    }
    let mut base = Base {
        fluents: Vec::new(),
        base_of: FxHashMap::default(),
        true_tables: &true_tables,
        true_all,
    };
    let init = base.add_init(&mut gr, k.init);
    // Exclusions (exclusion.rs) read static rows: after the static relations.
    // `GDLKIT_GROUND_NO_EXCLUSIONS` (native, a diagnostic) switches them off.
    let mut exclusions = if std::env::var_os("GDLKIT_GROUND_NO_EXCLUSIONS").is_some() {
        Exclusions::default()
    } else {
        exclusion::rewrite(&mut gr, &mut rs, k.does)
    };
    let rounds = relaxed_fixpoint(&mut gr, &rs, k, &mut base, &mut exclusions, prof)?;
    let facts = instantiate_rules(&mut gr, &rs, k, fact_atoms, &mut exclusions, prof)?;
    let peak_bytes = gr.bytes();
    let (atoms, rels, inst) = take_tables(&mut gr);
    drop(gr);
    let Base {
        fluents, base_of, ..
    } = base;
    Ok(GroundProgram {
        store,
        roles,
        atoms,
        rels,
        inst,
        rel_init: k.init,
        rel_next: k.next,
        rel_legal: k.legal,
        rel_does: k.does,
        rel_goal: k.goal,
        rel_terminal: k.terminal,
        rel_sees: k.sees,
        true_tables,
        true_all,
        fluents,
        base_of,
        init,
        facts,
        rules: rs.rules.len(),
        aux_rules: rs.aux,
        exclusions: exclusions.len(),
        counting_rules: rs.at_least.len(),
        folds: rs.folds,
        rounds,
        peak_bytes,
    })
}

/// An interpreter, with limits derived from the budget, to provide the
/// static relations, the roles and the compiled rules.
fn static_interpreter(program: &Program, budget: Budget) -> Result<Interpreter, GroundError> {
    let limits = Limits {
        max_static_rows: budget.max_atoms,
        max_steps: budget.max_static_steps,
        max_term_depth: budget.max_term_depth,
        ..Limits::default()
    };
    Interpreter::with_limits(program, limits).map_err(|d| {
        GroundError::Unsupported(d.first().map_or_else(String::new, |d| d.message.clone()))
    })
}

/// The rules to ground under `strategy`; also sets up the profile, which
/// names the compiled relations.
fn rule_set(
    c: &Compiled,
    terms: &TermStore,
    strategy: rules::Strategy,
    prof: &mut profile::Profile,
) -> rules::RuleSet {
    let g = &c.graph;
    // A diagnostic (native): `GDLKIT_DEMAND_ONLY=rel1,rel2` lets the demand
    // strategy restrict only the named relations (BENCHMARKS.md, chess).
    let focus: Option<Vec<bool>> = std::env::var("GDLKIT_DEMAND_ONLY").ok().map(|names| {
        let names: Vec<&str> = names.split(',').collect();
        g.rels
            .iter()
            .map(|k| names.contains(&terms.symbols.name(k.sym)))
            .collect()
    });
    let mut rs = rules::collect(c, strategy, focus.as_deref());
    // Constant fluents (`constant.rs`): their `true` tables are static, the
    // initial fluents (added later) their rows. Second strategy only, so
    // that the games the first grounds keep their networks.
    if strategy.demand {
        for t in constant::tables(c, terms) {
            rs.is_static[t] = true;
        }
    }
    *prof = profile::Profile::from_env(|| {
        g.rels
            .iter()
            .map(|k| format!("{}/{}", terms.symbols.name(k.sym), k.arity))
            .collect()
    });
    rs
}

/// The program's facts: those of dynamic relations, then the static ones.
fn split_facts(c: &Compiled, is_static: &[bool]) -> (Facts, Facts) {
    let dyn_facts: Facts = c
        .facts
        .iter()
        .filter(|(r, _)| !is_static[*r])
        .cloned()
        .collect();
    let static_facts: Facts = c
        .facts
        .iter()
        .filter(|(r, _)| is_static[*r])
        .cloned()
        .collect();
    (dyn_facts, static_facts)
}

/// Static relations, exactly: stratum by stratum, each to its fixpoint
/// (negations only read complete lower strata).
fn ground_static(
    gr: &mut Grounder<'_>,
    rs: &rules::RuleSet,
    static_facts: &Facts,
    prof: &mut profile::Profile,
) -> Result<(), GroundError> {
    for (r, row) in static_facts {
        gr.add(*r, row);
    }
    for stratum in &rs.static_strata {
        fixpoint(
            gr,
            stratum,
            prof,
            "static",
            &mut Exclusions::default(),
            |_| {},
        )?;
    }
    Ok(())
}

/// What the type analysis needs to know about the game.
fn type_roots(
    c: &Compiled,
    k: Keywords,
    true_tables: &FxHashMap<(Sym, u32), RelId>,
    true_all: Option<RelId>,
) -> types::Roles {
    let roots = [k.legal, k.next, k.goal, k.terminal, k.init, k.sees]
        .into_iter()
        .chain([c.graph.id_of(kw::ROLE, 1)])
        .flatten()
        .collect();
    types::Roles {
        init: k.init,
        next: k.next,
        legal: k.legal,
        does: k.does,
        roots,
        true_tables: true_tables.iter().map(|(&k, &r)| (k, r)).collect(),
        true_all,
        first_aux: c.num_rels(),
    }
}

/// Restricts the rules by argument types, adding the filter relations (and
/// their rows) to the grounder.
fn add_type_filters(
    gr: &mut Grounder<'_>,
    rs: &mut rules::RuleSet,
    c: &Compiled,
    terms: &TermStore,
    game: &types::Roles,
    budget: Budget,
) {
    let name = |r: RelId| {
        c.graph.rels.get(r).map_or(format!("aux{r}"), |k| {
            format!("{}/{}", terms.symbols.name(k.sym), k.arity)
        })
    };
    let filters = types::restrict(gr, rs, &c.facts, game, budget, &name);
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

/// Base propositions: every fluent of `init` and of a reachable `next`,
/// each also added to the `true` table that reads it.
struct Base<'a> {
    fluents: Vec<TermId>,
    base_of: FxHashMap<TermId, u32>,
    true_tables: &'a FxHashMap<(Sym, u32), RelId>,
    true_all: Option<RelId>,
}

impl Base<'_> {
    fn add(&mut self, gr: &mut Grounder<'_>, f: TermId) {
        if self.base_of.contains_key(&f) {
            return;
        }
        self.base_of.insert(f, self.fluents.len() as u32);
        self.fluents.push(f);
        let key = (gr.store.functor(f), gr.store.arity(f) as u32);
        if let Some(&t) = self.true_tables.get(&key) {
            let args: Vec<TermId> = gr.store.args_of(f).to_vec();
            gr.add(t, &args);
        }
        if let Some(t) = self.true_all {
            gr.add(t, &[f]);
        }
    }

    /// Adds the fluents of `init`; returns their base indices.
    fn add_init(&mut self, gr: &mut Grounder<'_>, rel_init: Option<RelId>) -> Vec<u32> {
        let mut init = Vec::new();
        if let Some(ri) = rel_init {
            let rows: Vec<AtomId> = gr.rels[ri].rows.clone();
            for a in rows {
                let f = gr.atoms.args(a)[0];
                self.add(gr, f);
                init.push(self.base_of[&f]);
            }
        }
        init
    }
}

/// The relaxed fixpoint, closing the loop next → true, legal → does.
/// Returns the number of rounds.
fn relaxed_fixpoint(
    gr: &mut Grounder<'_>,
    rs: &rules::RuleSet,
    k: Keywords,
    base: &mut Base<'_>,
    exclusions: &mut Exclusions,
    prof: &mut profile::Profile,
) -> Result<usize, GroundError> {
    let (mut next_seen, mut legal_seen) = (0usize, 0usize);
    fixpoint(gr, &rs.rules, prof, "relaxed", exclusions, |gr| {
        if let Some(rn) = k.next {
            while next_seen < gr.rels[rn].rows.len() {
                let f = gr.atoms.args(gr.rels[rn].rows[next_seen])[0];
                base.add(gr, f);
                next_seen += 1;
            }
        }
        if let (Some(rl), Some(rd)) = (k.legal, k.does) {
            while legal_seen < gr.rels[rl].rows.len() {
                let args: Vec<TermId> = gr.atoms.args(gr.rels[rl].rows[legal_seen]).to_vec();
                gr.add(rd, &args);
                legal_seen += 1;
            }
        }
    })
}

/// Instantiation over the reachable atoms: the facts first (`fact_atoms`,
/// then the outputs that are static), then every dynamic rule's instances.
/// Returns the number of facts.
fn instantiate_rules(
    gr: &mut Grounder<'_>,
    rs: &rules::RuleSet,
    k: Keywords,
    mut fact_atoms: Vec<AtomId>,
    exclusions: &mut Exclusions,
    prof: &mut profile::Profile,
) -> Result<usize, GroundError> {
    let all: Vec<u32> = gr.rels.iter().map(|r| r.rows.len() as u32).collect();
    // Facts of dynamic relations, and the outputs that are static, are true.
    for r in [k.legal, k.next, k.goal, k.terminal].into_iter().flatten() {
        if rs.is_static[r] {
            fact_atoms.extend(gr.rels[r].rows.iter().copied());
        }
    }
    for &a in &fact_atoms {
        gr.inst.head.push(a);
        gr.inst.start.push(gr.inst.lits.len() as u32);
    }
    let facts = fact_atoms.len();
    for (i, rule) in rs.rules.iter().enumerate() {
        if rs.is_static[rule.head_rel] {
            continue;
        }
        let (steps, n, t) = (gr.steps(), gr.inst.len(), prof.on().then(now_ms));
        match (exclusions.get_mut(i), rs.at_least.get(&i)) {
            (Some(e), _) => e.instantiate(gr),
            (None, Some(&k)) => gr.run_count(rule, k),
            (None, None) => {
                gr.run_rule(rule, None, &all, false);
            }
        }
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
    Ok(facts)
}

/// Moves the atoms, relations and rule instances out of the grounder.
fn take_tables(
    gr: &mut Grounder<'_>,
) -> (
    instantiate::Atoms,
    Vec<instantiate::Relation>,
    instantiate::Instances,
) {
    (
        std::mem::take(&mut gr.atoms),
        std::mem::take(&mut gr.rels),
        std::mem::replace(&mut gr.inst, instantiate::Instances::empty()),
    )
}
