//! The command-line tool, as a library function so the native binary and the
//! Node CLI (through WebAssembly) run the same code and print the same output.
//! File access and the terminal go through [`Host`].

mod analyze;
mod bench;
mod check;
mod explain;
mod export;
mod fetch;
mod fmt;
mod matches;
mod play;
mod replay;
mod search;
mod solve;
// GGP protocol: player server and game manager.
pub mod host;
pub mod serve;
mod structure;

use std::fmt::Write as _;

/// What the CLI needs from its environment.
pub trait Host {
    fn read_file(&mut self, path: &str) -> Result<String, String>;
    fn write_file(&mut self, path: &str, content: &str) -> Result<(), String>;
    /// Whether stdout is a terminal (for colour).
    fn stdout_is_terminal(&self) -> bool;
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

pub const USAGE: &str = "\
gdlkit: General Game Playing toolkit for GDL (Game Description Language)

Usage:
  gdlkit check GAME.kif [--fix [--unsafe-fixes]] [--format text|json]
  gdlkit fmt GAME.kif [--write | --check]
  gdlkit replay GAME.kif MOVES.json [--engine auto|interpreter|fast]
  gdlkit play GAME.kif [--seed N] [--max-steps N] [--verbose] [--format text|json] [--engine auto|interpreter|fast]
  gdlkit bench GAME.kif [--seconds S | --playouts N] [--seed N] [--engine auto|interpreter|fast]
  gdlkit search (GAME.kif | --tree '((3 12 8) (2 4 6) (14 5 2))') [--algorithm minimax|alphabeta|best-first|mcts]
         [--depth N] [--budget-ms N] [--nodes N] [--role ROLE] [--heuristic H] [--trace] [--format text|json]
         [--engine auto|interpreter|fast]
  gdlkit match GAME.kif --players SPEC SPEC... [--games N] [--seed S] [--max-steps N] [--verbose] [--format text|json]
         [--engine auto|interpreter|fast]
         SPEC: random | legal | minimax | alphabeta | bestfirst | mcts | coolerjo | ensemble, options after a colon,
         e.g. alphabeta:heuristic=fuzzy,ms=200  mcts:ms=200  ensemble:workers=4,ms=200 (heuristics: fuzzy,
         mobility, inverse-mobility, novelty, none, fjo, hff, hadd, hmax, feature:NAME:max|min;
         default budget 1000 ms per move)
         --verbose draws the final board of each game
  gdlkit analyze GAME.kif [--budget N] [--playouts N] [--depth D] [--seed N] [--seconds S] [--format text|json] [--engine auto|interpreter|fast]
      prove (up to --budget states, default 2000000) or sample (--playouts random
      playouts of depth <= --depth) termination, playability, goals, monotonicity
      and winnability; --seconds stops early; exit 1 when the game is not well-formed
  gdlkit serve [--port 9147] [--host 127.0.0.1] [--player SPEC] [--engine E] [--margin-ms 500] [--log FILE]
      a GGP player server (the Stanford/ggp-base HTTP protocol); SPEC as for match
      (default mcts), its time per move capped at the play clock minus the margin
  gdlkit host GAME.kif --players URL URL... [--startclock 10] [--playclock 5] [--matches N] [--rotate]
         [--out DIR] [--format text|json] [--seed N] [--engine E]
      a GGP game manager: matches between player servers, ggp.org match JSON in DIR,
      a summary table (wins, draws, losses, mean goal, errors per player)
  gdlkit export (GAME.kif | --tree '((3 12 8) (2 4 6) (14 5 2))') [--view tree|play] [--out FILE]
      one self-contained .html (engine, wasm and game inlined) that works offline
      from disk; `gdlkit export --help` lists the view's options
  gdlkit explain GAME.kif [--moves MOVES.json] [--role R] [--heuristic fjo|hff|hadd|hmax|fuzzy|...] [--format text|json]
      every legal move's value in a position; for the planning heuristics (thesis f_JO)
      the relaxed-plan distances and plans to each goal value
  gdlkit games [--format text|json]
      the game library: each name works wherever GAME.kif does (gdlkit play reversi)
  gdlkit fetch-game [KEY] [--repo URL] [--out FILE] [--format text|json] [--seconds 10]
      a game of a GGP repository (ggp-base layout; default http://games.ggp.org/base/):
      without KEY the repository's keys, with KEY its rules
  gdlkit structure GAME.kif [--seed N] [--states N] [--ms T] [--format text|json] [--engine auto|interpreter|fast]
      boards, pieces, markers, counters, quantities, successors, orders, turn-taking,
      teams and the feature names (heuristics feature:NAME:max|min), from the rules
      and --states sampled states (default 1000, at most --ms ms, default 5000)

  gdlkit solve GAME.kif [--seconds S] [--max-states N] [--out FILE] [--format text|json] [--engine auto|interpreter|fast]
      every reachable state's value under perfect play (one role: best plan; two roles
      taking turns: minimax, docs/solve.md); the initial state's value, states by value,
      states/s and bytes/state; --out writes the solution file; exit 1 when partial

--engine: `fast` grounds the game into a propositional network (an error if
it does not ground within budget), `interpreter` runs the reference
interpreter, `auto` (default) is fast when the game grounds, else the
interpreter.

--seconds S: the time limit of play, replay, bench, search, match, analyze,
explain, structure and solve (defaults 60, 60, 5, 60, 600, 60, 60, 60, 60; every limit:
docs/limits.md). --memory MB: the memory budget of any command (default
4096 or 3/4 of the machine's memory). Progress goes
to stderr when it is a terminal; Ctrl-C stops with what was found.

Exit codes: 0 fine, 1 errors in the game (or an illegal move), 2 usage or I/O error.
";

/// An error that ends the command: a message for stderr and an exit code.
pub struct Fail {
    pub code: i32,
    pub message: String,
}

impl Fail {
    pub fn usage(message: impl Into<String>) -> Fail {
        Fail {
            code: EXIT_USAGE,
            message: message.into(),
        }
    }
    pub fn game(message: impl Into<String>) -> Fail {
        Fail {
            code: EXIT_DIAGNOSTICS,
            message: message.into(),
        }
    }
}

enum Tok {
    Long(String),
    Short(char),
    Value(String),
}

/// Parsed arguments: positionals and `--name value` options.
pub struct Args {
    pub positional: Vec<String>,
    options: Vec<(String, Option<String>)>,
}

impl Args {
    /// Parses with `flags` naming options that take no value.
    pub fn parse(raw: &[String], flags: &[&str]) -> Result<Args, Fail> {
        let mut parser = lexopt::Parser::from_args(raw.iter().cloned());
        let mut args = Args {
            positional: Vec::new(),
            options: Vec::new(),
        };
        loop {
            let arg = match parser.next().map_err(|e| Fail::usage(e.to_string()))? {
                None => break,
                Some(lexopt::Arg::Long(name)) => Tok::Long(name.to_string()),
                Some(lexopt::Arg::Short(c)) => Tok::Short(c),
                Some(lexopt::Arg::Value(v)) => Tok::Value(v.to_string_lossy().into_owned()),
            };
            match arg {
                Tok::Long(name) => {
                    if flags.contains(&name.as_str()) {
                        args.options.push((name, None));
                    } else {
                        let v = parser
                            .value()
                            .map_err(|e| Fail::usage(format!("--{name}: {e}")))?;
                        args.options
                            .push((name, Some(v.to_string_lossy().into_owned())));
                    }
                }
                Tok::Short(c) => return Err(Fail::usage(format!("unknown option -{c}"))),
                Tok::Value(v) => args.positional.push(v),
            }
        }
        Ok(args)
    }

    pub fn flag(&self, name: &str) -> bool {
        self.options.iter().any(|(n, _)| n == name)
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    pub fn number<T: std::str::FromStr>(&self, name: &str, default: T) -> Result<T, Fail> {
        match self.get(name) {
            None => Ok(default),
            Some(v) => v
                .parse()
                .map_err(|_| Fail::usage(format!("--{name} expects a number, got `{v}`"))),
        }
    }

    /// Rejects options not in `known`.
    pub fn only(&self, known: &[&str]) -> Result<(), Fail> {
        match self
            .options
            .iter()
            .find(|(n, _)| !known.contains(&n.as_str()))
        {
            Some((n, _)) => Err(Fail::usage(format!("unknown option --{n}"))),
            None => Ok(()),
        }
    }

    pub fn positional(&self, i: usize, what: &str) -> Result<&str, Fail> {
        self.positional
            .get(i)
            .map(String::as_str)
            .ok_or_else(|| Fail::usage(format!("missing {what}")))
    }

    /// `--seconds S` (a finite number > 0; `inf`, `-1`, `NaN` are refused).
    pub fn seconds(&self, default: f64) -> Result<f64, Fail> {
        match self.get("seconds") {
            None => Ok(default),
            Some(v) => crate::job::parse_seconds(v).map_err(Fail::usage),
        }
    }

    /// `--format text|json`.
    pub fn json(&self) -> Result<bool, Fail> {
        match self.get("format").unwrap_or("text") {
            "text" => Ok(false),
            "json" => Ok(true),
            other => Err(Fail::usage(format!(
                "--format must be `text` or `json`, got `{other}`"
            ))),
        }
    }
}

/// Runs the CLI with `args` (without the program name).
pub fn run(args: &[String], host: &mut dyn Host) -> Output {
    let mut out = Output::default();
    let Some(command) = args.first() else {
        out.stderr = USAGE.to_string();
        out.code = EXIT_USAGE;
        return out;
    };
    // `--memory MB`: the memory budget of every command (crate::memory).
    let (rest, memory_mb) = match crate::memory::take_option(&args[1..]) {
        Ok(taken) => taken,
        Err(e) => {
            let _ = writeln!(out.stderr, "gdlkit {command}: {e}");
            out.code = EXIT_USAGE;
            return out;
        }
    };
    let rest = &rest[..];
    // Every command that runs a game is one job with a time limit
    // (`docs/limits.md`): the evaluators stop inside a state that takes too
    // long, after the command's own deadline had its chance.
    let (limit_ms, grace_ms) = match job_limit_ms(command, rest) {
        Ok(ms) => ms,
        Err(f) => {
            let _ = writeln!(out.stderr, "gdlkit {command}: {}", f.message.trim_end());
            out.code = f.code;
            return out;
        }
    };
    let result = crate::memory::with_budget_mb(memory_mb, || {
        crate::job::scope_with_grace(limit_ms, grace_ms, || {
            run_command(command, rest, host, &mut out)
        })
    });
    match result {
        Ok(code) => out.code = code,
        Err(f) => {
            let _ = writeln!(out.stderr, "gdlkit {command}: {}", f.message.trim_end());
            out.code = f.code;
        }
    }
    out
}

/// Default time limits in seconds of the commands that run games (their
/// `--seconds` overrides them).
pub const DEFAULT_SECONDS: [(&str, f64); 9] = [
    ("play", 60.0),
    ("replay", 60.0),
    ("bench", 5.0),
    ("search", 60.0),
    ("match", 600.0),
    ("analyze", 60.0),
    ("explain", 60.0),
    ("structure", 60.0),
    ("solve", 60.0),
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
fn job_limit_ms(command: &str, rest: &[String]) -> Result<(f64, f64), Fail> {
    let Some(&(_, default)) = DEFAULT_SECONDS.iter().find(|(c, _)| *c == command) else {
        return Ok((f64::INFINITY, 0.0));
    };
    let flags = ["trace", "write", "check", "verbose"];
    let seconds = match Args::parse(rest, &flags) {
        Ok(a) if command == "bench" => a.seconds(bench::default_seconds(&a))?,
        Ok(a) => a.seconds(default)?,
        Err(_) => default, // the command reports its own usage error
    };
    Ok((seconds * 1000.0, (seconds * 100.0).clamp(1000.0, 10_000.0)))
}

fn run_command(
    command: &str,
    rest: &[String],
    host: &mut dyn Host,
    out: &mut Output,
) -> Result<i32, Fail> {
    match command {
        "check" => check::run(rest, host, out),
        "fmt" => fmt::run(rest, host, out),
        "replay" => replay::run(rest, host, out),
        "play" => play::run(rest, host, out),
        "bench" => bench::run(rest, host, out),
        "search" => search::run(rest, host, out),
        "match" => matches::run(rest, host, out),
        "analyze" => analyze::run(rest, host, out),
        "serve" => serve::run(rest, host, out),
        "host" => host::run(rest, host, out),
        "export" => export::run(rest, host, out),
        "explain" => explain::run(rest, host, out),
        "structure" => structure::run(rest, host, out),
        "solve" => solve::run(rest, host, out),
        "games" => games(rest, out),
        "fetch-game" => fetch::run(rest, host, out),
        "help" | "--help" | "-h" => {
            out.stdout = USAGE.to_string();
            Ok(EXIT_OK)
        }
        other => Err(Fail::usage(format!("unknown command `{other}`\n\n{USAGE}"))),
    }
}

/// `gdlkit games [--format text|json]`: the library's games.
fn games(raw: &[String], out: &mut Output) -> Result<i32, Fail> {
    let args = Args::parse(raw, &[])?;
    args.only(&["format"])?;
    let games = crate::library::games();
    if args.json()? {
        out.stdout = format!(
            "{}\n",
            serde_json::to_string_pretty(&games).expect("serialisable")
        );
        return Ok(EXIT_OK);
    }
    for g in &games {
        let category = g.header.category.as_deref().unwrap_or("");
        let _ = writeln!(
            out.stdout,
            "{:<24} {:<13} {}",
            g.name, category, g.header.title
        );
    }
    Ok(EXIT_OK)
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

/// Reads a game and builds the engine chosen by `--engine` (default auto).
pub fn load_engine(
    host: &mut dyn Host,
    path: &str,
    args: &Args,
) -> Result<(String, crate::Engine), Fail> {
    load_engine_within(host, path, args, f64::INFINITY)
}

/// [`load_engine`] where grounding may take at most `grounding_ms` (then
/// `--engine auto` runs the interpreter): `analyze` keeps most of its time
/// limit for exploring and playouts.
pub fn load_engine_within(
    host: &mut dyn Host,
    path: &str,
    args: &Args,
    grounding_ms: f64,
) -> Result<(String, crate::Engine), Fail> {
    let choice: crate::EngineChoice = args
        .get("engine")
        .unwrap_or("auto")
        .parse()
        .map_err(Fail::usage)?;
    let text = read_game(host, path)?;
    // What `check` rejects, no command runs (the exit codes agree).
    let diags = crate::check_text(&text);
    if crate::diagnostic::has_errors(&diags) {
        let errors: Vec<_> = diags
            .into_iter()
            .filter(|d| d.severity == crate::Severity::Error)
            .collect();
        let rendered = crate::diagnostic::render(&errors, path, &text, false);
        return Err(Fail::game(format!("{path} has errors:\n{rendered}")));
    }
    let mut budget = crate::ground::Budget::default();
    budget.max_ms = budget.max_ms.min(grounding_ms);
    match crate::engine::load_engine_with(&text, choice, budget) {
        Ok(g) => Ok((text, g)),
        Err(diags) => {
            let rendered = crate::diagnostic::render(&diags, path, &text, false);
            Err(Fail::game(format!("{path} has errors:\n{rendered}")))
        }
    }
}

/// Reads and loads a game; on errors, prints the diagnostics.
pub fn load(host: &mut dyn Host, path: &str) -> Result<(String, crate::Interpreter), Fail> {
    let text = read_game(host, path)?;
    match crate::load_game(&text) {
        Ok(g) => Ok((text, g)),
        Err(diags) => {
            let rendered = crate::diagnostic::render(&diags, path, &text, false);
            Err(Fail::game(format!("{path} has errors:\n{rendered}")))
        }
    }
}
