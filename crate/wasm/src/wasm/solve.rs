//! `SolveJob`: the game solver (`crate::solve`) as a resumable job, so a Web
//! Worker can run it in slices with progress and a cancel button.
//!
//! ```js
//! const job = new SolveJob(kif, { seconds: 60 });
//! let p;
//! do { p = job.step(20000); postMessage(p); } while (!p.done);   // or job.stop()
//! const summary = job.summary();     // the JSON of `gdlkit solve --format json`
//! const file = job.solutionFile();   // the text of `gdlkit solve --out FILE`
//! job.free();
//! ```

use super::js::{self, to_js};
use crate::js_api::SolveOptions;
use crate::solve::{self, Limits, Refusal, Solution};
use crate::EngineChoice;
use wasm_bindgen::prelude::*;

/// The solver over a game, run in slices.
#[wasm_bindgen]
pub struct SolveJob {
    job: Option<solve::SolveJob>,
    solution: Option<Result<Solution, Refusal>>,
    /// A copy of the game's engine, for the values of given positions.
    engine: crate::engine::Engine,
}

#[wasm_bindgen]
impl SolveJob {
    /// Loads the game and prepares the solve (nothing is explored yet).
    /// Throws a `GdlDiagnosticsError` when the text has errors, a
    /// `GdlSolveError` when the game cannot be solved (more than two roles),
    /// a `TypeError` for bad options.
    #[wasm_bindgen(constructor)]
    pub fn new(
        kif: &str,
        #[wasm_bindgen(unchecked_param_type = "SolveOptions | undefined")] options: JsValue,
    ) -> Result<SolveJob, JsValue> {
        js::init();
        let o: SolveOptions = js::options(options, "solve")?;
        let limits = o
            .limits(Limits::default())
            .map_err(|e| js::type_error(&e))?;
        let choice: EngineChoice = o.engine.as_deref().unwrap_or("auto").parse().map_err(
            |e: gdlkit_engine::error::OptionError| js::type_error(&format!("options.engine: {e}")),
        )?;
        let engine =
            crate::load_engine(kif, choice).map_err(|diags| js::diagnostics_error(&diags, kif))?;
        let copy = engine.clone();
        let job = solve::SolveJob::new(engine, limits).map_err(|r| refused(&r))?;
        Ok(SolveJob {
            job: Some(job),
            solution: None,
            engine: copy,
        })
    }

    /// A finished job from a solution file (`gdlkit solve --out`,
    /// `solutionFile()`) of the game `kif`: it answers `summary`,
    /// `position` and `values` as after a solve. Throws a
    /// `GdlDiagnosticsError` when the text has errors, a `TypeError` when
    /// the file does not read or is of other roles or another engine.
    #[wasm_bindgen(js_name = fromSolution)]
    pub fn from_solution(kif: &str, file: &str) -> Result<SolveJob, JsValue> {
        js::init();
        let s = solve::read_solution(file)
            .map_err(|e| js::type_error(&format!("the solution file: {e}")))?;
        let choice: EngineChoice =
            s.engine
                .parse()
                .map_err(|e: gdlkit_engine::error::OptionError| {
                    js::type_error(&format!("the solution file's engine: {e}"))
                })?;
        let engine =
            crate::load_engine(kif, choice).map_err(|diags| js::diagnostics_error(&diags, kif))?;
        s.of_roles(&engine)
            .map_err(|e| js::type_error(&e.to_string()))?;
        Ok(SolveJob {
            job: None,
            solution: Some(Ok(s)),
            engine,
        })
    }

    /// Does about `budget` states' work (exploring, then valuing) and
    /// returns the progress; when `done`, makes the solution. Throws a
    /// `GdlSolveError` when the game cannot be solved (more than two roles).
    #[wasm_bindgen(unchecked_return_type = "SolveProgress")]
    pub fn step(&mut self, budget: u32) -> Result<JsValue, JsValue> {
        let p = match &mut self.job {
            Some(job) => job.step(budget.max(1) as usize),
            None => return self.progress(),
        };
        if p.done {
            self.finish()?;
        }
        to_js(&p)
    }

    /// The progress without doing anything.
    #[wasm_bindgen(unchecked_return_type = "SolveProgress")]
    pub fn progress(&self) -> Result<JsValue, JsValue> {
        match (&self.job, &self.solution) {
            (Some(job), _) => to_js(&job.progress()),
            (None, Some(Ok(s))) => to_js(&solve::Progress {
                states: s.stats.states,
                expanded: s.stats.expanded,
                edges: s.stats.edges,
                valued: s.stats.states,
                done: true,
            }),
            _ => Err(js::type_error("gdlkit: the solve was refused")),
        }
    }

    /// Ends the exploration now and solves what was explored (a partial
    /// solution).
    #[wasm_bindgen(unchecked_return_type = "SolveProgress")]
    pub fn stop(&mut self) -> Result<JsValue, JsValue> {
        if let Some(job) = &mut self.job {
            job.stop();
            self.finish()?;
        }
        self.progress()
    }

