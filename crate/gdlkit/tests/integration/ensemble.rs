//! The ensemble player (lecture 004, "Verteilte Suche"): natively its
//! members search at once on threads; the move it plays is the one the
//! shared rule (`ensemble::choose`) picks from the members' results, every
//! member's move is legal, and a proven win is followed. Uses the project's
//! games (`games/`), so a plain clone runs it.

use gdlkit::search::ensemble::{self, choose, Ensemble};
use gdlkit::search::Player;
use gdlkit::{load_engine, parse_program, Engine, EngineChoice, StateMachine};

fn game(name: &str) -> (gdlkit::Program, Engine) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../games")
        .join(format!("{name}.kif"));
    let text = std::fs::read_to_string(&path).expect("the project's games");
    (
        parse_program(&text),
        load_engine(&text, EngineChoice::Auto).unwrap(),
    )
}

/// Plays `moves` (one per ply, the role with one legal move plays it).
fn play(m: &mut Engine, moves: &[&str]) -> gdlkit::EngineState {
    let mut s = m.initial_state().unwrap();
    for mv in moves {
        let joint: Vec<_> = (0..m.roles().len())
            .map(|r| {
                let legal = m.legal_moves(&s, r).unwrap();
                match legal.iter().find(|&&t| m.terms().display(t) == *mv) {
                    Some(&t) => t,
                    None => {
                        assert_eq!(legal.len(), 1, "{mv} is not legal for role {r}");
                        legal[0]
                    }
                }
            })
            .collect();
        s = m.next_state(&s, &joint).unwrap();
    }
    s
}

#[test]
fn the_move_played_is_the_rule_applied_to_the_members_results() {
    let (program, mut m) = game("connectFour");
    let names = ensemble::member_heuristics(&program, &mut m, None, 4);
    assert_eq!(names.len(), 4, "{names:?}");
    assert_eq!(names[0], "none", "the exhaustive search comes first");
    let mut e = Ensemble::new(&program, &mut m, &names, 30.0).unwrap();
    let mut s = m.initial_state().unwrap();
    let mut moves = 0;
    for _ in 0..6 {
        let role = (0..2)
            .find(|&r| m.legal_moves(&s, r).unwrap().len() > 1)
            .unwrap();
        let mv = e.select_move(&mut m, &s, role).unwrap();
        let legal = m.legal_moves(&s, role).unwrap();
        assert_eq!(e.last_results.len(), 4);
        for r in &e.last_results {
            let got = r.best_move.expect("every member has a move");
            assert!(legal.contains(&got), "{}: an illegal move", r.heuristic);
        }
        let i = choose(&e.last_results).unwrap();
        assert_eq!(Some(mv), e.last_results[i].best_move);
        assert_eq!(
            e.last_choice.as_deref(),
            Some(e.last_results[i].heuristic.as_str())
        );
        let joint: Vec<_> = (0..2)
            .map(|r| {
                if r == role {
                    mv
                } else {
                    m.legal_moves(&s, r).unwrap()[0]
                }
            })
            .collect();
        s = m.next_state(&s, &joint).unwrap();
        moves += 1;
    }
    assert_eq!(moves, 6);
}

#[test]
fn a_win_in_one_is_proven_and_taken() {
    let (program, mut m) = game("ticTacToe");
    // x: (1,1) (1,2); o: (2,1) (2,2); x to move wins with (1,3).
    let s = play(
        &mut m,
        &["(mark 1 1)", "(mark 2 1)", "(mark 1 2)", "(mark 2 2)"],
    );
    let names = ensemble::member_heuristics(&program, &mut m, None, 4);
    // Generous: the members solve the position in milliseconds and stop;
    // the time only has to cover a loaded machine.
    let mut e = Ensemble::new(&program, &mut m, &names, 2000.0).unwrap();
    let mv = e.select_move(&mut m, &s, 0).unwrap();
    assert_eq!(m.terms().display(mv), "(mark 1 3)");
    let i = choose(&e.last_results).unwrap();
    assert!(e.last_results[i].solved, "{:?}", e.last_results);
    assert_eq!(e.last_results[i].value, 100.0);
}

#[test]
fn the_rule_on_the_shared_fixture() {
    // The same cases as tests/ensemble.test.mjs (wasm, Node workers).
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/ensemble-choices.json");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases = doc["cases"].as_array().unwrap();
    assert!(cases.len() >= 7);
    for case in cases {
        let parts: Vec<ensemble::MemberResult<String>> =
            serde_json::from_value(case["parts"].clone()).unwrap();
        let want = case["index"].as_u64().map(|i| i as usize);
        assert_eq!(choose(&parts), want, "{}", case["why"]);
    }
}

