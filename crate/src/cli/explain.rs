//! `gdlkit explain GAME.kif [--moves MOVES.json] [--role R] [--heuristic H]`:
//! every legal move's value in a position (see [`crate::search::explain`]).

use super::{Args, Fail, Host, Output, EXIT_OK};
use crate::replay::parse_moves_json;
use crate::search::explain::{explain_text, to_text, ExplainOptions};

pub const HELP: &str = "\
gdlkit explain GAME.kif [options]
  --moves MOVES.json  joint moves from the initial state (conformance format)
  --role ROLE         the role whose moves are explained (default: the one to move)
  --heuristic H       fjo (default), hff, hadd, hmax, fuzzy, mobility, ...
  --costs C           the planning heuristics' action costs: default (thesis 4.5)
                      or thesis (turn passing free: the thesis's tic-tac-toe table)
  --engine E          auto (default), interpreter, fast
  --format json       JSON output
  --seconds S         time limit (default 60)
";

pub fn run(raw: &[String], host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    if raw.iter().any(|a| a == "--help" || a == "-h") {
        out.stdout = HELP.to_string();
        return Ok(EXIT_OK);
    }
    let args = Args::parse(raw, &[])?;
    args.only(&[
        "moves",
        "role",
        "heuristic",
        "costs",
        "engine",
        "format",
        "seconds",
    ])?;
    let json = args.json()?;
    let game = args.positional(0, "GAME.kif")?.to_string();
    let text = super::read_game(host, &game)?;
    let mut o = ExplainOptions::default();
    if let Some(path) = args.get("moves") {
        let t = host
            .read_file(path)
            .map_err(|e| Fail::usage(format!("cannot read {path}: {e}")))?;
        o.moves = parse_moves_json(&t).map_err(|e| Fail::usage(format!("{path}: {e}")))?;
    }
    o.role = args.get("role").map(str::to_string);
    if let Some(h) = args.get("heuristic") {
        o.heuristic = h.to_string();
    }
    o.costs = args.get("costs").map(str::to_string);
    if let Some(e) = args.get("engine") {
        o.engine = e.to_string();
    }
    let e =
        explain_text(&text, &o).map_err(|m| Fail::game(m.replace("game:", &format!("{game}:"))))?;
    out.stdout = if json {
        format!(
            "{}\n",
            serde_json::to_string(&e).map_err(|e| Fail::game(e.to_string()))?
        )
    } else {
        to_text(&e)
    };
    Ok(EXIT_OK)
}
