//! `gdlkit host GAME.kif --players URL URL… [--start-clock S] [--play-clock S]
//! [--matches N] [--rotate] [--out DIR] [--format text|json]`: a game
//! manager like ggp-base's `GameServer` (the match rules are
//! `ggp::manager`; here the sockets, the files and the summary table).

use super::options::{EngineArg, FormatArg};
use super::{Fail, Host, Output};
use crate::ggp::manager::{standings, GameMatch, MatchSetup, Standing};
use serde_json::{json, Value};
use std::fmt::Write as _;

#[derive(clap::Args, Debug)]
pub struct HostArgs {
    /// The game's rules
    #[arg(value_name = "GAME.kif")]
    game: String,
    /// The player servers, one per role (every word up to the next option)
    #[arg(long, value_name = "URL", num_args = 1.., required = true, value_parser = player_url)]
    players: Vec<String>,
    /// Seconds before the first move (whole seconds, at least 1)
    #[arg(long, visible_alias = "startclock", value_name = "S", default_value_t = 10,
          value_parser = clock_seconds)]
    start_clock: u64,
    /// Seconds per move (whole seconds, at least 1)
    #[arg(long, visible_alias = "playclock", value_name = "S", default_value_t = 5,
          value_parser = clock_seconds)]
    play_clock: u64,
    /// Matches played
    #[arg(long, value_name = "N", default_value_t = 1)]
    matches: usize,
    /// Rotate the players over the roles from match to match
    #[arg(long)]
    rotate: bool,
    /// Write each match's ggp.org JSON into DIR
    #[arg(long, value_name = "DIR")]
    out: Option<String>,
    /// The seed of the first match (the next ones count up)
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Joint moves per match at most
    #[arg(long, value_name = "N", default_value_t = 1000)]
    max_steps: usize,
    #[command(flatten)]
    format: FormatArg,
    #[command(flatten)]
    engine: EngineArg,
}

fn clock_seconds(text: &str) -> Result<u64, String> {
    match text.parse() {
        Ok(s) if s >= 1 => Ok(s),
        _ => Err("the clocks are whole seconds, at least 1".into()),
    }
}

fn player_url(text: &str) -> Result<String, String> {
    crate::ggp::http::split_url(text).map_err(|e| e.to_string())?;
    Ok(text.to_string())
}

/// The options of `host`.
pub struct HostOptions {
    pub game: String,
    pub players: Vec<String>,
    pub start_clock: u64,
    pub play_clock: u64,
    pub matches: usize,
    pub rotate: bool,
    pub out: Option<String>,
    pub json: bool,
    pub seed: u64,
    pub max_steps: usize,
    pub engine: crate::EngineChoice,
}

/// The options of `gdlkit host ARGS…` (the Node manager parses them here).
pub fn options(raw: &[String]) -> Result<HostOptions, Fail> {
    match super::parse_command("host", raw)? {
        super::Command::Host(a) => Ok(from_args(a)),
        _ => unreachable!("parsed as host"),
    }
}

fn from_args(a: HostArgs) -> HostOptions {
    HostOptions {
        game: a.game,
        players: a.players,
        start_clock: a.start_clock,
        play_clock: a.play_clock,
        matches: a.matches,
        rotate: a.rotate,
        out: a.out,
        json: a.format.json(),
        seed: a.seed,
        max_steps: a.max_steps,
        engine: a.engine.choice,
    }
}

/// The setup of match `g` (from 0): with `--rotate`, player `i` plays role
/// `(i + g) mod n`.
pub fn setup(o: &HostOptions, g: usize, start_time: f64) -> MatchSetup {
    let n = o.players.len();
    let players = (0..n)
        .map(|r| {
            let p = if o.rotate { (r + n - g % n) % n } else { r };
            o.players[p].clone()
        })
        .collect();
    let stem = std::path::Path::new(&o.game)
        .file_stem()
        .map_or("game".into(), |s| s.to_string_lossy().into_owned());
    MatchSetup {
        match_id: format!("gdlkit.{stem}.{}.{}", start_time as u64, g + 1),
        start_clock: o.start_clock,
        play_clock: o.play_clock,
        players,
        seed: o.seed.wrapping_add(g as u64),
        max_steps: o.max_steps,
        start_time,
    }
}

