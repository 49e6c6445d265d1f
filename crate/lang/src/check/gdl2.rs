//! GDL-II: `sees` and the `random` role (GDL080–GDL082, GDL113).
//!
//! `(sees ?role ?percept)` is evaluated like `next`, on the current state
//! and the joint move, so it may depend on `true` and `does`; it is only
//! defined, never used in a rule body (GDL080), has two arguments (GDL081)
//! whose first is a role (GDL082). `random` is a role whose moves the game
//! master draws: it needs legal moves but no goals, and goals written for it
//! are never read (GDL113).

use super::essentials::term_text;
use super::{for_each_atom, Ctx};
use crate::diagnostic::Diagnostic;
use crate::program::{Atom, Term};
use crate::terms::kw;

pub(super) fn check(cx: &mut Ctx) {
    let p = cx.p;
    let roles: Vec<_> = p
        .rules
        .iter()
        .filter(|r| r.head.rel == kw::ROLE && r.body.is_empty())
        .filter_map(|r| match r.head.args.as_slice() {
            [Term::Const(s, _)] => Some(*s),
            _ => None,
        })
        .collect();
    if let Some(sees) = p.sees_sym() {
        for rule in &p.rules {
            if rule.head.rel == sees {
                sees_head(cx, &rule.head, &roles);
            }
            let mut uses: Vec<&Atom> = Vec::new();
            for_each_atom(&rule.body, &mut |a: &Atom, _| {
                if a.rel == sees {
                    uses.push(a);
                }
            });
            for a in uses {
                cx.push(
                    Diagnostic::error("GDL080", a.name_span, "`sees` can only be the head of a rule or a fact, not used in a body")
                        .with_hint("`sees` tells each role what it perceives after a joint move; rules read the state with `true` and the moves with `does`"),
                );
            }
        }
    }
    let Some(random) = p.random_sym() else { return };
    if !roles.contains(&random) {
        return;
    }
    for rule in &p.rules {
        let h = &rule.head;
        if h.rel == kw::GOAL && h.arity() == 2 {
            if let Term::Const(s, span) = &h.args[0] {
                if *s == random {
                    cx.push(
                        Diagnostic::warning("GDL113", *span, "a goal for `random`: chance has no goals, this rule is never read")
                            .with_hint("remove the rule; `random`'s moves are drawn uniformly from its legal moves whatever its goals"),
                    );
                }
            }
        }
    }
}

fn sees_head(cx: &mut Ctx, h: &Atom, roles: &[crate::terms::Sym]) {
    if h.arity() != 2 {
        cx.push(
            Diagnostic::error(
                "GDL081",
                h.span,
                format!("`sees` takes 2 arguments, found {}", h.arity()),
            )
            .with_hint("write it as in `(sees ?player (card ?c))`: a role and what it perceives"),
        );
        return;
    }
    let who = &h.args[0];
    let bad = match who {
        Term::Var(..) => false,
        Term::Const(s, _) => !roles.contains(s),
        Term::App { args, functor, .. } => !(args.is_empty() && roles.contains(functor)),
    };
    if bad {
        let text = term_text(cx, who);
        cx.push(
            Diagnostic::error(
                "GDL082",
                who.span(),
                format!("`sees` for `{text}`, which is not a role"),
            )
            .with_hint("the first argument of `sees` is the role that perceives, e.g. `(sees white (moved ?x))`; declare it with `(role ...)`"),
        );
    }
}
