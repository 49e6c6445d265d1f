//! The wasm API: the `Game` class, its errors (thrown JS objects, never a
//! trap), state handles, `runCli`, and the clock.
#![cfg(target_arch = "wasm32")]

use crate::common;

use common::{from_js, get, ROCK_PAPER_SCISSORS, TIC_TAC_TOE};
use gdlkit_wasm::wasm::{replay, run_cli, Game};
use serde_json::{json, Value};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

fn error_name(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.name()))
        .unwrap_or_else(|| format!("not an Error: {e:?}"))
}

/// Plays `x` moves (as "row col") with `o` moves interleaved, from the
/// initial state; returns the final handle.
fn play_ttt(game: &mut Game, cells: &[(u32, u32)]) -> f64 {
    let mut state = game.initial_state().unwrap();
    for (i, (r, c)) in cells.iter().enumerate() {
        let mark = format!("(mark {r} {c})");
        let joint = if i % 2 == 0 {
            vec![mark, "noop".into()]
        } else {
            vec!["noop".into(), mark]
        };
        state = game.next(state, joint).unwrap();
    }
    state
}

#[wasm_bindgen_test]
fn tic_tac_toe_through_the_api() {
    let mut game = Game::new(TIC_TAC_TOE).unwrap();
    assert_eq!(game.roles(), s(&["x", "o"]));
    let init = game.initial_state().unwrap();
    let fluents = game.fluents(init).unwrap();
    assert_eq!(fluents.len(), 10);
    assert!(fluents.contains(&"(cell 2 2 blank)".to_string()));
    assert!(fluents.contains(&"(control x)".to_string()));
    assert!(!game.is_terminal(init).unwrap());
    let x_moves = game.legal_moves(init, 0).unwrap();
    assert_eq!(x_moves.len(), 9);
    assert_eq!(x_moves[0], "(mark 1 1)");
    assert!(x_moves.windows(2).all(|w| w[0] < w[1]), "sorted");
    assert_eq!(game.legal_moves(init, 1).unwrap(), s(&["noop"]));
    let joint: Vec<Vec<String>> = from_js(game.legal_joint_moves(init).unwrap());
    assert_eq!(joint.len(), 9);
    assert_eq!(joint[4], s(&["(mark 2 2)", "noop"]));
    let goals: Vec<Option<i64>> = from_js(game.goals(init).unwrap());
    assert_eq!(goals, vec![Some(50), Some(50)]);

    // x wins along the top row.
    let end = play_ttt(&mut game, &[(1, 1), (2, 1), (1, 2), (2, 2), (1, 3)]);
    assert!(game.is_terminal(end).unwrap());
    let goals: Vec<Option<i64>> = from_js(game.goals(end).unwrap());
    assert_eq!(goals, vec![Some(100), Some(0)]);
    assert!(game
        .fluents(end)
        .unwrap()
        .contains(&"(cell 1 3 x)".to_string()));

    // A full board without a line is a draw.
    let draw = play_ttt(
        &mut game,
        &[
            (1, 1),
            (1, 2),
            (1, 3),
            (2, 2),
            (2, 1),
            (2, 3),
            (3, 2),
            (3, 1),
            (3, 3),
        ],
    );
    assert!(game.is_terminal(draw).unwrap());
    let values: Vec<Vec<i64>> = from_js(game.goal_values(draw).unwrap());
    assert_eq!(values, vec![vec![50], vec![50]]);
}

#[wasm_bindgen_test]
fn simultaneous_moves() {
    let mut game = Game::new(ROCK_PAPER_SCISSORS).unwrap();
    assert_eq!(game.roles(), s(&["left", "right"]));
    let init = game.initial_state().unwrap();
    let joint: Vec<Vec<String>> = from_js(game.legal_joint_moves(init).unwrap());
    assert_eq!(joint.len(), 9, "3 x 3 joint moves");
    assert_eq!(
        joint[0],
        s(&["(throw paper)", "(throw paper)"]),
        "sorted, first role slowest"
    );
    assert_eq!(joint[1], s(&["(throw paper)", "(throw rock)"]));
    let mut state = init;
    for (l, r) in [
        ("rock", "scissors"),
        ("paper", "paper"),
        ("scissors", "rock"),
    ] {
        state = game
            .next(state, vec![format!("(throw {l})"), format!("(throw {r})")])
            .unwrap();
    }
    assert!(game.is_terminal(state).unwrap());
    let goals: Vec<Option<i64>> = from_js(game.goals(state).unwrap());
    assert_eq!(goals, vec![Some(50), Some(50)]);
    let won = game
        .next(init, s(&["(throw rock)", "(throw scissors)"]))
        .unwrap();
    assert!(game
        .fluents(won)
        .unwrap()
        .contains(&"(score left 1)".to_string()));
}

