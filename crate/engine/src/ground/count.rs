//! Counting rules: a body that asks for `k` pairwise distinct values of the
//! same condition, as crisscross's "four of my stones are stuck":
//!
//! ```text
//! (<= (legal ?p noop) (true (control ?p))
//!     (true (cell ?b1 ?p)) (stuck ?b1 ?p) ... (true (cell ?b4 ?p)) (stuck ?b4 ?p)
//!     (distinct ?b1 ?b2) ... (distinct ?b3 ?b4))
//! ```
//!
//! Joined as written, every ordered choice of four cells is an instance
//! (20 · 19 · 18 · 17 per role), and each changed cell touches thousands of
//! them. The rule holds exactly when at least `k` values `b` satisfy the
//! condition, so it is rewritten as
//!
//! ```text
//! M(b, Y)  :- condition(b, Y)           (the members, a plain rule)
//! N(Y)     :- at least k of M(·, Y)     (one threshold gate per Y)
//! head     :- rest, N(Y)
//! ```
//!
//! where `Y` are the condition's variables shared with the rest of the rule.
//! The network's gates are threshold gates already (`network.rs`): `N(Y)`
//! is one gate of threshold `k` over its members. In the relaxed fixpoint
//! `N`'s rule runs as `N(Y) :- M(b, Y)` (at least one), an
//! over-approximation like the fixpoint's others.

use super::grule::{pat_vars, GLit, GRule};
use crate::deps::RelId;
use crate::program::VarId;
use crate::reasoner::compile::Pat;
use rustc_hash::FxHashMap;

/// A counting rule split in three (see the module's comment).
pub struct Rewrite {
    /// `M(b, Y) :- condition(b, Y)`.
    pub members: GRule,
    /// `N(Y) :- M(b, Y)`: instantiated as "at least `k`" by
    /// `Grounder::run_count`.
    pub count: GRule,
    /// The original head over the rest of the body and `N(Y)`.
    pub rest: GRule,
    pub k: u32,
}

/// The rewrite of `rule` if it is a counting rule: `k ≥ 2` variables, not
/// in the head, pairwise distinct, each under the same condition (the same
/// literals up to renaming it and the condition's own variables), no
/// literal but those `distinct`s joining two of them, and a condition that
/// reads a dynamic relation. New relations are appended to `arity` and
/// `is_static`.
pub fn rewrite(rule: &GRule, arity: &mut Vec<usize>, is_static: &mut Vec<bool>) -> Option<Rewrite> {
    let mut head_vars = Vec::new();
    rule.head.iter().for_each(|p| pat_vars(p, &mut head_vars));
    let (counted, pairs) = distinct_clique(&rule.body, &head_vars)?;
    let lits_of = |v: VarId| -> Vec<usize> {
        (0..rule.body.len())
            .filter(|j| !pairs.contains(j) && vars_of(&rule.body[*j]).contains(&v))
            .collect()
    };
    let buckets: Vec<Vec<usize>> = counted.iter().map(|&v| lits_of(v)).collect();
    let mut used = vec![false; rule.body.len()];
    for &j in buckets.iter().flatten() {
        if std::mem::replace(&mut used[j], true) {
            return None; // a literal joins two of the counted variables
        }
    }
    pairs.iter().for_each(|&j| used[j] = true);
    // The variables of a bucket seen outside it: the head's, the rest's
    // and the other buckets'.
    let outside = |i: usize| -> Vec<VarId> {
        let mut vs = head_vars.clone();
        for (j, l) in rule.body.iter().enumerate() {
            if !buckets[i].contains(&j) && !pairs.contains(&j) {
                l.vars(&mut vs);
            }
        }
        vs
    };
    let first = canonical(rule, &buckets[0], counted[0], &outside(0));
    for i in 1..counted.len() {
        if canonical(rule, &buckets[i], counted[i], &outside(i)) != first {
            return None;
        }
    }
    let cond: Vec<GLit> = buckets[0].iter().map(|&j| rule.body[j].clone()).collect();
    let outside0 = outside(0);
    let mut shared: Vec<VarId> = Vec::new();
    cond.iter().for_each(|l| l.vars(&mut shared));
    shared.retain(|v| outside0.contains(v));
    // `M`'s head must be bound by the condition's positive literals.
    let mut bound = Vec::new();
    cond.iter()
        .filter(|l| l.is_pos())
        .for_each(|l| l.vars(&mut bound));
    let dynamic = cond.iter().any(|l| match l {
        GLit::Pos(r, _) | GLit::Neg(r, _) => !is_static[*r],
        GLit::Distinct(..) => false,
    });
    if !dynamic || !bound.contains(&counted[0]) || shared.iter().any(|v| !bound.contains(v)) {
        return None;
    }
    let mut new_rel = |n: usize| {
        arity.push(n);
        is_static.push(false);
        arity.len() - 1
    };
    let (m_rel, n_rel) = (new_rel(shared.len() + 1), new_rel(shared.len()));
    let y: Vec<Pat> = shared.iter().map(|&v| Pat::Var(v)).collect();
    let m_head: Vec<Pat> = std::iter::once(Pat::Var(counted[0]))
        .chain(y.clone())
        .collect();
    let mut rest_body: Vec<GLit> = (0..rule.body.len())
        .filter(|&j| !used[j])
        .map(|j| rule.body[j].clone())
        .collect();
    rest_body.push(GLit::Pos(n_rel, y.clone()));
    let with = |head_rel: RelId, head: Vec<Pat>, body: Vec<GLit>| GRule {
        head_rel,
        head,
        body,
        num_vars: rule.num_vars,
    };
    Some(Rewrite {
        members: with(m_rel, m_head.clone(), cond),
        count: with(n_rel, y, vec![GLit::Pos(m_rel, m_head)]),
        rest: with(rule.head_rel, rule.head.clone(), rest_body),
        k: counted.len() as u32,
    })
}

