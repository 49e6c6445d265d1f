//! `gdlkit match GAME.kif --players SPEC SPEC... [--games N] [--seed S]`:
//! a match between players, roles rotated, as text or JSON.

use super::{load_engine, Args, Fail, Host, Output, EXIT_OK};
use crate::search::matches::MatchConfig;
use crate::search::report::{match_json, play_match};
use std::fmt::Write as _;

pub fn run(raw: &[String], host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    // `--players` takes every following word up to the next option.
    let (rest, specs_text) = super::host::take_list(raw, "players");
    let args = Args::parse(&rest, &["verbose"])?;
    args.only(&[
        "games",
        "seed",
        "max-steps",
        "engine",
        "format",
        "seconds",
        "verbose",
    ])?;
    let json = args.json()?;
    let cfg = MatchConfig {
        games: args.number("games", 10)?,
        seed: args.number("seed", 1)?,
        max_steps: args.number("max-steps", 1000)?,
    };
    cfg.check().map_err(|e| Fail::usage(format!("--{e}")))?;
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
    let verbose = if args.flag("verbose") && !json {
        let program = crate::parse_program(&text);
        let st = crate::structure::find(&program, &mut m, crate::structure::DISPLAY_OPTIONS)
            .map_err(|e| Fail::game(e.to_string()))?;
        Some(st.boards)
    } else {
        None
    };
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
    if let Some(boards) = verbose {
        for g in &result.games {
            let players: Vec<&str> = g
                .seats
                .iter()
                .map(|&p| result.players[p].name.as_str())
                .collect();
            let _ = writeln!(
                s,
                "game {}: {} goals {:?} after {} steps",
                g.game + 1,
                players.join(" vs "),
                g.goals,
                g.steps
            );
            s.push_str(&crate::structure::board::text_of(&boards, &g.final_fluents));
        }
    }
    Ok(EXIT_OK)
}
