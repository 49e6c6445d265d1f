//! The wasm `AnalysisJob`: stepping with progress, the report as a plain JS
//! object (the JSON of `gdlkit analyze`), diagnostics, stop, options and
//! errors.
#![cfg(target_arch = "wasm32")]

use crate::common;

use common::{from_js, get, TIC_TAC_TOE};
use gdlkit_wasm::wasm::AnalysisJob;
use serde_json::{json, Value};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;

const BUTTONS: &str = include_str!("../../../games/buttonsAndLights.kif");

fn error_name(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.name()))
        .unwrap_or_else(|| format!("not an Error: {e:?}"))
}

/// A plain JS object (not a `Map`) from JSON.
fn options(v: Value) -> JsValue {
    use serde::Serialize;
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .expect("options")
}

/// Steps to the end; returns the phases seen and the last progress.
fn run(job: &mut AnalysisJob, slice: u32) -> (Vec<String>, Value) {
    let mut phases: Vec<String> = Vec::new();
    loop {
        let p: Value = from_js(job.step(slice).unwrap());
        let phase = p["phase"].as_str().unwrap().to_string();
        if phases.last() != Some(&phase) {
            phases.push(phase);
        }
        if p["done"] == true {
            return (phases, p);
        }
    }
}

#[wasm_bindgen_test]
fn buttons_and_lights_does_not_terminate() {
    let mut job = AnalysisJob::new(BUTTONS, JsValue::UNDEFINED).unwrap();
    assert!(job.report().unwrap().is_null(), "no report before the end");
    assert!(job.diagnostics().unwrap().is_null());
    let (phases, last) = run(&mut job, 1);
    assert_eq!(phases, ["exploring", "checking", "done"]);
    assert_eq!(last["states"], 4);
    assert_eq!(last["mode"], "exhaustive");
    // The report is a plain object, as `gdlkit analyze --format json`.
    let report = job.report().unwrap();
    assert!(report.is_object());
    assert!(js_sys::Array::is_array(&get(
        &get(&get(&report, "properties"), "terminates"),
        "counterexample"
    )));
    let r: Value = from_js(report);
    assert_eq!(
        (
            r["mode"].clone(),
            r["states"].clone(),
            r["terminalStates"].clone()
        ),
        (json!("exhaustive"), json!(4), json!(1))
    );
    assert_eq!(r["maxDepth"], 3);
    let t = &r["properties"]["terminates"];
    assert_eq!(t["holds"], false);
    assert_eq!(t["counterexample"], json!([["b"]]));
    assert_eq!(r["properties"]["playable"]["holds"], true);
    assert_eq!(r["properties"]["playable"]["counterexample"], Value::Null);
    // Diagnostics in the text: GDL201 on the terminal rule, the counterexample related.
    let diags: Vec<Value> = from_js(job.diagnostics().unwrap());
    let d = diags
        .iter()
        .find(|d| d["code"] == "GDL201")
        .expect("GDL201");
    assert_eq!(d["severity"], "error");
    let line = BUTTONS
        .lines()
        .nth(d["line"].as_u64().unwrap() as usize - 1)
        .unwrap();
    assert!(line.contains("terminal"), "{line}");
    assert!(
        d["related"][0]["message"]
            .as_str()
            .unwrap()
            .ends_with(": b"),
        "{d}"
    );
    assert!(diags
        .iter()
        .any(|d| d["code"] == "GDL204" && d["severity"] == "warning"));
    assert!(job.error().is_null());
}

#[wasm_bindgen_test]
fn tic_tac_toe_counts_and_progress() {
    let mut job = AnalysisJob::new(TIC_TAC_TOE, JsValue::UNDEFINED).unwrap();
    let first: Value = from_js(job.progress().unwrap());
    assert_eq!(
        (first["phase"].clone(), first["done"].clone()),
        (json!("exploring"), json!(false))
    );
    let mut steps = 0;
    let mut last_states = 0;
    loop {
        let p: Value = from_js(job.step(200).unwrap());
        let states = p["states"].as_u64().unwrap();
        assert!(states >= last_states);
        last_states = states;
        steps += 1;
        if p["done"] == true {
            break;
        }
    }
    assert!(steps > 20, "{steps} slices");
    let r: Value = from_js(job.report().unwrap());
    assert_eq!(
        (r["states"].clone(), r["terminalStates"].clone()),
        (json!(5478), json!(958))
    );
    assert_eq!(r["properties"]["stronglyWinnable"]["holds"], false);
}

