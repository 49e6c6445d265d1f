//! Folds: a linear recursion that carries its answer through unchanged, as
//! merrills counts both colours' stones over its 24 pits:
//!
//! ```text
//! (<= (count ?w ?b) (count_loop inner ne 0 0 ?w ?b))
//! (<= (count_loop outer n ?w1 ?b1 ?w ?b) (count_one outer n ?w1 ?b1 ?w ?b))
//! (<= (count_loop ?x1 ?y1 ?w1 ?b1 ?w ?b)
//!     (count_one ?x1 ?y1 ?w1 ?b1 ?w2 ?b2) (next_pit ?x1 ?y1 ?x2 ?y2)
//!     (count_loop ?x2 ?y2 ?w2 ?b2 ?w ?b))
//! ```
//!
//! Grounded as written, `count_loop` has an atom for every pit, every
//! count so far and every final count (118k in merrills), and a changed
//! pit flips the atoms of every pit before it. Only the call from `count`
//! asks for it, with the entry `(inner ne 0 0)` bound and the answer
//! `(?w ?b)` free, and the recursive rule passes the answer through. So
//! the relation is split in two (the *factoring* of right-linear
//! recursions in the deductive-database literature):
//!
//! ```text
//! F(I')  :- body[θ]                  (first step: the head's I = the entry)
//! F(I')  :- F(I), body               (further steps)
//! A(R)   :- body[θ]                  (a base rule at the entry)
//! A(R)   :- F(I), body               (a base rule further on)
//! ```
//!
//! where `I` are the recursive rule's head arguments that change, `I'` the
//! call's, `R` the answer, and θ matches the head's `I` with the entry.
//! `F` holds the positions and partial counts reached from the entry (24 ×
//! the counts so far), `A` the answers; the call becomes `A(R)`. Exact for
//! every state: `L(entry, R)` holds iff a chain of steps leads from the
//! entry to a position where a base rule gives `R`, which is what `F` and
//! `A` say.

use super::grule::{pat_vars, GLit, GRule};
use crate::deps::RelId;
use crate::program::VarId;
use crate::reasoner::compile::Pat;
use rustc_hash::FxHashMap;

/// Rewrites every fold among `rules` (see the module's comment) whose
/// relation is not in `protected`. New relations are appended to `arity`
/// and `is_static`. Returns the number of folds rewritten.
pub fn rewrite(
    rules: &mut Vec<GRule>,
    protected: &[RelId],
    arity: &mut Vec<usize>,
    is_static: &mut Vec<bool>,
) -> usize {
    let mut heads: Vec<RelId> = rules.iter().map(|r| r.head_rel).collect();
    heads.sort_unstable();
    heads.dedup();
    let mut done = 0;
    for l in heads {
        if protected.contains(&l) || is_static[l] {
            continue;
        }
        let Some(fold) = Fold::find(rules, l) else {
            continue;
        };
        let (f, a) = (arity.len(), arity.len() + 1);
        let Some(out) = fold.apply(rules, f, a) else {
            continue;
        };
        arity.extend([fold.inputs.len(), fold.answer.len()]);
        is_static.extend([false, false]);
        *rules = out;
        done += 1;
    }
    done
}

/// A fold found: the relation, which of its arguments change from step to
/// step (`inputs`) and which are the answer, and the one entry it is
/// called with.
struct Fold {
    rel: RelId,
    inputs: Vec<usize>,
    answer: Vec<usize>,
    entry: Vec<Pat>,
}

impl Fold {
    /// `l` is a fold if its rules are base rules (no `l` in the body) and
    /// at least one linear recursive rule passing the answer through, no
    /// relation they read depends on `l`, and every other rule calls it
    /// with the same ground arguments at the inputs.
    fn find(rules: &[GRule], l: RelId) -> Option<Fold> {
        let own: Vec<&GRule> = rules.iter().filter(|r| r.head_rel == l).collect();
        let (mut rec, mut base) = (Vec::new(), Vec::new());
        for r in &own {
            let calls: Vec<usize> = (0..r.body.len())
                .filter(|&j| matches!(&r.body[j], GLit::Pos(x, _) | GLit::Neg(x, _) if *x == l))
                .collect();
            match calls[..] {
                [] if !r.body.is_empty() => base.push(*r),
                [j] if r.body[j].is_pos() => rec.push((*r, j)),
                _ => return None,
            }
        }
        if rec.is_empty() || base.is_empty() || reads_dependent(rules, &own, l) {
            return None;
        }
        let answer: Vec<usize> = (0..own[0].head.len())
            .filter(|&k| rec.iter().all(|&(r, j)| passes_through(r, j, k)))
            .collect();
        let inputs: Vec<usize> = (0..own[0].head.len())
            .filter(|k| !answer.contains(k))
            .collect();
        if answer.is_empty() || inputs.is_empty() || !rec.iter().all(|&(r, j)| step_is_safe(r, j)) {
            return None;
        }
        let entry = one_entry(rules, l, &inputs)?;
        Some(Fold {
            rel: l,
            inputs,
            answer,
            entry,
        })
    }

