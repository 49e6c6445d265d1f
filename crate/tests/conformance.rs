//! Replays every reference trace in `shared/conformance/traces/` and compares
//! every step (state, terminal, legal moves, goals) exactly.

use gdlkit::replay::{replay, Replay};
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
    files
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().unwrap().iter().map(|x| x.as_str().unwrap().to_string()).collect()
}

/// Compares a replay with the expected playout; returns the first mismatch.
fn compare(got: &Replay, expected: &Value, roles: &[String]) -> Result<usize, String> {
    let steps = expected["steps"].as_array().unwrap();
    if got.steps.len() != steps.len() {
        return Err(format!("{} steps, expected {}", got.steps.len(), steps.len()));
    }
    for (i, (g, e)) in got.steps.iter().zip(steps).enumerate() {
        if g.state != strings(&e["state"]) {
            return Err(format!("step {i}: state {:?}\nexpected {:?}", g.state, strings(&e["state"])));
        }
        if g.terminal != e["terminal"].as_bool().unwrap() {
            return Err(format!("step {i}: terminal {}", g.terminal));
        }
        for (r, role) in roles.iter().enumerate() {
            let legal = strings(&e["legal"][role]);
            if g.legal[r] != legal {
                return Err(format!("step {i}: legal of {role} {:?}\nexpected {legal:?}", g.legal[r]));
            }
            let goals: Vec<i64> = e["goals"][role].as_array().unwrap().iter().map(|x| x.as_i64().unwrap()).collect();
            if g.goals[r] != goals {
                return Err(format!("step {i}: goals of {role} {:?}, expected {goals:?}", g.goals[r]));
            }
        }
    }
    Ok(steps.len())
}

fn check_trace(path: &Path) -> Result<usize, String> {
    let trace: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let game = shared().join(trace["game"].as_str().unwrap());
    let text = std::fs::read_to_string(&game).unwrap();
    let mut m = gdlkit::load_game(&text).map_err(|d| format!("load: {:?}", d.first()))?;
    let roles = strings(&trace["roles"]);
    let got_roles: Vec<String> = {
        use gdlkit::StateMachine;
        m.roles().iter().map(|&r| m.terms().display(r)).collect()
    };
    if got_roles != roles {
        return Err(format!("roles {got_roles:?}, expected {roles:?}"));
    }
    let mut steps = 0;
    for (p, playout) in trace["playouts"].as_array().unwrap().iter().enumerate() {
        let moves: Vec<Vec<String>> =
            playout["joint_moves"].as_array().unwrap().iter().map(strings).collect();
        let got = replay(&mut m, &moves).map_err(|e| format!("playout {p}: {e}"))?;
        steps += compare(&got, playout, &roles).map_err(|e| format!("playout {p}: {e}"))?;
    }
    Ok(steps)
}

#[test]
fn every_conformance_trace_matches() {
    let files = trace_files();
    assert!(files.len() >= 333, "expected the 333 reference traces, found {}", files.len());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(8);
    let chunks: Vec<Vec<PathBuf>> = (0..threads).map(|t| files.iter().skip(t).step_by(threads).cloned().collect()).collect();
    let results: Vec<(PathBuf, Result<usize, String>, f64)> = std::thread::scope(|s| {
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
    let mut failures = Vec::new();
    let mut steps = 0;
    let mut slow: Vec<_> = results.iter().map(|(f, _, t)| (t, f)).collect();
    slow.sort_by(|a, b| b.0.partial_cmp(a.0).unwrap());
    for (t, f) in slow.iter().take(5) {
        eprintln!("slowest: {:.2}s {}", t, f.file_name().unwrap().to_string_lossy());
    }
    for (f, r, _) in &results {
        match r {
            Ok(n) => steps += n,
            Err(e) => failures.push(format!("{}: {e}", f.file_name().unwrap().to_string_lossy())),
        }
    }
    eprintln!("{}/{} traces match ({steps} steps), {} mismatches", results.len() - failures.len(), results.len(), failures.len());
    assert!(failures.is_empty(), "{} traces differ:\n{}", failures.len(), failures.join("\n"));
}
