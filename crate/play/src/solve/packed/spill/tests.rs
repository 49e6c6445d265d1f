//! The out-of-core solver against the in-memory one (the oracle): the
//! same initial value, counts by value and state counts on games whose
//! layer is a function of the state; partial and refused solves leave
//! no files behind.

use std::path::PathBuf;

use crate::engine::{load_engine, EngineChoice};
use crate::solve::{solve, solve_spilled, Engine, Limits, Summary};

fn game(name: &str, choice: EngineChoice) -> Engine {
    let path = format!("{}/../../games/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    load_engine(&text, choice).expect("loads")
}

/// A directory of this process's own, not there yet.
fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gdlkit-spill-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Solves into a scratch directory and checks that it is gone after.
fn spilled(engine: Engine, limits: Limits, tag: &str) -> Summary {
    let dir = scratch(tag);
    let result = solve_spilled(engine, limits, &dir);
    let left = dir.exists();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!left, "{tag}: the directory is removed");
    result.unwrap_or_else(|r| panic!("{tag}: {r}"))
}

#[test]
fn complete_solves_agree_with_the_in_memory_solver() {
    let names = [
        "ticTacToe.kif",
        "connectThree.kif",
        "domineering.kif",
        "nQueens.kif",
    ];
    for name in names {
        let e = game(name, EngineChoice::Fast);
        let oracle = solve(e.clone(), Limits::default()).unwrap().summary();
        let s = spilled(e, Limits::default(), name);
        assert!(oracle.complete && s.complete, "{name}: complete");
        assert!(s.initial.is_some(), "{name}: a value");
        assert_eq!(s.initial, oracle.initial, "{name}: initial value");
        assert_eq!(s.by_value, oracle.by_value, "{name}: counts by value");
        assert_eq!(s.concept, oracle.concept, "{name}: concept");
        assert_eq!(s.roles, oracle.roles, "{name}: roles");
        assert_eq!(s.engine, oracle.engine, "{name}: engine");
        let (a, b) = (&s.stats, &oracle.stats);
        assert_eq!(a.states, b.states, "{name}: states");
        assert_eq!(a.expanded, b.expanded, "{name}: expanded");
        assert_eq!(a.terminal, b.terminal, "{name}: terminal");
        assert_eq!(a.edges, b.edges, "{name}: edges");
        assert!(a.peak_bytes > 0 && a.bytes_per_state > 0.0, "{name}: bytes");
    }
}

#[test]
fn limits_give_a_partial_result_without_values() {
    let e = game("connectThree.kif", EngineChoice::Fast);
    let now = Limits {
        seconds: 0.0,
        ..Limits::default()
    };
    let s = spilled(e.clone(), now, "now");
    assert!(!s.complete && s.stopped.is_some(), "{s:?}");
    assert_eq!((s.initial, s.stats.states), (None, 1));
    let few = Limits {
        max_states: 500,
        ..Limits::default()
    };
    let s = spilled(e, few, "few");
    assert!(!s.complete && s.initial.is_none(), "{s:?}");
    assert!(
        s.stopped.as_deref().unwrap().contains("state limit"),
        "{s:?}"
    );
    assert!(s.stats.states >= 500, "{s:?}");
    let unknown: u64 = (s.by_value.iter())
        .filter(|c| c.goals.is_none())
        .map(|c| c.states)
        .sum();
    assert_eq!(unknown, s.stats.states);
}

#[test]
fn the_interpreter_is_refused() {
    let e = game("ticTacToe.kif", EngineChoice::Interpreter);
    let dir = scratch("interpreter");
    let r = solve_spilled(e, Limits::default(), &dir).unwrap_err();
    assert!(r.0.contains("fast engine"), "{r}");
    assert!(!dir.exists());
}

#[test]
fn a_directory_that_was_there_keeps_its_other_files() {
    let dir = scratch("kept");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("keep.txt"), "mine").unwrap();
    let e = game("ticTacToe.kif", EngineChoice::Fast);
    let s = solve_spilled(e, Limits::default(), &dir).unwrap();
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|f| f.unwrap().file_name())
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(s.complete);
    assert_eq!(left, vec![std::ffi::OsString::from("keep.txt")]);
}
