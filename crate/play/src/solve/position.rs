//! A position's solved values as the page draws them: the role to move,
//! each legal move's value and what it means for that role (win, draw,
//! loss), so that the page only draws (the Perfect-play marks, the solved
//! column of the Why? panel and of the search tree).

use super::{Solution, Value};
use crate::engine::{Engine, EngineState};
use crate::reasoner::{EvalError, StateMachine};
use serde::Serialize;

/// What a value means for one role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "SolvedOutcome")
)]
pub enum Outcome {
    /// Two roles: more than the opponent. One role: goal 100.
    Win,
    /// Two roles: as much as the opponent.
    Draw,
    /// Two roles: less than the opponent. One role: goal 0.
    Loss,
    /// One role: a goal between 0 and 100.
    Score,
}

/// The outcome of `v` for role `role`.
pub fn outcome(v: &Value, role: usize) -> Outcome {
    let mine = v.goals[role];
    if v.goals.len() == 1 {
        return match mine {
            100 => Outcome::Win,
            0 => Outcome::Loss,
            _ => Outcome::Score,
        };
    }
    let theirs = v.goals[1 - role];
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => Outcome::Win,
        std::cmp::Ordering::Equal => Outcome::Draw,
        std::cmp::Ordering::Less => Outcome::Loss,
    }
}

/// One legal move of the role to move and the value it leads to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "SolvedMove")
)]
pub struct MoveEntry {
    /// The move's text, as the game's legal moves are written.
    pub r#move: String,
    /// The successor's value (null: the solution leaves it open).
    pub value: Option<Value>,
    /// What that value means for the role to move.
    pub outcome: Option<Outcome>,
    /// The move keeps the position's value (fastest win, slowest loss).
    pub best: bool,
}

/// A position's solved value and its moves' values.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "SolvedPosition")
)]
pub struct Position {
    /// The role to move (the only one with a choice); null when the
    /// position is terminal or no role has a choice.
    pub role: Option<usize>,
    /// The position's value (null: not in the solution, or left open).
    pub value: Option<Value>,
    /// What the position's value means for the role to move.
    pub outcome: Option<Outcome>,
    pub terminal: bool,
    /// The role to move's legal moves (empty when `role` is null).
    pub moves: Vec<MoveEntry>,
    /// The move a player of `role` makes here from the solution
    /// ([`Solution::solved_move`]); null when it does not settle the choice.
    pub play: Option<String>,
    /// The solution is complete (else values are those proved on the
    /// part explored).
    pub complete: bool,
}

impl Solution {
    /// `state`'s solved value and each of its moves' (see [`Position`]).
    pub fn position(
        &self,
        engine: &mut Engine,
        state: &EngineState,
    ) -> Result<Position, EvalError> {
        let value = self.value_of(engine, state);
        let terminal = engine.is_terminal(state)?;
        let role = if terminal {
            None
        } else {
            let legal = engine.all_legal_moves(state)?;
            let choosers: Vec<usize> = (0..legal.len()).filter(|&r| legal[r].len() > 1).collect();
            match choosers[..] {
                [r] => Some(r),
                _ => None,
            }
        };
        let mut moves = Vec::new();
        let mut play = None;
        if let Some(r) = role {
            // Each move's successor once: the best, the move played and the entries from one list.
            let all = self.move_values(engine, state, r)?;
            play = self
                .solved_of(all.clone(), r)
                .map(|m| engine.terms().display(m));
            let best: Vec<_> = self
                .best_of(all.clone(), r)
                .into_iter()
                .map(|m| m.r#move)
                .collect();
            for m in all {
                moves.push(MoveEntry {
                    r#move: engine.terms().display(m.r#move),
                    outcome: m.value.as_ref().map(|v| outcome(v, r)),
                    value: m.value,
                    best: best.contains(&m.r#move),
                });
            }
        }
        Ok(Position {
            role,
            outcome: value.as_ref().zip(role).map(|(v, r)| outcome(v, r)),
            value,
            terminal,
            moves,
            play,
            complete: self.complete,
        })
    }
}
