//! `explain` as the page draws it: the `thesis` costs reproduce the thesis's
//! tic-tac-toe table (every first move 25/3), each move's board cells are
//! the cells it marks, each plan action's cells the cells its move names,
//! and `chosen`/`runner_up` are the best and second-best values.

use gdlkit::search::explain::{explain_text, ExplainOptions, Explanation};

const TIC_TAC_TOE: &str = include_str!("../../../../games/ticTacToe.kif");

fn explain(moves: &[[&str; 2]], heuristic: &str, costs: Option<&str>) -> Explanation {
    let o = ExplainOptions {
        moves: moves
            .iter()
            .map(|j| j.iter().map(|m| m.to_string()).collect())
            .collect(),
        role: Some("x".into()),
        heuristic: heuristic.into(),
        costs: costs.map(str::to_string),
        ..ExplainOptions::default()
    };
    explain_text(TIC_TAC_TOE, &o).unwrap()
}

/// `(mark 2 3)` → `["2", "3"]`.
fn mark_cell(mv: &str) -> Vec<String> {
    let inner = mv.trim_start_matches("(mark ").trim_end_matches(')');
    inner.split(' ').map(str::to_string).collect()
}

#[test]
fn thesis_costs_give_every_first_move_25_thirds() {
    let e = explain(&[], "fjo", Some("thesis"));
    assert_eq!(e.heuristic, "fjo-thesis");
    assert_eq!(e.moves.len(), 9);
    for m in &e.moves {
        let v = m.value.unwrap();
        assert!((v - 25.0 / 3.0).abs() < 1e-9, "{}: {v}", m.mv);
    }
    // The same preset by name, and the default costs differ (deviation 2).
    let named = explain(&[], "fjo-thesis", None);
    assert_eq!(
        named.moves.iter().map(|m| m.value).collect::<Vec<_>>(),
        e.moves.iter().map(|m| m.value).collect::<Vec<_>>()
    );
    let default = explain(&[], "fjo", Some("default"));
    assert_eq!(default.heuristic, "fjo");
    assert!(default
        .moves
        .iter()
        .all(|m| (m.value.unwrap() - 25.0 / 3.0).abs() > 1e-6));
}

#[test]
fn unknown_costs_are_an_error() {
    let o = ExplainOptions {
        costs: Some("cheap".into()),
        ..ExplainOptions::default()
    };
    let err = explain_text(TIC_TAC_TOE, &o).unwrap_err();
    assert!(
        matches!(&err, gdlkit::error::ExplainError::Heuristic(
            gdlkit::error::HeuristicError::UnknownCosts { name, .. }
        ) if name == "cheap"),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "unknown costs `cheap` (costs: default, thesis)"
    );
}

#[test]
fn move_and_plan_cells_are_the_cells_marked() {
    let e = explain(
        &[["(mark 1 1)", "noop"], ["noop", "(mark 2 2)"]],
        "fjo",
        None,
    );
    assert_eq!(e.moves.len(), 7);
    let mut plans = 0;
    for m in &e.moves {
        // Only the marked cell changes (the turn is not on the board).
        assert_eq!(m.cells, vec![mark_cell(&m.mv)], "{}", m.mv);
        for g in &m.goals {
            assert_eq!(g.plan_cells.len(), g.plan.len(), "{g:?}");
            for (step, cells) in g.plan.iter().zip(&g.plan_cells) {
                let mv = step.split_once(": ").map_or(step.as_str(), |(_, mv)| mv);
                let want: Vec<Vec<String>> = if mv.starts_with("(mark") {
                    vec![mark_cell(mv)]
                } else {
                    Vec::new()
                };
                assert_eq!(cells, &want, "{step}");
                plans += 1;
            }
        }
    }
    assert!(plans >= 7, "only {plans} plan actions");
}

/// `chosen` and `runner_up` against a sort of the values by hand.
fn check_rank(e: &Explanation, lower_is_better: bool) {
    let mut order: Vec<(f64, &str)> = e
        .moves
        .iter()
        .filter_map(|m| {
            m.value
                .map(|v| (if lower_is_better { v } else { -v }, m.mv.as_str()))
        })
        .collect();
    order.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap().then(a.1.cmp(b.1)));
    assert!(order.len() >= 2);
    assert_eq!(e.chosen.as_deref(), Some(order[0].1));
    assert_eq!(e.runner_up.as_deref(), Some(order[1].1));
}

#[test]
fn chosen_and_runner_up_rank_the_values() {
    let pos = [
        ["(mark 1 1)", "noop"],
        ["noop", "(mark 2 2)"],
        ["(mark 2 1)", "noop"],
        ["noop", "(mark 3 1)"],
    ];
    let fjo = explain(&pos, "fjo", Some("thesis"));
    check_rank(&fjo, false);
    // The thesis's choice, 3. Xa3: the cell (1 3) (row 1, column 3).
    assert_eq!(fjo.chosen.as_deref(), Some("(mark 1 3)"));
    let hff = explain(&pos, "hff", None);
    check_rank(&hff, true);
}

struct OneFile(&'static str);

impl gdlkit_cli::cli::Host for OneFile {
    fn read_file(&mut self, path: &str) -> Result<String, String> {
        match path {
            "games/ticTacToe.kif" => Ok(self.0.to_string()),
            _ => Err("no such file".into()),
        }
    }
    fn write_file(&mut self, _: &str, _: &str) -> Result<(), String> {
        Err("read-only".into())
    }
    fn stdout_is_terminal(&self) -> bool {
        false
    }
}

/// `gdlkit explain games/ticTacToe.kif --costs thesis` prints 25/3 for
/// every first move (8.333 in the text table).
#[test]
fn cli_costs_thesis_prints_25_thirds() {
    let run = |extra: &[&str]| {
        let mut args = vec!["explain".to_string(), "games/ticTacToe.kif".to_string()];
        args.extend(extra.iter().map(|s| s.to_string()));
        gdlkit_cli::cli::run(&args, &mut OneFile(TIC_TAC_TOE))
    };
    let out = run(&["--costs", "thesis"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let rows: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.trim_end().ends_with(')') && l.contains("(mark"))
        .collect();
    assert_eq!(rows.len(), 9, "{}", out.stdout);
    for r in rows {
        assert!(r.trim_start().starts_with("8.333  (mark"), "{r}");
    }
    assert!(
        out.stdout.starts_with("role x, heuristic fjo-thesis:"),
        "{}",
        out.stdout
    );
    let json = run(&["--costs", "thesis", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let values: Vec<f64> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["value"].as_f64().unwrap())
        .collect();
    assert_eq!(values.len(), 9);
    assert!(
        values.iter().all(|x| (x - 25.0 / 3.0).abs() < 1e-9),
        "{values:?}"
    );
    let bad = run(&["--costs", "cheap"]);
    assert_eq!(bad.code, 1);
    assert!(bad.stderr.contains("unknown costs"), "{}", bad.stderr);
}
