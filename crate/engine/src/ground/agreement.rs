//! Tests' oracle: a game's every reachable state, on the fast engine
//! grounded with one strategy and on the interpreter, answers alike.

use crate::ground::{ground_with_strategy_for_tests, rules::Strategy, Budget};
use crate::reasoner::{Interpreter, StateMachine};
use crate::terms::{TermId, TermStore};

fn show(ts: &[TermId], store: &TermStore) -> Vec<String> {
    let mut v: Vec<String> = ts.iter().map(|&t| store.display(t)).collect();
    v.sort();
    v
}

/// The strategies a rewrite must agree under: the default (first
/// attempt), demand-driven (second) and guarded (third).
pub fn strategies() -> [Strategy; 3] {
    let demand = Strategy {
        demand: true,
        project_first: true,
        ..Strategy::default()
    };
    let guarded = Strategy {
        guards: true,
        ..Strategy::default()
    };
    [Strategy::default(), demand, guarded]
}

/// What the states explored showed.
#[derive(Default)]
pub struct Seen {
    pub states: usize,
    /// Every legal move of any role in any state.
    pub moves: std::collections::BTreeSet<String>,
    /// Every goal value of any role in any state.
    pub goals: std::collections::BTreeSet<i64>,
}

/// Every reachable state: the network answers as the interpreter.
pub fn agrees_on_every_state(game: &str, strategy: Strategy) -> Seen {
    let mut out = Seen::default();
    let program = crate::parse_program(game);
    let mut fast =
        ground_with_strategy_for_tests(&program, Budget::default(), strategy).expect("grounds");
    let mut it = Interpreter::new(&program).expect("valid");
    let mut queue = vec![(it.initial_state().unwrap(), fast.initial_state().unwrap())];
    let mut seen = std::collections::BTreeSet::new();
    while let Some((s, f)) = queue.pop() {
        let fs = show(&it.fluents(&s), it.terms());
        assert_eq!(fs, show(&fast.fluents(&f), fast.terms()));
        if !seen.insert(fs.clone()) {
            continue;
        }
        let term = it.is_terminal(&s).unwrap();
        assert_eq!(term, fast.is_terminal(&f).unwrap(), "{fs:?}");
        let goals = it.goal_values(&s).unwrap();
        assert_eq!(goals, fast.goal_values(&f).unwrap(), "{fs:?}");
        out.goals.extend(goals.into_iter().flatten());
        let li: Vec<Vec<String>> = (it.all_legal_moves(&s).unwrap().iter())
            .map(|ms| show(ms, it.terms()))
            .collect();
        let lf: Vec<Vec<String>> = (fast.all_legal_moves(&f).unwrap().iter())
            .map(|ms| show(ms, fast.terms()))
            .collect();
        assert_eq!(li, lf, "{fs:?}");
        out.moves.extend(li.iter().flatten().cloned());
        if term {
            continue;
        }
        for joint in joint_moves(&li) {
            let (mut mi, mut mf) = (Vec::new(), Vec::new());
            for m in joint {
                mi.push(crate::program::parse_ground_term(it.terms_mut(), m).unwrap());
                mf.push(crate::program::parse_ground_term(fast.terms_mut(), m).unwrap());
            }
            queue.push((
                it.next_state(&s, &mi).unwrap(),
                fast.next_state(&f, &mf).unwrap(),
            ));
        }
    }
    out.states = seen.len();
    out
}

/// Every joint move: one of each role's moves.
fn joint_moves(legal: &[Vec<String>]) -> Vec<Vec<&String>> {
    let mut joints: Vec<Vec<&String>> = vec![Vec::new()];
    for moves in legal {
        let mut longer = Vec::new();
        for j in &joints {
            for m in moves {
                let mut k = j.clone();
                k.push(m);
                longer.push(k);
            }
        }
        joints = longer;
    }
    joints
}
