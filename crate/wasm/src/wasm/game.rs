//! The `Game` class: a game loaded from KIF text, played through state
//! handles.
//!
//! States stay inside the `Game` (a table of handle → state); JavaScript holds
//! only number handles, so no state is re-parsed or copied across the boundary
//! on each call. A handle is `tag * 2^32 + n`: `tag` names its game (a
//! counter of the games this instance loaded) and `n` its state, so another
//! game's handle, a freed game's or a released one is a `RangeError`, never
//! another state. Handles are never reused while the game lives.
//! `dropState` / `clearStates` release them.
//! Moves, fluents and roles are canonical term text (lowercase, one space
//! between parts), as in the conformance format; lists of moves and fluents
//! are sorted by code point.

use super::js::{self, to_js};
use crate::engine::{Engine, EngineState};
use crate::js_api::{EngineInfo, StateDescription};
use crate::program::{parse_ground_term, Program};
use crate::reasoner::{cartesian, StateMachine};
use crate::search::hidden::BeliefTracker;
use crate::terms::TermId;
use rustc_hash::FxHashMap;
use std::sync::Arc;
use wasm_bindgen::prelude::*;

/// `legalJointMoves` refuses to build more joint moves than this (the
/// cartesian product grows fast with simultaneous moves).
pub const MAX_JOINT_MOVES: usize = 100_000;

/// ... and more move texts in all than this (joint moves times roles).
pub const MAX_JOINT_MOVE_TEXTS: usize = 1_000_000;

/// Games get tags below 2^21, so that a handle stays below 2^53 (a JS
/// number holds it exactly).
const TAGS: u32 = 1 << 21;

/// The tag of the next game loaded (1 to `TAGS - 1`, then again from 1).
static NEXT_TAG: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);

fn next_tag() -> u32 {
    use std::sync::atomic::Ordering::Relaxed;
    let tag = NEXT_TAG.fetch_add(1, Relaxed);
    if tag + 1 >= TAGS {
        NEXT_TAG.store(1, Relaxed);
    }
    tag.clamp(1, TAGS - 1)
}

#[wasm_bindgen]
pub struct Game {
    machine: Engine,
    /// The engine that was asked for (`auto`, `fast`, `interpreter`).
    requested: String,
    /// The game's rules, parsed once (searches and explanations read the
    /// heuristics' formulas from them).
    program: Arc<Program>,
    roles: Vec<String>,
    states: FxHashMap<u32, EngineState>,
    /// This game's tag: the high part of its handles.
    tag: u32,
    /// The low part of the next handle (from 1; 0 is never valid).
    next_handle: u32,
    /// GDL-II: the last `belief` asked for, extended when the next one
    /// continues its history.
    belief: Option<BeliefTracker<EngineState>>,
}

impl Game {
    /// The game's state machine (for other binding files in this module).
    #[allow(dead_code)]
    pub(crate) fn machine_mut(&mut self) -> &mut Engine {
        &mut self.machine
    }

    /// The state of a handle (for other binding files in this module).
    pub(crate) fn state(&self, handle: f64) -> Result<&EngineState, JsValue> {
        let bad = |why: &str| js::range_error(&format!("state handle {handle}: {why}"));
        if !(handle.fract() == 0.0 && (1.0..9007199254740992.0).contains(&handle)) {
            return Err(bad(
                "not a state handle (a number a method of this game returned)",
            ));
        }
        let (tag, n) = (
            (handle / 4294967296.0) as u32,
            (handle % 4294967296.0) as u32,
        );
        if tag != self.tag {
            return Err(bad("a state of another game (or of a freed one)"));
        }
        self.states
            .get(&n)
            .ok_or_else(|| bad("released (dropState, clearStates) or never created"))
    }

    fn add_state(&mut self, state: EngineState) -> f64 {
        loop {
            let n = self.next_handle;
            self.next_handle = self.next_handle.wrapping_add(1).max(1);
            // Only after 2^32 handles can the counter meet a live one: skip it.
            if let std::collections::hash_map::Entry::Vacant(slot) = self.states.entry(n) {
                slot.insert(state);
                return f64::from(self.tag) * 4294967296.0 + f64::from(n);
            }
        }
    }

