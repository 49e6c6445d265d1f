//! Search and match reports, shared by the CLI (`gdlkit search|match
//! --format json`, the fields' own snake_case names) and the WebAssembly
//! bindings (`SearchResult` and `MatchResult` in JS, camelCase), so both
//! return the same objects.

use super::alphabeta::{AlphaBeta, Config, Mode};
use super::bestfirst::BestFirst;
use super::heuristics::{self, Constant, Heuristic};
use super::matches::GameRecord;
use super::matches::{run_match, MatchConfig, MatchResult};
use super::mcts::{self, SolverMcts};
use super::minimax::{Minimax, MinimaxPlayer};
use super::{Budget, Iteration, PlayerSpec, SearchResult, Stats, Stop, DEFAULT_MS, MAX_DEPTH};
use crate::engine::{Engine, EngineState};
use crate::error::HeuristicError;
use crate::ordering::Order;
use crate::program::Program;
use crate::reasoner::StateMachine;
use crate::trace::{ser_value, Event, Label, Trace, Tree, TreeGame, DEFAULT_NODE_CAP};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;

/// Options of `search`, `searchTree` and `game.search` (`gdlkit search`
/// flags; all optional, camelCase in JS).
#[derive(Clone, Debug, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct SearchOptions {
    /// `alphabeta` (default), `minimax`, `best-first` or `mcts`.
    #[cfg_attr(
        feature = "typescript",
        ts(as = "Option<crate::ts_types::Algorithm>", optional)
    )]
    pub algorithm: String,
    /// Depth limit (plies).
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub depth: Option<u32>,
    /// Time budget in milliseconds (games: 1000 when no budget is given).
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub budget_ms: Option<f64>,
    /// Node budget.
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub nodes: Option<u64>,
    /// The searching role's name (default: the first role).
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub role: Option<String>,
    /// `fuzzy` (default), `mobility`, `inverse-mobility`, `novelty`, `none`.
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub heuristic: Option<String>,
    /// Record the lecture trace (`events`, `states`); minimax and alphabeta only.
    #[cfg_attr(feature = "typescript", ts(as = "Option<bool>", optional))]
    pub trace: bool,
    /// Events recorded at most (nodes entered; default 5000).
    #[cfg_attr(feature = "typescript", ts(as = "Option<u32>", optional))]
    pub node_cap: u32,
    /// MCTS seed.
    #[cfg_attr(feature = "typescript", ts(as = "Option<u64>", optional))]
    pub seed: u64,
    /// The state machine (default "auto"): read by whoever loads the game
    /// (the CLI, the wasm bindings), reported in the result.
    #[cfg_attr(
        feature = "typescript",
        ts(as = "Option<crate::ts_types::EngineChoice>", optional)
    )]
    pub engine: String,
    /// The order each node's moves are searched in (minimax, alphabeta):
    /// `given` (default), `reversed`, `best` (first), `worst` (first).
    /// Trees come back reordered (`tree`, `labels`); games reorder at each
    /// node.
    #[cfg_attr(
        feature = "typescript",
        ts(as = "Option<crate::ts_types::Ordering>", optional)
    )]
    pub ordering: Option<String>,
    /// Games: search from the state made of these fluents (term text)
    /// instead of the initial state.
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub from: Option<Vec<String>>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            algorithm: "alphabeta".into(),
            depth: None,
            budget_ms: None,
            nodes: None,
            role: None,
            heuristic: None,
            trace: false,
            node_cap: DEFAULT_NODE_CAP,
            seed: 1,
            engine: "auto".into(),
            ordering: None,
            from: None,
        }
    }
}

/// What went wrong: bad options (usage) or a problem with the game.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("{0}")]
    Usage(String),
    #[error("{0}")]
    Game(String),
}

