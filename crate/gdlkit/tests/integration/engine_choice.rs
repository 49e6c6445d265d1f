//! `--engine auto` picks the faster engine for a game that grounds
//! (`crate/engine/src/engine/choice.rs`): the interpreter where the fast engine is
//! clearly slower, the fast engine elsewhere. No timing is asserted: small
//! networks get the fast engine without a trial (`needs_trial`), and the games checked
//! after a trial are 2× (amazonsTorus) to 50× (the local game) apart.

use crate::common;

use common::corpus;
use gdlkit::engine::choice::needs_trial;
use gdlkit::engine::{load_engine_with, GroundBudget};
use gdlkit::{load_engine, EngineChoice};

/// 70 cyclic components recomputed at every move (see the file's comment).
const SLOW_GAME: &str = include_str!("slow_on_fast_engine.kif");

#[test]
fn a_game_slow_on_the_fast_engine_gets_the_interpreter() {
    let fast = load_engine(SLOW_GAME, EngineChoice::Fast).expect("it grounds");
    assert!(needs_trial(fast.ground_stats().expect("fast")));
    let auto = load_engine(SLOW_GAME, EngineChoice::Auto).expect("valid");
    assert_eq!(auto.name(), "interpreter");
    let why = auto.fallback().expect("a reason");
    assert!(why.contains("the interpreter is faster"), "{why}");
}

#[test]
fn small_networks_get_the_fast_engine() {
    let dir = corpus::games_dir("games/repository", "small_networks_get_the_fast_engine");
    let mut ran = 0;
    for name in ["ticTacToe", "connectFour", "breakthrough"] {
        let path = dir.join(format!("{name}.kif"));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let auto = load_engine(&text, EngineChoice::Auto).expect("valid");
        assert_eq!(auto.name(), "fast", "{name}: {:?}", auto.fallback());
        assert!(!needs_trial(auto.ground_stats().expect("fast")), "{name}");
        ran += 1;
    }
    assert_eq!(ran, 3);
}

/// amazonsTorus (0.4-0.9×) grounds but runs slower on the fast engine.
/// Grounding it takes 20-60 s under load, so this runs with `--ignored`
/// (`cargo test --profile ci -p gdlkit --test integration engine_choice --
/// --ignored`).
#[test]
#[ignore]
fn amazons_torus_gets_the_interpreter() {
    let Some(dir) = corpus::shared_or_skip("engine_choice: amazons_torus_gets_the_interpreter")
    else {
        return;
    };
    let budget = GroundBudget {
        max_ms: 600_000.0,
        ..GroundBudget::default()
    };
    let path = dir.join("games/repository/amazonsTorus.kif");
    let text = std::fs::read_to_string(&path).expect("corpus game");
    let auto = load_engine_with(&text, EngineChoice::Auto, budget).expect("valid");
    let why = auto.fallback().unwrap_or("");
    assert!(why.contains("the interpreter is faster"), "{why:?}");
}
