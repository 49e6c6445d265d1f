//! The symbolic solver against the explicit one (the oracle): reachable
//! states, terminal states, the initial value and the states per value.

use super::*;
use crate::engine::{load_engine, EngineChoice};
use crate::solve::{solve, Limits};

/// Whether both solvers solved `text` completely (and then agree); panics
/// when they disagree or only one refuses.
fn check_against_explicit(
    name: &str,
    text: &str,
    explicit: Limits,
    symbolic: SymbolicLimits,
) -> bool {
    let Ok(engine) = load_engine(text, EngineChoice::Fast) else {
        return false;
    };
    let explicit = solve(engine, explicit);
    let program = crate::parse_program(text);
    let symbolic = solve_symbolic(&program, &symbolic);
    let (e, s) = match (explicit, symbolic) {
        (Ok(e), Ok(s)) => (e, s),
        (Err(_), Err(_)) => return false,
        (e, s) => panic!(
            "{name}: explicit {:?}, symbolic {:?}",
            e.map(|x| x.summary()),
            s
        ),
    };
    if !e.complete || !s.complete {
        return false;
    }
    let es = e.summary();
    assert_eq!(
        s.stats.states,
        u128::from(es.stats.states),
        "{name}: states"
    );
    assert_eq!(
        s.stats.terminal,
        u128::from(es.stats.terminal),
        "{name}: terminal"
    );
    assert_eq!(s.concept, Some(es.concept), "{name}");
    assert_eq!(
        s.initial,
        es.initial.map(|v| v.goals),
        "{name}: initial value"
    );
    let by: Vec<(Option<Vec<u8>>, u128)> = es
        .by_value
        .into_iter()
        .map(|c| (c.goals, u128::from(c.states)))
        .collect();
    let sy: Vec<(Option<Vec<u8>>, u128)> = s
        .by_value
        .into_iter()
        .map(|c| (c.goals, c.states))
        .collect();
    assert_eq!(sy, by, "{name}: states by value");
    true
}

fn game(name: &str) -> String {
    let path = format!("{}/../../games/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A counter one role moves up or down for ever (the explicit solver's
/// test game): only the two terminal states get values.
const CYCLE: &str = "
    (role a) (role b)
    (init (at 1)) (init (control a))
    (up 0 1) (up 1 2) (up 2 3)
    (<= (legal ?p (move ?y)) (true (control ?p)) (true (at ?x)) (up ?x ?y))
    (<= (legal ?p (move ?y)) (true (control ?p)) (true (at ?x)) (up ?y ?x))
    (<= (legal a noop) (true (control b)))
    (<= (legal b noop) (true (control a)))
    (<= (next (at ?y)) (does ?p (move ?y)))
    (<= (next (control b)) (true (control a)))
    (<= (next (control a)) (true (control b)))
    (<= terminal (true (at 3)))
    (<= terminal (true (at 0)))
    (<= (goal a 100) (true (at 3)))
    (<= (goal a 0) (true (at 0)))
    (<= (goal b 0) (true (at 3)))
    (<= (goal b 100) (true (at 0)))
";

/// One role: reach 3 by steps of one or two, goal 100 at 3, 50 at 4.
const PLAN: &str = "
    (role p)
    (init (at 0))
    (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
    (<= (legal p (step ?y)) (true (at ?x)) (succ ?x ?y))
    (<= (legal p (jump ?z)) (true (at ?x)) (succ ?x ?y) (succ ?y ?z))
    (<= (next (at ?y)) (does p (step ?y)))
    (<= (next (at ?y)) (does p (jump ?y)))
    (<= terminal (true (at 3)))
    (<= terminal (true (at 4)))
    (<= (goal p 100) (true (at 3)))
    (<= (goal p 50) (true (at 4)))
";

#[test]
fn cycles_one_role_and_refusals_agree_with_the_explicit_solver() {
    assert!(check_against_explicit(
        "cycle",
        CYCLE,
        Limits::default(),
        SymbolicLimits::default()
    ));
    assert!(check_against_explicit(
        "plan",
        PLAN,
        Limits::default(),
        SymbolicLimits::default()
    ));
    let p = crate::parse_program(&game("rockPaperScissors.kif"));
    let e = solve_symbolic(&p, &SymbolicLimits::default()).unwrap_err();
    assert!(e.0.contains("simultaneous"), "{e}");
    let p = crate::parse_program(&game("threePlayerTicTacToe.kif"));
    let e = solve_symbolic(&p, &SymbolicLimits::default()).unwrap_err();
    assert!(e.0.contains("3 roles"), "{e}");
}
