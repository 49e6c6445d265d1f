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
pub use super::grule::{pat_vars, GLit, GRule};
use crate::deps::RelId;
use crate::program::VarId;
use crate::reasoner::compile::{Class, Compiled, Lit, Pat};
use crate::terms::{kw, Sym};
use rustc_hash::FxHashMap;

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
    /// The counting rules (`count.rs`) by their index in `rules`, with
    /// their `k`: instantiated as "at least `k` of the members".
    pub at_least: FxHashMap<usize, u32>,
    /// Recursions rewritten as folds (`fold.rs`).
    pub folds: usize,
}

/// How to ground: the default, or the second strategy tried when the
/// default runs out of atoms, literals or memory.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Strategy {
    /// Demand-driven relations (`demand.rs`).
    pub demand: bool,
    /// Split off projections of one literal before joins of equal width.
    pub project_first: bool,
    /// Without the argument-type filters (`types.rs`), for comparisons.
    pub untyped: bool,
    /// Eliminate a variable even where a negation in its bucket reads
    /// variables the bucket does not bind, guarded by the projection of a
    /// positive literal of the rest that binds them.
    pub guards: bool,
    /// Move dynamic filters into the auxiliaries that keep their variables
    /// (`push_filters`).
    pub filters: bool,
}

/// Collects the non-static rules that `legal`, `next`, `terminal`, `goal`
/// and GDL-II's `sees` depend on (the `base`/`input` declarations and unused relations are left
/// out) and splits them.
pub fn collect(c: &Compiled, strategy: Strategy, focus: Option<&[bool]>) -> RuleSet {
    let g = &c.graph;
    let roots = game_roots(c, &[]);
    let needed = g.closure(&roots);
    let n = c.num_rels();
    let mut is_static: Vec<bool> = (0..n).map(|r| c.class[r] == Class::Static).collect();
    let mut arity = c.arity.clone();
    let mut static_needed = vec![false; n];
    let mut dynamic = dynamic_rules(c, &needed, &is_static, &mut static_needed);
    let protected = protect(c, &roots, &is_static, &mut static_needed);
    // Folds (`fold.rs`); `GDLKIT_GROUND_NO_FOLDS` (native, a diagnostic)
    // keeps the recursion as written.
    let folds = if std::env::var_os("GDLKIT_GROUND_NO_FOLDS").is_none() {
        super::fold::rewrite(&mut dynamic, &protected, &mut arity, &mut is_static)
    } else {
        0
    };
    let static_roots: Vec<RelId> = (0..g.rels.len()).filter(|&r| static_needed[r]).collect();
    let strata_rules = static_rules(c, &g.closure(&static_roots));
    let (dynamic, strata_rules): (Vec<(GRule, Kind)>, _) = if strategy.demand {
        let out = super::demand::transform(
            super::demand::Input {
                dynamic,
                strata: strata_rules,
                protected: &protected,
                focus,
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
    let mut projections = Projections::default();
    let mut rels = Rels {
        does: g.id_of(kw::DOES, 2),
        legal: g.id_of(kw::LEGAL, 2),
        arity: &mut arity,
        is_static: &mut is_static,
        projections: &mut projections,
    };
    let mut rules = Vec::new();
    let mut at_least = FxHashMap::default();
    let counts = std::env::var_os("GDLKIT_GROUND_NO_COUNTS").is_none();
    for (rule, kind) in dynamic {
        // A counting rule (`count.rs`); the demand relations' own rules are
        // static and left alone. A demanded rule keeps its demand (its
        // first literal, over head variables) in the rest.
        // `GDLKIT_GROUND_NO_COUNTS` (native, a diagnostic) switches it off.
        let count = (kind != Kind::Demand && counts)
            .then(|| super::count::rewrite(&rule, rels.arity, rels.is_static))
            .flatten();
        let Some(c) = count else {
            split(rule, &mut rules, &mut rels, strategy, kind);
            continue;
        };
        split(c.members, &mut rules, &mut rels, strategy, Kind::Plain);
        at_least.insert(rules.len(), c.k);
        rules.push(c.count);
        split(c.rest, &mut rules, &mut rels, strategy, kind);
    }
    let mut static_strata = Vec::new();
    for st in strata_rules {
        let mut stratum = Vec::new();
        for rule in st {
            split(rule, &mut stratum, &mut rels, strategy, Kind::Plain);
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
        at_least,
        folds,
    }
}

/// The relations a game's play reads: `legal`, `next`, `terminal`,
/// `goal` and GDL-II's `sees`, then those of `extra` (`name`, arity) the
/// program has.
pub fn game_roots(c: &Compiled, extra: &[(Sym, usize)]) -> Vec<RelId> {
    let g = &c.graph;
    [
        (kw::LEGAL, 2),
        (kw::NEXT, 1),
        (kw::TERMINAL, 0),
        (kw::GOAL, 2),
    ]
    .iter()
    .filter_map(|&(s, a)| g.id_of(s, a))
    .chain(c.sees)
    .chain(extra.iter().filter_map(|&(s, a)| g.id_of(s, a)))
    .collect()
}

/// The rules of the `needed` relations that are not static, in stratum
/// order; marks the static relations their bodies read.
fn dynamic_rules(
    c: &Compiled,
    needed: &[bool],
    is_static: &[bool],
    static_needed: &mut [bool],
) -> Vec<GRule> {
    let mut dynamic = Vec::new();
    for st in &c.strata {
        for rb in &st.rules {
            let h = rb.head_rel;
            if h >= c.graph.rels.len() || !needed[h] || is_static[h] {
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
    dynamic
}

/// The initial state and the roles come from static relations too, and so
/// may legal, next, goal or terminal: marks them needed. Returns the
/// relations the demand strategy must keep (`roots`, `init`, `role`).
fn protect(
    c: &Compiled,
    roots: &[RelId],
    is_static: &[bool],
    static_needed: &mut [bool],
) -> Vec<RelId> {
    let mut protected = roots.to_vec();
    for &r in roots {
        if is_static[r] {
            static_needed[r] = true;
        }
    }
    for (s, a) in [(kw::INIT, 1), (kw::ROLE, 1)] {
        if let Some(r) = c.graph.id_of(s, a) {
            static_needed[r] = true;
            protected.push(r);
        }
    }
    protected
}

/// The rules of the `needed` static relations, per stratum.
fn static_rules(c: &Compiled, needed: &[bool]) -> Vec<Vec<GRule>> {
    let mut strata_rules: Vec<Vec<GRule>> = Vec::new();
    for st in &c.strata {
        let mut stratum = Vec::new();
        for rb in &st.rules {
            let h = rb.head_rel;
            if h >= c.graph.rels.len() || !needed[h] || c.class[h] != Class::Static {
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
    strata_rules
}

pub(super) fn lits_of(body: &[Lit]) -> Vec<GLit> {
    body.iter()
        .map(|l| match l {
            Lit::Pos { rel, pats, .. } => GLit::Pos(*rel, pats.clone()),
            Lit::Neg { rel, pats, .. } => GLit::Neg(*rel, pats.clone()),
            Lit::Distinct(a, b, _) => GLit::Distinct(a.clone(), b.clone()),
        })
        .collect()
}

/// Projections of demand relations already made: (demand relation, the
/// positions kept) → the projection's relation. Every auxiliary of a
/// demanded rule joins such a projection; without sharing, chess's demand
/// strategy made ~20 copies of 150k–230k-row demands (a quarter of its 4M
/// atoms).
#[derive(Default)]
struct Projections(rustc_hash::FxHashMap<(RelId, Vec<usize>), RelId>);

/// The relation tables `split` adds auxiliaries to.
struct Rels<'a> {
    /// `does` and `legal`, whose rules [`push_filters`] leaves alone.
    does: Option<RelId>,
    legal: Option<RelId>,
    arity: &'a mut Vec<usize>,
    is_static: &'a mut Vec<bool>,
    projections: &'a mut Projections,
}

impl Rels<'_> {
    /// A relation holding the demand `d` projected on the variables `shared`
    /// (in that order): `d` itself, or a projection shared with every other
    /// rule asking for the same one. `None` if a new rule must compute it
    /// (the demand's arguments are not distinct variables).
    fn projection(&mut self, d: &GLit, shared: &[VarId]) -> Option<(RelId, bool)> {
        let GLit::Pos(rel, pats) = d else {
            return None;
        };
        let mut vars: Vec<VarId> = Vec::new();
        for p in pats {
            match p {
                Pat::Var(v) if !vars.contains(v) => vars.push(*v),
                _ => return None,
            }
        }
        let positions: Vec<usize> = shared
            .iter()
            .map(|v| vars.iter().position(|w| w == v))
            .collect::<Option<_>>()?;
        if positions.iter().copied().eq(0..vars.len()) {
            return Some((*rel, false));
        }
        let key = (*rel, positions);
        if let Some(&r) = self.projections.0.get(&key) {
            return Some((r, false));
        }
        let r = self.arity.len();
        self.arity.push(shared.len());
        self.is_static.push(true);
        self.projections.0.insert(key, r);
        Some((r, true))
    }
}

/// Splits one plain rule into `out`, its auxiliaries new relations of
/// `arity` and `is_static` (for rules made outside [`collect`]: types.rs).
pub fn split_plain(
    rule: GRule,
    out: &mut Vec<GRule>,
    arity: &mut Vec<usize>,
    is_static: &mut Vec<bool>,
) {
    let mut projections = Projections::default();
    let mut rels = Rels {
        does: None,
        legal: None,
        arity,
        is_static,
        projections: &mut projections,
    };
    split(rule, out, &mut rels, Strategy::default(), Kind::Plain);
}

/// Splits one rule by bucket elimination and appends the resulting rules.
/// A demand rule and its auxiliaries are static: they restrict joins but
/// are never literals of the network. In a rule whose first literal is its
/// head's demand, each auxiliary also joins the demand's projection on the
/// variables they share (a filter: the rule drops the other rows anyway).
fn split(rule: GRule, out: &mut Vec<GRule>, rels: &mut Rels<'_>, strategy: Strategy, kind: Kind) {
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
    if !filter && GROUND_GROUPS {
        group_ground_literals(&mut body, rels, out, rule.num_vars);
    }
    loop {
        let npos = body.iter().filter(|l| l.is_pos()).count();
        // Out of time (wide rules make this cubic): leave the rest unsplit;
        // the grounder stops at its first time check.
        if npos < 2 || crate::job::check().is_err() {
            break;
        }
        let Some((mut bucket, mut keep, guard)) =
            best_bucket(&body, &head_vars, npos, project_first, strategy.guards)
        else {
            break;
        };
        if !filter && strategy.filters && Some(rule.head_rel) != rels.legal {
            push_filters(&body, &mut bucket, &keep, &head_vars, rels);
        }
        keep.sort_unstable();
        let aux_rel = rels.arity.len();
        rels.arity.push(keep.len());
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
                GLit::Pos(r, _) | GLit::Neg(r, _) => rels.is_static[*r],
                GLit::Distinct(..) => true,
            });
        rels.is_static.push(stat);
        let head: Vec<Pat> = keep.iter().map(|&v| Pat::Var(v)).collect();
        if let Some((lit, vars)) = guard {
            aux_body.push(guard_literal(lit, &vars, rels, out, rule.num_vars));
        }
        if let Some(d) = &demand {
            join_demand(d, &demand_vars, &mut aux_body, rels, out, rule.num_vars);
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

/// Moves into `bucket` each positive dynamic literal of the rest whose
/// variables its auxiliary keeps and the rest still reads: the conjunction
/// and the variables kept are the same, but the auxiliary's atoms then
/// hold only where the literal does, so fewer of them change. racer's
/// "positions reachable with speed `ndx`" flipped for every speed as the
/// car moved, though only three speeds are legal from its velocity;
/// filtered by that velocity, three flip. (Moving a literal whose
/// variable nothing else reads would eliminate that variable in the
/// auxiliary instead, another join: kalaha's sowing cost 51% more; and
/// an auxiliary read by the head alone gains nothing.) Not in `legal`
/// rules: their shared literal (whose turn it is) becomes a mask there
/// (`legal_gates`), where pushed into auxiliaries it would change their
/// counts at every step (checkers: 19% fewer playouts).
fn push_filters(
    body: &[GLit],
    bucket: &mut Vec<usize>,
    keep: &[VarId],
    head_vars: &[VarId],
    rels: &Rels<'_>,
) {
    let vars_of = |l: &GLit| {
        let mut v = Vec::new();
        l.vars(&mut v);
        v
    };
    // A `does` input guards its ANDs (`guards.rs`): a filter there is one
    // more count to update at every step (kalaha's sowing: 28% more work).
    let over_does = |i: &usize| matches!(&body[*i], GLit::Pos(r, _) if Some(*r) == rels.does);
    if bucket.iter().any(over_does) {
        return;
    }
    let mut moved = Vec::new();
    for i in 0..body.len() {
        if bucket.contains(&i) || !matches!(&body[i], GLit::Pos(r, _) if !rels.is_static[*r]) {
            continue;
        }
        let v = vars_of(&body[i]);
        let read_elsewhere = |w: &VarId| {
            head_vars.contains(w)
                || (0..body.len()).any(|j| {
                    j != i
                        && !bucket.contains(&j)
                        && !moved.contains(&j)
                        && vars_of(&body[j]).contains(w)
                })
        };
        // Over fewer variables than the auxiliary: a literal over all of
        // them would only make its atoms ANDs of two (connectFour's lines:
        // 3× the nodes). And over two or more: a literal over one is
        // mostly whose turn it is, true for one of few values, which
        // filters little and changes at every step (dotsAndBoxes: 39%
        // fewer playouts).
        if v.len() >= 2
            && v.len() < keep.len()
            && v.iter().all(|w| keep.contains(w) && read_elsewhere(w))
        {
            moved.push(i);
        }
    }
    // Only where the auxiliary is joined with another dynamic literal: an
    // auxiliary read by the head alone changes as often either way.
    let joined = (0..body.len()).any(|j| {
        !bucket.contains(&j)
            && !moved.contains(&j)
            && matches!(&body[j], GLit::Pos(r, _) if !rels.is_static[*r])
    });
    if joined {
        bucket.extend(moved);
    }
}

/// Whether [`group_ground_literals`] runs; a switch for measuring.
const GROUND_GROUPS: bool = true;

/// Moves the dynamic literals without variables of a body that has others
/// into an auxiliary of arity 0, when there are two or more of them and
/// one is positive. Kalaha's `(does north noop) ∧ (does south noop) ∧
/// (true (pit ?p ?n))` made each input feed all 2,424 frame ANDs and
/// change their counts every other step; the pair is now one gate, which
/// changes when both pass and can guard those ANDs.
fn group_ground_literals(
    body: &mut Vec<GLit>,
    rels: &mut Rels<'_>,
    out: &mut Vec<GRule>,
    num_vars: usize,
) {
    let ground = |l: &GLit| {
        let mut v = Vec::new();
        l.vars(&mut v);
        v.is_empty()
            && match l {
                GLit::Pos(r, _) | GLit::Neg(r, _) => !rels.is_static[*r],
                GLit::Distinct(..) => false,
            }
    };
    let grouped = body.iter().filter(|l| ground(l)).count();
    let positive = body.iter().any(|l| l.is_pos() && ground(l));
    if grouped < 2 || !positive || grouped == body.len() {
        return;
    }
    let (group, rest): (Vec<GLit>, Vec<GLit>) = body.drain(..).partition(|l| ground(l));
    let aux = rels.arity.len();
    rels.arity.push(0);
    rels.is_static.push(false);
    out.push(GRule {
        head_rel: aux,
        head: Vec::new(),
        body: group,
        num_vars,
    });
    body.push(GLit::Pos(aux, Vec::new()));
    body.extend(rest);
}

/// A split: the body literals split off, the variables their auxiliary
/// keeps, and the guard that lets a negation go with them.
type Bucket = (Vec<usize>, Vec<VarId>, Option<Guard>);

/// The literals to split off next (the best variable elimination, see
/// [`Score`]) and the variables their auxiliary keeps; `None` if every
/// elimination would take all or none of the `npos` positive literals.
fn best_bucket(
    body: &[GLit],
    head_vars: &[VarId],
    npos: usize,
    project_first: bool,
    guards: bool,
) -> Option<Bucket> {
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
    let mut best: Option<(Score, Bucket)> = None;
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
        // Negations and distincts in the bucket must be bound by it, or
        // (with `guards`) by one positive literal of the rest.
        let unbound: Vec<VarId> = all_vars
            .iter()
            .copied()
            .filter(|w| !pos_vars.contains(w))
            .collect();
        let mut guard = None;
        if !unbound.is_empty() {
            let g = (0..body.len()).find(|&j| {
                !bucket.contains(&j)
                    && body[j].is_pos()
                    && unbound.iter().all(|w| lit_vars[j].contains(w))
            });
            match g {
                Some(j) if guards => {
                    let vars = lit_vars[j]
                        .iter()
                        .copied()
                        .filter(|w| all_vars.contains(w))
                        .collect();
                    guard = Some((body[j].clone(), vars));
                }
                _ => continue,
            }
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
        if best.as_ref().is_none_or(|(s, _)| score < *s) {
            best = Some((score, (bucket, keep, guard)));
        }
    }
    best.map(|(_, split)| split)
}

/// A literal of the rest of a body and the variables of a bucket it binds.
type Guard = (GLit, Vec<VarId>);

/// The guard of an auxiliary: `lit` projected on `vars` through a new
/// static relation (a filter, never a literal of the network: an
/// auxiliary atom is only read where `lit` holds).
fn guard_literal(
    lit: GLit,
    vars: &[VarId],
    rels: &mut Rels<'_>,
    out: &mut Vec<GRule>,
    num_vars: usize,
) -> GLit {
    let pats: Vec<Pat> = vars.iter().map(|&v| Pat::Var(v)).collect();
    let g = rels.arity.len();
    rels.arity.push(vars.len());
    rels.is_static.push(true);
    out.push(GRule {
        head_rel: g,
        head: pats.clone(),
        body: vec![lit],
        num_vars,
    });
    GLit::Pos(g, pats)
}

/// Joins an auxiliary body of a demanded rule with the demand `d`
/// projected on the variables they share, if any (adding the projection's
/// rule to `out` when it is new).
fn join_demand(
    d: &GLit,
    demand_vars: &[VarId],
    aux_body: &mut Vec<GLit>,
    rels: &mut Rels<'_>,
    out: &mut Vec<GRule>,
    num_vars: usize,
) {
    let mut vs = Vec::new();
    aux_body.iter().for_each(|l| l.vars(&mut vs));
    let mut shared: Vec<VarId> = demand_vars
        .iter()
        .copied()
        .filter(|v| vs.contains(v))
        .collect();
    shared.sort_unstable();
    if shared.is_empty() {
        return;
    }
    let pats: Vec<Pat> = shared.iter().map(|&v| Pat::Var(v)).collect();
    let (proj, new) = rels.projection(d, &shared).unwrap_or_else(|| {
        rels.arity.push(shared.len());
        rels.is_static.push(true);
        (rels.arity.len() - 1, true)
    });
    if new {
        out.push(GRule {
            head_rel: proj,
            head: pats.clone(),
            body: vec![d.clone()],
            num_vars,
        });
    }
    aux_body.push(GLit::Pos(proj, pats));
}

/// (neighbours, joins, -eliminated, literals) of a variable elimination: smaller is better.
type Score = (usize, bool, isize, usize);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reasoner::{Interpreter, StateMachine};

    /// `near` is asked with both arguments bound; each of its two rules
    /// splits off an auxiliary that shares only `?b` with the demand.
    const GAME: &str = "(role p) (init (at 1)) (num 1) (num 2) (num 3)
        (link 1 2) (link 2 3) (link 3 1)
        (<= (near ?a ?b) (true (at ?x)) (link ?a ?x) (link ?x ?y) (link ?y ?b))
        (<= (near ?a ?b) (true (at ?x)) (link ?x ?a) (link ?y ?x) (link ?b ?y))
        (<= (legal p (go ?b)) (true (at ?a)) (num ?b) (not (near ?a ?b)))
        (<= (next (at ?b)) (does p (go ?b)))
        (<= terminal (true (at 3)))
        (<= (goal p 100) (true (at 3))) (<= (goal p 0) (not (true (at 3))))";

    #[test]
    fn demanded_rules_share_one_projection_of_their_demand() {
        let program = crate::parse_program(GAME);
        let it = Interpreter::new(&program).expect("valid game");
        let c = it.compiled();
        let near = it.terms().symbols.get("near").expect("symbol");
        let near = c.graph.id_of(near, 2).expect("near");
        let demand = Strategy {
            demand: true,
            project_first: true,
            ..Strategy::default()
        };
        let rs = collect(c, demand, None);
        let near_rules: Vec<&GRule> = rs.rules.iter().filter(|r| r.head_rel == near).collect();
        assert_eq!(near_rules.len(), 2, "both rules of near kept");
        // Every rule of `near` starts with its demand.
        let GLit::Pos(d, _) = &near_rules[0].body[0] else {
            panic!("near's rule does not start with its demand");
        };
        assert!(rs.is_static[*d] && *d >= c.num_rels());
        // Projections of the demand: one relation, computed by one rule,
        // and the demand itself where all its variables are kept.
        let projections: Vec<&GRule> = rs
            .rules
            .iter()
            .filter(|r| matches!(&r.body[..], [GLit::Pos(x, _)] if x == d))
            .collect();
        assert_eq!(projections.len(), 1, "one projection rule of near's demand");
        let p = projections[0].head_rel;
        let readers = rs
            .rules
            .iter()
            .filter(|r| {
                r.body
                    .iter()
                    .any(|l| matches!(l, GLit::Pos(x, _) if *x == p))
            })
            .count();
        assert_eq!(readers, 2, "both auxiliaries read the shared projection");
        // And the demand-driven grounding answers as the interpreter.
        let gp = crate::ground::ground_program_with_strategy(
            &program,
            crate::ground::Budget::default(),
            demand,
        )
        .expect("grounds");
        let legal = gp.rel_legal.expect("legal");
        let mut fast: Vec<String> = gp.rels[legal]
            .rows
            .iter()
            .map(|&a| gp.store.display(gp.atoms.args(a)[1]))
            .collect();
        fast.sort();
        // Reachable legal moves are a superset of those in the initial state.
        let mut m = Interpreter::new(&program).expect("valid");
        let s0 = m.initial_state().expect("init");
        let moves = m.all_legal_moves(&s0).expect("legal");
        assert!(!moves[0].is_empty());
        for mv in &moves[0] {
            assert!(fast.contains(&m.terms().display(*mv)), "{fast:?}");
        }
    }
}
