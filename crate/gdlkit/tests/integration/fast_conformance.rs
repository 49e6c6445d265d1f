//! Replays every conformance trace through the fast engine (games that do
//! not ground within the default budget are listed and skipped: the
//! interpreter runs them, and `conformance.rs` checks it).

use crate::common;

use common::{read_trace, replay_trace, run_all, trace_files};
use gdlkit::EngineChoice;
use std::path::Path;

enum Outcome {
    Match(usize),
    Fallback(String),
    /// Replayed by `games_grounded_by_demand_agree_with_interpreter`,
    /// which grounds these slow games once for both checks.
    Elsewhere,
}

fn check_trace(path: &Path) -> Result<Outcome, String> {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    if crate::fast_vs_interpreter::GROUNDED_BY_DEMAND.contains(&stem.as_ref()) {
        return Ok(Outcome::Elsewhere);
    }
    let (trace, text) = read_trace(path);
    // The default size limits, and three times the default time (a loaded
    // machine grounds slowly): the floor below counts the traces that
    // ground.
    let budget = gdlkit::engine::GroundBudget {
        max_ms: 60_000.0,
        ..Default::default()
    };
    // `Fast`, not `Auto`: auto may pick the interpreter for a game that
    // grounds but runs slower (engine/choice.rs); its network is checked
    // here all the same.
    // Games the size estimate refuses (auto's quick fallback) would only
    // spend the budget failing: they are listed like any other fallback.
    let program = gdlkit::parse_program(&text);
    if let Ok(it) = gdlkit::Interpreter::new(&program) {
        let estimate = gdlkit::engine::ground_estimate(&program, &it);
        if estimate.refuses(&budget) {
            return Ok(Outcome::Fallback("refused by the size estimate".into()));
        }
    }
    let mut m = match gdlkit::engine::load_engine_with(&text, EngineChoice::Fast, budget) {
        Ok(m) => m,
        Err(d) if d.iter().any(|d| d.code == "GDL091") => {
            return Ok(Outcome::Fallback(d[0].message.clone()));
        }
        Err(d) => return Err(format!("load: {:?}", d.first())),
    };
    replay_trace(&mut m, &trace).map(Outcome::Match)
}

#[test]
fn every_conformance_trace_matches_through_the_fast_engine() {
    if common::corpus::shared_or_skip(
        "fast_conformance: every_conformance_trace_matches_through_the_fast_engine",
    )
    .is_none()
    {
        return;
    }
    let mut files = trace_files();
    // GDLKIT_TRACE=name replays only the traces whose path contains it.
    let filtered = std::env::var("GDLKIT_TRACE").ok();
    if let Some(only) = &filtered {
        files.retain(|f| f.to_string_lossy().contains(only));
    }
    let results = run_all(&files, check_trace);
    let (mut failures, mut fallbacks, mut matched, mut steps) = (Vec::new(), Vec::new(), 0, 0);
    let mut elsewhere = 0;
    for (f, r, _) in &results {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        match r {
            Ok(Outcome::Match(n)) => {
                matched += 1;
                steps += n;
            }
            Ok(Outcome::Fallback(why)) => fallbacks.push(format!("{name}: {why}")),
            Ok(Outcome::Elsewhere) => elsewhere += 1,
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    eprintln!("fast engine: {matched} traces match ({steps} steps), {elsewhere} replayed with the random-state test, {} fall back to the interpreter, {} mismatches", fallbacks.len(), failures.len());
    for f in &fallbacks {
        eprintln!("fallback: {f}");
    }
    assert!(
        failures.is_empty(),
        "{} traces differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The floor: the fast engine really ran the corpus (not everything
    // fell back to the interpreter); the traces replayed elsewhere are
    // asserted there.
    assert!(
        filtered.is_some() || matched + elsewhere >= MIN_TRACES,
        "only {matched} traces ran through the fast engine (at least {MIN_TRACES} expected)"
    );
}

/// Traces that must run through the fast engine (of 333).
const MIN_TRACES: usize = 320;
