//! Options and results of the JavaScript bindings (`crate::wasm`) that are
//! not already a library type. They live here, compiled natively, so that
//! their TypeScript is generated from them (`crate::typescript`, with the `typescript` feature) like the
//! library's own types. Options are camelCase with unknown keys refused
//! (`deny_unknown_fields`, read by `wasm::js::options`); results are
//! snake_case in Rust and camelCase in JS ([`crate::js_names`]).

use crate::search::matches::{MatchConfig, Outcome};
use serde::{Deserialize, Serialize};
#[cfg(feature = "typescript")]
use ts_rs::TS;

/// Options of `runMatch` (all optional).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "typescript", derive(TS), ts(optional_fields))]
pub struct MatchOptions {
    /// Games to play (default 10).
    pub games: Option<usize>,
    /// Seed of the players (default 1).
    pub seed: Option<u64>,
    /// Joint moves per game at most (default 1000).
    pub max_steps: Option<usize>,
    /// The state machine (default "auto").
    #[cfg_attr(feature = "typescript", ts(as = "Option<EngineChoice>"))]
    pub engine: Option<String>,
}

impl MatchOptions {
    /// The match these options ask for (defaults filled in), or what is
    /// out of range ([`MatchConfig::check`]).
    pub fn config(&self) -> Result<MatchConfig, String> {
        let d = MatchConfig::default();
        let cfg = MatchConfig {
            games: self.games.unwrap_or(d.games),
            seed: self.seed.unwrap_or(d.seed),
            max_steps: self.max_steps.unwrap_or(d.max_steps),
        };
        cfg.check().map_err(|e| e.to_string())?;
        Ok(cfg)
    }
}

/// Options of `game.playouts` and `PlayoutJob` (all optional).
#[derive(Clone, Debug, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct PlayoutOptions {
    /// Playouts (default 100).
    #[cfg_attr(feature = "typescript", ts(as = "Option<usize>", optional))]
    pub count: usize,
    /// Playout i is the game `gdlkit play --seed seed+i` plays (default 1).
    #[cfg_attr(feature = "typescript", ts(as = "Option<u64>", optional))]
    pub seed: u64,
    /// Joint moves per playout at most (default 1000).
    #[cfg_attr(feature = "typescript", ts(as = "Option<usize>", optional))]
    pub max_steps: usize,
    /// Keep the games (`games`).
    #[cfg_attr(feature = "typescript", ts(as = "Option<bool>", optional))]
    pub record: bool,
}

impl Default for PlayoutOptions {
    fn default() -> Self {
        PlayoutOptions {
            count: 100,
            seed: 1,
            max_steps: crate::playouts::DEFAULT_MAX_STEPS,
            record: false,
        }
    }
}

/// Most playouts one `game.playouts` or `PlayoutJob` plays, and most steps
/// per playout.
pub const MAX_PLAYOUTS: usize = 1_000_000;

impl PlayoutOptions {
    /// The one check of the numbers (a `RangeError` in JavaScript).
    pub fn check(&self) -> Result<(), String> {
        if self.count > MAX_PLAYOUTS {
            return Err(format!(
                "playouts option count {}: give 0 to {MAX_PLAYOUTS} playouts",
                self.count
            ));
        }
        if self.max_steps > MAX_PLAYOUTS {
            return Err(format!(
                "playouts option maxSteps {}: give 0 to {MAX_PLAYOUTS} steps",
                self.max_steps
            ));
        }
        Ok(())
    }
}

/// Options of `structure` (all optional).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "typescript", derive(TS), ts(optional_fields))]
pub struct StructureOptions {
    /// Simulation seed (default 1).
    pub seed: Option<u64>,
    /// States to sample (default 1000).
    pub states: Option<usize>,
    /// Time limit of the simulation in ms (default 5000).
    pub ms: Option<f64>,
}

/// Options of `groundReport` (all optional).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "typescript", derive(TS), ts(optional_fields))]
pub struct GroundReportOptions {
    /// The grounding's time budget in ms (default 20000).
    pub ms: Option<f64>,
}

/// Options of `renderBoard` (all optional).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "typescript", derive(TS), ts(optional_fields))]
pub struct RenderBoardOptions {
    /// Pixels per square (default 40).
    pub cell: Option<f64>,
    /// Coordinates along the edges (default true).
    pub labels: Option<bool>,
}

