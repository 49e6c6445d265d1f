//! The ensemble player across workers (Web Workers in the page, worker
//! threads in Node): each worker holds one `EnsembleMember` (one alpha-beta
//! search with one evaluation function, built by the same Rust function as
//! the native threads) and returns its result; the main thread passes the
//! results to `ensembleChoose`, the lecture's rule in Rust
//! (`crate::search::ensemble::choose`). JavaScript only carries messages.

use super::js::{self, to_js};
use super::search::{load_game_on, search_state};
use crate::engine::Engine;
use crate::js_api::{EnsembleChoice, EnsembleMemberOptions, EnsembleMemberResult};
use crate::program::Program;
use crate::reasoner::StateMachine;
use crate::search::alphabeta::AlphaBeta;
use crate::search::ensemble::{self, choose, MemberResult};
use crate::search::{PlayerSpec, SpecError};
use wasm_bindgen::prelude::*;

/// The parsed `ensemble` spec: its member heuristics (in member order) and
/// the time per move.
fn members_of(
    program: &Program,
    spec: &str,
    machine: &mut Engine,
) -> Result<(Vec<String>, f64), JsValue> {
    let spec: PlayerSpec = spec
        .parse()
        .map_err(|e: SpecError| js::type_error(&e.to_string()))?;
    let PlayerSpec::Ensemble(spec) = spec else {
        return Err(js::type_error(&format!(
            "the ensemble's workers run `ensemble`, got player `{}`",
            spec.name()
        )));
    };
    Ok(ensemble::from_spec(&spec, program, machine))
}

/// The member heuristics of an `ensemble` spec on a game, in member order
/// (one worker per member).
#[wasm_bindgen(js_name = ensembleMembers)]
pub fn ensemble_members(
    kif: &str,
    spec: &str,
    engine: Option<String>,
) -> Result<Vec<String>, JsValue> {
    js::init();
    let mut game = load_game_on(kif, engine.as_deref())?;
    Ok(members_of(&game.program, spec, &mut game.engine)?.0)
}

/// One member of the ensemble: its own copy of the game and its search
/// (kept across moves, with its transposition table), for the whole `ms`.
#[wasm_bindgen]
pub struct EnsembleMember {
    machine: Engine,
    heuristic: String,
    search: AlphaBeta<Engine>,
}

#[wasm_bindgen]
impl EnsembleMember {
    /// Member number `member` of the `ensemble` spec (`"ensemble:ms=200"`).
    #[wasm_bindgen(constructor)]
    pub fn new(
        kif: &str,
        spec: &str,
        #[wasm_bindgen(unchecked_param_type = "EnsembleMemberOptions | undefined")]
        options: JsValue,
    ) -> Result<EnsembleMember, JsValue> {
        js::init();
        let EnsembleMemberOptions { member, engine } = js::options(options, "EnsembleMember")?;
        let member = member.unwrap_or(0);
        let crate::Game {
            program,
            engine: mut machine,
        } = load_game_on(kif, engine.as_deref())?;
        let (names, ms) = members_of(&program, spec, &mut machine)?;
        let heuristic = names.get(member as usize).cloned().ok_or_else(|| {
            js::range_error(&format!(
                "member {member} out of range: this ensemble has {} members",
                names.len()
            ))
        })?;
        let search = ensemble::member(&program, &mut machine, &heuristic, ms)
            .map_err(|e| js::type_error(&e))?;
        Ok(EnsembleMember {
            machine,
            heuristic,
            search,
        })
    }

    /// The member's evaluation function.
    #[wasm_bindgen(getter)]
    pub fn heuristic(&self) -> String {
        self.heuristic.clone()
    }

    /// Searches the state made of `fluents` for role number `role`:
    /// `{heuristic, move, value, solved, depth, stats}`.
    #[wasm_bindgen(unchecked_return_type = "EnsembleMemberResult")]
    pub fn search(&mut self, fluents: Vec<String>, role: u32) -> Result<JsValue, JsValue> {
        let state = search_state(&mut self.machine, &fluents, role)?;
        let r = self
            .search
            .search(&mut self.machine, &state, role as usize, None)
            .map_err(js::eval_error)?;
        let ids = MemberResult::of(&self.heuristic, &r);
        let result = MemberResult {
            heuristic: ids.heuristic,
            best_move: ids.best_move.map(|m| self.machine.terms().display(m)),
            value: ids.value,
            solved: ids.solved,
            depth: ids.depth,
        };
        to_js(&EnsembleMemberResult {
            result,
            stats: r.stats,
        })
    }
}

/// The lecture's choice among the members' results (the rule of
/// `crate::search::ensemble::choose`, the same as natively): `{move,
/// index, heuristic}`.
#[wasm_bindgen(js_name = ensembleChoose, unchecked_return_type = "EnsembleChoice")]
pub fn ensemble_choose(
    #[wasm_bindgen(unchecked_param_type = "EnsembleMemberMove[]")] parts: JsValue,
) -> Result<JsValue, JsValue> {
    js::init();
    let parts: Vec<MemberResult<String>> = serde_wasm_bindgen::from_value(parts)
        .map_err(|e| js::type_error(&format!("ensembleChoose expects member results: {e}")))?;
    let index = choose(&parts);
    to_js(&EnsembleChoice {
        mv: index.and_then(|i| parts[i].best_move.clone()),
        index,
        heuristic: index.map(|i| parts[i].heuristic.clone()),
    })
}
