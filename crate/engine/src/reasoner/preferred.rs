//! Preferred moves in playouts: a role takes one of its preferred moves
//! whenever it has one (drawn uniformly among them), else a uniformly
//! random move. A player names the moves (reversi's corners, found as
//! the moves that gain a latched piece), so that a playout punishes a
//! move that leaves the opponent a corner, which a uniform playout mostly
//! forgives.

use super::{random_index, EvalError, Playout, StateMachine};
use crate::terms::TermId;
use rustc_hash::FxHashSet;

/// The moves a playout prefers, per role; the fast engine adds a mask of
/// its legal bits (`ground/engine/playout.rs`).
#[derive(Clone, Debug, Default)]
pub struct Preferred {
    pub(crate) moves: FxHashSet<(usize, TermId)>,
    /// Per legal word of the fast engine that built it, the preferred
    /// moves' bits (empty elsewhere).
    pub(crate) mask: Vec<u64>,
}

impl Preferred {
    /// The preference for role-and-move pairs, without a fast engine's mask.
    pub fn of(moves: impl IntoIterator<Item = (usize, TermId)>) -> Preferred {
        Preferred {
            moves: moves.into_iter().collect(),
            mask: Vec::new(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    pub fn len(&self) -> usize {
        self.moves.len()
    }
}

/// A playout whose moves follow `prefer` on any machine: the legal moves
/// as [`StateMachine::legal_moves`] lists them, a preferred one drawn
/// uniformly where there is one.
pub fn preferring_playout<M: StateMachine>(
    m: &mut M,
    state: &M::State,
    rng: &mut fastrand::Rng,
    max_steps: usize,
    prefer: &Preferred,
) -> Result<Playout<M::State>, EvalError> {
    let mut liked = Vec::new();
    let choose = |rng: &mut fastrand::Rng, r: usize, moves: &[TermId]| {
        liked.clear();
        liked.extend((0..moves.len()).filter(|&i| prefer.moves.contains(&(r, moves[i]))));
        match liked.is_empty() {
            true => random_index(rng, moves.len()),
            false => liked[random_index(rng, liked.len())],
        }
    };
    super::walk(m, state, rng, max_steps, choose, |_, _, _, _| Ok(true))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{load_engine, EngineChoice};
    use crate::reasoner::rewards;

    const TAKE: &str = "
        (role a) (role b)
        (init (control a)) (init (left 4))
        (<= (legal ?r (take 1)) (true (control ?r)))
        (<= (legal ?r (take 2)) (true (control ?r)) (true (left ?n)) (more ?n))
        (<= (legal a noop) (true (control b)))
        (<= (legal b noop) (true (control a)))
        (<= (next (left ?m)) (does ?r (take 1)) (true (left ?n)) (minus1 ?n ?m))
        (<= (next (left ?m)) (does ?r (take 2)) (true (left ?n)) (minus2 ?n ?m))
        (<= (next (control b)) (true (control a)))
        (<= (next (control a)) (true (control b)))
        (minus1 4 3) (minus1 3 2) (minus1 2 1) (minus1 1 0)
        (minus2 4 2) (minus2 3 1) (minus2 2 0)
        (more 4) (more 3) (more 2)
        (<= terminal (true (left 0)))
        (<= (goal a 100) (true (control b)))
        (<= (goal a 0) (true (control a)))
        (<= (goal b 100) (true (control a)))
        (<= (goal b 0) (true (control b)))
    ";

    #[test]
    fn a_preferred_move_is_always_taken_where_legal() {
        for choice in [EngineChoice::Interpreter, EngineChoice::Fast] {
            let mut m = load_engine(TAKE, choice).unwrap();
            let take2 = crate::program::parse_ground_term(m.terms_mut(), "(take 2)").unwrap();
            let prefer = m.preferred(&[(0, take2), (1, take2)]);
            let root = m.initial_state().unwrap();
            let mut rng = fastrand::Rng::with_seed(5);
            let mut lengths = [0; 5];
            for _ in 0..40 {
                // 4 → 2 → 0: two moves, the second (`b`'s) takes the last.
                let p = m.preferring_playout(&root, &mut rng, 10, &prefer).unwrap();
                assert!(p.terminal, "{choice:?}");
                assert_eq!(p.steps, 2, "{choice:?}");
                assert_eq!(rewards(&mut m, &p.state).unwrap(), vec![0.0, 1.0]);
                // Uniform playouts take 1 as often as 2.
                let q = m.random_playout(&root, &mut rng, 10).unwrap();
                lengths[q.steps] += 1;
            }
            assert!(lengths[3] + lengths[4] >= 10, "{choice:?}: {lengths:?}");
        }
    }
}
