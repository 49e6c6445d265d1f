//! What every game needs: roles, an initial state, termination, legal moves
//! and goals for every role (GDL060–GDL063, GDL110, GDL112), and goal values that
//! are integers 0..100 (GDL070).

use super::Ctx;
use crate::deps::unifiable;
use crate::diagnostic::{Diagnostic, Span};
use crate::program::{Rule, Term};
use crate::terms::{kw, Sym};

pub(super) fn check(cx: &mut Ctx) {
    goal_values(cx);
    if !cx.complete {
        return;
    }
    let p = cx.p;
    let defined = |rel: Sym, arity: usize| {
        p.rules
            .iter()
            .any(|r| r.head.rel == rel && r.head.arity() == arity)
    };
    let start = Span::new(0, 0);
    let roles: Vec<&Rule> = p
        .rules
        .iter()
        .filter(|r| r.head.rel == kw::ROLE && r.head.arity() == 1)
        .collect();
    if roles.is_empty() {
        cx.push(
            Diagnostic::error("GDL060", start, "the game has no roles")
                .with_hint("declare each player with a fact such as `(role white)`"),
        );
    }
    if !defined(kw::INIT, 1) {
        cx.push(
            Diagnostic::warning("GDL112", start, "the game has no `init` fact or rule: it starts in the empty state")
                .with_hint("list the fluents of the initial state, e.g. `(init (control white))`; ignore this if the empty state is intended"),
        );
    }
    if !defined(kw::TERMINAL, 0) {
        cx.push(
            Diagnostic::error("GDL061", start, "the game never ends: no `terminal` rule")
                .with_hint("define when the game is over, e.g. `(<= terminal (true (step 10)))`"),
        );
    }
    for (rel, code, what, example) in [
        (
            kw::LEGAL,
            "GDL062",
            "legal moves",
            "(<= (legal white noop) (true (control black)))",
        ),
        (
            kw::GOAL,
            "GDL063",
            "goal values",
            "(<= (goal white 100) (true (won white)))",
        ),
    ] {
        let name = cx.name(rel).to_string();
        let rules: Vec<&Rule> = p
            .rules
            .iter()
            .filter(|r| r.head.rel == rel && r.head.arity() == 2)
            .collect();
        if rules.is_empty() {
            cx.push(
                Diagnostic::error(
                    code,
                    start,
                    format!("the game has no {what}: no `{name}` rule"),
                )
                .with_hint(format!("define `{name}` for every role, e.g. `{example}`")),
            );
            continue;
        }
        // A role no rule head can match: it never has moves (or a goal).
        // GDL-II's `random` has no goals.
        let random = p.random_sym();
        for role in &roles {
            if rel == kw::GOAL
                && matches!(&role.head.args[0], Term::Const(s, _) if Some(*s) == random)
            {
                continue;
            }
            let r = &role.head.args[0];
            let covered = rules
                .iter()
                .any(|rule| unifiable(std::slice::from_ref(r), &rule.head.args[..1]));
            if !covered {
                let role_name = term_text(cx, r);
                cx.push(
                    Diagnostic::warning("GDL110", role.head.span, format!("role `{role_name}` has no `{name}` rule"))
                        .with_hint(format!(
                            "add a `{name}` rule whose first argument is `{role_name}` (or a variable), e.g. `{example}`"
                        )),
                );
            }
        }
    }
}

/// A short rendering of a term for messages.
pub(crate) fn term_text(cx: &Ctx, t: &Term) -> String {
    match t {
        Term::Var(..) => "?_".to_string(),
        Term::Const(s, _) => cx.name(*s).to_string(),
        Term::App { functor, args, .. } => {
            let mut s = format!("({}", cx.name(*functor));
            for a in args {
                s.push(' ');
                s.push_str(&term_text(cx, a));
            }
            s.push(')');
            s
        }
    }
}

/// Goal values written in `goal` heads must be integers 0..100.
fn goal_values(cx: &mut Ctx) {
    let p = cx.p;
    for rule in &p.rules {
        if rule.head.rel != kw::GOAL || rule.head.arity() != 2 {
            continue;
        }
        let v = &rule.head.args[1];
        let bad = match v {
            Term::Var(..) => false,
            Term::Const(s, _) => {
                let name = cx.name(*s);
                !(name.bytes().all(|b| b.is_ascii_digit())
                    && name.parse::<u32>().is_ok_and(|n| n <= 100))
            }
            Term::App { .. } => true,
        };
        if bad {
            let text = term_text(cx, v);
            cx.push(
                Diagnostic::error(
                    "GDL070",
                    v.span(),
                    format!("goal value `{text}` is not an integer from 0 to 100"),
                )
                .with_hint("GDL goal values are the integers 0..100, e.g. `(goal white 100)`"),
            );
        }
    }
}
