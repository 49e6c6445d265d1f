//! The symbolic solver against the explicit one (the oracle): reachable
//! states, terminal states, the initial value and the states per value.

use super::*;
use crate::engine::{load_engine, EngineChoice};
use crate::solve::{solve, Limits};

/// Whether both solvers solved `text` completely (and then agree); panics
/// when they disagree or only one refuses.
fn check_against_explicit(
    name: &str,
    text: &str,
    explicit: Limits,
    symbolic: SymbolicLimits,
) -> bool {
    let Ok(engine) = load_engine(text, EngineChoice::Fast) else {
        return false;
    };
    let explicit = solve(engine, explicit);
    let program = crate::parse_program(text);
    let symbolic = solve_symbolic(&program, &symbolic);
    let (e, s) = match (explicit, symbolic) {
        (Ok(e), Ok(s)) => (e, s),
        (Err(_), Err(_)) => return false,
        (e, s) => panic!(
            "{name}: explicit {:?}, symbolic {:?}",
            e.map(|x| x.summary()),
            s
        ),
    };
    if !e.complete || !s.complete {
        return false;
    }
    let es = e.summary();
    assert_eq!(
        s.stats.states,
        u128::from(es.stats.states),
        "{name}: states"
    );
    assert_eq!(
        s.stats.terminal,
        u128::from(es.stats.terminal),
        "{name}: terminal"
    );
    assert_eq!(s.concept, Some(es.concept), "{name}");
    assert_eq!(
        s.initial,
        es.initial.map(|v| v.goals),
        "{name}: initial value"
    );
    let by: Vec<(Option<Vec<u8>>, u128)> = es
        .by_value
        .into_iter()
        .map(|c| (c.goals, u128::from(c.states)))
        .collect();
    let sy: Vec<(Option<Vec<u8>>, u128)> = s
        .by_value
        .into_iter()
        .map(|c| (c.goals, c.states))
        .collect();
    assert_eq!(sy, by, "{name}: states by value");
    true
}

