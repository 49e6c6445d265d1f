//! Search bindings: one search (`search`, `searchTree`, with the lecture
//! trace), a match (`runMatch`), and the `SearchPlayer` class that picks
//! moves for the play view. The result objects are the same JSON as
//! `gdlkit search --format json` and `gdlkit match --format json`
//! (`crate::search::report`).

use super::js::{self, to_js};
use crate::engine::{Engine, EngineChoice};
use crate::js_api::{MatchOptions, SolveOptions};
use crate::reasoner::StateMachine;
use crate::search::report::{
    match_report, play_match, search_report, ReportError, SearchOptions, Source,
};
use crate::search::{build_player, Player, PlayerSpec, SpecError, Stats};
use crate::solve::{Limits, Solution};
use wasm_bindgen::prelude::*;

fn report_error(e: ReportError) -> JsValue {
    match e {
        ReportError::Usage(m) => js::type_error(&m),
        ReportError::Game(m) => js::error("GdlSearchError", &m).into(),
    }
}

pub(super) fn search_options(v: JsValue) -> Result<SearchOptions, JsValue> {
    js::options(v, "search")
}

/// The state made of `fluents` (term text) for a search by role number
/// `role`: a `RangeError` for a role out of range, a `TypeError` for a
/// fluent that does not parse.
pub(super) fn search_state(
    machine: &mut Engine,
    fluents: &[String],
    role: u32,
) -> Result<crate::engine::EngineState, JsValue> {
    let n = machine.roles().len();
    if role as usize >= n {
        return Err(js::range_error(&format!(
            "role index {role} out of range: the game has {n} roles"
        )));
    }
    crate::reasoner::state_of(machine, fluents).map_err(|b| js::type_error(&b.error))
}

/// Parses an `engine` option (`auto` when absent) and loads the game on
/// that engine; an unknown engine is a `TypeError`, game errors are
/// diagnostics.
pub(super) fn load_on(kif: &str, engine: Option<&str>) -> Result<Engine, JsValue> {
    load_game_on(kif, engine).map(|g| g.engine)
}

/// [`load_on`], keeping the parsed program with the engine (for what reads
/// the rules: heuristics, players, explanations).
pub(super) fn load_game_on(kif: &str, engine: Option<&str>) -> Result<crate::Game, JsValue> {
    let choice: EngineChoice =
        engine
            .unwrap_or("auto")
            .parse()
            .map_err(|e: gdlkit_engine::error::OptionError| {
                js::type_error(&e.to_string().replace("--engine", "engine"))
            })?;
    crate::Game::load(kif, choice).map_err(|d| js::diagnostics_error(&d, kif))
}

/// Searches a game from its initial state. `options`: `{algorithm:
/// "alphabeta"|"minimax"|"best-first"|"mcts", depth, budgetMs, nodes, role,
/// heuristic, trace, nodeCap, seed, engine: "auto"|"interpreter"|"fast"}`
/// (all optional). Returns `{engine, engine_fallback?, value, best_move,
/// solved, depth, stats: {nodes, leaves, cutoffs, ...}, events?, states?,
/// truncated?, plan?}`.
#[wasm_bindgen(unchecked_return_type = "SearchResult")]
pub fn search(kif: &str, options: JsValue) -> Result<JsValue, JsValue> {
    js::init();
    let opts = search_options(options)?;
    let mut game = load_game_on(kif, Some(&opts.engine))?;
    search_on(&mut game.engine, &game.program, None, &opts)
}

/// One search on a loaded engine (`search` and `Game.search`), from `at`
/// (None: the options' `from`, else the initial state).
pub(super) fn search_on(
    m: &mut Engine,
    program: &crate::Program,
    at: Option<crate::EngineState>,
    opts: &SearchOptions,
) -> Result<JsValue, JsValue> {
    let v = search_report(
        Source::Game {
            label: "game",
            program,
            machine: m,
            at,
        },
        opts,
    )
    .map_err(report_error)?;
    to_js(&v)
}

