//! `gdlkit solve GAME.kif`: every reachable state's value under perfect
//! play ([`crate::solve`]); the figures come from [`solve::Solution::summary`]
//! (shared with wasm).

use super::options::{EngineArg, FormatArg, SecondsArg};
use super::{load_game_within, Fail, Host, Output, EXIT_DIAGNOSTICS, EXIT_OK};
use crate::solve::{self, Limits, Summary};
use std::fmt::Write as _;

mod chance;
mod symbolic;

/// A solver's result on stdout, as JSON or as `text`; the exit code says
/// whether it is complete.
fn write_result<T: serde::Serialize>(
    result: &T,
    json: bool,
    text: impl FnOnce() -> String,
    complete: bool,
    out: &mut Output,
) -> i32 {
    out.stdout = if json {
        format!(
            "{}\n",
            serde_json::to_string_pretty(result).expect("serialisable")
        )
    } else {
        text()
    };
    if complete {
        EXIT_OK
    } else {
        EXIT_DIAGNOSTICS
    }
}

#[derive(clap::Args, Debug)]
#[command(
    long_about = "Every reachable state's value under perfect play (one role: best plan; two \
                  roles taking turns: minimax, docs/solve.md): the initial state's value, states \
                  by value, states/s and bytes/state. When the enumerated states do not \
                  fit (--max-states, 3/4 of the memory budget), BDDs solve it in the time \
                  left (not with --out). Exit 1 when the solution is partial."
)]
pub struct SolveArgs {
    /// The game's rules
    #[arg(value_name = "GAME.kif")]
    game: String,
    /// States explored at most (default 100000000; with --spill no limit,
    /// since the states are on disk)
    #[arg(long, value_name = "N")]
    max_states: Option<usize>,
    /// Write the solution file to FILE
    #[arg(long, value_name = "FILE")]
    out: Option<String>,
    /// Solve a layered game out of core: each breadth-first layer in a
    /// file under DIR, about one layer in memory (docs/solve.md); the
    /// files are deleted as they are used
    #[arg(long, value_name = "DIR", conflicts_with_all = ["out", "symbolic"])]
    spill: Option<std::path::PathBuf>,
    #[command(flatten)]
    format: FormatArg,
    #[command(flatten)]
    engine: EngineArg,
    #[command(flatten)]
    seconds: SecondsArg,
    /// Solve with BDDs from the grounded rules (docs/solve.md); --max-states,
    /// --out and --engine do not apply
    #[arg(long)]
    symbolic: bool,
    /// Nodes at most: with --symbolic, of one BDD (default 4,000,000; a
    /// clean stop past it); for GDL-II games, of the game tree (histories,
    /// not states; default 2,000,000)
    #[arg(long, value_name = "N")]
    max_nodes: Option<usize>,
    /// With --symbolic: the BDD variable order, `cells` (board cells in
    /// row order) or `grounder`
    #[arg(long, value_name = "ORDER", default_value = "cells", value_parser = parse_order)]
    order: solve::VarOrder,
    /// With --symbolic: only count the reachable states, per layer and the
    /// terminal ones (no goals, no values; the terminal states never built
    /// as one BDD)
    #[arg(long, requires = "symbolic")]
    count: bool,
    /// With --count: save each layer's count in DIR and, when DIR holds a
    /// count of the same game and order, go on from its last layer (a count
    /// longer than one run)
    #[arg(long, value_name = "DIR", requires = "count")]
    checkpoint: Option<std::path::PathBuf>,
    /// GDL-II games with two roles: exactly N CFR+ iterations (default: until
    /// the exploitability is at most 0.001 goal points)
    #[arg(long, value_name = "N")]
    iterations: Option<u64>,
}

fn parse_order(s: &str) -> Result<solve::VarOrder, String> {
    solve::VarOrder::from_name(s).ok_or_else(|| format!("expected cells or grounder, got `{s}`"))
}