    fn role(&self, role: u32) -> Result<usize, JsValue> {
        let r = role as usize;
        if r < self.roles.len() {
            Ok(r)
        } else {
            Err(js::range_error(&format!(
                "role index {role} out of range: the game has {} roles",
                self.roles.len()
            )))
        }
    }

    fn texts(&self, terms: &[TermId]) -> Vec<String> {
        let mut v: Vec<String> = terms
            .iter()
            .map(|&t| self.machine.terms().display(t))
            .collect();
        v.sort_unstable();
        v
    }

    /// `moves` (texts, one per role in role order) as terms, each legal
    /// in `s`: a `GdlMoveError` otherwise, or when `s` is terminal.
    fn joint_move(&mut self, s: &EngineState, moves: &[String]) -> Result<Vec<TermId>, JsValue> {
        if self.machine.is_terminal(s).map_err(js::eval_error)? {
            return Err(js::move_error("the state is terminal, no move can be made"));
        }
        if moves.len() != self.roles.len() {
            return Err(js::move_error(&format!(
                "a joint move needs one move per role ({}), got {}",
                self.roles.len(),
                moves.len()
            )));
        }
        let legal = self.machine.all_legal_moves(s).map_err(js::eval_error)?;
        let mut joint = Vec::with_capacity(moves.len());
        for (r, text) in moves.iter().enumerate() {
            let id = parse_ground_term(self.machine.terms_mut(), text)
                .map_err(|e| js::move_error(&e))?;
            if !legal[r].contains(&id) {
                let canonical = self.machine.terms().display(id);
                return Err(js::move_error(&format!(
                    "move {canonical} of role {} is not legal",
                    self.roles[r]
                )));
            }
            joint.push(id);
        }
        Ok(joint)
    }

    /// Legal moves of every role, each list sorted by its text.
    fn sorted_legal(&mut self, state: &EngineState) -> Result<Vec<Vec<TermId>>, JsValue> {
        let mut all = self
            .machine
            .all_legal_moves(state)
            .map_err(js::eval_error)?;
        let terms = self.machine.terms();
        for moves in &mut all {
            moves.sort_by_cached_key(|&t| terms.display(t));
        }
        Ok(all)
    }
}

#[wasm_bindgen]
impl Game {
    /// Loads a game from KIF text on the `auto` engine (the fast engine
    /// when the game grounds, else the interpreter; [`Game::on_engine`]
    /// chooses: `"auto"`, `"fast"` or `"interpreter"`). Throws a `GdlDiagnosticsError` (with `diagnostics`)
    /// when the text has errors, a `TypeError` for an unknown engine.
    #[wasm_bindgen(constructor)]
    pub fn new(kif: &str) -> Result<Game, JsValue> {
        Game::on_engine(kif, None)
    }

    /// `new Game(kif)` on the engine `engine` (`auto` when absent).
    #[wasm_bindgen(js_name = onEngine)]
    pub fn on_engine(kif: &str, engine: Option<String>) -> Result<Game, JsValue> {
        js::init();
        let requested = engine.unwrap_or_else(|| "auto".into());
        let crate::Game {
            program,
            engine: machine,
        } = super::search::load_game_on(kif, Some(&requested))?;
        let roles = machine
            .roles()
            .iter()
            .map(|&r| machine.terms().display(r))
            .collect();
        Ok(Game {
            machine,
            requested,
            program,
            roles,
            states: FxHashMap::default(),
            tag: next_tag(),
            next_handle: 1,
            belief: None,
        })
    }

    /// Which engine runs and why: `{name, requested, reason}`.
    #[wasm_bindgen(unchecked_return_type = "EngineInfo")]
    pub fn engine(&self) -> Result<JsValue, JsValue> {
        let reason = match (self.machine.fallback(), self.machine.name()) {
            (Some(why), _) => format!("the game does not ground: {why}"),
            (None, "hybrid") => self.machine.hybrid_note().unwrap_or_default().to_string(),
            (None, _) if self.requested != "auto" => "requested".to_string(),
            (None, "fast") => "the game grounds into a propositional network".to_string(),
            (None, _) => "requested".to_string(),
        };
        to_js(&EngineInfo {
            name: self.machine.name(),
            requested: self.requested.clone(),
            reason,
        })
    }