fn game(name: &str) -> String {
    let path = format!("{}/../../games/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A counter one role moves up or down for ever (the explicit solver's
/// test game): only the two terminal states get values.
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

/// One role: reach 3 by steps of one or two, goal 100 at 3, 50 at 4.
const PLAN: &str = "
    (role p)
    (init (at 0))
    (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
    (<= (legal p (step ?y)) (true (at ?x)) (succ ?x ?y))
    (<= (legal p (jump ?z)) (true (at ?x)) (succ ?x ?y) (succ ?y ?z))
    (<= (next (at ?y)) (does p (step ?y)))
    (<= (next (at ?y)) (does p (jump ?y)))
    (<= terminal (true (at 3)))
    (<= terminal (true (at 4)))
    (<= (goal p 100) (true (at 3)))
    (<= (goal p 50) (true (at 4)))
";

#[test]
fn cycles_one_role_and_refusals_agree_with_the_explicit_solver() {
    assert!(check_against_explicit(
        "cycle",
        CYCLE,
        Limits::default(),
        SymbolicLimits::default()
    ));
    assert!(check_against_explicit(
        "plan",
        PLAN,
        Limits::default(),
        SymbolicLimits::default()
    ));
    // Rules of k distinct cells: "at least k" gates of the grounding.
    let counting = include_str!("../../../../engine/testdata/counting_game.kif");
    assert!(check_against_explicit(
        "counting",
        counting,
        Limits::default(),
        SymbolicLimits::default()
    ));
    let p = crate::parse_program(&game("rockPaperScissors.kif"));
    let e = solve_symbolic(&p, &SymbolicLimits::default()).unwrap_err();
    assert!(e.0.contains("simultaneous"), "{e}");
    let p = crate::parse_program(&game("threePlayerTicTacToe.kif"));
    let e = solve_symbolic(&p, &SymbolicLimits::default()).unwrap_err();
    assert!(e.0.contains("3 roles"), "{e}");
}

/// A count killed after a few layers goes on from its checkpoint to the
/// same layers and terminal states as a count in one run; a checkpoint of
/// another game is refused.
#[test]
fn a_count_resumes_from_its_checkpoint() {
    let text = std::fs::read_to_string(format!(
        "{}/../../games/connectThree.kif",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("games/connectThree.kif");
    let program = crate::parse_program(&text);
    let count = SymbolicLimits {
        count_only: true,
        ..SymbolicLimits::default()
    };
    let whole = solve_symbolic(&program, &count).expect("counts");
    assert!(whole.complete && whole.stats.layers.len() > 6);

    // The first four layers, saved as a run killed then would leave them.
    let dir = std::env::temp_dir().join(format!("gdlkit-checkpoint-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let gp = crate::ground::ground_program(&program, Budget::default()).expect("grounds");
    let positions = order::positions(&gp, VarOrder::Cells);
    let saved = checkpoint::Checkpoint::new(&dir, order::fingerprint(&gp, &positions));
    let space = bdd::Space::new(&positions, count.max_nodes).expect("a space");
    let clock = Clock {
        deadline_ms: f64::INFINITY,
        seconds: 1e9,
        max_nodes: count.max_nodes,
    };
    let mut game = Game::build(&gp, space, &clock, false)
        .ok()
        .expect("the game");
    let start = reach::Reached::start(&game);
    let (killed, stopped) = reach::reach(&mut game, &clock, start, false, &mut |r| {
        saved.save(r)?;
        match r.layers.len() {
            4 => Err(Stop::Limit("killed".into())),
            _ => Ok(()),
        }
    });
    assert!(matches!(stopped, Err(Stop::Limit(_))));

    let resume = SymbolicLimits {
        checkpoint: Some(dir.clone()),
        ..count.clone()
    };
    let resumed = solve_symbolic(&program, &resume).expect("resumes");
    assert!(resumed.complete, "{:?}", resumed.stopped);
    assert_eq!(resumed.stats.layers, whole.stats.layers);
    assert_eq!(resumed.stats.terminal, whole.stats.terminal);
    assert_eq!(resumed.stats.states, whole.stats.states);
    assert_eq!(resumed.stats.layer_seconds.len(), whole.stats.layers.len());
    // The first layers' times are the killed run's: they were read back,
    // not counted again.
    let read = &resumed.stats.layer_seconds[..4];
    assert!(
        read.iter()
            .zip(&killed.seconds)
            .all(|(a, b)| (a - b).abs() < 1e-12),
        "{read:?} against {:?}",
        killed.seconds
    );

    let other = crate::parse_program(
        &std::fs::read_to_string(format!(
            "{}/../../games/ticTacToe.kif",
            env!("CARGO_MANIFEST_DIR")
        ))
        .expect("games/ticTacToe.kif"),
    );
    let e = solve_symbolic(&other, &resume).unwrap_err();
    assert!(e.0.contains("another game"), "{e}");
    std::fs::remove_dir_all(&dir).expect("removed");
}

/// A damaged checkpoint (a BDD file cut short, or bytes changed) is
/// refused with the file's name, never read as a smaller set.
#[test]
fn a_damaged_checkpoint_is_refused() {
    let text = std::fs::read_to_string(format!(
        "{}/../../games/ticTacToe.kif",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("games/ticTacToe.kif");
    let program = crate::parse_program(&text);
    let dir = std::env::temp_dir().join(format!("gdlkit-damaged-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let limits = SymbolicLimits {
        count_only: true,
        checkpoint: Some(dir.clone()),
        ..SymbolicLimits::default()
    };
    let whole = solve_symbolic(&program, &limits).expect("counts");
    assert!(whole.complete);
    let k = whole.stats.layers.len() - 1;
    let all = dir.join(format!("all-{k}.bdd"));
    let bytes = std::fs::read(&all).expect("saved");
    assert!(bytes.len() >= 40, "a few nodes");
    std::fs::write(&all, &bytes[..bytes.len() - 10]).expect("cut");
    let e = solve_symbolic(&program, &limits).unwrap_err();
    assert!(
        e.0.contains(&format!("all-{k}.bdd")) && e.0.contains("saved"),
        "{e}"
    );
    let mut changed = bytes.clone();
    // The last node's low link (bytes 2..6 of its 10) pointing at itself.
    let at = bytes.len() - 10;
    let me = ((bytes.len() / 10 - 1) as u32).to_le_bytes();
    changed[at + 2..at + 6].copy_from_slice(&me);
    std::fs::write(&all, &changed).expect("changed");
    let e = solve_symbolic(&program, &limits).unwrap_err();
    assert!(e.0.contains("not well formed"), "{e}");
    std::fs::write(&all, &bytes).expect("restored");
    let again = solve_symbolic(&program, &limits).expect("resumes");
    assert_eq!(again.stats.layers, whole.stats.layers);
    std::fs::remove_dir_all(&dir).expect("removed");
}
