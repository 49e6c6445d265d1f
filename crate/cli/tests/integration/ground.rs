//! `gdlkit ground`: the text and the JSON carry the same report, whose
//! atom counts are the grounded program's; chess stops with the rule and
//! line the size estimate names; a game with errors is an error.

use gdlkit_cli::cli::{run, MemoryHost, Output};
use serde_json::Value;

const TIC_TAC_TOE: &str = include_str!("../../../../games/ticTacToe.kif");
const CHESS: &str = include_str!("../../../../games/chess.kif");
const TWO_BOARDS: &str = include_str!("../../../engine/testdata/two_boards_game.kif");

fn gdlkit(args: &[&str]) -> Output {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let mut files = MemoryHost::with([
        ("ticTacToe.kif", TIC_TAC_TOE),
        ("chess.kif", CHESS),
        ("twoBoards.kif", TWO_BOARDS),
        ("bad.kif", "(role x) (<= (legal x a) (true ?y"),
        ("empty.kif", ""),
    ]);
    run(&args, &mut files)
}

fn json(args: &[&str]) -> Value {
    let out = gdlkit(args);
    assert_eq!(out.code, 0, "{}", out.stderr);
    serde_json::from_str(&out.stdout).expect("JSON")
}

#[test]
fn tic_tac_toe_text_and_json_agree() {
    let j = json(&["ground", "ticTacToe.kif", "--format", "json"]);
    assert_eq!(j["outcome"], "grounded");
    let relations = j["relations"].as_array().expect("relations");
    assert!(relations.len() >= 5, "{relations:?}");
    let text = gdlkit(&["ground", "ticTacToe.kif"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    let out = &text.stdout;
    assert!(out.starts_with("ticTacToe.kif: grounded"), "{out}");
    for r in relations {
        let line = format!("  {:>8}  {}\n", r["atoms"], r["relation"].as_str().unwrap());
        assert!(out.contains(&line), "{line:?} not in\n{out}");
    }
    let net = &j["network"];
    let gates = net["gates"].as_u64().expect("gates");
    let depth = net["depth"].as_u64().expect("depth");
    assert!(gates > 0 && depth > 0, "{net}");
    assert!(out.contains(&format!("{gates} gates")) && out.contains(&format!("depth {depth}")));
    // The report's atoms are the network's propositions.
    let listed: u64 = relations.iter().map(|r| r["atoms"].as_u64().unwrap()).sum();
    let aux = j["auxiliary_atoms"].as_u64().unwrap();
    assert_eq!(listed + aux, net["atoms"].as_u64().unwrap());
    let top = j["top_rules"].as_array().expect("top rules");
    assert!(!top.is_empty());
    assert!(top
        .windows(2)
        .all(|w| w[0]["instances"].as_u64() >= w[1]["instances"].as_u64()));
}

/// Chess is not grounded within a time too short for it (`--seconds
/// 0.05`; it grounds in about a second): the stop names the reason, the
/// rule and its line in both formats.
#[test]
fn chess_stops_with_the_rule_and_line() {
    let j = json(&[
        "ground",
        "chess.kif",
        "--format",
        "json",
        "--seconds",
        "0.05",
    ]);
    assert_ne!(j["outcome"], "grounded");
    let reason = j["stop"]["reason"].as_str().unwrap_or_default();
    assert!(reason.contains("50 milliseconds"), "{j}");
    let stop = &j["stop"];
    let line = stop["line"].as_u64().expect("a line");
    let rule = stop["rule"].as_str().expect("a rule");
    let text = gdlkit(&["ground", "chess.kif", "--seconds", "0.05"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    let expected = format!("where: the rule for {rule} at line {line}");
    assert!(text.stdout.contains(&expected), "{}", text.stdout);
    let source = CHESS.lines().nth(line as usize - 1).expect("the line");
    assert!(source.contains(rule.split('/').next().unwrap()), "{source}");
}

#[test]
fn a_game_with_errors_is_an_error() {
    let out = gdlkit(&["ground", "bad.kif"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("bad.kif"), "{}", out.stderr);
}

/// A file that parses but is no game (no roles, no `terminal`) is refused
/// with the diagnostics `check` gives, not grounded to an empty network.
#[test]
fn a_file_check_rejects_is_not_grounded() {
    for format in ["text", "json"] {
        let out = gdlkit(&["ground", "empty.kif", "--format", format]);
        let check = gdlkit(&["check", "empty.kif"]);
        assert_eq!((out.code, check.code), (1, 1), "{}", out.stderr);
        assert!(out.stdout.is_empty(), "{}", out.stdout);
        assert!(
            out.stderr.contains("empty.kif:1:1: error[GDL060]"),
            "{}",
            out.stderr
        );
        assert!(check.stdout.contains("GDL060") || check.stderr.contains("GDL060"));
    }
}

/// Two boards played at once: both formats list the same two subgames.
#[test]
fn subgames_in_text_and_json() {
    let j = json(&["ground", "twoBoards.kif", "--format", "json"]);
    let parts = j["network"]["subgames"].as_array().expect("subgames");
    assert_eq!(parts.len(), 2, "{parts:?}");
    let text = gdlkit(&["ground", "twoBoards.kif"]);
    let each: Vec<String> = (parts.iter())
        .map(|p| {
            format!(
                "{} base, {} legal, {} roles moving",
                p["base"], p["legals"], p["movers"]
            )
        })
        .collect();
    let line = format!(
        "subgames: 2 parts the moves change apart: {}\n",
        each.join("; ")
    );
    assert!(
        text.stdout.contains(&line),
        "{line:?} not in\n{}",
        text.stdout
    );
    let none = json(&["ground", "ticTacToe.kif", "--format", "json"]);
    assert_eq!(none["network"]["subgames"], serde_json::json!([]));
}
