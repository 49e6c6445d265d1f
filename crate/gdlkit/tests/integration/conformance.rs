//! Replays every reference trace in `shared/conformance/traces/` and compares
//! every step (state, terminal, legal moves, goals) exactly.

use crate::common;

use common::{read_trace, replay_trace, run_all, trace_files};
use std::path::Path;

fn check_trace(path: &Path) -> Result<usize, String> {
    let (trace, text) = read_trace(path);
    let mut m = gdlkit::load_game(&text).map_err(|d| format!("load: {:?}", d.first()))?;
    replay_trace(&mut m, &trace)
}

#[test]
fn every_conformance_trace_matches() {
    if common::corpus::shared_or_skip("conformance: every_conformance_trace_matches").is_none() {
        return;
    }
    let files = trace_files();
    assert!(
        files.len() >= 333,
        "expected the 333 reference traces, found {}",
        files.len()
    );
    let results = run_all(&files, check_trace);
    let mut failures = Vec::new();
    let mut steps = 0;
    for (f, r, _) in &results {
        match r {
            Ok(n) => steps += n,
            Err(e) => failures.push(format!("{}: {e}", f.file_name().unwrap().to_string_lossy())),
        }
    }
    eprintln!(
        "{}/{} traces match ({steps} steps), {} mismatches",
        results.len() - failures.len(),
        results.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} traces differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
