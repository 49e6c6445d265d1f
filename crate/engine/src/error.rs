//! The error every evaluation of a game can end in: a resource limit (time,
//! memory, size, cancellation) or a move that is not one of the game's. It
//! sits below the reasoner because the limits of long jobs (`job`,
//! `memory`) raise it too. Beside it, the errors of the engine's other
//! public functions: bad options, moves that do not read, replays that stop.

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

/// A bad value for an option; the message names the option and the values
/// it takes.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum OptionError {
    #[error("--engine must be `auto`, `interpreter` or `fast`, got `{0}`")]
    Engine(String),
    /// An `ms` option out of range; `what` names the option, `max` is the
    /// largest allowed.
    #[error("{what} {ms}: give a number of milliseconds above 0 and at most {max}")]
    Ms { what: String, ms: f64, max: f64 },
    #[error("--seconds {0}: give a number of seconds greater than 0 (e.g. 10 or 0.5)")]
    Seconds(String),
    #[error(
        "--memory {0}: give the memory budget in MB, a whole number of at least 16 (e.g. 8192)"
    )]
    Memory(String),
}

/// Why a list of joint moves (`MOVES.json`, a `moves` option) does not read.
#[derive(Debug, thiserror::Error)]
pub enum MovesError {
    #[error("invalid JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("expected a list of joint moves or an object with `joint_moves`")]
    NotMoves,
    #[error("`joint_moves` must be a list")]
    NotAList,
    /// Joint move `n` (1-based) holds something other than strings.
    #[error("joint move {0}: moves must be strings")]
    NotStrings(usize),
    /// Joint move `n` (1-based) is not a list.
    #[error("joint move {0} must be a list of moves")]
    NotAJointMove(usize),
}

/// Why a replay of joint moves stopped.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// Joint move number `index` (0-based) is not legal; `message` says why
    /// and names the step (1-based).
    #[error("{message}")]
    Illegal { index: usize, message: String },
    #[error(transparent)]
    Eval(#[from] EvalError),
}
