//! The static validator: for every diagnostic code a game that triggers it
//! and one that does not; snapshots of the rendered text of every kind; the
//! corpus expectations of `shared/conformance/README.md`; agreement with the
//! interpreter (whatever it refuses, the validator reports as an error).

use gdlkit::diagnostic::{render, resolve, Severity};
use gdlkit::{check_text, Diagnostic};
use std::path::{Path, PathBuf};

/// A small valid game; most cases add lines to it.
const BASE: &str = "\
(role robot)
(init (cell 1))
(<= (legal robot (go ?x)) (true (cell ?x)))
(<= (next (cell ?y)) (does robot (go ?x)) (succ ?x ?y))
(succ 1 2)
(<= terminal (true (cell 2)))
(goal robot 100)
";

fn base_with(extra: &str) -> String {
    format!("{BASE}{extra}\n")
}

fn base_without(line: &str) -> String {
    assert!(BASE.contains(line), "{line}");
    BASE.replacen(line, "", 1)
}

/// (code, a game that triggers it, a game that does not).
fn cases() -> Vec<(&'static str, String, String)> {
    let deep = format!("{}{}", "(".repeat(300), ")".repeat(300));
    let ors = (0..13)
        .map(|i| format!("(or (true (cell {i})) (true (cell x{i})))"))
        .collect::<Vec<_>>()
        .join(" ");
    vec![
        // Syntax.
        ("GDL001", base_with(")"), BASE.to_string()),
        ("GDL002", base_with("(<= terminal (true (cell 3))"), base_with("(<= terminal (true (cell 3)))")),
        ("GDL003", base_with("(<= terminal (true (cell ?)))"), base_with("(<= terminal (true (cell 3)))")),
        ("GDL004", base_with(&deep), BASE.to_string()),
        // Lowering.
        ("GDL010", base_with("(succ ?x 3)"), base_with("(succ 2 3)")),
        ("GDL011", base_with("(=< terminal (true (cell 3)))"), base_with("(<= terminal (true (cell 3)))")),
        ("GDL012", base_with("(<= (?r 1) (succ 1 2))"), base_with("(<= (r 1) (succ 1 2)) (<= terminal (r 1))")),
        ("GDL012", base_with("(<= (3 ?x) (succ ?x 2))"), base_with("(<= (three ?x) (succ ?x 2)) (<= terminal (three 1))")),
        ("GDL012", base_with("(<= terminal ())"), BASE.to_string()),
        ("GDL013", base_with("(<=)"), BASE.to_string()),
        ("GDL014", base_with("(<= terminal (succ 1 ?y) (not (true (cell ?y)) (true (cell 1))))"), base_with("(<= terminal (succ 1 ?y) (not (true (cell ?y))))")),
        ("GDL015", base_with("(<= terminal (<= (p) (q)))"), BASE.to_string()),
        // Safety and finite derivability.
        ("GDL020", base_with("(<= (legal robot (jump ?x ?z)) (true (cell ?x)))"), base_with("(<= (legal robot (jump ?x ?z)) (true (cell ?x)) (succ ?x ?z))")),
        ("GDL020", base_with("(<= (legal robot stay) (true (cell ?x)) (not (succ ?x ?y)))"), base_with("(<= (legal robot stay) (true (cell ?x)) (not (succ ?x 2)))")),
        ("GDL020", base_with("(<= (legal robot stay) (true (cell ?x)) (distinct ?y 1))"), base_with("(<= (legal robot stay) (true (cell ?x)) (distinct ?x 1))")),
        ("GDL020", base_with("(<= (legal ?p stay) (true (cell 1)))"), base_with("(<= (legal ?p stay) (role ?p) (true (cell 1)))")),
        ("GDL020", base_with("(<= (legal robot (go ?x)) (or (true (cell ?x)) (true (cell 3))))"), base_with("(<= (legal robot (go ?x)) (or (true (cell ?x)) (succ ?x 3)))")),
        ("GDL021", base_with("(num 0) (<= (num (s ?x)) (num ?x)) (<= terminal (num 3))"), base_with("(<= (before ?x ?y) (succ ?x ?y)) (<= (before ?x ?z) (before ?x ?y) (succ ?y ?z)) (<= terminal (before 1 2))")),
        ("GDL050", base_with(&format!("(<= (legal robot stay) {ors})")), base_with("(<= (legal robot stay) (or (true (cell 1)) (true (cell 2))))")),
        // Negation.
        ("GDL030", base_with("(<= (p ?x) (succ ?x ?y) (not (q ?y))) (<= (q ?y) (p ?y)) (<= terminal (p 1))"), base_with("(<= (goal robot 0) (not (goal robot 100)))")),
        ("GDL031", base_with("(<= terminal (succ ?x ?y) (not (distinct ?x ?y)))"), base_with("(<= terminal (succ ?x ?x))")),
        ("GDL031", base_with("(<= terminal (not (or (true (cell 1)) (true (cell 3)))))"), base_with("(<= terminal (not (true (cell 1))) (not (true (cell 3))))")),
        // Keywords.
        ("GDL040", base_with("(true (cell 2))"), base_with("(init (cell 2))")),
        ("GDL040", base_with("(<= (does robot (go 1)) (true (cell 1)))"), BASE.to_string()),
        ("GDL041", base_with("(<= (init (cell 2)) (true (cell 1)))"), base_with("(<= (init (cell 2)) (succ 1 2))")),
        ("GDL041", base_with("(<= (init (cell 2)) (started)) (<= started (legal robot (go 1)))"), base_with("(<= (init (cell 2)) (started)) (<= started (succ 1 2))")),
        ("GDL042", base_with("(<= (role other) (succ 1 2))"), base_with("(role other) (legal other noop) (goal other 0)")),
        ("GDL043", base_with("(<= (legal robot stay) (init (cell 1)))"), base_with("(<= (legal robot stay) (true (cell 1)))")),
        ("GDL043", base_with("(<= (legal robot stay) (next (cell 1)))"), base_with("(<= (legal robot stay) (true (cell 1)))")),
        ("GDL045", base_with("(<= terminal (does robot (go 1)))"), base_with("(<= (next over) (does robot (go 1))) (<= terminal (true over))")),
        ("GDL045", base_with("(<= (goal robot 50) (moved)) (<= moved (does robot ?m))"), base_with("(<= (goal robot 50) (moved)) (<= moved (true (cell 2)))")),
        ("GDL046", base_with("(<= (base (cell ?x)) (true (cell ?x)))"), base_with("(<= (base (cell ?x)) (succ ?x ?y))")),
        ("GDL047", base_with("(<= (legal robot) (true (cell 1)))"), base_with("(<= (legal robot stay) (true (cell 1)))")),
        ("GDL047", base_with("(<= (goal robot 0 1) (true (cell 1)))"), base_with("(<= (goal robot 0) (true (cell 1)))")),
        ("GDL048", base_with("(<= (legal robot (go not)) (true (cell 1)))"), base_with("(<= (legal robot (go nope)) (true (cell 1)))")),
        ("GDL048", base_with("(<= (next (cell (true 1))) (true (cell 1)))"), base_with("(<= (next (cell (t 1))) (true (cell 1)))")),
        ("GDL048", base_with("(distinct 1 2)"), BASE.to_string()),
        // Essentials.
        ("GDL060", base_without("(role robot)\n"), BASE.to_string()),
        ("GDL061", base_without("(<= terminal (true (cell 2)))\n"), BASE.to_string()),
        ("GDL062", base_without("(<= (legal robot (go ?x)) (true (cell ?x)))\n"), BASE.to_string()),
        ("GDL063", base_without("(goal robot 100)\n"), BASE.to_string()),
        ("GDL070", base_with("(goal robot 101)"), base_with("(goal robot 0)")),
        ("GDL070", base_with("(<= (goal robot win) (true (cell 2)))"), base_with("(<= (goal robot 50) (true (cell 2)))")),
        // Warnings.
        ("GDL100", base_with("(succ 1 2 3) (<= terminal (succ 1 2 3))"), base_with("(succ3 1 2 3) (<= terminal (succ3 1 2 3))")),
        ("GDL100", base_with("(foo bar) (foo bar bar) (<= terminal (foo bar) (foo bar bar))"), base_with("(foo bar) (<= terminal (foo bar))")),
        ("GDL101", base_with("(<= (legal robot (jump 1)) (true (cell 1))) (<= (legal robot (jump 1 2)) (true (cell 1)))"), base_with("(<= (legal robot (jump 1 1)) (true (cell 1))) (<= (legal robot (jump 1 2)) (true (cell 1)))")),
        ("GDL102", base_with("(<= (legal robot (succ 1)) (true (cell 1)))"), base_with("(<= (legal robot (next1 1)) (true (cell 1)))")),
        ("GDL103", base_with("(<= terminal (true (cell 1)) (suc 1 2))"), base_with("(<= terminal (true (cell 1)) (succ 1 2))")),
        ("GDL103", base_with("(<= terminal (true (cell 1)) (succ 1))"), BASE.to_string()),
        ("GDL104", base_with("(helper 1)"), base_with("(helper 1) (<= terminal (helper 1))")),
        ("GDL105", base_with("(<= terminal (true (Cell 3)))"), base_with("(<= terminal (true (cell 3)))")),
        ("GDL105", base_with("(<= (legal robot (hop ?X)) (true (cell ?x)))"), base_with("(<= (legal robot (hop ?x)) (true (cell ?x)))")),
        ("GDL106", base_with("(<= terminal (true (cell \u{fc})))"), base_with("(<= terminal (true (cell u)))")),
        ("GDL106", base_with("(<= terminal (true (cell a,b)))"), base_with("(<= terminal (true (cell a_b)))")),
        ("GDL106", base_with("(<= terminal (true (cell ?x')) (succ ?x' 2))"), base_with("(<= terminal (true (cell ?x2)) (succ ?x2 2))")),
        ("GDL107", base_with("(<= (terminal) (true (cell 3)))"), base_with("(<= terminal (true (cell 3)))")),
        ("GDL107", base_with("(<= terminal (true (lock)))"), base_with("(<= terminal (true lock))")),
        ("GDL108", base_with("(<= terminal (or (true (cell 3)) (or (true (cell 4)) (true (cell 5)))))"), base_with("(<= terminal (or (true (cell 3)) (true (cell 4)) (true (cell 5))))")),
        ("GDL108", base_with("(<= terminal (true (cell 3)) (or))"), base_with("(<= terminal (true (cell 3)))")),
        ("GDL109", base_with("(succ 1 2)"), base_with("(succ 2 3)")),
        ("GDL109", base_with("(<= terminal (true (cell ?y)))\n(<= terminal (true (cell ?z)))"), base_with("(<= terminal (true (cell ?y)))")),
        // GDL-II.
        ("GDL080", base_with("(<= (sees robot (at ?x)) (true (cell ?x))) (<= (legal robot stay) (sees robot (at 1)))"), base_with("(<= (sees robot (at ?x)) (true (cell ?x)))")),
        ("GDL081", base_with("(<= (sees robot) (true (cell 1)))"), base_with("(<= (sees robot here) (true (cell 1)))")),
        ("GDL082", base_with("(<= (sees other (at ?x)) (true (cell ?x)))"), base_with("(<= (sees robot (at ?x)) (true (cell ?x)))")),
        ("GDL113", base_with("(role random) (<= (legal random noop) (true (cell 1))) (goal random 50)"), base_with("(role random) (<= (legal random noop) (true (cell 1)))")),
        ("GDL110", base_with("(role other)"), base_with("(role other) (<= (legal other noop) (true (cell 1))) (goal other 0)")),
        ("GDL111", base_with("(<= (succ 2 3))"), base_with("(succ 2 3)")),
        ("GDL112", base_without("(init (cell 1))\n"), BASE.to_string()),
    ]
}

