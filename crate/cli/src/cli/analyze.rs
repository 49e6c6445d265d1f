//! `gdlkit analyze GAME.kif`: the semantic validator (termination,
//! playability, goals, monotonicity, winnability), proved on the whole
//! reachable state graph when it fits the budget, sampled otherwise.

use super::options::{EngineArg, FormatArg, SecondsArg};
use super::{load_game_within, Fail, Host, Output, EXIT_DIAGNOSTICS, EXIT_OK};
use crate::analysis::{AnalysisJob, Mode, Options};
use crate::clock::Deadline;
use std::fmt::Write as _;

#[derive(clap::Args, Debug)]
#[command(
    long_about = "Proves (up to --budget states) or samples (--playouts random playouts of \
                  depth <= --depth) termination, playability, goals, monotonicity and \
                  winnability; --seconds stops early. Exit 1 when the game is not well-formed."
)]
pub struct AnalyzeArgs {
    /// The game's rules
    #[arg(value_name = "GAME.kif")]
    game: String,
    /// States explored at most for a proof (default 2000000); more are sampled
    #[arg(long, value_name = "N")]
    budget: Option<usize>,
    /// Random playouts when sampling
    #[arg(long, value_name = "N")]
    playouts: Option<usize>,
    /// Joint moves per random playout at most
    #[arg(long, value_name = "D")]
    depth: Option<usize>,
    /// The playouts' seed
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    #[command(flatten)]
    format: FormatArg,
    #[command(flatten)]
    engine: EngineArg,
    #[command(flatten)]
    seconds: SecondsArg,
}

pub fn run(args: AnalyzeArgs, host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    let json = args.format.json();
    let defaults = Options::with_budget(args.budget.unwrap_or(Options::default().max_states));
    let opts = Options {
        playouts: args.playouts.unwrap_or(defaults.playouts),
        playout_depth: args.depth.unwrap_or(defaults.playout_depth),
        seed: args.seed.unwrap_or(defaults.seed),
        ..defaults
    };
    // Half the time for the breadth-first exploration, the rest (at least)
    // for checking and random playouts, so both run within the limit.
    let seconds = args.seconds.seconds;
    let ms = seconds.unwrap_or(super::default_seconds("analyze")) * 1000.0;
    let path = args.game;
    let started = crate::clock::now_ms();
    // Grounding may take a third of the time; the analysis needs the rest.
    let m = load_game_within(host, &path, args.engine.choice, ms / 3.0)?
        .1
        .engine;
    let ms = (ms - (crate::clock::now_ms() - started)).max(0.0);
    let (explore_until, deadline) = (Deadline::after_ms(ms / 2.0), Deadline::after_ms(ms));
    let engine = m.name();
    let fallback = m.fallback().map(str::to_string);
    let mut job = AnalysisJob::new(m, opts);
    let mut memory_note = None;
    loop {
        let p = job.step(256);
        if p.done {
            break;
        }
        crate::job::progress(phase_name(p.phase), || {
            format!(
                "{} states, {} playouts of {}",
                p.states, p.playouts, p.max_playouts
            )
        });
        if deadline.passed() {
            job.stop();
        } else if explore_until.passed() {
            job.end_exploration();
        } else if p.phase == crate::analysis::Phase::Exploring && crate::memory::above(0.75) {
            // The state graph fills the memory: stop exploring at 3/4 of the
            // budget so that the checks and playouts have room (the
            // evaluators fail at the whole budget).
            memory_note = Some(crate::memory::budget_mb());
            job.end_exploration();
        }
    }
    if let Some(mb) = memory_note {
        let _ = writeln!(
            out.stderr,
            "gdlkit analyze: the breadth-first exploration stopped at 3/4 of the memory budget ({mb} MB; --memory MB raises it); the rest is sampled"
        );
    }
    let report = job.report().expect("finished").clone();
    if json {
        let mut v = report.to_json();
        v["engine"] = engine.into();
        if let Some(why) = &fallback {
            v["fallback"] = why.as_str().into();
        }
        out.stdout = format!(
            "{}\n",
            serde_json::to_string_pretty(&v).expect("serialisable")
        );
    } else {
        let s = &mut out.stdout;
        let _ = writeln!(
            s,
            "{path}: {} analysis: {} states ({} terminal), max depth {} ({engine} engine)",
            report.mode.name(),
            report.states,
            report.terminal_states,
            report.max_depth
        );
        if let Some(why) = &fallback {
            let _ = writeln!(s, "  (not grounded: {why})");
        }
        if report.mode == Mode::Sampled {
            let _ = writeln!(
                s,
                "  (more than {} states: sampled, nothing is claimed proved)",
                job.options().max_states
            );
        }
        for (name, p) in report.properties() {
            let verdict = match p.holds {
                Some(true) => "yes",
                Some(false) => "NO",
                None => "?",
            };
            let _ = writeln!(s, "  {name:<18} {verdict:<4} {}", p.detail);
            if let Some(moves) = &p.counterexample {
                if moves.is_empty() {
                    let _ = writeln!(s, "  {:<23} counterexample: the initial state itself", "");
                } else {
                    let n = moves.len();
                    let _ = writeln!(
                        s,
                        "  {:<23} counterexample ({n} joint move{} from the initial state):",
                        "",
                        if n == 1 { "" } else { "s" }
                    );
                    for (i, joint) in moves.iter().enumerate() {
                        let _ = writeln!(s, "  {:<23} {:>4}. {}", "", i + 1, joint.join("  "));
                    }
                }
            }
        }
        let verdict = match report.well_formed() {
            Some(true) => "yes",
            Some(false) => "no",
            None => "not established",
        };
        let mono = if report.monotone.refuted_here() {
            " (not monotone: a warning)"
        } else {
            ""
        };
        let _ = writeln!(s, "well-formed: {verdict}{mono}");
    }
    if let Some(e) = &report.error {
        let _ = writeln!(out.stderr, "gdlkit analyze: the analysis stopped: {e}");
        return Ok(EXIT_DIAGNOSTICS);
    }
    Ok(if report.ill_formed() {
        EXIT_DIAGNOSTICS
    } else {
        EXIT_OK
    })
}

fn phase_name(p: crate::analysis::Phase) -> &'static str {
    use crate::analysis::Phase;
    match p {
        Phase::Exploring => "analyze: breadth-first",
        Phase::Checking => "analyze: checking the graph",
        Phase::Sampling => "analyze: random playouts",
        Phase::Done => "analyze: done",
    }
}
