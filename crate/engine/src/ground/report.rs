//! What instantiation (grounding) did to a game, as the lecture shows it:
//! per relation its ground atoms, the rules that grew most, the size and
//! depth of the network, and for a game that does not ground where and why
//! it stopped. Small games list their ground rules. `gdlkit ground`, the
//! npm `groundReport` and the page's Instantiation panel show this report.

use super::estimate::{self, Estimate, RuleEstimate};
use super::instantiate::AtomId;
use super::{engine_of, ground_program, split, Budget, FastEngine, GroundError, GroundProgram};
use crate::clock::now_ms;
use crate::deps::RelId;
use crate::program::Program;
use crate::reasoner::compile::Compiled;
use crate::reasoner::{Interpreter, StateMachine};
use gdlkit_lang::diagnostic::{LineIndex, Span};
use rustc_hash::FxHashMap;
use serde::Serialize;

/// Ground rules (facts included) up to which the report lists them.
pub const MAX_LISTED_RULES: usize = 300;
/// Rules in [`GroundReport::top_rules`] at most.
pub const TOP_RULES: usize = 10;
/// Characters of a rule's text kept in the report.
const RULE_TEXT_CHARS: usize = 160;

/// How instantiation ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "GroundOutcome")
)]
pub enum Outcome {
    /// Grounded into a network.
    Grounded,
    /// Not tried: the size estimate is far over the budget.
    Refused,
    /// Tried and stopped (the budget, or a form the grounder cannot take).
    Stopped,
}

/// The ground atoms of one relation.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "GroundRelation")
)]
pub struct RelationCount {
    /// `name/arity`, or `true name/arity` for the state's tables.
    pub relation: String,
    pub atoms: usize,
}

/// The rules of one relation and the instances they produced.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "GroundRuleCount")
)]
pub struct RuleCount {
    /// `name/arity` of the head.
    pub head: String,
    /// Rules of the program with this head.
    pub rules: usize,
    /// 1-based line of the first of them.
    pub line: u32,
    /// The first rule's text (whitespace collapsed, shortened).
    pub text: String,
    /// Rule instances, with those of the auxiliary rules its bodies were
    /// split into.
    pub instances: usize,
}

/// The size of the fast engine's network.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "GroundNetwork")
)]
pub struct NetworkSize {
    /// Ground atoms (propositions), auxiliaries included.
    pub atoms: usize,
    /// Rule instances (facts included) and their literals.
    pub instances: usize,
    pub literals: usize,
    /// Base propositions (the state), input propositions (`does`), legal
    /// propositions.
    pub base: usize,
    pub inputs: usize,
    pub legals: usize,
    /// Gates (AND/OR/NOT as threshold gates) and links between them.
    pub gates: usize,
    pub links: usize,
    pub cyclic_components: usize,
    /// The longest path from a base or input proposition.
    pub depth: usize,
    pub bytes: usize,
    /// Guarded ANDs (`docs/fast-engine.md`): the propositions tried as
    /// guards, those a short walk found cheaper than the counts and kept,
    /// and the ANDs the kept ones guard.
    pub guard_candidates: usize,
    pub guards: usize,
    pub guarded_ands: usize,
    /// The independent subgames (`subgames.rs`), where there are two or
    /// more; else empty.
    pub subgames: Vec<SubgameSize>,
}

/// One independent subgame: the parts of the state that the moves change
/// apart from each other (connectFourSimultaneous's two boards).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "GroundSubgame")
)]
pub struct SubgameSize {
    /// Base propositions it changes (those no move changes, in every
    /// subgame, included), its legal propositions, and the roles with
    /// moves in it.
    pub base: usize,
    pub legals: usize,
    pub movers: usize,
}

