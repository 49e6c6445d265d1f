//! The JS shapes of the reports built as JSON (`gdlkit::js_api`, from which
//! `js/types.d.ts` is generated) match what the reports hold: real search
//! and match reports, their fields camelCased as the wasm bindings do, are
//! read into those structs with unknown fields refused.

use gdlkit::engine::{load_engine, EngineChoice};
use gdlkit::js_api::{MatchResult, SearchResult};
use gdlkit::js_names::camel_keys;
use gdlkit::search::matches::MatchConfig;
use gdlkit::search::report::{match_json, play_match, search_json, SearchOptions, Source};
use serde_json::Value;

const TIC_TAC_TOE: &str = include_str!("../../games/ticTacToe.kif");

fn read<T: serde::de::DeserializeOwned>(v: Value) -> T {
    let text = v.to_string();
    serde_json::from_value(camel_keys(v))
        .unwrap_or_else(|e| panic!("the report does not fit its JS type: {e}\n{text}"))
}

/// A result's `stats`: the fields of `search::Stats` (unknown ones refused)
/// and `nodesPerSecond`.
fn check_stats(r: &SearchResult) {
    let mut stats = r.stats.clone();
    let o = stats.as_object_mut().expect("stats is an object");
    assert!(o.remove("nodesPerSecond").is_some(), "{o:?}");
    let s: gdlkit::search::Stats = serde_json::from_value(gdlkit::js_names::snake_keys(stats))
        .unwrap_or_else(|e| panic!("stats do not fit search::Stats: {e}"));
    assert!(s.nodes > 0);
}

fn options(json: Value) -> SearchOptions {
    serde_json::from_value(json).expect("options")
}

#[test]
fn search_reports_fit_search_result() {
    let mut seen = std::collections::BTreeSet::new();
    let trees = [
        serde_json::json!({"algorithm": "minimax", "trace": true}),
        serde_json::json!({"algorithm": "alphabeta", "trace": true, "ordering": "best"}),
        serde_json::json!({"algorithm": "alphabeta"}),
    ];
    for o in trees {
        let v = search_json(Source::Tree("((3 12 8) (2 4 6) (14 5 2))"), &options(o)).unwrap();
        seen.extend(v.as_object().unwrap().keys().cloned());
        let r: SearchResult = read(v);
        assert_eq!(r.game, "tree");
        assert_eq!(r.best_move.as_deref(), Some("1"));
        check_stats(&r);
    }
    let games = [
        serde_json::json!({"algorithm": "alphabeta", "depth": 2, "trace": true}),
        serde_json::json!({"algorithm": "minimax", "depth": 2}),
        serde_json::json!({"algorithm": "best-first", "nodes": 200}),
        serde_json::json!({"algorithm": "mcts", "nodes": 200}),
    ];
    for o in games {
        let mut m = load_engine(TIC_TAC_TOE, EngineChoice::Interpreter).unwrap();
        let program = gdlkit::parse_program(TIC_TAC_TOE);
        let source = Source::Game {
            label: "game",
            program: &program,
            machine: &mut m,
            at: None,
        };
        let v = search_json(source, &options(o)).unwrap();
        seen.extend(v.as_object().unwrap().keys().cloned());
        let r: SearchResult = read(v);
        assert_eq!(r.engine.as_deref(), Some("interpreter"));
        assert!(r.best_move.is_some());
        check_stats(&r);
    }
    // Not vacuous: the optional fields were there to be checked.
    for k in [
        "events",
        "states",
        "labels",
        "iterations",
        "plan",
        "paths",
        "node_cap",
    ] {
        assert!(seen.contains(k), "no report had `{k}`");
    }
}

#[test]
fn match_reports_fit_match_result() {
    let mut m = load_engine(TIC_TAC_TOE, EngineChoice::Auto).unwrap();
    let cfg = MatchConfig {
        games: 2,
        ..MatchConfig::default()
    };
    let players = ["random".to_string(), "legal".to_string()];
    let result = play_match(&gdlkit::parse_program(TIC_TAC_TOE), &mut m, &players, &cfg).unwrap();
    let r: MatchResult = read(match_json("game", &m, &cfg, &result));
    assert_eq!(r.players.len(), 2);
    assert_eq!(r.results.len(), 2);
    assert_eq!(
        r.results[0].as_object().unwrap().len(),
        5,
        "{:?}",
        r.results[0]
    );
}

#[test]
fn analysis_and_replay_reports_fit() {
    use gdlkit::js_api::{AnalysisReport, ReplayResult};
    let m = load_engine(TIC_TAC_TOE, EngineChoice::Interpreter).unwrap();
    let report = gdlkit::analysis::analyze(m, gdlkit::analysis::Options::with_budget(50));
    let r: AnalysisReport = read(report.to_json());
    assert_eq!(r.mode, "sampled");
    let mut i = gdlkit::load_game(TIC_TAC_TOE).unwrap();
    let moves = gdlkit::replay::parse_moves_json(r#"[["(mark 1 1)", "noop"]]"#).unwrap();
    let replay = gdlkit::replay::replay(&mut i, &moves).expect("replay");
    let r: ReplayResult = read(replay.to_json());
    assert_eq!(r.steps.len(), 2);
    assert_eq!(r.steps[0].legal["x"].len(), 9);
}
