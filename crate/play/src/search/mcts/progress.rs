//! Progress moves: in a game whose goals count before its end (chinese
//! checkers' pieces home), the moves that raise their mover's goal beyond
//! any other role's every time they are legal. Playouts take them where
//! they can (`solver/walker.rs`), so that a playout of a race finishes it
//! as players would: a uniform playout of chineseCheckers3 seldom brings a
//! piece home, and its rewards then tell little of who is ahead.

use super::probe;
use crate::clock::now_ms;
use crate::reasoner::{EvalError, StateMachine};
use crate::terms::TermId;

/// Time for the probes.
const PROBE_MS: f64 = 250.0;

/// The progress moves of `m`'s game, probed from its initial state with
/// a generator seeded with `seed`: none where every rise of a goal ends
/// the game (a win taken; greedy playouts take those).
pub fn find<M: StateMachine>(
    m: &mut M,
    seed: u64,
    max_steps: usize,
) -> Result<Vec<(usize, TermId)>, EvalError> {
    let root = m.initial_state()?;
    let mut rng = fastrand::Rng::with_seed(seed ^ 0x9a15);
    let goals = |m: &mut M, s: &M::State| -> Result<Vec<i64>, EvalError> {
        Ok(m.goals(s)?.iter().map(|g| g.unwrap_or(0)).collect())
    };
    let until = now_ms() + PROBE_MS;
    let found = probe::moves_that_always_gain(m, &root, &mut rng, max_steps, until, goals)?;
    Ok(match found.before_the_end {
        true => found.moves,
        false => Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{load_engine, EngineChoice};

    /// A race: each role steps its token forward or waits; its goal is
    /// 25 a cell, and the game ends when a token reaches cell 4.
    const RACE: &str = "
        (role a) (role b)
        (init (at a 0)) (init (at b 0)) (init (control a))
        (<= (legal ?r step) (true (control ?r)))
        (<= (legal ?r wait) (true (control ?r)))
        (<= (legal a noop) (true (control b)))
        (<= (legal b noop) (true (control a)))
        (<= (next (at ?r ?m)) (does ?r step) (true (at ?r ?n)) (succ ?n ?m))
        (<= (next (at ?r ?n)) (does ?r wait) (true (at ?r ?n)))
        (<= (next (at ?r ?n)) (does ?r noop) (true (at ?r ?n)))
        (<= (next (control b)) (true (control a)))
        (<= (next (control a)) (true (control b)))
        (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
        (score 0 0) (score 1 25) (score 2 50) (score 3 75) (score 4 100)
        (<= terminal (true (at ?r 4)))
        (<= (goal ?r ?g) (true (at ?r ?n)) (score ?n ?g))
    ";

    fn shown<M: StateMachine>(m: &M, moves: &[(usize, TermId)]) -> Vec<(usize, String)> {
        (moves.iter())
            .map(|&(r, mv)| (r, m.terms().display(mv)))
            .collect()
    }

    #[test]
    fn a_move_that_always_raises_its_movers_goal_is_progress() {
        for choice in [EngineChoice::Interpreter, EngineChoice::Fast] {
            let mut m = load_engine(RACE, choice).unwrap();
            let found = find(&mut m, 1, 100).unwrap();
            let want = vec![(0, "step".to_string()), (1, "step".to_string())];
            assert_eq!(shown(&m, &found), want, "{choice:?}");
        }
    }

    #[test]
    fn goals_that_rise_only_at_the_end_give_no_progress() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games/ticTacToe.kif");
        let text = std::fs::read_to_string(path).expect("the game file");
        let mut m = load_engine(&text, EngineChoice::Fast).unwrap();
        // Completing a line raises the mover's goal, and always ends the game.
        assert_eq!(find(&mut m, 1, 100).unwrap(), Vec::new());
    }
}
