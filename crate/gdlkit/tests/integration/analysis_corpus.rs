//! The semantic validator over the whole corpus (nothing it reports is
//! false) and through `gdlkit analyze` (text, JSON, exit codes, either
//! engine).

use gdlkit::analysis::{AnalysisJob, Mode, Options};
use gdlkit::{Interpreter, Limits};
use std::time::{Duration, Instant};

use super::analysis::{brute_force, corpus_game, fixture, game, verify_with};
use crate::common::corpus;

/// Every game of the shared corpus, analysed with a small budget: every
/// refutation must replay to a real violation, exhaustive counts must match
/// an independent enumeration, and chess must report its terminal states
/// without goal values. Time is kept modest by a small budget, two short
/// playouts, an evaluation limit and a per-game cap (`stop()` keeps what was
/// found: the check is that nothing reported is false).
/// Games where a single evaluation (often a terminal state's goals) takes
/// seconds with the interpreter: only the initial state is analysed.
const SLOW: [&str; 8] = [
    "gt_two_thirds_2p",
    "gt_two_thirds_4p",
    "gt_two_thirds_6p",
    "ruleDepthExponential",
    "blokbox_simple",
    "chineseCheckers1",
    "othelloHoles",
    "othelloSuicide",
];

#[test]
fn corpus_has_no_false_errors() {
    let mut files = Vec::new();
    let folders = match corpus::shared_dir() {
        Some(_) => vec!["games/ggp-base-test", "games/repository"],
        None => vec!["games"], // the project's own (games_dir falls back)
    };
    for folder in folders {
        let dir = corpus::games_dir(folder, "corpus_has_no_false_errors");
        for e in std::fs::read_dir(dir).unwrap() {
            files.push(e.unwrap().path());
        }
    }
    files.sort();
    let limits = Limits {
        max_steps: 10_000_000,
        ..Limits::default()
    };
    let (mut summary, mut analysed, mut stopped, mut oracle_checked) = (Vec::new(), 0, 0, 0);
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let program = gdlkit::parse_program(&text);
        if gdlkit::diagnostic::has_errors(&program.diagnostics) {
            continue;
        }
        let Ok(m) = Interpreter::with_limits(&program, limits) else {
            continue;
        };
        let stem = path.file_stem().unwrap().to_str().unwrap();
        let opts = if SLOW.contains(&stem) {
            Options {
                playouts: 0,
                ..Options::with_budget(1)
            }
        } else {
            Options {
                playouts: 2,
                playout_depth: 250,
                ..Options::with_budget(100)
            }
        };
        let started = Instant::now();
        // The corpus's chess (not the project's own full chess): its budgets
        // (100 states, 2 playouts) end it; 300 s only bounds a hang on a
        // loaded machine (its missing goals are asserted).
        let corpus_chess = stem == "chess" && corpus::shared_dir().is_some();
        let cap = if corpus_chess {
            Duration::from_secs(300)
        } else {
            Duration::from_millis(500)
        };
        let mut job = AnalysisJob::new(m, opts);
        while !job.step(32).done {
            if started.elapsed() > cap {
                job.stop();
                stopped += 1;
            }
        }
        let r = job.report().unwrap().clone();
        analysed += 1;
        verify_with(job.machine_mut(), path, &r);
        // Small games only (brute force gives up beyond 200 states), chosen
        // by size, not by how fast this run was: the same games every time.
        if r.mode == Mode::Exhaustive && r.states <= 200 {
            if let Some((states, terminals, wins)) = brute_force(path, 200) {
                assert_eq!(
                    (r.states as usize, r.terminal_states as usize),
                    (states, terminals),
                    "{stem}"
                );
                assert_eq!(
                    r.weakly_winnable.holds,
                    Some(wins.iter().all(|&w| w)),
                    "{stem}"
                );
                oracle_checked += 1;
            }
        }
        if r.ill_formed() {
            let refuted: Vec<&str> = r
                .properties()
                .iter()
                .filter(|(_, p)| p.holds == Some(false))
                .map(|(n, _)| *n)
                .collect();
            summary.push(format!(
                "{stem} ({}): {}",
                r.mode.name(),
                refuted.join(", ")
            ));
        }
        if corpus_chess {
            assert_eq!(
                r.goals_defined.holds,
                Some(false),
                "chess: {:?}",
                r.goals_defined
            );
        }
    }
    let floor = if corpus::shared_dir().is_some() {
        300
    } else {
        10
    };
    assert!(analysed > floor, "{analysed}");
    eprintln!(
        "{analysed} games analysed, {stopped} stopped at the time cap, {oracle_checked} exhaustive ones cross-checked; ill-formed:\n  {}",
        summary.join("\n  ")
    );
}

