//! `structure(kif, options)`: the game's structure (as `gdlkit structure
//! --format json`); `renderBoard(kifOrStructure, fluents, options)`: the
//! SVG of a state's board, drawn in Rust from that structure.

use super::js::{self, to_js};
use crate::engine::EngineChoice;
use crate::ground::Budget;
use crate::js_api::{RenderBoardOptions, StructureOptions};
use crate::program::Program;
use crate::structure::{self, board, boardsvg, scene, Options, Structure};
use std::sync::Arc;
use wasm_bindgen::prelude::*;

/// The structure, with the program it was found from (for [`structure::locate`]).
/// Grounding gets at most the sampling's own time: the fast engine only
/// pays for a few hundred states when it is built quickly (a game that
/// grounds slowly, like chess, would otherwise wait for the whole
/// grounding budget before the interpreter samples it).
fn find(kif: &str, options: Options) -> Result<(Structure, Arc<Program>), JsValue> {
    let d = Budget::default();
    let budget = Budget {
        max_ms: d.max_ms.min(options.max_ms),
        ..d
    };
    let mut game = crate::Game::load_with(kif, EngineChoice::Auto, budget)
        .map_err(|d| js::diagnostics_error(&d, kif))?;
    let st = structure::find(&game.program, &mut game.engine, options).map_err(js::eval_error)?;
    Ok((st, game.program))
}

/// The structure of a game (`Structure` in the TypeScript types).
#[wasm_bindgen(unchecked_return_type = "Structure")]
pub fn structure(kif: &str, options: JsValue) -> Result<JsValue, JsValue> {
    js::init();
    let o: StructureOptions = js::options(options, "structure")?;
    let d = Options::default();
    let options = Options {
        seed: o.seed.unwrap_or(d.seed),
        max_states: o.states.unwrap_or(d.max_states),
        max_ms: crate::job::check_ms("structure option ms", o.ms.unwrap_or(d.max_ms))
            .map_err(|e| js::range_error(&e))?,
    };
    // Loading (grounding) gets a minute beside the sampling's own `ms`.
    let limit = options.max_ms + 60_000.0;
    let (mut st, program) = crate::job::scope(limit, || find(kif, options))?;
    structure::locate(&mut st, &program, kif);
    to_js(&st)
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
        find(&kif, structure::DISPLAY_OPTIONS)?.0
    } else {
        js::from_js_data(game, "renderBoard: not KIF text or a structure")?
    };
    let o: RenderBoardOptions = js::options(options, "renderBoard")?;
    let cell = o.cell.unwrap_or(40.0).clamp(4.0, 400.0);
    let fluents = board::Fluent::of_texts(&fluents);
    Ok(
        boardsvg::svg_of_structure(&st, &fluents, cell, o.labels.unwrap_or(true))
            .unwrap_or_default(),
    )
}

/// For each move, the cells it names on the board `boardCells` draws
/// (`{cells: [[col, row] or [col, row, layer], ...], column}`), so that the
/// page can play moves by clicking the board.
#[wasm_bindgen(js_name = moveCells)]
pub fn move_cells(structure: JsValue, moves: Vec<String>) -> Result<JsValue, JsValue> {
    js::init();
    let st: Structure = js::from_js_data(structure, "moveCells: not a structure")?;
    let b = board::main_board(&st.boards);
    let out: serde_json::Map<String, serde_json::Value> = moves
        .iter()
        .map(|m| {
            let mc = b.map(|b| board::move_cells(b, m)).unwrap_or_default();
            (m.clone(), serde_json::json!(mc))
        })
        .collect();
    // Keyed by moves: no field names to convert.
    js::to_js_data(&out)
}

/// The cells of the state's board (`board::main_board` of `structure`, else
/// its scene: `scene::state_cells`) for
/// each state given by its fluents: `{fluent, size, xs, ys, zs, cells:
/// [{x, y, z, content}], rest}`, or `null` when the game has no drawable
/// board. The page draws exactly these (JavaScript parses no terms).
#[wasm_bindgen(js_name = boardCells, unchecked_return_type = "(BoardCells | null)[]")]
pub fn board_cells(
    #[wasm_bindgen(unchecked_param_type = "Structure")] structure: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string[][]")] states: JsValue,
) -> Result<JsValue, JsValue> {
    js::init();
    let st: Structure = js::from_js_data(structure, "boardCells: not a structure")?;
    let states: Vec<Vec<String>> =
        js::from_js_data(states, "boardCells: not a list of states (fluent texts)")?;
    let out: Vec<Option<board::BoardCells>> = states
        .iter()
        .map(|fluents| {
            let fluents = board::Fluent::of_texts(fluents);
            scene::state_cells(&st.boards, st.scene.as_ref(), &fluents)
        })
        .collect();
    to_js(&out)
}

/// GDL-II: how chance's move `mv` looks, from the game's `structure`: a
/// card or a die per drawn thing the structure recognises (`[]` for
/// none). With `percepts`, only the things a role saw in them.
#[wasm_bindgen(js_name = chanceDrawings, unchecked_return_type = "PieceDrawing[]")]
pub fn chance_drawings(
    #[wasm_bindgen(unchecked_param_type = "Structure")] structure: JsValue,
    mv: &str,
    #[wasm_bindgen(unchecked_param_type = "string[] | undefined")] percepts: JsValue,
) -> Result<JsValue, JsValue> {
    js::init();
    let st: Structure = js::from_js_data(structure, "chanceDrawings: not a structure")?;
    let seen: Option<Vec<String>> = if percepts.is_undefined() || percepts.is_null() {
        None
    } else {
        Some(js::from_js_data(
            percepts,
            "chanceDrawings: percepts are not a list of strings",
        )?)
    };
    to_js(&structure::chance::drawings(&st, mv, seen.as_deref()))
}
