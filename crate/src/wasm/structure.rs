//! `structure(kif, options)`: the game's structure (as `gdlkit structure
//! --format json`); `renderBoard(kifOrStructure, fluents, options)`: the
//! SVG of a state's board, drawn in Rust from that structure.

use super::js::{self, to_js};
use crate::engine::{load_engine, EngineChoice};
use crate::structure::{self, board, Options, Structure};
use serde::Deserialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[derive(Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
struct StructureOptions {
    seed: Option<u64>,
    states: Option<usize>,
    ms: Option<f64>,
}

/// Refuses option names not in `known` (a misspelt option must not be
/// silently ignored).
fn known_keys(v: &JsValue, what: &str, known: &[&str]) -> Result<(), JsValue> {
    if let Some(obj) = v.dyn_ref::<js_sys::Object>() {
        for k in js_sys::Object::keys(obj).iter() {
            let k = k.as_string().unwrap_or_default();
            if !known.contains(&k.as_str()) {
                return Err(js::type_error(&format!(
                    "unknown {what} option `{k}` (options: {})",
                    known.join(", ")
                )));
            }
        }
    }
    Ok(())
}

fn find(kif: &str, options: Options) -> Result<Structure, JsValue> {
    let program = crate::parse_program(kif);
    let mut m = load_engine(kif, EngineChoice::Auto).map_err(|d| js::diagnostics_error(&d, kif))?;
    structure::find(&program, &mut m, options).map_err(js::eval_error)
}

/// The structure of a game (`Structure` in the TypeScript types).
#[wasm_bindgen(unchecked_return_type = "Structure")]
pub fn structure(kif: &str, options: JsValue) -> Result<JsValue, JsValue> {
    js::init();
    let o: StructureOptions = if options.is_undefined() || options.is_null() {
        StructureOptions::default()
    } else {
        known_keys(&options, "structure", &["seed", "states", "ms"])?;
        serde_wasm_bindgen::from_value(options)
            .map_err(|e| js::type_error(&format!("structure options: {e}")))?
    };
    let d = Options::default();
    let options = Options {
        seed: o.seed.unwrap_or(d.seed),
        max_states: o.states.unwrap_or(d.max_states),
        max_ms: o.ms.unwrap_or(d.max_ms),
    };
    // Loading (grounding) gets a minute beside the sampling's own `ms`.
    let limit = options.max_ms.max(0.0) + 60_000.0;
    let mut st = crate::job::scope(limit, || find(kif, options))?;
    structure::locate(&mut st, &crate::parse_program(kif), kif);
    to_js(&st)
}

#[derive(Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
struct BoardOptions {
    cell: Option<f64>,
    labels: Option<bool>,
}

/// The SVG of the board of a state given by its fluents (canonical text),
/// or `""` when the game has no board. `game`: KIF text or a `Structure`.
#[wasm_bindgen(js_name = renderBoard)]
pub fn render_board(
    game: JsValue,
    fluents: Vec<String>,
    options: JsValue,
) -> Result<String, JsValue> {
    js::init();
    let st: Structure = if let Some(kif) = game.as_string() {
        find(&kif, structure::DISPLAY_OPTIONS)?
    } else {
        serde_wasm_bindgen::from_value(game).map_err(|e| {
            js::type_error(&format!("renderBoard: not KIF text or a structure: {e}"))
        })?
    };
    let o: BoardOptions = if options.is_undefined() || options.is_null() {
        BoardOptions::default()
    } else {
        known_keys(&options, "renderBoard", &["cell", "labels"])?;
        serde_wasm_bindgen::from_value(options)
            .map_err(|e| js::type_error(&format!("renderBoard options: {e}")))?
    };
    let cell = o.cell.unwrap_or(40.0).clamp(4.0, 400.0);
    Ok(board::svg_of(&st.boards, &fluents, cell, o.labels.unwrap_or(true)).unwrap_or_default())
}

/// For each move, the board cells it names (`{cells: [[col, row], ...],
/// column}`), so that the page can play moves by clicking the board.
#[wasm_bindgen(js_name = moveCells)]
pub fn move_cells(structure: JsValue, moves: Vec<String>) -> Result<JsValue, JsValue> {
    js::init();
    let st: Structure = serde_wasm_bindgen::from_value(structure)
        .map_err(|e| js::type_error(&format!("moveCells: not a structure: {e}")))?;
    let b = st
        .boards
        .iter()
        .filter(|b| b.coordinates.len() == 2)
        .max_by_key(|b| b.size.iter().product::<usize>());
    let out: serde_json::Map<String, serde_json::Value> = moves
        .iter()
        .map(|m| {
            let mc = b.map(|b| board::move_cells(b, m)).unwrap_or_default();
            (m.clone(), serde_json::json!(mc))
        })
        .collect();
    to_js(&out)
}
