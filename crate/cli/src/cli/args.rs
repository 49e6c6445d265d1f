//! The command line's grammar (clap): the commands, the options they share,
//! and parsing into a [`Cli`] or the text clap answers instead (help,
//! version, a usage error with a suggestion). Arguments come from
//! [`super::run`]'s caller, never from the process, so the native binary
//! and the Node CLI (through wasm) parse alike.

use super::{
    analyze, bench, check, completions, explain, export, fetch, fmt, games, ground, host, matches,
    play, replay, search, serve, solve, structure,
};
use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser, Subcommand};

const AFTER_HELP: &str = "\
--engine: `fast` grounds the game into a propositional network (an error if
it does not ground within budget), `interpreter` runs the reference
interpreter, `auto` (default) is fast when the game grounds, else the
interpreter.

--seconds S: the time limit of play, replay, bench, search, match, analyze,
explain, structure, solve and ground (`gdlkit COMMAND --help` gives each default;
every limit: docs/limits.md). --memory MB: the memory budget of any command
(default 4096 or 3/4 of the machine's memory). Progress goes to stderr when
it is a terminal; Ctrl-C stops with what was found.

Exit codes: 0 fine, 1 errors in the game (or an illegal move), 2 usage or I/O error.";

/// gdlkit: General Game Playing toolkit for GDL (Game Description Language)
#[derive(Parser, Debug)]
#[command(
    name = "gdlkit",
    version,
    arg_required_else_help = true,
    after_help = AFTER_HELP
)]
pub struct Cli {
    /// The memory budget in MB (default 4096 or 3/4 of the machine's memory)
    #[arg(long, global = true, value_name = "MB", value_parser = crate::memory::parse_mb,
          allow_negative_numbers = true)]
    pub memory: Option<u64>,
    #[command(subcommand)]
    pub command: Command,
}

/// The commands, one module each.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Diagnostics like a compiler, or JSON; --fix applies the quick fixes
    Check(check::CheckArgs),
    /// The canonical layout: print it, rewrite the file, or check it
    Fmt(fmt::FmtArgs),
    /// Replay joint moves; every step's state, legal moves and goals as JSON
    Replay(replay::ReplayArgs),
    /// One random playout, move by move, and the final board
    Play(play::PlayArgs),
    /// Random playouts for a fixed time (or count), as JSON
    Bench(bench::BenchArgs),
    /// One search from the initial state (or a tree's root), optionally traced
    Search(search::SearchArgs),
    /// A match between players, roles rotated
    #[command(name = "match")]
    Match(matches::MatchArgs),
    /// Prove or sample termination, playability, goals, monotonicity, winnability
    Analyze(analyze::AnalyzeArgs),
    /// A GGP player server (the Stanford/ggp-base HTTP protocol)
    Serve(serve::ServeArgs),
    /// A GGP game manager: matches between player servers
    Host(host::HostArgs),
    /// One self-contained .html (engine, wasm and game inlined) that works offline
    Export(export::ExportArgs),
    /// Every legal move's value in a position, with relaxed plans
    Explain(explain::ExplainArgs),
    /// Boards, pieces, counters, turn-taking, teams and feature names
    Structure(structure::StructureArgs),
    /// Every reachable state's value under perfect play
    Solve(solve::SolveArgs),
    /// What grounding did: atoms per relation, rules that grew most, the network, or why it stopped
    Ground(ground::GroundArgs),
    /// The game library: each name works wherever GAME.kif does (gdlkit play reversi)
    Games(games::GamesArgs),
    /// A game of a GGP repository: without KEY the repository's keys, with KEY its rules
    FetchGame(fetch::FetchArgs),
    /// A shell completion script on stdout
    Completions(completions::CompletionsArgs),
}

/// The whole grammar, with each `--seconds` help naming its default.
pub fn command() -> clap::Command {
    let mut cmd = Cli::command();
    for (name, default) in super::DEFAULT_SECONDS {
        let help = if name == "bench" {
            format!("Time limit in seconds (default {default}, or 600 with --playouts)")
        } else {
            format!("Time limit in seconds (default {default})")
        };
        cmd = cmd.mut_subcommand(name, |c| c.mut_arg("seconds", |a| a.help(help)));
    }
    cmd
}

/// A parsed command line: the typed options, and the command's name and
/// raw matches (for what every command shares, such as `--seconds`).
pub struct Parsed {
    pub cli: Cli,
    pub name: String,
    pub matches: ArgMatches,
}

/// Parses `args` (without the program name), or gives clap's answer
/// instead (help, version, a usage error).
pub fn parse(args: &[String]) -> Result<Parsed, clap::Error> {
    let mut cmd = command();
    let words = std::iter::once("gdlkit".to_string()).chain(args.iter().cloned());
    let matches = cmd.try_get_matches_from_mut(words)?;
    let cli = Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut cmd))?;
    let (name, sub) = matches.subcommand().expect("a command is required");
    Ok(Parsed {
        name: name.to_string(),
        matches: sub.clone(),
        cli,
    })
}

/// Parses the arguments of `name` (without `gdlkit NAME`), as the GGP
/// bindings take them: the command, or clap's message as a usage error.
pub fn parse_command(name: &str, args: &[String]) -> Result<Command, super::Fail> {
    let all: Vec<String> = std::iter::once(name.to_string())
        .chain(args.iter().cloned())
        .collect();
    parse(&all)
        .map(|p| p.cli.command)
        .map_err(|e| super::Fail::usage(e.to_string()))
}
