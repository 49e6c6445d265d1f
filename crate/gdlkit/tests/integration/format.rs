//! The formatter on the whole corpus: formatting twice changes nothing, the
//! formatted text is the same program (rules compared modulo spans), and
//! every comment survives, in order.

use gdlkit::format::format;
use gdlkit::program::{parse_program, Atom, Literal, Program, Term};
use gdlkit::syntax;
use std::fmt::Write as _;
use std::path::PathBuf;

use crate::common::corpus;

/// The corpus games, or the project's own games on a plain clone.
fn corpus() -> Vec<PathBuf> {
    let folders: &[&str] = match corpus::shared_dir() {
        Some(_) => &["games/ggp-base-test", "games/repository"],
        None => &["games"],
    };
    let mut v = Vec::new();
    for folder in folders {
        v.extend(corpus::kif_files(folder, "format corpus tests"));
    }
    v.sort();
    v
}

/// A span-free rendering of the lowered program (canonical symbol names,
/// variable names, `(f)` kept apart from `f` so a change would show).
fn canonical(p: &Program) -> String {
    fn term(p: &Program, t: &Term, out: &mut String) {
        match t {
            Term::Var(v, _) => write!(out, "?{v}").unwrap(),
            Term::Const(s, _) => out.push_str(p.symbols.name(*s)),
            Term::App { functor, args, .. } => {
                write!(out, "({}", p.symbols.name(*functor)).unwrap();
                for a in args {
                    out.push(' ');
                    term(p, a, out);
                }
                out.push(')');
            }
        }
    }
    fn atom(p: &Program, a: &Atom, out: &mut String) {
        write!(
            out,
            "[{}{}",
            p.symbols.name(a.rel),
            if a.parenthesized { "()" } else { "" }
        )
        .unwrap();
        for t in &a.args {
            out.push(' ');
            term(p, t, out);
        }
        out.push(']');
    }
    fn literal(p: &Program, l: &Literal, out: &mut String) {
        match l {
            Literal::Pos(a) => atom(p, a, out),
            Literal::Not(inner, _) => {
                out.push_str("(not ");
                literal(p, inner, out);
                out.push(')');
            }
            Literal::Distinct(a, b, _) => {
                out.push_str("(distinct ");
                term(p, a, out);
                out.push(' ');
                term(p, b, out);
                out.push(')');
            }
            Literal::Or(ds, _) => {
                out.push_str("(or");
                for d in ds {
                    out.push_str(" {");
                    for x in d {
                        literal(p, x, out);
                    }
                    out.push('}');
                }
                out.push(')');
            }
        }
    }
    let mut out = String::new();
    for r in &p.rules {
        atom(p, &r.head, &mut out);
        out.push_str(if r.is_rule_form { " <=" } else { "" });
        for l in &r.body {
            out.push(' ');
            literal(p, l, &mut out);
        }
        writeln!(out, "   vars {:?}", r.vars).unwrap();
    }
    for d in &p.diagnostics {
        writeln!(out, "{} {}", d.code, d.message).unwrap();
    }
    out
}

fn comments(text: &str) -> Vec<String> {
    syntax::parse(text)
        .comments
        .iter()
        .map(|c| text[c.span.range()].trim_end().to_string())
        .collect()
}

fn check_one(name: &str, text: &str) -> Result<(), String> {
    let once = format(text).map_err(|d| format!("{name}: refused: {:?}", d.first()))?;
    let twice = format(&once).map_err(|d| format!("{name}: output refused: {:?}", d.first()))?;
    if once != twice {
        let line = once
            .lines()
            .zip(twice.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        return Err(format!(
            "{name}: not idempotent at line {}:\n{:?}\n{:?}",
            line + 1,
            once.lines().nth(line),
            twice.lines().nth(line)
        ));
    }
    if canonical(&parse_program(text)) != canonical(&parse_program(&once)) {
        return Err(format!("{name}: the formatted program differs"));
    }
    if comments(text) != comments(&once) {
        return Err(format!("{name}: comments changed"));
    }
    if once.contains('\r') || once.lines().any(|l| l.ends_with(' ') || l.ends_with('\t')) {
        return Err(format!("{name}: CR or trailing whitespace left"));
    }
    Ok(())
}

#[test]
fn corpus_formats_idempotently_to_the_same_program() {
    let mut failures = Vec::new();
    for game in corpus() {
        let text = std::fs::read_to_string(&game).unwrap();
        if let Err(e) = check_one(&game.display().to_string(), &text) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn rule_bodies_have_one_literal_per_line() {
    let text = std::fs::read_to_string(
        corpus()
            .into_iter()
            .find(|p| p.ends_with("ticTacToe.kif"))
            .unwrap(),
    )
    .unwrap();
    let out = format(&text).unwrap();
    for line in out
        .lines()
        .filter(|l| l.starts_with("    ") && !l.trim_start().starts_with(';'))
    {
        // A body line holds one literal: its parentheses balance, or it
        // closes the rule.
        let depth = line
            .chars()
            .fold(0i32, |d, c| d + (c == '(') as i32 - (c == ')') as i32);
        assert!(depth <= 0, "{line}");
    }
}

#[test]
fn scrambled_layout_formats_like_the_clean_one() {
    let clean = "(role x)\n\n(<= (legal x (mark ?a))\n    (true (cell ?a b)))\n";
    let scrambled =
        "  (role\r\n x )   (<=   (legal x\t(mark ?a))\r\n\r\n\r\n        (true (cell ?a b))  )";
    assert_eq!(format(scrambled).unwrap(), clean);
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    fn sexp() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just("a".to_string()),
            Just("?x".to_string()),
            Just("; c\n".to_string()),
            Just("\n".to_string()),
            Just("\r\n\r\n".to_string()),
            Just("not".to_string()),
            Just("or".to_string()),
            Just("<=".to_string()),
        ];
        leaf.prop_recursive(4, 40, 6, |inner| {
            prop::collection::vec(inner, 0..6).prop_map(|v| format!("({})", v.join(" ")))
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

        #[test]
        fn random_forms_with_comments(forms in prop::collection::vec(sexp(), 0..6)) {
            let text = forms.join(" ");
            if syntax::parse(&text).diagnostics.is_empty() {
                check_one("random", &text).map_err(TestCaseError::fail)?;
            }
        }
    }
}
