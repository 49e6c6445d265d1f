//! The rules to ground, taken from the interpreter's compiled program (so
//! `or` expansion, `(true ...)` tables and safety are shared with the
//! reference), and split so that no rule instance joins unrelated variables.
//!
//! Splitting is bucket (variable) elimination: a body variable that is not in
//! the head is eliminated by moving every literal that mentions it into an
//! auxiliary rule whose head keeps only the variables the rest of the body
//! (or the head) still needs. Its instances are then projected: the
//! auxiliary atom is true if *some* instance of the bucket is. For chess's
//! interposition rule this turns millions of instances (every legal move ×
//! every line of check) into a few thousand (squares where a check can be
//! blocked, then moves onto those squares).

use super::demand::Kind;
use crate::deps::RelId;
use crate::program::VarId;
use crate::reasoner::compile::{Class, Compiled, Lit, Pat};
use crate::terms::kw;

/// A body literal of a rule to ground.
#[derive(Clone, Debug)]
pub enum GLit {
    Pos(RelId, Vec<Pat>),
    Neg(RelId, Vec<Pat>),
    Distinct(Pat, Pat),
}

impl GLit {
    pub fn vars(&self, out: &mut Vec<VarId>) {
        let mut add = |p: &Pat| pat_vars(p, out);
        match self {
            GLit::Pos(_, ps) | GLit::Neg(_, ps) => ps.iter().for_each(&mut add),
            GLit::Distinct(a, b) => {
                add(a);
                add(b);
            }
        }
    }
    pub fn is_pos(&self) -> bool {
        matches!(self, GLit::Pos(..))
    }
}

pub fn pat_vars(p: &Pat, out: &mut Vec<VarId>) {
    match p {
        Pat::Var(v) => {
            if !out.contains(v) {
                out.push(*v)
            }
        }
        Pat::Const(_) => {}
        Pat::App(_, args) => args.iter().for_each(|a| pat_vars(a, out)),
    }
}

/// A rule of the ground program's source: `head_rel(head) :- body`.
#[derive(Clone, Debug)]
pub struct GRule {
    pub head_rel: RelId,
    pub head: Vec<Pat>,
    pub body: Vec<GLit>,
    pub num_vars: usize,
}

/// The rules to ground and what is known about their relations.
pub struct RuleSet {
    pub rules: Vec<GRule>,
    /// Arity of each relation (compiled relations first, then auxiliaries).
    pub arity: Vec<usize>,
    /// Static: its rows are exact and known before grounding (the
    /// interpreter's static relations, and auxiliaries over them only).
    pub is_static: Vec<bool>,
    /// The rules of the static relations needed, per stratum in evaluation
    /// order (each evaluated to its fixpoint before the next).
    pub static_strata: Vec<Vec<GRule>>,
    /// Number of auxiliary relations created by splitting.
    pub aux: usize,
}

/// How to ground: the default, or the second strategy tried when the
/// default runs out of atoms, literals or memory.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Strategy {
    /// Demand-driven relations (`demand.rs`).
    pub demand: bool,
    /// Split off projections of one literal before joins of equal width.
    pub project_first: bool,
}

