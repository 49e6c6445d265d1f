//! gdlkit: a General Game Playing toolkit for the Game Description Language.
//!
//! The pipeline, one module per stage:
//! [`syntax`] (KIF text → s-expressions) → [`program`] (rules over interned
//! symbols) → [`deps`] (dependency graph, strata) → [`reasoner`] (the game as
//! a state machine) → [`search`] (players, heuristics, matches) → [`trace`]
//! (search events for lectures). [`replay`] and [`cli`] are adapters; `wasm`
//! is the WebAssembly binding.

pub mod analysis;
pub mod check;
pub mod cli;
pub mod clock;
pub mod deps;
pub mod diagnostic;
pub mod engine;
pub mod fix;
pub mod format;
pub mod ggp;
pub mod ground;
pub mod job;
pub mod plan;
pub mod playouts;
pub mod program;
pub mod reasoner;
pub mod replay;
pub mod search;
pub mod stack;
pub mod structure;
pub mod syntax;
pub mod terms;
pub mod trace;

#[cfg(target_arch = "wasm32")]
pub mod wasm;

// Field names for JavaScript and the generated TypeScript (issue 15).
pub mod js_api;
pub mod js_names;
#[cfg(feature = "typescript")]
pub mod typescript;

pub use diagnostic::{Diagnostic, Severity, Span};
pub use engine::{load_engine, Engine, EngineChoice, EngineState};
pub use program::{parse_program, Program};
pub use reasoner::{EvalError, Interpreter, Limits, StateMachine};

/// Parses a game and builds its interpreter; any error diagnostic (syntax or
/// a GDL restriction the reasoner relies on) is returned instead.
pub fn load_game(text: &str) -> Result<Interpreter, Vec<Diagnostic>> {
    let program = parse_program(text);
    if diagnostic::has_errors(&program.diagnostics) {
        return Err(program.diagnostics);
    }
    Interpreter::new(&program)
}

/// All diagnostics for a game text: syntax, lowering and every static check
/// of the validator ([`check`]), sorted by position.
pub fn check_text(text: &str) -> Vec<Diagnostic> {
    let program = parse_program(text);
    let mut diags = program.diagnostics.clone();
    diags.extend(check::check_source(text, &program));
    check::sort(&mut diags);
    fix::tidy_deletions(text, &mut diags);
    diags
}