/// Options of an analysis (`analyze`, `AnalysisJob`; all optional).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "typescript", derive(TS), ts(optional_fields))]
pub struct AnalysisOptions {
    /// Exhaustive only up to this many reachable states (default 2000000).
    pub budget: Option<f64>,
    /// Random playouts when the state space exceeds the budget (default 200).
    pub playouts: Option<f64>,
    /// Joint moves per playout at most (default 1000).
    pub depth: Option<f64>,
    /// Seed of the playouts (default 1).
    pub seed: Option<f64>,
    /// The state machine: "auto" (default: the grounded fast engine, or the
    /// interpreter when the game does not ground in budget), "fast" or
    /// "interpreter".
    #[cfg_attr(feature = "typescript", ts(as = "Option<EngineChoice>"))]
    pub engine: Option<String>,
}

/// Options of a solve (`solve`, `SolveJob`; all optional).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "typescript", derive(TS), ts(optional_fields))]
pub struct SolveOptions {
    /// Seconds for the exploration (default 60); then the solution is partial.
    pub seconds: Option<f64>,
    /// Distinct states at most (default 100000000).
    pub max_states: Option<f64>,
    /// The state machine: "auto" (default), "fast" or "interpreter".
    #[cfg_attr(feature = "typescript", ts(as = "Option<EngineChoice>"))]
    pub engine: Option<String>,
}

/// One progress report of a long call (`onProgress`'s argument).
#[derive(Serialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
#[serde(rename_all = "camelCase")]
pub struct JobProgress {
    /// What is running ("solve --symbolic: reachable layers", ...).
    pub phase: String,
    /// Counts so far ("layer 5: 1,234 states").
    pub detail: String,
    pub elapsed_ms: f64,
}

/// Options of `solveSymbolic` (all optional).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "typescript", derive(TS), ts(optional_fields))]
pub struct SymbolicOptions {
    /// Seconds, grounding included (default 60); then the result is partial.
    pub seconds: Option<f64>,
    /// Nodes of one BDD at most (default 4000000).
    pub max_nodes: Option<f64>,
    /// The BDD variable order: "cells" (default) or "grounder".
    #[cfg_attr(feature = "typescript", ts(as = "Option<crate::solve::VarOrder>"))]
    pub order: Option<String>,
    /// Only count the reachable states (per layer, and the terminal ones),
    /// no values (default false).
    pub count_only: Option<bool>,
}

impl SymbolicOptions {
    /// The limits these options ask for, or what is out of range.
    pub fn limits(&self) -> Result<crate::solve::SymbolicLimits, String> {
        let d = crate::solve::SymbolicLimits::default();
        let seconds = match self.seconds {
            None => d.seconds,
            Some(s) if s.is_finite() && s > 0.0 && s <= crate::job::MAX_MS / 1000.0 => s,
            Some(s) => {
                return Err(format!(
                    "options.seconds: a number of seconds above 0 and at most a day, got {s}"
                ))
            }
        };
        let max_nodes = match self.max_nodes {
            None => d.max_nodes,
            Some(n) if (1.0..=1e9).contains(&n) => n as usize,
            Some(n) => {
                return Err(format!(
                    "options.maxNodes: a whole number from 1 to 1000000000, got {n}"
                ))
            }
        };
        let order = match self.order.as_deref() {
            None => d.order,
            Some(name) => crate::solve::VarOrder::from_name(name)
                .ok_or_else(|| format!("options.order: \"cells\" or \"grounder\", got {name:?}"))?,
        };
        Ok(crate::solve::SymbolicLimits {
            seconds,
            max_nodes,
            order,
            count_only: self.count_only.unwrap_or(false),
            checkpoint: None,
        })
    }
}

/// Options of `fix` (all optional).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct FixOptions {
    /// Also apply guesses ("did you mean", fixes with `safe: false`).
    #[cfg_attr(feature = "typescript", ts(as = "Option<bool>", optional))]
    pub r#unsafe: bool,
}

/// Options of `game.explain(state, options)` (all optional).
#[derive(Clone, Debug, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct StateExplainOptions {
    /// The role whose moves are explained (default: the one with a choice).
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub role: Option<String>,
    /// `fjo` (default), `hff`, `hadd`, `hmax`, or any other heuristic name.
    #[cfg_attr(feature = "typescript", ts(as = "Option<String>", optional))]
    pub heuristic: String,
    /// The planning heuristics' action costs: `default` or `thesis`.
    #[cfg_attr(feature = "typescript", ts(type = "'default' | 'thesis'", optional))]
    pub costs: Option<String>,
}

