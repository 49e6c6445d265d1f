//! Games written to break engines (`common/adversarial.rs`) through the CLI
//! and the library: each gives an answer within the limits or a clear error
//! with exit code 1, never a panic, a stack overflow or a hang.

use crate::common::adversarial::*;
use gdlkit::{EvalError, Interpreter, Limits, StateMachine};

use gdlkit_cli::cli::MemoryHost;

fn cli(args: &[&str], game: &str) -> gdlkit_cli::cli::Output {
    let mut host = MemoryHost::with([("g.kif", game)]);
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    gdlkit_cli::cli::run(&args, &mut host)
}

/// Runs `f` on a thread with a small stack: recursion that is not guarded
/// overflows it at once.
fn small_stack<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

fn ok_or_clear_error(out: &gdlkit_cli::cli::Output, what: &str) {
    assert!(
        out.code == 0 || out.code == 1,
        "{what}: exit {} ({})",
        out.code,
        out.stderr
    );
    if out.code == 1 {
        assert!(!out.stderr.trim().is_empty() || !out.stdout.trim().is_empty());
    }
}

#[test]
fn closure_over_a_5000_long_chain_is_answered_on_a_small_stack() {
    for args in [
        &["play", "g.kif", "--engine", "interpreter"][..],
        &["search", "g.kif", "--engine", "interpreter", "--depth", "1"],
    ] {
        let out = small_stack(move || cli(args, &chain(5000)));
        ok_or_clear_error(&out, args[0]);
        if args[0] == "play" {
            assert_eq!(out.code, 0, "{}", out.stderr);
            assert!(out.stdout.contains("goals: you=100"), "{}", out.stdout);
        }
    }
}

#[test]
fn nesting_beyond_the_limit_is_an_error_naming_it_and_the_machine_recovers() {
    let program = gdlkit::parse_program(&chain(3000));
    let limits = Limits {
        max_nesting: 50,
        ..Limits::default()
    };
    let mut m = Interpreter::with_limits(&program, limits).unwrap();
    let s = m.initial_state().unwrap();
    let e = m.is_terminal(&s).unwrap_err();
    assert!(matches!(e, EvalError::Limit { limit: 50, .. }), "{e:?}");
    assert!(e.to_string().contains("max_nesting"), "{e}");
    // The same machine answers a shorter question afterwards.
    let program = gdlkit::parse_program(&chain(30));
    let mut m = Interpreter::with_limits(&program, limits).unwrap();
    let s = m.initial_state().unwrap();
    assert!(m.is_terminal(&s).unwrap());
    assert_eq!(m.goals(&s).unwrap(), vec![Some(100)]);
}

#[test]
fn every_family_gives_an_answer_or_a_clear_error_in_every_command() {
    let games = [
        ("chain", chain(600)),
        ("deep-term", deep_term(100_000)),
        ("deep-term-ok", deep_term(150)),
        ("wide-rule", wide_rule(300)),
        ("huge-arity", huge_arity(2000)),
        ("exponential-join", exponential_join(9)),
        ("term-growth", term_growth()),
        ("joint-moves", joint_moves(12, 10)),
    ];
    let commands: [&[&str]; 7] = [
        &["check", "g.kif"],
        &["fmt", "g.kif", "--check"],
        &[
            "play",
            "g.kif",
            "--max-steps",
            "30",
            "--engine",
            "interpreter",
        ],
        &["play", "g.kif", "--max-steps", "30"],
        &[
            "analyze",
            "g.kif",
            "--budget",
            "200",
            "--playouts",
            "5",
            "--depth",
            "20",
        ],
        &["search", "g.kif", "--depth", "1", "--heuristic", "none"],
        &["bench", "g.kif", "--playouts", "2"],
    ];
    let mut runs = 0;
    for (name, game) in &games {
        for args in commands {
            let (game, args2) = (game.clone(), args.to_vec());
            eprintln!("{name}: {}", args.join(" "));
            let out = small_stack(move || cli(&args2, &game));
            ok_or_clear_error(&out, &format!("{name}: {}", args.join(" ")));
            runs += 1;
        }
    }
    assert!(runs >= 50);
}

#[test]
fn deep_terms_are_a_syntax_error() {
    let out = cli(&["check", "g.kif"], &deep_term(100_000));
    assert_eq!(out.code, 1);
    assert!(out.stdout.contains("GDL004"), "{}", out.stdout);
}

