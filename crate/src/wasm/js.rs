//! Helpers shared by the bindings: JS error objects, serde conversions and
//! the panic hook.

use crate::diagnostic::{self, Diagnostic};
use crate::reasoner::EvalError;
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// Routes Rust panics to `console.error` with a message (once).
pub fn init() {
    console_error_panic_hook::set_once();
}

/// Converts a serialisable value to plain JS data (objects, arrays, numbers,
/// strings, `null`; no `Map`s, no `BigInt`s).
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| type_error(&format!("cannot convert the result to JS: {e}")))
}

/// An `Error` with the given `name`.
pub fn error(name: &str, message: &str) -> js_sys::Error {
    let err = js_sys::Error::new(message);
    err.set_name(name);
    err
}

pub fn set(target: &JsValue, key: &str, value: &JsValue) {
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(target, &JsValue::from_str(key), value);
}

pub fn type_error(message: &str) -> JsValue {
    js_sys::TypeError::new(message).into()
}

pub fn range_error(message: &str) -> JsValue {
    js_sys::RangeError::new(message).into()
}

/// `GdlDiagnosticsError` carrying `diagnostics` (resolved against `text`).
pub fn diagnostics_error(diags: &[Diagnostic], text: &str) -> JsValue {
    let errors = diags.iter().filter(|d| d.is_error()).count();
    let summary = match errors {
        1 => "the game has 1 error".to_string(),
        n => format!("the game has {n} errors"),
    };
    let rendered = diagnostic::render(diags, "game.kif", text, false);
    let err = error("GdlDiagnosticsError", &format!("{summary}\n{rendered}"));
    let list =
        to_js(&diagnostic::resolve(diags, text)).unwrap_or_else(|_| js_sys::Array::new().into());
    set(&err, "diagnostics", &list);
    err.into()
}

/// `GdlEvalError`: the reasoner stopped at a resource limit.
pub fn eval_error(e: EvalError) -> JsValue {
    match e {
        EvalError::BadMove(m) => error("GdlMoveError", &m).into(),
        e => error("GdlEvalError", &e.to_string()).into(),
    }
}

/// `GdlMoveError`: a move that is not legal or not a term.
pub fn move_error(message: &str) -> JsValue {
    error("GdlMoveError", message).into()
}
