//! Seeded random playouts (`crate::playouts`): the options shared by
//! `Game.playouts`, and `PlayoutJob`, a run played a few playouts at a time
//! so the worker can report progress and stop between two steps.

use super::js::{self, to_js};
use crate::engine::{Engine, EngineState};
use crate::js_api::PlayoutOptions;
use crate::playouts::Run;
use crate::reasoner::StateMachine;
use wasm_bindgen::prelude::*;

/// `{count, seed, maxSteps, record}` (`crate::js_api::PlayoutOptions`).
pub(super) fn options(v: JsValue) -> Result<PlayoutOptions, JsValue> {
    let o: PlayoutOptions = js::options(v, "playouts")?;
    o.check().map_err(|e| js::range_error(&e))?;
    Ok(o)
}

/// Random playouts of a game, played in steps: `new PlayoutJob(kif,
/// {count, seed, maxSteps, record}, engine)`, then `step(n)` until it
/// returns true, then `result()` (the same object as `Game.playouts`).
#[wasm_bindgen]
pub struct PlayoutJob {
    machine: Engine,
    root: EngineState,
    run: Run,
}

#[wasm_bindgen]
impl PlayoutJob {
    #[wasm_bindgen(constructor)]
    pub fn new(kif: &str, options: JsValue, engine: Option<String>) -> Result<PlayoutJob, JsValue> {
        js::init();
        let o = self::options(options)?;
        let mut machine = super::search::load_on(kif, engine.as_deref())?;
        let root = machine.initial_state().map_err(js::eval_error)?;
        let run = Run::new(&machine, o.count, o.seed, o.max_steps, o.record);
        Ok(PlayoutJob { machine, root, run })
    }

    /// Plays up to `n` more playouts; true when all are played.
    pub fn step(&mut self, n: u32) -> Result<bool, JsValue> {
        self.run
            .step(&mut self.machine, &self.root, n as usize)
            .map_err(js::eval_error)
    }

    /// Playouts played so far.
    pub fn done(&self) -> u32 {
        self.run.summary.playouts as u32
    }

    /// What the playouts so far found.
    #[wasm_bindgen(unchecked_return_type = "PlayoutSummary")]
    pub fn result(&self) -> Result<JsValue, JsValue> {
        to_js(&self.run.summary)
    }
}