impl SolveOptions {
    /// The limits these options ask for, with `d`'s where they give none,
    /// or what is out of range.
    pub fn limits(&self, d: crate::solve::Limits) -> Result<crate::solve::Limits, String> {
        let seconds = match self.seconds {
            None => d.seconds,
            Some(s) if s.is_finite() && s > 0.0 => s,
            Some(s) => {
                return Err(format!(
                    "options.seconds must be a number greater than 0, got {s}"
                ))
            }
        };
        let max_states = match self.max_states {
            None => d.max_states,
            Some(n) if n >= 1.0 && n.fract() == 0.0 => n.min(u32::MAX as f64 - 1.0) as usize,
            Some(n) => {
                return Err(format!(
                    "options.maxStates must be a whole number >= 1, got {n}"
                ))
            }
        };
        Ok(crate::solve::Limits {
            seconds,
            max_states,
        })
    }
}

impl Default for StateExplainOptions {
    fn default() -> Self {
        StateExplainOptions {
            role: None,
            costs: None,
            heuristic: "fjo".into(),
        }
    }
}

/// Which engine runs a `Game`, and why.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct EngineInfo {
    /// The engine that runs.
    #[cfg_attr(feature = "typescript", ts(type = "'fast' | 'hybrid' | 'interpreter'"))]
    pub name: &'static str,
    /// What was asked for.
    #[cfg_attr(feature = "typescript", ts(as = "EngineChoice"))]
    pub requested: String,
    /// Why this engine runs (for `auto` falling back: why the game does not ground).
    pub reason: String,
}

/// A description of one state. Lists are sorted by code point; `legal` and
/// `goals` are per role, in role order.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct StateDescription {
    pub fluents: Vec<String>,
    pub terminal: bool,
    /// Each role's legal moves.
    pub legal: Vec<Vec<String>>,
    /// Each role's goal values (several when the rules derive several).
    pub goals: Vec<Vec<i64>>,
    /// Terminal states with goal values: who won.
    pub outcome: Option<Outcome>,
}

/// One step as a role saw it (`game.belief`): the move it made and what
/// it perceived (GDL-II's `sees`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "typescript", derive(TS))]
pub struct SeenStep {
    pub r#move: String,
    /// Its percepts (default none).
    #[serde(default)]
    #[cfg_attr(feature = "typescript", ts(as = "Option<Vec<String>>", optional))]
    pub percepts: Vec<String>,
}

// TypeScript-only types the reports' fields name, defined beside the
// reports (`gdlkit_play::ts_types`).
#[cfg(feature = "typescript")]
pub use gdlkit_play::ts_types::{AbstractTree, Algorithm, EngineChoice, Ordering, SearchValue};

// ------------------------------------------------------------------------
// Results of JS-only bindings.

/// The result of one CLI run (`runCli`).
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "typescript", derive(TS), ts(rename_all = "camelCase"))]
pub struct CliResult {
    pub stdout: String,
    pub stderr: String,
    /// The exit code.
    pub code: i32,
    /// The files the command wrote, by path.
    pub written: std::collections::BTreeMap<String, String>,
}

/// An abstract tree with its children reordered (`reorderTree`).
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "typescript", derive(TS), ts(rename_all = "camelCase"))]
pub struct ReorderedTree {
    #[cfg_attr(feature = "typescript", ts(as = "AbstractTree"))]
    pub tree: serde_json::Value,
    /// The tree as text.
    pub text: String,
    /// Each node's children's original numbers.
    pub labels: Vec<crate::trace::Label>,
}

/// A player spec parsed by the one registry of players (`parsePlayerSpec`).
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "typescript", derive(TS), ts(rename_all = "camelCase"))]
pub struct ParsedPlayerSpec {
    /// The canonical player name (`bestfirst` for `best-first`).
    pub name: String,
    /// The spec's options as written (`ms`, `heuristic`, ...).
    pub options: std::collections::BTreeMap<String, String>,
}

// ------------------------------------------------------------------------
// The parallel players' worker results (`EnsembleMember`, `AlphaBetaWorker`,
// `MctsWorker` and their `...Choose` rules) and the memory budget: built
// here (not in `crate::wasm`, which is only compiled for wasm32) so that
// their TypeScript is generated.

