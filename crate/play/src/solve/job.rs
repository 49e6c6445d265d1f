//! The resumable solve: the packed solver where the game allows, else the
//! graph solver, stepped by [`SolveJob::step`] and its [`Progress`].

use super::{check_roles, graph, packed, Limits, Refusal, Solution};
use crate::engine::Engine;
use serde::Serialize;

/// Where a solve is; cheap to produce after every step.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "SolveProgress")
)]
pub struct Progress {
    /// Distinct states found so far.
    pub states: u64,
    /// States expanded.
    pub expanded: u64,
    pub edges: u64,
    /// States given their value so far (the packed solver's backward
    /// pass; the graph solver values all at once when it finishes).
    pub valued: u64,
    /// Nothing left to step: `finish` gives the solution.
    pub done: bool,
}

/// A resumable solve (natively [`solve`](super::solve) runs one; the wasm worker steps
/// it to report progress and stop on cancellation): the packed solver
/// where the game allows, else the graph solver.
pub struct SolveJob {
    pub(super) inner: Inner,
}

pub(super) enum Inner {
    Packed(Box<packed::PackedJob>),
    Graph(Box<graph::GraphJob>),
}

impl SolveJob {
    /// A job on `engine`; refuses games with more than two roles.
    pub fn new(engine: Engine, limits: Limits) -> Result<SolveJob, Refusal> {
        check_roles(&engine)?;
        let started = crate::clock::now_ms();
        let inner = match packed::PackedJob::new(&engine, limits.clone(), started) {
            Some(job) => Inner::Packed(Box::new(job)),
            None => Inner::Graph(Box::new(graph::GraphJob::new(engine, limits, started)?)),
        };
        Ok(SolveJob { inner })
    }

    /// The engine the job runs on.
    pub fn engine(&self) -> &Engine {
        match &self.inner {
            Inner::Packed(job) => job.engine(),
            Inner::Graph(job) => job.engine(),
        }
    }

    /// Does about `budget` states' work and reports where the solve is.
    pub fn step(&mut self, budget: usize) -> Progress {
        let Inner::Packed(job) = &mut self.inner else {
            let Inner::Graph(job) = &mut self.inner else {
                unreachable!()
            };
            return job.step(budget);
        };
        match job.step(budget) {
            packed::Step::Progress(p) => p,
            packed::Step::NotLayered => {
                // The graph solver from the start, within the same limits.
                let (limits, started) = job.limits();
                match graph::GraphJob::new(job.engine().clone(), limits, started) {
                    Ok(g) => {
                        self.inner = Inner::Graph(Box::new(g));
                        self.step(budget)
                    }
                    Err(r) => {
                        job.refuse(r);
                        job.progress()
                    }
                }
            }
        }
    }

    /// Ends the exploration now; what was explored is still valued.
    pub fn stop(&mut self) {
        match &mut self.inner {
            Inner::Packed(job) => job.stop(),
            Inner::Graph(job) => job.stop(),
        }
    }

    pub fn progress(&self) -> Progress {
        match &self.inner {
            Inner::Packed(job) => job.progress(),
            Inner::Graph(job) => job.progress(),
        }
    }

    /// The solution (partial when the exploration stopped early), or why
    /// the game is refused.
    pub fn finish(self) -> Result<Solution, Refusal> {
        match self.inner {
            Inner::Packed(job) => job.finish(),
            Inner::Graph(job) => job.finish(),
        }
    }
}
