//! GDL games as state machines: the reference [`Interpreter`] (bottom-up
//! Datalog with stratified negation), the fast engine (the rules grounded
//! into a propositional network, `ground`), and the one choice between them
//! ([`load_engine`]). Both implement [`StateMachine`]: roles, initial
//! state, legal moves, next state, terminal test, goals.
//!
//! Below them, the limits every long job shares: [`clock`] (a wall clock
//! and deadlines that work in WebAssembly too), [`job`] (time limits,
//! cancellation, progress), [`memory`] (the memory budget) and [`stack`]
//! (deep recursion natively). [`playouts`] and [`replay`] run games on
//! any engine.

pub mod clock;
pub mod engine;
pub mod error;
pub mod ground;
pub mod job;
pub mod memory;
pub mod playouts;
pub mod reasoner;
pub mod replay;
pub mod stack;

// The language's modules under their own names, as every stage reads them.
#[cfg(test)]
use gdlkit_lang::parse_program;
use gdlkit_lang::{deps, diagnostic, program, terms};

pub use engine::{load_engine, Engine, EngineChoice, EngineState, Game};
pub use error::EvalError;
pub use gdlkit_lang::{Diagnostic, Program, TermId, TermStore};
pub use reasoner::{Interpreter, Limits, StateMachine};

/// Parses a game and builds its interpreter; any error diagnostic (syntax or
/// a GDL restriction the reasoner relies on) is returned instead.
pub fn load_game(text: &str) -> Result<Interpreter, Vec<Diagnostic>> {
    let program = gdlkit_lang::parse_program(text);
    if diagnostic::has_errors(&program.diagnostics) {
        return Err(program.diagnostics);
    }
    Interpreter::new(&program)
}
