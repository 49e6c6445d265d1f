//! What a search asks of an evaluation function: the [`Heuristic`] trait,
//! the boxed form searches own, and the planning heuristics' details. Below
//! the heuristics registry (`heuristics.rs`), the planning heuristics
//! (`fjo.rs`), the board features (`structure::features`) and the searches
//! that take a heuristic, so none of them depends on another through it.

use crate::reasoner::{EvalError, StateMachine};
use serde::Serialize;

/// A state evaluation for one role.
/// `Send`, so searches with any heuristic can run on threads (the parallel
/// ensemble).
pub trait Heuristic<M: StateMachine>: Send {
    fn name(&self) -> String;
    /// Called once per search with its root (novelty measures change from it).
    fn set_root(&mut self, _m: &mut M, _root: &M::State) -> Result<(), EvalError> {
        Ok(())
    }
    /// Estimated value of a non-terminal state for `role`, in `[1, 99]`.
    fn evaluate(&mut self, m: &mut M, s: &M::State, role: usize) -> Result<f64, EvalError>;
    /// Explanation of a non-terminal state's value, for heuristics that
    /// have one (the planning heuristics: raw value and goal distances).
    fn details(
        &mut self,
        _m: &mut M,
        _s: &M::State,
        _role: usize,
    ) -> Result<Option<Details>, EvalError> {
        Ok(None)
    }
    /// Whether the value depends on the state only (not on the root), so
    /// transposition-table entries stay valid from one search to the next.
    fn state_only(&self) -> bool {
        true
    }
    /// Forgets what was cached by term id during searches. Called when the
    /// search moves to a fresh copy of the game (the ensemble's and the
    /// parallel searches' members): terms interned by an earlier copy may
    /// have other ids in the new one. What was interned when the heuristic
    /// was built stays valid (every copy is made from that machine).
    fn forget_terms(&mut self) {}
}

/// The distances of one goal formula `T_q` (None: unreachable).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase")
)]
pub struct GoalDistance {
    /// The goal value.
    pub goal: i64,
    /// `goal − 50`, the weight in f_JO.
    pub q: i64,
    pub h_max: Option<u32>,
    pub h_add: Option<u32>,
    pub h_ff: Option<u32>,
    /// The relaxed plan's actions, by layer (other roles' moves included,
    /// written `role: move`).
    pub plan: Vec<String>,
    /// For each action of `plan`, the board cells its move names (filled by
    /// `explain` when the game has a board: `[column, row]` or `[column,
    /// row, layer]`), for drawing the plan as numbered marks.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(
        feature = "typescript",
        ts(as = "Option<Vec<Vec<Vec<String>>>>", optional)
    )]
    pub plan_cells: Vec<Vec<Vec<String>>>,
}

/// A state's value under a planning measure, with its goal distances.
#[derive(Clone, Debug, PartialEq)]
pub struct Details {
    /// Raw f_JO, or the distance to the best goal (None: unreachable).
    pub value: Option<f64>,
    pub goals: Vec<GoalDistance>,
}

/// A boxed heuristic that a search owns: the searches see it as
/// `dyn Heuristic` either way (every heuristic is `Send`, so the search can
/// move to another thread: parallel alpha-beta).
pub trait BoxedHeuristic<M: StateMachine> {
    fn get(&mut self) -> &mut dyn Heuristic<M>;
    fn name(&self) -> String;
}

impl<M: StateMachine> BoxedHeuristic<M> for Box<dyn Heuristic<M>> {
    fn get(&mut self) -> &mut dyn Heuristic<M> {
        &mut **self
    }
    fn name(&self) -> String {
        (**self).name()
    }
}

impl<M: StateMachine, H: Heuristic<M>> BoxedHeuristic<M> for Box<H> {
    fn get(&mut self) -> &mut dyn Heuristic<M> {
        &mut **self
    }
    fn name(&self) -> String {
        (**self).name()
    }
}
