//! Move-average sampling (MAST, Finnsson and Björnsson): playouts that
//! prefer the moves whose earlier playouts ended well for their role,
//! whatever the state. Each move slot keeps how many playouts made it and
//! their summed reward; a playout takes, per role, a uniformly random move
//! with chance `epsilon` and otherwise the best-rated legal move (an
//! untried move rates 1, so it is tried). It needs no game knowledge and
//! is among the largest known gains of general game playing's MCTS.

use super::{random_index, EvalError, Playout, StateMachine};
use crate::terms::TermId;
use rustc_hash::FxHashMap;

/// Epsilon-greedy's usual chance of a random move.
pub const EPSILON: f64 = 0.4;

/// Move statistics shared by every playout of a search (kept between moves).
#[derive(Clone, Debug)]
pub struct Mast {
    /// Chance of a uniformly random move instead of the best-rated one.
    pub epsilon: f64,
    /// Per move slot: playouts that made the move, summed reward of its role.
    arms: Vec<(f64, f64)>,
    /// Slot and role of each move of the running playout.
    trail: Vec<(u32, u32)>,
    /// Machines without their own numbering: a slot per role and move,
    /// and each slot's move.
    slots: FxHashMap<(u32, TermId), u32>,
    moves: Vec<TermId>,
}

impl Default for Mast {
    fn default() -> Mast {
        Mast::new(EPSILON)
    }
}

impl Mast {
    pub fn new(epsilon: f64) -> Mast {
        Mast {
            epsilon,
            arms: Vec::new(),
            trail: Vec::new(),
            slots: FxHashMap::default(),
            moves: Vec::new(),
        }
    }

    /// The average reward of a slot's move; 1 when it was never played.
    #[inline]
    pub fn value(&self, slot: u32) -> f64 {
        match self.arms.get(slot as usize) {
            Some(&(n, t)) if n > 0.0 => t / n,
            _ => 1.0,
        }
    }

    /// Whether this choice is random rather than greedy.
    #[inline]
    pub fn explore(&self, rng: &mut fastrand::Rng) -> bool {
        rng.f64() < self.epsilon
    }

    /// Notes a move of the running playout.
    #[inline]
    pub fn record(&mut self, slot: u32, role: usize) {
        self.trail.push((slot, role as u32));
    }

    /// Role `role`'s move among `moves` (at least one): uniformly random
    /// with chance `epsilon`, else the best-rated (ties at random).
    pub fn choose(&mut self, rng: &mut fastrand::Rng, role: usize, moves: &[TermId]) -> usize {
        let slots: Vec<u32> = moves.iter().map(|&mv| self.slot(role, mv)).collect();
        if moves.len() == 1 || self.explore(rng) {
            random_index(rng, moves.len())
        } else {
            best(rng, slots.iter().map(|&s| self.value(s)).enumerate())
        }
    }

    /// The slot of a role's move, numbered on first sight.
    pub fn slot(&mut self, role: usize, mv: TermId) -> u32 {
        let next = self.slots.len() as u32;
        let slot = *self.slots.entry((role as u32, mv)).or_insert(next);
        if slot == next {
            self.moves.push(mv);
        }
        slot
    }

    /// The move numbered `slot` by [`Mast::slot`].
    pub fn slot_move(&self, slot: u32) -> Option<TermId> {
        self.moves.get(slot as usize).copied()
    }

    /// The (slot, role) of each move the running playout has noted.
    pub fn trail(&self) -> &[(u32, u32)] {
        &self.trail
    }

    /// How many moves the running playout has noted.
    pub fn trail_len(&self) -> usize {
        self.trail.len()
    }

    /// Forgets the running playout's moves after the first `len` (moves
    /// taken back).
    pub fn truncate(&mut self, len: usize) {
        self.trail.truncate(len);
    }

    /// Credits every move of the finished playout with its role's reward.
    pub fn finish(&mut self, rewards: &[f64]) {
        for &(slot, role) in &self.trail {
            let s = slot as usize;
            if s >= self.arms.len() {
                self.arms.resize(s + 1, (0.0, 0.0));
            }
            let a = &mut self.arms[s];
            a.0 += 1.0;
            a.1 += rewards.get(role as usize).copied().unwrap_or(0.0);
        }
        self.trail.clear();
    }

    /// Forgets the statistics (a new game).
    pub fn clear(&mut self) {
        self.arms.clear();
        self.trail.clear();
        self.slots.clear();
        self.moves.clear();
    }
}

/// Of the candidates (index, rating), the best index, ties broken at random.
#[inline]
pub fn best(rng: &mut fastrand::Rng, candidates: impl Iterator<Item = (usize, f64)>) -> usize {
    let (mut pick, mut top, mut ties) = (0, f64::NEG_INFINITY, 0u64);
    for (i, v) in candidates {
        if v > top {
            (pick, top, ties) = (i, v, 1);
        } else if v == top {
            ties += 1;
            if rng.u64(..ties) == 0 {
                pick = i;
            }
        }
    }
    pick
}

/// A MAST playout on any machine (the fast engine plays its own in the
/// network): as [`super::random_playout`], each role's move drawn by
/// `mast`; the moves stay on `mast`'s trail until [`Mast::finish`].
pub fn mast_playout<M: StateMachine>(
    m: &mut M,
    state: &M::State,
    rng: &mut fastrand::Rng,
    max_steps: usize,
    mast: &mut Mast,
) -> Result<Playout<M::State>, EvalError> {
    let mut s = state.clone();
    let roles = m.roles().len();
    let mut joint = Vec::with_capacity(roles);
    for steps in 0..=max_steps {
        if m.is_terminal(&s)? {
            return Ok(Playout {
                state: s,
                steps,
                terminal: true,
            });
        }
        if steps == max_steps {
            break;
        }
        joint.clear();
        for r in 0..roles {
            let moves = m.legal_moves(&s, r)?;
            if moves.is_empty() {
                return Ok(Playout {
                    state: s,
                    steps,
                    terminal: false,
                });
            }
            let i = mast.choose(rng, r, &moves);
            let slot = mast.slot(r, moves[i]);
            mast.record(slot, r);
            joint.push(moves[i]);
        }
        s = m.next_state(&s, &joint)?;
    }
    Ok(Playout {
        state: s,
        steps: max_steps,
        terminal: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewards_are_averaged_per_slot_and_untried_moves_rate_top() {
        let mut m = Mast::new(0.0);
        m.record(2, 0);
        m.record(5, 1);
        m.finish(&[1.0, 0.0]);
        m.record(2, 0);
        m.finish(&[0.0, 1.0]);
        assert_eq!(m.value(2), 0.5);
        assert_eq!(m.value(5), 0.0);
        assert_eq!(m.value(3), 1.0);
        assert_eq!(m.value(99), 1.0);
    }

    #[test]
    fn best_breaks_ties_among_the_top_only() {
        let mut rng = fastrand::Rng::with_seed(3);
        let vals = [0.2, 0.9, 0.1, 0.9];
        let mut seen = [0; 4];
        for _ in 0..400 {
            seen[best(&mut rng, vals.iter().copied().enumerate())] += 1;
        }
        assert_eq!(seen[0] + seen[2], 0);
        assert!(seen[1] > 100 && seen[3] > 100, "{seen:?}");
    }
}