#[test]
fn exponential_joins_are_answered_or_stop_at_a_limit() {
    let out = cli(
        &["play", "g.kif", "--engine", "interpreter"],
        &exponential_join(12),
    );
    match out.code {
        0 => assert!(out.stdout.contains("you=50/80"), "{}", out.stdout),
        _ => assert!(out.stderr.contains("more than"), "{}", out.stderr),
    }
}

#[test]
fn byte_oddities_are_read_properly() {
    for (name, bytes) in odd_texts() {
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let out = cli(&["check", "g.kif", "--format", "json"], &text);
        ok_or_clear_error(&out, name);
        match name {
            // A byte-order mark is not part of the text.
            "bom" => assert_eq!(out.code, 0, "{}", out.stdout),
            // A NUL byte is an error, not a name character.
            "nul" => {
                assert_eq!(out.code, 1);
                assert!(out.stdout.contains("GDL005"), "{}", out.stdout);
            }
            "cr-only" => assert_eq!(out.code, 0, "{}", out.stdout),
            // The hint counts every unclosed `(`.
            "unclosed" => assert!(out.stdout.contains("100000 `)`"), "{}", out.stdout),
            _ => {}
        }
    }
}

// ---- the known hazards (deep terms, huge products, long joins), small and quick ----

/// A minimal one-role game plus `extra` (no goal of its own).
fn one_step(extra: &str) -> String {
    format!(
        "(role you)\n(init (step 0))\n(<= (legal you go) (true (step 0)))\n\
         (<= (next (step 1)) (true (step 0)))\n(<= terminal (true (step 1)))\n{extra}\n"
    )
}

#[test]
fn replay_of_the_5000_long_closure_on_the_interpreter_is_answered_on_a_small_stack() {
    let game = chain(5000);
    let mut host = MemoryHost::with([("g.kif", game.as_str()), ("m.json", "[]")]);
    let args: Vec<String> = ["replay", "g.kif", "m.json", "--engine", "interpreter"]
        .map(String::from)
        .to_vec();
    let out = small_stack(move || gdlkit_cli::cli::run(&args, &mut host));
    ok_or_clear_error(&out, "replay");
    assert_eq!(out.code, 0, "{}", out.stderr);
}

#[test]
fn a_100000_long_closure_ends_at_the_time_limit_with_a_clear_error() {
    let game = chain(100_000);
    for args in [
        &["play", "g.kif", "--engine", "interpreter", "--seconds", "1"][..],
        &[
            "analyze",
            "g.kif",
            "--engine",
            "interpreter",
            "--seconds",
            "1",
        ],
    ] {
        let (g, a) = (game.clone(), args.to_vec());
        let out = small_stack(move || cli(&a, &g));
        ok_or_clear_error(&out, args[0]);
        if out.code == 1 {
            assert!(out.stderr.contains("--seconds"), "{}", out.stderr);
        }
    }
}

#[test]
fn a_5000_role_one_step_game_is_analyzed() {
    let out = cli(
        &["analyze", "g.kif", "--seconds", "20"],
        &joint_moves(5000, 1),
    );
    ok_or_clear_error(&out, "analyze");
    assert!(out.stdout.contains("well-formed"), "{}", out.stdout);
}

#[test]
fn a_2000_variable_rule_under_bench_seconds_stops_loading_in_time() {
    // The fast engine gives up at the job's limit with a clear error; auto
    // falls back to the interpreter and benches it.
    let out = cli(
        &["bench", "g.kif", "--seconds", "1", "--engine", "fast"],
        &wide_rule(2000),
    );
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("milliseconds"), "{}", out.stderr);
    let out = cli(&["bench", "g.kif", "--seconds", "1"], &wide_rule(2000));
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("\"playouts\""), "{}", out.stdout);
}

