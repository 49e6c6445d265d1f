//! Root-parallel MCTS across workers (Web Workers in the page, worker
//! threads in Node): each worker holds an `MctsWorker` (one tree, plain
//! MCTS or MCTS-Solver, kept from move to move) that searches from a
//! state and returns its root statistics; the main thread passes them to
//! `mctsChoose`, which merges them and picks the move with the same Rust
//! functions as the native threads (`crate::search::mcts`). JavaScript only
//! carries the messages.

use super::js::{self, to_js};
use super::search::{load_game_on, search_state};
use crate::engine::{Engine, EngineState};
use crate::js_api::{MctsChoice, MctsRootResult, MctsWorkerOptions};
use crate::reasoner::StateMachine;
use crate::search::mcts::solver::SolverMcts;
use crate::search::mcts::{choose, merge_roots, RootStats};
use crate::search::parallel::worker_seed;
use crate::search::{solver_config, PlayerSpec, SpecError};
use wasm_bindgen::prelude::*;

/// One worker of a root-parallel MCTS: its own copy of the game and its own
/// random generator (seed `seed` for worker 0, derived for the others, as
/// natively), kept across searches.
#[wasm_bindgen]
pub struct MctsWorker {
    machine: Engine,
    search: SolverMcts<EngineState>,
}

#[wasm_bindgen]
impl MctsWorker {
    /// `spec`: an `mcts` or `mcts-solver` player spec (`"mcts:ms=200"`;
    /// `threads`/`cores` are the caller's business); `worker`: this
    /// worker's number.
    #[wasm_bindgen(constructor)]
    pub fn new(
        kif: &str,
        spec: &str,
        #[wasm_bindgen(unchecked_param_type = "MctsWorkerOptions | undefined")] options: JsValue,
    ) -> Result<MctsWorker, JsValue> {
        js::init();
        let MctsWorkerOptions {
            seed,
            worker,
            engine,
        } = js::options(options, "MctsWorker")?;
        let crate::Game {
            program,
            engine: mut machine,
        } = load_game_on(kif, engine.as_deref())?;
        let spec: PlayerSpec = spec
            .parse()
            .map_err(|e: SpecError| js::type_error(&e.to_string()))?;
        let (PlayerSpec::Mcts(spec) | PlayerSpec::MctsSolver(spec)) = spec else {
            return Err(js::type_error(&format!(
                "MctsWorker runs mcts, got player `{}`",
                spec.name()
            )));
        };
        // What the playouts settle before the first move comes from the
        // player's seed, not the worker's, so the workers agree (within the
        // learning's time cap).
        let seed = seed.unwrap_or(1);
        let worker_seed = worker_seed(seed, worker.unwrap_or(0) as usize);
        let mut cfg = match spec.solver {
            true => solver_config(&spec, &program, &mut machine, seed)
                .map_err(|e| js::type_error(&e))?,
            false => spec.config(),
        };
        // One worker checks, as one thread does natively; the others
        // spend all their time on the tree.
        cfg.tactics &= worker.unwrap_or(0) == 0;
        let search = SolverMcts::new(cfg, worker_seed, 1);
        Ok(MctsWorker { machine, search })
    }

    /// Searches the state made of `fluents` (term text) for role number
    /// `role`; returns `{moves: [text], visits, totals, playouts, proven,
    /// stats}`.
    #[wasm_bindgen(js_name = rootStats, unchecked_return_type = "MctsRootResult")]
    pub fn root_stats(&mut self, fluents: Vec<String>, role: u32) -> Result<JsValue, JsValue> {
        let state = search_state(&mut self.machine, &fluents, role)?;
        let role = role as usize;
        let (rs, stats) = (self.search)
            .search_view(&mut self.machine, &state, role)
            .map_err(js::eval_error)?;
        let terms = self.machine.terms();
        let root = RootStats {
            moves: rs.moves.iter().map(|&m| terms.display(m)).collect(),
            visits: rs.visits,
            totals: rs.totals,
            playouts: rs.playouts,
            proven: rs.proven,
            plies: rs.plies,
        };
        to_js(&MctsRootResult { root, stats })
    }
}

/// Merges the root statistics of several `MctsWorker`s (searched from the
/// same state for the same role) and picks the move: `{move, value,
/// merged: {moves, visits, totals, playouts}}`.
#[wasm_bindgen(js_name = mctsChoose, unchecked_return_type = "MctsChoice")]
pub fn mcts_choose(
    #[wasm_bindgen(unchecked_param_type = "RootStats[]")] parts: JsValue,
) -> Result<JsValue, JsValue> {
    js::init();
    let parts: Vec<RootStats<String>> = serde_wasm_bindgen::from_value(parts)
        .map_err(|e| js::type_error(&format!("mctsChoose expects root statistics: {e}")))?;
    let merged = merge_roots(&parts).map_err(|e| js::type_error(&e))?;
    let pick = choose(&merged);
    to_js(&MctsChoice {
        mv: pick.map(|(i, _)| merged.moves[i].clone()),
        value: pick.map(|(_, v)| v * 100.0),
        merged,
    })
}
