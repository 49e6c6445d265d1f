//! The fast engine in WebAssembly: `gdlkit bench` through the wasm CLI entry
//! (`run_cli`), the same code as natively. One check that it runs and reports
//! the engine (fast), and the benchmark itself, ignored by default (it takes
//! minutes); it prints one JSON line per game and engine:
//!
//! ```sh
//! cargo test --release --target wasm32-unknown-unknown -p gdlkit-wasm-tests --test fast_bench -- --include-ignored --nocapture
//! ```
//! (with `WASM_BINDGEN_USE_BROWSER=1` etc. for headless Chromium, see
//! BENCHMARKS.md).
#![cfg(target_arch = "wasm32")]

mod common;

use common::get;
use gdlkit::wasm::run_cli;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::{console_log, wasm_bindgen_test};

const GAMES: [(&str, &str); 5] = [
    ("ticTacToe", include_str!("../fixtures/repository/ticTacToe.kif")),
    ("connectFour", include_str!("../fixtures/repository/connectFour.kif")),
    ("breakthrough", include_str!("../fixtures/repository/breakthrough.kif")),
    ("reversi", include_str!("../fixtures/repository/reversi.kif")),
    ("chess_200", include_str!("../fixtures/repository/chess_200.kif")),
];

fn bench(name: &str, text: &str, engine: &str, seconds: &str) -> serde_json::Value {
    let files = js_sys::Object::new();
    let path = format!("{name}.kif");
    js_sys::Reflect::set(&files, &JsValue::from_str(&path), &JsValue::from_str(text)).unwrap();
    let args: Vec<String> =
        ["bench", &path, "--engine", engine, "--seconds", seconds].iter().map(|s| s.to_string()).collect();
    let r = run_cli(args, files.into(), None).unwrap();
    assert_eq!(get(&r, "code").as_f64(), Some(0.0), "{}", get(&r, "stderr").as_string().unwrap_or_default());
    serde_json::from_str(&get(&r, "stdout").as_string().unwrap()).unwrap()
}

#[wasm_bindgen_test]
fn bench_runs_the_fast_engine_in_wasm() {
    let r = bench("ticTacToe", GAMES[0].1, "auto", "0.2");
    assert_eq!(r["engine"], "fast");
    assert!(r["playouts"].as_u64().unwrap() > 0);
    assert!(r["grounding_ms"].as_f64().is_some());
}

#[wasm_bindgen_test]
#[ignore]
fn fast_engine_benchmark() {
    for (name, text) in GAMES {
        for engine in ["fast", "interpreter"] {
            let seconds = if engine == "fast" { "20" } else { "5" };
            let r = bench(name, text, engine, seconds);
            console_log!("{r}");
        }
    }
}
