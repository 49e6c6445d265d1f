//! `check(text)`: every diagnostic of a game text (syntax, lowering and the
//! static validator, as `gdlkit check`), with positions resolved for
//! editors; `format(text)`: the canonical layout (as `gdlkit fmt`).

use super::js::{self, to_js};
use crate::diagnostic::resolve;
use wasm_bindgen::prelude::*;

/// All diagnostics of `text`, sorted by position: lines and columns 1-based,
/// `from`/`to` in UTF-16 code units (what CodeMirror counts). Never throws
/// for bad game text: the problems are the result.
#[wasm_bindgen(unchecked_return_type = "Diagnostic[]")]
pub fn check(text: &str) -> Result<JsValue, JsValue> {
    js::init();
    let diags = crate::check_text(text);
    to_js(&resolve(&diags, text))
}

/// The roles named by the text's `(role r)` facts, in order (lowercase),
/// without loading a game: for forms that offer a role before a search.
#[wasm_bindgen]
pub fn roles(text: &str) -> Vec<String> {
    js::init();
    crate::parse_program(text).role_names()
}

/// The formatted text. Text with syntax errors is not formatted: throws a
/// `GdlDiagnosticsError` carrying them.
#[wasm_bindgen(js_name = format)]
pub fn format_kif(text: &str) -> Result<String, JsValue> {
    js::init();
    crate::format::format(text).map_err(|diags| js::diagnostics_error(&diags, text))
}

/// What `gdlkit check --fix` does, on text: applies the diagnostics' quick
/// fixes until none is left. `options`: `{unsafe: true}` also applies
/// guesses. Returns `{text, applied: [{code, title, line, column}]}`.
#[wasm_bindgen(unchecked_return_type = "FixResult")]
pub fn fix(text: &str, options: JsValue) -> Result<JsValue, JsValue> {
    js::init();
    let o: crate::js_api::FixOptions = js::options(options, "fix")?;
    to_js(&crate::fix::fix_text(text, o.r#unsafe))
}
