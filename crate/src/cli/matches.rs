//! `gdlkit match GAME.kif --players SPEC SPEC... [--games N] [--seed S]`:
//! a match between players, roles rotated, as text or JSON.

use super::{load_engine, Args, Fail, Host, Output, EXIT_OK};
use crate::search::matches::MatchConfig;
use crate::search::report::{match_json, play_match};
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
    /// Most games one `match` plays (each game is at least one move).
    const MAX_GAMES: usize = 100_000;
    let args = Args::parse(&rest, &[])?;
    args.only(&["games", "seed", "max-steps", "engine", "format", "seconds"])?;
    let json = args.json()?;
    let cfg = MatchConfig {
        games: args.number("games", 10)?,
        seed: args.number("seed", 1)?,
        max_steps: args.number("max-steps", 1000)?,
    };
    if cfg.games == 0 || cfg.games > MAX_GAMES {
        return Err(Fail::usage(format!(
            "--games {}: give 1 to {MAX_GAMES} games",
            cfg.games
        )));
    }
    let path = args.positional(0, "GAME.kif")?.to_string();
    if args.positional.len() > 1 {
        return Err(Fail::usage(format!(
            "unexpected argument `{}` (players go after --players)",
            args.positional[1]
        )));
    }
    if specs_text.is_empty() {
        return Err(Fail::usage("missing --players SPEC SPEC... (e.g. --players alphabeta:heuristic=fuzzy,ms=200 mcts:ms=200)"));
    }
    let (text, mut m) = load_engine(host, &path, &args)?;
    let result =
        play_match(&text, &mut m, &specs_text, &cfg).map_err(super::search::report_fail)?;
    let v = match_json(&path, &m, &cfg, &result);
    if json {
        out.stdout = format!("{v}\n");
        return Ok(EXIT_OK);
    }
    let engine = v
        .as_object()
        .map(super::search::engine_text)
        .unwrap_or_default();
    let s = &mut out.stdout;
    let _ = writeln!(
        s,
        "{path}: {} games, roles {} (rotated), seed {}, engine {engine}",
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
