//! Playing and understanding GDL games on any
//! [`StateMachine`](gdlkit_engine::StateMachine): the players and their
//! searches ([`search`]: minimax, alpha-beta, best-first,
//! MCTS, the heuristics, matches; what they ask of an evaluation function,
//! [`evaluation`], and the teaching move orders, [`ordering`]), the relaxed planning problem behind the
//! thesis's f_JO ([`plan`]), the game's structure found from its semantics
//! ([`structure`]: boards, pieces, counters, features), perfect play
//! ([`solve`]), the semantic validator ([`analysis`]), the lecture's search
//! traces ([`trace`]) and the self-contained lecture file ([`standalone`]).

pub mod analysis;
pub mod error;
pub mod evaluation;
pub mod ordering;
pub mod plan;
pub mod search;
pub mod solve;
pub mod standalone;
pub mod structure;
pub mod trace;
#[cfg(feature = "typescript")]
pub mod ts_types;

// The layers below under their own names, as every module reads them.
use gdlkit_engine::{
    clock, engine, ground, job, load_game, memory, playouts, reasoner, Engine, EngineChoice,
    EvalError,
};
#[cfg(test)]
use gdlkit_engine::{Game, Interpreter, Limits};
use gdlkit_lang::{
    check_program, deps, diagnostic, parse_program, program, syntax, terms, Diagnostic,
};
