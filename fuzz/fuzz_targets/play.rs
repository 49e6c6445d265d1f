//! Games that load play the same on the interpreter and the fast engine:
//! one seeded random playout, comparing legal moves, terminal and goals at
//! every step (within a one-second job; limit errors are fine, a
//! disagreement or a panic is not).
#![no_main]
use gdlkit::{EngineChoice, StateMachine};
use libfuzzer_sys::fuzz_target;

fn observe<M: StateMachine>(m: &mut M, s: &M::State) -> Result<(Vec<Vec<String>>, bool, Vec<Vec<i64>>), gdlkit::EvalError> {
    let mut legal = Vec::new();
    for moves in m.all_legal_moves(s)? {
        let mut v: Vec<String> = moves.iter().map(|&t| m.terms().display(t).to_string()).collect();
        v.sort();
        legal.push(v);
    }
    Ok((legal, m.is_terminal(s)?, m.goal_values(s)?))
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    gdlkit::job::scope(1000.0, || {
        let Ok(mut a) = gdlkit::load_engine(text, EngineChoice::Interpreter) else {
            return;
        };
        let Ok(mut b) = gdlkit::load_engine(text, EngineChoice::Fast) else {
            return;
        };
        let (Ok(mut sa), Ok(mut sb)) = (a.initial_state(), b.initial_state()) else {
            return;
        };
        let mut rng = fastrand::Rng::with_seed(data.len() as u64);
        for _ in 0..20 {
            let (Ok(oa), Ok(ob)) = (observe(&mut a, &sa), observe(&mut b, &sb)) else {
                return;
            };
            assert_eq!(oa, ob, "the engines disagree");
            if oa.1 || oa.0.iter().any(Vec::is_empty) {
                return;
            }
            let pick: Vec<usize> = oa.0.iter().map(|m| rng.usize(..m.len())).collect();
            let ja: Vec<_> = a.all_legal_moves(&sa).unwrap().iter().zip(&pick).map(|(m, &i)| {
                let mut m = m.clone();
                m.sort_by_key(|&t| a.terms().display(t).to_string());
                m[i]
            }).collect();
            let jb: Vec<_> = b.all_legal_moves(&sb).unwrap().iter().zip(&pick).map(|(m, &i)| {
                let mut m = m.clone();
                m.sort_by_key(|&t| b.terms().display(t).to_string());
                m[i]
            }).collect();
            let (Ok(na), Ok(nb)) = (a.next_state(&sa, &ja), b.next_state(&sb, &jb)) else {
                return;
            };
            sa = na;
            sb = nb;
        }
    });
});