    /// The rules with the fold's replaced by `F`'s and `A`'s and its calls
    /// by `A`; `None` where a head cannot be matched with the entry here.
    fn apply(&self, rules: &[GRule], f: RelId, a: RelId) -> Option<Vec<GRule>> {
        let mut out = Vec::with_capacity(rules.len() + 4);
        for r in rules {
            if r.head_rel != self.rel {
                out.push(self.call_answers(r.clone(), a));
                continue;
            }
            let call = r
                .body
                .iter()
                .position(|l| matches!(l, GLit::Pos(x, _) if *x == self.rel));
            let (head_rel, head, body) = match call {
                Some(j) => {
                    let GLit::Pos(_, args) = &r.body[j] else {
                        unreachable!()
                    };
                    let mut body = r.body.clone();
                    body.remove(j);
                    (f, pick(args, &self.inputs), body)
                }
                None => (a, pick(&r.head, &self.answer), r.body.clone()),
            };
            let head_inputs = pick(&r.head, &self.inputs);
            let with = |head: Vec<Pat>, body: Vec<GLit>| GRule {
                head_rel,
                head,
                body,
                num_vars: r.num_vars,
            };
            if let Some(theta) = match_all(&head_inputs, &self.entry)? {
                let body = body.iter().map(|l| subst_lit(l, &theta)).collect();
                out.push(with(head.iter().map(|p| subst(p, &theta)).collect(), body));
            }
            let mut further = vec![GLit::Pos(f, head_inputs)];
            further.extend(body);
            out.push(with(head, further));
        }
        Some(out)
    }

    /// `r` with its calls of the fold replaced by `A(answer)`.
    fn call_answers(&self, mut r: GRule, a: RelId) -> GRule {
        for l in &mut r.body {
            match l {
                GLit::Pos(x, ps) | GLit::Neg(x, ps) if *x == self.rel => {
                    *x = a;
                    *ps = pick(ps, &self.answer);
                }
                _ => {}
            }
        }
        r
    }
}

/// Position `k` of the recursive rule `r` (its call at body literal `j`)
/// passes the answer through: the same variable in the head and the call,
/// found nowhere else in the rule.
fn passes_through(r: &GRule, j: usize, k: usize) -> bool {
    let GLit::Pos(_, call) = &r.body[j] else {
        return false;
    };
    let (Pat::Var(v), Pat::Var(w)) = (&r.head[k], &call[k]) else {
        return false;
    };
    let count = |ps: &[Pat]| ps.iter().map(|p| occurrences(p, *v)).sum::<usize>();
    let elsewhere: usize = r
        .body
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != j)
        .map(|(_, l)| match l {
            GLit::Pos(_, ps) | GLit::Neg(_, ps) => count(ps),
            GLit::Distinct(x, y) => occurrences(x, *v) + occurrences(y, *v),
        })
        .sum();
    v == w && count(&r.head) == 1 && count(call) == 1 && elsewhere == 0
}

fn occurrences(p: &Pat, v: VarId) -> usize {
    match p {
        Pat::Var(w) => usize::from(*w == v),
        Pat::Const(_) => 0,
        Pat::App(_, args) => args.iter().map(|a| occurrences(a, v)).sum(),
    }
}

/// Without the call, every variable of the call and of the other literals
/// is still bound by the head or by a positive literal: `F(I') :- F(I),
/// body` is safe.
fn step_is_safe(r: &GRule, j: usize) -> bool {
    let mut bound = Vec::new();
    r.head.iter().for_each(|p| pat_vars(p, &mut bound));
    let rest = r.body.iter().enumerate().filter(|&(i, _)| i != j);
    rest.clone()
        .filter(|(_, l)| l.is_pos())
        .for_each(|(_, l)| l.vars(&mut bound));
    let mut used = Vec::new();
    rest.for_each(|(_, l)| l.vars(&mut used));
    if let GLit::Pos(_, call) = &r.body[j] {
        call.iter().for_each(|p| pat_vars(p, &mut used));
    }
    used.iter().all(|v| bound.contains(v))
}