    /// Random playouts from a state (default the initial state): playout
    /// `i` is the game `gdlkit play --seed seed+i` plays. `options`:
    /// `{count = 100, seed = 1, maxSteps = 1000, record = false}`.
    #[wasm_bindgen(unchecked_return_type = "PlayoutSummary")]
    pub fn playouts(&mut self, state: Option<f64>, options: JsValue) -> Result<JsValue, JsValue> {
        let o = super::playouts::options(options)?;
        let from = match state {
            Some(h) => self.state(h)?.clone(),
            None => self.machine.initial_state().map_err(js::eval_error)?,
        };
        let mut run =
            crate::playouts::Run::new(&self.machine, o.count, o.seed, o.max_steps, o.record);
        run.step(&mut self.machine, &from, o.count)
            .map_err(js::eval_error)?;
        to_js(&run.summary)
    }

    /// One search (the options and result of `search(kif, options)`) from
    /// a state of this game, on this game's engine.
    #[wasm_bindgen(unchecked_return_type = "SearchResult")]
    pub fn search(&mut self, state: f64, options: JsValue) -> Result<JsValue, JsValue> {
        let opts = super::search::search_options(options)?;
        if opts.from.is_some() {
            return Err(js::type_error(
                "search(state, options): the state is given, not `from`",
            ));
        }
        let s = self.state(state)?.clone();
        super::search::search_on(&mut self.machine, &self.program, Some(s), &opts)
    }

    /// Every legal move's value in a state for a role under a heuristic
    /// (the result of `explain(kif, options)`), on this game's engine.
    /// `options`: `{role, heuristic, costs}`.
    #[wasm_bindgen(unchecked_return_type = "Explanation")]
    pub fn explain(
        &mut self,
        state: f64,
        #[wasm_bindgen(unchecked_param_type = "StateExplainOptions | undefined")] options: JsValue,
    ) -> Result<JsValue, JsValue> {
        let o: crate::js_api::StateExplainOptions = js::options(options, "explain")?;
        let s = self.state(state)?.clone();
        let e = crate::search::explain::explain_state(
            &mut self.machine,
            &self.program,
            &s,
            o.role.as_deref(),
            &crate::search::fjo::with_costs(&o.heuristic, o.costs.as_deref())
                .map_err(|m| JsValue::from(js::error("GdlExplainError", &m)))?,
        )
        .map_err(|m| JsValue::from(js::error("GdlExplainError", &m)))?;
        to_js(&e)
    }

    /// The roles, in the order of the game's `role` facts.
    pub fn roles(&self) -> Vec<String> {
        self.roles.clone()
    }

    /// A handle to the initial state.
    #[wasm_bindgen(js_name = initialState)]
    pub fn initial_state(&mut self) -> Result<f64, JsValue> {
        let s = self.machine.initial_state().map_err(js::eval_error)?;
        Ok(self.add_state(s))
    }

    /// The legal moves of role number `role` (sorted).
    #[wasm_bindgen(js_name = legalMoves)]
    pub fn legal_moves(&mut self, state: f64, role: u32) -> Result<Vec<String>, JsValue> {
        let r = self.role(role)?;
        let s = self.state(state)?.clone();
        let moves = self.machine.legal_moves(&s, r).map_err(js::eval_error)?;
        Ok(self.texts(&moves))
    }

    /// Every legal joint move (one move per role, in role order): the
    /// cartesian product of the sorted per-role lists, first role slowest.
    /// Throws a `RangeError` beyond [`MAX_JOINT_MOVES`] joint moves.
    #[wasm_bindgen(js_name = legalJointMoves, unchecked_return_type = "string[][]")]
    pub fn legal_joint_moves(&mut self, state: f64) -> Result<JsValue, JsValue> {
        let s = self.state(state)?.clone();
        let all = self.sorted_legal(&s)?;
        let count = all
            .iter()
            .try_fold(1usize, |n, moves| n.checked_mul(moves.len()));
        let texts = count.and_then(|n| n.checked_mul(all.len()));
        match (count, texts) {
            (Some(n), Some(t)) if n <= MAX_JOINT_MOVES && t <= MAX_JOINT_MOVE_TEXTS => {}
            _ => {
                let mut sizes: Vec<String> =
                    all.iter().take(20).map(|m| m.len().to_string()).collect();
                if all.len() > 20 {
                    sizes.push(format!("... ({} roles)", all.len()));
                }
                return Err(js::range_error(&format!(
                    "too many joint moves ({} per role; at most {MAX_JOINT_MOVES} joint moves and {MAX_JOINT_MOVE_TEXTS} moves in all): use legalMoves for each role",
                    sizes.join(" x ")
                )));
            }
        }
        let joint: Vec<Vec<String>> = cartesian(&all)
            .into_iter()
            .map(|jm| {
                jm.into_iter()
                    .map(|t| self.machine.terms().display(t))
                    .collect()
            })
            .collect();
        to_js(&joint)
    }

