//! Demand-driven grounding (magic sets) for games whose relaxed fixpoint is
//! too large: a relation that every rule reads with some arguments already
//! bound is computed only for the bindings asked for.
//!
//! For such a relation `R` with bound positions `A` (its *adornment*, the
//! positions bound at every call), a demand relation `R?` of arity `|A|`
//! is added; every rule of `R` gets `R?(head at A)` as an extra literal, and
//! every call of `R` adds a demand rule `R?(args at A) :- H?, prefix` whose
//! body is the calling rule's head demand and the literals evaluated before
//! the call (unrestricted literals first, then restricted ones in body
//! order, so a demand never waits on its own answers). Negated calls are
//! demanded too, after every positive literal: the grounder drops a negated
//! atom it never derived, so every negated atom asked for must have been
//! computed. Demand relations are filters: marked static, they join but
//! are never literals of the network.
//!
//! Chess's `threatened_with_capture ?player ?x ?y ?kx ?ky ?u ?v` is only
//! asked for a legal move (u, v) → (x, y) and the king's cell, not for all
//! 16^6 coordinate combinations; mummymaze's static `direction-from` only for the
//! maze's cells, not all 50^4 index combinations.
//!
//! A static relation is restricted only when no rule negates it and every
//! rule reading it is restricted or dynamic: its rules then move into the
//! dynamic fixpoint (a negation elsewhere would read it incomplete).

use super::grule::{pat_vars, GLit, GRule};
use crate::deps::RelId;
use crate::program::VarId;
use crate::reasoner::compile::Pat;

/// Rules before splitting, and what the transformation needs to know.
pub struct Input<'a> {
    /// Dynamic rules (heads not static).
    pub dynamic: Vec<GRule>,
    /// Static rules per stratum (evaluated before the dynamic fixpoint).
    pub strata: Vec<Vec<GRule>>,
    /// Relations never restricted: the game's roots, `init`, `role`.
    pub protected: &'a [RelId],
    /// If given, only these relations may be restricted.
    pub focus: Option<&'a [bool]>,
}

/// What a rule of the output is, for splitting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    Plain,
    /// Computes a demand relation (a filter: static, never instantiated).
    Demand,
    /// Its first literal is its head's demand.
    Demanded,
}

/// The transformed rules: dynamic rules (with moved static rules and demand
/// rules, flagged), the remaining static strata, and the new relations.
pub struct Output {
    pub dynamic: Vec<(GRule, Kind)>,
    pub strata: Vec<Vec<GRule>>,
}

/// A call of a restricted relation in a rule: the literal, the positions
/// bound there, and the literals evaluated before it.
struct Call {
    lit: usize,
    bound: Vec<usize>,
    prefix: Vec<usize>,
}

/// The calls of candidate relations in `rule`, in evaluation order.
fn calls(rule: &GRule, cand: &[bool], adorn: &[Vec<usize>]) -> Vec<Call> {
    let mut bound: Vec<VarId> = Vec::new();
    if cand[rule.head_rel] {
        for &k in &adorn[rule.head_rel] {
            pat_vars(&rule.head[k], &mut bound);
        }
    }
    let is_cand = |l: &GLit| matches!(l, GLit::Pos(r, _) | GLit::Neg(r, _) if cand[*r]);
    let mut order: Vec<usize> = Vec::new();
    order
        .extend((0..rule.body.len()).filter(|&i| rule.body[i].is_pos() && !is_cand(&rule.body[i])));
    order.extend((0..rule.body.len()).filter(|&i| rule.body[i].is_pos() && is_cand(&rule.body[i])));
    order.extend(
        (0..rule.body.len())
            .filter(|&i| matches!(rule.body[i], GLit::Neg(..)) && is_cand(&rule.body[i])),
    );
    let mut out = Vec::new();
    let mut done: Vec<usize> = Vec::new();
    for i in order {
        let (GLit::Pos(_, pats) | GLit::Neg(_, pats)) = &rule.body[i] else {
            continue;
        };
        if is_cand(&rule.body[i]) {
            let b: Vec<usize> = (0..pats.len())
                .filter(|&k| {
                    let mut vs = Vec::new();
                    pat_vars(&pats[k], &mut vs);
                    vs.iter().all(|v| bound.contains(v))
                })
                .collect();
            // Distincts fully bound here filter the demand too.
            let mut prefix = done.clone();
            for (j, l) in rule.body.iter().enumerate() {
                if let GLit::Distinct(..) = l {
                    let mut vs = Vec::new();
                    l.vars(&mut vs);
                    if vs.iter().all(|v| bound.contains(v)) {
                        prefix.push(j);
                    }
                }
            }
            out.push(Call {
                lit: i,
                bound: b,
                prefix,
            });
        }
        if rule.body[i].is_pos() {
            pats.iter().for_each(|p| pat_vars(p, &mut bound));
            done.push(i);
        }
    }
    out
}

