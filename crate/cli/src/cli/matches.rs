//! `gdlkit match GAME.kif --players SPEC SPEC... [--games N] [--seed S]`:
//! a match between players, roles rotated, as text or JSON. GDL-II games:
//! no player sits at `random` (its moves are drawn from the seed), the JSON
//! records each role's percepts per step and `--verbose` prints them.

use super::options::{EngineArg, FormatArg, SecondsArg};
use super::{load_game, Fail, Host, Output, EXIT_OK};
use crate::search::matches::{MatchConfig, MAX_GAMES};
use crate::search::report::{match_report, play_match};
use crate::structure::board;
use std::fmt::Write as _;

#[derive(clap::Args, Debug)]
#[command(after_help = crate::search::spec_docs::cli_help())]
pub struct MatchArgs {
    /// The game's rules
    #[arg(value_name = "GAME.kif")]
    game: String,
    /// The players, one per role (every word up to the next option)
    #[arg(long, value_name = "SPEC", num_args = 1.., required = true)]
    players: Vec<String>,
    /// Games played (1 to 100000)
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = games,
          allow_negative_numbers = true)]
    games: usize,
    /// The players' seed
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Joint moves per game at most
    #[arg(long, value_name = "N", default_value_t = 1000)]
    max_steps: usize,
    /// Draw the final board of each game
    #[arg(long)]
    verbose: bool,
    #[command(flatten)]
    format: FormatArg,
    #[command(flatten)]
    engine: EngineArg,
    #[command(flatten)]
    pub seconds: SecondsArg,
}

/// GDL-II: what each role perceived at each step, one line per step with
/// percepts (`step 2: candidate sees (opened 3)`).
fn percepts_text(roles: &[String], steps: &[Vec<Vec<String>>]) -> String {
    let mut out = String::new();
    for (i, per_role) in steps.iter().enumerate() {
        let seen: Vec<String> = roles
            .iter()
            .zip(per_role)
            .filter(|(_, ps)| !ps.is_empty())
            .map(|(r, ps)| format!("{r} sees {}", ps.join(" ")))
            .collect();
        if !seen.is_empty() {
            let _ = writeln!(out, "  step {}: {}", i + 1, seen.join("; "));
        }
    }
    out
}

/// `--games N`, checked as the library checks it.
fn games(text: &str) -> Result<usize, String> {
    let games = text
        .parse()
        .map_err(|_| format!("--games {text}: give 1 to {MAX_GAMES} games"))?;
    let cfg = MatchConfig {
        games,
        ..MatchConfig::default()
    };
    cfg.check().map_err(|e| format!("--{e}"))?;
    Ok(games)
}

pub fn run(args: MatchArgs, host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    let json = args.format.json();
    let cfg = MatchConfig {
        games: args.games,
        seed: args.seed,
        max_steps: args.max_steps,
    };
    let path = args.game;
    let (
        _,
        crate::Game {
            program,
            engine: mut m,
        },
    ) = load_game(host, &path, args.engine.choice)?;
    let result =
        play_match(&program, &mut m, &args.players, &cfg).map_err(super::search::report_fail)?;
    let v = serde_json::to_value(match_report(&path, &m, &cfg, &result))
        .map_err(|e| Fail::game(e.to_string()))?;
    let verbose = if args.verbose && !json {
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
                .filter_map(|&p| result.players.get(p).map(|p| p.name.as_str()))
                .collect();
            let _ = writeln!(
                s,
                "game {}: {} goals {:?} after {} steps",
                g.game + 1,
                players.join(" vs "),
                g.goals,
                g.steps
            );
            if let Some(steps) = &g.percepts {
                s.push_str(&percepts_text(&result.roles, steps));
            }
            // The record keeps the final state as text (it is printed).
            let fluents = board::Fluent::of_texts(&g.final_fluents);
            s.push_str(&board::text_of(&boards, &fluents));
        }
    }
    Ok(EXIT_OK)
}
