//! The states a role cannot tell apart from the true one: every state
//! reachable by a history whose moves for the role are the ones it made
//! and whose percepts for the role are the ones it received.
//!
//! Each state has a weight: the chance of the histories reaching it when
//! every other role (`random` included) picks uniformly among its legal
//! moves, as HyperPlay weighs its hypotheses. In Monty Hall this is what
//! makes the unopened other door twice as likely as the chosen one.

use crate::reasoner::{random_index, StateMachine};
use crate::terms::TermId;
use crate::EvalError;
use rustc_hash::FxHashMap;

/// States kept exactly while there are at most this many.
pub const EXACT_LIMIT: usize = 2000;
/// States kept (sampled) once there are more.
pub const PARTICLES: usize = 200;
/// Joint moves tried from one state in one step (others are skipped).
const JOINTS_PER_STATE: usize = 20_000;

/// One role's belief: the states consistent with its observations.
pub struct Belief<S> {
    role: usize,
    init: S,
    states: Vec<S>,
    /// Per state: the chance of the histories reaching it (not normalised).
    weights: Vec<f64>,
    /// Every consistent state is held (else: a sample of them).
    exact: bool,
    /// Per step: our move and our percepts (sorted by id).
    history: Vec<(TermId, Vec<TermId>)>,
    rng: fastrand::Rng,
}

impl<S: Clone + Eq + std::hash::Hash> Belief<S> {
    /// The belief at the start: the initial state, known to every role.
    pub fn new<M: StateMachine<State = S>>(
        m: &mut M,
        role: usize,
        seed: u64,
    ) -> Result<Self, EvalError> {
        let init = m.initial_state()?;
        Ok(Belief {
            role,
            states: vec![init.clone()],
            weights: vec![1.0],
            init,
            exact: true,
            history: Vec::new(),
            rng: fastrand::Rng::with_seed(seed),
        })
    }

    /// The consistent states held (all of them when [`Belief::is_exact`]).
    pub fn states(&self) -> &[S] {
        &self.states
    }

    /// Per state of [`Belief::states`]: its weight (not normalised).
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }

    /// Whether every consistent state is held, not a sample.
    pub fn is_exact(&self) -> bool {
        self.exact
    }

    /// Steps observed so far.
    pub fn steps(&self) -> usize {
        self.history.len()
    }

    /// `k` states drawn by weight, with replacement.
    pub fn sample(&mut self, k: usize) -> Vec<S> {
        let total: f64 = self.weights.iter().sum();
        (0..k)
            .map(|_| {
                let mut x = self.rng.f64() * total;
                let mut i = 0;
                while i + 1 < self.weights.len() && x >= self.weights[i] {
                    x -= self.weights[i];
                    i += 1;
                }
                self.states[i].clone()
            })
            .collect()
    }

    /// Advances by one step in which our role played `own` and perceived
    /// `percepts`. An error when no state is consistent any more (an
    /// observation that the rules cannot produce).
    pub fn observe<M: StateMachine<State = S>>(
        &mut self,
        m: &mut M,
        own: TermId,
        percepts: &[TermId],
    ) -> Result<(), EvalError> {
        let mut want = percepts.to_vec();
        want.sort_unstable();
        self.history.push((own, want));
        let step = self.history.len() - 1;
        let mut next: Vec<(S, f64)> = Vec::new();
        let mut index: FxHashMap<S, usize> = FxHashMap::default();
        for (s, &w) in self.states.iter().zip(&self.weights) {
            for (t, p) in self.successors(m, s, step)? {
                match index.get(&t) {
                    Some(&i) => next[i].1 += w * p,
                    None => {
                        index.insert(t.clone(), next.len());
                        next.push((t, w * p));
                    }
                }
            }
        }
        if next.len() > EXACT_LIMIT {
            self.exact = false;
        }
        if !self.exact && next.len() > PARTICLES {
            self.rng.shuffle(&mut next);
            next.truncate(PARTICLES);
        }
        if next.is_empty() && !self.exact {
            next = self.resample(m)?;
        }
        if next.is_empty() {
            return Err(EvalError::BadMove(format!(
                "no state is consistent with the move and percepts of step {}",
                step + 1
            )));
        }
        (self.states, self.weights) = next.into_iter().unzip();
        Ok(())
    }

    /// The states after `s` by the joint moves consistent with step
    /// `step` of the history, each with the chance of its joint move when
    /// the other roles pick uniformly.
    fn successors<M: StateMachine<State = S>>(
        &self,
        m: &mut M,
        s: &S,
        step: usize,
    ) -> Result<Vec<(S, f64)>, EvalError> {
        let (own, want) = &self.history[step];
        let mut legal = m.all_legal_moves(s)?;
        if !legal[self.role].contains(own) || legal.iter().any(Vec::is_empty) {
            return Ok(Vec::new());
        }
        legal[self.role] = vec![*own];
        let p = 1.0 / legal.iter().map(|l| l.len() as f64).product::<f64>();
        let mut out = Vec::new();
        let mut counter = vec![0usize; legal.len()];
        for _ in 0..JOINTS_PER_STATE {
            let joint: Vec<TermId> = counter.iter().zip(&legal).map(|(&i, l)| l[i]).collect();
            let mut seen = m.percepts(s, &joint)?.swap_remove(self.role);
            seen.sort_unstable();
            if &seen == want {
                out.push((m.next_state(s, &joint)?, p));
            }
            // The next joint move (odometer order); done after the last.
            let mut r = 0;
            while r < legal.len() {
                counter[r] += 1;
                if counter[r] < legal[r].len() {
                    break;
                }
                counter[r] = 0;
                r += 1;
            }
            if r == legal.len() {
                break;
            }
        }
        Ok(out)
    }

    /// When every sampled state was refuted: states drawn again by random
    /// consistent histories from the start (a few tries per particle).
    /// Each drawn once more adds to its weight.
    fn resample<M: StateMachine<State = S>>(
        &mut self,
        m: &mut M,
    ) -> Result<Vec<(S, f64)>, EvalError> {
        let mut out: Vec<(S, f64)> = Vec::new();
        let mut index: FxHashMap<S, usize> = FxHashMap::default();
        for _ in 0..PARTICLES * 4 {
            if out.len() >= PARTICLES {
                break;
            }
            if let Some(s) = self.random_history(m)? {
                match index.get(&s) {
                    Some(&i) => out[i].1 += 1.0,
                    None => {
                        index.insert(s.clone(), out.len());
                        out.push((s, 1.0));
                    }
                }
            }
        }
        Ok(out)
    }

    /// The last state of one random history consistent with every step,
    /// or `None` when the walk reaches a dead end.
    fn random_history<M: StateMachine<State = S>>(
        &mut self,
        m: &mut M,
    ) -> Result<Option<S>, EvalError> {
        let mut s = self.init.clone();
        for step in 0..self.history.len() {
            let next = self.successors(m, &s, step)?;
            if next.is_empty() {
                return Ok(None);
            }
            s = next[random_index(&mut self.rng, next.len())].0.clone();
        }
        Ok(Some(s))
    }
}
