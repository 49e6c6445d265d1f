//! What searches report: the CLI's `search` and `match` JSON, the
//! fallback's reason, the lecture tree's counts, iterative deepening's
//! passes, move orderings, searches from any position, outcomes, and the
//! players that draw a tree.

use gdlkit::search::matches::MatchConfig;
use gdlkit::EngineChoice;

use super::search::{game_text, project_game};
use crate::common::corpus;

fn cli(args: &[&str]) -> (i32, serde_json::Value, String) {
    let out = crate::common::cli::run(args);
    let v = serde_json::from_str(&out.stdout).unwrap_or(serde_json::Value::Null);
    (out.code, v, out.stderr)
}

#[test]
fn cli_search_and_match_print_the_documented_json() {
    // Pins the corpus version's names and values.
    if corpus::shared_or_skip("search: cli_search_and_match_print_the_documented_json").is_none() {
        return;
    }
    let (code, v, err) = cli(&[
        "search",
        "--tree",
        "((3 12 8) (2 4 6) (14 5 2))",
        "--trace",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["value"], 3);
    assert_eq!(v["best_move"], "1");
    assert_eq!(v["stats"]["cutoffs"], 1);
    assert!(
        v["stats"]["nodes"].as_u64().unwrap() > 0 && v["stats"]["leaves"].as_u64().unwrap() == 7
    );
    assert!(v["events"].as_array().unwrap().len() > 10);
    let (code, v, _) = cli(&[
        "search",
        "--tree",
        "((3 12 8) (2 4 6) (14 5 2))",
        "--algorithm",
        "minimax",
        "--format",
        "json",
    ]);
    assert_eq!((code, v["value"].clone()), (0, serde_json::json!(3)));
    let ttt = corpus::games_dir("games/repository", "search cli").join("ticTacToe.kif");
    let ttt = ttt.to_str().unwrap();
    let (code, v, err) = cli(&[
        "search", ttt, "--depth", "9", "--role", "oplayer", "--format", "json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        (v["value"].clone(), v["solved"].clone(), v["role"].clone()),
        (
            serde_json::json!(50),
            serde_json::json!(true),
            serde_json::json!("oplayer")
        )
    );
    assert_eq!(v["engine"], "fast", "auto grounds ticTacToe");
    assert!(v.get("engine_fallback").is_none());
    let (code, v, err) = cli(&[
        "search",
        ttt,
        "--depth",
        "9",
        "--role",
        "oplayer",
        "--engine",
        "interpreter",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        (v["value"].clone(), v["engine"].clone()),
        (serde_json::json!(50), serde_json::json!("interpreter"))
    );
    let (code, _, err) = cli(&["search", ttt, "--engine", "quick"]);
    assert_eq!(code, 2, "an unknown engine is a usage error");
    assert!(err.contains("`auto`, `interpreter` or `fast`"), "{err}");
    let (code, out) = {
        let o = crate::common::cli::run(&["search", ttt, "--depth", "1", "--engine", "fast"]);
        (o.code, o.stdout)
    };
    assert_eq!(code, 0);
    assert!(
        out.contains("engine: fast\n"),
        "the text output names the engine: {out}"
    );
    let (code, v, err) = cli(&[
        "match",
        ttt,
        "--players",
        "legal",
        "random",
        "--games",
        "4",
        "--engine",
        "interpreter",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["engine"], "interpreter");
    let (code, v, err) = cli(&[
        "match",
        ttt,
        "--players",
        "legal",
        "random",
        "--games",
        "4",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["engine"], "fast");
    let players = v["players"].as_array().unwrap();
    assert_eq!(players.len(), 2);
    assert_eq!(players[0]["name"], "legal");
    for p in players {
        for k in ["name", "mean_goal", "wins", "draws", "losses", "ci95"] {
            assert!(p.get(k).is_some(), "{k} missing in {p}");
        }
    }
    let (code, _, err) = cli(&["match", ttt, "--players", "legal", "--games", "1"]);
    assert_eq!(code, 1, "one player for two roles is refused: {err}");
    let (code, _, _) = cli(&["search", "--tree", "((1 2) x)"]);
    assert_eq!(code, 2);
}

/// MCTS builds no heuristic, and building the fuzzy one stops at the
/// job's time limit: quarto's goal formulas take minutes to ground.
#[test]
fn a_search_builds_only_the_heuristic_it_reads_and_within_its_limit() {
    let test = "search: a_search_builds_only_the_heuristic_it_reads_and_within_its_limit";
    let Some(dir) = corpus::shared_or_skip(test) else {
        return;
    };
    let quarto = dir.join("games/repository/quarto.kif");
    let quarto = quarto.to_str().expect("a UTF-8 path");
    let args = ["search", quarto, "--algorithm", "mcts", "--nodes", "50"];
    let (code, v, err) = cli(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["heuristic"], "none");
    assert_eq!(v["stats"]["playouts"], 50);
    let t0 = std::time::Instant::now();
    let args = ["search", quarto, "--algorithm", "alphabeta", "--depth", "1"];
    let (code, _, err) = cli(&[&args[..], &["--seconds", "1"]].concat());
    assert_ne!(
        code, 0,
        "the fuzzy heuristic of quarto cannot be built in 1 s"
    );
    assert!(
        err.contains("fuzzy heuristic") && err.contains("stopped"),
        "{err}"
    );
    let secs = t0.elapsed().as_secs_f64();
    assert!(secs < 30.0, "stopped after {secs:.1} s");
}

#[test]
fn a_fallback_to_the_interpreter_is_reported_with_its_reason() {
    use gdlkit::search::report::{match_report, play_match, search_report, SearchOptions, Source};
    let text = game_text("ticTacToe");
    // A grounding budget of one atom: `auto` must fall back.
    let tiny = gdlkit::engine::GroundBudget {
        max_atoms: 1,
        ..Default::default()
    };
    let mut m = gdlkit::engine::load_engine_with(&text, EngineChoice::Auto, tiny).unwrap();
    let why = m.fallback().expect("a reason").to_string();
    assert!(!why.is_empty());
    let program = gdlkit::parse_program(&text);
    let o = SearchOptions {
        depth: Some(9),
        ..SearchOptions::default()
    };
    let v = search_report(
        Source::Game {
            label: "ttt",
            program: &program,
            machine: &mut m,
            at: None,
        },
        &o,
    )
    .unwrap();
    assert_eq!(
        (v.engine.as_deref(), v.engine_fallback.as_deref(), v.value),
        (Some("interpreter"), Some(why.as_str()), 50.0)
    );
    let cfg = MatchConfig {
        games: 2,
        seed: 1,
        max_steps: 20,
    };
    let r = play_match(&program, &mut m, &["legal".into(), "legal".into()], &cfg).unwrap();
    let v = match_report("ttt", &m, &cfg, &r);
    assert_eq!(
        (v.engine.as_str(), v.engine_fallback.as_deref()),
        ("interpreter", Some(why.as_str()))
    );
    // `fast` refuses instead.
    assert!(gdlkit::engine::load_engine_with(&text, EngineChoice::Fast, tiny).is_err());
}

/// Lecture 001: the classic tree has 13 nodes and 9 leaves; alpha-beta
/// visits 11 nodes and 7 leaves (the 4 and 6 under the second MIN node are
/// pruned). An abstract tree is searched in one full-depth pass, traced or
/// not, so these are the counts reported.
#[test]
fn abstract_trees_report_the_lecture_counts() {
    let tree = "((3 12 8) (2 4 6) (14 5 2))";
    for (algorithm, nodes, leaves, cutoffs) in [("minimax", 13, 9, 0), ("alphabeta", 11, 7, 1)] {
        for trace in [false, true] {
            let mut args = vec!["search", "--tree", tree, "--algorithm", algorithm];
            if trace {
                args.push("--trace");
            }
            args.extend(["--format", "json"]);
            let (code, v, err) = cli(&args);
            assert_eq!(code, 0, "{err}");
            let st = &v["stats"];
            assert_eq!(
                (
                    st["nodes"].clone(),
                    st["leaves"].clone(),
                    st["cutoffs"].clone()
                ),
                (
                    serde_json::json!(nodes),
                    serde_json::json!(leaves),
                    serde_json::json!(cutoffs)
                ),
                "{algorithm}, trace {trace}: {v}"
            );
            let its = v["iterations"].as_array().unwrap();
            assert_eq!(its.len(), 1, "one pass: {v}");
            assert_eq!(
                (its[0]["depth"].clone(), its[0]["nodes"].clone()),
                (serde_json::json!(2), serde_json::json!(nodes))
            );
        }
    }
}

/// A game search with iterative deepening reports each pass and the totals
/// (their sums).
#[test]
fn game_searches_report_each_iteration_and_the_totals() {
    let ttt = project_game("ticTacToe");
    let (code, v, err) = cli(&["search", &ttt, "--depth", "3", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let its = v["iterations"].as_array().unwrap();
    let depths: Vec<u64> = its.iter().map(|i| i["depth"].as_u64().unwrap()).collect();
    assert_eq!(depths, vec![1, 2, 3]);
    for key in ["nodes", "leaves", "cutoffs", "tt_hits"] {
        let sum: u64 = its.iter().map(|i| i[key].as_u64().unwrap()).sum();
        assert_eq!(sum, v["stats"][key].as_u64().unwrap(), "{key}: {v}");
    }
    // The first pass of tic-tac-toe: the root and its 9 children.
    assert_eq!(
        (its[0]["nodes"].clone(), its[0]["leaves"].clone()),
        (serde_json::json!(10), serde_json::json!(9))
    );
}

/// Move orderings change which nodes are searched, never the value: on the
/// lecture tree best-first alpha-beta is perfect (9 nodes, 5 leaves), worst
/// first prunes nothing; on tic-tac-toe best first searches fewest nodes.
#[test]
fn orderings_change_counts_not_values() {
    let tree = "((3 12 8) (2 4 6) (14 5 2))";
    let mut seen = Vec::new();
    for (ordering, nodes, leaves) in [
        ("given", 11, 7),
        ("reversed", 13, 9),
        ("best", 9, 5),
        ("worst", 13, 9),
    ] {
        let (code, v, err) = cli(&[
            "search",
            "--tree",
            tree,
            "--ordering",
            ordering,
            "--trace",
            "--format",
            "json",
        ]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(v["value"], 3, "{ordering}");
        assert_eq!(
            (v["stats"]["nodes"].as_u64(), v["stats"]["leaves"].as_u64()),
            (Some(nodes), Some(leaves)),
            "{ordering}"
        );
        if ordering != "given" {
            assert!(v["labels"].is_array(), "{v}");
        }
        seen.push(v["tree"].clone());
    }
    assert_eq!(
        seen[2],
        serde_json::json!([[3, 8, 12], [2, 4, 6], [2, 5, 14]])
    );
    let ttt = &project_game("ticTacToe");
    let mut nodes = Vec::new();
    for ordering in ["given", "reversed", "best", "worst"] {
        for algorithm in ["alphabeta", "minimax"] {
            let (code, v, err) = cli(&[
                "search",
                ttt,
                "--algorithm",
                algorithm,
                "--trace",
                "--depth",
                "3",
                "--ordering",
                ordering,
                "--format",
                "json",
            ]);
            assert_eq!(code, 0, "{err}");
            assert_eq!(
                v["value"],
                serde_json::json!(50.294),
                "{ordering} {algorithm}"
            );
            let expected = if ordering == "given" {
                serde_json::Value::Null
            } else {
                serde_json::json!(ordering)
            };
            assert_eq!(v["ordering"], expected, "{v}");
            if algorithm == "alphabeta" {
                nodes.push(v["stats"]["nodes"].as_u64().unwrap());
            } else {
                assert_eq!(
                    v["stats"]["nodes"], 586,
                    "minimax visits every node: 1 + 9 + 72 + 504"
                );
            }
        }
    }
    assert!(
        nodes[2] < nodes[0] && nodes[0] < nodes[3],
        "best < given < worst: {nodes:?}"
    );
}

/// A search from a position: the initial state's fluents give the initial
/// search; a position where x wins at once is solved with that move.
#[test]
fn searches_start_from_any_position() {
    let ttt = &project_game("ticTacToe");
    let board = |marks: &[(u8, u8, &str)], control: &str| {
        let mut f = Vec::new();
        for r in 1..=3 {
            for c in 1..=3 {
                let m = marks
                    .iter()
                    .find(|(a, b, _)| (*a, *b) == (r, c))
                    .map_or("blank", |x| x.2);
                f.push(format!("(cell {r} {c} {m})"));
            }
        }
        f.push(format!("(control {control})"));
        f.join(" ")
    };
    let (_, plain, _) = cli(&["search", ttt, "--depth", "2", "--format", "json"]);
    let (code, from, err) = cli(&[
        "search",
        ttt,
        "--depth",
        "2",
        "--from",
        &board(&[], "x"),
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        (from["value"].clone(), from["stats"]["nodes"].clone()),
        (plain["value"].clone(), plain["stats"]["nodes"].clone())
    );
    let win = board(&[(1, 1, "x"), (1, 2, "x"), (2, 1, "o"), (2, 2, "o")], "x");
    for algorithm in ["alphabeta", "minimax"] {
        let (code, v, err) = cli(&[
            "search",
            ttt,
            "--algorithm",
            algorithm,
            "--depth",
            "3",
            "--from",
            &win,
            "--format",
            "json",
        ]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(
            (v["value"].clone(), v["best_move"].clone()),
            (serde_json::json!(100), serde_json::json!("(mark 1 3)")),
            "{algorithm}: {v}"
        );
    }
    let (code, _, err) = cli(&["search", ttt, "--from", "(cell 1 1", "--format", "json"]);
    assert_eq!(code, 2, "a bad fluent is a usage error: {err}");
}

/// Outcomes: one function for the play view and the match statistics.
#[test]
fn outcomes_name_winners_and_draws() {
    use gdlkit::search::matches::{outcome, RoleResult};
    let o = outcome(&[vec![100], vec![0]]).unwrap();
    assert_eq!((o.score, o.winners.clone(), o.draw), (100, vec![0], false));
    assert_eq!(o.results, [RoleResult::Win, RoleResult::Loss]);
    let d = outcome(&[vec![50], vec![50]]).unwrap();
    assert!(d.draw && d.results == [RoleResult::Draw, RoleResult::Draw]);
    let three = outcome(&[vec![50], vec![50], vec![0]]).unwrap();
    assert_eq!((three.winners.clone(), three.draw), (vec![0, 1], false));
    let alone = outcome(&[vec![70, 40]]).unwrap();
    assert_eq!(
        (alone.score, alone.results.clone()),
        (70, vec![RoleResult::Loss])
    );
    assert_eq!(outcome(&[vec![], vec![]]), None);
    // A role without a goal counts 0.
    assert_eq!(outcome(&[vec![], vec![10]]).unwrap().winners, vec![1]);
}

/// The registry's `draws_tree` flag (the tree view's list of algorithms):
/// exactly minimax and alpha-beta, and each of them traces an abstract
/// tree node by node (one `enter` event per node counted, a `best_move`).
#[test]
fn the_players_that_draw_a_tree_trace_every_node() {
    let drawn: Vec<&str> = gdlkit::search::PLAYERS
        .iter()
        .filter(|p| p.draws_tree)
        .map(|p| p.name)
        .collect();
    assert_eq!(drawn, ["minimax", "alphabeta"]);
    for p in gdlkit::search::PLAYERS {
        assert!(!p.label.is_empty() && !p.description.is_empty(), "{p:?}");
    }
    for name in drawn {
        let (code, v, err) = cli(&[
            "search",
            "--tree",
            "((3 12 8) (2 4 6) (14 5 2))",
            "--algorithm",
            name,
            "--trace",
            "--format",
            "json",
        ]);
        assert_eq!(code, 0, "{err}");
        let events = v["events"].as_array().expect("events");
        let entered = events.iter().filter(|e| e["type"] == "enter").count();
        assert_eq!(serde_json::json!(entered), v["stats"]["nodes"], "{name}");
        assert!(events.iter().any(|e| e["type"] == "best_move"), "{name}");
    }
}
