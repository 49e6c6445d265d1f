//! `gdlkit serve [--port 9147] [--host 127.0.0.1] [--player SPEC]
//! [--engine …] [--margin-ms N] [--log FILE] [--relay URL]`: a GGP player
//! server (protocol in `ggp/`), or with `--relay` a relay that forwards to
//! another player with CORS headers for pages. Natively it binds a socket
//! here; through WebAssembly, the Node CLI (`js/cli.js`) owns the socket
//! and feeds the same [`Session`] (or [`crate::ggp::relay`]).

use super::options::EngineArg;
use super::{Fail, Host, Output};
use crate::ggp::session::{PlayerConfig, Session};
use crate::search::PlayerSpec;

#[derive(clap::Args, Debug)]
#[command(after_help = crate::search::spec_docs::cli_help())]
pub struct ServeArgs {
    /// The port to listen on (0: any free port)
    #[arg(long, default_value_t = 9147)]
    port: u16,
    /// The address to listen on
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// The player, a SPEC as for `gdlkit match`; its time per move is
    /// capped at the play clock minus --margin-ms
    #[arg(long, value_name = "SPEC", default_value = crate::search::DEFAULT_PLAYER, value_parser = player_spec)]
    player: PlayerSpec,
    /// Milliseconds kept back from each clock (0 to 600000)
    #[arg(long, value_name = "MS", default_value_t = 500.0, value_parser = margin_ms,
          allow_negative_numbers = true)]
    margin_ms: f64,
    /// Append the log to FILE instead of stderr
    #[arg(long, value_name = "FILE")]
    log: Option<String>,
    /// The player's name in the protocol's `info` reply
    #[arg(long, default_value = "gdlkit")]
    name: String,
    /// The players' seed
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Never solve the game at START (by default a game small enough to
    /// solve within part of the start clock is played perfectly; a `random`
    /// or `legal` player never solves)
    #[arg(long)]
    no_solve: bool,
    /// Play no game: forward every message to the player at URL and send
    /// its reply back with CORS headers, so that a page (the site's Match
    /// view) can host a match against a player that sends none (Sancho,
    /// ggp-base's players)
    #[arg(long, value_name = "URL", value_parser = relay_url,
          conflicts_with_all = ["player", "margin_ms", "seed", "no_solve", "name"])]
    relay: Option<String>,
    #[command(flatten)]
    engine: EngineArg,
}

fn relay_url(text: &str) -> Result<String, String> {
    crate::ggp::http::split_url(text)
        .map(|_| text.to_string())
        .map_err(|e| e.to_string())
}

fn player_spec(text: &str) -> Result<PlayerSpec, String> {
    text.parse().map(all_cores).map_err(|e| e.to_string())
}

/// Players that search on several threads (`threads=N` or `cores=auto|N`)
/// search on all cores unless the spec says otherwise: a player server has
/// the machine to itself.
fn all_cores(spec: PlayerSpec) -> PlayerSpec {
    let threaded = ["mcts", "mcts-solver", "alphabeta"].contains(&spec.name());
    if threaded && spec.get("threads").is_none() && spec.get("cores").is_none() {
        // `cores=auto` is an option of each of them.
        return spec.with("cores", "auto").unwrap_or(spec);
    }
    spec
}

fn margin_ms(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(ms) if (0.0..=600_000.0).contains(&ms) => Ok(ms),
        _ => Err("--margin-ms must be between 0 and 600000".into()),
    }
}

/// The options of `serve`.
pub struct ServeOptions {
    pub host: String,
    pub port: u16,
    pub log: Option<String>,
    pub player: PlayerConfig,
    /// `--relay URL`: forward to this player instead of playing.
    pub relay: Option<String>,
}

/// The options of `gdlkit serve ARGS…` (the Node server parses them here).
pub fn options(raw: &[String]) -> Result<ServeOptions, Fail> {
    match super::parse_command("serve", raw)? {
        super::Command::Serve(a) => Ok(from_args(a)),
        _ => unreachable!("parsed as serve"),
    }
}

fn from_args(a: ServeArgs) -> ServeOptions {
    ServeOptions {
        host: a.host,
        port: a.port,
        log: a.log,
        relay: a.relay,
        player: PlayerConfig {
            name: a.name,
            spec: a.player,
            engine: a.engine.choice,
            margin_ms: a.margin_ms,
            seed: a.seed,
            solve: !a.no_solve,
        },
    }
}

/// A new session for the options (the Node server uses this too).
pub fn session(o: &ServeOptions) -> Session {
    Session::new(o.player.clone())
}

#[cfg(target_arch = "wasm32")]
pub fn run(_args: ServeArgs, _host: &mut dyn Host, _out: &mut Output) -> Result<i32, Fail> {
    Err(Fail::usage(
        "serve needs a socket: run it natively or with the Node CLI (npx gdlkit serve)",
    ))
}

#[cfg(not(target_arch = "wasm32"))]
pub fn run(args: ServeArgs, _host: &mut dyn Host, _out: &mut Output) -> Result<i32, Fail> {
    use std::io::Write;
    let o = from_args(args);
    let listener = std::net::TcpListener::bind((o.host.as_str(), o.port))
        .map_err(|e| Fail::usage(format!("cannot listen on {}:{}: {e}", o.host, o.port)))?;
    let mut file = match &o.log {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| Fail::usage(format!("cannot open the log {path}: {e}")))?,
        ),
        None => None,
    };
    let mut log = move |line: &str| {
        let line = format!("{}\n", log_line(line));
        match file.as_mut() {
            Some(f) => {
                let _ = f.write_all(line.as_bytes());
            }
            None => {
                let _ = std::io::stderr().write_all(line.as_bytes());
            }
        }
    };
    let addr = listener
        .local_addr()
        .map(|a| a.to_string())
        .unwrap_or_default();
    log(&banner(&o, &addr));
    match &o.relay {
        Some(to) => crate::ggp::net::relay(listener, to, Box::new(log)),
        None => crate::ggp::net::serve(listener, &mut session(&o), Box::new(log)),
    }
    Ok(super::EXIT_OK)
}

/// The first log line (tests read the port from it).
pub fn banner(o: &ServeOptions, addr: &str) -> String {
    match &o.relay {
        Some(to) => format!("gdlkit serve: relay on http://{addr}/ to {to}"),
        None => format!(
            "gdlkit serve: {} player on http://{addr}/ (margin {} ms)",
            o.player.spec.name(),
            o.player.margin_ms
        ),
    }
}

/// A log line with the UTC time of day, `[HH:MM:SS.mmm] line`.
pub fn log_line(line: &str) -> String {
    format!("[{}] {line}", timestamp())
}

fn timestamp() -> String {
    let ms = crate::ggp::manager::epoch_ms() as u64;
    let day = ms % 86_400_000;
    format!(
        "{:02}:{:02}:{:02}.{:03}",
        day / 3_600_000,
        day / 60_000 % 60,
        day / 1000 % 60,
        day % 1000
    )
}
