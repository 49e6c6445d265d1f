//! `AnalysisJob`: the semantic validator as a resumable job, so a Web Worker
//! can run it in slices with a progress bar and a cancel button.
//!
//! ```js
//! const job = new AnalysisJob(kif, { budget: 100000, playouts: 200 });
//! let p;
//! do { p = job.step(5000); postMessage(p); } while (!p.done);   // or job.stop()
//! const report = job.report();          // the JSON of `gdlkit analyze --format json`
//! const diags = job.diagnostics();      // GDL2xx diagnostics placed in the text
//! job.free();
//! ```

use super::js::{self, to_js};
use crate::analysis::{self, Options};
use crate::diagnostic::resolve;
use crate::js_api::AnalysisOptions;
use crate::{Engine, EngineChoice, Game, Program};
use std::sync::Arc;
use wasm_bindgen::prelude::*;

/// A count option: a non-negative whole number.
fn count(name: &str, v: Option<f64>, default: usize) -> Result<usize, JsValue> {
    match v {
        None => Ok(default),
        Some(x) if x >= 0.0 && x.fract() == 0.0 && x <= 9_007_199_254_740_991.0 => Ok(x as usize),
        Some(x) => Err(js::type_error(&format!(
            "options.{name} must be a non-negative whole number, got {x}"
        ))),
    }
}

/// The semantic validator over a game, run in slices.
#[wasm_bindgen]
pub struct AnalysisJob {
    job: analysis::AnalysisJob<Engine>,
    text: String,
    /// The parsed rules, to place the refuted properties on them.
    program: Arc<Program>,
    engine: &'static str,
}

#[wasm_bindgen]
impl AnalysisJob {
    /// Loads the game and prepares the analysis (nothing is explored yet).
    /// Throws a `GdlDiagnosticsError` when the text has errors, a
    /// `TypeError` for bad options.
    #[wasm_bindgen(constructor)]
    pub fn new(
        kif: &str,
        #[wasm_bindgen(unchecked_param_type = "AnalysisOptions | undefined")] options: JsValue,
    ) -> Result<AnalysisJob, JsValue> {
        js::init();
        let o: AnalysisOptions = js::options(options, "analysis")?;
        let defaults =
            Options::with_budget(count("budget", o.budget, Options::default().max_states)?);
        let opts = Options {
            playouts: count("playouts", o.playouts, defaults.playouts)?,
            playout_depth: count("depth", o.depth, defaults.playout_depth)?,
            seed: count("seed", o.seed, defaults.seed as usize)? as u64,
            ..defaults
        };
        let choice: EngineChoice = o.engine.as_deref().unwrap_or("auto").parse().map_err(
            |e: gdlkit_engine::error::OptionError| js::type_error(&format!("options.engine: {e}")),
        )?;
        let Game { program, engine } =
            Game::load(kif, choice).map_err(|diags| js::diagnostics_error(&diags, kif))?;
        Ok(AnalysisJob {
            engine: engine.name(),
            job: analysis::AnalysisJob::new(engine, opts),
            text: kif.to_string(),
            program,
        })
    }

    /// Does about `budget` units of work (a state expansion costs 1 plus its
    /// joint moves, a playout step 1) and returns the progress. Returns
    /// early when the phase changes. Never throws: an evaluation limit ends
    /// the job with a report.
    #[wasm_bindgen(unchecked_return_type = "AnalysisProgress")]
    pub fn step(&mut self, budget: u32) -> Result<JsValue, JsValue> {
        to_js(&self.job.step(budget.max(1) as u64))
    }

    /// The progress without doing anything.
    #[wasm_bindgen(unchecked_return_type = "AnalysisProgress")]
    pub fn progress(&self) -> Result<JsValue, JsValue> {
        to_js(&self.job.progress())
    }

    /// Ends the job now, keeping what it found (the rest is not established).
    #[wasm_bindgen(unchecked_return_type = "AnalysisProgress")]
    pub fn stop(&mut self) -> Result<JsValue, JsValue> {
        to_js(&self.job.stop())
    }

    /// The report (as `gdlkit analyze --format json`), or `null` until done.
    #[wasm_bindgen(unchecked_return_type = "AnalysisReport | null")]
    pub fn report(&self) -> Result<JsValue, JsValue> {
        match self.job.report() {
            None => Ok(JsValue::NULL),
            Some(r) => to_js(&r.summary()),
        }
    }

    /// The refuted properties as diagnostics (codes GDL201–GDL208, placed on
    /// the `terminal`, `legal` or `goal` rules; the counterexample in
    /// `related`), to merge with `check(text)`; `null` until done.
    #[wasm_bindgen(unchecked_return_type = "Diagnostic[] | null")]
    pub fn diagnostics(&self) -> Result<JsValue, JsValue> {
        let Some(r) = self.job.report() else {
            return Ok(JsValue::NULL);
        };
        let diags = analysis::to_diagnostics_located(r, &self.program);
        to_js(&resolve(&diags, &self.text))
    }

    /// The state machine that runs the analysis: "fast", "hybrid" or "interpreter".
    #[wasm_bindgen(unchecked_return_type = "'fast' | 'hybrid' | 'interpreter'")]
    pub fn engine(&self) -> String {
        self.engine.to_string()
    }

    /// The evaluation error that ended the job early, or `null`.
    #[wasm_bindgen(unchecked_return_type = "string | null")]
    pub fn error(&self) -> JsValue {
        let error = self.job.report().and_then(|r| r.error.as_deref());
        error.map_or(JsValue::NULL, JsValue::from_str)
    }
}
