//! `hyperplay`: determinized search over the belief. Each move, states
//! consistent with what our role saw are searched by the existing MCTS
//! (the budget split among them): all of them, by weight, when there are
//! at most `samples`; else `samples` drawn by weight. The move with the
//! largest weighted share of the visits over the searches is played.

use super::Belief;
use crate::reasoner::{chance_role, StateMachine};
use crate::search::mcts::{self, SolverMcts};
use crate::search::{Budget, Player, Stats};
use crate::terms::TermId;
use crate::EvalError;

/// States searched per move unless told otherwise.
pub const DEFAULT_SAMPLES: usize = 16;

pub struct Hyperplay<S> {
    /// Each state's search: plain MCTS, a fresh tree per state.
    cfg: mcts::Config,
    /// Searches run so far, which seed the next.
    searches: u64,
    budget: Budget,
    samples: usize,
    seed: u64,
    belief: Option<Belief<S>>,
    stats: Stats,
}

impl<S> Hyperplay<S> {
    /// `cfg`'s budget is the whole move's, split among the samples.
    pub fn new(cfg: mcts::Config, samples: usize, seed: u64) -> Hyperplay<S> {
        Hyperplay {
            budget: cfg.budget,
            cfg,
            searches: 0,
            samples: samples.max(1),
            seed,
            belief: None,
            stats: Stats::default(),
        }
    }

    /// The belief so far (`None` before the first observation or move).
    pub fn belief(&self) -> Option<&Belief<S>> {
        self.belief.as_ref()
    }
}

impl<S: Clone + Eq + std::hash::Hash> Hyperplay<S> {
    fn belief_of<M: StateMachine<State = S>>(
        &mut self,
        m: &mut M,
        role: usize,
    ) -> Result<&mut Belief<S>, EvalError> {
        if self.belief.is_none() {
            self.belief = Some(Belief::new(m, role, self.seed)?);
        }
        Ok(self.belief.as_mut().expect("just set"))
    }

    /// The states to search with their weights (summing to 1): the
    /// belief's; the state given when the game hides nothing, or when the
    /// caller reported no observation although the game has moved on (it
    /// plays with full information).
    fn roots<M: StateMachine<State = S>>(
        &mut self,
        m: &mut M,
        state: &S,
        role: usize,
    ) -> Result<Vec<(S, f64)>, EvalError> {
        let hidden = chance_role(m).is_some() || m.has_percepts();
        let k = self.samples;
        let b = self.belief_of(m, role)?;
        if !hidden || (b.steps() == 0 && !b.states().contains(state)) {
            return Ok(vec![(state.clone(), 1.0)]);
        }
        if b.is_exact() && b.states().len() <= k {
            let total: f64 = b.weights().iter().sum();
            let ws = b.weights().iter().map(|w| w / total);
            return Ok(b.states().iter().cloned().zip(ws).collect());
        }
        let w = 1.0 / k as f64;
        Ok(b.sample(k).into_iter().map(|s| (s, w)).collect())
    }
}

/// `budget` divided among `k` searches (at least 1 ms or 1 playout each).
fn share(budget: Budget, k: usize) -> Budget {
    Budget {
        ms: budget.ms.map(|ms| (ms / k as f64).max(1.0)),
        nodes: budget.nodes.map(|n| (n / k as u64).max(1)),
        depth: budget.depth,
    }
}

impl<M> Player<M> for Hyperplay<M::State>
where
    M: StateMachine + Clone + Send,
    M::State: Send + Sync + 'static,
{
    fn name(&self) -> String {
        let mut parts = vec![format!("{} samples", self.samples)];
        parts.extend(self.budget.limits("playouts").into_iter().take(1));
        format!("hyperplay({})", parts.join(", "))
    }

    fn new_game(&mut self) {
        self.belief = None;
    }

    fn set_time_ms(&mut self, ms: f64) {
        self.budget.ms = Some(ms);
    }

    fn observe(
        &mut self,
        m: &mut M,
        role: usize,
        own: TermId,
        percepts: &[TermId],
    ) -> Result<(), EvalError> {
        self.belief_of(m, role)?.observe(m, own, percepts)
    }

    fn select_move(
        &mut self,
        m: &mut M,
        state: &M::State,
        role: usize,
    ) -> Result<TermId, EvalError> {
        let roots = self.roots(m, state, role)?;
        let cfg = mcts::Config {
            budget: share(self.budget, roots.len()),
            ..self.cfg.clone()
        };
        let mut stats = Stats::default();
        // Per move of ours: its share of each search's visits and its
        // mean reward, weighted by the searched state's weight.
        let mut sums: Vec<(TermId, f64, f64)> = Vec::new();
        for (s, w) in &roots {
            let seed = self.seed.wrapping_add(self.searches);
            self.searches += 1;
            let (rs, st) = SolverMcts::new(cfg.clone(), seed, 1).search_view(m, s, role)?;
            stats.add(&st);
            let all = rs.visits.iter().sum::<u64>().max(1) as f64;
            for (i, &mv) in rs.moves.iter().enumerate() {
                let share = w * rs.visits[i] as f64 / all;
                let mean = w * rs.totals[i] / rs.visits[i].max(1) as f64;
                match sums.iter_mut().find(|e| e.0 == mv) {
                    Some(e) => {
                        e.1 += share;
                        e.2 += mean;
                    }
                    None => sums.push((mv, share, mean)),
                }
            }
        }
        self.stats = stats;
        let best = sums.iter().max_by(|a, b| {
            (a.1, a.2)
                .partial_cmp(&(b.1, b.2))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        match best {
            Some(&(mv, _, _)) => Ok(mv),
            // No search had a move (every sample ended): any legal one.
            None => {
                let s = roots.first().map_or(state, |r| &r.0);
                m.legal_moves(s, role)?
                    .first()
                    .copied()
                    .ok_or_else(|| EvalError::BadMove(format!("role {role} has no legal move")))
            }
        }
    }

    fn last_stats(&self) -> Stats {
        self.stats.clone()
    }
}
