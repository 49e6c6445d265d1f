//! Keyword placement and arity, connectives used as names, and the shape of
//! literals: GDL012, GDL031, GDL040, GDL042, GDL043, GDL047, GDL048, GDL107,
//! GDL108, GDL111.

use super::{args, for_each_subterm, Ctx};
use crate::diagnostic::{Diagnostic, Edit, Span};
use crate::program::{Atom, Literal, Rule, Term};
use crate::terms::{kw, Sym};

/// The fixed arity of a GDL relation keyword.
pub(crate) fn keyword_arity(s: Sym) -> Option<usize> {
    Some(match s {
        kw::ROLE | kw::INIT | kw::TRUE | kw::NEXT | kw::BASE => 1,
        kw::DOES | kw::LEGAL | kw::GOAL | kw::INPUT => 2,
        kw::TERMINAL => 0,
        _ => return None,
    })
}

/// `distinct`, `not`, `or`, `and`, `<=`: logical syntax, never names.
fn is_connective(s: Sym) -> bool {
    matches!(s, kw::DISTINCT | kw::NOT | kw::OR | kw::AND | kw::ARROW)
}

fn looks_numeric(name: &str) -> bool {
    let digits = name.strip_prefix('-').unwrap_or(name);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

pub(super) fn check(cx: &mut Ctx) {
    let p = cx.p;
    for rule in &p.rules {
        head(cx, rule);
        atom(cx, &rule.head, true);
        for lit in &rule.body {
            literal(cx, lit, false);
        }
        if rule.is_rule_form && rule.body.is_empty() && rule.vars.is_empty() {
            cx.push(
                Diagnostic::warning("GDL111", rule.span, "a rule without a body")
                    .with_hint("`(<= head)` is the fact `head`: write it without `<=`")
                    .with_fix("Write the fact", unwrap(rule.span, rule.head.span)),
            );
        }
    }
}

/// The edits that keep only `inner` of `outer`: `(terminal)` → `terminal`,
/// `(<= (p a))` → `(p a)`.
fn unwrap(outer: Span, inner: Span) -> Vec<Edit> {
    vec![
        Edit::delete(Span {
            start: outer.start,
            end: inner.start,
        }),
        Edit::delete(Span {
            start: inner.end,
            end: outer.end,
        }),
    ]
}

fn head(cx: &mut Ctx, rule: &Rule) {
    let h = &rule.head;
    match h.rel {
        kw::TRUE | kw::DOES => {
            let what = if rule.body.is_empty() {
                "a fact"
            } else {
                "the head of a rule"
            };
            cx.push(
                Diagnostic::error("GDL040", h.name_span, format!("`{}` cannot be {what}", cx.name(h.rel)))
                    .with_hint("`true` and `does` are given by the current state and the moves; use them only in rule bodies"),
            );
        }
        kw::ROLE if !rule.body.is_empty() => {
            cx.push(
                Diagnostic::error("GDL042", h.name_span, "`role` defined by a rule").with_hint(
                    "the roles are fixed: state each one as a ground fact such as `(role white)`",
                ),
            );
        }
        _ => {}
    }
}

/// Checks an atom (head when `is_head`, else a body literal's atom).
fn atom(cx: &mut Ctx, a: &Atom, is_head: bool) {
    let name = cx.name(a.rel).to_string();
    if is_connective(a.rel) {
        cx.push(
            Diagnostic::error("GDL048", a.name_span, format!("`{name}` is a logical connective, not a relation name"))
                .with_hint(if is_head {
                    "connectives cannot be defined; choose another relation name"
                } else {
                    "write it as `(not L)`, `(or L...)`, `(and L...)` or `(distinct t1 t2)` around literals"
                }),
        );
    } else if looks_numeric(&name) {
        cx.push(
            Diagnostic::error(
                "GDL012",
                a.name_span,
                format!("a relation name must be a symbol, not the number `{name}`"),
            )
            .with_hint("start the sentence with a relation name, e.g. `(cell 1 2)`"),
        );
    }
    if let Some(want) = keyword_arity(a.rel) {
        if a.arity() != want {
            let example = match a.rel {
                kw::ROLE => "(role white)",
                kw::INIT => "(init (cell 1 1 b))",
                kw::TRUE => "(true (cell ?x ?y b))",
                kw::NEXT => "(next (cell ?x ?y x))",
                kw::BASE => "(base (cell ?x ?y ?m))",
                kw::DOES => "(does ?player (mark ?x ?y))",
                kw::LEGAL => "(legal ?player (mark ?x ?y))",
                kw::GOAL => "(goal white 100)",
                kw::INPUT => "(input ?player (mark ?x ?y))",
                _ => "terminal",
            };
            cx.push(
                Diagnostic::error(
                    "GDL047",
                    a.span,
                    format!("`{name}` takes {}, found {}", args(want), a.arity()),
                )
                .with_hint(format!("write it as in `{example}`")),
            );
        }
    }
    if a.parenthesized {
        cx.push(
            Diagnostic::warning("GDL107", a.span, format!("`({name})`: a zero-arity relation in parentheses"))
                .with_hint(format!("write `{name}`: it means the same, and readers that keep `({name})` apart from `{name}` (ggp-base) disagree otherwise"))
                .with_fix(format!("Write `{name}`"), unwrap(a.span, a.name_span)),
        );
    }
    for t in &a.args {
        terms(cx, t);
    }
}

fn terms(cx: &mut Ctx, t: &Term) {
    let mut found: Vec<(Sym, Span, bool, Span)> = Vec::new();
    for_each_subterm(t, &mut |t| match t {
        Term::Const(s, span) if s.0 <= kw::ARROW.0 => found.push((*s, *span, false, *span)),
        Term::App {
            functor,
            args,
            span,
            name_span,
        } => {
            if functor.0 <= kw::ARROW.0 {
                found.push((*functor, *name_span, false, *span));
            }
            if args.is_empty() {
                found.push((*functor, *span, true, *name_span));
            }
        }
        _ => {}
    });
    for (s, span, empty_app, name_span) in found {
        let name = cx.name(s).to_string();
        if empty_app {
            cx.push(
                Diagnostic::warning("GDL107", span, format!("`({name})` is the constant `{name}`"))
                    .with_hint(format!("write `{name}` without parentheses; readers that keep `({name})` apart from `{name}` (ggp-base) disagree otherwise"))
                    .with_fix(format!("Write `{name}`"), unwrap(span, name_span)),
            );
        } else {
            let what = if kw::is_gdl_keyword(s) {
                "a GDL keyword"
            } else {
                "logical syntax"
            };
            cx.push(
                Diagnostic::error(
                    "GDL048",
                    span,
                    format!("`{name}` is {what} and cannot be used as a function name or constant"),
                )
                .with_hint(format!(
                    "rename it, e.g. `{name}_`; keywords and connectives have a fixed meaning"
                )),
            );
        }
    }
}

fn literal(cx: &mut Ctx, l: &Literal, in_or: bool) {
    match l {
        Literal::Pos(a) => {
            if a.rel == kw::INIT || a.rel == kw::NEXT {
                let name = cx.name(a.rel).to_string();
                let hint = if a.rel == kw::INIT {
                    "`init` describes the initial state; in a body, read the current state with `true`"
                } else {
                    "`next` describes the following state; in a body, read the current state with `true`"
                };
                cx.push(
                    Diagnostic::error(
                        "GDL043",
                        a.name_span,
                        format!(
                            "`{name}` can only be the head of a rule or a fact, not used in a body"
                        ),
                    )
                    .with_hint(hint),
                );
            }
            atom(cx, a, false);
        }
        Literal::Not(inner, span) => {
            let (what, hint) = match &**inner {
                Literal::Pos(_) => ("", ""),
                Literal::Distinct(..) => (
                    "`distinct`",
                    "to require two terms to be equal, write the same variable (or constant) for both",
                ),
                Literal::Or(..) => (
                    "`or` or `and`",
                    "define a helper relation for the inner formula and negate that: `(not (helper ?x))`",
                ),
                Literal::Not(..) => ("another `not`", "remove both `not`s"),
            };
            if !what.is_empty() {
                cx.push(
                    Diagnostic::error(
                        "GDL031",
                        *span,
                        format!("`not` must wrap a single sentence, not {what}"),
                    )
                    .with_hint(hint),
                );
            }
            literal(cx, inner, false);
        }
        Literal::Distinct(a, b, _) => {
            terms(cx, a);
            terms(cx, b);
        }
        Literal::Or(ds, span) => {
            if ds.is_empty() {
                cx.push(
                    Diagnostic::warning(
                        "GDL108",
                        *span,
                        "an empty `(or)` is always false: this rule can never apply",
                    )
                    .with_hint("remove the `(or)` or give it alternatives"),
                );
            } else if in_or {
                cx.push(
                    Diagnostic::warning("GDL108", *span, "an `or` directly inside another `or`")
                        .with_hint("write its alternatives directly in the outer `or`"),
                );
            }
            for d in ds {
                let direct = d.len() == 1;
                for x in d {
                    literal(cx, x, direct);
                }
            }
        }
    }
}