#[wasm_bindgen_test]
fn a_syntax_error_throws_an_error_with_diagnostics() {
    // A non-ASCII comment before the error: `from`/`to` count UTF-16 units.
    let text = "; caf\u{e9} \u{1F600}\n(role x)\n(init (foo)\n";
    let err = match Game::new(text) {
        Ok(_) => panic!("the game has a syntax error"),
        Err(e) => e,
    };
    assert!(err.is_instance_of::<js_sys::Error>(), "an Error object");
    assert_eq!(error_name(&err), "GdlDiagnosticsError");
    let diagnostics = get(&err, "diagnostics");
    assert!(js_sys::Array::is_array(&diagnostics));
    let list: Vec<Value> = from_js(diagnostics);
    assert!(!list.is_empty());
    let d = &list[0];
    assert_eq!(d["code"], "GDL002");
    assert_eq!(d["severity"], "error");
    assert!(d["message"].as_str().unwrap().contains("unclosed"), "{d}");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(3), Some(1))
    );
    // "; café 😀\n" is 10 UTF-16 units (the emoji is 2), "(role x)\n" 9.
    assert_eq!(d["from"].as_u64(), Some(19));
    for key in ["endLine", "endColumn", "to", "hint", "related"] {
        assert!(!d[key].is_null(), "{key} present");
    }
    let message = String::from(err.unchecked_ref::<js_sys::Error>().message());
    assert!(message.contains("game.kif:3:1"), "{message}");
    // The module still works after a thrown error (no trap).
    assert!(Game::new(TIC_TAC_TOE).is_ok());
}

#[wasm_bindgen_test]
fn several_errors_are_all_reported() {
    let err = Game::new("(role x))\n(init (a)\n(legal x =< y)\n")
        .err()
        .expect("errors");
    let list: Vec<Value> = from_js(get(&err, "diagnostics"));
    assert!(list.len() >= 2, "{list:?}");
}

#[wasm_bindgen_test]
fn bad_moves_and_handles_throw() {
    let mut game = Game::new(TIC_TAC_TOE).unwrap();
    let init = game.initial_state().unwrap();
    let illegal = game.next(init, s(&["noop", "noop"])).unwrap_err();
    assert_eq!(error_name(&illegal), "GdlMoveError");
    assert!(
        String::from(illegal.unchecked_ref::<js_sys::Error>().message())
            .contains("noop of role x is not legal")
    );
    assert_eq!(
        error_name(&game.next(init, s(&["(mark 1 1)"])).unwrap_err()),
        "GdlMoveError"
    );
    assert_eq!(
        error_name(&game.next(init, s(&["(mark 1", "noop"])).unwrap_err()),
        "GdlMoveError"
    );
    assert_eq!(
        error_name(&game.legal_moves(init, 2).unwrap_err()),
        "RangeError"
    );
    assert_eq!(
        error_name(&game.fluents(12345.0).unwrap_err()),
        "RangeError"
    );
    // Case and spacing do not matter: moves are terms, not strings.
    let after = game.next(init, s(&["( MARK 2  2 )", "NoOp"])).unwrap();
    assert!(game
        .fluents(after)
        .unwrap()
        .contains(&"(cell 2 2 x)".to_string()));
    // A terminal state has no next state.
    let end = play_ttt(&mut game, &[(1, 1), (2, 1), (1, 2), (2, 2), (1, 3)]);
    assert_eq!(
        error_name(&game.next(end, s(&["noop", "(mark 3 3)"])).unwrap_err()),
        "GdlMoveError"
    );
}