/// The summary table (text) or the JSON of all matches and standings.
pub fn report(matches: &[&GameMatch], json: bool) -> String {
    let table = standings(matches);
    if json {
        let v: Value = json!({
            "matches": matches.iter().map(|m| m.to_json()).collect::<Vec<_>>(),
            "standings": table,
        });
        return format!("{v}\n");
    }
    summary(matches.len(), &table)
}

fn summary(n: usize, table: &[Standing]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{n} match{}", if n == 1 { "" } else { "es" });
    let _ = writeln!(
        s,
        "{:<36} {:>7} {:>5} {:>5} {:>6} {:>9} {:>6}",
        "player", "matches", "wins", "draws", "losses", "mean goal", "errors"
    );
    for p in table {
        let _ = writeln!(
            s,
            "{:<36} {:>7} {:>5} {:>5} {:>6} {:>9.1} {:>6}",
            p.player, p.matches, p.wins, p.draws, p.losses, p.mean_goal, p.errors
        );
    }
    s
}

/// The stderr line that opens match `g`.
pub fn header(m: &GameMatch, g: usize, total: usize) -> String {
    let seats: Vec<String> = m
        .roles
        .iter()
        .zip(&m.setup.players)
        .map(|(r, p)| format!("{r}={p}"))
        .collect();
    format!(
        "match {} of {total}: {} ({})\n",
        g + 1,
        m.setup.match_id,
        seats.join(" ")
    )
}

/// The stderr lines after a phase: new events, the last joint move.
pub fn progress(m: &GameMatch, seen: &mut usize) -> String {
    let mut s = String::new();
    for e in &m.events[(*seen).min(m.events.len())..] {
        let _ = writeln!(s, "  {e}");
    }
    *seen = m.events.len();
    if let Some(jm) = m.moves.last().filter(|_| m.phase() != "done") {
        let _ = writeln!(s, "  {:>3}. {}", m.moves.len(), jm.join("  "));
    }
    s
}

/// The stderr line that closes a match.
pub fn footer(m: &GameMatch) -> String {
    format!(
        "  goals: {:?}{}\n",
        m.goal_values,
        if m.aborted { " (aborted)" } else { "" }
    )
}

#[cfg(target_arch = "wasm32")]
pub fn run(_args: HostArgs, _host: &mut dyn Host, _out: &mut Output) -> Result<i32, Fail> {
    Err(Fail::usage(
        "host needs sockets: run it natively or with the Node CLI (npx gdlkit host)",
    ))
}

#[cfg(not(target_arch = "wasm32"))]
pub fn run(args: HostArgs, host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    use crate::ggp::manager::epoch_ms;
    use std::io::Write;
    let o = from_args(args);
    let rules = super::read_game(host, &o.game)?;
    if let Some(dir) = &o.out {
        std::fs::create_dir_all(dir)
            .map_err(|e| Fail::usage(format!("cannot create {dir}: {e}")))?;
    }
    let mut done: Vec<GameMatch> = Vec::new();
    for g in 0..o.matches {
        let mut m = GameMatch::new(&rules, o.engine, setup(&o, g, epoch_ms()))
            .map_err(|e| Fail::game(format!("{}: {e}", o.game)))?;
        let mut err = std::io::stderr();
        let _ = err.write_all(header(&m, g, o.matches).as_bytes());
        let mut seen = 0;
        crate::ggp::net::run_match(&mut m, &mut |m| {
            let _ = std::io::stderr().write_all(progress(m, &mut seen).as_bytes());
        })
        .map_err(Fail::game)?;
        let _ = err.write_all(footer(&m).as_bytes());
        if let Some(dir) = &o.out {
            let path = format!("{dir}/{}.json", m.setup.match_id);
            host.write_file(&path, &format!("{:#}\n", m.to_json()))
                .map_err(|e| Fail::usage(format!("cannot write {path}: {e}")))?;
        }
        // Ctrl-C (the binary's one handler cancels the job) aborted it.
        let stop = m.aborted && crate::job::cancelled();
        done.push(m);
        if stop {
            break;
        }
    }
    let refs: Vec<&GameMatch> = done.iter().collect();
    out.stdout = report(&refs, o.json);
    Ok(super::EXIT_OK)
}
