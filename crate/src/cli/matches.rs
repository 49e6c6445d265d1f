//! `gdlkit match GAME.kif --players SPEC SPEC... [--games N] [--seed S]`:
//! a match between players, roles rotated, as text or JSON.

use super::{load, Args, Fail, Host, Output, EXIT_OK};
use crate::search::matches::{run_match, MatchConfig};
use crate::search::PlayerSpec;
use crate::trace::value_json;
use serde_json::json;
use std::fmt::Write as _;

pub fn run(raw: &[String], host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    // `--players` takes every following word up to the next option.
    let mut rest = Vec::new();
    let mut specs_text = Vec::new();
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == "--players" {
            i += 1;
            while i < raw.len() && !raw[i].starts_with("--") {
                specs_text.push(raw[i].clone());
                i += 1;
            }
            continue;
        }
        if let Some(v) = raw[i].strip_prefix("--players=") {
            specs_text.push(v.to_string());
        } else {
            rest.push(raw[i].clone());
        }
        i += 1;
    }
    let args = Args::parse(&rest, &[])?;
    args.only(&["games", "seed", "max-steps", "format"])?;
    let json = args.json()?;
    let cfg = MatchConfig {
        games: args.number("games", 10)?,
        seed: args.number("seed", 1)?,
        max_steps: args.number("max-steps", 1000)?,
    };
    let path = args.positional(0, "GAME.kif")?.to_string();
    if args.positional.len() > 1 {
        return Err(Fail::usage(format!("unexpected argument `{}` (players go after --players)", args.positional[1])));
    }
    if specs_text.is_empty() {
        return Err(Fail::usage("missing --players SPEC SPEC... (e.g. --players alphabeta:heuristic=fuzzy,ms=200 mcts:ms=200)"));
    }
    let specs: Vec<PlayerSpec> = specs_text.iter().map(|s| s.parse()).collect::<Result<_, String>>().map_err(Fail::usage)?;
    let (text, mut m) = load(host, &path)?;
    let program = crate::parse_program(&text);
    let result = run_match(&program, &mut m, &specs, &cfg, &mut |_| {}).map_err(Fail::game)?;
    if json {
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
                })
            })
            .collect();
        let v = json!({
            "game": path,
            "engine": "interpreter",
            "games": cfg.games,
            "seed": cfg.seed,
            "roles": result.roles,
            "players": players,
            "results": result.games,
        });
        out.stdout = format!("{v}\n");
        return Ok(EXIT_OK);
    }
    let s = &mut out.stdout;
    let _ = writeln!(
        s,
        "{path}: {} games, roles {} (rotated), seed {}, engine interpreter",
        cfg.games,
        result.roles.join(" "),
        cfg.seed
    );
    let _ = writeln!(
        s,
        "{:<36} {:>9} {:>17} {:>5} {:>5} {:>6} {:>9} {:>10}",
        "player", "mean goal", "95% interval", "wins", "draws", "losses", "nodes/s", "playouts/s"
    );
    for p in &result.players {
        let _ = writeln!(
            s,
            "{:<36} {:>9.1} {:>17} {:>5} {:>5} {:>6} {:>9.0} {:>10.0}",
            p.name,
            p.mean_goal,
            format!("[{:.1}, {:.1}]", p.ci95[0], p.ci95[1]),
            p.wins,
            p.draws,
            p.losses,
            p.nodes_per_second(),
            p.playouts_per_second()
        );
    }
    Ok(EXIT_OK)
}