#[wasm_bindgen_test]
fn state_handles_are_released() {
    let mut game = Game::new(TIC_TAC_TOE).unwrap();
    let a = game.initial_state().unwrap();
    let b = game.initial_state().unwrap();
    assert_ne!(a, b, "every call gives a new handle");
    assert!(game.same_state(a, b).unwrap());
    let c = game.next(a, s(&["(mark 1 1)", "noop"])).unwrap();
    assert!(!game.same_state(a, c).unwrap());
    assert_eq!(game.state_count(), 3);
    game.drop_state(b);
    assert_eq!(game.state_count(), 2);
    assert_eq!(
        error_name(&game.is_terminal(b).unwrap_err()),
        "RangeError",
        "a dropped handle is not reused"
    );
    game.drop_state(b); // dropping twice is harmless
    let fluents = game.fluents(c).unwrap();
    let d = game.state_from_fluents(fluents.clone()).unwrap();
    assert!(game.same_state(c, d).unwrap());
    assert_eq!(game.legal_moves(d, 1).unwrap().len(), 8);
    game.clear_states();
    assert_eq!(game.state_count(), 0);
    assert!(game.fluents(a).is_err());
    let fresh = game.initial_state().unwrap();
    assert!(fresh > d, "handles are not reused after clearStates");
}

#[wasm_bindgen_test]
fn a_state_handle_names_its_game() {
    let mut a = Game::new(TIC_TAC_TOE).unwrap();
    let mut b = Game::new(TIC_TAC_TOE).unwrap();
    let ha = a.initial_state().unwrap();
    let hb = b.initial_state().unwrap();
    for (what, result) in [
        ("fluents", a.fluents(hb).map(|_| ())),
        ("sameState", a.same_state(ha, hb).map(|_| ())),
        ("isTerminal", a.is_terminal(hb).map(|_| ())),
        ("not a handle", a.fluents(0.5).map(|_| ())),
        ("NaN", a.fluents(f64::NAN).map(|_| ())),
    ] {
        let e = result.unwrap_err();
        assert_eq!(error_name(&e), "RangeError", "{what}");
    }
    a.drop_state(hb); // another game's handle: ignored
    assert_eq!(b.fluents(hb).unwrap().len(), 10);
    assert_eq!(a.fluents(ha).unwrap().len(), 10);
}

fn files(entries: &[(&str, &str)]) -> JsValue {
    let obj = js_sys::Object::new();
    for (k, v) in entries {
        js_sys::Reflect::set(&obj, &JsValue::from_str(k), &JsValue::from_str(v)).unwrap();
    }
    obj.into()
}

