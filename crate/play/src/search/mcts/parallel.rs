//! Root-parallel MCTS: every worker runs the one-core [`Mcts`] from the same
//! root with its own seed on its own copy of the game; the root statistics
//! are summed ([`merge_roots`]) and one function picks the move
//! ([`decide`]). Workers share nothing while they search, so the speed-up is
//! in playouts per second; the merged tree is not deeper than one worker's.
//! Each worker keeps its random generator across moves, so with one thread
//! the player plays exactly like `mcts` with the same seed.

use super::uct::{decide, merge_roots, Config, Mcts, RootStats};
use crate::reasoner::{EvalError, StateMachine};
use crate::search::parallel::{run_all, worker_seed, Job};
use crate::search::{searched_move, Player, SearchResult, Stats};
use crate::terms::TermId;

pub struct ParallelMcts {
    workers: Vec<Mcts>,
    stats: Stats,
}

impl ParallelMcts {
    /// `threads` workers (at least one); worker `i` is seeded with
    /// [`worker_seed`]`(seed, i)`.
    pub fn new(cfg: Config, seed: u64, threads: usize) -> ParallelMcts {
        ParallelMcts {
            workers: (0..threads.max(1))
                .map(|i| Mcts::new(cfg.clone(), worker_seed(seed, i)))
                .collect(),
            stats: Stats::default(),
        }
    }

    pub fn threads(&self) -> usize {
        self.workers.len()
    }

    /// Every worker's root statistics and counters (in worker order). The
    /// first worker searches on `m`, the others on clones of it (clones
    /// keep the term ids of `m`, so the moves agree).
    pub fn search_roots<M: StateMachine + Clone + Send>(
        &mut self,
        m: &mut M,
        root: &M::State,
        role: usize,
    ) -> Result<Vec<(RootStats, Stats)>, EvalError>
    where
        M::State: Sync,
    {
        let mut forks: Vec<M> = (1..self.workers.len()).map(|_| m.clone()).collect();
        let mut machines: Vec<&mut M> = vec![m];
        machines.extend(forks.iter_mut());
        let jobs: Vec<Job<Result<(RootStats, Stats), EvalError>>> = self
            .workers
            .iter_mut()
            .zip(machines)
            .map(|(w, mm)| Box::new(move || w.search_root(mm, root, role)) as Job<_>)
            .collect();
        run_all(jobs).into_iter().collect()
    }

    /// Searches with every worker and decides on the merged statistics.
    pub fn search<M: StateMachine + Clone + Send>(
        &mut self,
        m: &mut M,
        root: &M::State,
        role: usize,
    ) -> Result<SearchResult, EvalError>
    where
        M::State: Sync,
    {
        let parts = self.search_roots(m, root, role)?;
        let mut stats = Stats::default();
        for (_, s) in &parts {
            stats.add(s);
        }
        // Wall time, not the sum of the workers' times.
        stats.elapsed_ms = parts.iter().map(|(_, s)| s.elapsed_ms).fold(0.0, f64::max);
        let roots: Vec<RootStats> = parts.into_iter().map(|(r, _)| r).collect();
        let merged = merge_roots(&roots).map_err(|e| EvalError::BadMove(e.to_string()))?;
        decide(m, root, role, &merged, stats)
    }
}

impl<M: StateMachine + Clone + Send> Player<M> for ParallelMcts
where
    M::State: Sync,
{
    fn name(&self) -> String {
        let one: &dyn Player<M> = &self.workers[0];
        crate::search::parallel::threaded_name(&one.name(), self.threads())
    }
    fn select_move(
        &mut self,
        m: &mut M,
        state: &M::State,
        role: usize,
    ) -> Result<TermId, EvalError> {
        searched_move(self.search(m, state, role)?, &mut self.stats, role)
    }
    fn set_time_ms(&mut self, ms: f64) {
        for w in &mut self.workers {
            Player::<M>::set_time_ms(w, ms);
        }
    }
    fn last_stats(&self) -> Stats {
        self.stats.clone()
    }
}
