//! Parallel alpha-beta by *lazy SMP*: every worker runs the one-core
//! [`AlphaBeta`] (iterative deepening) from the same root on its own copy
//! of the game, and they differ only in where they start: helper `i`
//! begins one depth deeper when `i` is odd and tries the root moves rotated
//! by `i` ([`Config::helper`]). Natively the workers share one
//! transposition table (`search::table`), so what one worker learns (values,
//! cut-offs, best moves for ordering) the others reuse; that is where the
//! speed-up comes from. In the page and in Node (workers, message passing,
//! no `SharedArrayBuffer`) each worker has its own table, and only the
//! diversity of start depth and root order remains.
//!
//! **The combination rule** ([`choose`], one function for threads and for
//! workers): a *proven* result (a root value no estimate influenced) is
//! followed, the highest proven value among several; otherwise the result
//! of the deepest completed iteration, then the higher value, then the
//! lower worker number. With one thread the player is the one-core player.

use super::alphabeta::{AlphaBeta, Config, Shared};
use super::parallel::{run_all, Job};
use super::table::SharedTable;
use super::{Heuristic, Player, SearchResult, Stats};
use crate::reasoner::{EvalError, StateMachine};
use crate::terms::{copy_term, TermId};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A heuristic a worker thread can own (every heuristic is `Send`).
pub type SendHeuristic<M> = Box<dyn Heuristic<M>>;

/// What the combination rule reads of one worker's search (`T`: the move,
/// a term natively, its text between workers).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(concrete(T = String), rename = "AlphaBetaResult")
)]
pub struct WorkerResult<T> {
    /// The worker's move (`None` only when the role has none).
    #[serde(rename = "move")]
    pub best_move: Option<T>,
    pub value: f64,
    /// No estimate influenced the value (a proven result).
    pub solved: bool,
    /// The deepest completed iteration (0: the first was cut short).
    pub depth: u32,
}

impl WorkerResult<TermId> {
    pub fn of(r: &SearchResult) -> Self {
        WorkerResult {
            best_move: r.best_move,
            value: r.value,
            solved: r.solved,
            depth: r.stats.depth,
        }
    }
}

/// The combination rule (module docs): the index of the worker whose move
/// is played, `None` when no worker has a move.
pub fn choose<T>(results: &[WorkerResult<T>]) -> Option<usize> {
    let key = |i: usize| {
        let r = &results[i];
        // Proven first; among proven the value decides, else the depth.
        let depth = if r.solved { u32::MAX } else { r.depth };
        (r.solved, depth, r.value)
    };
    (0..results.len())
        .filter(|&i| results[i].best_move.is_some())
        .max_by(|&a, &b| {
            let (ka, kb) = (key(a), key(b));
            ka.0.cmp(&kb.0)
                .then(ka.1.cmp(&kb.1))
                .then(ka.2.total_cmp(&kb.2))
                // The lower worker number wins a tie.
                .then(b.cmp(&a))
        })
}

pub struct ParallelAlphaBeta<M: StateMachine> {
    workers: Vec<AlphaBeta<M, SendHeuristic<M>>>,
    table: Option<Shared>,
    stats: Stats,
}

impl<M: StateMachine> ParallelAlphaBeta<M> {
    /// One worker per heuristic (at least one; give each worker its own
    /// instance of the same heuristic); worker `i` is helper `i`. With more
    /// than one worker, `cfg.tt` and `share`, they share one table; without
    /// `share` each keeps its own, as the workers in Node and the page do.
    pub fn new(heuristics: Vec<SendHeuristic<M>>, cfg: Config, share: bool) -> Self {
        assert!(!heuristics.is_empty(), "parallel alpha-beta needs a worker");
        let shared = heuristics.len() > 1 && cfg.tt && share;
        let table: Option<Shared> = shared.then(|| Arc::new(SharedTable::new(cfg.tt_capacity)));
        let workers = heuristics
            .into_iter()
            .enumerate()
            .map(|(i, h)| {
                let mut w = AlphaBeta::new(
                    h,
                    Config {
                        helper: i,
                        ..cfg.clone()
                    },
                );
                if let Some(t) = &table {
                    w.share_table(t.clone());
                }
                w
            })
            .collect();
        ParallelAlphaBeta {
            workers,
            table,
            stats: Stats::default(),
        }
    }

    pub fn threads(&self) -> usize {
        self.workers.len()
    }

