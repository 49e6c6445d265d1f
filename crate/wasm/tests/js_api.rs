//! The results JavaScript receives are spelled as their generated
//! TypeScript says: real reports (search, match, analysis, replay),
//! serialized as the wasm bindings do ([`gdlkit_wasm::js_names::Camel`]), have
//! exactly the fields of their type in `js/types.d.ts` (optional ones may
//! be absent), checked into every nested object type. The serializer and
//! ts-rs apply one rule each to the same structs; this holds them together.
#![cfg(feature = "typescript")]

use gdlkit::engine::{load_engine, EngineChoice};
use gdlkit::search::matches::MatchConfig;
use gdlkit::search::report::{match_report, play_match, search_report, SearchOptions, Source};
use gdlkit_wasm::js_names::Camel;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

const TIC_TAC_TOE: &str = include_str!("../../../games/ticTacToe.kif");

/// The object types of `js/types.d.ts`: name → field → (TS type, optional).
type Types = BTreeMap<String, BTreeMap<String, (String, bool)>>;

fn types() -> Types {
    let text = gdlkit_wasm::typescript::declarations();
    let text = strip_comments(&text);
    let mut out = Types::new();
    for decl in text.split("export type ").skip(1) {
        let Some((name, body)) = decl.split_once(" = ") else {
            continue;
        };
        let body = body.trim().trim_end_matches(';').trim();
        if split_top(body, '|').len() > 1 {
            continue; // a union: not one object type
        }
        let mut fields = BTreeMap::new();
        // `{ ... } & Other`: a flattened type's fields are the union.
        for part in split_top(body, '&') {
            let part = part.trim();
            if let Some(inner) = part.strip_prefix('{').and_then(|p| p.strip_suffix('}')) {
                for field in split_top(inner, ',') {
                    let Some((k, t)) = field.split_once(':') else {
                        continue;
                    };
                    let (k, optional) = match k.trim().strip_suffix('?') {
                        Some(k) => (k, true),
                        None => (k.trim(), false),
                    };
                    fields.insert(
                        k.trim_matches('"').to_string(),
                        (t.trim().to_string(), optional),
                    );
                }
            } else if let Some(other) = out.get(part) {
                fields.extend(other.clone());
            } else {
                fields.clear();
                break; // an alias: not an object type
            }
        }
        if !fields.is_empty() {
            out.insert(name.trim().to_string(), fields);
        }
    }
    out
}

fn strip_comments(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("/**") {
        out.push_str(&rest[..i]);
        rest = rest[i..].split_once("*/").map_or("", |(_, r)| r);
    }
    out.push_str(rest);
    out
}