/// One ensemble member's result (`EnsembleMember.search`): its move, value
/// and the counters of its search.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "typescript", derive(TS), ts(rename_all = "camelCase"))]
pub struct EnsembleMemberResult {
    #[serde(flatten)]
    #[cfg_attr(feature = "typescript", ts(flatten))]
    pub result: crate::search::ensemble::MemberResult<String>,
    pub stats: crate::search::Stats,
}

/// The ensemble's choice among its members' results (`ensembleChoose`).
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "typescript", derive(TS), ts(rename_all = "camelCase"))]
pub struct EnsembleChoice {
    /// The move's text (`null` when no member has one).
    #[serde(rename = "move")]
    pub mv: Option<String>,
    /// The index of the member followed.
    pub index: Option<usize>,
    /// Its evaluation function.
    pub heuristic: Option<String>,
}

/// One parallel alpha-beta worker's result (`AlphaBetaWorker.rootResult`).
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "typescript", derive(TS), ts(rename_all = "camelCase"))]
pub struct AlphaBetaRootResult {
    #[serde(flatten)]
    #[cfg_attr(feature = "typescript", ts(flatten))]
    pub result: crate::search::alphabeta_parallel::WorkerResult<String>,
    pub stats: crate::search::Stats,
}

/// Parallel alpha-beta's choice among the workers' results (`alphabetaChoose`).
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "typescript", derive(TS), ts(rename_all = "camelCase"))]
pub struct AlphaBetaChoice {
    /// The number of the worker whose move is played (`null`: none has one).
    pub worker: Option<usize>,
    /// Its move's text.
    #[serde(rename = "move")]
    pub mv: Option<String>,
    pub value: Option<f64>,
    pub solved: bool,
    pub depth: u32,
}

/// One root-parallel MCTS worker's result (`MctsWorker.rootStats`).
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "typescript", derive(TS), ts(rename_all = "camelCase"))]
pub struct MctsRootResult {
    #[serde(flatten)]
    #[cfg_attr(feature = "typescript", ts(flatten))]
    pub root: crate::search::mcts::RootStats<String>,
    pub stats: crate::search::Stats,
}

/// Root-parallel MCTS's choice over the merged statistics (`mctsChoose`).
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "typescript", derive(TS), ts(rename_all = "camelCase"))]
pub struct MctsChoice {
    /// The chosen move's text (`null` at a terminal root).
    #[serde(rename = "move")]
    pub mv: Option<String>,
    /// Its mean reward on the 0..100 scale.
    pub value: Option<f64>,
    /// The workers' statistics merged.
    pub merged: crate::search::mcts::RootStats<String>,
}

/// The memory budget of the wasm instance and the memory the engine holds
/// now (`memoryBudget()`).
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "typescript", derive(TS), ts(rename_all = "camelCase"))]
pub struct MemoryBudget {
    /// The budget in MB (`setMemoryBudget`).
    pub budget_mb: f64,
    /// The memory in use in MB.
    pub used_mb: f64,
}

/// Options of `new MctsWorker(kif, spec, options)` (all optional).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "typescript", derive(TS), ts(optional_fields))]
pub struct MctsWorkerOptions {
    /// The seed of worker 0 (default 1); the others' are derived from it, as natively.
    pub seed: Option<u64>,
    /// This worker's number (default 0).
    pub worker: Option<u32>,
    /// The state machine (default "auto").
    #[cfg_attr(feature = "typescript", ts(as = "Option<EngineChoice>"))]
    pub engine: Option<String>,
}

/// Options of `new AlphaBetaWorker(kif, spec, options)` (all optional).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "typescript", derive(TS), ts(optional_fields))]
pub struct AlphaBetaWorkerOptions {
    /// This worker's number (default 0: it searches as the one-core player).
    pub worker: Option<u32>,
    /// The state machine (default "auto").
    #[cfg_attr(feature = "typescript", ts(as = "Option<EngineChoice>"))]
    pub engine: Option<String>,
}

/// Options of `new EnsembleMember(kif, spec, options)` (all optional).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "typescript", derive(TS), ts(optional_fields))]
pub struct EnsembleMemberOptions {
    /// The member's number, in the order of `ensembleMembers` (default 0).
    pub member: Option<u32>,
    /// The state machine (default "auto").
    #[cfg_attr(feature = "typescript", ts(as = "Option<EngineChoice>"))]
    pub engine: Option<String>,
}
