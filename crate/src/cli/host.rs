//! `gdlkit host GAME.kif --players URL URL… [--startclock S] [--playclock S]
//! [--matches N] [--rotate] [--out DIR] [--format text|json]`: a game
//! manager like ggp-base's `GameServer` (the match rules are
//! `ggp::manager`; here the sockets, the files and the summary table).

use super::{Args, Fail, Host, Output};
use crate::ggp::manager::{standings, GameMatch, MatchSetup, Standing};
use serde_json::{json, Value};
use std::fmt::Write as _;

/// Splits `--NAME a b c` (every word up to the next option) out of `raw`:
/// the remaining arguments and the words.
pub fn take_list(raw: &[String], name: &str) -> (Vec<String>, Vec<String>) {
    let (flag, prefix) = (format!("--{name}"), format!("--{name}="));
    let (mut rest, mut words) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == flag {
            i += 1;
            while i < raw.len() && !raw[i].starts_with("--") {
                words.push(raw[i].clone());
                i += 1;
            }
            continue;
        }
        match raw[i].strip_prefix(&prefix) {
            Some(v) => words.push(v.to_string()),
            None => rest.push(raw[i].clone()),
        }
        i += 1;
    }
    (rest, words)
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

pub fn options(raw: &[String]) -> Result<HostOptions, Fail> {
    let (rest, players) = take_list(raw, "players");
    let args = Args::parse(&rest, &["rotate"])?;
    args.only(&[
        "startclock",
        "playclock",
        "matches",
        "rotate",
        "out",
        "format",
        "seed",
        "max-steps",
        "engine",
    ])?;
    let game = args.positional(0, "GAME.kif")?.to_string();
    if let Some(p) = args.positional.get(1) {
        return Err(Fail::usage(format!(
            "unexpected argument `{p}` (player URLs go after --players)"
        )));
    }
    if players.is_empty() {
        return Err(Fail::usage(
            "missing --players URL URL… (e.g. --players http://127.0.0.1:9147 http://127.0.0.1:9148)",
        ));
    }
    for p in &players {
        crate::ggp::http::split_url(p).map_err(Fail::usage)?;
    }
    let o = HostOptions {
        game,
        players,
        start_clock: args.number("startclock", 10)?,
        play_clock: args.number("playclock", 5)?,
        matches: args.number("matches", 1)?,
        rotate: args.flag("rotate"),
        out: args.get("out").map(str::to_string),
        json: args.json()?,
        seed: args.number("seed", 1)?,
        max_steps: args.number("max-steps", 1000)?,
        engine: args
            .get("engine")
            .unwrap_or("auto")
            .parse()
            .map_err(Fail::usage)?,
    };
    if o.play_clock == 0 || o.start_clock == 0 {
        return Err(Fail::usage("the clocks are whole seconds, at least 1"));
    }
    Ok(o)
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
pub fn run(raw: &[String], _host: &mut dyn Host, _out: &mut Output) -> Result<i32, Fail> {
    options(raw)?;
    Err(Fail::usage(
        "host needs sockets: run it natively or with the Node CLI (npx gdlkit host)",
    ))
}

#[cfg(not(target_arch = "wasm32"))]
pub fn run(raw: &[String], host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    use crate::ggp::manager::epoch_ms;
    use std::io::Write;
    let o = options(raw)?;
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