/// What to search.
pub enum Source<'a> {
    /// A loaded game; `label` names it in the output (a path). The search
    /// starts at `at` when given, else at the options' `from`, else at the
    /// initial state.
    Game {
        label: &'a str,
        program: &'a Program,
        machine: &'a mut Engine,
        at: Option<EngineState>,
    },
    /// An abstract tree such as `((3 12 8) (2 4 6) (14 5 2))`.
    Tree(&'a str),
}

/// The search algorithm's canonical name, from the players' registry
/// ([`super::player_name`]): `best-first` and `bestfirst` are one name.
fn canonical_algorithm(a: &str) -> Result<&'static str, ReportError> {
    match super::player_name(a) {
        Ok(n @ ("alphabeta" | "minimax" | "bestfirst" | "mcts")) => Ok(n),
        _ => Err(ReportError::Usage(format!(
            "algorithm must be minimax, alphabeta, bestfirst (best-first) or mcts, got `{a}`"
        ))),
    }
}

/// The result of a search (`SearchResult` in JS). Fields that do not apply
/// are left out: `tree`, `labels` and `paths` are for abstract trees,
/// `engine` for games, `plan` for best-first, `events` and the other trace
/// fields for a search with `trace`.
#[derive(Clone, Debug, Default, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "SearchResult", rename_all = "camelCase")
)]
pub struct SearchReport {
    /// `"tree"`, or the game's label (`"game"` in JS).
    pub game: String,
    /// Trees only: the tree (reordered when `ordering` is given).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "typescript",
        ts(as = "Option<crate::ts_types::AbstractTree>", optional)
    )]
    pub tree: Option<Value>,
    /// Games: the engine that ran, "fast" or "interpreter".
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub engine: Option<String>,
    /// Why the interpreter ran although "auto" asked for the fast engine.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub engine_fallback: Option<String>,
    /// The move ordering, when not the game's own.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "typescript",
        ts(as = "Option<crate::ts_types::Ordering>", optional)
    )]
    pub ordering: Option<String>,
    /// Reordered trees: each node's children's original numbers.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub labels: Option<Vec<Label>>,
    #[cfg_attr(feature = "typescript", ts(as = "crate::ts_types::Algorithm"))]
    pub algorithm: String,
    /// The searching role.
    pub role: String,
    pub heuristic: String,
    /// The value for the role on the 0..100 goal scale (trees: the MAX
    /// value).
    #[serde(serialize_with = "ser_value")]
    #[cfg_attr(feature = "typescript", ts(as = "crate::ts_types::SearchValue"))]
    pub value: f64,
    /// The chosen move (trees: the child number, `"1"` the first), or null
    /// when there is none.
    pub best_move: Option<String>,
    /// The value is exact (no heuristic estimate was used).
    pub solved: bool,
    /// Deepest completed iteration / plan length.
    pub depth: u32,
    pub stats: ReportStats,
    /// Minimax and alpha-beta: the counts of each pass (`stats` are their
    /// totals).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub iterations: Option<Vec<Iteration>>,
    /// Best-first: our moves to the chosen node.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub plan: Option<Vec<String>>,
    /// Best-first: the plan reaches a terminal state.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub complete: Option<bool>,
    /// Best-first: the whole space was searched.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub exhausted: Option<bool>,
    /// With `trace`: the node cap cut the record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub truncated: Option<bool>,
    /// With `trace`: the node cap.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub node_cap: Option<u32>,
    /// With `trace`: the states the events index (sorted fluents).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub states: Option<Vec<Vec<String>>>,
    /// With `trace`: the events in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub events: Option<Vec<Event>>,
    /// With `trace`: the principal variation of the first search, as node
    /// ids from its root (`trace::principal_variation`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub principal_variation: Option<Vec<u32>>,
    /// Trees with `trace`: each state's path of child numbers from the
    /// root (null: not a tree node).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub paths: Option<Vec<Option<Vec<u32>>>>,
    /// Trees with `trace`: every node of the (reordered) tree, searched or
    /// not, with who chooses there, so a page can draw the whole tree.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub shape: Option<Vec<crate::trace::ShapeNode>>,
    /// GDL-II games with `trace`: the searching role's information sets,
    /// groups of node ids where it chooses after the same own moves and
    /// percepts (`search::information_sets`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub information_sets: Option<Vec<Vec<u32>>>,
}

