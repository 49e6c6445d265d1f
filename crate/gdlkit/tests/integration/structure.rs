//! The structure of games (lecture 004), with expected values written by
//! hand from the rules, the same structure on copies whose symbols are all
//! renamed (the detection must not read names), and the lecture's Reversi
//! evaluation numbers. Corpus games come from `../shared` and are skipped
//! with a notice when it is missing; the project's games always run.

use crate::common::corpus;

use gdlkit::search::heuristics;
use gdlkit::structure::{self, Options, Structure};
use gdlkit::{load_engine, parse_program, EngineChoice, StateMachine};
use serde_json::{json, Value};
use std::collections::HashMap;

fn structure_of(text: &str) -> Structure {
    let program = parse_program(text);
    let mut m = load_engine(text, EngineChoice::Auto).expect("game loads");
    structure::find(&program, &mut m, Options::default()).expect("structure")
}

fn project(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../games")
        .join(name);
    std::fs::read_to_string(path).unwrap()
}

const KEYWORDS: [&str; 15] = [
    "role", "init", "true", "does", "next", "legal", "goal", "terminal", "base", "input",
    "distinct", "not", "or", "and", "<=",
];

/// Renames every symbol that is not a keyword, a variable or a number to
/// an opaque `zN` (comments dropped); returns the text and the renaming.
fn rename(text: &str) -> (String, HashMap<String, String>) {
    let mut map: HashMap<String, String> = HashMap::new();
    let mut out = String::new();
    for line in text.lines() {
        let line = line.split(';').next().unwrap_or("");
        let mut token = String::new();
        let flush = |token: &mut String, out: &mut String, map: &mut HashMap<String, String>| {
            if token.is_empty() {
                return;
            }
            let lower = token.to_lowercase();
            let keep = token.starts_with('?')
                || KEYWORDS.contains(&lower.as_str())
                || lower.parse::<i64>().is_ok();
            if keep {
                out.push_str(token);
            } else {
                let n = map.len();
                out.push_str(map.entry(lower).or_insert_with(|| format!("z{n}")));
            }
            token.clear();
        };
        for ch in line.chars() {
            if ch == '(' || ch == ')' || ch.is_whitespace() {
                flush(&mut token, &mut out, &mut map);
                out.push(ch);
            } else {
                token.push(ch);
            }
        }
        flush(&mut token, &mut out, &mut map);
        out.push('\n');
    }
    (out, map)
}

/// The structure as JSON with every name mapped through `map` (identity
/// when empty) and name-sorted lists sorted, so that a renamed copy
/// compares equal. Domains, the feature names, coordinate values, the
/// drawings (display only, chosen by names) and the count of terminal
/// states (they depend on names or on the exact playouts) are left out.
fn normal(st: &Structure, map: &HashMap<String, String>) -> Value {
    walk(&serde_json::to_value(st).unwrap(), "", map)
}

const SORTED: [&str; 13] = [
    // A scene's places start where the first sampled state lists them.
    "places",
    "things",
    "numbers",
    "pieces",
    "markers",
    "noop_moves",
    "teams",
    "team",
    "boards",
    "successors",
    "orders",
    "counters",
    "quantities",
];