/// Collects the non-static rules that `legal`, `next`, `terminal` and `goal`
/// depend on (the `base`/`input` declarations and unused relations are left
/// out) and splits them.
pub fn collect(c: &Compiled, strategy: Strategy) -> RuleSet {
    let g = &c.graph;
    let roots: Vec<RelId> = [
        (kw::LEGAL, 2),
        (kw::NEXT, 1),
        (kw::TERMINAL, 0),
        (kw::GOAL, 2),
    ]
    .iter()
    .filter_map(|&(s, a)| g.id_of(s, a))
    .collect();
    let needed = g.closure(&roots);
    let n = c.num_rels();
    let mut is_static: Vec<bool> = (0..n).map(|r| c.class[r] == Class::Static).collect();
    let mut arity = c.arity.clone();
    let mut dynamic = Vec::new();
    let mut static_needed = vec![false; n];
    for st in &c.strata {
        for rb in &st.rules {
            let h = rb.head_rel;
            if h >= g.rels.len() || !needed[h] || is_static[h] {
                continue;
            }
            for body in &rb.bodies {
                let lits = lits_of(body);
                for l in &lits {
                    if let GLit::Pos(r, _) | GLit::Neg(r, _) = l {
                        if is_static[*r] {
                            static_needed[*r] = true;
                        }
                    }
                }
                dynamic.push(GRule {
                    head_rel: h,
                    head: rb.head.to_vec(),
                    body: lits,
                    num_vars: rb.num_vars,
                });
            }
        }
    }
    // The initial state and the roles come from static relations too, and
    // so may legal, next, goal or terminal.
    let mut protected = roots.clone();
    for &r in &roots {
        if is_static[r] {
            static_needed[r] = true;
        }
    }
    for (s, a) in [(kw::INIT, 1), (kw::ROLE, 1)] {
        if let Some(r) = g.id_of(s, a) {
            static_needed[r] = true;
            protected.push(r);
        }
    }
    let static_roots: Vec<RelId> = (0..g.rels.len()).filter(|&r| static_needed[r]).collect();
    let needed = g.closure(&static_roots);
    let mut strata_rules: Vec<Vec<GRule>> = Vec::new();
    for st in &c.strata {
        let mut stratum = Vec::new();
        for rb in &st.rules {
            let h = rb.head_rel;
            if h >= g.rels.len() || !needed[h] || c.class[h] != Class::Static {
                continue;
            }
            for body in &rb.bodies {
                stratum.push(GRule {
                    head_rel: h,
                    head: rb.head.to_vec(),
                    body: lits_of(body),
                    num_vars: rb.num_vars,
                });
            }
        }
        strata_rules.push(stratum);
    }
    let (dynamic, strata_rules): (Vec<(GRule, Kind)>, _) = if strategy.demand {
        let out = super::demand::transform(
            super::demand::Input {
                dynamic,
                strata: strata_rules,
                protected: &protected,
            },
            &mut arity,
            &mut is_static,
        );
        (out.dynamic, out.strata)
    } else {
        (
            dynamic.into_iter().map(|r| (r, Kind::Plain)).collect(),
            strata_rules,
        )
    };
    let mut rules = Vec::new();
    for (rule, kind) in dynamic {
        split(rule, &mut rules, &mut arity, &mut is_static, strategy, kind);
    }
    let mut static_strata = Vec::new();
    for st in strata_rules {
        let mut stratum = Vec::new();
        for rule in st {
            split(
                rule,
                &mut stratum,
                &mut arity,
                &mut is_static,
                strategy,
                Kind::Plain,
            );
        }
        if !stratum.is_empty() {
            static_strata.push(stratum);
        }
    }
    let aux = arity.len() - n;
    RuleSet {
        rules,
        arity,
        is_static,
        static_strata,
        aux,
    }
}

fn lits_of(body: &[Lit]) -> Vec<GLit> {
    body.iter()
        .map(|l| match l {
            Lit::Pos { rel, pats, .. } => GLit::Pos(*rel, pats.clone()),
            Lit::Neg { rel, pats, .. } => GLit::Neg(*rel, pats.clone()),
            Lit::Distinct(a, b, _) => GLit::Distinct(a.clone(), b.clone()),
        })
        .collect()
}