/// A report's counters: a search's counts (`elapsed_ms` rounded to
/// microseconds) and the speed.
#[derive(Clone, Debug, Default, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "SearchReportStats", rename_all = "camelCase")
)]
pub struct ReportStats {
    #[serde(flatten)]
    #[cfg_attr(feature = "typescript", ts(flatten))]
    pub counts: Stats,
    /// Nodes per second, rounded.
    pub nodes_per_second: u64,
}

impl From<&Stats> for ReportStats {
    fn from(s: &Stats) -> ReportStats {
        let nps = if s.elapsed_ms > 0.0 {
            s.nodes as f64 * 1000.0 / s.elapsed_ms
        } else {
            0.0
        };
        ReportStats {
            counts: Stats {
                elapsed_ms: (s.elapsed_ms * 1000.0).round() / 1000.0,
                ..s.clone()
            },
            nodes_per_second: nps.round() as u64,
        }
    }
}

/// Searches from the initial state (or the tree's root).
pub fn search_report(source: Source<'_>, o: &SearchOptions) -> Result<SearchReport, ReportError> {
    let algorithm = canonical_algorithm(&o.algorithm)?;
    let order: Order = match &o.ordering {
        Some(x) => x
            .parse()
            .map_err(|e: crate::error::SearchError| ReportError::Usage(e.to_string()))?,
        None => Order::Given,
    };
    if o.trace && !matches!(algorithm, "alphabeta" | "minimax") {
        return Err(ReportError::Usage(
            "a trace records minimax and alphabeta searches".into(),
        ));
    }
    let mut out = SearchReport::default();
    match source {
        Source::Tree(text) => search_tree(text, o, order, algorithm, &mut out)?,
        Source::Game {
            label,
            program,
            machine,
            at,
        } => {
            out.game = label.into();
            search_game(program, machine, at, o, order, algorithm, &mut out)?;
        }
    }
    Ok(out)
}

/// Searches an abstract tree (`Source::Tree`) from its root.
fn search_tree(
    text: &str,
    o: &SearchOptions,
    order: Order,
    algorithm: &str,
    out: &mut SearchReport,
) -> Result<(), ReportError> {
    if o.from.is_some() {
        return Err(ReportError::Usage(
            "`from` is for games; a tree is searched from its root".into(),
        ));
    }
    let tree = Tree::parse(text).map_err(|e| ReportError::Usage(e.to_string()))?;
    let (tree, labels) = tree.reorder(order);
    let mut g = TreeGame::new(&tree);
    out.game = "tree".into();
    out.tree = Some(tree.to_json());
    if order != Order::Given {
        out.ordering = Some(order.name().into());
        out.labels = Some(labels);
    }
    let role = role_index(&g, o.role.as_deref())?;
    let h: Box<dyn Heuristic<TreeGame>> = Box::new(Constant);
    let budget = Budget {
        depth: o.depth.or(Some(tree.height().clamp(1, MAX_DEPTH))),
        ms: o.budget_ms,
        nodes: o.nodes,
    };
    // An abstract tree is searched in one full-depth pass, so the
    // counts are the lecture's (13 nodes, 9 leaves for minimax on
    // the classic tree), not a sum over deepening iterations.
    let pass = Pass {
        role,
        budget,
        algorithm,
        o,
        single_pass: true,
        order: Order::Given,
    };
    run(&mut g, h, None, pass, out)?;
    // Each trace state's path in the (reordered) tree.
    if let Some(states) = &out.states {
        let firsts = states.iter().map(|s| s.first().map(String::as_str));
        out.paths = Some(g.paths_of(firsts));
        out.shape = Some(g.shape());
    }
    Ok(())
}

