use crate::ground::agreement::agrees_on_every_state;
use crate::ground::report::{report, Outcome};
use crate::ground::{ground_program_with_strategy, rules::Strategy, Budget};

const GAME: &str = include_str!("../../../testdata/fold_game.kif");

/// The counting recursion becomes a fold under every strategy, and the
/// network answers as the interpreter in every reachable state.
#[test]
fn folds_are_rewritten_and_agree_with_the_interpreter() {
    let demand = Strategy {
        demand: true,
        project_first: true,
        ..Strategy::default()
    };
    let guarded = Strategy {
        guards: true,
        ..Strategy::default()
    };
    for strategy in [Strategy::default(), demand, guarded] {
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