/// An abstract tree with its children reordered (`given`, `reversed`,
/// `best`, `worst`): `{tree, text, labels}`, `tree` as nested arrays,
/// `labels` the original child numbers per node.
#[wasm_bindgen(js_name = reorderTree, unchecked_return_type = "ReorderedTree")]
pub fn reorder_tree(tree: &str, ordering: &str) -> Result<JsValue, JsValue> {
    js::init();
    let order: crate::ordering::Order = ordering
        .parse()
        .map_err(|e: gdlkit_play::error::SearchError| js::type_error(&e))?;
    let t = crate::trace::Tree::parse(tree).map_err(|e| js::type_error(&e))?;
    let (t, labels) = t.reorder(order);
    to_js(&crate::js_api::ReorderedTree {
        tree: t.to_json(),
        text: t.text(),
        labels,
    })
}

/// A random abstract tree as text (`branching` children per node to
/// `depth`, leaves 0..100, the same tree for a seed).
#[wasm_bindgen(js_name = randomTree)]
pub fn random_tree(branching: u32, depth: u32, seed: u32) -> Result<String, JsValue> {
    js::init();
    crate::trace::Tree::random(branching, depth, seed as u64)
        .map(|t| t.text())
        .map_err(|e| js::range_error(&e))
}

/// Parses an abstract tree such as `((3 12 8) (2 4 6) (14 5 2))`: nested
/// arrays of numbers. Throws a `TypeError` saying what is wrong.
#[wasm_bindgen(js_name = parseTree, unchecked_return_type = "AbstractTree")]
pub fn parse_tree(tree: &str) -> Result<JsValue, JsValue> {
    js::init();
    let t = crate::trace::Tree::parse(tree).map_err(|e| js::type_error(&e))?;
    to_js(&t.to_json())
}

/// Parses a player spec (`"alphabeta:ms=200"`, `"best-first"`): `{name,
/// options}` with the canonical name from the one registry of players.
#[wasm_bindgen(js_name = parsePlayerSpec, unchecked_return_type = "ParsedPlayerSpec")]
pub fn parse_player_spec(spec: &str) -> Result<JsValue, JsValue> {
    js::init();
    let p: PlayerSpec = spec
        .parse()
        .map_err(|e: SpecError| js::type_error(&e.to_string()))?;
    to_js(&crate::js_api::ParsedPlayerSpec {
        name: p.name().to_string(),
        options: p.written().iter().cloned().collect(),
    })
}

/// The players (and search algorithms): `[{name, label, description,
/// drawsTree}]`, the one registry ([`crate::search::PLAYERS`]).
#[wasm_bindgen(unchecked_return_type = "PlayerInfo[]")]
pub fn players() -> Result<JsValue, JsValue> {
    to_js(crate::search::PLAYERS)
}

/// The player used unless told otherwise: `gdlkit serve`'s, npm's
/// `Player` and workers', the page's ([`crate::search::DEFAULT_PLAYER`]).
#[wasm_bindgen(js_name = defaultPlayer)]
pub fn default_player() -> String {
    crate::search::DEFAULT_PLAYER.into()
}

/// The evaluation functions for `heuristic=` options: `[{name, label,
/// description, distance, explain}]`, the one list
/// ([`crate::search::heuristics::HEURISTICS`]).
#[wasm_bindgen(unchecked_return_type = "HeuristicInfo[]")]
pub fn heuristics() -> Result<JsValue, JsValue> {
    to_js(crate::search::heuristics::HEURISTICS)
}

/// Searches an abstract tree such as `((3 12 8) (2 4 6) (14 5 2))` (MAX at
/// the root); same options and result as `search`, plus `tree`.
#[wasm_bindgen(
    js_name = searchTree,
    unchecked_return_type = "SearchResult & { tree: AbstractTree }"
)]
pub fn search_tree(tree: &str, options: JsValue) -> Result<JsValue, JsValue> {
    js::init();
    let opts = search_options(options)?;
    let v = search_report(Source::Tree(tree), &opts).map_err(report_error)?;
    to_js(&v)
}

