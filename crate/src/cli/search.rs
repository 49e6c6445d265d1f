//! `gdlkit search (GAME.kif | --tree '((3 12 8) (2 4 6) (14 5 2))')`: one
//! search from the initial state (or the tree's root), optionally traced.
//! The JSON comes from [`crate::search::report`] (shared with wasm).

use super::{load_engine, Args, Fail, Host, Output, EXIT_OK};
use crate::search::report::{search_json, ReportError, SearchOptions, Source};
use crate::trace::DEFAULT_NODE_CAP;
use serde_json::{Map, Value};
use std::fmt::Write as _;

pub const HELP: &str = "\
gdlkit search (GAME.kif | --tree '((3 12 8) (2 4 6) (14 5 2))') [options]
  --algorithm A     alphabeta (default), minimax, best-first, mcts
  --depth N         depth limit in moves (trees: default the whole tree, searched
                    in one pass; games: iterative deepening, each pass reported)
  --budget-ms N     time budget (games: default 1000 ms unless --depth or --nodes)
  --nodes N         node budget (MCTS: playouts)
  --role ROLE       the searching role (default the first)
  --heuristic H     fuzzy (default), mobility, inverse-mobility, novelty, none,
                    fjo, hff, hadd, hmax (relaxed planning, docs/planning.md)
                    feature:NAME:max|min (`gdlkit structure` lists the names)
  --trace           record the search (minimax, alphabeta): one search to --depth
                    (games: default 2), children in game order, no table, as a lecture shows it
  --node-cap N      nodes recorded in a trace (default 5000)
  --ordering O      the order moves are searched in (minimax, alphabeta): given
                    (default), reversed, best (first), worst (first)
  --from 'FLUENTS'  search from this state instead of the initial one, e.g.
                    --from '(cell 1 1 x) (cell 1 2 b) ... (control oplayer)'
  --seed S          MCTS seed (default 1)
  --engine E        auto (default: the fast engine if the game grounds, else the
                    interpreter), interpreter, fast
  --format json     JSON output
";

pub(crate) fn report_fail(e: ReportError) -> Fail {
    match e {
        ReportError::Usage(m) => Fail::usage(m),
        ReportError::Game(m) => Fail::game(m),
    }
}

pub fn run(raw: &[String], host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    if raw.iter().any(|a| a == "--help" || a == "-h") {
        out.stdout = HELP.to_string();
        return Ok(EXIT_OK);
    }
    let args = Args::parse(raw, &["trace"])?;
    args.only(&[
        "seconds",
        "tree",
        "algorithm",
        "depth",
        "budget-ms",
        "nodes",
        "role",
        "heuristic",
        "trace",
        "node-cap",
        "seed",
        "engine",
        "format",
        "ordering",
        "from",
    ])?;
    let json = args.json()?;
    let opts = SearchOptions {
        algorithm: args.get("algorithm").unwrap_or("alphabeta").to_string(),
        depth: args
            .get("depth")
            .map(|_| args.number("depth", 0))
            .transpose()?,
        budget_ms: args
            .get("budget-ms")
            .map(|_| args.number("budget-ms", 0.0))
            .transpose()?,
        nodes: args
            .get("nodes")
            .map(|_| args.number("nodes", 0))
            .transpose()?,
        role: args.get("role").map(str::to_string),
        heuristic: args.get("heuristic").map(str::to_string),
        trace: args.flag("trace"),
        node_cap: args.number("node-cap", DEFAULT_NODE_CAP)?,
        seed: args.number("seed", 1)?,
        engine: args.get("engine").unwrap_or("auto").to_string(),
        ordering: args.get("ordering").map(str::to_string),
        from: args.get("from").map(terms_of).transpose()?,
    };
    let v = if let Some(text) = args.get("tree") {
        if !args.positional.is_empty() {
            return Err(Fail::usage("give either GAME.kif or --tree, not both"));
        }
        search_json(Source::Tree(text), &opts).map_err(report_fail)?
    } else {
        let path = args.positional(0, "GAME.kif (or --tree)")?.to_string();
        let (text, mut m) = load_engine(host, &path, &args)?;
        search_json(
            Source::Game {
                label: &path,
                text: &text,
                machine: &mut m,
            },
            &opts,
        )
        .map_err(report_fail)?
    };
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