/// Searches a game from `at`, `o.from` or its initial state.
fn search_game(
    program: &Program,
    machine: &mut Engine,
    at: Option<EngineState>,
    o: &SearchOptions,
    order: Order,
    algorithm: &str,
    out: &mut SearchReport,
) -> Result<(), ReportError> {
    let role = role_index(machine, o.role.as_deref())?;
    // MCTS reads no heuristic: none is built unless one is asked for (the
    // fuzzy one's formulas can take long to ground, quarto's seconds).
    let default = if algorithm == "mcts" { "none" } else { "fuzzy" };
    let h = heuristics::build(o.heuristic.as_deref().unwrap_or(default), program, machine)
        .map_err(|e| match e {
            HeuristicError::Unknown { .. } => ReportError::Usage(e.to_string()),
            _ => ReportError::Game(e.to_string()),
        })?;
    out.engine = Some(machine.name().into());
    out.engine_fallback = machine.fallback().map(String::from);
    if order != Order::Given {
        if !matches!(algorithm, "alphabeta" | "minimax") {
            return Err(ReportError::Usage(
                "a move ordering is for minimax and alphabeta".into(),
            ));
        }
        out.ordering = Some(order.name().into());
    }
    let depth = if o.trace {
        o.depth.or(Some(2))
    } else {
        o.depth
    };
    let ms = if o.budget_ms.is_none() && o.nodes.is_none() && depth.is_none() {
        Some(DEFAULT_MS)
    } else {
        o.budget_ms
    };
    let root = match (at, &o.from) {
        (Some(s), _) => Some(s),
        (None, Some(fluents)) => Some(
            crate::reasoner::state_of(machine, fluents)
                .map_err(|b| ReportError::Usage(format!("from: {}", b.error)))?,
        ),
        (None, None) => None,
    };
    let budget = Budget {
        depth,
        ms,
        nodes: o.nodes,
    };
    let pass = Pass {
        role,
        budget,
        algorithm,
        o,
        single_pass: o.trace,
        order,
    };
    run(machine, h, root, pass, out)?;
    if let (true, Some(events), Some(states)) = (program.is_gdl2(), &out.events, &out.states) {
        let sets = super::information_sets::information_sets(machine, role, events, states)
            .map_err(|e| ReportError::Game(e.to_string()))?;
        out.information_sets = Some(sets);
    }
    Ok(())
}

fn role_index<M: StateMachine>(m: &M, role: Option<&str>) -> Result<usize, ReportError> {
    let names: Vec<String> = m.roles().iter().map(|&r| m.terms().display(r)).collect();
    match role {
        None if names.is_empty() => Err(ReportError::Game("the game has no roles".into())),
        None => Ok(0),
        Some(r) => names
            .iter()
            .position(|n| n.eq_ignore_ascii_case(r))
            .ok_or_else(|| {
                ReportError::Usage(format!("no role `{r}` (roles: {})", names.join(", ")))
            }),
    }
}

/// What one search runs besides the machine, the heuristic and the root.
struct Pass<'a> {
    role: usize,
    budget: Budget,
    /// The canonical name ([`canonical_algorithm`]).
    algorithm: &'a str,
    o: &'a SearchOptions,
    /// Minimax and alpha-beta search once to the depth limit, children in
    /// the game's order, no table (a trace, an abstract tree), instead of
    /// deepening iteratively.
    single_pass: bool,
    order: Order,
}

