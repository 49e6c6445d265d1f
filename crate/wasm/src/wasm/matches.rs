//! `runMatchWithProgress`: the match of `runMatch` (search.rs), calling a JS
//! function with each finished game, so that a worker can report a match's
//! progress while it runs. Same options, result and errors as `runMatch`.
//! Its options are `runMatch`'s (`crate::js_api::MatchOptions`).

use super::js::{self, to_js};
use crate::engine::EngineChoice;
use crate::js_api::MatchOptions;
use crate::search::matches::run_match;
use crate::search::report::match_report;
use crate::search::PlayerSpec;
use wasm_bindgen::prelude::*;

/// Plays a match as `runMatch` does; `onGame(record)` is called after each
/// game with `{game, seats, goals, steps, terminal}`. An exception thrown
/// by `onGame` is rethrown once the match is over.
#[wasm_bindgen(js_name = runMatchWithProgress, unchecked_return_type = "MatchResult")]
#[allow(non_snake_case)]
pub fn run_match_with_progress(
    kif: &str,
    players: Vec<String>,
    options: JsValue,
    #[wasm_bindgen(unchecked_param_type = "(record: MatchGameRecord) => void")]
    onGame: &js_sys::Function,
) -> Result<JsValue, JsValue> {
    js::init();
    let o: MatchOptions = js::options(options, "match")?;
    let cfg = o
        .config()
        .map_err(|e| js::range_error(&format!("match option {e}")))?;
    let choice: EngineChoice = o.engine.as_deref().unwrap_or("auto").parse().map_err(
        |e: gdlkit_engine::error::OptionError| {
            js::type_error(&e.to_string().replace("--engine", "engine"))
        },
    )?;
    let crate::Game {
        program,
        engine: mut m,
    } = crate::Game::load(kif, choice).map_err(|d| js::diagnostics_error(&d, kif))?;
    if players.is_empty() {
        return Err(js::type_error(
            "no players (e.g. alphabeta:heuristic=fuzzy,ms=200 mcts:ms=200)",
        ));
    }
    let specs: Vec<PlayerSpec> = players
        .iter()
        .map(|s| s.parse())
        .collect::<Result<_, crate::search::SpecError>>()
        .map_err(|e| js::type_error(&e.to_string()))?;
    let mut thrown: Option<JsValue> = None;
    let result = run_match(&program, &mut m, &specs, &cfg, &mut |record| {
        if thrown.is_none() {
            let call = to_js(record).and_then(|r| onGame.call1(&JsValue::NULL, &r));
            thrown = call.err();
        }
    })
    .map_err(|e| JsValue::from(js::error("GdlSearchError", &e)))?;
    if let Some(e) = thrown {
        return Err(e);
    }
    to_js(&match_report("game", &m, &cfg, &result))
}
