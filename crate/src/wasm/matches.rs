//! `runMatchWithProgress`: the match of `runMatch` (search.rs), calling a JS
//! function with each finished game, so that a worker can report a match's
//! progress while it runs. Same options, result and errors as `runMatch`.
//!
//! Its options repeat `runMatch`'s (search.rs was being changed by someone
//! else): keep them in step, or better, fold this into search.rs as an
//! optional `onGame` argument of `runMatch`.

use super::js::{self, to_js};
use crate::engine::{load_engine, EngineChoice};
use crate::search::matches::{run_match, MatchConfig};
use crate::search::report::match_json;
use crate::search::PlayerSpec;
use serde::Deserialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct MatchOptions {
    games: Option<usize>,
    seed: Option<u64>,
    max_steps: Option<usize>,
    engine: Option<String>,
}

const KNOWN: [&str; 4] = ["games", "seed", "maxSteps", "engine"];

/// Refuses option names `runMatch` does not know (serde_wasm_bindgen reads
/// only the fields it knows, so `deny_unknown_fields` cannot).
fn check_keys(v: &JsValue) -> Result<(), JsValue> {
    if let Some(obj) = v.dyn_ref::<js_sys::Object>() {
        for k in js_sys::Object::keys(obj).iter() {
            let k = k.as_string().unwrap_or_default();
            if !KNOWN.contains(&k.as_str()) {
                return Err(js::type_error(&format!(
                    "unknown match option `{k}` (options: {})",
                    KNOWN.join(", ")
                )));
            }
        }
    }
    Ok(())
}

/// Plays a match as `runMatch` does; `onGame(record)` is called after each
/// game with `{game, seats, goals, steps, terminal}`. An exception thrown
/// by `onGame` is rethrown once the match is over.
#[wasm_bindgen(js_name = runMatchWithProgress, unchecked_return_type = "any")]
#[allow(non_snake_case)]
pub fn run_match_with_progress(
    kif: &str,
    players: Vec<String>,
    options: JsValue,
    #[wasm_bindgen(unchecked_param_type = "(record: any) => void")] onGame: &js_sys::Function,
) -> Result<JsValue, JsValue> {
    js::init();
    let o: MatchOptions = if options.is_undefined() || options.is_null() {
        MatchOptions::default()
    } else {
        check_keys(&options)?;
        serde_wasm_bindgen::from_value(options)
            .map_err(|e| js::type_error(&format!("match options: {e}")))?
    };
    let d = MatchConfig::default();
    let cfg = MatchConfig {
        games: o.games.unwrap_or(d.games),
        seed: o.seed.unwrap_or(d.seed),
        max_steps: o.max_steps.unwrap_or(d.max_steps),
    };
    let choice: EngineChoice = o
        .engine
        .as_deref()
        .unwrap_or("auto")
        .parse()
        .map_err(|e: String| js::type_error(&e.replace("--engine", "engine")))?;
    let mut m = load_engine(kif, choice).map_err(|d| js::diagnostics_error(&d, kif))?;
    if players.is_empty() {
        return Err(js::type_error(
            "no players (e.g. alphabeta:heuristic=fuzzy,ms=200 mcts:ms=200)",
        ));
    }
    let specs: Vec<PlayerSpec> = players
        .iter()
        .map(|s| s.parse())
        .collect::<Result<_, String>>()
        .map_err(|e| js::type_error(&e))?;
    let program = crate::parse_program(kif);
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
    to_js(&match_json("game", &m, &cfg, &result))
}
