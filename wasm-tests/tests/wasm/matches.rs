//! `runMatchWithProgress`: `runMatch` calling back after each game.
#![cfg(target_arch = "wasm32")]

use crate::common;

use common::{from_js, TIC_TAC_TOE};
use gdlkit_wasm::wasm::run_match_with_progress;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
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

fn players() -> Vec<String> {
    vec!["legal".into(), "alphabeta:depth=2".into()]
}

#[wasm_bindgen_test]
fn calls_back_with_each_game_record() {
    let seen = Rc::new(RefCell::new(Vec::<Value>::new()));
    let sink = seen.clone();
    let on_game =
        Closure::<dyn FnMut(JsValue)>::new(move |r: JsValue| sink.borrow_mut().push(from_js(r)));
    let r: Value = from_js(
        run_match_with_progress(
            TIC_TAC_TOE,
            players(),
            opts(json!({ "games": 3 })),
            on_game.as_ref().unchecked_ref(),
        )
        .unwrap(),
    );
    assert_eq!(seen.borrow().len(), 3);
    assert_eq!(Value::Array(seen.borrow().clone()), r["results"]);
    assert_eq!(r["games"], 3);
    for g in r["results"].as_array().unwrap() {
        assert_eq!(
            g["goals"][0].as_i64().unwrap() + g["goals"][1].as_i64().unwrap(),
            100
        );
    }
}

#[wasm_bindgen_test]
fn errors_as_run_match() {
    let noop = Closure::<dyn FnMut(JsValue)>::new(|_: JsValue| {});
    let f: &js_sys::Function = noop.as_ref().unchecked_ref();
    let unknown = run_match_with_progress(TIC_TAC_TOE, players(), opts(json!({ "gamez": 2 })), f)
        .unwrap_err();
    assert_eq!(error_name(&unknown), "TypeError");
    let one = run_match_with_progress(TIC_TAC_TOE, vec!["legal".into()], JsValue::UNDEFINED, f)
        .unwrap_err();
    assert_eq!(error_name(&one), "GdlSearchError");
    let bad = run_match_with_progress(
        TIC_TAC_TOE,
        vec!["nope".into(), "legal".into()],
        JsValue::UNDEFINED,
        f,
    )
    .unwrap_err();
    assert_eq!(error_name(&bad), "TypeError");
    let broken = run_match_with_progress("(role x", players(), JsValue::UNDEFINED, f).unwrap_err();
    assert_eq!(error_name(&broken), "GdlDiagnosticsError");
}

#[wasm_bindgen_test]
fn an_exception_of_the_callback_is_rethrown_after_the_match() {
    let calls = Rc::new(RefCell::new(0));
    let count = calls.clone();
    let throwing = Closure::<dyn FnMut(JsValue) -> Result<(), JsValue>>::new(move |_: JsValue| {
        *count.borrow_mut() += 1;
        Err(js_sys::RangeError::new("stop").into())
    });
    let e = run_match_with_progress(
        TIC_TAC_TOE,
        players(),
        opts(json!({ "games": 2 })),
        throwing.as_ref().unchecked_ref(),
    )
    .unwrap_err();
    assert_eq!(error_name(&e), "RangeError");
    assert_eq!(*calls.borrow(), 1, "called until it threw");
}
