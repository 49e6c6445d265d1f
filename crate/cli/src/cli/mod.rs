//! The command-line tool, as a library function so the native binary and the
//! Node CLI (through WebAssembly) run the same code and print the same output.
//! File access and the terminal go through [`Host`].

mod analyze;
mod args;
mod bench;
mod check;
mod completions;
mod explain;
mod export;
mod fetch;
mod fmt;
mod games;
mod ground;
mod matches;
mod options;
mod play;
mod replay;
mod search;
mod solve;
// GGP protocol: player server and game manager.
pub mod host;
pub mod serve;
mod structure;

pub use args::{command, parse_command, Cli, Command};
use std::fmt::Write as _;

/// What the CLI needs from its environment.
pub trait Host {
    fn read_file(&mut self, path: &str) -> Result<String, String>;
    fn write_file(&mut self, path: &str, content: &str) -> Result<(), String>;
    /// Whether stdout is a terminal (for colour).
    fn stdout_is_terminal(&self) -> bool;
}

/// Files in memory, keyed by path: a host for tests and for embedding the
/// CLI where there is no file system. Nothing is a terminal.
#[derive(Debug, Default)]
pub struct MemoryHost(pub std::collections::HashMap<String, String>);

impl MemoryHost {
    /// A host holding these files.
    pub fn with<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> MemoryHost {
        MemoryHost(
            files
                .into_iter()
                .map(|(p, t)| (p.to_string(), t.to_string()))
                .collect(),
        )
    }
}

impl Host for MemoryHost {
    fn read_file(&mut self, path: &str) -> Result<String, String> {
        self.0
            .get(path)
            .cloned()
            .ok_or_else(|| "No such file".into())
    }
    fn write_file(&mut self, path: &str, content: &str) -> Result<(), String> {
        self.0.insert(path.to_string(), content.to_string());
        Ok(())
    }
    fn stdout_is_terminal(&self) -> bool {
        false
    }
}

