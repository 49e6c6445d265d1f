//! Unit tests of the analysis helpers and of small inline games.

use super::*;

const COIN: &str = "
(role p)
(init (side heads))
(legal p flip)
(legal p stop)
(<= (next (side tails)) (does p flip) (true (side heads)))
(<= (next (side heads)) (does p flip) (true (side tails)))
(<= (next done) (does p stop))
(<= (next (side ?s)) (does p stop) (true (side ?s)))
(<= terminal (true done))
(<= (goal p 100) (true done) (true (side tails)))
(<= (goal p 0) (true done) (true (side heads)))
";

#[test]
fn joint_moves_are_enumerated_first_role_slowest() {
    let legal = vec![
        vec![TermId(1), TermId(2)],
        vec![TermId(3), TermId(4), TermId(5)],
    ];
    assert_eq!(joint_count(&legal), 6);
    let mut out = Vec::new();
    let all: Vec<Vec<TermId>> = (0..6)
        .map(|j| {
            joint_at(&legal, j, &mut out);
            out.clone()
        })
        .collect();
    assert_eq!(all, crate::reasoner::cartesian(&legal));
}

#[test]
fn counterexamples_format_on_one_line() {
    assert_eq!(format_moves(&[]), "(none: the initial state itself)");
    let one = vec![vec!["a".to_string()], vec!["b".to_string()]];
    assert_eq!(format_moves(&one), "a, b");
    let two = vec![vec!["(mark 1 1)".to_string(), "noop".to_string()]];
    assert_eq!(format_moves(&two), "[(mark 1 1), noop]");
}

#[test]
fn a_flipping_coin_cycles_but_is_solvable() {
    let m = crate::load_game(COIN).unwrap();
    let r = analyze(m, Options::default());
    assert_eq!(r.mode, Mode::Exhaustive);
    // heads, tails, and the two stopped states.
    assert_eq!((r.states, r.terminal_states), (4, 2));
    assert_eq!(r.terminates.holds, Some(false));
    assert_eq!(
        r.terminates.counterexample,
        Some(vec![vec!["flip".to_string()], vec!["flip".to_string()]])
    );
    assert_eq!(
        r.witnesses[0],
        Some(vec![vec!["flip".to_string()], vec!["stop".to_string()]])
    );
    assert_eq!(r.strongly_winnable.holds, Some(true));
    let d = to_diagnostics(&r);
    assert_eq!(
        d.iter().map(|d| d.code).collect::<Vec<_>>(),
        [codes::NOT_TERMINATING, codes::NOT_MONOTONE]
    );
}

#[test]
fn stopping_keeps_what_was_found() {
    let m = crate::load_game(COIN).unwrap();
    let mut job = AnalysisJob::new(m, Options::default());
    job.step(1);
    let p = job.stop();
    assert!(p.done);
    let r = job.report().unwrap();
    assert_eq!(r.mode, Mode::Sampled);
    assert_eq!(r.terminates.holds, None);
    assert!(
        r.terminates.detail.starts_with("stopped early: "),
        "{}",
        r.terminates.detail
    );
}

#[test]
fn evaluation_errors_end_the_job_with_a_report() {
    // Unbounded recursion through function terms: the next state grows.
    let text = "
(role p)
(init (n 0))
(legal p go)
(<= (next (n (s ?x))) (true (n ?x)))
(<= (deep ?x) (true (n ?x)))
(<= (deep ?x) (deep (s ?x)))
(<= terminal (deep stop))
(<= (goal p 100) (true (n 0)))
";
    let program = crate::parse_program(text);
    let limits = crate::Limits {
        max_term_depth: 50,
        ..crate::Limits::default()
    };
    let m = crate::Interpreter::with_limits(&program, limits).expect("loads");
    let r = analyze(m, Options::with_budget(1000));
    assert!(r.error.is_some(), "{r:?}");
    assert_eq!(r.mode, Mode::Sampled);
    assert!(to_diagnostics(&r)
        .iter()
        .any(|d| d.code == codes::ANALYSIS_STOPPED));
}
