//! `gdlkit search (GAME.kif | --tree '((3 12 8) (2 4 6) (14 5 2))')`: one
//! search from the initial state (or the tree's root), optionally traced.
//! The JSON comes from [`crate::search::report`] (shared with wasm).

use super::options::{EngineArg, FormatArg, SecondsArg};
use super::{load_game, Fail, Host, Output, EXIT_OK};
use crate::search::report::{search_report, ReportError, SearchOptions, Source};
use crate::trace::DEFAULT_NODE_CAP;
use serde_json::{Map, Value};
use std::fmt::Write as _;

#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("input").required(true).args(["game", "tree"])))]
pub struct SearchArgs {
    /// The game's rules
    #[arg(value_name = "GAME.kif")]
    game: Option<String>,
    /// A game tree instead of a game, e.g. '((3 12 8) (2 4 6) (14 5 2))'
    #[arg(long, value_name = "TREE")]
    tree: Option<String>,
    /// alphabeta, minimax, best-first, mcts
    #[arg(long, value_name = "A", default_value = "alphabeta")]
    algorithm: String,
    /// Depth limit in moves (trees: default the whole tree, searched in one
    /// pass; games: iterative deepening, each pass reported)
    #[arg(long, value_name = "N")]
    depth: Option<u32>,
    /// Time budget (games: default 1000 ms unless --depth or --nodes)
    #[arg(long, value_name = "N")]
    budget_ms: Option<f64>,
    /// Node budget (MCTS: playouts)
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// The searching role (default the first)
    #[arg(long, value_name = "ROLE")]
    role: Option<String>,
    /// fuzzy (default), mobility, inverse-mobility, novelty, none, fjo, hff,
    /// hadd, hmax (relaxed planning, docs/planning.md), feature:NAME:max|min
    /// (`gdlkit structure` lists the names)
    #[arg(long, value_name = "H")]
    heuristic: Option<String>,
    /// Record the search (minimax, alphabeta): one search to --depth (games:
    /// default 2), children in game order, no table, as a lecture shows it
    #[arg(long)]
    trace: bool,
    /// Nodes recorded in a trace
    #[arg(long, value_name = "N", default_value_t = DEFAULT_NODE_CAP)]
    node_cap: u32,
    /// The order moves are searched in (minimax, alphabeta): given
    /// (default), reversed, best (first), worst (first)
    #[arg(long, value_name = "O")]
    ordering: Option<String>,
    /// Search from this state instead of the initial one, e.g.
    /// '(cell 1 1 x) (cell 1 2 b) ... (control oplayer)'
    #[arg(long, value_name = "FLUENTS")]
    from: Option<String>,
    /// MCTS seed
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    format: FormatArg,
    #[command(flatten)]
    engine: EngineArg,
    #[command(flatten)]
    pub seconds: SecondsArg,
}

pub(crate) fn report_fail(e: ReportError) -> Fail {
    match e {
        ReportError::Usage(m) => Fail::usage(m),
        ReportError::Game(m) => Fail::game(m),
    }
}

pub fn run(args: SearchArgs, host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    let json = args.format.json();
    let opts = SearchOptions {
        algorithm: args.algorithm,
        depth: args.depth,
        budget_ms: args.budget_ms,
        nodes: args.nodes,
        role: args.role,
        heuristic: args.heuristic,
        trace: args.trace,
        node_cap: args.node_cap,
        seed: args.seed,
        engine: args.engine.choice.name().to_string(),
        ordering: args.ordering,
        from: args.from.as_deref().map(terms_of).transpose()?,
    };
    let report = match (&args.tree, args.game) {
        (Some(text), _) => search_report(Source::Tree(text), &opts).map_err(report_fail)?,
        (None, Some(path)) => {
            let (_, mut game) = load_game(host, &path, args.engine.choice)?;
            search_report(
                Source::Game {
                    label: &path,
                    program: &game.program,
                    machine: &mut game.engine,
                    at: None,
                },
                &opts,
            )
            .map_err(report_fail)?
        }
        (None, None) => unreachable!("clap requires GAME.kif or --tree"),
    };
    let v = serde_json::to_value(&report).map_err(|e| Fail::game(e.to_string()))?;
    out.stdout = match (json, v) {
        (true, v) => format!("{v}\n"),
        (false, Value::Object(obj)) => text_report(&obj),
        (false, v) => format!("{v}\n"),
    };
    Ok(EXIT_OK)
}

fn text_report(obj: &Map<String, Value>) -> String {
    let mut s = String::new();
    let get = |k: &str| {
        obj.get(k)
            .map(|v| v.to_string().trim_matches('"').to_string())
            .unwrap_or_default()
    };
    let _ = writeln!(
        s,
        "game: {}  algorithm: {}  role: {}  heuristic: {}",
        get("game"),
        get("algorithm"),
        get("role"),
        get("heuristic")
    );
    if obj.contains_key("engine") {
        let _ = writeln!(s, "engine: {}", engine_text(obj));
    }
    let _ = writeln!(
        s,
        "value: {}{}",
        get("value"),
        if get("solved") == "true" {
            " (solved)"
        } else {
            ""
        }
    );
    let _ = writeln!(s, "best move: {}", get("best_move"));
    if let Some(plan) = obj.get("plan").and_then(Value::as_array) {
        let p: Vec<String> = plan
            .iter()
            .map(|v| v.as_str().unwrap_or("?").to_string())
            .collect();
        let _ = writeln!(s, "plan: {}", p.join(", "));
    }
    if let Some(st) = obj.get("stats") {
        let _ = writeln!(
            s,
            "depth {}, {} nodes, {} leaves, {} cut-offs, {} table hits, {} playouts, {} ms ({} nodes/s)",
            st["depth"], st["nodes"], st["leaves"], st["cutoffs"], st["tt_hits"], st["playouts"], st["elapsed_ms"], st["nodes_per_second"]
        );
    }
    // Iterative deepening: the totals above, each pass here.
    if let Some(its) = obj.get("iterations").and_then(Value::as_array) {
        for it in its.iter().filter(|_| its.len() > 1) {
            let _ = writeln!(
                s,
                "  depth {}{}: {} nodes, {} leaves, {} cut-offs, {} table hits",
                it["depth"],
                if it["complete"] == true {
                    ""
                } else {
                    " (stopped by the budget)"
                },
                it["nodes"],
                it["leaves"],
                it["cutoffs"],
                it["tt_hits"]
            );
        }
    }
    if let Some(ev) = obj.get("events").and_then(Value::as_array) {
        let _ = writeln!(
            s,
            "trace: {} events{} (use --format json to see them)",
            ev.len(),
            if get("truncated") == "true" {
                ", truncated"
            } else {
                ""
            }
        );
    }
    s
}

/// The top-level terms of `--from` as text (each checked when the state is
/// built).
fn terms_of(text: &str) -> Result<Vec<String>, Fail> {
    let tree = crate::syntax::parse(text);
    if let Some(d) = tree.diagnostics.first() {
        return Err(Fail::usage(format!("--from: {}", d.message)));
    }
    Ok(tree
        .forms
        .iter()
        .map(|f| f.text(text).to_string())
        .collect())
}

/// `fast`, `interpreter`, or `interpreter (fallback: why)`.
pub(crate) fn engine_text(obj: &Map<String, Value>) -> String {
    let name = obj.get("engine").and_then(Value::as_str).unwrap_or("?");
    match obj.get("engine_fallback").and_then(Value::as_str) {
        Some(why) => format!("{name} (fallback: {why})"),
        None => name.to_string(),
    }
}
