//! `gdlkit search (GAME.kif | --tree '((3 12 8) (2 4 6) (14 5 2))')`: one
//! search from the initial state (or the tree's root), optionally traced.

use super::{load, Args, Fail, Host, Output, EXIT_OK};
use crate::reasoner::StateMachine;
use crate::search::alphabeta::{AlphaBeta, Config};
use crate::search::bestfirst::BestFirst;
use crate::search::heuristics::{self, Constant, Heuristic};
use crate::search::mcts::{self, Mcts};
use crate::search::minimax::{Minimax, MinimaxPlayer};
use crate::search::{Budget, SearchResult, Stats, DEFAULT_MS, MAX_DEPTH};
use crate::trace::{value_json, Trace, Tree, TreeGame, DEFAULT_NODE_CAP};
use serde_json::{json, Map, Value};
use std::fmt::Write as _;

pub const HELP: &str = "\
gdlkit search (GAME.kif | --tree '((3 12 8) (2 4 6) (14 5 2))') [options]
  --algorithm A     alphabeta (default), minimax, best-first, mcts
  --depth N         depth limit in moves (trees: default the whole tree)
  --budget-ms N     time budget (games: default 1000 ms unless --depth or --nodes)
  --nodes N         node budget (MCTS: playouts)
  --role ROLE       the searching role (default the first)
  --heuristic H     fuzzy (default), mobility, inverse-mobility, novelty, none
  --trace           record the search (minimax, alphabeta): one search to --depth
                    (games: default 2), children in game order, no table, as a lecture shows it
  --node-cap N      nodes recorded in a trace (default 5000)
  --seed S          MCTS seed (default 1)
  --format json     JSON output
";

pub fn run(raw: &[String], host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    if raw.iter().any(|a| a == "--help" || a == "-h") {
        out.stdout = HELP.to_string();
        return Ok(EXIT_OK);
    }
    let args = Args::parse(raw, &["trace"])?;
    args.only(&["tree", "algorithm", "depth", "budget-ms", "nodes", "role", "heuristic", "trace", "node-cap", "seed", "format"])?;
    let json = args.json()?;
    let algorithm = match args.get("algorithm").unwrap_or("alphabeta") {
        "alphabeta" | "alpha-beta" => "alphabeta",
        "minimax" => "minimax",
        "best-first" | "bestfirst" => "best-first",
        "mcts" | "uct" => "mcts",
        other => return Err(Fail::usage(format!("--algorithm must be minimax, alphabeta, best-first or mcts, got `{other}`"))),
    };
    let trace = args.flag("trace");
    if trace && !matches!(algorithm, "alphabeta" | "minimax") {
        return Err(Fail::usage("--trace records minimax and alphabeta searches"));
    }
    let depth: Option<u32> = args.get("depth").map(|_| args.number("depth", 0)).transpose()?;
    let ms: Option<f64> = args.get("budget-ms").map(|_| args.number("budget-ms", 0.0)).transpose()?;
    let nodes: Option<u64> = args.get("nodes").map(|_| args.number("nodes", 0)).transpose()?;
    let node_cap: u32 = args.number("node-cap", DEFAULT_NODE_CAP)?;
    let seed: u64 = args.number("seed", 1)?;
    let opts = Opts { algorithm, trace, node_cap, seed };
    let mut obj = Map::new();
    if let Some(text) = args.get("tree") {
        if !args.positional.is_empty() {
            return Err(Fail::usage("give either GAME.kif or --tree, not both"));
        }
        let tree = Tree::parse(text).map_err(Fail::usage)?;
        let mut g = TreeGame::new(&tree);
        obj.insert("game".into(), json!("tree"));
        obj.insert("tree".into(), tree.to_json());
        let role = role_index(&g, args.get("role"))?;
        let h: Box<dyn Heuristic<TreeGame>> = Box::new(Constant);
        let budget = Budget { depth: depth.or(Some(tree.height().clamp(1, MAX_DEPTH))), ms, nodes };
        search(&mut g, h, role, budget, &opts, &mut obj)?;
    } else {
        let path = args.positional(0, "GAME.kif (or --tree)")?.to_string();
        let (text, mut m) = load(host, &path)?;
        let program = crate::parse_program(&text);
        let role = role_index(&m, args.get("role"))?;
        let h = heuristics::build(args.get("heuristic").unwrap_or("fuzzy"), &program, &mut m).map_err(Fail::usage)?;
        obj.insert("game".into(), json!(path));
        obj.insert("engine".into(), json!("interpreter"));
        let depth = if trace { depth.or(Some(2)) } else { depth };
        let ms = if ms.is_none() && nodes.is_none() && depth.is_none() { Some(DEFAULT_MS) } else { ms };
        search(&mut m, h, role, Budget { depth, ms, nodes }, &opts, &mut obj)?;
    }
    if json {
        out.stdout = format!("{}\n", Value::Object(obj));
    } else {
        out.stdout = text_report(&obj);
    }
    Ok(EXIT_OK)
}

struct Opts {
    algorithm: &'static str,
    trace: bool,
    node_cap: u32,
    seed: u64,
}

fn role_index<M: StateMachine>(m: &M, role: Option<&str>) -> Result<usize, Fail> {
    let names: Vec<String> = m.roles().iter().map(|&r| m.terms().display(r)).collect();
    match role {
        None => {
            if names.is_empty() {
                Err(Fail::game("the game has no roles"))
            } else {
                Ok(0)
            }
        }
        Some(r) => names
            .iter()
            .position(|n| n.eq_ignore_ascii_case(r))
            .ok_or_else(|| Fail::usage(format!("no role `{r}` (roles: {})", names.join(", ")))),
    }
}