// ---- the CLI -----------------------------------------------------------------------

use crate::common::cli::run as cli;

#[test]
fn cli_analyze_text_json_and_exit_codes() {
    let buttons = game("buttonsAndLights.kif");
    let out = cli(&["analyze", buttons.to_str().unwrap()]);
    assert_eq!(out.code, 1, "does not terminate: {}", out.stderr);
    assert!(
        out.stdout
            .contains("exhaustive analysis: 4 states (1 terminal), max depth 3"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("  terminates         NO "),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("counterexample (1 joint move from the initial state):\n"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .ends_with("well-formed: no (not monotone: a warning)\n"),
        "{}",
        out.stdout
    );

    let out = cli(&["analyze", buttons.to_str().unwrap(), "--format", "json"]);
    assert_eq!(out.code, 1);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        v["properties"]["terminates"]["counterexample"],
        serde_json::json!([["b"]])
    );

    // Monotonicity alone is a warning: exit 0.
    let out = cli(&["analyze", fixture("nonMonotone.kif").to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stdout);
    let out = cli(&["analyze", game("maze.kif").to_str().unwrap()]);
    assert_eq!(out.code, 0);
    assert!(out.stdout.ends_with("well-formed: yes\n"), "{}", out.stdout);

    // Sampled with a small budget.
    let ttt = corpus_game("games/repository/ticTacToe.kif", "ticTacToe.kif");
    let out = cli(&[
        "analyze",
        ttt.to_str().unwrap(),
        "--budget",
        "50",
        "--playouts",
        "5",
        "--format",
        "json",
    ]);
    assert_eq!(out.code, 0);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["mode"], "sampled");
    assert_eq!(
        v["properties"]["playable"]["holds"],
        serde_json::Value::Null
    );

    // Usage errors.
    assert_eq!(
        cli(&["analyze", ttt.to_str().unwrap(), "--budget", "many"]).code,
        2
    );
    assert_eq!(
        cli(&["analyze", ttt.to_str().unwrap(), "--bugdet", "5"]).code,
        2
    );
    assert_eq!(cli(&["analyze"]).code, 2);
    let help = cli(&["analyze", "--help"]);
    assert_eq!(help.code, 0);
    assert!(help.stdout.contains("--budget <N>"), "{}", help.stdout);
}

/// The analysis on the grounded engine proves the same facts as on the
/// interpreter: same counts, same verdicts, counterexamples as long.
#[test]
fn cli_analyze_gives_the_same_report_on_either_engine() {
    let games = [
        corpus_game("games/repository/ticTacToe.kif", "ticTacToe.kif"),
        game("buttonsAndLights.kif"),
        game("maze.kif"),
        fixture("nonMonotone.kif"),
    ];
    for g in &games {
        let path = g.to_str().unwrap();
        let run = |engine: &str| {
            let out = cli(&["analyze", path, "--engine", engine, "--format", "json"]);
            let mut v: serde_json::Value = serde_json::from_str(&out.stdout).expect(&out.stderr);
            assert_eq!(v["engine"], engine, "{path}");
            v.as_object_mut().unwrap().remove("engine");
            // The engines order legal moves differently, so the first
            // counterexample found may differ, not its length.
            for (_, p) in v["properties"].as_object_mut().unwrap() {
                p["counterexample"] = p["counterexample"]
                    .as_array()
                    .map_or(serde_json::json!(null), |m| m.len().into());
            }
            (out.code, v)
        };
        let (code_i, interp) = run("interpreter");
        let (code_f, fast) = run("fast");
        assert_eq!(code_i, code_f, "{path}");
        assert_eq!(interp, fast, "{path}");
    }
    let out = cli(&["analyze", games[0].to_str().unwrap(), "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        (v["engine"].as_str(), v["states"].as_u64()),
        (Some("fast"), Some(5478))
    );
    assert_eq!(
        cli(&["analyze", games[0].to_str().unwrap(), "--engine", "quick"]).code,
        2
    );
}
