//! Proofs' tests: lost positions, simultaneous nodes, and the plies to
//! the end that order equally proven moves.

use super::tests::{cfg, shown, take_away};
use super::*;
use crate::engine::{load_engine, Engine, EngineChoice};

#[test]
fn proves_a_lost_position_lost() {
    // From 6 every move loses against best play: the root is proven
    // with a's reward 0, and both moves are proven losses.
    let mut m = take_away(6);
    let root = m.initial_state().unwrap();
    let mut p = SolverMcts::new(cfg(50_000), 5, 1);
    let (view, _) = p.search_view(&mut m, &root, 0).unwrap();
    assert_eq!(p.tree.nodes[0].proven.as_deref(), Some(&[0.0, 1.0][..]));
    assert_eq!(view.proven, vec![Some(0.0), Some(0.0)]);
    assert!(choose(&view).is_some());
}

#[test]
fn a_move_that_wins_whatever_the_others_play_proves_a_simultaneous_node() {
    // a and b move at once, once: a's `win` wins against both of b's
    // moves, `y` loses against both, and `x` depends on b's move.
    let text = "(role a) (role b) (init (start))
        (<= (legal a ?m) (true (start)) (amove ?m)) (<= (legal b ?n) (true (start)) (bmove ?n))
        (amove win) (amove x) (amove y) (bmove p) (bmove q)
        (<= (next (played ?m ?n)) (does a ?m) (does b ?n))
        (<= terminal (true (played ?m ?n)))
        (<= (wins a) (true (played win ?n))) (<= (wins a) (true (played x p)))
        (<= (wins b) (true (played x q))) (<= (wins b) (true (played y ?n)))
        (<= (goal ?r 100) (wins ?r)) (<= (goal ?r 0) (role ?r) (not (wins ?r)))";
    for choice in [EngineChoice::Interpreter, EngineChoice::Fast] {
        let mut m = load_engine(text, choice).expect("the test game loads");
        let root = m.initial_state().unwrap();
        let mut p = SolverMcts::new(cfg(5_000), 3, 1);
        let r = p.search(&mut m, &root, 0).unwrap();
        assert_eq!(shown(&m, r.best_move), "win");
        assert!(r.solved && r.value == 100.0, "{r:?}");
        assert!(r.stats.playouts < 5_000, "the search stopped once proven");
        assert_eq!(p.tree.nodes[0].proven.as_deref(), Some(&[1.0, 0.0][..]));
        let view = p.tree.view(0, 0, 0);
        let proven = |mv: &str| {
            let i = view.moves.iter().position(|&t| shown(&m, Some(t)) == mv);
            view.proven[i.expect("a legal move")]
        };
        assert_eq!((proven("win"), proven("x")), (Some(1.0), None));
        // `y` is proven lost once both its children are seen (the search
        // may stop before).
        assert!(matches!(proven("y"), None | Some(0.0)));
        // b's moves all lose against `win`, yet neither is proven: each
        // one's outcome depends on a's move.
        let b = p.tree.view(0, 1, 0);
        assert_eq!(b.proven, vec![None, None]);
    }
}

/// a chooses a path, then the roles take turns stepping along it; path
/// `p1` ends after `short` steps, `p2` after `long`. a scores `a_goal`
/// at the end whichever path.
fn two_paths(short: u32, long: u32, a_goal: u32) -> Engine {
    let text = format!(
        "(role a) (role b) (init (at start)) (init (control a))
         (path p1 {short}) (path p2 {long})
         (<= (legal a (go ?p)) (true (at start)) (path ?p ?n))
         (<= (legal b noop) (true (at start)))
         (<= (legal ?r step) (true (control ?r)) (true (at (on ?p ?n))))
         (<= (legal ?r noop) (role ?r) (not (true (control ?r))) (not (true (at start))))
         (<= (next (at (on ?p 0))) (does a (go ?p)))
         (<= (next (at (on ?p ?m))) (true (at (on ?p ?n))) (succ ?n ?m) (does ?r step))
         (<= (next (control a)) (true (control b)))
         (<= (next (control b)) (true (control a)))
         (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6) (succ 6 7)
         (<= terminal (true (at (on ?p ?n))) (path ?p ?n))
         (<= (goal a {a_goal}) terminal)
         (<= (goal b {b_goal}) terminal)",
        b_goal = 100 - a_goal
    );
    load_engine(&text, EngineChoice::Interpreter).expect("the test game loads")
}

/// Proofs carry their plies to the end: every path lost, the solver
/// plays the slowest loss; a win proves the root with its own length.
#[test]
fn proofs_count_their_plies_and_losses_are_delayed() {
    for (short, long, slowest) in [(1, 5, "(go p2)"), (5, 1, "(go p1)")] {
        let mut m = two_paths(short, long, 0);
        let root = m.initial_state().unwrap();
        let mut p = SolverMcts::new(cfg(5_000), 1, 1);
        let (view, _) = p.search_view(&mut m, &root, 0).unwrap();
        assert_eq!(view.proven, vec![Some(0.0); 2], "{short}/{long}");
        // A step per ply after the choice.
        assert_eq!(view.plies, vec![Some(short + 1), Some(long + 1)]);
        assert_eq!(p.tree.nodes[0].plies as u32, short.max(long) + 1);
        let (i, _) = choose(&view).expect("a move");
        assert_eq!(shown(&m, Some(view.moves[i])), slowest, "{short}/{long}");
    }
    // A win proves the root at once: its plies are the winning path's.
    let mut m = two_paths(2, 4, 100);
    let root = m.initial_state().unwrap();
    let mut p = SolverMcts::new(cfg(5_000), 1, 1);
    let (view, _) = p.search_view(&mut m, &root, 0).unwrap();
    let (i, value) = choose(&view).expect("a move");
    assert_eq!(value, 1.0);
    let won = view.plies[i].expect("the win's plies");
    assert!(won == 3 || won == 5, "{won}");
    assert_eq!(p.tree.nodes[0].plies as u32, won);
}