/// One search from `root` (None: the initial state), its result written
/// into `out`.
fn run<M: StateMachine + Clone + Send + 'static>(
    m: &mut M,
    mut h: Box<dyn Heuristic<M>>,
    root: Option<M::State>,
    pass: Pass<'_>,
    out: &mut SearchReport,
) -> Result<(), ReportError>
where
    M::State: Send + Sync,
{
    let Pass {
        role,
        budget,
        algorithm,
        o,
        single_pass,
        order,
    } = pass;
    let err = |e: crate::EvalError| ReportError::Game(e.to_string());
    let root = match root {
        Some(s) => s,
        None => m.initial_state().map_err(err)?,
    };
    out.algorithm = algorithm.into();
    out.role = m.terms().display(m.roles()[role]);
    out.heuristic = h.name();
    let mut tr = o.trace.then(|| Trace::new(o.node_cap));
    let result: SearchResult = match algorithm {
        "minimax" if single_pass => {
            traced_minimax(m, &mut *h, &root, role, &budget, order, tr.as_mut())?
        }
        "minimax" if order != Order::Given => {
            return Err(ReportError::Usage(
                "minimax with a move ordering searches one pass: give a depth or a trace".into(),
            ))
        }
        "minimax" => MinimaxPlayer::new(h, budget)
            .search(m, &root, role)
            .map_err(err)?,
        "alphabeta" => {
            let cfg = alphabeta_config(budget, order, single_pass);
            AlphaBeta::new(h, cfg)
                .search(m, &root, role, tr.as_mut())
                .map_err(err)?
        }
        "bestfirst" => {
            let plan = BestFirst::new(h, budget)
                .search(m, &root, role)
                .map_err(err)?;
            out.plan = Some(plan.moves.iter().map(|&t| m.terms().display(t)).collect());
            out.complete = Some(plan.complete);
            out.exhausted = Some(plan.exhausted);
            plan.result
        }
        _ => {
            let cfg = mcts::Config {
                budget,
                ..mcts::Config::plain()
            };
            SolverMcts::new(cfg, o.seed, 1)
                .search(m, &root, role)
                .map_err(err)?
        }
    };
    write_result(m, result, tr, out);
    Ok(())
}

/// The search's result and trace into `out`.
fn write_result<M: StateMachine>(
    m: &M,
    result: SearchResult,
    tr: Option<Trace>,
    out: &mut SearchReport,
) {
    out.value = result.value;
    out.best_move = result.best_move.map(|t| m.terms().display(t));
    out.solved = result.solved;
    out.depth = result.stats.depth;
    out.stats = ReportStats::from(&result.stats);
    out.iterations = (!result.iterations.is_empty()).then_some(result.iterations);
    if let Some(t) = tr {
        out.truncated = Some(t.truncated);
        out.node_cap = Some(t.node_cap);
        out.states = Some(t.states);
        out.principal_variation = Some(crate::trace::principal_variation(&t.events));
        out.events = Some(t.events);
    }
}

/// A trace shows one plain alpha-beta search, as a lecture does: one depth,
/// the game's move order, no table, minimax semantics.
fn alphabeta_config(budget: Budget, order: Order, single_pass: bool) -> Config {
    if single_pass {
        Config {
            budget,
            tt: false,
            ordering: false,
            iterative: false,
            mode: Mode::Paranoid,
            order,
            ..Config::default()
        }
    } else {
        Config {
            budget,
            order,
            ..Config::default()
        }
    }
}

/// One minimax pass to the depth limit (a trace, an abstract tree).
fn traced_minimax<M: StateMachine>(
    m: &mut M,
    h: &mut dyn Heuristic<M>,
    root: &M::State,
    role: usize,
    budget: &Budget,
    order: Order,
    trace: Option<&mut Trace>,
) -> Result<SearchResult, ReportError> {
    let d = budget.depth.unwrap_or(MAX_DEPTH);
    let t0 = crate::clock::now_ms();
    let mut mm = Minimax::new(m, h, role, budget);
    mm.trace = trace;
    mm.order = order;
    let r = mm.search(root, d);
    let (mut stats, estimated) = (mm.stats.clone(), mm.estimated);
    stats.depth = d;
    stats.elapsed_ms = crate::clock::now_ms() - t0;
    match r {
        Ok((value, best_move)) => Ok(SearchResult {
            value,
            best_move,
            solved: !estimated,
            iterations: vec![Iteration::of(d, true, &stats)],
            stats,
        }),
        Err(Stop::Eval(e)) => Err(ReportError::Game(e.to_string())),
        Err(Stop::Budget) => Err(ReportError::Game(
            "the budget ended before the traced search finished; raise the time budget or lower the depth".into(),
        )),
    }
}

