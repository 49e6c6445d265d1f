//! `gdlkit solve --symbolic` (`solve::solve_symbolic`) against the
//! explicit solver, the oracle: on every game both solve completely, the
//! reachable states, terminal states, concept, initial value and every
//! count by value are equal, and the breadth-first layers add up to the
//! states. Games the method does not cover are refused with the reason,
//! and the node and time limits stop it cleanly.

use gdlkit::solve::{self, Limits, SymbolicLimits, SymbolicSummary, VarOrder};
use gdlkit::{load_engine, parse_program, EngineChoice};

use crate::common::corpus;

fn game_text(name: &str) -> String {
    let path = corpus::root().join("games").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn symbolic(text: &str, limits: &SymbolicLimits) -> Result<SymbolicSummary, solve::Refusal> {
    solve::solve_symbolic(&parse_program(text), limits)
}

/// Solves `text` both ways; `true` when both are complete (and then
/// agree), panics when they disagree or only one refuses.
fn agrees(name: &str, text: &str) -> bool {
    let engine = load_engine(text, EngineChoice::Fast).unwrap_or_else(|d| panic!("{d:?}"));
    let explicit = solve::solve(engine, Limits::default());
    let sym = symbolic(text, &SymbolicLimits::default());
    let (e, s) = match (explicit, sym) {
        (Ok(e), Ok(s)) => (e.summary(), s),
        (Err(_), Err(_)) => return false,
        (e, s) => panic!(
            "{name}: explicit {:?}, symbolic {s:?}",
            e.map(|x| x.summary())
        ),
    };
    if !e.complete || !s.complete {
        eprintln!("{name}: not complete ({:?}, {:?})", e.stopped, s.stopped);
        return false;
    }
    assert_eq!(s.stats.states, u128::from(e.stats.states), "{name}: states");
    assert_eq!(
        s.stats.terminal,
        u128::from(e.stats.terminal),
        "{name}: terminal"
    );
    assert_eq!(
        s.stats.layers.iter().sum::<u128>(),
        s.stats.states,
        "{name}: layers"
    );
    assert_eq!(s.stats.layers.first(), Some(&1), "{name}: layer 0");
    assert!(s.stats.layers.iter().all(|&n| n > 0), "{name}: empty layer");
    assert_eq!(s.concept, Some(e.concept), "{name}: concept");
    assert_eq!(
        s.initial,
        e.initial.map(|v| v.goals),
        "{name}: initial value"
    );
    let by_e: Vec<_> = e
        .by_value
        .into_iter()
        .map(|c| (c.goals, u128::from(c.states)))
        .collect();
    let by_s: Vec<_> = s
        .by_value
        .into_iter()
        .map(|c| (c.goals, c.states))
        .collect();
    assert_eq!(by_s, by_e, "{name}: states by value");
    eprintln!(
        "{name}: {} states, {} layers (layered: {}), peak {} nodes, symbolic {:.2} s, explicit {:.3} s",
        s.stats.states,
        s.stats.layers.len(),
        s.stats.layered,
        s.stats.peak_nodes,
        s.stats.seconds,
        e.stats.seconds
    );
    true
}

#[test]
fn library_games_agree_with_the_explicit_solver() {
    // The library's games that both solve in seconds (chompThree and
    // minichess take minutes symbolically).
    let games = ["ticTacToe.kif", "nim.kif", "hexapawn.kif"];
    let agreed = games
        .iter()
        .filter(|name| agrees(name, &game_text(name)))
        .count();
    assert_eq!(
        agreed,
        games.len(),
        "only {agreed} of {} games compared",
        games.len()
    );
}

/// Two roles taking turns on a pile of four: take one or two; whoever
/// takes the last wins, but a win by taking two pays both roles more.
/// Not zero-sum: the general-sum concept, on a layered game.
const PILE: &str = "
    (role a) (role b)
    (init (pile 4)) (init (control a)) (init (step 0))
    (minus 4 3 1) (minus 4 2 2) (minus 3 2 1) (minus 3 1 2)
    (minus 2 1 1) (minus 2 0 2) (minus 1 0 1)
    (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
    (other a b) (other b a)
    (<= (legal ?p (take ?n)) (true (control ?p)) (true (pile ?x)) (minus ?x ?y ?n))
    (<= (legal ?p noop) (role ?p) (not (true (control ?p))))
    (<= (next (pile ?y)) (does ?p (take ?n)) (true (pile ?x)) (minus ?x ?y ?n))
    (<= (next (control ?q)) (true (control ?p)) (other ?p ?q))
    (<= (next (last ?p ?n)) (does ?p (take ?n)))
    (<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
    (<= terminal (true (pile 0)))
    (<= (goal ?p 100) (true (last ?p 2)))
    (<= (goal ?p 70) (true (last ?p 1)))
    (<= (goal ?q 40) (true (last ?p 2)) (other ?p ?q))
    (<= (goal ?q 0) (true (last ?p 1)) (other ?p ?q))
";

/// A counter either role moves up or down for ever (the explicit
/// solver's test game): not layered, attractors; only the ends get values.
const CYCLE: &str = "
    (role a) (role b)
    (init (at 1)) (init (control a))
    (up 0 1) (up 1 2) (up 2 3)
    (<= (legal ?p (move ?y)) (true (control ?p)) (true (at ?x)) (up ?x ?y))
    (<= (legal ?p (move ?y)) (true (control ?p)) (true (at ?x)) (up ?y ?x))
    (<= (legal a noop) (true (control b)))
    (<= (legal b noop) (true (control a)))
    (<= (next (at ?y)) (does ?p (move ?y)))
    (<= (next (control b)) (true (control a)))
    (<= (next (control a)) (true (control b)))
    (<= terminal (true (at 3)))
    (<= terminal (true (at 0)))
    (<= (goal a 100) (true (at 3)))
    (<= (goal a 0) (true (at 0)))
    (<= (goal b 0) (true (at 3)))
    (<= (goal b 100) (true (at 0)))
";

#[test]
fn general_sum_and_cyclic_games_agree_with_the_explicit_solver() {
    assert!(agrees("pile", PILE));
    assert!(agrees("cycle", CYCLE));
    let s = symbolic(PILE, &SymbolicLimits::default()).unwrap();
    assert!(s.stats.layered, "the pile's step counter layers it");
    assert_eq!(s.concept, Some(solve::Concept::GeneralSum));
    let s = symbolic(CYCLE, &SymbolicLimits::default()).unwrap();
    assert!(!s.stats.layered, "the counter repeats states");
}

#[test]
fn games_outside_the_method_are_refused_with_the_reason() {
    let e = symbolic(
        &game_text("rockPaperScissors.kif"),
        &SymbolicLimits::default(),
    )
    .unwrap_err();
    assert!(e.0.contains("simultaneous"), "{e}");
    let e = symbolic(
        &game_text("threePlayerTicTacToe.kif"),
        &SymbolicLimits::default(),
    )
    .unwrap_err();
    assert!(e.0.contains("3 roles"), "{e}");
}

#[test]
fn the_node_limit_stops_cleanly() {
    let limits = SymbolicLimits {
        max_nodes: 50,
        ..SymbolicLimits::default()
    };
    let s = symbolic(&game_text("ticTacToe.kif"), &limits).unwrap();
    assert!(!s.complete);
    let why = s.stopped.unwrap();
    assert!(why.contains("node limit (50)"), "{why}");
    assert_eq!(s.initial, None, "a stopped solve claims no value");
}

#[test]
fn both_variable_orders_give_the_same_solution() {
    let text = game_text("ticTacToe.kif");
    let solved: Vec<SymbolicSummary> = [VarOrder::Cells, VarOrder::Grounder]
        .into_iter()
        .map(|order| {
            let limits = SymbolicLimits {
                order,
                ..SymbolicLimits::default()
            };
            let s = symbolic(&text, &limits).unwrap();
            assert!(s.complete, "{order:?}: {:?}", s.stopped);
            eprintln!(
                "ticTacToe, {} order: relations {} nodes, peak {} nodes, {:.2} s",
                order.name(),
                s.stats.relation_nodes,
                s.stats.peak_nodes,
                s.stats.seconds
            );
            s
        })
        .collect();
    let (a, b) = (&solved[0], &solved[1]);
    assert_eq!(a.initial, b.initial);
    assert_eq!(a.by_value, b.by_value);
    assert_eq!(a.stats.layers, b.stats.layers);
    assert_eq!(a.stats.terminal, b.stats.terminal);
}
