//! Helpers shared by the wasm test files.
#![allow(dead_code)] // not every helper is used

use wasm_bindgen::JsValue;

/// Reads a property of a JS object.
pub fn get(v: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(v, &JsValue::from_str(key)).expect("an object")
}

/// Converts plain JS data to a Rust value.
pub fn from_js<T: serde::de::DeserializeOwned>(v: JsValue) -> T {
    serde_wasm_bindgen::from_value(v).expect("convertible")
}

/// A string list from a JSON array.
pub fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|x| x.as_str().expect("a string").to_string())
        .collect()
}

/// The project's own games (`games/` at the repository root).
pub const TIC_TAC_TOE: &str = include_str!("../../../../games/ticTacToe.kif");
pub const ROCK_PAPER_SCISSORS: &str = include_str!("../../../../games/rockPaperScissors.kif");