/// Splits one rule by bucket elimination and appends the resulting rules.
/// A demand rule and its auxiliaries are static: they restrict joins but
/// are never literals of the network. In a rule whose first literal is its
/// head's demand, each auxiliary also joins the demand's projection on the
/// variables they share (a filter: the rule drops the other rows anyway).
fn split(
    rule: GRule,
    out: &mut Vec<GRule>,
    arity: &mut Vec<usize>,
    is_static: &mut Vec<bool>,
    strategy: Strategy,
    kind: Kind,
) {
    let filter = kind == Kind::Demand;
    let demand = (kind == Kind::Demanded).then(|| rule.body[0].clone());
    let mut demand_vars = Vec::new();
    if let Some(d) = &demand {
        d.vars(&mut demand_vars);
    }
    let project_first = strategy.project_first;
    let mut head_vars = Vec::new();
    rule.head.iter().for_each(|p| pat_vars(p, &mut head_vars));
    let mut body = rule.body;
    loop {
        let npos = body.iter().filter(|l| l.is_pos()).count();
        // Out of time (wide rules make this cubic): leave the rest unsplit;
        // the grounder stops at its first time check.
        if npos < 2 || crate::job::check().is_err() {
            break;
        }
        let lit_vars: Vec<Vec<VarId>> = body
            .iter()
            .map(|l| {
                let mut v = Vec::new();
                l.vars(&mut v);
                v
            })
            .collect();
        let mut candidates: Vec<VarId> = lit_vars
            .iter()
            .flatten()
            .copied()
            .filter(|v| !head_vars.contains(v))
            .collect();
        candidates.sort_unstable();
        candidates.dedup();
        // (neighbours, -eliminated, literals, var) — smaller is better.
        let mut best: Option<(Score, Vec<usize>, Vec<VarId>)> = None;
        for &v in &candidates {
            let bucket: Vec<usize> = (0..body.len())
                .filter(|&i| lit_vars[i].contains(&v))
                .collect();
            let bpos = bucket.iter().filter(|&&i| body[i].is_pos()).count();
            if bpos == 0 || bpos == npos {
                continue;
            }
            let mut pos_vars = Vec::new();
            let mut all_vars = Vec::new();
            for &i in &bucket {
                for &w in &lit_vars[i] {
                    if body[i].is_pos() && !pos_vars.contains(&w) {
                        pos_vars.push(w);
                    }
                    if !all_vars.contains(&w) {
                        all_vars.push(w);
                    }
                }
            }
            // Negations and distincts in the bucket must be bound by it.
            if all_vars.iter().any(|w| !pos_vars.contains(w)) {
                continue;
            }
            let outside: Vec<VarId> = (0..body.len())
                .filter(|i| !bucket.contains(i))
                .flat_map(|i| lit_vars[i].iter().copied())
                .collect();
            let keep: Vec<VarId> = all_vars
                .iter()
                .copied()
                .filter(|w| head_vars.contains(w) || outside.contains(w))
                .collect();
            let elim = all_vars.len() - keep.len();
            // A projection (one literal alone) never multiplies rows: with
            // `project_first` it goes before a join of the same width.
            let joins = project_first && bucket.len() > 1;
            let score = (keep.len(), joins, -(elim as isize), bucket.len());
            if best.as_ref().is_none_or(|(s, _, _)| score < *s) {
                best = Some((score, bucket, keep));
            }
        }
        let Some((_, bucket, mut keep)) = best else {
            break;
        };
        keep.sort_unstable();
        let aux_rel = arity.len();
        arity.push(keep.len());
        let mut aux_body = Vec::new();
        let mut rest = Vec::new();
        for (i, l) in body.into_iter().enumerate() {
            if bucket.contains(&i) {
                aux_body.push(l);
            } else {
                rest.push(l);
            }
        }
        let stat = filter
            || aux_body.iter().all(|l| match l {
                GLit::Pos(r, _) | GLit::Neg(r, _) => is_static[*r],
                GLit::Distinct(..) => true,
            });
        is_static.push(stat);
        let head: Vec<Pat> = keep.iter().map(|&v| Pat::Var(v)).collect();
        if let Some(d) = &demand {
            let mut vs = Vec::new();
            aux_body.iter().for_each(|l| l.vars(&mut vs));
            let mut shared: Vec<VarId> = demand_vars
                .iter()
                .copied()
                .filter(|v| vs.contains(v))
                .collect();
            shared.sort_unstable();
            if !shared.is_empty() {
                let proj = arity.len();
                arity.push(shared.len());
                is_static.push(true);
                let pats: Vec<Pat> = shared.iter().map(|&v| Pat::Var(v)).collect();
                out.push(GRule {
                    head_rel: proj,
                    head: pats.clone(),
                    body: vec![d.clone()],
                    num_vars: rule.num_vars,
                });
                aux_body.push(GLit::Pos(proj, pats));
            }
        }
        out.push(GRule {
            head_rel: aux_rel,
            head: head.clone(),
            body: aux_body,
            num_vars: rule.num_vars,
        });
        rest.push(GLit::Pos(aux_rel, head));
        body = rest;
    }
    out.push(GRule {
        head_rel: rule.head_rel,
        head: rule.head,
        body,
        num_vars: rule.num_vars,
    });
}

/// (neighbours, joins, -eliminated, literals) of a variable elimination: smaller is better.
type Score = (usize, bool, isize, usize);