fn codes(text: &str) -> Vec<&'static str> {
    check_text(text).iter().map(|d| d.code).collect()
}

#[test]
fn base_game_is_clean() {
    assert_eq!(check_text(BASE), Vec::<Diagnostic>::new());
}

#[test]
fn every_code_has_a_trigger_and_a_clean_counterpart() {
    let mut failures = Vec::new();
    for (code, bad, good) in cases() {
        let (b, g) = (codes(&bad), codes(&good));
        if !b.contains(&code) {
            failures.push(format!("{code} not reported for\n{bad}\ngot {b:?}"));
        }
        if g.contains(&code) {
            failures.push(format!(
                "{code} reported for the corrected game\n{good}\ngot {g:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn severities_follow_the_code_ranges() {
    // Errors are GDL0xx, warnings GDL1xx.
    for (_, bad, _) in cases() {
        for d in check_text(&bad) {
            let want = if d.code < "GDL100" {
                Severity::Error
            } else {
                Severity::Warning
            };
            assert_eq!(d.severity, want, "{} {}", d.code, d.message);
        }
    }
}

/// Every code has a section in docs/diagnostics.md whose first example
/// (` ```lisp `: added to the base game, ` ```kif `: a whole game) triggers it.
#[test]
fn documented_examples_trigger_their_code() {
    let doc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/diagnostics.md"),
    )
    .unwrap();
    assert!(
        doc.contains(&format!("```kif\n{BASE}```")),
        "the base game in the docs differs from BASE"
    );
    // GDL016 needs a rule of 65,537 variables (tested in `program.rs`).
    let no_example = ["GDL004", "GDL005", "GDL016", "GDL050", "GDL090", "GDL091"];
    let mut failures = Vec::new();
    let mut sections = 0;
    for section in doc.split("\n## ").skip(1) {
        let code = &section[..6];
        if code >= "GDL200" {
            continue; // the semantic validator's codes (analysis), documented there
        }
        let body = section.split("\n# ").next().unwrap();
        let block = ["```lisp\n", "```kif\n"]
            .iter()
            .filter_map(|fence| body.find(fence).map(|i| (i, *fence)))
            .min()
            .map(|(i, fence)| {
                let rest = &body[i + fence.len()..];
                (fence.contains("kif"), &rest[..rest.find("```").unwrap()])
            });
        sections += 1;
        match block {
            None if no_example.contains(&code) => {}
            None => failures.push(format!("{code}: no example")),
            Some((whole, example)) => {
                let text = if whole {
                    example.to_string()
                } else {
                    base_with(example)
                };
                if !codes(&text).contains(&code) {
                    failures.push(format!(
                        "{code}: the example does not trigger it: {:?}",
                        codes(&text)
                    ));
                }
            }
        }
    }
    assert!(sections >= 40, "{sections} sections");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_code_is_documented() {
    let doc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/diagnostics.md"),
    )
    .unwrap();
    let mut all: Vec<&str> = cases().iter().map(|c| c.0).collect();
    all.extend(["GDL090", "GDL091"]);
    for code in all {
        assert!(
            doc.contains(&format!("## {code}")),
            "{code} has no section in docs/diagnostics.md"
        );
    }
}

/// Snapshots pin the rendered text of every kind of diagnostic: the
/// diagnostics with the case's code, rendered without colour.
#[test]
fn rendered_text_of_every_kind() {
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    for (code, bad, _) in cases() {
        let n = seen.entry(code).or_default();
        *n += 1;
        let diags: Vec<Diagnostic> = check_text(&bad)
            .into_iter()
            .filter(|d| d.code == code)
            .collect();
        let name = if *n == 1 {
            code.to_string()
        } else {
            format!("{code}_{n}")
        };
        insta::assert_snapshot!(name, render(&diags, "game.kif", &bad, false));
    }
}

#[test]
fn json_shape() {
    let text = base_with("(<= (legal ?p stay) (true (cell 1)))");
    let v = serde_json::json!({ "diagnostics": resolve(&check_text(&text), &text) });
    insta::assert_snapshot!("json", serde_json::to_string_pretty(&v).unwrap());
}

// ---------------------------------------------------------------------------
// Focused behaviour.

#[test]
fn goal_by_negated_other_goal_is_stratified() {
    // futoshiki: accepted by tabled Prolog and the reference reasoner.
    let text = base_with("(<= (goal robot 0) (not (goal robot 100)))");
    assert!(!codes(&text).contains(&"GDL030"));
}

#[test]
fn negative_cycle_names_its_path_with_a_span_per_edge() {
    let text = base_with("(<= (p ?x) (succ ?x ?y) (not (q ?y)))\n(<= (q ?y) (r ?y))\n(<= (r ?y) (p ?y))\n(<= terminal (p 1))");
    let d: Vec<_> = check_text(&text)
        .into_iter()
        .filter(|d| d.code == "GDL030")
        .collect();
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(
        d[0].message.contains("(p -> not q -> r -> p)"),
        "{}",
        d[0].message
    );
    assert_eq!(&text[d[0].span.range()], "(q ?y)");
    let related: Vec<&str> = d[0].related.iter().map(|r| &text[r.span.range()]).collect();
    assert_eq!(related, vec!["(r ?y)", "(p ?y)"]);
}

#[test]
fn unsafe_variable_points_at_the_variable_and_suggests_near_names() {
    let text = base_with("(<= (legal robot (hop ?cell)) (true (cell ?cel)))");
    let d: Vec<_> = check_text(&text)
        .into_iter()
        .filter(|d| d.code == "GDL020")
        .collect();
    assert_eq!(d.len(), 1);
    assert_eq!(&text[d[0].span.range()], "?cell");
    assert_eq!(d[0].hint, "did you mean `?cel`?");
    assert_eq!(&text[d[0].related[0].span.range()], "?cel");
}

#[test]
fn every_unsafe_variable_is_reported() {
    let text = base_with("(<= (p ?x ?y ?m ?n) (distinct ?y ?n)) (<= terminal (p 1 2 3 4))");
    let vars: Vec<String> = check_text(&text)
        .into_iter()
        .filter(|d| d.code == "GDL020")
        .map(|d| text[d.span.range()].to_string())
        .collect();
    assert_eq!(vars, vec!["?x", "?y", "?m", "?n"]);
}

#[test]
fn did_you_mean_for_an_undefined_relation() {
    let text = base_with("(<= terminal (true (cell 1)) (suc 1 2))");
    let d = check_text(&text)
        .into_iter()
        .find(|d| d.code == "GDL103")
        .unwrap();
    assert_eq!(d.hint, "did you mean `succ`?");
}

#[test]
fn inconsistent_spelling_like_alexchess() {
    let text = base_with("(nextRank 1 2) (nextRank 2 3) (<= terminal (nextrank 1 2))");
    let d: Vec<_> = check_text(&text)
        .into_iter()
        .filter(|d| d.code == "GDL105")
        .collect();
    assert_eq!(d.len(), 1);
    assert_eq!(&text[d[0].span.range()], "nextrank");
    assert!(d[0].message.contains("`nextRank`"));
}

#[test]
fn dependency_errors_name_the_path() {
    let text = base_with(
        "(<= (init (cell 2)) (started)) (<= started (helper)) (<= helper (true (cell 1)))",
    );
    let d = check_text(&text)
        .into_iter()
        .find(|d| d.code == "GDL041")
        .unwrap();
    assert!(
        d.message.contains("(init -> started -> helper -> true)"),
        "{}",
        d.message
    );
    assert_eq!(d.related.len(), 2);
}

#[test]
fn whole_program_checks_wait_for_syntax_errors_to_be_fixed() {
    // The unclosed `terminal` rule is lost: no "no terminal" error on top.
    let text = base_without("(<= terminal (true (cell 2)))\n") + "(<= terminal (true (cell 2))\n";
    assert_eq!(codes(&text), vec!["GDL002"]);
}

#[test]
fn no_panic_on_odd_input() {
    for text in [
        "",
        "(",
        ")",
        "?",
        "(?)",
        "(<= ?x)",
        "(<= (p) (not))",
        "(<= (p) (or ()))",
        "(((((",
        "(not)",
        "(<= (p ?x) (not (not (q ?x))))",
        "\u{feff}(role x)",
        "(role (f))",
        "(goal r)",
        "(<= p (distinct))",
    ] {
        let _ = check_text(text);
        let _ = gdlkit::format::format(text);
    }
}

// ---------------------------------------------------------------------------
// Agreement with the interpreter.

/// Whatever the interpreter refuses to load, the validator reports as an
/// error (the validator may be stricter, never more lenient).
fn agrees_with_interpreter(text: &str) -> Result<(), String> {
    let refused = gdlkit::load_game(text)
        .err()
        .map(|e| e.iter().map(|d| d.code).collect::<Vec<_>>());
    if let Some(codes) = refused {
        if !check_text(text).iter().any(Diagnostic::is_error) {
            return Err(format!(
                "interpreter refuses ({codes:?}) but check finds no error in\n{text}"
            ));
        }
    }
    Ok(())
}

#[test]
fn interpreter_refusals_are_errors() {
    for (_, bad, good) in cases() {
        agrees_with_interpreter(&bad).unwrap();
        agrees_with_interpreter(&good).unwrap();
    }
}

mod fuzz {
    use super::*;
    use proptest::prelude::*;

    /// Random small programs over a tiny vocabulary: they hit unsafe rules,
    /// negative cycles, `or`, `distinct`, keywords in odd places.
    fn term() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("?x".to_string()),
            Just("?y".to_string()),
            Just("a".to_string()),
            Just("1".to_string()),
            Just("(f ?x)".to_string()),
            Just("(f a)".to_string()),
        ]
    }

    fn atom() -> impl Strategy<Value = String> {
        (
            prop_oneof![
                Just("p"),
                Just("q"),
                Just("r"),
                Just("true"),
                Just("does"),
                Just("init"),
                Just("legal"),
                Just("terminal")
            ],
            prop::collection::vec(term(), 0..3),
        )
            .prop_map(|(r, args)| {
                if args.is_empty() {
                    r.to_string()
                } else {
                    format!("({r} {})", args.join(" "))
                }
            })
    }

    fn literal() -> impl Strategy<Value = String> {
        prop_oneof![
            4 => atom(),
            2 => atom().prop_map(|a| format!("(not {a})")),
            1 => (term(), term()).prop_map(|(a, b)| format!("(distinct {a} {b})")),
            1 => (atom(), atom()).prop_map(|(a, b)| format!("(or {a} {b})")),
            1 => (term(), term()).prop_map(|(a, b)| format!("(not (distinct {a} {b}))")),
        ]
    }

    fn rule() -> impl Strategy<Value = String> {
        (atom(), prop::collection::vec(literal(), 0..4)).prop_map(|(h, body)| {
            if body.is_empty() {
                h
            } else {
                format!("(<= {h} {})", body.join(" "))
            }
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

        #[test]
        fn random_programs(rules in prop::collection::vec(rule(), 1..8)) {
            let text = rules.join("\n");
            agrees_with_interpreter(&text).map_err(TestCaseError::fail)?;
        }

        #[test]
        fn random_text_never_panics(text in "[()?a-z<=; \n]{0,60}") {
            let _ = check_text(&text);
            let _ = gdlkit::format::format(&text);
        }
    }
}

// ---------------------------------------------------------------------------
// The corpus (`shared/conformance/README.md`).

use crate::common::corpus;

/// Corpus games of `folder`, or the project's own games on a plain clone.
fn games(folder: &str) -> Vec<PathBuf> {
    corpus::kif_files(&format!("games/{folder}"), "check corpus tests")
}

fn stem(p: &Path) -> String {
    p.file_stem().unwrap().to_string_lossy().into_owned()
}

#[test]
fn ggp_base_tests_behave_as_the_conformance_readme_states() {
    // Games that must be rejected, with the code that rejects them.
    let invalid = [
        ("test_case_3b", "GDL020"),
        ("test_case_3e", "GDL020"),
        ("test_case_3f", "GDL020"),
        ("test_clean_not_distinct", "GDL031"),
    ];
    // Valid games that deserve a warning, with that warning.
    let warned = [
        ("test_case_1a", "GDL111"),
        ("test_case_3a", "GDL107"),
        ("test_invalid_function_arities_differ", "GDL101"),
        ("test_invalid_sentence_arities_differ", "GDL100"),
    ];
    for game in games("ggp-base-test") {
        let name = stem(&game);
        let diags = check_text(&std::fs::read_to_string(&game).unwrap());
        let errors: Vec<&str> = diags
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.code)
            .collect();
        match invalid.iter().find(|(g, _)| *g == name) {
            Some((_, code)) => assert!(
                errors.contains(code),
                "{name}: expected {code}, got {errors:?}"
            ),
            None => assert!(
                errors.is_empty(),
                "{name} is valid but got errors {errors:?}"
            ),
        }
        if let Some((_, code)) = warned.iter().find(|(g, _)| *g == name) {
            assert!(
                diags.iter().any(|d| d.code == *code && !d.is_error()),
                "{name}: expected warning {code}"
            );
        }
    }
}

/// Repository games with errors, and why (none so far: all have traces that
/// the reasoner replays, or, for queens31lg, are merely slow).
const BROKEN: [(&str, &str); 0] = [];

#[test]
fn repository_games_have_no_errors_unless_broken() {
    let mut unexpected = Vec::new();
    for game in games("repository") {
        let name = stem(&game);
        let text = std::fs::read_to_string(&game).unwrap();
        let errors: Vec<String> = check_text(&text)
            .iter()
            .filter(|d| d.is_error())
            .map(|d| format!("{} {}", d.code, d.message))
            .collect();
        let broken = BROKEN.iter().any(|(g, _)| *g == name);
        if errors.is_empty() == broken {
            unexpected.push(format!("{name}: {errors:?}"));
        }
    }
    assert!(unexpected.is_empty(), "{}", unexpected.join("\n"));
}

/// The codes every corpus game gets, pinned (a change in the validator that
/// changes what the corpus reports shows up here).
#[test]
fn corpus_codes() {
    // A snapshot of the corpus: meaningless for the project's own games.
    if corpus::shared_or_skip("check: corpus_codes").is_none() {
        return;
    }
    let mut lines = Vec::new();
    for folder in ["ggp-base-test", "repository"] {
        for game in games(folder) {
            let text = std::fs::read_to_string(&game).unwrap();
            let mut counts = std::collections::BTreeMap::<&str, usize>::new();
            for d in check_text(&text) {
                *counts.entry(d.code).or_default() += 1;
            }
            if !counts.is_empty() {
                let c: Vec<String> = counts.iter().map(|(k, v)| format!("{k}x{v}")).collect();
                lines.push(format!("{folder}/{}: {}", stem(&game), c.join(" ")));
            }
        }
    }
    insta::assert_snapshot!("corpus_codes", lines.join("\n"));
}

#[test]
fn corpus_games_load_iff_no_interpreter_error_is_missed() {
    for folder in ["ggp-base-test", "repository"] {
        for game in games(folder) {
            let text = std::fs::read_to_string(&game).unwrap();
            agrees_with_interpreter(&text).unwrap_or_else(|e| panic!("{}: {e}", game.display()));
        }
    }
}

// ---------------------------------------------------------------------------
// The CLI.

struct MemHost {
    files: std::collections::HashMap<String, String>,
    terminal: bool,
}

impl gdlkit_cli::cli::Host for MemHost {
    fn read_file(&mut self, path: &str) -> Result<String, String> {
        self.files
            .get(path)
            .cloned()
            .ok_or_else(|| "not found".to_string())
    }
    fn write_file(&mut self, path: &str, content: &str) -> Result<(), String> {
        self.files.insert(path.to_string(), content.to_string());
        Ok(())
    }
    fn stdout_is_terminal(&self) -> bool {
        self.terminal
    }
}

fn run(
    args: &[&str],
    files: &[(&str, &str)],
    terminal: bool,
) -> (gdlkit_cli::cli::Output, MemHost) {
    let mut host = MemHost {
        files: files
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        terminal,
    };
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    (gdlkit_cli::cli::run(&args, &mut host), host)
}

#[test]
fn cli_check_text_json_and_exit_codes() {
    let bad = base_with("(<= (legal ?p stay) (true (cell 1)))");
    let (out, _) = run(&["check", "g.kif"], &[("g.kif", &bad)], false);
    assert_eq!(out.code, 1);
    assert!(
        out.stdout.starts_with("g.kif:8:12: error[GDL020]:"),
        "{}",
        out.stdout
    );
    assert!(
        !out.stdout.contains('\x1b'),
        "no colour when stdout is not a terminal"
    );
    assert!(
        out.stdout.ends_with("g.kif: 1 error, 0 warnings\n"),
        "{}",
        out.stdout
    );
    let (coloured, _) = run(&["check", "g.kif"], &[("g.kif", &bad)], true);
    assert!(
        coloured.stdout.contains("\x1b[1;31merror"),
        "colour on a terminal"
    );

    let (json, _) = run(
        &["check", "g.kif", "--format", "json"],
        &[("g.kif", &bad)],
        false,
    );
    assert_eq!(json.code, 1);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let d = &v["diagnostics"][0];
    for key in [
        "code",
        "severity",
        "message",
        "line",
        "column",
        "end_line",
        "end_column",
        "hint",
        "related",
    ] {
        assert!(d.get(key).is_some(), "missing {key}");
    }
    assert_eq!(
        (
            d["line"].as_u64(),
            d["column"].as_u64(),
            d["end_column"].as_u64()
        ),
        (Some(8), Some(12), Some(14))
    );
    assert_eq!(d["severity"], "error");

    let (ok, _) = run(&["check", "g.kif"], &[("g.kif", BASE)], false);
    assert_eq!(ok.code, 0);
    let warned = base_with("(helper 1)");
    let (w, _) = run(
        &["check", "g.kif", "--format", "json"],
        &[("g.kif", &warned)],
        false,
    );
    assert_eq!(w.code, 0, "warnings alone do not fail");
    let (missing, _) = run(&["check", "nope.kif"], &[], false);
    assert_eq!(missing.code, 2);
}

#[test]
fn cli_fmt_prints_writes_and_checks() {
    let messy = "(role robot)   (<= terminal (true (cell 2)) (true (cell 3)))";
    let want = "(role robot)\n\n(<= terminal\n    (true (cell 2))\n    (true (cell 3)))\n";
    let (out, _) = run(&["fmt", "g.kif"], &[("g.kif", messy)], false);
    assert_eq!((out.code, out.stdout.as_str()), (0, want));
    let (check, _) = run(&["fmt", "g.kif", "--check"], &[("g.kif", messy)], false);
    assert_eq!(check.code, 1);
    let (write, host) = run(&["fmt", "g.kif", "--write"], &[("g.kif", messy)], false);
    assert_eq!(write.code, 0);
    assert_eq!(host.files["g.kif"], want);
    let (check, _) = run(&["fmt", "g.kif", "--check"], &[("g.kif", want)], false);
    assert_eq!(check.code, 0);
    let (broken, _) = run(&["fmt", "g.kif"], &[("g.kif", "(role robot")], false);
    assert_eq!(broken.code, 1);
    assert!(broken.stderr.contains("GDL002"), "{}", broken.stderr);
}