/// Whether a relation the fold's rules read (other than the fold itself)
/// depends on it: then it is not a plain linear recursion.
fn reads_dependent(rules: &[GRule], own: &[&GRule], l: RelId) -> bool {
    let mut reads: FxHashMap<RelId, Vec<RelId>> = FxHashMap::default();
    for r in rules {
        let out = reads.entry(r.head_rel).or_default();
        for lit in &r.body {
            if let GLit::Pos(x, _) | GLit::Neg(x, _) = lit {
                out.push(*x);
            }
        }
    }
    let mut stack: Vec<RelId> = own
        .iter()
        .flat_map(|r| r.body.iter())
        .filter_map(|lit| match lit {
            GLit::Pos(x, _) | GLit::Neg(x, _) if *x != l => Some(*x),
            _ => None,
        })
        .collect();
    let mut seen = vec![l];
    while let Some(x) = stack.pop() {
        if x == l {
            return true;
        }
        if seen.contains(&x) {
            continue;
        }
        seen.push(x);
        stack.extend(reads.get(&x).into_iter().flatten().copied());
    }
    false
}

/// The ground arguments at `inputs` of every call of `l` from another
/// relation's rule, if they are all the same.
fn one_entry(rules: &[GRule], l: RelId, inputs: &[usize]) -> Option<Vec<Pat>> {
    let mut entry: Option<Vec<Pat>> = None;
    for r in rules.iter().filter(|r| r.head_rel != l) {
        for lit in &r.body {
            let (GLit::Pos(x, ps) | GLit::Neg(x, ps)) = lit else {
                continue;
            };
            if *x != l {
                continue;
            }
            let e = pick(ps, inputs);
            let mut vars = Vec::new();
            e.iter().for_each(|p| pat_vars(p, &mut vars));
            if !vars.is_empty() || entry.as_ref().is_some_and(|old| *old != e) {
                return None;
            }
            entry = Some(e);
        }
    }
    entry
}

/// The patterns at positions `at`, in that order.
fn pick(ps: &[Pat], at: &[usize]) -> Vec<Pat> {
    at.iter().map(|&k| ps[k].clone()).collect()
}

/// A substitution of variables by ground patterns.
type Theta = FxHashMap<VarId, Pat>;

/// θ with `pats[i]θ = ground[i]` for all `i`: `Some(None)` if the patterns
/// cannot match, `None` if that is unknown here (a compound pattern against
/// a compound constant, which only the term store can take apart).
fn match_all(pats: &[Pat], ground: &[Pat]) -> Option<Option<Theta>> {
    let mut theta = Theta::default();
    for (p, g) in pats.iter().zip(ground) {
        if !match_pat(p, g, &mut theta)? {
            return Some(None);
        }
    }
    Some(Some(theta))
}

fn match_pat(p: &Pat, g: &Pat, theta: &mut Theta) -> Option<bool> {
    match (p, g) {
        (Pat::Var(v), _) => match theta.get(v) {
            Some(old) => Some(old == g),
            None => {
                theta.insert(*v, g.clone());
                Some(true)
            }
        },
        (Pat::Const(a), Pat::Const(b)) => Some(a == b),
        (Pat::App(f, xs), Pat::App(h, ys)) => {
            if f != h || xs.len() != ys.len() {
                return Some(false);
            }
            for (x, y) in xs.iter().zip(ys.iter()) {
                if !match_pat(x, y, theta)? {
                    return Some(false);
                }
            }
            Some(true)
        }
        _ => None,
    }
}

fn subst(p: &Pat, theta: &Theta) -> Pat {
    match p {
        Pat::Var(v) => theta.get(v).cloned().unwrap_or(Pat::Var(*v)),
        Pat::Const(_) => p.clone(),
        Pat::App(f, args) => Pat::App(*f, args.iter().map(|a| subst(a, theta)).collect()),
    }
}

fn subst_lit(l: &GLit, theta: &Theta) -> GLit {
    let all = |ps: &[Pat]| ps.iter().map(|p| subst(p, theta)).collect();
    match l {
        GLit::Pos(r, ps) => GLit::Pos(*r, all(ps)),
        GLit::Neg(r, ps) => GLit::Neg(*r, all(ps)),
        GLit::Distinct(a, b) => GLit::Distinct(subst(a, theta), subst(b, theta)),
    }
}

#[cfg(test)]
mod tests;
