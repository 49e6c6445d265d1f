//! The error every evaluation of a game can end in: a resource limit (time,
//! memory, size, cancellation) or a move that is not one of the game's. It
//! sits below the reasoner because the limits of long jobs (`job`,
//! `memory`) raise it too.

use std::fmt;

/// Why an evaluation of a game stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// A resource limit was exceeded; `what` names it.
    Limit { what: &'static str, limit: u64 },
    /// A move that is not a term of this game, or a joint move of the wrong size.
    BadMove(String),
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::Limit { what, limit } => write!(
                f,
                "evaluation stopped: more than {limit} {what} (the rules may recurse without bound, or the game is too large)"
            ),
            EvalError::BadMove(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for EvalError {}
