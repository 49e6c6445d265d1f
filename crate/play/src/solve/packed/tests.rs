//! The packed solver against the graph solver: the same states in the
//! same order, and every state's value and moves to the end, complete and
//! partial; games that are not layered fall back to the graph solver.

use super::super::graph::GraphJob;
use super::super::job::Inner;
use super::super::*;
use crate::engine::{load_engine, EngineChoice};

fn game(name: &str) -> Engine {
    let path = format!("{}/../../games/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    load_engine(&text, EngineChoice::Fast).expect("grounds")
}

/// Runs a job: all of it, or `expand` states and then a stop.
fn run_job(
    mut step: impl FnMut(usize) -> Progress,
    stop: &mut dyn FnMut(),
    expand: Option<usize>,
) -> Progress {
    if let Some(n) = expand {
        let p = step(n);
        stop();
        // The rest: the backward pass (packed) or nothing (graph).
        let mut p2 = step(usize::MAX / 2);
        p2.expanded = p2.expanded.max(p.expanded);
        return p2;
    }
    loop {
        let p = step(1000);
        if p.done {
            return p;
        }
    }
}

fn packed(engine: &Engine, expand: Option<usize>) -> Solution {
    let job = SolveJob::new(engine.clone(), Limits::default()).unwrap();
    assert!(matches!(job.inner, Inner::Packed(..)), "the packed solver");
    let job = std::cell::RefCell::new(job);
    run_job(
        |n| job.borrow_mut().step(n),
        &mut || job.borrow_mut().stop(),
        expand,
    );
    let job = job.into_inner();
    assert!(matches!(job.inner, Inner::Packed(..)), "stayed packed");
    job.finish().unwrap()
}

fn graph(engine: &Engine, expand: Option<usize>) -> Solution {
    let job = GraphJob::new(engine.clone(), Limits::default(), crate::clock::now_ms()).unwrap();
    let job = std::cell::RefCell::new(job);
    run_job(
        |n| job.borrow_mut().step(n),
        &mut || job.borrow_mut().stop(),
        expand,
    );
    job.into_inner().finish().unwrap()
}

fn assert_same(a: &Solution, b: &Solution, what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: states");
    assert_eq!(a.concept, b.concept, "{what}: concept");
    assert_eq!(a.complete, b.complete, "{what}: complete");
    assert_eq!(a.stats.expanded, b.stats.expanded, "{what}: expanded");
    assert_eq!(a.stats.terminal, b.stats.terminal, "{what}: terminal");
    assert_eq!(a.stats.edges, b.stats.edges, "{what}: edges");
    assert_eq!(
        a.lookup.keys(a.len()),
        b.lookup.keys(b.len()),
        "{what}: keys"
    );
    for i in 0..a.len() {
        assert_eq!(a.value_at(i), b.value_at(i), "{what}: state {i}");
    }
    assert_eq!(a.counts(), b.counts(), "{what}: counts");
}

#[test]
fn complete_solves_agree_with_the_graph_solver() {
    let mut ran = 0;
    for name in [
        "ticTacToe.kif",
        "ticTacToeLecture.kif",
        "nQueens.kif",
        "hexapawn.kif",
    ] {
        let e = game(name);
        let (p, g) = (packed(&e, None), graph(&e, None));
        assert!(p.complete && p.initial().is_some(), "{name}");
        assert_same(&p, &g, name);
        ran += 1;
    }
    assert_eq!(ran, 4);
}

#[test]
fn partial_solves_agree_with_the_graph_solver() {
    let e = game("ticTacToe.kif");
    let mut proved = 0;
    for n in [1, 10, 300, 2000, 4000, 5000] {
        let (p, g) = (packed(&e, Some(n)), graph(&e, Some(n)));
        assert!(!p.complete, "{n}");
        assert_same(&p, &g, &format!("ticTacToe after {n}"));
        proved += p.counts().iter().filter(|(v, _)| v.is_some()).count();
    }
    // The deeper explorations prove values (wins found near the leaves).
    assert!(proved > 0);
    for name in [
        "connectThree.kif",
        "domineering.kif",
        "dotsAndBoxes.kif",
        "clobber.kif",
    ] {
        let e = game(name);
        let (p, g) = (packed(&e, Some(20_000)), graph(&e, Some(20_000)));
        assert_same(&p, &g, &format!("{name} after 20,000"));
    }
}

/// Each role picks left or right once; goals of other sums.
const GENERAL: &str = "
    (role a) (role b)
    (init (control a))
    (opt l) (opt r)
    (<= (legal a (pick ?x)) (true (control a)) (opt ?x))
    (<= (legal b noop) (true (control a)))
    (<= (legal b (pick ?x)) (true (control b)) (opt ?x))
    (<= (legal a noop) (true (control b)))
    (<= (next (first ?x)) (does a (pick ?x)))
    (<= (next (first ?x)) (true (first ?x)))
    (<= (next (second ?x)) (does b (pick ?x)))
    (<= (next (control b)) (true (control a)))
    (<= terminal (true (second ?x)))
    (<= (goal a 60) (true (first l)) (true (second l)))
    (<= (goal b 50) (true (first l)) (true (second l)))
    (<= (goal a 20) (true (first l)) (true (second r)))
    (<= (goal b 50) (true (first l)) (true (second r)))
    (<= (goal a 40) (true (first r)) (true (second ?x)))
    (<= (goal b 40) (true (first r)) (true (second l)))
    (<= (goal b 10) (true (first r)) (true (second r)))
";

#[test]
fn a_general_sum_game_gets_the_same_values() {
    let e = load_engine(GENERAL, EngineChoice::Fast).unwrap();
    let (p, g) = (packed(&e, None), graph(&e, None));
    assert_eq!(p.concept, Concept::GeneralSum);
    // b, indifferent after l, gives a the lower 20; so a picks r.
    assert_eq!(p.initial().unwrap().goals, vec![40, 40]);
    assert_same(&p, &g, "general-sum");
}

#[test]
fn games_that_are_not_layered_fall_back_to_the_graph_solver() {
    // Nim's heaps shrink by one or more: one position is reached after
    // different numbers of moves.
    for name in ["nim.kif"] {
        let e = game(name);
        let mut job = SolveJob::new(e.clone(), Limits::default()).unwrap();
        assert!(matches!(job.inner, Inner::Packed(..)));
        while !job.step(1000).done {}
        assert!(matches!(job.inner, Inner::Graph(..)), "{name}");
        let s = job.finish().unwrap();
        assert!(s.complete);
        assert_same(&s, &graph(&e, None), name);
    }
}

#[test]
fn the_packed_solution_is_small_and_finds_states_by_their_words() {
    let mut e = game("ticTacToe.kif");
    let s = packed(&e, None);
    // One word a state: 8 bytes, goals 2, moves 1, the index about 5.
    assert!(
        s.stats.bytes_per_state <= 17.0,
        "{}",
        s.stats.bytes_per_state
    );
    let init = e.initial_state().unwrap();
    assert_eq!(s.index_of(&mut e, &init), Some(0));
    assert_eq!(s.initial().unwrap().goals, vec![50, 50]);
    // Written and read back, it finds states by content key.
    let back = read_solution(&write_solution(&s)).unwrap();
    assert_eq!(back.value_of(&mut e, &init), s.initial());
}

#[test]
fn a_forward_pass_that_overruns_the_whole_limit_still_gives_its_terminals() {
    // On a loaded machine the forward pass can end past the time limit:
    // the backward pass then values nothing, and the terminal states the
    // forward pass found are the partial solution.
    let e = game("ticTacToe.kif");
    let full = packed(&e, None);
    let limits = Limits {
        seconds: 10.0,
        ..Limits::default()
    };
    let mut job = super::PackedJob::new(&e, limits, crate::clock::now_ms()).unwrap();
    assert!(matches!(job.step(4000), super::Step::Progress(_)));
    job.started_ms -= 1e6; // both deadlines have passed
    assert!(matches!(job.step(1), super::Step::Progress(p) if p.done));
    let s = job.finish().unwrap();
    assert!(!s.complete && s.stopped.as_deref().unwrap().contains("time limit"));
    let keys = (s.lookup.keys(s.len()), full.lookup.keys(full.len()));
    let mut known = 0;
    for i in 0..s.len() {
        let Some(v) = s.value_at(i) else { continue };
        assert_eq!(v.moves_to_end, 0, "only terminal states are known");
        let j = keys.1.iter().position(|k| *k == keys.0[i]).unwrap();
        assert_eq!(Some(v), full.value_at(j), "state {i}");
        known += 1;
    }
    assert!(known >= 100, "{known} terminal states found");
}