/// The joint move of `texts` (one move text per role) in machine `m`.
fn joint_of(m: &mut Engine, s: &gdlkit::EngineState, texts: &[String]) -> Vec<gdlkit::TermId> {
    (0..m.roles().len())
        .map(|r| {
            let legal = m.legal_moves(s, r).unwrap();
            *legal
                .iter()
                .find(|&&t| m.terms().display(t) == texts[r])
                .unwrap_or_else(|| panic!("{} is not legal for role {r}", texts[r]))
        })
        .collect()
}

/// Members after the first search on a fresh copy of the interpreter at
/// every move, and the interpreter interns new terms while searching: a
/// copy's new terms may get ids that named other terms in the last copy.
/// Whatever a member cached by term id (transposition table, the fuzzy
/// heuristic's geometry and last state, the features' cells) must not
/// leak from one copy to the next. With a node budget (reproducible), each
/// member's result equals the same search run alone on a machine of its
/// own, move after move (the members after the first forget their table
/// before each move, as in the ensemble). (On these games the heuristics'
/// builds already intern every fluent into the main machine before any
/// copy is made, so fluent ids agree across copies; `forget_terms` covers
/// the fluents first met during a search, in larger games.)
#[test]
fn on_the_interpreter_each_member_gives_what_its_search_alone_gives() {
    // connectFour and breakthrough: ordered boards, so the fuzzy
    // heuristic's geometry caches coordinates by fluent id.
    for (game, plies) in [("ticTacToe", 9), ("connectFour", 6), ("breakthrough", 4)] {
        members_agree_with_their_searches_alone(game, plies);
    }
}

fn members_agree_with_their_searches_alone(game: &str, plies: usize) {
    use gdlkit::search::{Budget, SearchResult};
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../games")
        .join(format!("{game}.kif"));
    let text = std::fs::read_to_string(path).expect("the project's games");
    let program = parse_program(&text);
    let load = || load_engine(&text, EngineChoice::Interpreter).unwrap();
    let mut m = load();
    let names = ensemble::member_heuristics(&program, &mut m, None, 8);
    assert!(names.len() >= 4, "{names:?}");
    assert!(
        names.iter().any(|n| n.starts_with("feature:")),
        "{game}: a feature member (cells cached by term id): {names:?}"
    );
    let budget = Budget::nodes(400);
    let mut e = Ensemble::with_budget(&program, &mut m, &names, budget).unwrap();
    let mut alone: Vec<_> = names
        .iter()
        .map(|n| {
            let mut mm = load();
            let search = ensemble::member_with_budget(&program, &mut mm, n, budget).unwrap();
            let s = mm.initial_state().unwrap();
            (mm, search, s)
        })
        .collect();
    let mut s = m.initial_state().unwrap();
    let mut compared = 0;
    while compared < plies && !m.is_terminal(&s).unwrap() {
        let Some(role) = (0..2).find(|&r| m.legal_moves(&s, r).unwrap().len() > 1) else {
            break; // one cell left: nothing to choose
        };
        let mv = e.select_move(&mut m, &s, role).unwrap();
        for (i, (mm, search, ms)) in alone.iter_mut().enumerate() {
            if i > 0 {
                search.forget_states();
            }
            let r: SearchResult = search.search(mm, ms, role, None).unwrap();
            let want = ensemble::MemberResult::of(&names[i], &r);
            let got = &e.last_results[i];
            let text = |m: &Engine, x: Option<gdlkit::TermId>| x.map(|t| m.terms().display(t));
            assert_eq!(
                (text(&m, got.best_move), got.value, got.solved, got.depth),
                (
                    text(mm, want.best_move),
                    want.value,
                    want.solved,
                    want.depth
                ),
                "{game}: member {} at ply {compared}",
                names[i]
            );
        }
        let texts: Vec<String> = (0..2)
            .map(|r| {
                let t = if r == role {
                    mv
                } else {
                    m.legal_moves(&s, r).unwrap()[0]
                };
                m.terms().display(t)
            })
            .collect();
        let joint = joint_of(&mut m, &s, &texts);
        s = m.next_state(&s, &joint).unwrap();
        for (mm, _, ms) in alone.iter_mut() {
            let joint = joint_of(mm, ms, &texts);
            *ms = mm.next_state(ms, &joint).unwrap();
        }
        compared += 1;
    }
    assert!(compared >= 4, "{game}: only {compared} moves compared");
}
