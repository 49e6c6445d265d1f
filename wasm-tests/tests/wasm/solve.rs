//! The wasm `SolveJob`: tic-tac-toe's draw and state count in slices, the
//! solution file, a partial solution after `stop`, simultaneous moves, and
//! refusals.
#![cfg(target_arch = "wasm32")]

use crate::common;

use common::{from_js, TIC_TAC_TOE};
use gdlkit_wasm::wasm::SolveJob;
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

const RPS: &str = include_str!("../../../games/rockPaperScissors.kif");
const THREE_PLAYERS: &str = include_str!("../../../games/threePlayerTicTacToe.kif");

fn error_name(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.name()))
        .unwrap_or_else(|| format!("not an Error: {e:?}"))
}

#[wasm_bindgen_test]
fn tic_tac_toe_is_a_draw_with_5478_states() {
    let mut job = SolveJob::new(TIC_TAC_TOE, JsValue::UNDEFINED).unwrap();
    assert!(
        job.summary().unwrap().is_null(),
        "no summary before the end"
    );
    let mut steps = 0;
    loop {
        let p: Value = from_js(job.step(1000).unwrap());
        steps += 1;
        if p["done"] == true {
            assert_eq!(p["states"], 5478);
            break;
        }
    }
    assert!(steps >= 5, "{steps} slices");
    let s: Value = from_js(job.summary().unwrap());
    assert_eq!(s["complete"], true);
    assert_eq!(s["concept"], "zero-sum");
    assert_eq!(s["stats"]["states"], 5478);
    assert_eq!(s["initial"]["goals"], serde_json::json!([50, 50]));
    assert_eq!(s["initial"]["movesToEnd"], 9);
    let file = job.solution_file().as_string().expect("the solution file");
    assert_eq!(file.lines().count(), 2 + 5478);
    let back = gdlkit::solve::read_solution(&file).unwrap();
    assert_eq!(back.initial().unwrap().goals, vec![50, 50]);
}

#[wasm_bindgen_test]
fn stop_gives_a_partial_solution_without_a_wrong_value() {
    let mut job = SolveJob::new(TIC_TAC_TOE, JsValue::UNDEFINED).unwrap();
    job.step(100).unwrap();
    let p: Value = from_js(job.stop().unwrap());
    assert_eq!(p["done"], true);
    let s: Value = from_js(job.summary().unwrap());
    assert_eq!(s["complete"], false);
    assert!(s["initial"].is_null());
}

#[wasm_bindgen_test]
fn simultaneous_moves_are_solved_where_pure_moves_secure_a_value() {
    let mut job = SolveJob::new(RPS, JsValue::UNDEFINED).unwrap();
    while from_js::<Value>(job.step(1000).unwrap())["done"] != true {}
    let s: Value = from_js(job.summary().unwrap());
    assert_eq!(s["complete"], true);
    assert!(s["initial"].is_null(), "a mixed equilibrium at the start");
    assert!(s["stats"]["simultaneous"].as_u64().unwrap() > 0);
    let valued: u64 = (s["byValue"].as_array().unwrap().iter())
        .filter(|c| !c["goals"].is_null())
        .map(|c| c["states"].as_u64().unwrap())
        .sum();
    assert!(valued > 0, "the settled states have values: {s}");
}

#[wasm_bindgen_test]
fn three_roles_and_bad_options_are_refused() {
    let e = SolveJob::new(THREE_PLAYERS, JsValue::UNDEFINED)
        .err()
        .unwrap();
    assert_eq!(error_name(&e), "GdlSolveError");
    use serde::Serialize;
    let opts = serde_json::json!({ "seconds": -1 })
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap();
    let e = SolveJob::new(TIC_TAC_TOE, opts).err().unwrap();
    assert_eq!(error_name(&e), "TypeError");
}
