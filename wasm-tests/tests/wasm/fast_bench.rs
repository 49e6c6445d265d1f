//! The fast engine in WebAssembly: `gdlkit bench` through the wasm CLI entry
//! (`run_cli`), the same code as natively. One check that it runs and reports
//! the engine (fast), and the benchmark itself, ignored by default (it takes
//! minutes); it prints one JSON line per game and engine:
//!
//! ```sh
//! cargo test --release --target wasm32-unknown-unknown -p gdlkit-wasm-tests --test fast_bench -- --include-ignored --nocapture
//! ```
//! (with `WASM_BINDGEN_USE_BROWSER=1` etc. and `WASM_BINDGEN_TEST_TIMEOUT=600`
//! for headless Chromium, see BENCHMARKS.md).
#![cfg(target_arch = "wasm32")]

use crate::common;

use common::get;
use gdlkit_wasm::wasm::run_cli;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::{console_log, wasm_bindgen_test};

const GAMES: [(&str, &str); 5] = [
    (
        "ticTacToe",
        include_str!("../../fixtures/repository/ticTacToe.kif"),
    ),
    (
        "connectFour",
        include_str!("../../fixtures/repository/connectFour.kif"),
    ),
    (
        "breakthrough",
        include_str!("../../fixtures/repository/breakthrough.kif"),
    ),
    (
        "reversi",
        include_str!("../../fixtures/repository/reversi.kif"),
    ),
    (
        "chess_200",
        include_str!("../../fixtures/repository/chess_200.kif"),
    ),
];

fn bench(name: &str, text: &str, engine: &str, seconds: &str) -> serde_json::Value {
    let files = js_sys::Object::new();
    let path = format!("{name}.kif");
    js_sys::Reflect::set(&files, &JsValue::from_str(&path), &JsValue::from_str(text)).unwrap();
    let args: Vec<String> = ["bench", &path, "--engine", engine, "--seconds", seconds]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let r = run_cli(args, files.into(), None).unwrap();
    assert_eq!(
        get(&r, "code").as_f64(),
        Some(0.0),
        "{}",
        get(&r, "stderr").as_string().unwrap_or_default()
    );
    serde_json::from_str(&get(&r, "stdout").as_string().unwrap()).unwrap()
}

#[wasm_bindgen_test]
fn bench_runs_the_fast_engine_in_wasm() {
    // 2 s, not less: grounding counts against the seconds, and a loaded
    // machine must not push it past them (auto would fall back).
    let r = bench("ticTacToe", GAMES[0].1, "auto", "2");
    assert_eq!(r["engine"], "fast");
    assert!(r["playouts"].as_u64().unwrap() > 0);
    assert!(r["grounding_ms"].as_f64().is_some());
}

/// Lets the event loop run: the headless test runner polls the page over
/// WebDriver and gives up when the page does not answer for 20 s.
async fn pause() {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        let set_timeout: js_sys::Function =
            js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("setTimeout"))
                .unwrap()
                .into();
        set_timeout
            .call2(&JsValue::NULL, &resolve, &JsValue::from(0))
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(p).await.unwrap();
}

/// The fast engine 20 s per game (two runs of 10 s, summed, so the page
/// answers the runner in between), the interpreter 5 s.
#[wasm_bindgen_test]
#[ignore]
async fn fast_engine_benchmark() {
    for (name, text) in GAMES {
        for (engine, runs) in [("fast", 2), ("interpreter", 1)] {
            let seconds = if engine == "fast" { "10" } else { "5" };
            let (mut playouts, mut states, mut secs, mut first) = (0.0, 0.0, 0.0, None);
            for _ in 0..runs {
                pause().await;
                let r = bench(name, text, engine, seconds);
                let s = r["seconds"].as_f64().unwrap();
                playouts += r["playouts"].as_f64().unwrap();
                states += r["states_per_second"].as_f64().unwrap() * s;
                secs += s;
                first.get_or_insert(r);
            }
            let mut r = first.unwrap();
            r["playouts"] = playouts.into();
            r["seconds"] = secs.into();
            r["playouts_per_second"] = (playouts / secs).into();
            r["states_per_second"] = (states / secs).into();
            console_log!("{r}");
        }
    }
}
