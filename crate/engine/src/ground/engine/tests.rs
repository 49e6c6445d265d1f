use super::super::{ground, Budget};
use super::playout::{select, select_in_word};

/// Both ways of selecting the `k`-th set bit against a scan of the bits.
#[test]
fn select_finds_the_kth_set_bit() {
    let mut rng = fastrand::Rng::with_seed(7);
    let mut words = vec![u64::MAX, 1, 1 << 63, 0x8000_0001_0000_0000];
    words.extend((0..2000).map(|_| rng.u64(..) & rng.u64(..)));
    let mut checked = 0;
    for x in words {
        let ones: Vec<usize> = (0..64).filter(|&i| x >> i & 1 == 1).collect();
        for (k, &i) in ones.iter().enumerate() {
            assert_eq!(select_in_word(x, k as u32) as usize, i, "{x:#x} k={k}");
            assert_eq!(select::<true>(&[5, x], k + 2), 64 + i);
            assert_eq!(select::<false>(&[5, x], k + 2), 64 + i);
            checked += 1;
        }
    }
    assert!(checked > 20_000, "{checked} bits checked");
}

/// Marking cells of a 3x3 board in turn, with ticTacToe's frame axiom
/// for blank cells (a disjunction in the body).
const MARKS: &str = "(role xp) (role op) (index 1) (index 2) (index 3)
    (<= (init (cell ?x ?y blank)) (index ?x) (index ?y))
    (init (control xp))
    (<= (legal ?r (mark ?x ?y)) (true (control ?r)) (true (cell ?x ?y blank)))
    (<= (legal xp noop) (true (control op)))
    (<= (legal op noop) (true (control xp)))
    (<= (next (cell ?x ?y ?r)) (does ?r (mark ?x ?y)))
    (<= (next (cell ?x ?y ?r)) (true (cell ?x ?y ?r)) (distinct ?r blank))
    (<= (next (cell ?x ?y blank)) (true (cell ?x ?y blank)) (does ?r (mark ?j ?k))
        (or (distinct ?x ?j) (distinct ?y ?k)))
    (<= (next (control xp)) (true (control op)))
    (<= (next (control op)) (true (control xp)))
    (<= open (true (cell ?x ?y blank)))
    (<= terminal (not open))
    (<= (goal ?r 50) (role ?r))";

