//! Sampled mode: random playouts with a depth limit, one step per call, after
//! the breadth-first exploration ran out of budget.

use super::graph::{goal_cell, MANY_GOALS, NO_GOAL};
use super::{cycle_text, sorted_legal, AnalysisJob, Finding};
use crate::reasoner::{EvalError, StateMachine};
use crate::terms::TermId;
use rustc_hash::{FxHashMap, FxHashSet};

/// A playout in progress.
pub(super) struct Walk<S> {
    state: S,
    /// States on the path → index (move count when reached).
    on_path: FxHashMap<S, usize>,
    moves: Vec<Vec<TermId>>,
    prev_goals: Vec<i64>,
}

#[derive(Default)]
pub(super) struct Sampling<S> {
    pub(super) playouts: u64,
    pub(super) terminal_ends: u64,
    pub(super) cut: u64,
    /// States seen by playouts that the exploration did not find.
    pub(super) seen: FxHashSet<S>,
    pub(super) seen_terminal: FxHashSet<S>,
    /// Terminal states found by playouts among the exploration's frontier.
    pub(super) max_len: u64,
    pub(super) walk: Option<Walk<S>>,
}

impl<S> Sampling<S> {
    /// No playout yet.
    pub(super) fn new() -> Sampling<S> {
        Sampling {
            playouts: 0,
            terminal_ends: 0,
            cut: 0,
            seen: FxHashSet::default(),
            seen_terminal: FxHashSet::default(),
            max_len: 0,
            walk: None,
        }
    }
}

/// The joint moves of the current walk, as a counterexample.
fn walk_moves<M: StateMachine>(job: &mut AnalysisJob<M>) -> Result<Vec<Vec<String>>, EvalError> {
    let walk = job.sampling.walk.as_ref().expect("walk");
    Ok(walk.moves.iter().map(|j| job.show_joint(j)).collect())
}

impl<M: StateMachine> AnalysisJob<M> {
    /// One step of the current random walk. Not `reasoner::random_walk`:
    /// the job is resumable, one step per call (its walk lives in
    /// `self.sampling.walk`), and draws from sorted legal moves so that the
    /// findings do not depend on the engine's move order.
    pub(super) fn sample_one(&mut self) -> Result<(), EvalError> {
        if self.sampling.playouts >= self.opts.playouts as u64 {
            self.finish();
            return Ok(());
        }
        if self.sampling.walk.is_none() {
            self.start_walk()?;
        }
        self.work += 1;
        let walk = self.sampling.walk.as_ref().expect("walk");
        let s = walk.state.clone();
        let depth = walk.moves.len();
        let terminal = self.m.is_terminal(&s)?;
        let values = self.m.goal_values(&s)?;
        let fresh = self.count_sampled(&s, terminal);
        self.sampling.max_len = self.sampling.max_len.max(depth as u64);
        let mut moves = walk_moves::<M>;
        self.note_goals(terminal, fresh, &values, depth, &mut moves)?;
        let cells: Vec<i64> = values.iter().map(|v| goal_cell(v)).collect();
        self.note_walk_drop(&cells)?;
        self.sampling.walk.as_mut().expect("walk").prev_goals = cells;
        if terminal {
            self.sampling.terminal_ends += 1;
            self.end_walk();
            return Ok(());
        }
        if depth >= self.opts.playout_depth {
            self.sampling.cut += 1;
            self.end_walk();
            return Ok(());
        }
        let legal = sorted_legal(&mut self.m, &s)?;
        if let Some(r) = legal.iter().position(Vec::is_empty) {
            self.note_unplayable(r, depth, &mut moves)?;
            self.end_walk();
            return Ok(());
        }
        self.advance_walk(&s, &legal)
    }

    /// A new walk from the initial state.
    fn start_walk(&mut self) -> Result<(), EvalError> {
        let s0 = self.m.initial_state()?;
        let mut on_path = FxHashMap::default();
        on_path.insert(s0.clone(), 0);
        self.sampling.walk = Some(Walk {
            state: s0,
            on_path,
            moves: Vec::new(),
            prev_goals: vec![NO_GOAL; self.roles.len()],
        });
        Ok(())
    }

    /// Counts `s` among the distinct states (the exploration's expanded
    /// states are counted there); whether it is a terminal state seen for
    /// the first time.
    fn count_sampled(&mut self, s: &M::State, terminal: bool) -> bool {
        let known = self.g.find(s);
        let mut fresh = false;
        if known.is_none_or(|id| id as usize >= self.g.expanded()) {
            if known.is_none() {
                self.sampling.seen.insert(s.clone());
            }
            if terminal {
                fresh = self.sampling.seen_terminal.insert(s.clone());
            }
        }
        fresh
    }

    /// Monotone: a goal value lowered by the last joint move, to the goal
    /// cells `cells`.
    fn note_walk_drop(&mut self, cells: &[i64]) -> Result<(), EvalError> {
        if self.f.monotone.is_some() {
            return Ok(());
        }
        let walk = self.sampling.walk.as_ref().expect("walk");
        let drop = walk
            .prev_goals
            .iter()
            .zip(cells)
            .enumerate()
            .find(|(_, (&a, &b))| a > MANY_GOALS && b > MANY_GOALS && b < a)
            .map(|(r, (&a, &b))| (r, a, b));
        if let Some((r, a, b)) = drop {
            let moves = walk_moves(self)?;
            let detail = format!(
                "the goal value of role {} drops from {a} to {b} on joint move {}",
                self.roles[r],
                moves.len()
            );
            self.f.monotone = Some(Finding { moves, detail });
        }
        Ok(())
    }

    /// Plays a random joint move from `s` (the walk's state, `legal` its
    /// moves); a state already on the path ends the walk with a cycle.
    fn advance_walk(&mut self, s: &M::State, legal: &[Vec<TermId>]) -> Result<(), EvalError> {
        let joint: Vec<TermId> = legal
            .iter()
            .map(|l| l[crate::reasoner::random_index(&mut self.rng, l.len())])
            .collect();
        let t = self.m.next_state(s, &joint)?;
        let walk = self.sampling.walk.as_mut().expect("walk");
        walk.moves.push(joint);
        let n = walk.moves.len();
        if let Some(&k) = walk.on_path.get(&t) {
            if self.f.cycle.as_ref().is_none_or(|c| c.moves.len() > n) {
                let moves = walk_moves(self)?;
                let detail = cycle_text(k, n - k);
                self.f.cycle = Some(Finding { moves, detail });
            }
            self.end_walk();
            return Ok(());
        }
        walk.on_path.insert(t.clone(), n);
        walk.state = t;
        Ok(())
    }

    fn end_walk(&mut self) {
        self.sampling.walk = None;
        self.sampling.playouts += 1;
    }
}