pub fn run(args: SolveArgs, host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    let json = args.format.json();
    let seconds = args
        .seconds
        .seconds
        .unwrap_or(super::default_seconds("solve"));
    if args.symbolic {
        let limits = solve::SymbolicLimits {
            seconds,
            max_nodes: args
                .max_nodes
                .unwrap_or(solve::SymbolicLimits::default().max_nodes),
            order: args.order,
            count_only: args.count,
            checkpoint: args.checkpoint,
        };
        return symbolic::run(&args.game, limits, json, host, out);
    }
    let max_states = args.max_states.unwrap_or(match args.spill {
        Some(_) => usize::MAX,
        None => Limits::default().max_states,
    });
    let path = args.game;
    let started = crate::clock::now_ms();
    // Grounding may take a third of the time; the solve needs the rest.
    let game = load_game_within(host, &path, args.engine.choice, seconds * 1000.0 / 3.0)?.1;
    let left = seconds - (crate::clock::now_ms() - started) / 1000.0;
    if game.program.is_gdl2() {
        let limits = solve::ChanceLimits {
            seconds: left.max(0.001),
            max_nodes: args.max_nodes.unwrap_or(solve::chance::MAX_NODES),
            iterations: args.iterations,
            ..solve::ChanceLimits::default()
        };
        if args.out.is_some() {
            return Err(Fail::usage(format!(
                "{path}: --out writes the states' values of a GDL-I game; a GDL-II game is \
                 solved over information sets and has no solution file"
            )));
        }
        return chance::run(&path, game.engine, &limits, json, out);
    }
    let engine = game.engine;
    let limits = Limits {
        seconds: left.max(0.001),
        max_states,
    };
    let symbolic_limits = solve::SymbolicLimits {
        max_nodes: (args.max_nodes).unwrap_or(solve::SymbolicLimits::default().max_nodes),
        order: args.order,
        ..solve::SymbolicLimits::default()
    };
    let fail = |r: solve::Refusal| Fail::game(format!("{path}: {r}"));
    if let Some(dir) = &args.spill {
        let summary = solve::solve_spilled(engine, limits, dir).map_err(fail)?;
        return Ok(write_summary(&path, &summary, json, out));
    }
    let solution = if args.out.is_some() {
        // A solution file holds the enumerated states' values.
        solve::solve(engine, limits).map_err(fail)?
    } else {
        match solve::solve_picked(engine, &game.program, limits, symbolic_limits).map_err(fail)? {
            solve::Picked::Explicit(s) => s,
            solve::Picked::Symbolic { summary, explicit } => {
                return Ok(symbolic::write_picked(
                    &path, &summary, &explicit, json, out,
                ));
            }
        }
    };
    if let Some(file) = &args.out {
        host.write_file(file, &solve::write_solution(&solution))
            .map_err(|e| Fail::usage(format!("cannot write {file}: {e}")))?;
    }
    let summary = solution.summary();
    debug_assert_eq!(solution.len() as u64, summary.stats.states);
    Ok(write_summary(&path, &summary, json, out))
}

/// An explicit solve's summary on stdout; the exit code.
fn write_summary(path: &str, summary: &Summary, json: bool, out: &mut Output) -> i32 {
    let complete = summary.complete;
    write_result(summary, json, || text(path, summary), complete, out)
}

pub(super) fn goals_text(roles: &[String], goals: &[u8]) -> String {
    let parts: Vec<String> = roles
        .iter()
        .zip(goals)
        .map(|(r, g)| format!("{r} {g}"))
        .collect();
    parts.join(", ")
}

fn text(path: &str, s: &Summary) -> String {
    let mut o = String::new();
    let st = &s.stats;
    let status = if s.complete {
        "complete".to_string()
    } else {
        format!(
            "PARTIAL: {}",
            s.stopped.as_deref().unwrap_or("the exploration stopped")
        )
    };
    let _ = writeln!(
        o,
        "{path}: solved ({status}), {} concept, {} engine",
        s.concept.name(),
        s.engine
    );
    match &s.initial {
        Some(v) => {
            let _ = writeln!(
                o,
                "  initial state: {} under perfect play, {} moves to the end",
                goals_text(&s.roles, &v.goals),
                v.moves_to_end
            );
        }
        None => {
            let mixed = if st.simultaneous > 0 {
                ", or where both roles choose, only mixed strategies have a value"
            } else {
                ""
            };
            let far = if s.complete {
                ""
            } else {
                ", or not explored far enough"
            };
            let _ = writeln!(
                o,
                "  initial state: unknown (no role can force the game to end{mixed}{far})"
            );
        }
    }
    let both = if st.simultaneous > 0 {
        format!(", {} where both roles choose", st.simultaneous)
    } else {
        String::new()
    };
    let _ = writeln!(
        o,
        "  states: {} ({} terminal, {} expanded{both}), {} edges",
        st.states, st.terminal, st.expanded, st.edges
    );
    let _ = writeln!(o, "  states by value:");
    for c in &s.by_value {
        let name = match &c.goals {
            Some(g) => goals_text(&s.roles, g),
            None => "unknown".to_string(),
        };
        let _ = writeln!(o, "    {name:<24} {}", c.states);
    }
    let _ = writeln!(
        o,
        "  {:.0} states/s, {:.1} bytes/state, peak {:.1} MB, {:.2} s",
        st.states_per_second,
        st.bytes_per_state,
        st.peak_bytes as f64 / 1e6,
        st.seconds
    );
    o
}