/// Chooses the restricted relations and rewrites the rules.
pub fn transform(input: Input<'_>, arity: &mut Vec<usize>, is_static: &mut Vec<bool>) -> Output {
    let n = arity.len();
    let cand = candidates(&input, is_static, n);
    let adorn: Vec<Vec<usize>> = (0..n).map(|r| (0..arity[r]).collect()).collect();
    let (cand, adorn) = consistent_choice(&input, is_static, cand, adorn);
    let mut demand_rel = vec![usize::MAX; n];
    for r in 0..n {
        if cand[r] {
            demand_rel[r] = arity.len();
            arity.push(adorn[r].len());
            is_static.push(true);
        }
    }
    rewrite(&input, &cand, &adorn, &demand_rel)
}

/// Every rule of the input: the dynamic ones, then the static ones.
fn all_rules<'a>(input: &'a Input<'_>) -> impl Iterator<Item = &'a GRule> {
    input.dynamic.iter().chain(input.strata.iter().flatten())
}

/// The relations that may be restricted: those with rules, neither
/// protected nor static and negated, and in the focus if there is one.
fn candidates(input: &Input<'_>, is_static: &[bool], n: usize) -> Vec<bool> {
    let mut has_rules = vec![false; n];
    let mut negated = vec![false; n];
    for r in all_rules(input) {
        has_rules[r.head_rel] = true;
        for l in &r.body {
            if let GLit::Neg(x, _) = l {
                negated[*x] = true;
            }
        }
    }
    (0..n)
        .map(|r| {
            has_rules[r]
                && !input.protected.contains(&r)
                && !(is_static[r] && negated[r])
                && input
                    .focus
                    .is_none_or(|f| f.get(r).copied().unwrap_or(false))
        })
        .collect()
}

/// Greatest consistent choice: shrinks adornments and drops candidates
/// until every call binds its relation's adornment.
fn consistent_choice(
    input: &Input<'_>,
    is_static: &[bool],
    mut cand: Vec<bool>,
    mut adorn: Vec<Vec<usize>>,
) -> (Vec<bool>, Vec<Vec<usize>>) {
    loop {
        let mut new_adorn = adorn.clone();
        let mut new_cand = cand.clone();
        for rule in all_rules(input) {
            let active = !is_static[rule.head_rel] || cand[rule.head_rel];
            for l in &rule.body {
                if let GLit::Pos(x, _) | GLit::Neg(x, _) = l {
                    // A static relation read by a rule that stays static.
                    if !active && is_static[*x] {
                        new_cand[*x] = false;
                    }
                }
            }
            if !active {
                continue;
            }
            for c in calls(rule, &cand, &adorn) {
                let (GLit::Pos(x, _) | GLit::Neg(x, _)) = &rule.body[c.lit] else {
                    continue;
                };
                new_adorn[*x].retain(|k| c.bound.contains(k));
            }
        }
        for r in 0..cand.len() {
            if new_cand[r] && new_adorn[r].is_empty() {
                new_cand[r] = false;
            }
        }
        if new_cand == cand && new_adorn == adorn {
            return (cand, adorn);
        }
        cand = new_cand;
        adorn = new_adorn;
    }
}

/// The rules rewritten: a demand rule per call of a restricted relation,
/// each rule of a restricted relation led by its head's demand (and moved
/// from the static strata into the dynamic rules).
fn rewrite(input: &Input<'_>, cand: &[bool], adorn: &[Vec<usize>], demand_rel: &[RelId]) -> Output {
    let head_demand = |rule: &GRule| {
        let h = rule.head_rel;
        cand[h].then(|| {
            GLit::Pos(
                demand_rel[h],
                adorn[h]
                    .iter()
                    .map(|&k| rule.head[k].clone())
                    .collect::<Vec<Pat>>(),
            )
        })
    };
    let mut dynamic: Vec<(GRule, Kind)> = Vec::new();
    let mut strata: Vec<Vec<GRule>> = Vec::new();
    let moved: Vec<&GRule> = input
        .strata
        .iter()
        .flatten()
        .filter(|r| cand[r.head_rel])
        .collect();
    for rule in input.dynamic.iter().chain(moved) {
        for c in calls(rule, cand, adorn) {
            let (GLit::Pos(x, pats) | GLit::Neg(x, pats)) = &rule.body[c.lit] else {
                continue;
            };
            let mut body: Vec<GLit> = head_demand(rule).into_iter().collect();
            body.extend(c.prefix.iter().map(|&i| rule.body[i].clone()));
            dynamic.push((
                GRule {
                    head_rel: demand_rel[*x],
                    head: adorn[*x].iter().map(|&k| pats[k].clone()).collect(),
                    body,
                    num_vars: rule.num_vars,
                },
                Kind::Demand,
            ));
        }
        let mut r = rule.clone();
        let mut kind = Kind::Plain;
        if let Some(d) = head_demand(rule) {
            r.body.insert(0, d);
            kind = Kind::Demanded;
        }
        dynamic.push((r, kind));
    }
    for st in &input.strata {
        let keep: Vec<GRule> = st.iter().filter(|r| !cand[r.head_rel]).cloned().collect();
        if !keep.is_empty() {
            strata.push(keep);
        }
    }
    Output { dynamic, strata }
}
