//! Move statistics shared by every playout of a search, whatever the
//! state, in one of two rules:
//!
//! - **MAST** (move-average sampling, Finnsson and Björnsson): each move
//!   slot keeps how many playouts made it and their summed reward; a
//!   playout takes, per role, a uniformly random move with chance
//!   `epsilon` and otherwise the best-rated legal move (an untried move
//!   rates 1, so it is tried). It needs no game knowledge and is among the
//!   largest known gains of general game playing's MCTS.
//! - **PPA** (playout policy adaptation, Cazenave): each slot keeps a
//!   weight, and a playout draws each role's move with the softmax of its
//!   legal moves' weights. After a playout with a winner (the roles with
//!   the top reward, where not every role has it), each of the winners'
//!   moves gains `alpha` and the alternatives it had lose `alpha` times
//!   their probability, so the policy learns to play as the winners did.

use super::{random_index, EvalError, Playout, StateMachine};
use crate::terms::TermId;
use rustc_hash::FxHashMap;

/// Epsilon-greedy's usual chance of a random move.
pub const EPSILON: f64 = 0.4;

/// PPA's learning rate: Cazenave's choice for two-player board games.
pub const ALPHA: f64 = 0.32;

/// The largest magnitude of a PPA weight, so its exponential stays finite
/// and a long game cannot make one move certain.
const MAX_WEIGHT: f64 = 30.0;

/// How a playout draws its moves from the statistics.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rule {
    /// MAST: a uniformly random move with this chance, else the best-rated.
    Greedy(f64),
    /// PPA: the softmax of the weights, learnt with this rate.
    Adapt(f64),
}

/// One move of the running playout: its slot, its role, and (PPA) where
/// the slots of its role's alternatives end in `Mast::among`.
#[derive(Clone, Copy, Debug)]
struct Step {
    slot: u32,
    role: u32,
    end: u32,
}

/// Move statistics shared by every playout of a search (kept between moves).
#[derive(Clone, Debug)]
pub struct Mast {
    pub rule: Rule,
    /// Per move slot: playouts that made the move, summed reward of its role.
    arms: Vec<(f64, f64)>,
    /// PPA: per move slot, its weight and the weight's exponential.
    weights: Vec<(f64, f64)>,
    /// The running playout's moves, and (PPA) the legal slots each was
    /// chosen among, one list after another.
    trail: Vec<Step>,
    among: Vec<u32>,
    /// PPA's changes (slot, amount) while a playout is credited.
    changes: Vec<(u32, f64)>,
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
    /// MAST with this chance of a random move.
    pub fn new(epsilon: f64) -> Mast {
        Mast::with_rule(Rule::Greedy(epsilon))
    }