fn walk(v: &Value, key: &str, map: &HashMap<String, String>) -> Value {
    match v {
        Value::String(s) => Value::String(
            s.split(' ')
                .map(|t| map.get(t).cloned().unwrap_or_else(|| t.to_string()))
                .collect::<Vec<_>>()
                .join(" "),
        ),
        Value::Array(a) => {
            let inner = if key == "teams" { "team" } else { key };
            let mut items: Vec<Value> = a.iter().map(|x| walk(x, inner, map)).collect();
            if SORTED.contains(&key) {
                items.sort_by_key(|x| x.to_string());
            }
            Value::Array(items)
        }
        Value::Object(o) => Value::Object(
            o.iter()
                .filter(|(k, _)| {
                    ![
                        "domains",
                        "features",
                        "terminal_states_sampled",
                        "values",
                        "drawings",
                    ]
                    .contains(&k.as_str())
                })
                .map(|(k, x)| {
                    // Only the goal values are keyed by names (the roles).
                    let k2 = match map.get(k.as_str()) {
                        Some(r) if key == "goal_values" => r.clone(),
                        _ => k.clone(),
                    };
                    (k2, walk(x, k, map))
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Checks the structure of `text` against `expect` (a partial JSON object:
/// only the keys given are compared), then the same on a renamed copy.
fn check(text: &str, expect: Value) -> Structure {
    let st = structure_of(text);
    let got = normal(&st, &HashMap::new());
    let none = HashMap::new();
    for (k, v) in expect.as_object().unwrap() {
        let want = walk(v, k, &none);
        assert_eq!(got.get(k), Some(&want), "{k}");
    }
    assert!(
        st.states_sampled >= 500,
        "{} states sampled",
        st.states_sampled
    );
    let (renamed, map) = rename(text);
    let st2 = structure_of(&renamed);
    assert_eq!(
        normal(&st, &map),
        normal(&st2, &none),
        "the renamed copy has another structure"
    );
    assert_eq!(st.features.len(), st2.features.len());
    st
}

/// A board's fields that are decided by the rules (not by the sample).
fn board(st: &Structure, fluent: &str) -> Value {
    let b = st
        .boards
        .iter()
        .find(|b| b.fluent == fluent)
        .unwrap_or_else(|| panic!("no board {fluent}: {:?}", st.boards));
    json!({"arity": b.arity, "coordinates": b.coordinates, "contents": b.contents,
           "size": b.size, "ordered": b.ordered, "order": b.order})
}

#[test]
fn project_tic_tac_toe() {
    // Always runs (no ../shared needed). x and o alternate (the other
    // role's only move is noop), the goals are 100/0, 50/50 or 0/100, so
    // they sum to 100 and each role is its own team. `cell` has three
    // arguments; the first two determine the third (one mark per cell);
    // there is no successor relation, so the board is not ordered. Every
    // mark is on several cells in some state: all markers, no pieces.
    let st = check(
        &project("ticTacToe.kif"),
        json!({"roles": ["x", "o"], "turn_taking": true, "noop_moves": ["noop"],
               "teams": [["x"], ["o"]], "constant_sum": 100,
               "goal_values": {"x": [0, 50, 100], "o": [0, 50, 100]},
               "successors": [], "counters": [], "quantities": []}),
    );
    assert_eq!(
        board(&st, "cell"),
        json!({"arity": 3, "coordinates": [0, 1], "contents": [2], "size": [3, 3],
               "ordered": [false, false], "order": [null, null]})
    );
    assert_eq!(st.boards[0].markers, ["blank", "o", "x"]);
    assert!(st.boards[0].pieces.is_empty());
    assert_eq!(
        st.features,
        ["count.cell.blank", "count.cell.o", "count.cell.x"]
    );
    // Deterministic for a seed.
    let again = structure_of(&project("ticTacToe.kif"));
    assert_eq!(
        serde_json::to_value(&st).unwrap(),
        serde_json::to_value(&again).unwrap()
    );
}

#[test]
fn corpus_tic_tac_toe() {
    let Some(text) = corpus::game_or_skip("ticTacToe.kif", "structure: corpus_tic_tac_toe") else {
        return;
    };
    // As the project's, with the lecture's names: blank is `b`.
    let st = check(
        &text,
        json!({"roles": ["xplayer", "oplayer"], "turn_taking": true, "noop_moves": ["noop"],
               "teams": [["xplayer"], ["oplayer"]], "constant_sum": 100,
               "goal_values": {"xplayer": [0, 50, 100], "oplayer": [0, 50, 100]},
               "successors": [], "orders": [], "counters": []}),
    );
    assert_eq!(board(&st, "cell")["size"], json!([3, 3]));
    assert_eq!(st.boards[0].markers, ["b", "o", "x"]);
}

#[test]
fn connect_four() {
    let Some(text) = corpus::game_or_skip("connectFour.kif", "structure: connect_four") else {
        return;
    };
    // `succ` 1..8 orders both coordinates (columns 1..8, rows 1..6: the
    // domain of the row argument is what `next` can put there); only
    // occupied cells are fluents, and each colour fills many cells.
    let st = check(
        &text,
        json!({"roles": ["red", "black"], "turn_taking": true, "constant_sum": 100,
               "teams": [["red"], ["black"]]}),
    );
    assert_eq!(
        st.successors[0].chain,
        ["1", "2", "3", "4", "5", "6", "7", "8"]
    );
    assert_eq!(
        board(&st, "cell"),
        json!({"arity": 3, "coordinates": [0, 1], "contents": [2], "size": [8, 6],
               "ordered": [true, true], "order": ["succ", "succ"]})
    );
    assert_eq!(st.boards[0].markers, ["black", "red"]);
}

#[test]
fn breakthrough() {
    let Some(text) = corpus::game_or_skip("breakthrough.kif", "structure: breakthrough") else {
        return;
    };
    // 8x8 `cellholds`, both coordinates on `succ` 1..8; pawns of a colour
    // are on many cells: markers. Goals 100/0, one winner.
    let st = check(
        &text,
        json!({"roles": ["white", "black"], "turn_taking": true, "constant_sum": 100,
               "goal_values": {"white": [0, 100], "black": [0, 100]}}),
    );
    assert_eq!(
        board(&st, "cellholds"),
        json!({"arity": 3, "coordinates": [0, 1], "contents": [2], "size": [8, 8],
               "ordered": [true, true], "order": ["succ", "succ"]})
    );
    assert_eq!(st.boards[0].markers, ["black", "white"]);
}

#[test]
fn chess() {
    let Some(text) = corpus::game_or_skip("chess_200.kif", "structure: chess") else {
        return;
    };
    // `(cell file rank colour piece)`: file and rank determine the piece
    // (two content arguments); files on `nextfile` a..h, ranks on
    // `nextrank` 1..8 (the shortest chain holding them, not `succ` 1..201).
    // A king is never on two cells: a piece; pawns are markers. `step`
    // goes up by one along `succ` every move and the game ends at 201.
    let st = check(
        &text,
        json!({"roles": ["white", "black"], "turn_taking": true, "constant_sum": 100,
               "teams": [["white"], ["black"]],
               "counters": [{"fluent": "step", "argument": 0, "successor": "succ", "limit": "201"}]}),
    );
    assert_eq!(
        board(&st, "cell"),
        json!({"arity": 4, "coordinates": [0, 1], "contents": [2, 3], "size": [8, 8],
               "ordered": [true, true], "order": ["nextfile", "nextrank"]})
    );
    let b = &st.boards[0];
    assert!(
        b.pieces.contains(&"white king".to_string()),
        "{:?}",
        b.pieces
    );
    assert!(b.pieces.contains(&"black king".to_string()));
    assert!(b.markers.contains(&"white pawn".to_string()));
    assert!(st
        .features
        .contains(&"distance.cell.black_king.white_king".to_string()));
}

#[test]
fn reversi() {
    let Some(text) = corpus::game_or_skip("reversi.kif", "structure: reversi") else {
        return;
    };
    // 8x8 board of discs: coordinates 1..8 lie on `succ` 0..64 (the
    // shortest chain holding them); both colours cover many cells. The
    // recursive `lessthan` is an order along `succ`.
    let st = check(
        &text,
        json!({"roles": ["black", "red"], "turn_taking": true, "noop_moves": ["noop"],
               "constant_sum": 100, "orders": [{"relation": "lessthan", "successor": "succ",
               "ascending": true, "reflexive": false}]}),
    );
    assert_eq!(
        board(&st, "cell"),
        json!({"arity": 3, "coordinates": [0, 1], "contents": [2], "size": [8, 8],
               "ordered": [true, true], "order": ["succ", "succ"]})
    );
    assert_eq!(st.boards[0].markers, ["black", "red"]);
    assert!(st.features.contains(&"count.cell.red".to_string()));
}

#[test]
fn maze() {
    let Some(text) = corpus::game_or_skip("maze.kif", "structure: maze") else {
        return;
    };
    // One role, so one team; goals 0 or 100 do not sum to a constant.
    // `step` counts along `succ` to 10, where the game ends. The robot's
    // `cell` has one argument: no board.
    check(
        &text,
        json!({"roles": ["robot"], "teams": [["robot"]], "constant_sum": null,
               "goal_values": {"robot": [0, 100]}, "boards": [],
               "counters": [{"fluent": "step", "argument": 0, "successor": "succ", "limit": "10"}]}),
    );
}

#[test]
fn blocks() {
    let Some(text) = corpus::game_or_skip("blocks.kif", "structure: blocks") else {
        return;
    };
    // `(on x y)`: a block is on at most one block, so the first argument
    // determines the second: a 1-D "board" over the blocks, each block on
    // at most one place (pieces). `step` counts along `successor` to 4.
    let st = check(
        &text,
        json!({"roles": ["robot"], "teams": [["robot"]],
               "counters": [{"fluent": "step", "argument": 0, "successor": "successor", "limit": "4"}]}),
    );
    assert_eq!(board(&st, "on")["coordinates"], json!([0]));
}

#[test]
fn racetrack_corridor() {
    let Some(text) = corpus::game_or_skip("racetrackcorridor.kif", "structure: racetrack_corridor")
    else {
        return;
    };
    // Both players move at once: not turn-taking. `(cell lane row column
    // content)` is a 3-D board (lanes unordered, rows on `nrow` a..e,
    // columns on `successor`); each player's car is on one cell: pieces.
    // `walls` holds an amount per player: a quantity along `successor`.
    let st = check(
        &text,
        json!({"roles": ["white", "black"], "turn_taking": false, "noop_moves": [],
               "counters": [{"fluent": "step", "argument": 0, "successor": "successor", "limit": "20"}]}),
    );
    assert_eq!(
        board(&st, "cell"),
        json!({"arity": 4, "coordinates": [0, 1, 2], "contents": [3], "size": [2, 5, 3],
               "ordered": [false, true, true], "order": [null, "nrow", "successor"]})
    );
    assert_eq!(st.boards[0].pieces, ["black", "white"]);
    assert!(st
        .quantities
        .iter()
        .any(|q| q.fluent == "walls" && q.inputs == [0]));
}

#[test]
fn nim() {
    let Some(text) = corpus::game_or_skip("nim1.kif", "structure: nim") else {
        return;
    };
    // `(heap h n)`: the heap determines its size, and sizes lie on `succ`:
    // four heaps, each a quantity (no markers on a board of amounts).
    let st = check(
        &text,
        json!({"turn_taking": true, "noop_moves": ["noop"], "constant_sum": 100,
               "counters": []}),
    );
    assert_eq!(board(&st, "heap")["coordinates"], json!([0]));
    assert_eq!(board(&st, "heap")["size"], json!([4]));
    assert!(st.boards[0].markers.is_empty());
    let q = st.quantities.iter().find(|q| q.fluent == "heap").unwrap();
    assert_eq!(
        (q.argument, q.inputs.clone(), q.successor.as_str()),
        (1, vec![0], "succ")
    );
    assert!(st.features.contains(&"quantity.heap.a".to_string()));
}

/// The lecture's example: a state of `reversi.kif` with `n` red discs.
fn reversi_value(text: &str, heuristic: &str, n: usize) -> f64 {
    let program = parse_program(text);
    let mut m = load_engine(text, EngineChoice::Auto).unwrap();
    let mut h = heuristics::build(heuristic, &program, &mut m).unwrap();
    let mut fluents = Vec::new();
    for k in 0..n {
        let f = format!("(cell {} {} red)", 1 + k / 8, 1 + k % 8);
        fluents.push(gdlkit::program::parse_ground_term(m.terms_mut(), &f).unwrap());
    }
    // Black discs elsewhere do not change the count of red ones.
    let f = gdlkit::program::parse_ground_term(m.terms_mut(), "(cell 8 8 black)").unwrap();
    fluents.push(f);
    let f = gdlkit::program::parse_ground_term(m.terms_mut(), "(control red)").unwrap();
    fluents.push(f);
    let s = m.state_from_fluents(&fluents);
    let red = m
        .roles()
        .iter()
        .position(|&r| m.terms().display(r) == "red")
        .unwrap();
    h.evaluate(&mut m, &s, red).unwrap()
}

#[test]
fn reversi_evaluation_numbers() {
    let Some(text) = corpus::game_or_skip("reversi.kif", "structure: reversi_evaluation_numbers")
    else {
        return;
    };
    // V = n/64, E = 1 + R⁻ + (R⁺ − R⁻ − 2)·V = 1 + 98·V with goals 0..100.
    for (n, e) in [(8, 13.25), (12, 19.375), (10, 16.3125), (14, 22.4375)] {
        let got = reversi_value(&text, "feature:count.cell.red:max", n);
        assert!((got - e).abs() < 1e-9, "{n} discs: {got}, lecture {e}");
    }
}

#[test]
fn suicide_reversi_evaluation_numbers() {
    let Some(text) = corpus::game_or_skip(
        "reversiSuicide.kif",
        "structure: suicide_reversi_evaluation_numbers",
    ) else {
        return;
    };
    // The minimising function: E = 1 + 98·(1 − V).
    for (n, e) in [(8, 86.75), (12, 80.625), (10, 83.6875), (14, 77.5625)] {
        let got = reversi_value(&text, "feature:count.cell.red:min", n);
        assert!((got - e).abs() < 1e-9, "{n} discs: {got}, lecture {e}");
    }
}

#[test]
fn unknown_feature_is_a_clear_error() {
    use gdlkit::error::HeuristicError;
    let text = project("ticTacToe.kif");
    let program = parse_program(&text);
    let mut m = load_engine(&text, EngineChoice::Auto).unwrap();
    let err = heuristics::build("feature:count.cell.z:max", &program, &mut m)
        .err()
        .unwrap();
    match &err {
        HeuristicError::UnknownFeature { name, known } => {
            assert_eq!(name, "count.cell.z");
            assert!(known.contains("count.cell.x"), "{known}");
        }
        other => panic!("not an unknown feature: {other:?}"),
    }
    assert!(err.to_string().contains("count.cell.x"), "{err}");
    let err = heuristics::build("feature:count.cell.x:up", &program, &mut m)
        .err()
        .unwrap();
    assert_eq!(err, HeuristicError::FeatureDirection("up".into()));
    assert!(err.to_string().contains("neither max nor min"), "{err}");
}

#[test]
fn board_shapes_come_from_the_rules() {
    // Hanoi's discs on pegs, Kalah's pits and stores and Blocks World's
    // stacks are found from the rules and the sample: `check` also finds
    // the same shapes (and sizes, stores) in a copy with every symbol renamed.
    for (game, fluent, shape) in [
        ("hanoi.kif", "slot", "pegs"),
        ("kalah.kif", "pit", "mancala"),
        ("blocksWorld.kif", "on", "stacks"),
        ("kuhnPoker.kif", "holds", "hands"),
    ] {
        let st = check(&project(game), json!({}));
        let b = st.boards.iter().find(|b| b.fluent == fluent).unwrap();
        assert_eq!(b.shape, shape, "{game}");
        let others = st.boards.iter().filter(|b| b.fluent != fluent);
        assert!(others.clone().all(|b| b.shape == "grid"), "{game}");
    }
    let st = check(&project("ticTacToe.kif"), json!({}));
    assert!(st.boards.iter().all(|b| b.shape == "grid"));
    assert!(st.scene.is_none());
}

#[test]
fn scenes_come_from_the_rules() {
    // Games without a board: lamps, rooms and doors are found from the
    // sample, and `check` finds the same scene in a renamed copy.
    for (game, kind, places, looks) in [
        ("buttonsAndLights.kif", "lamps", 2, vec![]),
        ("buttonsAndLightsCounter.kif", "lamps", 2, vec![]),
        ("maze.kif", "rooms", 5, vec!["agent", "item"]),
        ("montyHall.kif", "doors", 3, vec!["cover", "item", "item"]),
    ] {
        let st = check(&project(game), json!({}));
        let scene = st
            .scene
            .as_ref()
            .unwrap_or_else(|| panic!("{game}: no scene"));
        assert_eq!(scene.kind, kind, "{game}");
        assert_eq!(scene.places.len(), places, "{game}: {scene:?}");
        let mut got: Vec<&str> = scene.things.iter().map(|t| t.look.as_str()).collect();
        got.sort();
        assert_eq!(got, looks, "{game}");
    }
}
