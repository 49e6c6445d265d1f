//! `groundReport(kif, options)`: what instantiation (grounding) did to a
//! game, as `gdlkit ground --format json` ([`crate::ground::report`]).

use super::js::{self, to_js};
use crate::js_api::GroundReportOptions;
use wasm_bindgen::prelude::*;

/// `options`: `{ms}` (the grounding's time budget, default 20,000).
#[wasm_bindgen(js_name = groundReport, unchecked_return_type = "GroundReport")]
pub fn ground_report(kif: &str, options: JsValue) -> Result<JsValue, JsValue> {
    js::init();
    let o: GroundReportOptions = js::options(options, "groundReport")?;
    let mut budget = crate::ground::Budget::default();
    budget.max_ms = crate::job::check_ms("groundReport option ms", o.ms.unwrap_or(budget.max_ms))
        .map_err(|e| js::range_error(&e))?;
    let diags = crate::check_text(kif);
    if crate::diagnostic::has_errors(&diags) {
        return Err(js::diagnostics_error(&diags, kif));
    }
    let program = crate::parse_program(kif);
    // The grounder keeps to its budget; the job's limit is a backstop.
    let r = crate::job::scope(budget.max_ms + 10_000.0, || {
        crate::ground::report::report(&program, kif, budget)
    });
    to_js(&r)
}
