//! What the conformance tests share: the reference traces of
//! `shared/conformance/` (format in its README), the step-by-step
//! comparison, and a parallel runner over the trace files.
#![allow(dead_code)] // not every helper is used

use gdlkit::replay::{replay, Replay};
use gdlkit::StateMachine;
use serde_json::Value;
use std::path::{Path, PathBuf};

pub mod cli;
pub mod corpus;

pub fn shared() -> PathBuf {
    corpus::shared_dir()
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"))
}

/// A game's text and engine: the corpus game, else the project's game of
/// that name (`games/`), else `None` after recording that `test` was
/// skipped.
pub fn game(name: &str, test: &str) -> Option<(String, gdlkit::Engine)> {
    let text = corpus::game_anywhere_or_skip(name, test)?;
    let m = gdlkit::load_engine(&text, gdlkit::EngineChoice::Auto).unwrap();
    Some((text, m))
}

/// Every reference trace, sorted.
pub fn trace_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for folder in ["ggp-base-test", "repository"] {
        let dir = shared().join("conformance/traces").join(folder);
        for e in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            files.push(e.unwrap().path());
        }
    }
    files.sort();
    files
}

pub fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

/// A trace file and the text of its game.
pub fn read_trace(path: &Path) -> (Value, String) {
    let trace: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let game = shared().join(trace["game"].as_str().unwrap());
    (trace, std::fs::read_to_string(&game).unwrap())
}

/// Compares a replay with the expected playout; returns the first mismatch.
fn compare(got: &Replay, expected: &Value, roles: &[String]) -> Result<usize, String> {
    let steps = expected["steps"].as_array().unwrap();
    if got.steps.len() != steps.len() {
        return Err(format!(
            "{} steps, expected {}",
            got.steps.len(),
            steps.len()
        ));
    }
    for (i, (g, e)) in got.steps.iter().zip(steps).enumerate() {
        if g.state != strings(&e["state"]) {
            return Err(format!(
                "step {i}: state {:?}\nexpected {:?}",
                g.state,
                strings(&e["state"])
            ));
        }
        if g.terminal != e["terminal"].as_bool().unwrap() {
            return Err(format!("step {i}: terminal {}", g.terminal));
        }
        for (r, role) in roles.iter().enumerate() {
            let legal = strings(&e["legal"][role]);
            if g.legal[r] != legal {
                return Err(format!(
                    "step {i}: legal of {role} {:?}\nexpected {legal:?}",
                    g.legal[r]
                ));
            }
            let goals: Vec<i64> = e["goals"][role]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_i64().unwrap())
                .collect();
            if g.goals[r] != goals {
                return Err(format!(
                    "step {i}: goals of {role} {:?}, expected {goals:?}",
                    g.goals[r]
                ));
            }
        }
    }
    Ok(steps.len())
}

/// Replays every playout of `trace` on `m` and compares every step; returns
/// the number of steps compared or the first mismatch.
pub fn replay_trace<M: StateMachine>(m: &mut M, trace: &Value) -> Result<usize, String> {
    let roles = strings(&trace["roles"]);
    let got_roles: Vec<String> = m.roles().iter().map(|&r| m.terms().display(r)).collect();
    if got_roles != roles {
        return Err(format!("roles {got_roles:?}, expected {roles:?}"));
    }
    let mut steps = 0;
    for (p, playout) in trace["playouts"].as_array().unwrap().iter().enumerate() {
        let moves: Vec<Vec<String>> = playout["joint_moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(strings)
            .collect();
        let got = replay(m, &moves).map_err(|e| format!("playout {p}: {e}"))?;
        steps += compare(&got, playout, &roles).map_err(|e| format!("playout {p}: {e}"))?;
    }
    Ok(steps)
}

/// Runs `check` on every file on up to 8 threads; returns each result with
/// its time in seconds, and prints the five slowest.
pub fn run_all<R: Send>(
    files: &[PathBuf],
    check: impl Fn(&Path) -> R + Sync,
) -> Vec<(PathBuf, R, f64)> {
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(8);
    let check = &check;
    let results: Vec<(PathBuf, R, f64)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    files
                        .iter()
                        .skip(t)
                        .step_by(threads)
                        .map(|f| {
                            let start = std::time::Instant::now();
                            let r = check(f);
                            (f.clone(), r, start.elapsed().as_secs_f64())
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let mut slow: Vec<_> = results.iter().map(|(f, _, t)| (t, f)).collect();
    slow.sort_by(|a, b| b.0.partial_cmp(a.0).unwrap());
    for (t, f) in slow.iter().take(5) {
        eprintln!(
            "slowest: {:.2}s {}",
            t,
            f.file_name().unwrap().to_string_lossy()
        );
    }
    results
}
