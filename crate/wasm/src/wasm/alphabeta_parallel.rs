//! Parallel alpha-beta (lazy SMP) across workers (Web Workers in the page,
//! worker threads in Node): each worker holds an `AlphaBetaWorker`, helper
//! number `worker` of `crate::search::alphabeta_parallel` with its own
//! transposition table (no shared memory), and returns its result; the main
//! thread passes the results to `alphabetaChoose`, the same combination
//! rule as the native threads. JavaScript only carries the messages.

use super::js::{self, to_js};
use super::search::{load_game_on, search_state};
use crate::engine::Engine;
use crate::js_api::{AlphaBetaChoice, AlphaBetaRootResult, AlphaBetaWorkerOptions};
use crate::reasoner::StateMachine;
use crate::search::alphabeta::AlphaBeta;
use crate::search::alphabeta_parallel::{choose, WorkerResult};
use crate::search::{heuristics, PlayerSpec, SpecError};
use wasm_bindgen::prelude::*;

/// One worker of a parallel alpha-beta: its own copy of the game and its
/// own table, kept across searches (so it keeps what it learnt, as the
/// one-core player does).
#[wasm_bindgen]
pub struct AlphaBetaWorker {
    machine: Engine,
    search: AlphaBeta<Engine>,
}

#[wasm_bindgen]
impl AlphaBetaWorker {
    /// `spec`: an `alphabeta` player spec (`"alphabeta:ms=200"`;
    /// `threads`/`cores` are the caller's business); `worker`: this
    /// worker's number (0 searches as the one-core player).
    #[wasm_bindgen(constructor)]
    pub fn new(
        kif: &str,
        spec: &str,
        #[wasm_bindgen(unchecked_param_type = "AlphaBetaWorkerOptions | undefined")]
        options: JsValue,
    ) -> Result<AlphaBetaWorker, JsValue> {
        js::init();
        let AlphaBetaWorkerOptions { worker, engine } = js::options(options, "AlphaBetaWorker")?;
        let crate::Game {
            program,
            engine: mut machine,
        } = load_game_on(kif, engine.as_deref())?;
        let spec: PlayerSpec = spec
            .parse()
            .map_err(|e: SpecError| js::type_error(&e.to_string()))?;
        let PlayerSpec::AlphaBeta(spec) = spec else {
            return Err(js::type_error(&format!(
                "AlphaBetaWorker runs alphabeta, got player `{}`",
                spec.name()
            )));
        };
        let mut cfg = spec.config();
        cfg.helper = worker.unwrap_or(0) as usize;
        let h = heuristics::build(&spec.heuristic, &program, &mut machine)
            .map_err(|e| js::type_error(&e))?;
        Ok(AlphaBetaWorker {
            machine,
            search: AlphaBeta::new(h, cfg),
        })
    }

    /// Searches the state made of `fluents` (term text) for role number
    /// `role`; returns `{move, value, solved, depth, stats}`.
    #[wasm_bindgen(js_name = rootResult, unchecked_return_type = "AlphaBetaRootResult")]
    pub fn root_result(&mut self, fluents: Vec<String>, role: u32) -> Result<JsValue, JsValue> {
        let state = search_state(&mut self.machine, &fluents, role)?;
        let r = self
            .search
            .search(&mut self.machine, &state, role as usize, None)
            .map_err(js::eval_error)?;
        let terms = self.machine.terms();
        let result = WorkerResult {
            best_move: r.best_move.map(|m| terms.display(m)),
            value: r.value,
            solved: r.solved,
            depth: r.stats.depth,
        };
        to_js(&AlphaBetaRootResult {
            result,
            stats: r.stats,
        })
    }
}

/// The combination rule of parallel alpha-beta over the workers' results
/// (`{move, value, solved, depth}` each): a proven result first, else the
/// deepest, then the higher value, then the lower worker number. Returns
/// `{worker, move, value, solved, depth}`.
#[wasm_bindgen(js_name = alphabetaChoose, unchecked_return_type = "AlphaBetaChoice")]
pub fn alphabeta_choose(
    #[wasm_bindgen(unchecked_param_type = "AlphaBetaResult[]")] parts: JsValue,
) -> Result<JsValue, JsValue> {
    js::init();
    let parts: Vec<WorkerResult<String>> = serde_wasm_bindgen::from_value(parts)
        .map_err(|e| js::type_error(&format!("alphabetaChoose expects worker results: {e}")))?;
    let i = choose(&parts);
    let pick = i.map(|i| &parts[i]);
    to_js(&AlphaBetaChoice {
        worker: i,
        mv: pick.and_then(|p| p.best_move.clone()),
        value: pick.map(|p| p.value),
        solved: pick.is_some_and(|p| p.solved),
        depth: pick.map_or(0, |p| p.depth),
    })
}
