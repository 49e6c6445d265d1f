use crate::ground::agreement::{agrees_on_every_state, strategies};
use crate::ground::report::{report, Outcome};
use crate::ground::{ground_program_with_strategy, rules::Strategy, Budget};

const GAME: &str = include_str!("../../../testdata/fold_game.kif");

/// The counting recursion becomes a fold under every strategy, and the
/// network answers as the interpreter in every reachable state.
#[test]
fn folds_are_rewritten_and_agree_with_the_interpreter() {
    for strategy in strategies() {
        let program = crate::parse_program(GAME);
        let gp =
            ground_program_with_strategy(&program, Budget::default(), strategy).expect("grounds");
        assert_eq!(gp.folds, 1, "{strategy:?}");
        let seen = agrees_on_every_state(GAME, strategy);
        assert!(seen.states >= 150, "only {} states", seen.states);
        // Every use of the count is reached: a pass (ahead), a resignation
        // (not 0 to 0), every goal value.
        assert!(
            seen.moves.contains("pass") && seen.moves.contains("resign"),
            "{:?}",
            seen.moves
        );
        assert!(
            [0, 50, 100].iter().all(|g| seen.goals.contains(g)),
            "{:?}",
            seen.goals
        );
    }
}

/// The recursion's own relation is gone from the network: its answers are
/// per count, its steps per cell and partial count.
#[test]
fn a_fold_has_no_atoms_of_the_recursion() {
    let r = report(&crate::parse_program(GAME), GAME, Budget::default());
    assert_eq!(r.outcome, Outcome::Grounded, "{:?}", r.stop);
    assert_eq!(r.folds, 1);
    let atoms = |name: &str| {
        r.relations
            .iter()
            .filter(|c| c.relation.split('/').next() == Some(name))
            .map(|c| c.atoms)
            .sum::<usize>()
    };
    assert_eq!(atoms("loop"), 0, "{:?}", r.relations);
    // count(w, b) for w + b ≤ 5 at most; the interpreter's answer is one.
    assert!((1..=21).contains(&atoms("count")), "{:?}", r.relations);
}

/// A graph of four nodes whose links are the lit cells' edges; `ASK` is
/// replaced by the goal's question.
const REACH: &str = "
(role p)
(index 1) (index 2) (index 3) (index 4)
(edge 1 2) (edge 2 3) (edge 3 4) (edge 4 1) (edge 2 4)
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
(init (step 0))
(<= (legal p (toggle ?i)) (index ?i))
(<= (next (cell ?i)) (true (cell ?i)) (not (does p (toggle ?i))))
(<= (next (cell ?i)) (does p (toggle ?i)) (not (true (cell ?i))))
(<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
(<= (link ?x ?y) (edge ?x ?y) (true (cell ?x)) (true (cell ?y)))
(<= (reach ?x ?y) (link ?x ?y))
(<= (reach ?x ?z) (link ?x ?y) (reach ?y ?z))
(<= terminal (true (step 4)))
(<= (goal p 100) ASK)
(<= (goal p 0) (not won))
(<= won ASK)
";

/// A transitive closure asked from one node is a fold (the nodes reached
/// from it); asked from every lit node it is not (no single entry). Both
/// answer as the interpreter does.
#[test]
fn a_closure_from_one_node_is_a_fold_and_from_any_node_is_not() {
    for (ask, folds) in [("(reach 1 4)", 1), ("(true (cell ?x)) (reach ?x 4)", 0)] {
        let game = REACH.replace("ASK", ask);
        let program = crate::parse_program(&game);
        let gp = ground_program_with_strategy(&program, Budget::default(), Strategy::default())
            .expect("grounds");
        assert_eq!(gp.folds, folds, "{ask}");
        let seen = agrees_on_every_state(&game, Strategy::default());
        assert!(seen.states >= 25, "{ask}: only {} states", seen.states);
        assert!(
            seen.goals.contains(&0) && seen.goals.contains(&100),
            "{ask}: {:?}",
            seen.goals
        );
    }
}

/// A recursion that reads its answer in its own body, or whose body reads
/// a relation that depends on it, is left as written.
#[test]
fn recursions_that_do_not_pass_the_answer_through_stay() {
    let reads_answer = REACH.replace(
        "(<= (reach ?x ?z) (link ?x ?y) (reach ?y ?z))",
        "(<= (reach ?x ?z) (link ?x ?y) (index ?z) (reach ?y ?z))",
    );
    let mutual = REACH.replace(
        "(<= (reach ?x ?z) (link ?x ?y) (reach ?y ?z))",
        "(<= (reach ?x ?z) (step1 ?x ?y ?z) (reach ?y ?z))
         (<= (step1 ?x ?y ?z) (link ?x ?y) (index ?z) (reach ?x ?z))",
    );
    for game in [reads_answer, mutual] {
        let game = game.replace("ASK", "(reach 1 4)");
        let program = crate::parse_program(&game);
        let gp = ground_program_with_strategy(&program, Budget::default(), Strategy::default())
            .expect("grounds");
        assert_eq!(gp.folds, 0, "{game}");
        let seen = agrees_on_every_state(&game, Strategy::default());
        assert!(seen.states >= 25, "only {} states", seen.states);
    }
}
