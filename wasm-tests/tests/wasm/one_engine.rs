//! Issue 15's bindings through wasm: quick fixes carried by diagnostics (the
//! edits, in UTF-16 offsets, remove their diagnostic), `fix`, seeded
//! playouts equal to `gdlkit play --seed`, a search from a state handle in
//! every move ordering, outcomes, and the engine choice of `Game`.
#![cfg(target_arch = "wasm32")]

use crate::common;

use common::{from_js, TIC_TAC_TOE};
use gdlkit_wasm::wasm::{check, fix, run_cli, search_tree, Game};
use serde_json::{json, Value};
use wasm_bindgen_test::wasm_bindgen_test;

const BASE: &str = "(role x)\n(init (p 1))\n(<= (legal x noop) (true (p 1)))\n(<= (next (p 1)) (true (p 1)))\n(<= (goal x 100) (true (p 1)))\n; é🎲 non-ASCII before the problems\n";

const SAMPLES: &[(&str, &str)] = &[
    ("GDL001", "(<= terminal (true (p 1))))\n"),
    (
        "GDL002",
        "(<= terminal (true (p 1))\n\n(<= (goal x 0) (true (p 2)))\n",
    ),
    ("GDL003", "(<= terminal (true (p ?)))\n"),
    ("GDL011", "(:- terminal (true (p 1)))\n"),
    (
        "GDL103",
        "(<= terminal (lne 1))\n(<= (line ?x) (true (p ?x)))\n",
    ),
    ("GDL107", "(<= (terminal) (true (p 1)))\n"),
    (
        "GDL109",
        "(<= terminal (true (p 1)))\n(<= terminal (true (p 1)))\n",
    ),
    ("GDL111", "(<= terminal)\n"),
];

fn count(text: &str, code: &str) -> usize {
    from_js::<Vec<Value>>(check(text).unwrap())
        .iter()
        .filter(|d| d["code"] == code)
        .count()
}

/// Applies edits given in UTF-16 offsets, as an editor does.
fn apply(text: &str, edits: &[Value]) -> String {
    let mut units: Vec<u16> = text.encode_utf16().collect();
    let mut edits = edits.to_vec();
    edits.sort_by_key(|e| std::cmp::Reverse(e["from"].as_u64().unwrap()));
    for e in edits {
        let (from, to) = (
            e["from"].as_u64().unwrap() as usize,
            e["to"].as_u64().unwrap() as usize,
        );
        let insert: Vec<u16> = e["insert"].as_str().unwrap().encode_utf16().collect();
        units.splice(from..to, insert);
    }
    String::from_utf16(&units).unwrap()
}

#[wasm_bindgen_test]
fn every_fix_removes_its_diagnostic() {
    for (code, extra) in SAMPLES {
        let text = format!("{BASE}{extra}");
        let diags: Vec<Value> = from_js(check(&text).unwrap());
        let d = diags
            .iter()
            .find(|d| d["code"] == *code)
            .unwrap_or_else(|| panic!("{code}"));
        let edits = d["fixes"][0]["edits"].as_array().unwrap();
        let after = apply(&text, edits);
        assert_eq!(
            count(&after, code),
            count(&text, code) - 1,
            "{code}: {after}"
        );
        let all: Value =
            from_js(fix(&text, js_sys::JSON::parse(r#"{"unsafe":true}"#).unwrap()).unwrap());
        assert_eq!(count(all["text"].as_str().unwrap(), code), 0, "{code}");
    }
}

#[wasm_bindgen_test]
fn playouts_are_the_games_of_play_seed() {
    let mut game = Game::new(TIC_TAC_TOE).unwrap();
    let opts = js_sys::JSON::parse(r#"{"count":3,"seed":11,"record":true}"#).unwrap();
    let p: Value = from_js(game.playouts(None, opts).unwrap());
    assert_eq!(p["playouts"], 3);
    let files = js_sys::Object::new();
    js_sys::Reflect::set(&files, &"t.kif".into(), &TIC_TAC_TOE.into()).unwrap();
    for i in 0..3 {
        let args: Vec<String> = [
            "play",
            "t.kif",
            "--seed",
            &(11 + i).to_string(),
            "--format",
            "json",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let out: Value = from_js(run_cli(args, files.clone().into(), Some(false)).unwrap());
        let cli: Value = serde_json::from_str(out["stdout"].as_str().unwrap()).unwrap();
        assert_eq!(
            p["games"][i as usize]["jointMoves"], cli["joint_moves"],
            "game {i}"
        );
    }
}

#[wasm_bindgen_test]
fn search_from_a_state_in_every_ordering_and_outcomes() {
    let mut game = Game::new(TIC_TAC_TOE).unwrap();
    let mut s = game.initial_state().unwrap();
    let roles = game.roles();
    assert_eq!(roles.len(), 2);
    for (a, b) in [
        ("(mark 1 1)", "noop"),
        ("noop", "(mark 2 1)"),
        ("(mark 1 2)", "noop"),
        ("noop", "(mark 2 2)"),
    ] {
        s = game.next(s, vec![a.into(), b.into()]).unwrap();
    }
    let mut nodes = Vec::new();
    for ordering in ["given", "best", "worst"] {
        let opts = js_sys::JSON::parse(&format!(
            r#"{{"depth":3,"trace":true,"ordering":"{ordering}"}}"#
        ))
        .unwrap();
        let r: Value = from_js(game.search(s, opts).unwrap());
        assert_eq!(
            (r["value"].clone(), r["bestMove"].clone()),
            (json!(100), json!("(mark 1 3)")),
            "{ordering}"
        );
        nodes.push(r["stats"]["nodes"].as_u64().unwrap());
    }
    assert!(nodes[1] <= nodes[0] && nodes[0] <= nodes[2], "{nodes:?}");
    let end = game
        .next(s, vec!["(mark 1 3)".into(), "noop".into()])
        .unwrap();
    let d: Value = from_js(game.describe(end).unwrap());
    assert_eq!(
        d["outcome"],
        json!({"score": 100, "winners": [0], "draw": false, "results": ["win", "loss"]})
    );
    let e: Value = from_js(game.engine().unwrap());
    assert_eq!(e["name"], "fast");
    let i: Value = from_js(
        Game::on_engine(TIC_TAC_TOE, Some("interpreter".into()))
            .unwrap()
            .engine()
            .unwrap(),
    );
    assert_eq!(i["name"], "interpreter");
    assert!(Game::on_engine(TIC_TAC_TOE, Some("quick".into())).is_err());
}

#[wasm_bindgen_test]
fn trees_have_the_lecture_counts() {
    let opts = js_sys::JSON::parse(r#"{"algorithm":"minimax"}"#).unwrap();
    let r: Value = from_js(search_tree("((3 12 8) (2 4 6) (14 5 2))", opts).unwrap());
    assert_eq!(
        (r["stats"]["nodes"].clone(), r["stats"]["leaves"].clone()),
        (json!(13), json!(9))
    );
}
