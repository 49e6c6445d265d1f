//! Finite derivability: safety (GDL020), the recursion restriction (GDL021)
//! and the size of `or` expansions (GDL050).
//!
//! An `or` is judged like its expansion into separate rules (what the
//! interpreter does): a variable is bound in a body when a positive literal
//! binds it, or when every alternative of some `or` binds it; a literal
//! inside one alternative also sees what that alternative binds.

use super::{edit_distance, near_limit, Ctx};
use crate::deps::RelId;
use crate::diagnostic::{Diagnostic, Span};
use crate::program::{Atom, Literal, Rule, Term, VarId};
use crate::terms::kw;

/// Most bodies one rule may expand into through `or` (as the interpreter).
const MAX_EXPANSION: u64 = 4096;

pub(super) fn check(cx: &mut Ctx) {
    let p = cx.p;
    for rule in &p.rules {
        if !rule.is_rule_form && rule.body.is_empty() {
            // A fact with variables is GDL010 (lowering).
            continue;
        }
        unsafe_vars(cx, rule);
        expansion(cx, rule);
        recursion(cx, rule);
    }
}

/// Variables bound by a conjunction, given a predicate on atoms that may
/// bind (all positive atoms for safety, non-recursive ones for the
/// recursion restriction).
fn binds(conj: &[Literal], n: usize, binder: &dyn Fn(&Atom) -> bool, out: &mut [bool]) {
    for l in conj {
        match l {
            Literal::Pos(a) if binder(a) => a.for_each_var(&mut |v, _| out[v as usize] = true),
            Literal::Or(ds, _) => {
                // Bound by every alternative (vacuously all for `(or)`, which
                // never holds).
                let mut all = vec![true; n];
                for d in ds {
                    let mut b = vec![false; n];
                    binds(d, n, binder, &mut b);
                    all.iter_mut().zip(&b).for_each(|(x, y)| *x &= *y);
                }
                out.iter_mut().zip(&all).for_each(|(x, y)| *x |= *y);
            }
            _ => {}
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Use {
    Head,
    Not,
    Distinct,
}

struct Occurrence {
    span: Span,
    how: Use,
}

fn unsafe_vars(cx: &mut Ctx, rule: &Rule) {
    let n = rule.vars.len();
    if n == 0 {
        return;
    }
    let any = |_: &Atom| true;
    let mut top = vec![false; n];
    binds(&rule.body, n, &any, &mut top);
    let mut bad: Vec<Vec<Occurrence>> = (0..n).map(|_| Vec::new()).collect();
    rule.head.for_each_var(&mut |v, s| {
        if !top[v as usize] {
            bad[v as usize].push(Occurrence {
                span: s,
                how: Use::Head,
            });
        }
    });
    fn walk(
        conj: &[Literal],
        outer: &[bool],
        bad: &mut [Vec<Occurrence>],
        any: &dyn Fn(&Atom) -> bool,
    ) {
        let mut b = outer.to_vec();
        binds(conj, b.len(), any, &mut b);
        for l in conj {
            match l {
                Literal::Not(inner, _) => {
                    if let Literal::Pos(a) = &**inner {
                        a.for_each_var(&mut |v, s| {
                            if !b[v as usize] {
                                bad[v as usize].push(Occurrence {
                                    span: s,
                                    how: Use::Not,
                                });
                            }
                        });
                    }
                }
                Literal::Distinct(x, y, _) => {
                    let mut f = |v: VarId, s: Span| {
                        if !b[v as usize] {
                            bad[v as usize].push(Occurrence {
                                span: s,
                                how: Use::Distinct,
                            });
                        }
                    };
                    x.for_each_var(&mut f);
                    y.for_each_var(&mut f);
                }
                Literal::Or(ds, _) => ds.iter().for_each(|d| walk(d, &b, bad, any)),
                Literal::Pos(_) => {}
            }
        }
    }
    walk(&rule.body, &vec![false; n], &mut bad, &any);
    // Positive occurrences of every variable (inside `or` alternatives too),
    // to explain "bound only in one alternative" and to suggest near names.
    let mut positive: Vec<Vec<(Span, bool)>> = (0..n).map(|_| Vec::new()).collect();
    fn positives(conj: &[Literal], in_or: bool, out: &mut [Vec<(Span, bool)>]) {
        for l in conj {
            match l {
                Literal::Pos(a) => a.for_each_var(&mut |v, s| out[v as usize].push((s, in_or))),
                Literal::Or(ds, _) => ds.iter().for_each(|d| positives(d, true, out)),
                _ => {}
            }
        }
    }
    positives(&rule.body, false, &mut positive);
    for (v, occ) in bad.iter_mut().enumerate() {
        if occ.is_empty() {
            continue;
        }
        occ.sort_by_key(|o| o.span);
        occ.dedup_by_key(|o| o.span);
        let name = format!("?{}", rule.vars[v]);
        let first = &occ[0];
        let message = match first.how {
            Use::Head if rule.body.is_empty() => {
                format!("unsafe rule: variable `{name}` in the head of a rule without a body")
            }
            Use::Head => format!(
                "unsafe rule: variable `{name}` in the head is not bound by a positive literal"
            ),
            Use::Not => format!(
                "unsafe rule: variable `{name}` inside `not` is not bound by a positive literal"
            ),
            Use::Distinct => format!(
                "unsafe rule: variable `{name}` in `distinct` is not bound by a positive literal"
            ),
        };
        let mut d = Diagnostic::error("GDL020", first.span, message);
        let label = |how: Use| match how {
            Use::Head => format!("`{name}` is also used in the head, which needs a value for it"),
            Use::Not => format!("`{name}` is also used inside `not`, which cannot give it a value"),
            Use::Distinct => {
                format!("`{name}` is also used in `distinct`, which cannot give it a value")
            }
        };
        for o in &occ[1..] {
            d = d.with_related(o.span, label(o.how));
        }
        for &(s, _) in positive[v].iter().filter(|(_, in_or)| *in_or) {
            d = d.with_related(
                s,
                format!("`{name}` is bound here, but only in one alternative of an `or`"),
            );
        }
        // A near variable name bound by a positive literal: likely a typo.
        let limit = near_limit(&rule.vars[v]);
        let near = (0..n)
            .filter(|&w| w != v && !positive[w].is_empty())
            .map(|w| (edit_distance(&rule.vars[v], &rule.vars[w], limit), w))
            .filter(|&(dist, _)| dist <= limit)
            .min();
        let in_role_position = rule
            .head
            .args
            .first()
            .is_some_and(|t| matches!(t, Term::Var(w, _) if *w as usize == v))
            && matches!(rule.head.rel, kw::LEGAL | kw::GOAL);
        let hint = if let Some((_, w)) = near {
            let s = positive[w][0].0;
            d = d.with_related(s, format!("`?{}` is bound here", rule.vars[w]));
            format!("did you mean `?{}`?", rule.vars[w])
        } else if in_role_position {
            format!("add `(role {name})` to the body to range over the roles")
        } else if rule.body.is_empty() {
            format!("give the rule a body with a positive literal that mentions `{name}`")
        } else {
            format!("add a positive literal to the body that mentions `{name}` (e.g. a relation listing its possible values)")
        };
        cx.push(d.with_hint(hint));
    }
}

/// The number of bodies the interpreter expands a rule into, exactly as
/// `reasoner::compile` counts (it refuses more than [`MAX_EXPANSION`]).
fn expansion(cx: &mut Ctx, rule: &Rule) {
    fn alternatives(l: &Literal) -> Result<u64, ()> {
        match l {
            Literal::Or(ds, _) => {
                let mut total = 0u64;
                for d in ds {
                    let mut conj = 1u64;
                    for x in d {
                        conj = conj.saturating_mul(alternatives(x)?);
                        if conj > MAX_EXPANSION {
                            return Err(());
                        }
                    }
                    total = total.saturating_add(conj);
                }
                Ok(total)
            }
            _ => Ok(1),
        }
    }
    let mut bodies = 1u64;
    let mut too_many = false;
    for l in &rule.body {
        match alternatives(l) {
            Ok(1) => {}
            Ok(a) if bodies.saturating_mul(a) > MAX_EXPANSION => too_many = true,
            Ok(a) => bodies *= a,
            Err(()) => too_many = true,
        }
        if too_many {
            break;
        }
    }
    if too_many {
        cx.push(
            Diagnostic::error(
                "GDL050",
                rule.span,
                format!(
                    "this rule's `or`s expand into more than {MAX_EXPANSION} alternative rules"
                ),
            )
            .with_hint(
                "split the rule into several rules or define helper relations for the alternatives",
            ),
        );
    }
}

/// The recursion restriction (seed lecture, "Endliche Ableitbarkeit"): in a
/// rule for `p`, every argument of a positive literal on a relation in a
/// cycle with `p` is ground, a head argument, or has its variables bound by
/// a positive literal on a relation outside the cycle. (A compound argument
/// passes when each of its variables does: the intent is that recursion
/// only walks finite domains.)
fn recursion(cx: &mut Ctx, rule: &Rule) {
    let g = &cx.g;
    let Some(h) = g.id_of(rule.head.rel, rule.head.arity()) else {
        return;
    };
    if !g.is_recursive(h) {
        return;
    }
    let n = rule.vars.len();
    let scc = g.scc_of[h];
    let in_cycle = |a: &Atom| {
        g.id_of(a.rel, a.arity())
            .is_some_and(|r: RelId| g.scc_of[r] == scc)
    };
    let outside = |a: &Atom| !in_cycle(a);
    let mut head_arg = vec![false; n];
    for t in &rule.head.args {
        if let Term::Var(v, _) = t {
            head_arg[*v as usize] = true;
        }
    }
    let mut found: Vec<(VarId, Span, Span)> = Vec::new();
    fn walk(
        conj: &[Literal],
        outer: &[bool],
        head_arg: &[bool],
        in_cycle: &dyn Fn(&Atom) -> bool,
        outside: &dyn Fn(&Atom) -> bool,
        found: &mut Vec<(VarId, Span, Span)>,
    ) {
        let mut b = outer.to_vec();
        binds(conj, b.len(), outside, &mut b);
        for l in conj {
            match l {
                Literal::Pos(a) if in_cycle(a) => {
                    for t in &a.args {
                        t.for_each_var(&mut |v, s| {
                            if !head_arg[v as usize] && !b[v as usize] {
                                found.push((v, s, a.span));
                            }
                        });
                    }
                }
                Literal::Or(ds, _) => ds
                    .iter()
                    .for_each(|d| walk(d, &b, head_arg, in_cycle, outside, found)),
                _ => {}
            }
        }
    }
    walk(
        &rule.body,
        &vec![false; n],
        &head_arg,
        &in_cycle,
        &outside,
        &mut found,
    );
    found.sort_by_key(|x| x.1);
    let mut reported = vec![false; n];
    for (v, span, lit) in found {
        if std::mem::replace(&mut reported[v as usize], true) {
            continue;
        }
        let name = format!("?{}", rule.vars[v as usize]);
        let rel = cx.name(rule.head.rel).to_string();
        let d = Diagnostic::error(
            "GDL021",
            span,
            format!("recursion restriction: `{name}` in a recursive literal is neither a head argument nor bound by a non-recursive literal"),
        )
        .with_related(lit, "this literal is recursive: it depends on the rule's own head")
        .with_related(rule.head.span, format!("the head of this rule for `{rel}`"))
        .with_hint(format!(
            "bind `{name}` with a positive literal on a relation outside the recursion (e.g. a finite domain), or pass it as an argument of the head"
        ));
        cx.push(d);
    }
}