/// Where and why instantiation stopped.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "GroundStop")
)]
pub struct Stop {
    pub reason: String,
    /// The rule with the most estimated instances: `name/arity` of its
    /// head, its 1-based line and its estimated instances.
    pub rule: Option<String>,
    pub line: Option<u32>,
    pub estimated_instances: Option<f64>,
    /// The estimate of the whole grounding.
    pub estimated_atoms: f64,
    pub estimated_literals: f64,
}

/// What instantiation did to a game.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase")
)]
pub struct GroundReport {
    pub outcome: Outcome,
    /// Per relation of the program (and state table) its ground atoms,
    /// most first.
    pub relations: Vec<RelationCount>,
    /// Atoms of the auxiliary relations splitting and typing created.
    pub auxiliary_atoms: usize,
    /// What decomposition did: auxiliary rules made by splitting bodies,
    /// rules kept as exclusions (ORs over prefixes and suffixes instead of
    /// every pair, `exclusion.rs`) and rules of `k` distinct values kept as
    /// counts (one "at least k" gate instead of every ordered choice,
    /// `count.rs`), and recursions that carry their answer through
    /// rewritten as folds (`fold.rs`).
    pub auxiliary_rules: usize,
    pub exclusions: usize,
    pub counting_rules: usize,
    pub folds: usize,
    /// The relations whose rules produced the most instances, most first.
    pub top_rules: Vec<RuleCount>,
    pub network: Option<NetworkSize>,
    pub stop: Option<Stop>,
    /// A game refused whole whose moves ground without its end tests
    /// (`split.rs`): what the interpreter answers, `"goal"` or
    /// `"terminal and goal"`; the counts and the network are then those of
    /// the rest, the hybrid engine's network.
    #[cfg_attr(
        feature = "typescript",
        ts(type = "'goal' | 'terminal and goal' | null")
    )]
    pub hybrid: Option<String>,
    /// Rule instances in all (facts included).
    pub ground_rule_count: usize,
    /// The ground rules as KIF, when there are at most
    /// [`MAX_LISTED_RULES`]; else empty.
    pub ground_rules: Vec<String>,
    pub ms: f64,
}

/// Grounds `program` (valid, with its source `text`) under `budget` and
/// reports what instantiation did; a game the estimate refuses is not
/// grounded, a game over the budget is reported where it stopped.
pub fn report(program: &Program, text: &str, budget: Budget) -> GroundReport {
    let t0 = now_ms();
    let lines = LineIndex::new(text);
    let line = |s: Span| lines.line_of(s.start as usize) as u32 + 1;
    let interpreter = match Interpreter::new(program) {
        Ok(i) => i,
        Err(d) => {
            let reason = d.first().map_or_else(String::new, |d| d.message.clone());
            return stopped(
                Outcome::Stopped,
                reason,
                None,
                &Estimate::default(),
                &line,
                t0,
            );
        }
    };
    let est = estimate::estimate(program, interpreter.compiled(), interpreter.terms());
    let culprit = est.culprit(&budget);
    if est.refuses(&budget) {
        let reason = est.reason(&budget, &|s| format!("line {}", line(s)));
        let refused = stopped(Outcome::Refused, reason, culprit, &est, &line, t0);
        let mut r = hybrid_part(program, text, budget, &line, t0).unwrap_or(refused.clone());
        r.outcome = Outcome::Refused;
        r.stop = refused.stop;
        r.ms = now_ms() - t0;
        return r;
    }
    let gp = match ground_program(program, budget) {
        Ok(gp) => gp,
        Err(e) => {
            let reason = why(&e, culprit, &line);
            return stopped(Outcome::Stopped, reason, culprit, &est, &line, t0);
        }
    };
    let names = Names::of(interpreter.compiled(), &gp);
    let mut r = counts(program, text, &gp, &names, &line);
    match engine_of(gp, t0) {
        Ok(f) => r.network = Some(network_size(&f)),
        Err(e) => {
            r.outcome = Outcome::Stopped;
            let reason = why(&e, culprit, &line);
            r.stop = stopped(Outcome::Stopped, reason, culprit, &est, &line, t0).stop;
        }
    }
    r.ms = now_ms() - t0;
    r
}

