//! Replays every conformance trace through the fast engine (games that do
//! not ground within the default budget are listed and skipped: the
//! interpreter runs them, and `conformance.rs` checks it).

use gdlkit::replay::replay;
use gdlkit::{EngineChoice, StateMachine};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared")
}

fn trace_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for folder in ["ggp-base-test", "repository"] {
        let dir = shared().join("conformance/traces").join(folder);
        for e in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            files.push(e.unwrap().path());
        }
    }
    files.sort();
    if let Ok(only) = std::env::var("GDLKIT_TRACE") {
        files.retain(|f| f.to_string_lossy().contains(&only));
    }
    files
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().unwrap().iter().map(|x| x.as_str().unwrap().to_string()).collect()
}

enum Outcome {
    Match(usize),
    Fallback(String),
}

fn check_trace(path: &Path) -> Result<Outcome, String> {
    let trace: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let game = shared().join(trace["game"].as_str().unwrap());
    let text = std::fs::read_to_string(&game).unwrap();
    let budget = gdlkit::ground::Budget { max_ms: 5_000.0, ..Default::default() };
    let mut m = gdlkit::engine::load_engine_with(&text, EngineChoice::Auto, budget).map_err(|d| format!("load: {:?}", d.first()))?;
    if let Some(why) = m.fallback() {
        return Ok(Outcome::Fallback(why.to_string()));
    }
    let roles = strings(&trace["roles"]);
    let got_roles: Vec<String> = m.roles().iter().map(|&r| m.terms().display(r)).collect();
    if got_roles != roles {
        return Err(format!("roles {got_roles:?}, expected {roles:?}"));
    }
    let mut steps = 0;
    for (p, playout) in trace["playouts"].as_array().unwrap().iter().enumerate() {
        let moves: Vec<Vec<String>> = playout["joint_moves"].as_array().unwrap().iter().map(strings).collect();
        let got = replay(&mut m, &moves).map_err(|e| format!("playout {p}: {e}"))?;
        let expected = playout["steps"].as_array().unwrap();
        if got.steps.len() != expected.len() {
            return Err(format!("playout {p}: {} steps, expected {}", got.steps.len(), expected.len()));
        }
        for (i, (g, e)) in got.steps.iter().zip(expected).enumerate() {
            let state = strings(&e["state"]);
            if g.state != state {
                return Err(format!("playout {p} step {i}: state {:?}\nexpected {state:?}", g.state));
            }
            if g.terminal != e["terminal"].as_bool().unwrap() {
                return Err(format!("playout {p} step {i}: terminal {}", g.terminal));
            }
            for (r, role) in roles.iter().enumerate() {
                let legal = strings(&e["legal"][role]);
                if g.legal[r] != legal {
                    return Err(format!("playout {p} step {i}: legal of {role} {:?}\nexpected {legal:?}", g.legal[r]));
                }
                let goals: Vec<i64> = e["goals"][role].as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect();
                if g.goals[r] != goals {
                    return Err(format!("playout {p} step {i}: goals of {role} {:?}, expected {goals:?}", g.goals[r]));
                }
            }
        }
        steps += expected.len();
    }
    Ok(Outcome::Match(steps))
}

#[test]
fn every_conformance_trace_matches_through_the_fast_engine() {
    let files = trace_files();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(8);
    let chunks: Vec<Vec<PathBuf>> = (0..threads).map(|t| files.iter().skip(t).step_by(threads).cloned().collect()).collect();
    let results: Vec<(PathBuf, Result<Outcome, String>, f64)> = std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .iter()
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|f| {
                            let t = std::time::Instant::now();
                            let r = check_trace(f);
                            (f.clone(), r, t.elapsed().as_secs_f64())
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    let mut slow: Vec<_> = results.iter().map(|(f, _, t)| (t, f)).collect();
    slow.sort_by(|a, b| b.0.partial_cmp(a.0).unwrap());
    for (t, f) in slow.iter().take(5) {
        eprintln!("slowest: {:.2}s {}", t, f.file_name().unwrap().to_string_lossy());
    }
    let (mut failures, mut fallbacks, mut matched, mut steps) = (Vec::new(), Vec::new(), 0, 0);
    for (f, r, _) in &results {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        match r {
            Ok(Outcome::Match(n)) => {
                matched += 1;
                steps += n;
            }
            Ok(Outcome::Fallback(why)) => fallbacks.push(format!("{name}: {why}")),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    eprintln!("fast engine: {matched} traces match ({steps} steps), {} fall back to the interpreter, {} mismatches", fallbacks.len(), failures.len());
    for f in &fallbacks {
        eprintln!("fallback: {f}");
    }
    assert!(failures.is_empty(), "{} traces differ:\n{}", failures.len(), failures.join("\n"));
}
