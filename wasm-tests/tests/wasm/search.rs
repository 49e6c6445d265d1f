//! The search bindings: `searchTree` (with the lecture trace), `search`,
//! `runMatch`, and the `SearchPlayer` class.
#![cfg(target_arch = "wasm32")]

use crate::common;

use common::{from_js, ROCK_PAPER_SCISSORS, TIC_TAC_TOE};
use gdlkit_wasm::wasm::{run_match, search, search_tree, Game, SearchPlayer};
use serde_json::{json, Value};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

fn opts(v: Value) -> JsValue {
    use serde::Serialize;
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap()
}

fn error_name(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.name()))
        .unwrap_or_else(|| format!("not an Error: {e:?}"))
}

#[wasm_bindgen_test]
fn classic_tree_with_trace() {
    let r: Value = from_js(
        search_tree(
            "((3 12 8) (2 4 6) (14 5 2))",
            opts(json!({ "trace": true })),
        )
        .unwrap(),
    );
    assert_eq!(r["value"], 3);
    assert_eq!(r["bestMove"], "1");
    assert_eq!(r["stats"]["cutoffs"], 1);
    let events = r["events"].as_array().unwrap();
    let cut = events.iter().find(|e| e["type"] == "cutoff").unwrap();
    assert_eq!(cut["pruned"], json!([{ "move": "2" }, { "move": "3" }]));
    assert_eq!(events[0]["alpha"], "-inf");
    assert_eq!(r["truncated"], false);
}

#[wasm_bindgen_test]
fn tic_tac_toe_is_solved_as_a_draw() {
    let r: Value = from_js(search(TIC_TAC_TOE, opts(json!({ "depth": 9, "role": "o" }))).unwrap());
    assert_eq!(
        (r["value"].clone(), r["solved"].clone(), r["role"].clone()),
        (json!(50), json!(true), json!("o"))
    );
    let e = search(TIC_TAC_TOE, opts(json!({ "algorithm": "nope" }))).unwrap_err();
    assert_eq!(error_name(&e), "TypeError");
    let e = search(TIC_TAC_TOE, opts(json!({ "depht": 2 }))).unwrap_err();
    assert_eq!(error_name(&e), "TypeError", "unknown options are refused");
}

#[wasm_bindgen_test]
fn a_match_and_a_player() {
    let r: Value = from_js(
        run_match(
            TIC_TAC_TOE,
            vec!["legal".into(), "random".into()],
            opts(json!({ "games": 2 })),
        )
        .unwrap(),
    );
    let players = r["players"].as_array().unwrap();
    assert_eq!(players.len(), 2);
    assert_eq!(players[0]["name"], "legal");
    assert_eq!(players[0]["games"], 2);
    let e = run_match(TIC_TAC_TOE, vec!["legal".into()], JsValue::UNDEFINED).unwrap_err();
    assert_eq!(error_name(&e), "GdlSearchError");

    let mut game = Game::new(ROCK_PAPER_SCISSORS).unwrap();
    let s = game.initial_state().unwrap();
    let fluents = game.fluents(s).unwrap();
    let legal = game.legal_moves(s, 0).unwrap();
    let mut p = SearchPlayer::new(ROCK_PAPER_SCISSORS, "mcts:playouts=50", Some(3), None).unwrap();
    let mv = p.select_move(fluents.clone(), 0).unwrap();
    assert!(legal.contains(&mv), "{mv} not in {legal:?}");
    let stats: Value = from_js(p.last_stats().unwrap());
    assert_eq!(stats["playouts"], 50);
    assert!(
        SearchPlayer::new(TIC_TAC_TOE, "bestfirst", None, None).is_err(),
        "best-first needs a one-player game"
    );
    let mut ab = SearchPlayer::new(TIC_TAC_TOE, "alphabeta:depth=9", None, None).unwrap();
    let mut t = Game::new(TIC_TAC_TOE).unwrap();
    let s0 = t.initial_state().unwrap();
    let mv = ab.select_move(t.fluents(s0).unwrap(), 0).unwrap();
    assert!(t.legal_moves(s0, 0).unwrap().contains(&mv));
}

#[wasm_bindgen_test]
fn the_engine_option_chooses_the_engine_and_keeps_values() {
    // Default auto: ticTacToe grounds, so the fast engine runs.
    let r: Value = from_js(search(TIC_TAC_TOE, opts(json!({ "depth": 9 }))).unwrap());
    assert_eq!(
        (r["engine"].clone(), r["value"].clone()),
        (json!("fast"), json!(50))
    );
    assert!(r.get("engineFallback").is_none());
    for engine in ["interpreter", "fast", "auto"] {
        let r: Value = from_js(
            search(
                TIC_TAC_TOE,
                opts(json!({ "depth": 9, "role": "o", "engine": engine })),
            )
            .unwrap(),
        );
        assert_eq!(
            (r["value"].clone(), r["solved"].clone()),
            (json!(50), json!(true)),
            "{engine}"
        );
        assert_eq!(
            r["engine"],
            if engine == "interpreter" {
                "interpreter"
            } else {
                "fast"
            }
        );
    }
    let e = search(TIC_TAC_TOE, opts(json!({ "engine": "turbo" }))).unwrap_err();
    assert_eq!(error_name(&e), "TypeError", "unknown engines are refused");
    let msg = e
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .unwrap_or_default();
    assert!(
        msg.contains("engine must be `auto`, `interpreter` or `fast`"),
        "{msg}"
    );

    let r: Value = from_js(
        run_match(
            TIC_TAC_TOE,
            vec!["legal".into(), "random".into()],
            opts(json!({ "games": 2, "engine": "interpreter" })),
        )
        .unwrap(),
    );
    assert_eq!(
        (r["engine"].clone(), r["players"][0]["games"].clone()),
        (json!("interpreter"), json!(2))
    );
    let r: Value = from_js(
        run_match(
            TIC_TAC_TOE,
            vec!["legal".into(), "random".into()],
            opts(json!({ "games": 2 })),
        )
        .unwrap(),
    );
    assert_eq!(r["engine"], "fast");
    let e = run_match(
        TIC_TAC_TOE,
        vec!["legal".into(), "random".into()],
        opts(json!({ "engine": 3 })),
    )
    .unwrap_err();
    assert_eq!(error_name(&e), "TypeError");

    let mut t = Game::new(TIC_TAC_TOE).unwrap();
    let s0 = t.initial_state().unwrap();
    for engine in [None, Some("interpreter".to_string())] {
        let mut p =
            SearchPlayer::new(TIC_TAC_TOE, "alphabeta:depth=9", None, engine.clone()).unwrap();
        assert_eq!(
            p.engine(),
            if engine.is_none() {
                "fast"
            } else {
                "interpreter"
            }
        );
        assert_eq!(p.engine_fallback(), None);
        let mv = p.select_move(t.fluents(s0).unwrap(), 0).unwrap();
        assert!(t.legal_moves(s0, 0).unwrap().contains(&mv));
    }
    assert!(SearchPlayer::new(TIC_TAC_TOE, "random", None, Some("turbo".into())).is_err());
}