/// The report of the hybrid engine's network for a game refused whole:
/// the first rest of [`split::rest_within`], grounded.
fn hybrid_part(
    program: &Program,
    text: &str,
    budget: Budget,
    line: &dyn Fn(Span) -> u32,
    t0: f64,
) -> Option<GroundReport> {
    let rest = split::rest_within(program, &budget)?;
    let gp = ground_program(&rest.program, budget).ok()?;
    let names = Names::of(rest.interpreter.compiled(), &gp);
    let mut r = counts(&rest.program, text, &gp, &names, line);
    r.network = Some(network_size(&engine_of(gp, t0).ok()?));
    r.hybrid = Some(split::left_to_interpreter(rest.terminal).to_string());
    Some(r)
}

/// A stop's reason: the grounder's error, and the rule the estimate finds
/// costliest.
fn why(e: &GroundError, culprit: Option<&RuleEstimate>, line: &dyn Fn(Span) -> u32) -> String {
    match culprit {
        Some(w) => format!(
            "{e}; the costliest rule by the size estimate is the rule for {} at line {} (about {} instances)",
            w.head,
            line(w.span),
            estimate::short(w.instances)
        ),
        None => e.to_string(),
    }
}

/// The report of a game not grounded; `w` the rule it blames.
fn stopped(
    outcome: Outcome,
    reason: String,
    w: Option<&RuleEstimate>,
    est: &Estimate,
    line: &dyn Fn(Span) -> u32,
    t0: f64,
) -> GroundReport {
    GroundReport {
        outcome,
        relations: Vec::new(),
        auxiliary_atoms: 0,
        auxiliary_rules: 0,
        exclusions: 0,
        counting_rules: 0,
        folds: 0,
        top_rules: Vec::new(),
        network: None,
        hybrid: None,
        stop: Some(Stop {
            reason,
            rule: w.map(|w| w.head.clone()),
            line: w.map(|w| line(w.span)),
            estimated_instances: w.map(|w| w.instances),
            estimated_atoms: est.atoms,
            estimated_literals: est.literals,
        }),
        ground_rule_count: 0,
        ground_rules: Vec::new(),
        ms: now_ms() - t0,
    }
}

/// Names of the grounded program's relations: the compiled program's
/// relations and `true` tables (same ids: both compile the same program);
/// the rest are auxiliaries.
struct Names {
    name: Vec<Option<String>>,
    /// Per relation the program relation it reads as: itself, or for a
    /// `true` table none.
    program_rel: Vec<Option<RelId>>,
    /// `(true (f ...))` tables: the functor's name and the arity.
    table: FxHashMap<RelId, (String, u32)>,
    true_all: Option<RelId>,
}

impl Names {
    fn of(c: &Compiled, gp: &GroundProgram) -> Names {
        let n = gp.rels.len();
        let sym = |s| gp.store.symbols.name(s).to_string();
        let mut name = vec![None; n];
        let mut program_rel = vec![None; n];
        for (r, k) in c.graph.rels.iter().enumerate().take(n) {
            name[r] = Some(format!("{}/{}", sym(k.sym), k.arity));
            program_rel[r] = Some(r);
        }
        let mut table = FxHashMap::default();
        for (&(s, a), &r) in &gp.true_tables {
            if r < n {
                name[r] = Some(format!("true {}/{a}", sym(s)));
                table.insert(r, (sym(s), a));
            }
        }
        if let Some(r) = gp.true_all.filter(|&r| r < n) {
            name[r] = Some("true".to_string());
        }
        Names {
            name,
            program_rel,
            table,
            true_all: gp.true_all,
        }
    }
}

