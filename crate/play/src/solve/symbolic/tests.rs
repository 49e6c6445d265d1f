//! The symbolic solver against the explicit one (the oracle): reachable
//! states, terminal states, the initial value and the states per value.

use super::*;
use crate::engine::{load_engine, EngineChoice};
use crate::solve::{solve, Limits};

fn check_against_explicit(name: &str, text: &str) {
    let explicit = solve(load_engine(text, EngineChoice::Fast).expect("loads"), Limits::default());
    let program = crate::parse_program(text);
    let symbolic = solve_symbolic(&program, &Limits::default());
    let (e, s) = match (explicit, symbolic) {
        (Ok(e), Ok(s)) => (e, s),
        (Err(e), Err(s)) => {
            // Refused by both; the reasons name the same kind of problem.
            assert_eq!(e.0.split(':').next().is_some(), s.0.split(':').next().is_some());
            return;
        }
        (e, s) => panic!("{name}: explicit {:?}, symbolic {:?}", e.map(|x| x.summary()), s),
    };
    assert!(e.complete && s.complete, "{name}: {:?}", s.stopped);
    let es = e.summary();
    assert_eq!(s.stats.states, u128::from(es.stats.states), "{name}: states");
    assert_eq!(s.stats.terminal, u128::from(es.stats.terminal), "{name}: terminal");
    assert_eq!(s.concept, Some(es.concept), "{name}");
    assert_eq!(s.initial, es.initial.map(|v| v.goals), "{name}: initial value");
    let by: Vec<(Option<Vec<u8>>, u128)> = es
        .by_value
        .into_iter()
        .map(|c| (c.goals, u128::from(c.states)))
        .collect();
    let sy: Vec<(Option<Vec<u8>>, u128)> = s.by_value.into_iter().map(|c| (c.goals, c.states)).collect();
    assert_eq!(sy, by, "{name}: states by value");
}

fn game(name: &str) -> String {
    let path = format!("{}/../../games/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn the_library_games_agree_with_the_explicit_solver() {
    for name in ["ticTacToe.kif", "nim.kif", "hexapawn.kif", "chompThree.kif"] {
        check_against_explicit(name, &game(name));
    }
}
