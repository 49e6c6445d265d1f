//! The hybrid interpreter (top-down tabling for demand relations) agrees
//! with plain bottom-up materialisation on random reachable states of every
//! corpus game that materialises within small limits.

use gdlkit::reasoner::{random_playout, EvalError, Interpreter, Limits, StateMachine};
use gdlkit::terms::TermId;

/// Everything observable about a state, in canonical text.
fn observe<M: StateMachine>(m: &mut M, s: &M::State) -> Result<Observation, EvalError> {
    let legal = m.all_legal_moves(s)?;
    let mut legal: Vec<Vec<String>> = legal
        .iter()
        .map(|ms| ms.iter().map(|&t| m.terms().display(t)).collect())
        .collect();
    legal.iter_mut().for_each(|l| l.sort());
    Ok((legal, m.is_terminal(s)?, m.goal_values(s)?))
}

fn fluent_text<M: StateMachine>(m: &M, s: &M::State) -> Vec<String> {
    let mut v: Vec<String> = m.fluents(s).iter().map(|&t| m.terms().display(t)).collect();
    v.sort();
    v
}

/// Moves `s` into the other machine's term store.
fn translate(from: &Interpreter, to: &mut Interpreter, terms: &[TermId]) -> Vec<TermId> {
    terms
        .iter()
        .map(|&t| {
            gdlkit::program::parse_ground_term(to.terms_mut(), &from.terms().display(t)).unwrap()
        })
        .collect()
}

use crate::common::corpus;

#[test]
fn hybrid_equals_materialised_on_random_states() {
    let dir = corpus::games_dir(
        "games/repository",
        "hybrid_equals_materialised_on_random_states",
    );
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let small = Limits {
        max_rows_per_state: 200_000,
        max_static_rows: 1_000_000,
        max_steps: 20_000_000,
        ..Limits::default()
    };
    let (mut compared, mut skipped) = (0, Vec::new());
    // Every third corpus game (the corpus is large); every project game.
    let step = if corpus::shared_dir().is_some() { 3 } else { 1 };
    for (gi, path) in files.iter().enumerate().step_by(step) {
        let text = std::fs::read_to_string(path).unwrap();
        let program = gdlkit::parse_program(&text);
        let (Ok(mut hybrid), Ok(mut plain)) = (
            Interpreter::new(&program),
            Interpreter::materialising(&program, small),
        ) else {
            skipped.push(path.file_name().unwrap().to_string_lossy().to_string());
            continue;
        };
        let mut rng = fastrand::Rng::with_seed(gi as u64);
        let Ok(init) = hybrid.initial_state() else {
            continue;
        };
        let mut states = vec![init.clone()];
        for _ in 0..2 {
            // Collect states along a short random playout.
            let mut s = init.clone();
            for _ in 0..rng.usize(1..12) {
                match random_playout(&mut hybrid, &s, &mut rng, 1) {
                    Ok(p) if p.steps == 1 => {
                        s = p.state;
                        states.push(s.clone());
                    }
                    _ => break,
                }
            }
        }
        let mut ok = true;
        for s in &states {
            let fl = translate(&hybrid, &mut plain, &hybrid.fluents(s));
            let ps = plain.state_from_fluents(&fl);
            let (Ok(a), Ok(b)) = (observe(&mut hybrid, s), observe(&mut plain, &ps)) else {
                ok = false;
                break;
            };
            assert_eq!(
                a,
                b,
                "{}: state {:?}",
                path.display(),
                fluent_text(&hybrid, s)
            );
            // The successor under a random legal joint move agrees too.
            if let Ok(per_role) = hybrid.all_legal_moves(s) {
                if per_role.iter().all(|m| !m.is_empty()) {
                    let j: Vec<TermId> = per_role.iter().map(|m| m[rng.usize(..m.len())]).collect();
                    let j = &j;
                    let pj = translate(&hybrid, &mut plain, j);
                    if let (Ok(n1), Ok(n2)) = (hybrid.next_state(s, j), plain.next_state(&ps, &pj))
                    {
                        assert_eq!(
                            fluent_text(&hybrid, &n1),
                            fluent_text(&plain, &n2),
                            "{}: next",
                            path.display()
                        );
                    }
                }
            }
        }
        if ok {
            compared += 1;
        } else {
            skipped.push(path.file_name().unwrap().to_string_lossy().to_string());
        }
    }
    eprintln!("compared {compared} games; skipped (too large to materialise): {skipped:?}");
    let floor = if corpus::shared_dir().is_some() {
        80
    } else {
        5
    };
    assert!(compared >= floor, "only {compared} games compared");
}

/// Legal moves per role, terminal, goal values per role.
type Observation = (Vec<Vec<String>>, bool, Vec<Vec<i64>>);