/// Splits at `sep` outside brackets, braces and angle brackets.
fn split_top(s: &str, sep: char) -> Vec<&str> {
    let (mut depth, mut start, mut parts) = (0i32, 0, Vec::new());
    for (i, c) in s.char_indices() {
        match c {
            '{' | '<' | '(' | '[' => depth += 1,
            '}' | '>' | ')' | ']' => depth -= 1,
            c if c == sep && depth == 0 => {
                parts.push(&s[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

/// Checks `v` against the object type `name`, and each field against its
/// own type when that is an object type or an array of one; returns how
/// many objects were checked.
fn check(types: &Types, name: &str, v: &Value, path: &str) -> usize {
    let fields = &types[name];
    let obj = v
        .as_object()
        .unwrap_or_else(|| panic!("{path}: not an object"));
    let have: BTreeSet<&str> = obj.keys().map(String::as_str).collect();
    for k in &have {
        assert!(
            fields.contains_key(*k),
            "{path}: `{k}` is not a field of {name}"
        );
    }
    let mut checked = 1;
    for (k, (t, optional)) in fields {
        let Some(x) = obj.get(k) else {
            assert!(optional, "{path}: {name}'s field `{k}` is missing");
            continue;
        };
        let t = t.trim_end_matches(" | null");
        let element = t.strip_prefix("Array<").and_then(|e| e.strip_suffix('>'));
        match (element, x) {
            (Some(e), Value::Array(items)) if types.contains_key(e) => {
                for (i, item) in items.iter().enumerate() {
                    checked += check(types, e, item, &format!("{path}.{k}[{i}]"));
                }
            }
            (None, Value::Object(_)) if types.contains_key(t) => {
                checked += check(types, t, x, &format!("{path}.{k}"));
            }
            _ => {}
        }
    }
    checked
}

fn js<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(Camel(v)).unwrap()
}

fn options(json: Value) -> SearchOptions {
    serde_json::from_value(json).expect("options")
}

#[test]
fn search_reports_have_the_fields_of_search_result() {
    let types = types();
    let (mut seen, mut objects) = (BTreeSet::new(), 0);
    let trees = [
        serde_json::json!({"algorithm": "minimax", "trace": true}),
        serde_json::json!({"algorithm": "alphabeta", "trace": true, "ordering": "best"}),
        serde_json::json!({"algorithm": "alphabeta"}),
    ];
    for o in trees {
        let tree = "((3 12 8) (2 4 6) (14 5 2))";
        let r = search_report(Source::Tree(tree), &options(o)).unwrap();
        assert_eq!(r.best_move.as_deref(), Some("1"));
        let v = js(&r);
        seen.extend(v.as_object().unwrap().keys().cloned());
        objects += check(&types, "SearchResult", &v, "tree");
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
        let r = search_report(source, &options(o)).unwrap();
        assert_eq!(r.engine.as_deref(), Some("interpreter"));
        assert!(r.best_move.is_some() && r.stats.counts.nodes > 0);
        let v = js(&r);
        seen.extend(v.as_object().unwrap().keys().cloned());
        objects += check(&types, "SearchResult", &v, "game");
    }
    // Not vacuous: the optional fields and the nested objects were there.
    for k in [
        "events",
        "states",
        "labels",
        "iterations",
        "plan",
        "paths",
        "nodeCap",
    ] {
        assert!(seen.contains(k), "no report had `{k}`");
    }
    assert!(objects >= 30, "{objects} objects checked");
}

#[test]
fn match_analysis_and_replay_reports_have_their_fields() {
    let types = types();
    let mut m = load_engine(TIC_TAC_TOE, EngineChoice::Auto).unwrap();
    let cfg = MatchConfig {
        games: 2,
        ..MatchConfig::default()
    };
    let players = ["random".to_string(), "legal".to_string()];
    let program = gdlkit::parse_program(TIC_TAC_TOE);
    let result = play_match(&program, &mut m, &players, &cfg).unwrap();
    let v = js(&match_report("game", &m, &cfg, &result));
    // The match, its 2 players and its 2 game records.
    assert!(check(&types, "MatchResult", &v, "match") >= 5);
    assert!(v["players"][0]["meanGoal"].is_number());

    let m = load_engine(TIC_TAC_TOE, EngineChoice::Interpreter).unwrap();
    let report = gdlkit::analysis::analyze(m, gdlkit::analysis::Options::with_budget(50));
    let v = js(&report.summary());
    // The report, its properties and the six of them.
    assert_eq!(check(&types, "AnalysisReport", &v, "analysis"), 8);
    assert_eq!(v["mode"], "sampled");
    assert!(v["properties"]["weaklyWinnable"].is_object());

    let mut i = gdlkit::load_game(TIC_TAC_TOE).unwrap();
    let moves = gdlkit::replay::parse_moves_json(r#"[["(mark 1 1)", "noop"]]"#).unwrap();
    let replay = gdlkit::replay::replay(&mut i, &moves).expect("replay");
    let v = js(&replay.conformance());
    assert_eq!(check(&types, "ReplayResult", &v, "replay"), 3);
    assert_eq!(v["steps"][0]["legal"]["x"].as_array().unwrap().len(), 9);
    // The CLI's spelling is the conformance files' own.
    assert_eq!(replay.to_json()["steps"], v["steps"]);
}

#[test]
fn the_parser_reads_flattened_types() {
    let types = types();
    // `SearchReportStats` is `SearchStats` flattened with the speed.
    let stats = &types["SearchReportStats"];
    assert!(stats.contains_key("nodesPerSecond") && stats.contains_key("ttHits"));
    assert!(types.len() >= 40, "{} object types", types.len());
}
