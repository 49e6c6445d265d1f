//! `explain(kif, options)`: every legal move's value in a position, with the
//! planning heuristics' goal distances and relaxed plans; the same object
//! as `gdlkit explain --format json` ([`crate::search::explain`]).

use super::js::{self, to_js};
use crate::search::explain::{explain_text, ExplainOptions};
use wasm_bindgen::prelude::*;

/// `options`: `{moves: [[...], ...], role, heuristic: "fjo"|"hff"|"hadd"|
/// "hmax"|"fuzzy"|..., engine, ms}` (all optional; heuristic default `fjo`,
/// `ms` the time limit, default 60,000).
#[wasm_bindgen(unchecked_return_type = "Explanation")]
pub fn explain(kif: &str, options: JsValue) -> Result<JsValue, JsValue> {
    js::init();
    let o: ExplainOptions = js::options(options, "explain")?;
    o.time_limit().map_err(|e| js::range_error(&e))?;
    let diags = crate::check_text(kif);
    if crate::diagnostic::has_errors(&diags) {
        return Err(js::diagnostics_error(&diags, kif));
    }
    let e = explain_text(kif, &o).map_err(|m| JsValue::from(js::error("GdlExplainError", &m)))?;
    to_js(&e)
}