/// Output of one CLI run.
#[derive(Debug, Default)]
pub struct Output {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

/// Exit codes: 0 fine, 1 diagnostics with errors (or a failed check), 2 usage
/// or I/O error.
pub const EXIT_OK: i32 = 0;
pub const EXIT_DIAGNOSTICS: i32 = 1;
pub const EXIT_USAGE: i32 = 2;

/// An error that ends the command: a message for stderr and an exit code.
pub struct Fail {
    pub code: i32,
    pub message: String,
}

impl Fail {
    // Display: a message or any of the libraries' errors.
    pub fn usage(message: impl std::fmt::Display) -> Fail {
        Fail {
            code: EXIT_USAGE,
            message: message.to_string(),
        }
    }
    pub fn game(message: impl std::fmt::Display) -> Fail {
        Fail {
            code: EXIT_DIAGNOSTICS,
            message: message.to_string(),
        }
    }
}

/// Runs the CLI with `args` (without the program name).
pub fn run(args: &[String], host: &mut dyn Host) -> Output {
    let mut out = Output::default();
    let args::Parsed { cli, name, matches } = match args::parse(args) {
        Ok(parsed) => parsed,
        Err(e) => {
            // Help and version go to stdout with exit 0, usage errors
            // (with clap's suggestion) to stderr with exit 2.
            let text = e.to_string();
            if e.use_stderr() {
                out.stderr = text;
                out.code = EXIT_USAGE;
            } else {
                out.stdout = text;
                out.code = EXIT_OK;
            }
            return out;
        }
    };
    // Every command that runs a game is one job with a time limit
    // (`docs/limits.md`): the evaluators stop inside a state that takes too
    // long, after the command's own deadline had its chance.
    let (limit_ms, grace_ms) = job_limit_ms(&name, &matches);
    let result = crate::memory::with_budget_mb(cli.memory, || {
        crate::job::scope_with_grace(limit_ms, grace_ms, || {
            run_command(cli.command, host, &mut out)
        })
    });
    match result {
        Ok(code) => out.code = code,
        Err(f) => {
            let _ = writeln!(out.stderr, "gdlkit {name}: {}", f.message.trim_end());
            out.code = f.code;
        }
    }
    out
}

/// Default time limits in seconds of the commands that run games (their
/// `--seconds` overrides them).
pub const DEFAULT_SECONDS: [(&str, f64); 10] = [
    ("play", 60.0),
    ("replay", 60.0),
    ("bench", 5.0),
    ("search", 60.0),
    ("match", 600.0),
    ("analyze", 60.0),
    ("explain", 60.0),
    ("structure", 60.0),
    ("solve", 60.0),
    // The grounding budget (`ground::Budget`).
    ("ground", 20.0),
];

/// The default of `--seconds` for `command`.
pub fn default_seconds(command: &str) -> f64 {
    DEFAULT_SECONDS
        .iter()
        .find(|(c, _)| *c == command)
        .map_or(f64::INFINITY, |(_, s)| *s)
}

/// The job's time limit, `--seconds` (or the command's default), and a
/// grace period after it in which commands with a deadline of their own
/// finish cleanly with what they have, in milliseconds.
fn job_limit_ms(name: &str, matches: &clap::ArgMatches) -> (f64, f64) {
    if !DEFAULT_SECONDS.iter().any(|(c, _)| *c == name) {
        return (f64::INFINITY, 0.0);
    }
    let given = matches.try_get_one::<f64>("seconds").ok().flatten();
    let bench_count = name == "bench" && matches.try_get_raw("playouts").ok().flatten().is_some();
    let seconds = given.copied().unwrap_or(if bench_count {
        bench::SECONDS_FOR_A_COUNT
    } else {
        default_seconds(name)
    });
    (seconds * 1000.0, (seconds * 100.0).clamp(1000.0, 10_000.0))
}

fn run_command(command: Command, host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    match command {
        Command::Check(a) => check::run(a, host, out),
        Command::Fmt(a) => fmt::run(a, host, out),
        Command::Replay(a) => replay::run(a, host, out),
        Command::Play(a) => play::run(a, host, out),
        Command::Bench(a) => bench::run(a, host, out),
        Command::Search(a) => search::run(a, host, out),
        Command::Match(a) => matches::run(a, host, out),
        Command::Analyze(a) => analyze::run(a, host, out),
        Command::Serve(a) => serve::run(a, host, out),
        Command::Host(a) => host::run(a, host, out),
        Command::Export(a) => export::run(a, host, out),
        Command::Explain(a) => explain::run(a, host, out),
        Command::Structure(a) => structure::run(a, host, out),
        Command::Solve(a) => solve::run(a, host, out),
        Command::Ground(a) => ground::run(a, host, out),
        Command::Games(a) => games::run(a, out),
        Command::FetchGame(a) => fetch::run(a, host, out),
        Command::Completions(a) => completions::run(a, out),
    }
}

/// Reads a game: the file `path`, or when there is no such file, the
/// library game of that name (`gdlkit play reversi`, `gdlkit::library`).
pub fn read_game(host: &mut dyn Host, path: &str) -> Result<String, Fail> {
    let error = match host.read_file(path) {
        Ok(text) => return Ok(text),
        Err(e) => e,
    };
    if let Some(text) = crate::library::text(path) {
        return Ok(text.to_string());
    }
    let bare = !path.contains(['/', '\\', '.']);
    Err(Fail::usage(if bare {
        format!("cannot read {path}: {error}; no library game has that name either (`gdlkit games` lists them)")
    } else {
        format!("cannot read {path}: {error}")
    }))
}

/// Reads a game and builds the engine chosen by `--engine`, keeping the
/// parsed program with it (for the commands that read the rules:
/// heuristics, players, boards).
pub fn load_game(
    host: &mut dyn Host,
    path: &str,
    choice: crate::EngineChoice,
) -> Result<(String, crate::Game), Fail> {
    load_game_within(host, path, choice, f64::INFINITY)
}

/// [`load_game`] where grounding may take at most `grounding_ms` (then
/// `--engine auto` runs the interpreter): `analyze` and `solve` keep most
/// of their time limit for their own work.
pub fn load_game_within(
    host: &mut dyn Host,
    path: &str,
    choice: crate::EngineChoice,
    grounding_ms: f64,
) -> Result<(String, crate::Game), Fail> {
    let text = read_checked(host, path)?;
    let mut budget = crate::ground::Budget::default();
    budget.max_ms = budget.max_ms.min(grounding_ms);
    match crate::Game::load_with(&text, choice, budget) {
        Ok(g) => Ok((text, g)),
        Err(diags) => {
            let rendered = crate::diagnostic::render(&diags, path, &text, false);
            Err(Fail::game(format!("{path} has errors:\n{rendered}")))
        }
    }
}

/// Reads a game that `check` passes: what `check` rejects, no command
/// runs (the exit codes agree), and the error lists its diagnostics.
pub fn read_checked(host: &mut dyn Host, path: &str) -> Result<String, Fail> {
    let text = read_game(host, path)?;
    let diags = crate::check_text(&text);
    if crate::diagnostic::has_errors(&diags) {
        let errors: Vec<_> = diags
            .into_iter()
            .filter(|d| d.severity == crate::Severity::Error)
            .collect();
        let rendered = crate::diagnostic::render(&errors, path, &text, false);
        return Err(Fail::game(format!("{path} has errors:\n{rendered}")));
    }
    Ok(text)
}