fn vars_of(l: &GLit) -> Vec<VarId> {
    let mut vs = Vec::new();
    l.vars(&mut vs);
    vs
}

/// The variables (not in the head) that `distinct` literals between two
/// variables make pairwise distinct, and those literals; `None` unless
/// there are at least two and every pair has its `distinct`.
fn distinct_clique(body: &[GLit], head_vars: &[VarId]) -> Option<(Vec<VarId>, Vec<usize>)> {
    let mut vars: Vec<VarId> = Vec::new();
    let mut pairs = Vec::new();
    let mut edges = Vec::new();
    for (j, l) in body.iter().enumerate() {
        if let GLit::Distinct(Pat::Var(a), Pat::Var(b)) = l {
            if a != b && !head_vars.contains(a) && !head_vars.contains(b) {
                for v in [*a, *b] {
                    if !vars.contains(&v) {
                        vars.push(v);
                    }
                }
                pairs.push(j);
                edges.push((*a.min(b), *a.max(b)));
            }
        }
    }
    edges.sort_unstable();
    edges.dedup();
    let n = vars.len();
    (n >= 2 && edges.len() == n * (n - 1) / 2).then_some((vars, pairs))
}

/// The literals `lits` of `rule` with `v` and the bucket's own variables
/// renamed in order of appearance (the variables in `outside` kept), as
/// text: two buckets are the same condition when these agree.
fn canonical(rule: &GRule, lits: &[usize], v: VarId, outside: &[VarId]) -> String {
    let mut names: FxHashMap<VarId, usize> = FxHashMap::default();
    names.insert(v, 0);
    let mut name = |w: VarId| {
        if outside.contains(&w) && w != v {
            format!("y{w}")
        } else {
            let next = names.len();
            format!("x{}", names.entry(w).or_insert(next))
        }
    };
    let mut out = String::new();
    for &j in lits {
        out.push_str(&text(&rule.body[j], &mut name));
        out.push(';');
    }
    out
}

/// A literal as text with its variables named by `name`.
fn text(l: &GLit, name: &mut dyn FnMut(VarId) -> String) -> String {
    fn pat(p: &Pat, name: &mut dyn FnMut(VarId) -> String) -> String {
        match p {
            Pat::Var(w) => name(*w),
            Pat::Const(t) => format!("{t:?}"),
            Pat::App(f, args) => {
                let inner: Vec<String> = args.iter().map(|a| pat(a, name)).collect();
                format!("{f:?}({})", inner.join(","))
            }
        }
    }
    let mut pats = |ps: &[Pat]| -> String {
        let texts: Vec<String> = ps.iter().map(|p| pat(p, name)).collect();
        texts.join(",")
    };
    match l {
        GLit::Pos(r, ps) => format!("+{r}({})", pats(ps)),
        GLit::Neg(r, ps) => format!("-{r}({})", pats(ps)),
        GLit::Distinct(a, b) => {
            let a = pat(a, name);
            format!("d({a},{})", pat(b, name))
        }
    }
}

#[cfg(test)]
mod tests;
