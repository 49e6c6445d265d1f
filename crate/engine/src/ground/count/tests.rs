use crate::ground::agreement::{agrees_on_every_state, strategies};
use crate::ground::{ground_program_with_strategy, rules::Strategy, Budget};

const GAME: &str = include_str!("../../../testdata/counting_game.kif");

#[test]
fn counting_rules_are_rewritten_and_agree_with_the_interpreter() {
    let program = crate::parse_program(GAME);
    let gp = ground_program_with_strategy(&program, Budget::default(), Strategy::default())
        .expect("grounds");
    // `pass` needs two stuck stones, the goal three.
    assert_eq!(gp.counting_rules, 2);
    let ks: Vec<u32> = gp.inst.at_least.iter().map(|&(_, k)| k).collect();
    assert!(ks.contains(&2) && ks.contains(&3), "{ks:?}");
    for strategy in strategies() {
        let seen = agrees_on_every_state(GAME, strategy);
        assert!(seen.states >= 400, "only {} states", seen.states);
        // Both counts hold somewhere: a pass is legal, a goal is won.
        assert!(seen.moves.contains("pass"), "{:?}", seen.moves);
        assert!(seen.goals.contains(&100), "{:?}", seen.goals);
    }
}

/// The count's instances grow with the values, not with their ordered
/// choices: three of six cells were 6 · 5 · 4 instances per role.
#[test]
fn a_count_is_one_instance_per_role() {
    let program = crate::parse_program(GAME);
    let gp = ground_program_with_strategy(&program, Budget::default(), Strategy::default())
        .expect("grounds");
    let threes = gp.inst.at_least.iter().filter(|&&(_, k)| k == 3).count();
    assert_eq!(threes, 2, "one instance of `three` per role");
    let widest = (0..gp.inst.len()).map(|i| gp.inst.lits(i).len()).max();
    assert_eq!(widest, Some(6), "a count reads each of the six cells once");
}