/// The counts of a grounded program: relations, top rules, ground rules.
fn counts(
    program: &Program,
    text: &str,
    gp: &GroundProgram,
    names: &Names,
    line: &dyn Fn(Span) -> u32,
) -> GroundReport {
    let mut atoms = vec![0usize; gp.rels.len()];
    for &r in &gp.atoms.rel {
        atoms[r as usize] += 1;
    }
    let mut relations = Vec::new();
    let mut auxiliary_atoms = 0;
    for (r, &n) in atoms.iter().enumerate() {
        match &names.name[r] {
            Some(name) if n > 0 => relations.push(RelationCount {
                relation: name.clone(),
                atoms: n,
            }),
            Some(_) => {}
            None => auxiliary_atoms += n,
        }
    }
    relations.sort_by(|a, b| b.atoms.cmp(&a.atoms).then(a.relation.cmp(&b.relation)));
    let ground_rule_count = gp.inst.len();
    let ground_rules = if ground_rule_count <= MAX_LISTED_RULES {
        (0..ground_rule_count)
            .map(|i| ground_rule(gp, names, i))
            .collect()
    } else {
        Vec::new()
    };
    GroundReport {
        outcome: Outcome::Grounded,
        relations,
        auxiliary_atoms,
        auxiliary_rules: gp.aux_rules,
        exclusions: gp.exclusions,
        counting_rules: gp.counting_rules,
        folds: gp.folds,
        top_rules: top_rules(program, text, gp, names, line),
        network: None,
        hybrid: None,
        stop: None,
        ground_rule_count,
        ground_rules,
        ms: 0.0,
    }
}

/// Rule instances per program relation of their head, the instances of
/// auxiliary rules counted with the relation whose instances read them.
fn top_rules(
    program: &Program,
    text: &str,
    gp: &GroundProgram,
    names: &Names,
    line: &dyn Fn(Span) -> u32,
) -> Vec<RuleCount> {
    let rel_of = |a: AtomId| gp.atoms.rel[a as usize] as usize;
    let owner = auxiliary_owners(gp, names);
    let mut per_rel: FxHashMap<RelId, usize> = FxHashMap::default();
    for i in gp.facts..gp.inst.len() {
        if let Some(r) = owner[rel_of(gp.inst.head[i])] {
            *per_rel.entry(r).or_default() += 1;
        }
    }
    let mut out: Vec<RuleCount> = per_rel
        .into_iter()
        .filter_map(|(r, instances)| {
            let rules = rules_of(program, gp, names, r);
            let first = &program.rules[*rules.first()?];
            Some(RuleCount {
                head: names.name[r].clone().unwrap_or_default(),
                rules: rules.len(),
                line: line(first.span),
                text: rule_text(text, first.span),
                instances,
            })
        })
        .collect();
    out.sort_by(|a, b| b.instances.cmp(&a.instances).then(a.line.cmp(&b.line)));
    out.truncate(TOP_RULES);
    out
}

/// Program rules (not facts) whose head is relation `r`.
fn rules_of(program: &Program, gp: &GroundProgram, names: &Names, r: RelId) -> Vec<usize> {
    let Some(name) = names.name[r].as_deref() else {
        return Vec::new();
    };
    program
        .rules
        .iter()
        .enumerate()
        .filter(|(_, rule)| !rule.body.is_empty() || rule.is_rule_form)
        .filter(|(_, rule)| {
            format!(
                "{}/{}",
                gp.store.symbols.name(rule.head.rel),
                rule.head.arity()
            ) == name
        })
        .map(|(i, _)| i)
        .collect()
}

/// Per relation the program relation its instances count for: a program
/// relation itself; an auxiliary relation the program relation of an
/// instance that reads one of its atoms (split rules read their parts).
fn auxiliary_owners(gp: &GroundProgram, names: &Names) -> Vec<Option<RelId>> {
    let rel_of = |a: u32| gp.atoms.rel[a as usize] as usize;
    let mut owner = names.program_rel.clone();
    loop {
        let mut changed = false;
        for i in gp.facts..gp.inst.len() {
            let Some(o) = owner[rel_of(gp.inst.head[i])] else {
                continue;
            };
            for &l in gp.inst.lits(i) {
                let r = rel_of(l >> 1);
                if owner[r].is_none() && names.name[r].is_none() {
                    owner[r] = Some(o);
                    changed = true;
                }
            }
        }
        if !changed {
            return owner;
        }
    }
}