/// Plays a match between `players` (specs such as
/// `"alphabeta:heuristic=fuzzy,ms=200"`, one per role), roles rotated.
/// `options`: `{games, seed, maxSteps, engine}`.
#[wasm_bindgen(js_name = runMatch, unchecked_return_type = "MatchResult")]
pub fn run_match(kif: &str, players: Vec<String>, options: JsValue) -> Result<JsValue, JsValue> {
    js::init();
    let o: MatchOptions = js::options(options, "match")?;
    let cfg = o
        .config()
        .map_err(|e| js::range_error(&format!("match option {e}")))?;
    let crate::Game {
        program,
        engine: mut m,
    } = load_game_on(kif, o.engine.as_deref())?;
    let result = play_match(&program, &mut m, &players, &cfg).map_err(report_error)?;
    to_js(&match_report("game", &m, &cfg, &result))
}

/// A player (`"mcts:ms=200"`, `"alphabeta:heuristic=fuzzy,ms=200"`, ...)
/// with its own copy of the game: give it the fluents of a state (e.g. from
/// `Game.fluents`) and a role index, get its move. `engine`: `"auto"`
/// (default), `"interpreter"` or `"fast"`.
#[wasm_bindgen]
pub struct SearchPlayer {
    machine: Engine,
    player: Box<dyn Player<Engine>>,
    /// Whether the player searches (not `random` or `legal`): only such a
    /// player solves the game at the start.
    searches: bool,
    solution: Option<Solution>,
    /// The last move came from the solution.
    solved: bool,
    stats: Stats,
}

/// What a player solves at the start unless told otherwise: small games
/// (tic-tac-toe's 5,478 states) whole, larger ones the part near the start.
const START_SOLVE: Limits = Limits {
    seconds: 1.0,
    max_states: 20_000,
};

#[wasm_bindgen]
impl SearchPlayer {
    #[wasm_bindgen(constructor)]
    pub fn new(
        kif: &str,
        spec: &str,
        seed: Option<u32>,
        engine: Option<String>,
    ) -> Result<SearchPlayer, JsValue> {
        js::init();
        let crate::Game {
            program,
            engine: mut machine,
        } = load_game_on(kif, engine.as_deref())?;
        let spec: PlayerSpec = spec
            .parse()
            .map_err(|e: SpecError| js::type_error(&e.to_string()))?;
        let player = build_player(&spec, &program, &mut machine, seed.unwrap_or(1) as u64)
            .map_err(|e| js::type_error(&e))?;
        Ok(SearchPlayer {
            machine,
            player,
            searches: !matches!(spec, PlayerSpec::Random | PlayerSpec::Legal),
            solution: None,
            solved: false,
            stats: Stats::default(),
        })
    }

    /// The engine that runs: `"fast"` or `"interpreter"`.
    pub fn engine(&self) -> String {
        self.machine.name().to_string()
    }

    /// Why the interpreter runs although `auto` asked for the fast engine.
    #[wasm_bindgen(js_name = engineFallback)]
    pub fn engine_fallback(&self) -> Option<String> {
        self.machine.fallback().map(str::to_string)
    }

    /// The player's name with its options.
    pub fn name(&self) -> String {
        self.player.name()
    }

    /// The move (term text) of role number `role` in the state made of
    /// `fluents` (term text).
    #[wasm_bindgen(js_name = selectMove)]
    pub fn select_move(&mut self, fluents: Vec<String>, role: u32) -> Result<String, JsValue> {
        let state = search_state(&mut self.machine, &fluents, role)?;
        let solved = match &self.solution {
            Some(s) => s
                .solved_move(&mut self.machine, &state, role as usize)
                .map_err(js::eval_error)?,
            None => None,
        };
        self.solved = solved.is_some();
        let mv = match solved {
            Some(m) => {
                self.stats = Stats::default();
                m
            }
            None => {
                let m = self
                    .player
                    .select_move(&mut self.machine, &state, role as usize)
                    .map_err(js::eval_error)?;
                self.stats = self.player.last_stats();
                m
            }
        };
        Ok(self.machine.terms().display(mv))
    }