fn stats_json(s: &Stats) -> Value {
    let nps = if s.elapsed_ms > 0.0 { s.nodes as f64 * 1000.0 / s.elapsed_ms } else { 0.0 };
    json!({
        "nodes": s.nodes,
        "leaves": s.leaves,
        "cutoffs": s.cutoffs,
        "tt_hits": s.tt_hits,
        "playouts": s.playouts,
        "depth": s.depth,
        "elapsed_ms": (s.elapsed_ms * 1000.0).round() / 1000.0,
        "nodes_per_second": nps.round() as u64,
    })
}

fn search<M: StateMachine + 'static>(
    m: &mut M,
    mut h: Box<dyn Heuristic<M>>,
    role: usize,
    budget: Budget,
    o: &Opts,
    obj: &mut Map<String, Value>,
) -> Result<(), Fail> {
    let err = |e: crate::EvalError| Fail::game(e.to_string());
    let root = m.initial_state().map_err(err)?;
    let role_name = m.terms().display(m.roles()[role]);
    obj.insert("algorithm".into(), json!(o.algorithm));
    obj.insert("role".into(), json!(role_name));
    obj.insert("heuristic".into(), json!(h.name()));
    let mut tr = o.trace.then(|| Trace::new(o.node_cap));
    let mut extra = Map::new();
    let result: SearchResult = match o.algorithm {
        "minimax" if o.trace => {
            let d = budget.depth.unwrap_or(MAX_DEPTH);
            let t0 = crate::clock::now_ms();
            let mut mm = Minimax::new(m, &mut *h, role, &budget);
            mm.trace = tr.as_mut();
            let r = mm.search(&root, d);
            let (mut stats, estimated) = (mm.stats.clone(), mm.estimated);
            stats.depth = d;
            stats.elapsed_ms = crate::clock::now_ms() - t0;
            match r {
                Ok((value, best_move)) => SearchResult { value, best_move, solved: !estimated, stats },
                Err(crate::search::Stop::Eval(e)) => return Err(err(e)),
                Err(crate::search::Stop::Budget) => {
                    return Err(Fail::game("the budget ended before the search finished; raise --budget-ms or lower --depth"))
                }
            }
        }
        "minimax" => MinimaxPlayer::new(h, budget).search(m, &root, role).map_err(err)?,
        "alphabeta" => {
            let cfg = if o.trace {
                Config { budget, tt: false, ordering: false, iterative: false, ..Config::default() }
            } else {
                Config { budget, ..Config::default() }
            };
            let mut ab = AlphaBeta::new(h, cfg);
            if o.trace {
                ab.cfg.mode = crate::search::alphabeta::Mode::Paranoid;
            }
            ab.search(m, &root, role, tr.as_mut()).map_err(err)?
        }
        "best-first" => {
            let plan = BestFirst::new(h, budget).search(m, &root, role).map_err(err)?;
            let moves: Vec<String> = plan.moves.iter().map(|&t| m.terms().display(t)).collect();
            extra.insert("plan".into(), json!(moves));
            extra.insert("complete".into(), json!(plan.complete));
            extra.insert("exhausted".into(), json!(plan.exhausted));
            plan.result
        }
        _ => {
            let cfg = mcts::Config { budget, ..mcts::Config::default() };
            Mcts::new(cfg, o.seed).search(m, &root, role).map_err(err)?
        }
    };
    obj.insert("value".into(), value_json(result.value));
    obj.insert("best_move".into(), json!(result.best_move.map(|t| m.terms().display(t))));
    obj.insert("solved".into(), json!(result.solved));
    obj.insert("depth".into(), json!(result.stats.depth));
    obj.insert("stats".into(), stats_json(&result.stats));
    obj.extend(extra);
    if let Some(t) = tr {
        obj.insert("truncated".into(), json!(t.truncated));
        obj.insert("node_cap".into(), json!(t.node_cap));
        obj.insert("states".into(), json!(t.states));
        obj.insert("events".into(), serde_json::to_value(&t.events).unwrap_or(Value::Null));
    }
    Ok(())
}

fn text_report(obj: &Map<String, Value>) -> String {
    let mut s = String::new();
    let get = |k: &str| obj.get(k).map(|v| v.to_string().trim_matches('"').to_string()).unwrap_or_default();
    let _ = writeln!(s, "game: {}  algorithm: {}  role: {}  heuristic: {}", get("game"), get("algorithm"), get("role"), get("heuristic"));
    let _ = writeln!(s, "value: {}{}", get("value"), if get("solved") == "true" { " (solved)" } else { "" });
    let _ = writeln!(s, "best move: {}", get("best_move"));
    if let Some(plan) = obj.get("plan").and_then(Value::as_array) {
        let p: Vec<String> = plan.iter().map(|v| v.as_str().unwrap_or("?").to_string()).collect();
        let _ = writeln!(s, "plan: {}", p.join(", "));
    }
    if let Some(st) = obj.get("stats") {
        let _ = writeln!(
            s,
            "depth {}, {} nodes, {} leaves, {} cut-offs, {} table hits, {} playouts, {} ms ({} nodes/s)",
            st["depth"], st["nodes"], st["leaves"], st["cutoffs"], st["tt_hits"], st["playouts"], st["elapsed_ms"], st["nodes_per_second"]
        );
    }
    if let Some(ev) = obj.get("events").and_then(Value::as_array) {
        let _ = writeln!(s, "trace: {} events{} (use --format json to see them)", ev.len(), if get("truncated") == "true" { ", truncated" } else { "" });
    }
    s
}