#[wasm_bindgen_test]
fn sampled_mode_and_stop() {
    let mut job = AnalysisJob::new(
        TIC_TAC_TOE,
        options(json!({"budget": 10, "playouts": 3, "depth": 20})),
    )
    .unwrap();
    let (phases, last) = run(&mut job, 5);
    assert_eq!(phases, ["exploring", "checking", "sampling", "done"]);
    assert_eq!(
        (last["mode"].clone(), last["playouts"].clone()),
        (json!("sampled"), json!(3))
    );
    let r: Value = from_js(job.report().unwrap());
    assert_eq!(r["properties"]["terminates"]["holds"], Value::Null);
    let detail = r["properties"]["terminates"]["detail"].as_str().unwrap();
    assert!(
        detail.contains("no counterexample in 3 playouts of depth ≤ 20"),
        "{detail}"
    );

    // Cancelling keeps what was found.
    let mut job = AnalysisJob::new(BUTTONS, JsValue::UNDEFINED).unwrap();
    job.step(1).unwrap();
    let p: Value = from_js(job.stop().unwrap());
    assert_eq!(p["done"], true);
    let r: Value = from_js(job.report().unwrap());
    assert_eq!(r["mode"], "sampled");
    // Stepping a finished job is harmless.
    let p: Value = from_js(job.step(10).unwrap());
    assert_eq!(p["done"], true);
}

#[wasm_bindgen_test]
fn bad_input_throws() {
    let err = AnalysisJob::new("(role x", JsValue::UNDEFINED)
        .err()
        .expect("syntax error");
    assert_eq!(error_name(&err), "GdlDiagnosticsError");
    for bad in [
        json!({"budget": -1}),
        json!({"playouts": 1.5}),
        json!({"budgett": 10}),
        json!({"seed": "x"}),
    ] {
        let err = AnalysisJob::new(BUTTONS, options(bad.clone()))
            .err()
            .unwrap_or_else(|| panic!("{bad} accepted"));
        assert_eq!(error_name(&err), "TypeError", "{bad}");
    }
    assert!(AnalysisJob::new(BUTTONS, JsValue::NULL).is_ok());
}

/// Prints states explored per second in WebAssembly (ticTacToe, exhaustive):
/// the figure of BENCHMARKS.md "Semantic analysis". Asserts nothing about
/// time, but that every timed job is the whole analysis: all 5,478 states
/// explored exhaustively, the checks run, the report there.
#[wasm_bindgen_test]
fn analysis_speed_benchmark() {
    let mut times = Vec::new();
    for _ in 0..5 {
        let mut job = AnalysisJob::new(TIC_TAC_TOE, options(json!({"playouts": 0}))).unwrap();
        let t0 = gdlkit::clock::now_ms();
        let (phases, last) = run(&mut job, 5000);
        times.push(gdlkit::clock::now_ms() - t0);
        assert_eq!(phases.last().map(String::as_str), Some("done"));
        assert!(phases.iter().any(|p| p == "checking"), "{phases:?}");
        assert_eq!(
            (last["states"].clone(), last["mode"].clone()),
            (json!(5478), json!("exhaustive"))
        );
        let report: Value = from_js(job.report().unwrap());
        assert_eq!(report["states"], 5478, "{report}");
    }
    times.sort_by(f64::total_cmp);
    let (min, median) = (times[0], times[times.len() / 2]);
    web_sys_log(&format!(
        "analysis ticTacToe (5478 states, whole job): min {min:.1} ms = {:.0} states/s, median {median:.1} ms",
        5478.0 / (min / 1000.0)
    ));
}

fn web_sys_log(s: &str) {
    wasm_bindgen_test::console_log!("{s}");
}

#[wasm_bindgen_test]
fn either_engine_gives_the_same_report() {
    let report = |engine: &str| {
        let mut job = AnalysisJob::new(TIC_TAC_TOE, options(json!({ "engine": engine }))).unwrap();
        assert_eq!(job.engine(), engine);
        run(&mut job, 500);
        // The engines list legal moves in different orders, so the first
        // counterexample found may differ (not its length).
        let mut r: Value = from_js(job.report().unwrap());
        for (_, p) in r["properties"].as_object_mut().unwrap() {
            p["counterexample"] = p["counterexample"]
                .as_array()
                .map_or(json!(null), |m| json!(m.len()));
        }
        r
    };
    let fast = report("fast");
    assert_eq!(
        (fast["states"].clone(), fast["terminalStates"].clone()),
        (json!(5478), json!(958))
    );
    assert_eq!(fast, report("interpreter"));
    // auto grounds ticTacToe; an unknown engine is a TypeError.
    assert_eq!(
        AnalysisJob::new(TIC_TAC_TOE, JsValue::UNDEFINED)
            .unwrap()
            .engine(),
        "fast"
    );
    let e = AnalysisJob::new(TIC_TAC_TOE, options(json!({ "engine": "quick" })))
        .err()
        .expect("refused");
    assert_eq!(error_name(&e), "TypeError");
}
