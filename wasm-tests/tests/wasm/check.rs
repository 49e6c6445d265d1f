//! The validator and formatter through the wasm API: `check(text)` returns
//! resolved diagnostics (UTF-16 offsets for the editor), `format(text)` the
//! canonical layout or a `GdlDiagnosticsError`. Plus the speed benchmark of
//! `check` on the largest corpus game (prints numbers, asserts none).
#![cfg(target_arch = "wasm32")]

use crate::common;

use common::{from_js, get, TIC_TAC_TOE};
use gdlkit_wasm::wasm::{check, format_kif, run_cli};
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::{console_log, wasm_bindgen_test};

const LARGE: &str = include_str!("../../fixtures/repository/duplicateStateLarge.kif");

#[wasm_bindgen_test]
fn check_returns_resolved_diagnostics() {
    assert_eq!(
        from_js::<Vec<Value>>(check(TIC_TAC_TOE).unwrap()),
        Vec::<Value>::new()
    );
    // Non-ASCII before the error: `from`/`to` count UTF-16 code units
    // (the emoji is two), columns count characters.
    let text = "; \u{1F600}\n(role x)\n(<= (legal ?p stay) (true on))";
    let diags: Vec<Value> = from_js(check(text).unwrap());
    let unsafe_var = diags
        .iter()
        .find(|d| d["code"] == "GDL020")
        .expect("GDL020");
    assert_eq!(unsafe_var["severity"], "error");
    assert_eq!(
        (unsafe_var["line"].as_u64(), unsafe_var["column"].as_u64()),
        (Some(3), Some(12))
    );
    let from = unsafe_var["from"].as_u64().unwrap() as usize;
    let utf16: Vec<u16> = text.encode_utf16().collect();
    assert_eq!(String::from_utf16(&utf16[from..from + 2]).unwrap(), "?p");
    assert_eq!(unsafe_var["to"].as_u64(), Some(from as u64 + 2));
    assert_eq!(
        unsafe_var["hint"],
        "add `(role ?p)` to the body to range over the roles"
    );
    // Missing essentials are there too, sorted by position.
    assert!(diags.iter().any(|d| d["code"] == "GDL061"));
}

#[wasm_bindgen_test]
fn format_formats_or_throws() {
    let out = format_kif("(role x)  (<= terminal (true a) (true b))").unwrap();
    assert_eq!(
        out,
        "(role x)\n\n(<= terminal\n    (true a)\n    (true b))\n"
    );
    let err = format_kif("(role x").unwrap_err();
    let e = err.dyn_ref::<js_sys::Error>().expect("an Error");
    assert_eq!(String::from(e.name()), "GdlDiagnosticsError");
    let diags: Vec<Value> = from_js(get(&err, "diagnostics"));
    assert_eq!(diags[0]["code"], "GDL002");
}

#[wasm_bindgen_test]
fn cli_check_and_fmt_run_the_same_code() {
    let files = js_sys::Object::new();
    js_sys::Reflect::set(
        &files,
        &JsValue::from_str("g.kif"),
        &JsValue::from_str("(role x)"),
    )
    .unwrap();
    let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let r = run_cli(args(&["check", "g.kif"]), files.clone().into(), None).unwrap();
    assert_eq!(get(&r, "code").as_f64(), Some(1.0));
    assert!(get(&r, "stdout")
        .as_string()
        .unwrap()
        .contains("error[GDL061]"));
    let r = run_cli(args(&["fmt", "g.kif"]), files.into(), None).unwrap();
    assert_eq!(get(&r, "stdout").as_string().unwrap(), "(role x)\n");
}

/// Benchmark, not a timed test: parse + full static check (+ resolving the
/// positions for JS) of duplicateStateLarge.kif (68 KB), 50 runs after a
/// warm-up; prints the minimum, the first quartile and the median (the
/// machine is shared: the median includes time slices lost to other
/// processes), and the minimum per phase. Run with `-- --nocapture` to see
/// the figures; recorded in BENCHMARKS.md.
#[wasm_bindgen_test]
fn check_speed_benchmark() {
    let now = gdlkit::clock::now_ms;
    let _ = check(LARGE).unwrap();
    let stats = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        format!(
            "min {:.2} ms, p25 {:.2} ms, median {:.2} ms",
            v[0],
            v[v.len() / 4],
            v[v.len() / 2]
        )
    };
    let (mut all, mut parse, mut lower, mut checks, mut format) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..50 {
        let t = now();
        let d = check(LARGE).unwrap();
        all.push(now() - t);
        assert!(d.is_object());
        let t0 = now();
        let tree = gdlkit::syntax::parse(LARGE);
        let t1 = now();
        let p = gdlkit::program::lower(LARGE, &tree);
        let t2 = now();
        let d = gdlkit::check::check_source(LARGE, &p);
        let t3 = now();
        parse.push(t1 - t0);
        lower.push(t2 - t1);
        checks.push(t3 - t2);
        drop((d, p, tree));
        let t = now();
        let f = format_kif(LARGE).unwrap();
        format.push(now() - t);
        assert!(!f.is_empty());
    }
    console_log!(
        "check(duplicateStateLarge.kif, {} bytes): {}",
        LARGE.len(),
        stats(all)
    );
    console_log!(
        "  phases: parse {}; lower {}; check {}",
        stats(parse),
        stats(lower),
        stats(checks)
    );
    console_log!("format(duplicateStateLarge.kif): {}", stats(format));
}
