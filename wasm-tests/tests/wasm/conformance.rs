//! Reference traces (`shared/conformance/`) replayed through the wasm API:
//! every step's fluents, terminal flag, legal moves and goal values must
//! match exactly, both through the `Game` class (state handles) and through
//! `replay()` (the conformance JSON).
#![cfg(target_arch = "wasm32")]

use crate::common;

use common::{from_js, strings};
use gdlkit_wasm::wasm::{replay, Game};
use serde_json::Value;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test;

/// (name, trace JSON, game KIF), copies from the shared corpus in `fixtures/`
/// (tests only: nothing of it ships).
macro_rules! trace {
    ($folder:literal, $name:literal) => {
        (
            concat!($folder, "/", $name),
            include_str!(concat!("../../fixtures/", $folder, "/", $name, ".json")),
            include_str!(concat!("../../fixtures/", $folder, "/", $name, ".kif")),
        )
    };
}

const TRACES: &[(&str, &str, &str)] = &[
    trace!("repository", "ticTacToe"),
    trace!("repository", "roshambo2"),
    trace!("repository", "3pffa"),
    trace!("repository", "connectFour"),
    trace!("repository", "maze"),
    trace!("ggp-base-test", "test_case_2c"),
    trace!("ggp-base-test", "test_case_3a"),
];

/// Replays one playout through the `Game` class and compares every step.
/// Returns the number of steps compared.
fn check_with_game(name: &str, game: &mut Game, roles: &[String], playout: &Value) -> usize {
    let steps = playout["steps"].as_array().expect("steps");
    let moves: Vec<Vec<String>> = playout["joint_moves"]
        .as_array()
        .expect("joint_moves")
        .iter()
        .map(strings)
        .collect();
    assert_eq!(steps.len(), moves.len() + 1, "{name}: trace shape");
    let mut state = game.initial_state().expect("initial state");
    for (i, expected) in steps.iter().enumerate() {
        let at = format!("{name} step {i}");
        assert_eq!(
            game.fluents(state).expect("fluents"),
            strings(&expected["state"]),
            "{at}: state"
        );
        assert_eq!(
            game.is_terminal(state).expect("terminal"),
            expected["terminal"].as_bool().unwrap(),
            "{at}: terminal"
        );
        let goal_values: Vec<Vec<i64>> = from_js(game.goal_values(state).expect("goal values"));
        for (r, role) in roles.iter().enumerate() {
            let legal = game.legal_moves(state, r as u32).expect("legal moves");
            assert_eq!(
                legal,
                strings(&expected["legal"][role]),
                "{at}: legal moves of {role}"
            );
            let goals: Vec<i64> = expected["goals"][role]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g.as_i64().unwrap())
                .collect();
            assert_eq!(goal_values[r], goals, "{at}: goals of {role}");
        }
        // The one-call description agrees with the single queries.
        let d: Value = from_js(game.describe(state).expect("describe"));
        assert_eq!(
            strings(&d["fluents"]),
            strings(&expected["state"]),
            "{at}: describe"
        );
        if let Some(joint) = moves.get(i) {
            let next = game.next(state, joint.clone()).expect("a legal joint move");
            game.drop_state(state);
            state = next;
        }
    }
    game.clear_states();
    assert_eq!(game.state_count(), 0);
    steps.len()
}

#[wasm_bindgen_test]
fn traces_match_through_the_game_class() {
    let mut total = 0;
    for (name, trace_text, kif) in TRACES {
        let trace: Value = serde_json::from_str(trace_text).expect("trace JSON");
        let mut game = Game::new(kif).unwrap_or_else(|_| panic!("{name}: the game loads"));
        let roles = strings(&trace["roles"]);
        assert_eq!(game.roles(), roles, "{name}: roles");
        for playout in trace["playouts"].as_array().unwrap() {
            total += check_with_game(name, &mut game, &roles, playout);
        }
    }
    assert!(total > 50, "compared {total} steps");
}

#[wasm_bindgen_test]
fn traces_match_through_replay() {
    for (name, trace_text, kif) in TRACES {
        let trace: Value = serde_json::from_str(trace_text).expect("trace JSON");
        for playout in trace["playouts"].as_array().unwrap() {
            // Moves given as JSON text ...
            let got: Value =
                from_js(replay(kif, JsValue::from_str(&playout.to_string())).expect("replay"));
            assert_eq!(got["roles"], trace["roles"], "{name}: roles");
            assert_eq!(got["steps"], playout["steps"], "{name}: steps");
            // ... and as a JS value (a bare list of joint moves).
            let moves = serde_wasm_bindgen::to_value(&playout["joint_moves"]).unwrap();
            let again: Value = from_js(replay(kif, moves).expect("replay"));
            assert_eq!(again, got, "{name}: moves as a JS value");
        }
    }
}
