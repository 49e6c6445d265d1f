//! Relaxed planning and f_JO (thesis 3.3–3.5): the thesis's own numbers
//! (chapter 5) on the corpus games it used, and the lecture's planning
//! example 2 (a project fixture, always run). Squares a1..c3 of the thesis's
//! tic-tac-toe are `(cell X Y)` with the letter a, b, c as X = 1, 2, 3 and
//! the digit as Y (the thesis's lines a1-a2-a3 and a1-b1-c1 are then a row
//! and a column; the game is symmetric under the transpose anyway).
//! Deviations from the thesis are pinned and explained in
//! `docs/planning.md`.

use gdlkit::search::explain::{explain, position, Explanation};
use gdlkit::search::fjo::{Costs, Measure, PlanHeuristic};
use gdlkit::{parse_program, Engine, EngineChoice, StateMachine};

use crate::common::corpus;

fn moves(list: &[&[&str]]) -> Vec<Vec<String>> {
    list.iter()
        .map(|j| j.iter().map(|s| s.to_string()).collect())
        .collect()
}

fn explain_game(text: &str, joint: &[&[&str]], heuristic: &str) -> Explanation {
    let program = parse_program(text);
    let mut m =
        Engine::from_program(&program, EngineChoice::Auto, Default::default()).expect("loads");
    explain(&mut m, &program, &moves(joint), None, heuristic).expect("explains")
}

/// (h_ff, plan) of goal value `goal` after `mv`.
fn ff_after(e: &Explanation, mv: &str, goal: i64) -> (Option<u32>, Vec<String>) {
    let m = e.moves.iter().find(|m| m.mv == mv).expect("move listed");
    let g = m
        .goals
        .iter()
        .find(|g| g.goal == goal)
        .expect("goal listed");
    (g.h_ff, g.plan.clone())
}

