//! `replay(kif, moves)`: the conformance format
//! (`shared/conformance/README.md`), as `gdlkit replay` prints it.

use super::js::{self, to_js};
use crate::replay::{parse_moves, parse_moves_json, replay as run_replay, ReplayError};
use wasm_bindgen::prelude::*;

/// Replays joint moves from the initial state and returns
/// `{roles, steps}` with every step computed from the rules. `moves` is
/// JSON text or the parsed value: a list of joint moves, or an object with
/// `jointMoves` (or `joint_moves`, the conformance files' spelling). An illegal move throws a `GdlMoveError` whose `step` is
/// the 1-based number of the joint move.
#[wasm_bindgen(unchecked_return_type = "ReplayResult")]
pub fn replay(
    kif: &str,
    #[wasm_bindgen(
        unchecked_param_type = "string | string[][] | { jointMoves: string[][] } | { joint_moves: string[][] }"
    )]
    moves: JsValue,
) -> Result<JsValue, JsValue> {
    js::init();
    let joint_moves = match moves.as_string() {
        Some(text) => parse_moves_json(&text),
        None => {
            let v: serde_json::Value = serde_wasm_bindgen::from_value(moves)
                .map_err(|e| js::type_error(&format!("moves: {e}")))?;
            parse_moves(&v)
        }
    }
    .map_err(|e| js::type_error(&format!("moves: {e}")))?;
    let mut m = crate::load_game(kif).map_err(|diags| js::diagnostics_error(&diags, kif))?;
    match run_replay(&mut m, &joint_moves) {
        Ok(r) => to_js(&r.conformance()),
        Err(ReplayError::Illegal { index, message }) => {
            let err = js::move_error(&message);
            js::set(&err, "step", &JsValue::from(index as u32 + 1));
            Err(err)
        }
        Err(ReplayError::Eval(e)) => Err(js::eval_error(e)),
    }
}