    /// The state after `moves` (one move per role, in role order). Throws a
    /// `GdlMoveError` when a move is not legal for its role or the state is
    /// terminal.
    pub fn next(&mut self, state: f64, moves: Vec<String>) -> Result<f64, JsValue> {
        let s = self.state(state)?.clone();
        let joint = self.joint_move(&s, &moves)?;
        let n = self
            .machine
            .next_state(&s, &joint)
            .map_err(js::eval_error)?;
        Ok(self.add_state(n))
    }

    /// GDL-II: what each role perceives when `moves` (one move per role,
    /// role order) is made in `state`: per role its percepts, sorted (the
    /// ones `replay`, matches and playouts record). Empty lists in games
    /// without `sees`. Throws a `GdlMoveError` as `next` does.
    #[wasm_bindgen(unchecked_return_type = "string[][]")]
    pub fn percepts(&mut self, state: f64, moves: Vec<String>) -> Result<JsValue, JsValue> {
        let s = self.state(state)?.clone();
        let joint = self.joint_move(&s, &moves)?;
        let seen = crate::playouts::percept_texts(&mut self.machine, &s, &joint)
            .map_err(js::eval_error)?;
        to_js(&seen)
    }

    /// GDL-II: what `role` knows of the state after `steps` from the
    /// initial state (per step its move and its percepts, as `percepts`
    /// gives them): the fluents true in every consistent state, and the
    /// others that may hold with their chances (the other roles and
    /// `random` picking uniformly). Every consistent state while at most
    /// 2,000, else a sample (`exact: false`). A history that continues the
    /// previous call's is extended, not replayed. Throws a `GdlMoveError`
    /// for a move or percept that is no term or a history no state is
    /// consistent with.
    #[wasm_bindgen(unchecked_return_type = "BeliefView")]
    pub fn belief(
        &mut self,
        role: u32,
        #[wasm_bindgen(unchecked_param_type = "SeenStep[]")] steps: JsValue,
    ) -> Result<JsValue, JsValue> {
        let r = self.role(role)?;
        let steps: Vec<crate::js_api::SeenStep> =
            js::from_js_data(steps, "belief(role, steps): steps")?;
        let steps: Vec<(String, Vec<String>)> =
            steps.into_iter().map(|s| (s.r#move, s.percepts)).collect();
        let view = BeliefTracker::view(&mut self.belief, &mut self.machine, r, &steps)
            .map_err(js::eval_error)?;
        to_js(&view)
    }

    /// GDL-II: the index of the chance role `random` (no player sits
    /// there), or `null`.
    #[wasm_bindgen(js_name = chanceRole, unchecked_return_type = "number | null")]
    pub fn chance_role(&self) -> JsValue {
        match crate::reasoner::chance_role(&self.machine) {
            Some(r) => JsValue::from(r as u32),
            None => JsValue::NULL,
        }
    }

    /// Whether the game is GDL-II (`sees` or a `random` role): its roles
    /// do not see the whole state.
    #[wasm_bindgen(js_name = isGdl2)]
    pub fn is_gdl2(&self) -> bool {
        self.program.is_gdl2()
    }

    /// GDL-II: the chance role's move in `state`, drawn uniformly by a
    /// generator seeded with `seed` (the same move on every engine).
    /// Throws a `RangeError` when the game has no `random` role, a
    /// `GdlMoveError` in a terminal state.
    #[wasm_bindgen(js_name = drawChance)]
    pub fn draw_chance(&mut self, state: f64, seed: f64) -> Result<String, JsValue> {
        let Some(r) = crate::reasoner::chance_role(&self.machine) else {
            return Err(js::range_error("the game has no `random` role"));
        };
        let s = self.state(state)?.clone();
        if self.machine.is_terminal(&s).map_err(js::eval_error)? {
            return Err(js::move_error("the state is terminal, no move can be made"));
        }
        let legal = self.machine.legal_moves(&s, r).map_err(js::eval_error)?;
        let mut rng = fastrand::Rng::with_seed(seed as u64);
        crate::reasoner::draw_chance_move(&self.machine, &legal, &mut rng)
            .map(|mv| self.machine.terms().display(mv))
            .ok_or_else(|| js::move_error("the role random has no legal move"))
    }

    #[wasm_bindgen(js_name = isTerminal)]
    pub fn is_terminal(&mut self, state: f64) -> Result<bool, JsValue> {
        let s = self.state(state)?.clone();
        self.machine.is_terminal(&s).map_err(js::eval_error)
    }

    /// One goal value per role (role order): the largest derivable one, or
    /// `null` when none is derivable.
    #[wasm_bindgen(unchecked_return_type = "(number | null)[]")]
    pub fn goals(&mut self, state: f64) -> Result<JsValue, JsValue> {
        let s = self.state(state)?.clone();
        to_js(&self.machine.goals(&s).map_err(js::eval_error)?)
    }

    /// Every derivable goal value per role (role order), sorted.
    #[wasm_bindgen(js_name = goalValues, unchecked_return_type = "number[][]")]
    pub fn goal_values(&mut self, state: f64) -> Result<JsValue, JsValue> {
        let s = self.state(state)?.clone();
        let mut values = self.machine.goal_values(&s).map_err(js::eval_error)?;
        values.iter_mut().for_each(|v| v.sort_unstable());
        to_js(&values)
    }

    /// The true fluents of a state (sorted).
    pub fn fluents(&self, state: f64) -> Result<Vec<String>, JsValue> {
        let s = self.state(state)?;
        Ok(self.texts(&self.machine.fluents(s)))
    }

    /// Everything about a state in one call: fluents, terminal, legal moves
    /// and goal values per role (all sorted).
    #[wasm_bindgen(unchecked_return_type = "StateDescription")]
    pub fn describe(&mut self, state: f64) -> Result<JsValue, JsValue> {
        let s = self.state(state)?.clone();
        let step = crate::replay::describe(&mut self.machine, &s).map_err(js::eval_error)?;
        let outcome = step
            .terminal
            .then(|| crate::search::matches::outcome(&step.goals))
            .flatten();
        to_js(&StateDescription {
            fluents: step.state,
            terminal: step.terminal,
            legal: step.legal,
            goals: step.goals,
            outcome,
        })
    }

    /// A handle to the state made of exactly these fluents (term text).
    #[wasm_bindgen(js_name = stateFromFluents)]
    pub fn state_from_fluents(&mut self, fluents: Vec<String>) -> Result<f64, JsValue> {
        let mut ids = Vec::with_capacity(fluents.len());
        for f in &fluents {
            ids.push(
                parse_ground_term(self.machine.terms_mut(), f).map_err(|e| js::type_error(&e))?,
            );
        }
        let s = self.machine.state_from_fluents(&ids);
        Ok(self.add_state(s))
    }

    /// Whether two handles denote the same state (the same set of fluents).
    #[wasm_bindgen(js_name = sameState)]
    pub fn same_state(&self, a: f64, b: f64) -> Result<bool, JsValue> {
        Ok(self.state(a)? == self.state(b)?)
    }

    /// Releases a state handle of this game (unknown handles are ignored).
    #[wasm_bindgen(js_name = dropState)]
    pub fn drop_state(&mut self, state: f64) {
        if self.state(state).is_ok() {
            self.states.remove(&((state % 4294967296.0) as u32));
        }
    }

    /// Releases every state handle of this game.
    #[wasm_bindgen(js_name = clearStates)]
    pub fn clear_states(&mut self) {
        self.states.clear();
        self.states.shrink_to_fit();
    }

    /// How many state handles are live.
    #[wasm_bindgen(js_name = stateCount)]
    pub fn state_count(&self) -> u32 {
        self.states.len() as u32
    }
}