    /// Solves the game within `options` (`{seconds, maxStates}`; default
    /// a second and 20,000 states) for a searching player,
    /// which then plays the solution's moves where it settles the choice
    /// (`Solution::solved_move`) and searches elsewhere. Returns the
    /// solve's summary, or `null` (a `random` or `legal` player, or a
    /// game the solver refuses: more than two roles).
    #[wasm_bindgen(unchecked_return_type = "SolveSummary | null")]
    pub fn solve(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "SolveOptions | undefined")] options: JsValue,
    ) -> Result<JsValue, JsValue> {
        let o: SolveOptions = js::options(options, "solve")?;
        if o.engine.is_some() {
            return Err(js::type_error(
                "options.engine: a player's solution uses the player's engine",
            ));
        }
        let limits = o.limits(START_SOLVE).map_err(|e| js::type_error(&e))?;
        if !self.searches {
            return Ok(JsValue::NULL);
        }
        match crate::solve::solve(self.machine.clone(), limits) {
            Ok(s) => {
                let summary = to_js(&s.summary());
                self.solution = Some(s);
                summary
            }
            Err(_) => Ok(JsValue::NULL),
        }
    }

    /// Loads a solution file (`gdlkit solve --out`, `SolveJob.solutionFile`)
    /// that the player then plays as after `solve`. Throws a `TypeError`
    /// when the file does not read or is of another game or engine.
    #[wasm_bindgen(js_name = loadSolution, unchecked_return_type = "SolveSummary")]
    pub fn load_solution(&mut self, text: &str) -> Result<JsValue, JsValue> {
        let s = crate::solve::read_solution(text)
            .map_err(|e| js::type_error(&format!("the solution file: {e}")))?;
        s.of_roles(&self.machine)
            .map_err(|e| js::type_error(&e.to_string()))?;
        if s.engine != self.machine.name() {
            return Err(js::type_error(&format!(
                "the solution was made with the {} engine; this player runs the {} engine",
                s.engine,
                self.machine.name()
            )));
        }
        let summary = to_js(&s.summary());
        self.solution = Some(s);
        summary
    }

    /// Whether the last `selectMove` played the solution's move.
    #[wasm_bindgen(js_name = lastMoveSolved)]
    pub fn last_move_solved(&self) -> bool {
        self.solved
    }

    /// GDL-II: tells the player one step as role number `role` saw it: the
    /// move played for it and its percepts (term text). Players for hidden
    /// information (`hyperplay`) keep their belief with it, as in a GGP
    /// match; the others ignore it. `newGame` forgets the steps told.
    pub fn observe(&mut self, role: u32, own: &str, percepts: Vec<String>) -> Result<(), JsValue> {
        let n = self.machine.roles().len();
        if role as usize >= n {
            return Err(js::range_error(&format!(
                "role index {role} out of range: the game has {n} roles"
            )));
        }
        crate::search::hidden::observe_text(
            &mut self.machine,
            self.player.as_mut(),
            role as usize,
            own,
            &percepts,
        )
        .map(|_| ())
        .map_err(js::eval_error)
    }

    /// Counters of the last `selectMove` (`search::Stats`): `{nodes, leaves,
    /// cutoffs, ttHits, playouts, depth, elapsedMs}`.
    #[wasm_bindgen(js_name = lastStats, unchecked_return_type = "SearchStats")]
    pub fn last_stats(&self) -> Result<JsValue, JsValue> {
        to_js(&self.stats)
    }

    /// Starts a new game (players may keep tables between games).
    #[wasm_bindgen(js_name = newGame)]
    pub fn new_game(&mut self) {
        self.player.new_game();
    }
}