#[wasm_bindgen_test]
fn run_cli_runs_the_native_commands() {
    // check: an error gives exit code 1 and a rendered diagnostic.
    let out: Value = from_js(
        run_cli(
            s(&["check", "bad.kif"]),
            files(&[("bad.kif", "(role x)\n(init (a)\n")]),
            None,
        )
        .unwrap(),
    );
    assert_eq!(out["code"], 1);
    assert!(
        out["stdout"]
            .as_str()
            .unwrap()
            .contains("bad.kif:2:1: error[GDL002]"),
        "{out}"
    );
    let ok: Value = from_js(
        run_cli(
            s(&["check", "t.kif"]),
            files(&[("t.kif", TIC_TAC_TOE)]),
            None,
        )
        .unwrap(),
    );
    assert_eq!(ok["code"], 0, "{ok}");

    // replay: the same JSON as `replay()`.
    let moves = r#"[["(mark 2 2)", "noop"], ["noop", "(mark 1 1)"]]"#;
    let out: Value = from_js(
        run_cli(
            s(&["replay", "t.kif", "m.json"]),
            files(&[("t.kif", TIC_TAC_TOE), ("m.json", moves)]),
            None,
        )
        .unwrap(),
    );
    assert_eq!(out["code"], 0, "{out}");
    let printed: Value = serde_json::from_str(out["stdout"].as_str().unwrap()).unwrap();
    let direct: Value = from_js(replay(TIC_TAC_TOE, JsValue::from_str(moves)).unwrap());
    assert_eq!(printed, direct);
    assert_eq!(printed["steps"].as_array().unwrap().len(), 3);

    // An illegal move in replay: exit 1, the step named on stderr.
    let bad = r#"[["noop", "noop"]]"#;
    let out: Value = from_js(
        run_cli(
            s(&["replay", "t.kif", "m.json"]),
            files(&[("t.kif", TIC_TAC_TOE), ("m.json", bad)]),
            None,
        )
        .unwrap(),
    );
    assert_eq!(out["code"], 1);
    assert!(out["stderr"].as_str().unwrap().contains("step 1"), "{out}");

    // play with a seed is reproducible; files may come from a Map or a function.
    let map = js_sys::Map::new();
    map.set(&"t.kif".into(), &TIC_TAC_TOE.into());
    let a: Value = from_js(
        run_cli(
            s(&["play", "t.kif", "--seed", "7", "--format", "json"]),
            map.into(),
            None,
        )
        .unwrap(),
    );
    let reader = js_sys::Function::new_with_args(
        "path",
        &format!(
            "return path === 't.kif' ? {} : undefined",
            json!(TIC_TAC_TOE)
        ),
    );
    let b: Value = from_js(
        run_cli(
            s(&["play", "t.kif", "--seed", "7", "--format", "json"]),
            reader.into(),
            None,
        )
        .unwrap(),
    );
    assert_eq!(a["code"], 0, "{a}");
    assert_eq!(a["stdout"], b["stdout"]);
    let played: Value = serde_json::from_str(a["stdout"].as_str().unwrap()).unwrap();
    assert_eq!(played["terminal"], true);

    // Usage and I/O errors: exit code 2.
    let missing: Value = from_js(run_cli(s(&["check", "nope.kif"]), files(&[]), None).unwrap());
    assert_eq!(missing["code"], 2);
    assert!(missing["stderr"]
        .as_str()
        .unwrap()
        .contains("cannot read nope.kif"));
    let usage: Value = from_js(run_cli(vec![], files(&[]), None).unwrap());
    assert_eq!(usage["code"], 2);
}

#[wasm_bindgen_test]
fn replay_reports_the_illegal_step() {
    let err = replay(
        TIC_TAC_TOE,
        JsValue::from_str(r#"{"joint_moves": [["(mark 1 1)", "noop"], ["(mark 2 2)", "noop"]]}"#),
    )
    .unwrap_err();
    assert_eq!(error_name(&err), "GdlMoveError");
    assert_eq!(get(&err, "step").as_f64(), Some(2.0));
    let err = replay(TIC_TAC_TOE, JsValue::from_str("{not json")).unwrap_err();
    assert_eq!(error_name(&err), "TypeError");
}

#[wasm_bindgen_test]
fn clock_uses_a_monotonic_millisecond_timer() {
    let a = gdlkit::clock::now_ms();
    let mut x = 0u64;
    for i in 0..100_000u64 {
        x = x.wrapping_add(i * i);
    }
    let b = gdlkit::clock::now_ms();
    assert!(x > 0);
    assert!(a.is_finite() && b >= a);
    let deadline = gdlkit::clock::Deadline::after_ms(60_000.0);
    assert!(!deadline.passed());
    assert!(gdlkit::clock::Deadline::after_ms(-1.0).passed());
}

#[wasm_bindgen_test]
fn version_is_the_crate_version() {
    assert_eq!(gdlkit_wasm::wasm::version(), "0.1.0");
}

#[wasm_bindgen_test]
fn too_many_joint_moves_is_a_range_error() {
    // 3 roles with 50 moves each: 125 000 joint moves, over the cap.
    let mut kif = String::from(
        "(role a) (role b) (role c) (<= (legal ?r (pick ?n)) (role ?r) (num ?n)) (init s)\n",
    );
    for i in 0..50 {
        kif.push_str(&format!("(num {i}) "));
    }
    let mut game = Game::new(&kif).unwrap();
    let init = game.initial_state().unwrap();
    assert_eq!(game.legal_moves(init, 2).unwrap().len(), 50);
    let err = game.legal_joint_moves(init).unwrap_err();
    assert_eq!(error_name(&err), "RangeError");
    assert!(String::from(err.unchecked_ref::<js_sys::Error>().message()).contains("50 x 50 x 50"));
}
