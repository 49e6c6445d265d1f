//! `gdlkit serve [--port 9147] [--host 127.0.0.1] [--player SPEC]
//! [--engine …] [--margin-ms N] [--log FILE]`: a GGP player server
//! (protocol in `ggp/`). Natively it binds a socket here; through
//! WebAssembly, the Node CLI (`js/cli.js`) owns the socket and feeds the
//! same [`Session`].

use super::{Args, Fail, Host, Output};
use crate::ggp::session::{PlayerConfig, Session};
use crate::search::PlayerSpec;

/// The options of `serve`.
pub struct ServeOptions {
    pub host: String,
    pub port: u16,
    pub log: Option<String>,
    pub player: PlayerConfig,
}

pub fn options(raw: &[String]) -> Result<ServeOptions, Fail> {
    let args = Args::parse(raw, &[])?;
    args.only(&[
        "port",
        "host",
        "player",
        "engine",
        "margin-ms",
        "log",
        "name",
        "seed",
    ])?;
    if let Some(p) = args.positional.first() {
        return Err(Fail::usage(format!("unexpected argument `{p}`")));
    }
    let spec = all_cores(
        args.get("player")
            .unwrap_or("mcts")
            .parse()
            .map_err(Fail::usage)?,
    );
    let engine = args
        .get("engine")
        .unwrap_or("auto")
        .parse()
        .map_err(Fail::usage)?;
    let margin_ms: f64 = args.number("margin-ms", 500.0)?;
    if !(0.0..=600_000.0).contains(&margin_ms) {
        return Err(Fail::usage("--margin-ms must be between 0 and 600000"));
    }
    Ok(ServeOptions {
        host: args.get("host").unwrap_or("127.0.0.1").to_string(),
        port: args.number("port", 9147)?,
        log: args.get("log").map(str::to_string),
        player: PlayerConfig {
            name: args.get("name").unwrap_or("gdlkit").to_string(),
            spec,
            engine,
            margin_ms,
            seed: args.number("seed", 1)?,
        },
    })
}

/// Players that search on several threads (`threads=N` or `cores=auto|N`)
/// search on all cores unless the spec says otherwise: a player server has
/// the machine to itself.
fn all_cores(mut spec: PlayerSpec) -> PlayerSpec {
    let threaded = ["mcts", "alphabeta"].contains(&spec.name.as_str());
    if threaded && spec.get("threads").is_none() && spec.get("cores").is_none() {
        spec.options.push(("cores".into(), "auto".into()));
    }
    spec
}

/// A new session for the options (the Node server uses this too).
pub fn session(o: &ServeOptions) -> Session {
    Session::new(o.player.clone())
}

#[cfg(target_arch = "wasm32")]
pub fn run(raw: &[String], _host: &mut dyn Host, _out: &mut Output) -> Result<i32, Fail> {
    options(raw)?;
    Err(Fail::usage(
        "serve needs a socket: run it natively or with the Node CLI (npx gdlkit serve)",
    ))
}

#[cfg(not(target_arch = "wasm32"))]
pub fn run(raw: &[String], _host: &mut dyn Host, _out: &mut Output) -> Result<i32, Fail> {
    use std::io::Write;
    let o = options(raw)?;
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
    log(&format!(
        "gdlkit serve: {} player on http://{addr}/ (margin {} ms)",
        o.player.spec.name, o.player.margin_ms
    ));
    crate::ggp::net::serve(listener, &mut session(&o), Box::new(log));
    Ok(super::EXIT_OK)
}

/// The first log line (tests read the port from it).
pub fn banner(o: &ServeOptions, addr: &str) -> String {
    format!(
        "gdlkit serve: {} player on http://{addr}/ (margin {} ms)",
        o.player.spec.name, o.player.margin_ms
    )
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