#[test]
fn unbounded_options_are_refused_and_seconds_bound_playout_counts() {
    let game = one_step("(goal you 50)");
    let usage: [&[&str]; 6] = [
        &["bench", "g.kif", "--seconds", "inf"],
        &["bench", "g.kif", "--seconds", "-1"],
        &["play", "g.kif", "--seconds", "NaN"],
        &["match", "g.kif", "--games", "18446744073709551615"],
        &["explain", "g.kif", "--seconds", "0"],
        &["analyze", "g.kif", "--memory", "1"],
    ];
    for args in usage {
        let out = cli(args, &game);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(!out.stderr.trim().is_empty());
    }
    // --playouts N with --seconds: the seconds win (the test would hang otherwise).
    let out = cli(
        &[
            "bench",
            "g.kif",
            "--playouts",
            "4000000000",
            "--seconds",
            "0.3",
        ],
        &game,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(out.stdout.trim()).unwrap();
    assert!(v["playouts"].as_u64().unwrap() < 4_000_000_000);
    // explain and structure take a time limit and a memory budget.
    for args in [
        &["explain", "g.kif", "--seconds", "5", "--memory", "4096"][..],
        &["structure", "g.kif", "--seconds", "5"],
    ] {
        let out = cli(args, &game);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
    }
}

#[test]
fn games_check_rejects_fail_in_every_command() {
    let games = [
        (
            "no role",
            "(init (p))\n(<= terminal (true (p)))\n".to_string(),
        ),
        ("empty", String::new()),
        ("goal 101", one_step("(goal you 101)")),
        ("goal 3.5", one_step("(goal you 3.5)")),
        (
            "terminal on does",
            one_step("(goal you 50)").replace(
                "(<= terminal (true (step 1)))",
                "(<= terminal (does you go))",
            ),
        ),
    ];
    let mut runs = 0;
    for (name, game) in &games {
        for command in ["check", "play", "bench", "analyze"] {
            let out = cli(&[command, "g.kif"], game);
            assert_eq!(out.code, 1, "{command} on {name}: {}", out.stdout);
            assert!(
                !out.stdout.contains("well-formed: yes"),
                "{command} on {name}"
            );
            runs += 1;
        }
    }
    assert_eq!(runs, 20);
}

#[test]
fn analyze_reports_missing_goals_of_a_game_too_large_to_explore_within_its_time() {
    // 3 moves a step for 40 steps (3^40 states, far beyond the budget): the
    // breadth-first half of the time ends, the playouts reach terminal
    // states and find that `you` has no goal there.
    let mut g = String::from(
        "(role you)\n(init (at z))\n(init (hist nil))\n(move a) (move b) (move c)\n\
         (<= (legal you ?m) (move ?m))\n\
         (<= (next (at ?y)) (true (at ?x)) (succ ?x ?y))\n\
         (<= (next (hist (cons ?m ?h))) (does you ?m) (true (hist ?h)))\n\
         (<= terminal (true (at n40)))\n\
         (<= (goal you 100) (true (at ?x)) (distinct ?x n40))\n(succ z n1)\n",
    );
    for i in 1..40 {
        g += &format!("(succ n{i} n{})\n", i + 1);
    }
    let out = cli(&["analyze", "g.kif", "--seconds", "2"], &g);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let line = out.stdout.lines().find(|l| l.contains("goals_defined"));
    assert!(line.is_some_and(|l| l.contains(" NO ")), "{}", out.stdout);
    assert!(out.stdout.contains("playouts"), "{}", out.stdout);
}

/// A relation of 40^4 = 2,560,000 rows that `terminal` reads.
fn wide_product() -> String {
    let d: Vec<String> = (0..40).map(|i| format!("(d {i})")).collect();
    one_step(&format!(
        "{}\n(<= (quad ?a ?b ?c ?e) (d ?a) (d ?b) (d ?c) (d ?e))\n\
         (<= terminal (quad ?a ?b ?c ?e) (true (step 1)))\n(goal you 50)",
        d.join(" ")
    ))
}

#[test]
#[cfg_attr(
    not(target_os = "linux"),
    ignore = "no native memory measure on this system"
)]
fn over_the_memory_budget_is_a_clear_error_naming_the_option() {
    // In a process of its own: the budget and the resident memory are the
    // process's, and other tests run beside this one.
    let dir = std::env::temp_dir().join(format!("gdlkit-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let game = dir.join("wide.kif");
    std::fs::write(&game, wide_product()).unwrap();
    let run = |extra: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_gdlkit"))
            .args(["play", game.to_str().unwrap(), "--engine", "interpreter"])
            .args(extra)
            .output()
            .unwrap()
    };
    let out = run(&["--memory", "40"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("40 MB of memory") && stderr.contains("--memory MB"),
        "{stderr}"
    );
    // Within the default budget the same game is answered (or stops at a
    // row limit, not the memory).
    let out = run(&[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("MB of memory"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs the `gdlkit` binary on `game` (a process of its own: `--memory` is
/// the process's budget); returns the exit code, stdout, stderr and seconds.
fn run_binary(args: &[&str], game: &str) -> (Option<i32>, String, String, f64) {
    let dir = std::env::temp_dir().join(format!(
        "gdlkit-binary-{}-{}",
        std::process::id(),
        // A prefix: 2,000 player specs would make too long a name.
        args.join("-")
            .replace(['/', ' '], "_")
            .chars()
            .take(80)
            .collect::<String>()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("g.kif");
    std::fs::write(&path, game).unwrap();
    let args: Vec<&str> = args
        .iter()
        .map(|a| {
            if *a == "g.kif" {
                path.to_str().unwrap()
            } else {
                a
            }
        })
        .collect();
    let t0 = std::time::Instant::now();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gdlkit"))
        .args(&args)
        .output()
        .unwrap();
    let secs = t0.elapsed().as_secs_f64();
    let _ = std::fs::remove_dir_all(&dir);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        secs,
    )
}

#[test]
fn explain_and_structure_on_2000_simultaneous_roles_end_within_seconds_and_memory() {
    // 2,000 roles with two moves each, all at once: 2^1999 joint replies,
    // which `explain` once built in full (an abort at --memory 1000).
    let game = joint_moves(2000, 2);
    for cmd in ["explain", "structure"] {
        let (code, stdout, stderr, secs) =
            run_binary(&[cmd, "g.kif", "--seconds", "5", "--memory", "1000"], &game);
        assert!(
            code == Some(0) || code == Some(1),
            "{cmd}: exit {code:?} after {secs:.1} s: {stderr}"
        );
        assert!(!stdout.trim().is_empty() || !stderr.trim().is_empty());
        // A deadline is the feature: generous for a loaded machine.
        assert!(secs < 60.0, "{cmd} took {secs:.1} s");
    }
}

#[test]
fn solve_and_players_on_thousands_of_roles_or_moves_end_within_seconds_and_memory() {
    // 2,000 roles moving at once, and two roles with 3,000 moves each
    // (9,000,000 joint moves): an answer or a clear error, within the
    // limits, from solve, explain and from players that enumerate, sample or search.
    let many_roles = joint_moves(2000, 2);
    let many_moves = joint_moves(2, 3000);
    let limits = ["--games", "1", "--seconds", "5", "--memory", "1000"];
    let mut runs: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["solve", "g.kif", "--seconds", "5", "--memory", "1000"],
            &many_roles,
        ),
        (
            vec!["solve", "g.kif", "--seconds", "5", "--memory", "1000"],
            &many_moves,
        ),
        (
            vec!["structure", "g.kif", "--seconds", "5", "--memory", "1000"],
            &many_moves,
        ),
        (
            vec!["explain", "g.kif", "--seconds", "5", "--memory", "1000"],
            &many_moves,
        ),
    ];
    for first in ["mcts:ms=200", "alphabeta:ms=200", "ensemble:ms=200"] {
        let mut args = vec!["match", "g.kif", "--players", first];
        args.extend(std::iter::repeat_n("random", 1999));
        args.extend(limits);
        runs.push((args, &many_roles));
        let mut args = vec!["match", "g.kif", "--players", first, "mcts:ms=200"];
        args.extend(limits);
        runs.push((args, &many_moves));
    }
    for (args, game) in runs {
        let (code, stdout, stderr, secs) = run_binary(&args, game);
        let what = args[..4].join(" ");
        assert!(
            code == Some(0) || (code == Some(1) && stderr.starts_with("gdlkit ")),
            "{what}: exit {code:?} after {secs:.1} s: {stderr:.500}"
        );
        assert!(!stdout.trim().is_empty() || !stderr.trim().is_empty());
        // A deadline is the feature: generous for a loaded machine.
        assert!(secs < 60.0, "{what} took {secs:.1} s");
    }
}

#[test]
fn explain_builds_only_the_replies_it_evaluates() {
    // 12 roles with 3 moves: 3^11 = 177,147 replies per move of ours; the
    // first 256 are evaluated, in role order.
    let game = joint_moves(12, 3);
    let mut m = gdlkit::load_game(&game).unwrap();
    let program = gdlkit::parse_program(&game);
    let e = gdlkit::search::explain::explain(&mut m, &program, &[], Some("r0"), "hmax").unwrap();
    assert_eq!(e.moves.len(), 3);
    for mv in &e.moves {
        assert_eq!(mv.replies.len(), 256, "{}", mv.mv);
        // The first replies: the last role fastest.
        assert_eq!(mv.replies[0].moves, vec!["m0"; 11]);
        let mut second = vec!["m0"; 11];
        second[10] = "m1";
        assert_eq!(mv.replies[1].moves, second);
    }
}

#[test]
fn option_values_out_of_range_are_refused_with_the_option_and_range() {
    let game = one_step("(goal you 50)");
    let cases: [(&[&str], &str); 5] = [
        (
            &["match", "g.kif", "--games", "100001", "--players", "random"],
            "1 to 100000",
        ),
        (
            &["match", "g.kif", "--games", "0", "--players", "random"],
            "--games 0",
        ),
        (&["structure", "g.kif", "--ms", "-5"], "--ms -5"),
        (&["structure", "g.kif", "--ms", "NaN"], "--ms NaN"),
        (
            &["match", "g.kif", "--players", "mcts:ms=-1"],
            "player option ms -1",
        ),
    ];
    for (args, says) in cases {
        let out = cli(args, &game);
        assert!(
            out.code == 1 || out.code == 2,
            "{args:?}: exit {}",
            out.code
        );
        assert!(out.stderr.contains(says), "{args:?}: {}", out.stderr);
    }
    // The library's checks, shared with the JavaScript API.
    let explain = gdlkit::search::explain::ExplainOptions {
        ms: Some(-5.0),
        ..Default::default()
    };
    let e = gdlkit::search::explain::explain_text(&game, &explain).unwrap_err();
    assert!(
        matches!(
            &e,
            gdlkit::error::ExplainError::Option(gdlkit::error::OptionError::Ms { ms, .. })
                if *ms == -5.0
        ),
        "{e:?}"
    );
    let e = e.to_string();
    assert!(
        e.contains("explain option ms -5") && e.contains("above 0"),
        "{e}"
    );
    let mut cfg = gdlkit::search::matches::MatchConfig {
        games: 1_000_000_000,
        ..Default::default()
    };
    let e = cfg.check().unwrap_err();
    assert!(e.to_string().contains("1 to 100000"), "{e}");
    assert!(matches!(
        e,
        gdlkit::error::MatchError::Games {
            games: 1_000_000_000,
            ..
        }
    ));
    cfg.games = 100_000;
    assert!(cfg.check().is_ok());
    for spec in [
        "mcts:ms=-1",
        "alphabeta:ms=NaN",
        "minimax:ms=inf",
        "mcts:c=-1",
    ] {
        let e = spec
            .parse::<gdlkit::search::PlayerSpec>()
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.contains("player option"), "{spec:?}: {e}");
    }
}

#[test]
fn explain_refuses_a_game_without_roles_instead_of_panicking() {
    // Found by the JS API fuzzer: `explain("auto")` (a text of one atom).
    for text in ["auto", "", "minimax:depth=1"] {
        for heuristic in ["fjo", "fuzzy"] {
            let out = cli(&["explain", "g.kif", "--heuristic", heuristic], text);
            assert_eq!(out.code, 1, "{text:?} {heuristic}: {}", out.stderr);
            assert!(out.stderr.contains("GDL060"), "{}", out.stderr);
        }
    }
}

/// `solve` picks the BDDs when the enumeration's states do not fit (here
/// the state limit): connect three's states and value, as enumeration
/// finds them without the limit; with `--out` it keeps the enumeration.
#[test]
fn solve_picks_the_bdds_when_the_states_do_not_fit() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../games/connectThree.kif"
    ))
    .expect("games/connectThree.kif");
    let json = |args: &[&str]| -> serde_json::Value {
        let out = cli(args, &text);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
        serde_json::from_str(&out.stdout).expect("JSON")
    };
    let whole = json(&["solve", "g.kif", "--format", "json"]);
    assert!(whole.get("method").is_none(), "{whole}");
    let picked = json(&["solve", "g.kif", "--max-states", "1000", "--format", "json"]);
    assert_eq!(picked["method"], "symbolic", "{picked}");
    assert!(picked["explicit_stopped"]
        .as_str()
        .unwrap()
        .contains("state limit"));
    assert_eq!(picked["complete"], true);
    assert_eq!(picked["stats"]["states"], whole["stats"]["states"]);
    assert_eq!(picked["initial"], whole["initial"]["goals"]);
    let kept = cli(
        &["solve", "g.kif", "--max-states", "1000", "--out", "s.sol"],
        &text,
    );
    assert_eq!(kept.code, 1, "partial: {}", kept.stderr);
    assert!(kept.stdout.contains("PARTIAL"), "{}", kept.stdout);
}