fn value_after(e: &Explanation, mv: &str) -> f64 {
    e.moves
        .iter()
        .find(|m| m.mv == mv)
        .expect("move listed")
        .value
        .expect("reachable")
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

#[test]
fn maze_values_of_the_thesis() {
    let Some(text) = corpus::game_or_skip("maze.kif", "planning: maze_values_of_the_thesis") else {
        return;
    };
    // Initially: the only move, then still 3 [move, grab, drop].
    let e = explain_game(&text, &[], "fjo");
    let g100 = e.goals.iter().find(|g| g.goal == 100).unwrap();
    assert_eq!(g100.h_ff, Some(3));
    assert_eq!(g100.plan, s(&["move", "grab", "drop"]));
    assert_eq!(
        ff_after(&e, "move", 100),
        (Some(3), s(&["move", "grab", "drop"]))
    );
    // At the gold (cell c): grab leads to 2 [move, drop], move to 3.
    let e = explain_game(&text, &[&["move"], &["move"]], "fjo");
    assert_eq!(e.moves.len(), 2);
    // (Both actions are in layer 0 of the relaxed plan, listed by name.)
    assert_eq!(ff_after(&e, "grab", 100), (Some(2), s(&["drop", "move"])));
    assert_eq!(
        ff_after(&e, "move", 100),
        (Some(3), s(&["move", "grab", "drop"]))
    );
    // f_JO cannot tell them apart: the losing goal is as near (0 for both).
    assert_eq!(ff_after(&e, "grab", 0).0, Some(2));
    assert_eq!(ff_after(&e, "move", 0).0, Some(3));
    assert_eq!(value_after(&e, "grab"), 0.0);
    assert_eq!(value_after(&e, "move"), 0.0);
    // With the gold back in the first cell: 1 [drop] for 100 as in the
    // thesis; for 0 gdlkit finds 1, not the thesis's 2: in the corpus's
    // rules `goal 0` holds while the robot carries the gold (`(gold i)`,
    // i ≠ a), so the relaxed `drop` makes `goal 0 ∧ terminal` true at once
    // (docs/planning.md, "Deviations").
    let e = explain_game(
        &text,
        &[&["move"], &["move"], &["grab"], &["move"], &["move"]],
        "fjo",
    );
    let g = |q: i64| e.goals.iter().find(|g| g.goal == q).unwrap().clone();
    assert_eq!((g(100).h_ff, g(100).plan), (Some(1), s(&["drop"])));
    assert_eq!((g(0).h_ff, g(0).plan), (Some(1), s(&["drop"])));
    assert_eq!(e.value, Some(0.0));
}

#[test]
fn blocks_values_of_the_thesis() {
    let Some(text) = corpus::game_or_skip("blocks.kif", "planning: blocks_values_of_the_thesis")
    else {
        return;
    };
    let e = explain_game(&text, &[], "fjo");
    let (ff, plan) = ff_after(&e, "(u c a)", 100);
    assert_eq!(ff, Some(2));
    assert_eq!(sorted(plan), s(&["(s a b)", "(s b c)"]));
    let (ff, plan) = ff_after(&e, "(s b c)", 100);
    assert_eq!(ff, Some(3));
    assert_eq!(plan, s(&["(u b c)", "(u c a)", "(s a b)"]));
    // The better move is preferred after one step.
    assert!(value_after(&e, "(u c a)") > value_after(&e, "(s b c)"));
}

/// f_JO of each move of x in a tic-tac-toe position, by the thesis's square.
fn ttt_values(text: &str, joint: &[&[&str]], costs: Costs) -> Vec<(String, f64)> {
    let program = parse_program(text);
    let mut m = Engine::from_program(&program, EngineChoice::Auto, Default::default()).unwrap();
    let mut h = PlanHeuristic::build_with(&program, Measure::Fjo, &mut m, costs).unwrap();
    let s0 = position(&mut m, &moves(joint)).unwrap();
    let legal = m.all_legal_moves(&s0).unwrap();
    let mut out = Vec::new();
    for &mv in &legal[0] {
        let next = m.next_state(&s0, &[mv, legal[1][0]]).unwrap();
        let name = m.terms().display(mv);
        let b = name.as_bytes();
        let square = format!(
            "{}{}",
            (b"abc"[(b[6] - b'1') as usize]) as char,
            b[8] as char
        );
        out.push((square, h.fjo(&m, &next, 0)));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn assert_values(got: &[(String, f64)], want: &[(&str, f64)]) {
    for (sq, v) in want {
        let g = got
            .iter()
            .find(|(s, _)| s == sq)
            .unwrap_or_else(|| panic!("{sq} not legal"));
        assert!((g.1 - v).abs() < 1e-9, "{sq}: f_JO {} want {v}", g.1);
    }
    assert_eq!(got.len(), want.len(), "{got:?}");
}

const X_A1: &[&str] = &["(mark 1 1)", "noop"];
const O_B2: &[&str] = &["noop", "(mark 2 2)"];
const X_B1: &[&str] = &["(mark 2 1)", "noop"];
const O_C1: &[&str] = &["noop", "(mark 3 1)"];

/// The thesis's table, exactly, when the turn passing (`(next (control
/// ...))`, a rule without `does`) costs 0 instead of 4.5's 1.
#[test]
fn tictactoe_table_of_the_thesis_with_free_turns() {
    let Some(text) = corpus::game_or_skip(
        "ticTacToe.kif",
        "planning: tictactoe_table_of_the_thesis_with_free_turns",
    ) else {
        return;
    };
    let costs = Costs {
        world: 0,
        ..Costs::THESIS
    };
    let all = ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"];
    let first: Vec<(&str, f64)> = all.iter().map(|&s| (s, 25.0 / 3.0)).collect();
    assert_values(&ttt_values(&text, &[], costs), &first);
    assert_values(
        &ttt_values(&text, &[X_A1, O_B2], costs),
        &[
            ("a2", 25.0),
            ("a3", 25.0),
            ("b1", 25.0),
            ("c1", 25.0),
            ("b3", 0.0),
            ("c2", 0.0),
            ("c3", 0.0),
        ],
    );
    assert_values(
        &ttt_values(&text, &[X_A1, O_B2, X_B1, O_C1], costs),
        &[
            ("a2", 0.0),
            ("a3", 25.0),
            ("b3", -25.0),
            ("c2", -25.0),
            ("c3", -25.0),
        ],
    );
}

/// With the thesis's costs (4.5: the turn passing costs 1) x's distances
/// are one higher (x must first get the turn back): gdlkit's numbers,
/// pinned (docs/planning.md, "Deviations").
#[test]
fn tictactoe_with_thesis_costs_pinned() {
    let Some(text) = corpus::game_or_skip(
        "ticTacToe.kif",
        "planning: tictactoe_with_thesis_costs_pinned",
    ) else {
        return;
    };
    let got = ttt_values(&text, &[], Costs::THESIS);
    // x's line: 2 marks + 1 turn = 3; o's: 3 marks: 50/3 - 50/3.
    let all = ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"];
    let first: Vec<(&str, f64)> = all.iter().map(|&s| (s, 0.0)).collect();
    assert_values(&got, &first);
    assert_values(
        &ttt_values(&text, &[X_A1, O_B2], Costs::THESIS),
        &[
            ("a2", 0.0),
            ("a3", 0.0),
            ("b1", 0.0),
            ("c1", 0.0),
            ("b3", -25.0 / 3.0),
            ("c2", -25.0 / 3.0),
            ("c3", -25.0 / 3.0),
        ],
    );
    assert_values(
        &ttt_values(&text, &[X_A1, O_B2, X_B1, O_C1], Costs::THESIS),
        &[
            ("a2", -25.0),
            ("a3", 0.0),
            ("b3", -100.0 / 3.0),
            ("c2", -100.0 / 3.0),
            ("c3", -100.0 / 3.0),
        ],
    );
    // The thesis's choice, 3. Xa3 (blocking o's diagonal), is still the best.
    let last = ttt_values(&text, &[X_A1, O_B2, X_B1, O_C1], Costs::THESIS);
    let best = last.iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap();
    assert_eq!(best.0, "a3");
}

#[test]
fn lecture_planning_example_2() {
    let text = include_str!("../fixtures/planning_example.kif");
    let program = parse_program(text);
    let mut m = Engine::from_program(&program, EngineChoice::Auto, Default::default()).unwrap();
    let mut h = PlanHeuristic::build(&program, Measure::Fjo, &mut m).unwrap();
    let s0 = m.initial_state().unwrap();
    h.load(&m, &s0);
    let (p, g) = h.graph();
    let goal_atom = p.goal_atoms[0].iter().find(|x| x.0 == 100).unwrap().1;
    let t100 = p.goals[0].iter().find(|x| x.0 == 100).unwrap().1;
    g.run_hmax(p);
    g.run_hadd(p);
    assert_eq!(g.hadd(goal_atom), 4, "h_add counts e twice");
    assert_eq!(g.hmax(goal_atom), 3);
    let mut plan = Vec::new();
    assert_eq!(g.hff(p, t100, Some(&mut plan)), 3, "h_FF counts op2 once");
    let names: Vec<String> = plan.iter().map(|st| p.store.display(st.mv)).collect();
    assert_eq!(names, s(&["op2", "op1", "op0"]));
    assert_eq!(
        plan.iter().map(|st| st.layer).collect::<Vec<_>>(),
        [0, 1, 2]
    );
    // Through `explain` too (h_FF of the goal formula with `terminal`).
    let e = explain_game(text, &[], "hff");
    assert_eq!(e.value, Some(3.0));
    assert_eq!(e.moves.len(), 1);
    assert_eq!(e.moves[0].mv, "op2");
    assert_eq!(e.moves[0].value, Some(2.0));
}

/// Where CoolerJo ran out of memory (thesis 5.4): gdlkit grounds minichess
/// and CoolerJo with f_JO plays the mate 1. Kb2 Kb4 2. Rd4#.
#[test]
fn coolerjo_mates_in_minichess() {
    use gdlkit::search::{build_player, PlayerSpec};
    let text = include_str!("../../../../games/minichess.kif");
    let program = parse_program(text);
    let mut m = Engine::from_program(&program, EngineChoice::Auto, Default::default()).unwrap();
    let spec: PlayerSpec = "coolerjo:depth=3".parse().unwrap();
    let mut white = build_player(&spec, &program, &mut m, 1).unwrap();
    let s0 = m.initial_state().unwrap();
    let mv = white.select_move(&mut m, &s0, 0).unwrap();
    assert_eq!(m.terms().display(mv), "(move wk c 1 b 2)");
    let s1 = position(
        &mut m,
        &moves(&[
            &["(move wk c 1 b 2)", "noop"],
            &["noop", "(move bk a 4 b 4)"],
        ]),
    )
    .unwrap();
    let mv = white.select_move(&mut m, &s1, 0).unwrap();
    assert_eq!(m.terms().display(mv), "(move wr d 1 d 4)");
    let black = m.legal_moves(&s1, 1).unwrap()[0];
    let end = m.next_state(&s1, &[mv, black]).unwrap();
    assert!(m.is_terminal(&end).unwrap());
    assert_eq!(m.goals(&end).unwrap()[0], Some(100));
    // The f_JO values of the first position are finite and explainable.
    let e = explain(&mut m, &program, &[], Some("white"), "fjo").unwrap();
    assert!(e.moves.len() >= 5, "{} moves", e.moves.len());
    assert!(e.moves.iter().all(|m| m.value.is_some_and(f64::is_finite)));
}

// ---- the CLI -----------------------------------------------------------------------

struct MapHost(std::collections::HashMap<String, String>);

impl gdlkit_cli::cli::Host for MapHost {
    fn read_file(&mut self, path: &str) -> Result<String, String> {
        self.0
            .get(path)
            .cloned()
            .ok_or_else(|| "no such file".into())
    }
    fn write_file(&mut self, _: &str, _: &str) -> Result<(), String> {
        Err("read-only".into())
    }
    fn stdout_is_terminal(&self) -> bool {
        false
    }
}

fn cli(files: &[(&str, &str)], args: &[&str]) -> gdlkit_cli::cli::Output {
    let mut host = MapHost(
        files
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    );
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    gdlkit_cli::cli::run(&args, &mut host)
}

#[test]
fn cli_explain_json_text_and_errors() {
    let kif = include_str!("../fixtures/planning_example.kif");
    let files = [
        ("ex.kif", kif),
        ("moves.json", r#"[["op2"]]"#),
        ("bad.json", r#"[["op0"]]"#),
    ];
    let out = cli(&files, &["explain", "ex.kif", "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["role"], "player");
    assert_eq!(v["heuristic"], "fjo");
    assert_eq!(v["terminal"], false);
    // f_JO = 50/3 - 50/3 = 0: `goal 0` is `(not reached)`, which holds now
    // and keeps its value in the relaxation, so `goal 0 ∧ terminal` is as
    // near as `goal 100 ∧ terminal` (the known weakness of negated goals,
    // docs/planning.md).
    assert_eq!(v["value"], 0.0, "{v}");
    let g0 = v["goals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["goal"] == 0)
        .unwrap();
    assert_eq!(g0["h_ff"], 3);
    let m = &v["moves"][0];
    assert_eq!(m["move"], "op2");
    let g = m["goals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["goal"] == 100)
        .unwrap();
    assert_eq!(g["q"], 50);
    assert_eq!(g["h_max"], 2);
    assert_eq!(g["h_ff"], 2);
    assert_eq!(g["plan"], serde_json::json!(["op1", "op0"]));
    let out = cli(&files, &["explain", "ex.kif", "--moves", "moves.json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("op1"), "{}", out.stdout);
    let out = cli(&files, &["explain", "ex.kif", "--moves", "bad.json"]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("not legal"), "{}", out.stderr);
    let out = cli(&files, &["explain", "ex.kif", "--heuristic", "nope"]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("unknown heuristic"), "{}", out.stderr);
    let out = cli(&files, &["explain", "ex.kif", "--role", "nobody"]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("unknown role"), "{}", out.stderr);
    let out = cli(&files, &["explain", "missing.kif"]);
    assert_eq!(out.code, 2);
}

/// CoolerJo on one role is best-first with f_JO: it plays the maze to the
/// gold and back (the thesis's [move, move, grab, move, move, drop]).
#[test]
fn coolerjo_solves_the_maze() {
    use gdlkit::search::{build_player, PlayerSpec};
    let text = include_str!("../../../../games/maze.kif");
    let program = parse_program(text);
    let mut m = Engine::from_program(&program, EngineChoice::Auto, Default::default()).unwrap();
    let spec: PlayerSpec = "coolerjo:nodes=5000".parse().unwrap();
    let mut p = build_player(&spec, &program, &mut m, 1).unwrap();
    let mut st = m.initial_state().unwrap();
    let mut played = Vec::new();
    while !m.is_terminal(&st).unwrap() && played.len() < 20 {
        let mv = p.select_move(&mut m, &st, 0).unwrap();
        played.push(m.terms().display(mv));
        st = m.next_state(&st, &[mv]).unwrap();
    }
    assert_eq!(played, s(&["move", "move", "grab", "move", "move", "drop"]));
    assert_eq!(m.goals(&st).unwrap()[0], Some(100));
}
