//! `explain(kif, options)`: every legal move's value in a position, with the
//! planning heuristics' goal distances and relaxed plans; the same object
//! as `gdlkit explain --format json` ([`crate::search::explain`]).

use super::js::{self, to_js};
use crate::search::explain::{explain_text, ExplainOptions};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// `options`: `{moves: [[...], ...], role, heuristic: "fjo"|"hff"|"hadd"|
/// "hmax"|"fuzzy"|..., engine, ms}` (all optional; heuristic default `fjo`,
/// `ms` the time limit, default 60,000).
#[wasm_bindgen(unchecked_return_type = "any")]
pub fn explain(kif: &str, options: JsValue) -> Result<JsValue, JsValue> {
    js::init();
    let o: ExplainOptions = if options.is_undefined() || options.is_null() {
        ExplainOptions::default()
    } else {
        if let Some(obj) = options.dyn_ref::<js_sys::Object>() {
            let known = ["moves", "role", "heuristic", "engine", "ms"];
            for k in js_sys::Object::keys(obj).iter() {
                let k = k.as_string().unwrap_or_default();
                if !known.contains(&k.as_str()) {
                    return Err(js::type_error(&format!(
                        "unknown explain option `{k}` (options: {})",
                        known.join(", ")
                    )));
                }
            }
        }
        serde_wasm_bindgen::from_value(options)
            .map_err(|e| js::type_error(&format!("explain options: {e}")))?
    };
    let program = crate::parse_program(kif);
    if crate::diagnostic::has_errors(&program.diagnostics) {
        return Err(js::diagnostics_error(&program.diagnostics, kif));
    }
    let e = explain_text(kif, &o).map_err(|m| JsValue::from(js::error("GdlExplainError", &m)))?;
    to_js(&e)
}