    pub fn with_rule(rule: Rule) -> Mast {
        Mast {
            rule,
            arms: Vec::new(),
            weights: Vec::new(),
            trail: Vec::new(),
            among: Vec::new(),
            changes: Vec::new(),
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

    /// PPA: the exponential of a slot's weight (1 when never adapted).
    #[inline]
    pub fn odds(&self, slot: u32) -> f64 {
        self.weights.get(slot as usize).map_or(1.0, |w| w.1)
    }

    /// PPA: a slot's weight.
    pub fn weight(&self, slot: u32) -> f64 {
        self.weights.get(slot as usize).map_or(0.0, |w| w.0)
    }

    /// Whether the playouts note the alternatives of each move (PPA).
    #[inline]
    pub fn adapts(&self) -> bool {
        matches!(self.rule, Rule::Adapt(_))
    }

    /// Of the candidates (position, slot), at least two, the position of
    /// the move drawn; `None` where the rule draws uniformly this time
    /// (MAST's random moves), which the caller does faster.
    #[inline]
    pub fn pick(
        &self,
        rng: &mut fastrand::Rng,
        candidates: impl Iterator<Item = (usize, u32)> + Clone,
    ) -> Option<usize> {
        match self.rule {
            Rule::Greedy(epsilon) if rng.f64() < epsilon => None,
            Rule::Greedy(_) => Some(best(rng, candidates.map(|(p, s)| (p, self.value(s))))),
            Rule::Adapt(_) => Some(self.sample(rng, candidates)),
        }
    }

    /// A candidate drawn with the softmax of the weights.
    fn sample(
        &self,
        rng: &mut fastrand::Rng,
        candidates: impl Iterator<Item = (usize, u32)> + Clone,
    ) -> usize {
        let total: f64 = candidates.clone().map(|(_, s)| self.odds(s)).sum();
        let mut x = rng.f64() * total;
        let mut last = 0;
        for (p, s) in candidates {
            x -= self.odds(s);
            if x < 0.0 {
                return p;
            }
            last = p;
        }
        last
    }

    /// Role `role`'s move among `moves` (at least one), by the rule.
    pub fn choose(&mut self, rng: &mut fastrand::Rng, role: usize, moves: &[TermId]) -> usize {
        let slots: Vec<u32> = moves.iter().map(|&mv| self.slot(role, mv)).collect();
        if moves.len() == 1 {
            return 0;
        }
        self.pick(rng, slots.iter().copied().enumerate())
            .unwrap_or_else(|| random_index(rng, moves.len()))
    }

    /// Notes a move of the running playout.
    #[inline]
    pub fn record(&mut self, slot: u32, role: usize) {
        self.record_among(slot, role, std::iter::empty());
    }

    /// Notes a move of the running playout made among the legal slots
    /// `among` (kept only by PPA, which credits the alternatives too; a
    /// move noted without them was its role's only one).
    #[inline]
    pub fn record_among(&mut self, slot: u32, role: usize, among: impl IntoIterator<Item = u32>) {
        if self.adapts() {
            self.among.extend(among);
        }
        let end = self.among.len() as u32;
        self.trail.push(Step {
            slot,
            role: role as u32,
            end,
        });
    }

    /// Notes role `role`'s move `moves[i]` (machines without their own
    /// numbering), with its alternatives under PPA.
    pub fn note(&mut self, role: usize, moves: &[TermId], i: usize) {
        let slot = self.slot(role, moves[i]);
        if self.adapts() && moves.len() > 1 {
            let among: Vec<u32> = moves.iter().map(|&mv| self.slot(role, mv)).collect();
            self.record_among(slot, role, among);
        } else {
            self.record(slot, role);
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
    pub fn trail(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.trail.iter().map(|s| (s.slot, s.role))
    }

    /// The legal slots the running playout's `i`-th noted move was chosen
    /// among (PPA; empty where its role had one move).
    pub fn among(&self, i: usize) -> &[u32] {
        &self.among[self.span(i)]
    }

    /// Where the `i`-th noted move's alternatives lie in `among`.
    fn span(&self, i: usize) -> std::ops::Range<usize> {
        let from = if i == 0 { 0 } else { self.trail[i - 1].end };
        from as usize..self.trail[i].end as usize
    }

    /// How many moves the running playout has noted.
    pub fn trail_len(&self) -> usize {
        self.trail.len()
    }

    /// Forgets the running playout's moves after the first `len` (moves
    /// taken back).
    pub fn truncate(&mut self, len: usize) {
        self.trail.truncate(len);
        self.among
            .truncate(self.trail.last().map_or(0, |s| s.end as usize));
    }

    /// Credits the finished playout's moves by its rewards, and starts the
    /// next playout's trail.
    pub fn finish(&mut self, rewards: &[f64]) {
        match self.rule {
            Rule::Greedy(_) => self.average(rewards),
            Rule::Adapt(alpha) => self.adapt(rewards, alpha),
        }
        self.trail.clear();
        self.among.clear();
    }

    /// MAST: every move's slot counts the playout with its role's reward.
    fn average(&mut self, rewards: &[f64]) {
        for step in &self.trail {
            let s = step.slot as usize;
            if s >= self.arms.len() {
                self.arms.resize(s + 1, (0.0, 0.0));
            }
            let a = &mut self.arms[s];
            a.0 += 1.0;
            a.1 += rewards.get(step.role as usize).copied().unwrap_or(0.0);
        }
    }

    /// PPA: the winners' moves gain `alpha`, each alternative loses
    /// `alpha` times its probability under the weights before this
    /// playout (so the changes at a step sum to zero).
    fn adapt(&mut self, rewards: &[f64], alpha: f64) {
        let reward = |role: u32| rewards.get(role as usize).copied().unwrap_or(0.0);
        let top = rewards.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let low = rewards.iter().copied().fold(f64::INFINITY, f64::min);
        if top <= low {
            return;
        }
        // Reused between playouts, so crediting one allocates nothing.
        let mut changes = std::mem::take(&mut self.changes);
        for i in 0..self.trail.len() {
            let (step, span) = (self.trail[i], self.span(i));
            if span.is_empty() || reward(step.role) < top {
                continue;
            }
            let among = &self.among[span];
            let z: f64 = among.iter().map(|&s| self.odds(s)).sum();
            changes.push((step.slot, alpha));
            changes.extend(among.iter().map(|&s| (s, -alpha * self.odds(s) / z)));
        }
        // Applied once all are known, so each used the weights before.
        for &(s, by) in &changes {
            let s = s as usize;
            if s >= self.weights.len() {
                self.weights.resize(s + 1, (0.0, 1.0));
            }
            self.weights[s].0 += by;
        }
        for &(s, _) in &changes {
            let w = &mut self.weights[s as usize];
            let clamped = w.0.clamp(-MAX_WEIGHT, MAX_WEIGHT);
            *w = (clamped, clamped.exp());
        }
        changes.clear();
        self.changes = changes;
    }

    /// Forgets the statistics (a new game).
    pub fn clear(&mut self) {
        self.arms.clear();
        self.weights.clear();
        self.trail.clear();
        self.among.clear();
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
    let choose = |rng: &mut fastrand::Rng, r: usize, moves: &[TermId]| {
        let i = mast.choose(rng, r, moves);
        mast.note(r, moves, i);
        i
    };
    super::walk(m, state, rng, max_steps, choose, |_, _, _, _| Ok(true))
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

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn ppa_raises_the_winners_moves_against_their_alternatives() {
        let mut m = Mast::with_rule(Rule::Adapt(0.5));
        m.record_among(1, 0, [1, 2, 3]);
        m.record_among(5, 1, [4, 5]);
        m.record(7, 0);
        m.record_among(2, 0, [2, 3]);
        m.finish(&[1.0, 0.0]);
        // Before it every weight was 0: the first step's three moves were
        // equally likely, the last step's two.
        let third = 0.5 / 3.0;
        assert!(close(m.weight(1), 0.5 - third), "{}", m.weight(1));
        assert!(close(m.weight(2), -third + 0.5 - 0.25));
        assert!(close(m.weight(3), -third - 0.25));
        let sum: f64 = (1..=3).map(|s| m.weight(s)).sum();
        assert!(close(sum, 0.0), "the changes of a step sum to zero");
        // The loser's moves, and a move without alternatives, keep theirs.
        for s in [4, 5, 7] {
            assert_eq!(m.weight(s), 0.0);
        }
        assert!(close(m.odds(1), m.weight(1).exp()));
        // A draw teaches nothing.
        m.record_among(3, 0, [1, 2, 3]);
        let before: Vec<f64> = (1..=3).map(|s| m.weight(s)).collect();
        m.finish(&[0.5, 0.5]);
        assert_eq!(before, (1..=3).map(|s| m.weight(s)).collect::<Vec<_>>());
        // The second step's changes use the weights before the playout:
        // a move chosen twice gains twice the same.
        let mut twice = Mast::with_rule(Rule::Adapt(0.5));
        twice.record_among(1, 0, [1, 2]);
        twice.record_among(1, 0, [1, 2]);
        twice.finish(&[1.0, 0.0]);
        assert!(close(twice.weight(1), 0.5));
        assert_eq!(twice.trail_len(), 0);
    }

    #[test]
    fn ppa_draws_by_the_softmax_of_the_weights() {
        let mut m = Mast::with_rule(Rule::Adapt(1.0));
        for _ in 0..3 {
            m.record_among(0, 0, [0, 1]);
            m.finish(&[1.0, 0.0]);
        }
        let p0 = m.odds(0) / (m.odds(0) + m.odds(1));
        assert!(p0 > 0.8, "{p0}");
        let mut rng = fastrand::Rng::with_seed(9);
        let n = 20_000;
        let zeros = (0..n)
            .filter(|_| m.pick(&mut rng, [(0, 0), (1, 1)].into_iter()) == Some(0))
            .count();
        let seen = zeros as f64 / n as f64;
        // Four standard deviations of the binomial at most.
        let sd = (p0 * (1.0 - p0) / n as f64).sqrt();
        assert!((seen - p0).abs() < 4.0 * sd, "{seen} against {p0}");
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