    fn finish(&mut self) -> Result<(), JsValue> {
        if let Some(job) = self.job.take() {
            self.solution = Some(job.finish());
        }
        match &self.solution {
            Some(Err(r)) => Err(refused(r)),
            _ => Ok(()),
        }
    }

    /// The summary (as `gdlkit solve --format json`), or `null` until done.
    #[wasm_bindgen(unchecked_return_type = "SolveSummary | null")]
    pub fn summary(&self) -> Result<JsValue, JsValue> {
        match &self.solution {
            Some(Ok(s)) => to_js(&s.summary()),
            _ => Ok(JsValue::NULL),
        }
    }

    /// The solution file's text (`gdlkit solve --out`), or `null` until done.
    #[wasm_bindgen(js_name = solutionFile, unchecked_return_type = "string | null")]
    pub fn solution_file(&self) -> JsValue {
        match &self.solution {
            Some(Ok(s)) => JsValue::from_str(&solve::write_solution(s)),
            _ => JsValue::NULL,
        }
    }
}

#[wasm_bindgen]
impl SolveJob {
    /// The position made of `fluents` (term texts): its solved value, the
    /// role to move and each legal move's value and outcome for that role
    /// (`Solution::position`), or `null` until done. Throws a `TypeError`
    /// for a fluent that does not parse.
    #[wasm_bindgen(unchecked_return_type = "SolvedPosition | null")]
    pub fn position(&mut self, fluents: Vec<String>) -> Result<JsValue, JsValue> {
        let Some(Ok(s)) = &self.solution else {
            return Ok(JsValue::NULL);
        };
        let state = super::search::search_state(&mut self.engine, &fluents, 0)?;
        let p = s
            .position(&mut self.engine, &state)
            .map_err(|e| JsValue::from(js::error("GdlSolveError", &e.to_string())))?;
        to_js(&p)
    }

    /// The solved value of each state (a list of fluent texts), `null`
    /// where the solution has none; `null` until done.
    #[wasm_bindgen(unchecked_return_type = "Array<SolvedValue | null> | null")]
    pub fn values(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string[][]")] states: JsValue,
    ) -> Result<JsValue, JsValue> {
        let Some(Ok(s)) = &self.solution else {
            return Ok(JsValue::NULL);
        };
        let states: Vec<Vec<String>> = serde_wasm_bindgen::from_value(states)
            .map_err(|e| js::type_error(&format!("values(states): {e}")))?;
        let mut out = Vec::with_capacity(states.len());
        for fluents in &states {
            let state = super::search::search_state(&mut self.engine, fluents, 0)?;
            out.push(s.value_of(&mut self.engine, &state));
        }
        to_js(&out)
    }
}

/// Solves a game symbolically with BDDs (`gdlkit solve --symbolic`,
/// [`solve::solve_symbolic`]): the reachable states by layer, the initial
/// state's value and the states by value, without enumerating them.
/// `onProgress` gets a report at most every 200 ms; the call blocks, so a
/// page runs it in a worker and cancels by ending the worker. Throws a
/// `GdlDiagnosticsError` for rules with errors, a `GdlSolveError` when the
/// game cannot be solved so (more than two roles, GDL-II, it does not
/// ground), a `TypeError` for bad options.
#[wasm_bindgen(js_name = solveSymbolic, unchecked_return_type = "SymbolicSummary")]
pub fn solve_symbolic(
    kif: &str,
    #[wasm_bindgen(unchecked_param_type = "SymbolicOptions | undefined")] options: JsValue,
    #[wasm_bindgen(unchecked_param_type = "((progress: JobProgress) => void) | undefined")]
    on_progress: Option<js_sys::Function>,
) -> Result<JsValue, JsValue> {
    js::init();
    let o: crate::js_api::SymbolicOptions = js::options(options, "solveSymbolic")?;
    let limits = o.limits().map_err(|e| js::type_error(&e))?;
    let game = crate::Game::load(kif, EngineChoice::Interpreter)
        .map_err(|diags| js::diagnostics_error(&diags, kif))?;
    if game.program.is_gdl2() {
        return Err(refused(&Refusal(
            "symbolic solving does not cover GDL-II games (chance, hidden information)".into(),
        )));
    }
    if let Some(f) = on_progress {
        crate::job::set_progress_sink(Some(Box::new(move |p: &crate::job::Progress| {
            let report = crate::js_api::JobProgress {
                phase: p.phase.to_string(),
                detail: p.detail.clone(),
                elapsed_ms: p.elapsed_ms,
            };
            if let Ok(v) = to_js(&report) {
                let _ = f.call1(&JsValue::NULL, &v);
            }
        })));
    }
    let result = solve::solve_symbolic(&game.program, &limits);
    crate::job::set_progress_sink(None);
    to_js(&result.map_err(|r| refused(&r))?)
}

fn refused(r: &Refusal) -> JsValue {
    js::error("GdlSolveError", &r.0).into()
}