    /// Every worker's search of `root` for `role`, in worker order. The
    /// first worker searches on `m`, the others on fresh clones of it. A
    /// clone interns the terms it meets in its own order, so ids can differ
    /// between copies: the table is keyed by content
    /// ([`StateMachine::state_key`]), each helper forgets what its heuristic
    /// cached by id on its last copy, and the helpers' moves are
    /// translated into `m`'s terms.
    pub fn search_all(
        &mut self,
        m: &mut M,
        root: &M::State,
        role: usize,
    ) -> Result<Vec<SearchResult>, EvalError>
    where
        M: Clone + Send,
        M::State: Send + Sync,
    {
        if let Some(t) = &self.table {
            // Cleared here, before the workers start, when the last
            // search's entries do not hold for this one.
            if !self.workers[0].keeps_table(m, root, role)? {
                t.clear();
            }
        }
        let mut forks: Vec<M> = (1..self.workers.len()).map(|_| m.clone()).collect();
        let mut machines: Vec<&mut M> = vec![m];
        machines.extend(forks.iter_mut());
        for w in self.workers.iter_mut().skip(1) {
            w.forget_terms();
        }
        let jobs: Vec<Job<Result<SearchResult, EvalError>>> = self
            .workers
            .iter_mut()
            .zip(machines)
            .map(|(w, mm)| Box::new(move || w.search(mm, root, role, None)) as Job<_>)
            .collect();
        let mut results = run_all(jobs).into_iter().collect::<Result<Vec<_>, _>>()?;
        for (r, fork) in results.iter_mut().skip(1).zip(&forks) {
            r.best_move = r
                .best_move
                .map(|mv| copy_term(fork.terms(), mv, m.terms_mut()));
        }
        Ok(results)
    }

    /// Searches with every worker and plays by [`choose`]; the counters
    /// are the workers' sums, the time is the wall time.
    pub fn search(
        &mut self,
        m: &mut M,
        root: &M::State,
        role: usize,
    ) -> Result<SearchResult, EvalError>
    where
        M: Clone + Send,
        M::State: Send + Sync,
    {
        let results = self.search_all(m, root, role)?;
        Ok(decide(results))
    }
}

/// The workers' results combined: the chosen worker's result (by
/// [`choose`]) with the counters summed over every worker and the wall time
/// (the longest worker's). `results` must not be empty.
pub fn decide(mut results: Vec<SearchResult>) -> SearchResult {
    let mut stats = Stats::default();
    for r in &results {
        stats.add(&r.stats);
    }
    stats.elapsed_ms = results
        .iter()
        .map(|r| r.stats.elapsed_ms)
        .fold(0.0, f64::max);
    let reports: Vec<_> = results.iter().map(WorkerResult::of).collect();
    let i = choose(&reports).unwrap_or(0);
    let mut best = results.swap_remove(i);
    best.stats = stats;
    best.iterations.clear();
    best
}

impl<M: StateMachine + Clone + Send> Player<M> for ParallelAlphaBeta<M>
where
    M::State: Send + Sync,
{
    fn name(&self) -> String {
        super::parallel::threaded_name(&self.workers[0].name(), self.threads())
    }
    fn select_move(
        &mut self,
        m: &mut M,
        state: &M::State,
        role: usize,
    ) -> Result<TermId, EvalError> {
        super::searched_move(self.search(m, state, role)?, &mut self.stats, role)
    }
    fn set_time_ms(&mut self, ms: f64) {
        for w in &mut self.workers {
            w.set_time_ms(ms);
        }
    }
    fn last_stats(&self) -> Stats {
        self.stats.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(mv: u32, value: f64, solved: bool, depth: u32) -> WorkerResult<u32> {
        WorkerResult {
            best_move: Some(mv),
            value,
            solved,
            depth,
        }
    }

    #[test]
    fn a_proven_result_is_followed() {
        // A proven loss beats a deeper estimate: the estimate is wrong.
        let rs = [r(1, 80.0, false, 9), r(2, 0.0, true, 3)];
        assert_eq!(choose(&rs), Some(1));
        // Among proven results the highest value.
        let rs = [
            r(1, 0.0, true, 5),
            r(2, 100.0, true, 2),
            r(3, 60.0, false, 9),
        ];
        assert_eq!(choose(&rs), Some(1));
    }

    #[test]
    fn otherwise_the_deepest_then_the_value_then_the_first() {
        let rs = [r(1, 90.0, false, 4), r(2, 40.0, false, 5)];
        assert_eq!(choose(&rs), Some(1));
        let rs = [r(1, 40.0, false, 5), r(2, 60.0, false, 5)];
        assert_eq!(choose(&rs), Some(1));
        let rs = [r(1, 60.0, false, 5), r(2, 60.0, false, 5)];
        assert_eq!(choose(&rs), Some(0));
        let none: [WorkerResult<u32>; 1] = [WorkerResult {
            best_move: None,
            value: 0.0,
            solved: true,
            depth: 1,
        }];
        assert_eq!(choose(&none), None);
        assert_eq!(choose::<u32>(&[]), None);
    }
}