/// A rule's source text on one line, shortened.
fn rule_text(text: &str, span: Span) -> String {
    let s = text
        .get(span.start as usize..span.end as usize)
        .unwrap_or("");
    let one_line = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= RULE_TEXT_CHARS {
        one_line
    } else {
        let cut: String = one_line.chars().take(RULE_TEXT_CHARS).collect();
        format!("{cut} …")
    }
}

/// Ground rule instance `i` as KIF.
fn ground_rule(gp: &GroundProgram, names: &Names, i: usize) -> String {
    let head = atom_text(gp, names, gp.inst.head[i]);
    let lits = gp.inst.lits(i);
    if lits.is_empty() && i < gp.facts {
        return head;
    }
    let body: Vec<String> = lits
        .iter()
        .map(|&l| {
            let a = atom_text(gp, names, l >> 1);
            if l & 1 == 1 {
                format!("(not {a})")
            } else {
                a
            }
        })
        .collect();
    if let Some(k) = gp.inst.at_least(i) {
        // Not GDL: a counting rule's one instance (`count.rs`).
        format!("(<= {head} (at_least {k} {}))", body.join(" "))
    } else if body.is_empty() {
        format!("(<= {head})")
    } else {
        format!("(<= {head} {})", body.join(" "))
    }
}

/// A ground atom as KIF; auxiliary relations as `aux<N>`.
fn atom_text(gp: &GroundProgram, names: &Names, a: AtomId) -> String {
    let r = gp.atoms.rel[a as usize] as usize;
    let args: Vec<String> = gp
        .atoms
        .args(a)
        .iter()
        .map(|&t| gp.store.display(t))
        .collect();
    let apply = |f: &str, args: &[String]| {
        if args.is_empty() {
            f.to_string()
        } else {
            format!("({f} {})", args.join(" "))
        }
    };
    if let Some((f, _)) = names.table.get(&r) {
        return format!("(true {})", apply(f, &args));
    }
    if Some(r) == names.true_all {
        return apply("true", &args);
    }
    match names.name[r].as_deref().and_then(|n| n.rsplit_once('/')) {
        Some((f, _)) => apply(f, &args),
        None => apply(&format!("aux{r}"), &args),
    }
}

/// The network's size from the fast engine's statistics and layout.
fn network_size(f: &FastEngine) -> NetworkSize {
    let s = f.stats();
    let (_, _, level) = f.layout();
    NetworkSize {
        atoms: s.atoms,
        instances: s.instances,
        literals: s.literals,
        base: s.base,
        inputs: s.inputs,
        legals: s.legals,
        gates: s.nodes,
        links: s.edges,
        cyclic_components: s.cyclic_components,
        depth: level.iter().copied().max().unwrap_or(0) as usize,
        bytes: s.network_bytes,
        guard_candidates: s.guard_candidates,
        guards: s.guards,
        guarded_ands: s.guarded_ands,
        subgames: f.subgame_parts().map_or_else(Vec::new, subgame_sizes),
    }
}

/// Each subgame's size, from its masks.
fn subgame_sizes(parts: &super::subgames::Subgames) -> Vec<SubgameSize> {
    let bits = |words: &[u64]| words.iter().map(|w| w.count_ones() as usize).sum::<usize>();
    (parts.mask.iter().zip(&parts.legal_mask).zip(&parts.movers))
        .map(|((mask, legal), &movers)| SubgameSize {
            base: bits(mask),
            legals: legal.iter().map(|w| bits(w)).sum(),
            movers,
        })
        .collect()
}

#[cfg(test)]
mod tests;
