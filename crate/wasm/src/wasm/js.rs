//! Helpers shared by the bindings: JS error objects, serde conversions and
//! the panic hook.

// The check wasm (no `engine` feature) uses only a few of them.
#![cfg_attr(not(feature = "engine"), allow(dead_code))]

use crate::diagnostic::{self, Diagnostic};
use crate::js_names::Camel;
use crate::reasoner::EvalError;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Display;
use wasm_bindgen::prelude::*;

/// Routes Rust panics to `console.error` with a message (once). With
/// threads, a panic also fails the threads waiting for the panicking one.
pub fn init() {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            #[cfg(target_feature = "atomics")]
            crate::search::parallel::pool::poison();
            console_error_panic_hook::hook(info);
        }))
    });
}

/// Converts a result to plain JS data (objects, arrays, numbers, strings,
/// `null`; no `Map`s, no `BigInt`s), struct fields in camelCase
/// ([`crate::js_names`]).
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    Camel(value)
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| type_error(&format!("cannot convert the result to JS: {e}")))
}

/// Converts data in a format of its own (ggp.org's match record) or keyed
/// by game text as it is.
pub fn to_js_data<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| type_error(&format!("cannot convert the result to JS: {e}")))
}

/// Reads the options object of a binding: `undefined`/`null` is the
/// default, a key `T` does not declare is a `TypeError` naming the known
/// ones (`T` is `#[serde(deny_unknown_fields)]`), so is a value of the wrong
/// type. Keys set to `undefined` or `null` count as absent. The one check of
/// every binding's options (their TypeScript: `js/types.d.ts`).
pub fn options<T: DeserializeOwned + Default>(v: JsValue, what: &str) -> Result<T, JsValue> {
    if v.is_undefined() || v.is_null() {
        return Ok(T::default());
    }
    if !v.is_object() || js_sys::Array::is_array(&v) {
        return Err(type_error(&format!("{what} options must be an object")));
    }
    // JSON has no NaN or infinity: serde would read them as absent.
    for entry in js_sys::Object::entries(v.unchecked_ref()).iter() {
        let entry: js_sys::Array = entry.unchecked_into();
        if let Some(x) = entry.get(1).as_f64().filter(|x| !x.is_finite()) {
            let key = entry.get(0).as_string().unwrap_or_default();
            return Err(range_error(&format!(
                "{what} option {key} is {x}: give a finite number"
            )));
        }
    }
    let mut json: serde_json::Value = serde_wasm_bindgen::from_value(v)
        .map_err(|e| type_error(&format!("{what} options: {e}")))?;
    if let Some(obj) = json.as_object_mut() {
        obj.retain(|_, x| !x.is_null());
    }
    serde_json::from_value(json).map_err(|e| type_error(&option_error(what, &e.to_string())))
}

/// serde's "unknown field `x`, expected one of `a`, `b`" as "unknown
/// search option `x` (options: a, b)"; other errors prefixed.
fn option_error(what: &str, serde: &str) -> String {
    let Some(rest) = serde.strip_prefix("unknown field ") else {
        return format!("{what} options: {serde}");
    };
    let (field, known) = rest.split_once(", expected ").unwrap_or((rest, ""));
    let known = known
        .trim_start_matches("one of ")
        .replace('`', "")
        .split(" at line")
        .next()
        .unwrap_or_default()
        .to_string();
    format!("unknown {what} option {field} (options: {known})")
}

/// Reads data that came from a result (e.g. a structure handed back to
/// `renderBoard`): its type reads JavaScript's camelCase
/// (`#[serde(rename_all(deserialize = "camelCase"))]`).
pub fn from_js_data<T: DeserializeOwned>(v: JsValue, what: &str) -> Result<T, JsValue> {
    let json: serde_json::Value =
        serde_wasm_bindgen::from_value(v).map_err(|e| type_error(&format!("{what}: {e}")))?;
    serde_json::from_value(json).map_err(|e| type_error(&format!("{what}: {e}")))
}

/// An `Error` with the given `name`.
// Messages are `Display`: a text or one of the libraries' errors.
pub fn error(name: &str, message: &(impl Display + ?Sized)) -> js_sys::Error {
    let err = js_sys::Error::new(&message.to_string());
    err.set_name(name);
    err
}

pub fn set(target: &JsValue, key: &str, value: &JsValue) {
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(target, &JsValue::from_str(key), value);
}

pub fn type_error(message: &(impl Display + ?Sized)) -> JsValue {
    js_sys::TypeError::new(&message.to_string()).into()
}

pub fn range_error(message: &(impl Display + ?Sized)) -> JsValue {
    js_sys::RangeError::new(&message.to_string()).into()
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
pub fn move_error(message: &(impl Display + ?Sized)) -> JsValue {
    error("GdlMoveError", message).into()
}