/// Plays a match; `specs` are player descriptions such as
/// `alphabeta:heuristic=fuzzy,ms=200`.
pub fn play_match(
    program: &Program,
    machine: &mut Engine,
    specs: &[String],
    cfg: &MatchConfig,
) -> Result<MatchResult, ReportError> {
    if specs.is_empty() {
        return Err(ReportError::Usage(
            "no players (e.g. alphabeta:heuristic=fuzzy,ms=200 mcts:ms=200)".into(),
        ));
    }
    let specs: Vec<PlayerSpec> = specs
        .iter()
        .map(|s| s.parse())
        .collect::<Result<_, super::SpecError>>()
        .map_err(|e| match e {
            // A spec that is not one is a usage error; a player's option
            // that is not one, the player's.
            super::SpecError::UnknownPlayer { .. } | super::SpecError::NotKeyValue { .. } => {
                ReportError::Usage(e.to_string())
            }
            e => ReportError::Game(e.to_string()),
        })?;
    run_match(program, machine, &specs, cfg, &mut |_| {})
        .map_err(|e| ReportError::Game(e.to_string()))
}

/// The result of a match (`MatchResult` in JS).
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "MatchResult", rename_all = "camelCase")
)]
pub struct MatchReport {
    pub game: String,
    /// The engine that ran.
    pub engine: String,
    /// Why the interpreter ran although "auto" asked for the fast engine.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub engine_fallback: Option<String>,
    #[cfg_attr(feature = "typescript", ts(type = "number"))]
    pub games: usize,
    pub seed: u64,
    pub roles: Vec<String>,
    /// In the order the players were given.
    pub players: Vec<MatchPlayerReport>,
    /// One record per game.
    pub results: Vec<GameRecord>,
}

/// A player's results over a match.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "MatchPlayerSummary", rename_all = "camelCase")
)]
pub struct MatchPlayerReport {
    pub name: String,
    pub spec: String,
    pub games: u64,
    /// Mean goal value over the games.
    #[serde(serialize_with = "ser_value")]
    pub mean_goal: f64,
    /// 95% confidence interval of the mean goal, clipped to 0..100.
    #[serde(serialize_with = "ser_values")]
    pub ci95: [f64; 2],
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Moves chosen.
    pub moves: u64,
    pub ms_per_move: f64,
    pub nodes_per_second: u64,
    pub playouts_per_second: u64,
    /// Mean over its moves of the deepest completed iteration (MCTS: tree
    /// depth).
    pub mean_depth: f64,
}

fn ser_values<S: Serializer>(v: &[f64; 2], s: S) -> Result<S::Ok, S::Error> {
    [
        crate::trace::value_json(v[0]),
        crate::trace::value_json(v[1]),
    ]
    .serialize(s)
}

/// The report of a match played by [`play_match`].
pub fn match_report(
    label: &str,
    engine: &Engine,
    cfg: &MatchConfig,
    result: &MatchResult,
) -> MatchReport {
    let players = result
        .players
        .iter()
        .map(|p| MatchPlayerReport {
            name: p.name.clone(),
            spec: p.spec.clone(),
            games: p.games as u64,
            mean_goal: p.mean_goal,
            ci95: p.ci95,
            wins: p.wins as u64,
            draws: p.draws as u64,
            losses: p.losses as u64,
            moves: p.moves,
            ms_per_move: if p.moves > 0 {
                (p.search_ms / p.moves as f64 * 10.0).round() / 10.0
            } else {
                0.0
            },
            nodes_per_second: p.nodes_per_second().round() as u64,
            playouts_per_second: p.playouts_per_second().round() as u64,
            mean_depth: (p.mean_depth * 100.0).round() / 100.0,
        })
        .collect();
    MatchReport {
        game: label.into(),
        engine: engine.name().into(),
        engine_fallback: engine.fallback().map(String::from),
        games: cfg.games,
        seed: cfg.seed,
        roles: result.roles.clone(),
        players,
        results: result.games.clone(),
    }
}
