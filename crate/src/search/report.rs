//! Search and match results as JSON, shared by the CLI (`gdlkit search`,
//! `gdlkit match`) and the WebAssembly bindings, so both print the same
//! objects.

use super::alphabeta::{AlphaBeta, Config, Mode};
use super::bestfirst::BestFirst;
use super::heuristics::{self, Constant, Heuristic};
use super::matches::{run_match, MatchConfig, MatchResult};
use super::mcts::{self, Mcts};
use super::minimax::{Minimax, MinimaxPlayer};
use super::ordering::Order;
use super::{Budget, Iteration, PlayerSpec, SearchResult, Stats, Stop, DEFAULT_MS, MAX_DEPTH};
use crate::engine::{Engine, EngineState};
use crate::program::Program;
use crate::reasoner::StateMachine;
use crate::trace::{value_json, Trace, Tree, TreeGame, DEFAULT_NODE_CAP};
use serde::Deserialize;
use serde_json::{json, Map, Value};

/// Options of `search`, `searchTree` and `game.search` (`gdlkit search`
/// flags; all optional, camelCase in JS).
#[derive(Clone, Debug, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct SearchOptions {
    /// `alphabeta` (default), `minimax`, `best-first` or `mcts`.
    #[cfg_attr(
        feature = "typescript",
        ts(as = "Option<crate::js_api::Algorithm>", optional)
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
        ts(as = "Option<crate::js_api::EngineChoice>", optional)
    )]
    pub engine: String,
    /// The order each node's moves are searched in (minimax, alphabeta):
    /// `given` (default), `reversed`, `best` (first), `worst` (first).
    /// Trees come back reordered (`tree`, `labels`); games reorder at each
    /// node.
    #[cfg_attr(
        feature = "typescript",
        ts(as = "Option<crate::js_api::Ordering>", optional)
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
#[derive(Debug)]
pub enum ReportError {
    Usage(String),
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

/// Searches from the initial state (or the tree's root) and returns the
/// result object: `value`, `best_move`, `solved`, `depth`, `stats` {nodes,
/// leaves, cutoffs, tt_hits, playouts, depth, elapsed_ms, nodes_per_second},
/// for best-first `plan`, and with a trace `events`, `states`, `truncated`.
pub fn search_json(source: Source<'_>, o: &SearchOptions) -> Result<Value, ReportError> {
    let algorithm = canonical_algorithm(&o.algorithm)?;
    let order: Order = match &o.ordering {
        Some(x) => x.parse().map_err(ReportError::Usage)?,
        None => Order::Given,
    };
    if o.trace && !matches!(algorithm, "alphabeta" | "minimax") {
        return Err(ReportError::Usage(
            "a trace records minimax and alphabeta searches".into(),
        ));
    }
    let mut obj = Map::new();
    match source {
        Source::Tree(text) => {
            if o.from.is_some() {
                return Err(ReportError::Usage(
                    "`from` is for games; a tree is searched from its root".into(),
                ));
            }
            let tree = Tree::parse(text).map_err(ReportError::Usage)?;
            let (tree, labels) = tree.reorder(order);
            let mut g = TreeGame::new(&tree);
            obj.insert("game".into(), json!("tree"));
            obj.insert("tree".into(), tree.to_json());
            if order != Order::Given {
                obj.insert("ordering".into(), json!(order.name()));
                obj.insert("labels".into(), json!(labels));
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
            run(&mut g, h, None, pass, &mut obj)?;
            // Each trace state's path in the (reordered) tree.
            if let Some(states) = obj.get("states").and_then(Value::as_array) {
                let paths: Vec<Option<Vec<u32>>> =
                    g.paths_of(states.iter().map(|s| s.get(0).and_then(Value::as_str)));
                obj.insert("paths".into(), json!(paths));
            }
        }
        Source::Game {
            label,
            program,
            machine,
            at,
        } => {
            let role = role_index(machine, o.role.as_deref())?;
            let h = heuristics::build(o.heuristic.as_deref().unwrap_or("fuzzy"), program, machine)
                .map_err(|m| match m.starts_with("unknown heuristic") {
                    true => ReportError::Usage(m),
                    false => ReportError::Game(m),
                })?;
            obj.insert("game".into(), json!(label));
            insert_engine(&mut obj, machine);
            if order != Order::Given {
                if !matches!(algorithm, "alphabeta" | "minimax") {
                    return Err(ReportError::Usage(
                        "a move ordering is for minimax and alphabeta".into(),
                    ));
                }
                obj.insert("ordering".into(), json!(order.name()));
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
            run(machine, h, root, pass, &mut obj)?;
        }
    }
    Ok(Value::Object(obj))
}

/// `engine` (the engine that ran) and, when `auto` fell back to the
/// interpreter, `engine_fallback` (why).
fn insert_engine(obj: &mut Map<String, Value>, m: &Engine) {
    obj.insert("engine".into(), json!(m.name()));
    if let Some(why) = m.fallback() {
        obj.insert("engine_fallback".into(), json!(why));
    }
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

/// Counters as JSON: the fields of [`Stats`] (the one struct, `SearchStats`
/// in JS) with `elapsed_ms` rounded to microseconds, and the speed.
pub fn stats_json(s: &Stats) -> Value {
    let nps = if s.elapsed_ms > 0.0 {
        s.nodes as f64 * 1000.0 / s.elapsed_ms
    } else {
        0.0
    };
    let rounded = Stats {
        elapsed_ms: (s.elapsed_ms * 1000.0).round() / 1000.0,
        ..s.clone()
    };
    let mut v = serde_json::to_value(rounded).unwrap_or_else(|_| json!({}));
    if let Some(o) = v.as_object_mut() {
        o.insert("nodes_per_second".into(), json!(nps.round() as u64));
    }
    v
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

/// One search from `root` (None: the initial state), its result added to
/// `obj`.
fn run<M: StateMachine + 'static>(
    m: &mut M,
    mut h: Box<dyn Heuristic<M>>,
    root: Option<M::State>,
    pass: Pass<'_>,
    obj: &mut Map<String, Value>,
) -> Result<(), ReportError> {
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
    let role_name = m.terms().display(m.roles()[role]);
    obj.insert("algorithm".into(), json!(algorithm));
    obj.insert("role".into(), json!(role_name));
    obj.insert("heuristic".into(), json!(h.name()));
    let mut tr = o.trace.then(|| Trace::new(o.node_cap));
    let mut extra = Map::new();
    let result: SearchResult = match algorithm {
        "minimax" if single_pass => {
            let d = budget.depth.unwrap_or(MAX_DEPTH);
            let t0 = crate::clock::now_ms();
            let mut mm = Minimax::new(m, &mut *h, role, &budget);
            mm.trace = tr.as_mut();
            mm.order = order;
            let r = mm.search(&root, d);
            let (mut stats, estimated) = (mm.stats.clone(), mm.estimated);
            stats.depth = d;
            stats.elapsed_ms = crate::clock::now_ms() - t0;
            match r {
                Ok((value, best_move)) => SearchResult {
                    value,
                    best_move,
                    solved: !estimated,
                    iterations: vec![Iteration::of(d, true, &stats)],
                    stats,
                },
                Err(Stop::Eval(e)) => return Err(err(e)),
                Err(Stop::Budget) => {
                    return Err(ReportError::Game(
                        "the budget ended before the traced search finished; raise the time budget or lower the depth".into(),
                    ))
                }
            }
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
            // A trace shows one plain alpha-beta search, as a lecture does:
            // one depth, the game's move order, no table, minimax semantics.
            let cfg = if single_pass {
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
            };
            AlphaBeta::new(h, cfg)
                .search(m, &root, role, tr.as_mut())
                .map_err(err)?
        }
        "bestfirst" => {
            let plan = BestFirst::new(h, budget)
                .search(m, &root, role)
                .map_err(err)?;
            let moves: Vec<String> = plan.moves.iter().map(|&t| m.terms().display(t)).collect();
            extra.insert("plan".into(), json!(moves));
            extra.insert("complete".into(), json!(plan.complete));
            extra.insert("exhausted".into(), json!(plan.exhausted));
            plan.result
        }
        _ => {
            let cfg = mcts::Config {
                budget,
                ..mcts::Config::default()
            };
            Mcts::new(cfg, o.seed).search(m, &root, role).map_err(err)?
        }
    };
    obj.insert("value".into(), value_json(result.value));
    obj.insert(
        "best_move".into(),
        json!(result.best_move.map(|t| m.terms().display(t))),
    );
    obj.insert("solved".into(), json!(result.solved));
    obj.insert("depth".into(), json!(result.stats.depth));
    obj.insert("stats".into(), stats_json(&result.stats));
    if !result.iterations.is_empty() {
        obj.insert("iterations".into(), json!(result.iterations));
    }
    obj.extend(extra);
    if let Some(t) = tr {
        obj.insert("truncated".into(), json!(t.truncated));
        obj.insert("node_cap".into(), json!(t.node_cap));
        obj.insert("states".into(), json!(t.states));
        obj.insert(
            "events".into(),
            serde_json::to_value(&t.events).unwrap_or(Value::Null),
        );
    }
    Ok(())
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
        .collect::<Result<_, String>>()
        .map_err(ReportError::Usage)?;
    run_match(program, machine, &specs, cfg, &mut |_| {}).map_err(ReportError::Game)
}

/// A match result as JSON: `players` in the order given, each {name, spec,
/// games, mean_goal, ci95, wins, draws, losses, moves, ms_per_move,
/// nodes_per_second, playouts_per_second}, and `results` per game.
pub fn match_json(label: &str, engine: &Engine, cfg: &MatchConfig, result: &MatchResult) -> Value {
    let players: Vec<_> = result
        .players
        .iter()
        .map(|p| {
            json!({
                "name": p.name,
                "spec": p.spec,
                "games": p.games,
                "mean_goal": value_json(p.mean_goal),
                "ci95": [value_json(p.ci95[0]), value_json(p.ci95[1])],
                "wins": p.wins,
                "draws": p.draws,
                "losses": p.losses,
                "moves": p.moves,
                "ms_per_move": if p.moves > 0 { (p.search_ms / p.moves as f64 * 10.0).round() / 10.0 } else { 0.0 },
                "nodes_per_second": p.nodes_per_second().round() as u64,
                "playouts_per_second": p.playouts_per_second().round() as u64,
                "mean_depth": (p.mean_depth * 100.0).round() / 100.0,
            })
        })
        .collect();
    let mut obj = Map::new();
    obj.insert("game".into(), json!(label));
    insert_engine(&mut obj, engine);
    obj.insert("games".into(), json!(cfg.games));
    obj.insert("seed".into(), json!(cfg.seed));
    obj.insert("roles".into(), json!(result.roles));
    obj.insert("players".into(), json!(players));
    obj.insert("results".into(), json!(result.games));
    Value::Object(obj)
}