/// The frame as breakthrough writes it: a static relation of distinct
/// cells, so one wide OR over the moves per cell.
const DISTINCT_CELL: &str = "(distinctCell ?x ?y ?j ?k))
    (<= (distinctCell ?x ?y ?j ?k) (index ?x) (index ?y) (index ?j) (index ?k)
        (distinct ?x ?j))
    (<= (distinctCell ?x ?y ?j ?k) (index ?x) (index ?y) (index ?j) (index ?k)
        (distinct ?y ?k)";

/// Frame axioms as ticTacToe (after factoring) and breakthrough write
/// them are rewritten as complement gates, one per cell, so that a
/// move's input updates at most its own cell's gate and its `next`
/// gates: at most 4 propagated edges out of any `does` input (before:
/// breakthrough ~62, each into the frame OR of a cell the move leaves
/// alone). The answers are checked by `tests/fast_vs_interpreter.rs`.
#[test]
fn moves_touch_only_their_own_cells_frame_gates() {
    for (text, cells) in [
        (MARKS.to_string(), 9),
        (
            MARKS.replace("(or (distinct ?x ?j) (distinct ?y ?k))", DISTINCT_CELL),
            9,
        ),
    ] {
        let e = ground(&crate::parse_program(&text), Budget::default()).expect("grounds");
        assert_eq!(e.complement.len(), cells, "one complement gate per cell");
        let mut inputs = 0;
        for &i in e.t.legal_input.iter().filter(|&&i| i != super::NONE) {
            let i = i as usize;
            let fan_out = e.net.out_start[i + 1] - e.net.out_start[i];
            assert!(fan_out <= 4, "a move input with {fan_out} propagated edges");
            inputs += 1;
        }
        assert!(inputs >= 18, "only {inputs} move inputs");
    }
}

/// Each flip of the pancakes guards the ANDs of its 120 orderings
/// (`ground/guards.rs`): its input keeps no propagated edge to them, and
/// the network still answers as the interpreter does (checked along
/// playouts by `tests/fast_vs_interpreter.rs`).
#[test]
fn flips_guard_their_orderings_ands() {
    let text = include_str!("../../../testdata/guarded_game.kif");
    let e = ground(&crate::parse_program(text), Budget::default()).expect("grounds");
    assert_eq!(e.guard_nodes.len(), 5, "one guard per flip");
    let guarded = e.guard_of.iter().filter(|&&g| g != super::NONE).count();
    assert_eq!(guarded, 5 * 120, "every ordering's AND, for every flip");
    for &i in e.t.legal_input.iter().filter(|&&i| i != super::NONE) {
        let i = i as usize;
        let fan_out = e.net.out_start[i + 1] - e.net.out_start[i];
        assert_eq!(fan_out, 0, "a flip input still propagates {fan_out} edges");
    }
}

/// Where the rest of the guarded ANDs is mostly true (every `q` turns on
/// every other step), a guard's list costs about what the counts did: the
/// walk refuses every guard and the inputs propagate as usual.
#[test]
fn guards_whose_lists_cost_as_much_as_the_counts_are_refused() {
    let mut text = String::from(
        "(role r) (<= (legal r (go ?x)) (move ?x))
         (<= (next (q ?y)) (index ?y) (not (true (q ?y))))
         (<= (next (p ?x ?y)) (does r (go ?x)) (true (q ?y)))
         (<= (next (step ?n)) (true (step ?m)) (succ ?m ?n)) (init (step 0))
         (<= terminal (true (step 30))) (goal r 100)",
    );
    for x in 1..=4 {
        text.push_str(&format!(" (move {x})"));
    }
    for y in 1..=20 {
        text.push_str(&format!(" (index {y}) (init (q {y}))"));
    }
    for n in 0..30 {
        text.push_str(&format!(" (succ {n} {})", n + 1));
    }
    let e = ground(&crate::parse_program(&text), Budget::default()).expect("grounds");
    assert!(e.guard_nodes.is_empty(), "guards kept: {:?}", e.guard_nodes);
    let fan_outs: Vec<u32> =
        e.t.legal_input
            .iter()
            .filter(|&&i| i != super::NONE)
            .map(|&i| e.net.out_start[i as usize + 1] - e.net.out_start[i as usize])
            .collect();
    assert_eq!(fan_outs.len(), 4, "four move inputs");
    assert!(fan_outs.iter().all(|&f| f >= 20), "fan-outs {fan_outs:?}");
}

/// A frame rule ("a counter keeps its value when another is raised")
/// splits into "another counter is raised", a gate per counter that feeds
/// one AND per value: the gates guard them (`ground/guards.rs`), every
/// reachable state still answers as the interpreter does, and a step
/// propagates no edge from a guard gate to its 81 ANDs.
#[test]
fn gates_guard_the_frame_ands_they_feed() {
    use crate::ground::{agreement::agrees_on_every_state, network::LEAF, rules::Strategy};
    let text = include_str!("../../../testdata/gate_guarded_game.kif");
    let e = ground(&crate::parse_program(text), Budget::default()).expect("grounds");
    let gates: Vec<usize> = (e.guard_nodes.iter())
        .map(|&g| g as usize)
        .filter(|&g| e.net.thr[g] != LEAF)
        .collect();
    assert_eq!(gates.len(), 3, "one guard gate per counter: {gates:?}");
    for &g in &gates {
        let slot = e.guard_nodes.binary_search(&(g as u32)).unwrap() as u32;
        let ands = e.guard_of.iter().filter(|&&s| s == slot).count();
        assert_eq!(ands, 81, "gate {g} guards one AND per value");
        let fan_out = e.net.out_start[g + 1] - e.net.out_start[g];
        assert_eq!(fan_out, 0, "gate {g} still propagates {fan_out} edges");
    }
    let first = Strategy {
        untyped: true,
        guards: true,
        ..Strategy::default()
    };
    let seen = agrees_on_every_state(text, first);
    assert!(seen.states >= 100, "{} states", seen.states);
    assert_eq!(seen.goals.len(), 2, "both goals seen");
}

/// A filter moved into an auxiliary (`rules.rs`, `push_filters`): the
/// car's velocity filters the positions reachable with each speed, so
/// fewer nodes change along a walk; every reachable state answers as the
/// interpreter does, with the filters and without.
#[test]
fn filters_moved_into_auxiliaries_change_fewer_nodes() {
    use crate::ground::{agreement::agrees_on_every_state, rules::Strategy};
    use crate::reasoner::StateMachine;
    let text = include_str!("../../../testdata/filtered_game.kif");
    let with = Strategy {
        untyped: true,
        guards: true,
        filters: true,
        ..Strategy::default()
    };
    let without = Strategy {
        filters: false,
        ..with
    };
    for s in [with, without] {
        let seen = agrees_on_every_state(text, s);
        assert!(seen.states >= 100, "{} states", seen.states);
        assert_eq!(seen.goals.len(), 2, "both goals seen");
    }
    // The same walk on both networks (moves chosen by their text).
    let program = crate::parse_program(text);
    let changes = |s: Strategy| {
        let mut e = crate::ground::ground_with_strategy_for_tests(&program, Budget::default(), s)
            .expect("grounds");
        let mut rng = fastrand::Rng::with_seed(5);
        let init = e.initial_state().unwrap();
        let (mut state, mut before, mut changed) = (init.clone(), Vec::new(), 0);
        for _ in 0..300 {
            let moves = e.all_legal_moves(&state).unwrap();
            let now: Vec<bool> = e.ns.iter().map(|&n| n & super::V != 0).collect();
            changed += now.iter().zip(&before).filter(|(a, b)| a != b).count();
            before = now;
            if e.is_terminal(&state).unwrap() {
                // The restart's changes are not counted.
                state = init.clone();
                e.all_legal_moves(&state).unwrap();
                before = e.ns.iter().map(|&n| n & super::V != 0).collect();
                continue;
            }
            let mut named: Vec<(String, _)> = (moves[0].iter())
                .map(|&m| (e.terms().display(m), m))
                .collect();
            named.sort();
            let m = named[rng.usize(..named.len())].1;
            state = e.next_state(&state, &[m]).unwrap();
        }
        changed
    };
    let (a, b) = (changes(with), changes(without));
    assert!(
        a * 10 < b * 9,
        "{a} node changes with the filters, {b} without"
    );
}

/// A relation grounded for every argument where the goals ask about one
/// (as chineseCheckers3 counts pieces on every triple of cells): a goal
/// query evaluates only the goals' cone, and every reachable state's
/// goals still agree with the interpreter.
#[test]
fn a_goal_query_sweeps_only_the_goals_cone() {
    use crate::ground::{agreement::agrees_on_every_state, rules::Strategy};
    let goals = "(<= (pair ?a ?b ?c ?d ?r) (true (cell ?a ?b ?r)) (true (cell ?c ?d ?r)))
        (<= (goal ?r 100) (role ?r) (pair 1 1 3 3 ?r))
        (<= (goal ?r 0) (role ?r) (not (pair 1 1 3 3 ?r)))";
    let text = MARKS.replace("(<= (goal ?r 50) (role ?r))", goals);
    let e = ground(&crate::parse_program(&text), Budget::default()).expect("grounds");
    let plain = ground(&crate::parse_program(MARKS), Budget::default()).expect("grounds");
    let pairs = e.stats().nodes - plain.stats().nodes;
    assert!(
        pairs >= 81,
        "{pairs} nodes more: `pair` is grounded for every cell"
    );
    assert!(
        e.lazy_order.len() <= 12,
        "{} lazy nodes swept beside {pairs} nodes of `pair`",
        e.lazy_order.len()
    );
    let first = Strategy {
        untyped: true,
        guards: true,
        ..Strategy::default()
    };
    let seen = agrees_on_every_state(&text, first);
    assert!(seen.states >= 100, "{} states", seen.states);
    assert_eq!(seen.goals.len(), 2, "both goals seen");
}
