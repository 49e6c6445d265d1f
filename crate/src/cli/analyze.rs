//! `gdlkit analyze GAME.kif`: the semantic validator (termination,
//! playability, goals, monotonicity, winnability), proved on the whole
//! reachable state graph when it fits the budget, sampled otherwise.

use super::{load_engine_within, Args, Fail, Host, Output, EXIT_DIAGNOSTICS, EXIT_OK};
use crate::analysis::{AnalysisJob, Mode, Options};
use crate::clock::Deadline;
use std::fmt::Write as _;

pub fn run(raw: &[String], host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    let args = Args::parse(raw, &[])?;
    args.only(&[
        "budget", "playouts", "depth", "seed", "seconds", "format", "engine",
    ])?;
    let json = args.json()?;
    let defaults = Options::with_budget(args.number("budget", Options::default().max_states)?);
    let opts = Options {
        playouts: args.number("playouts", defaults.playouts)?,
        playout_depth: args.number("depth", defaults.playout_depth)?,
        seed: args.number("seed", defaults.seed)?,
        ..defaults
    };
    // Half the time for the breadth-first exploration, the rest (at least)
    // for checking and random playouts, so both run within the limit.
    let ms = args.seconds(super::default_seconds("analyze"))? * 1000.0;
    let path = args.positional(0, "GAME.kif")?.to_string();
    let started = crate::clock::now_ms();
    // Grounding may take a third of the time; the analysis needs the rest.
    let (_, m) = load_engine_within(host, &path, &args, ms / 3.0)?;
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
