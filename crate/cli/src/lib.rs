//! The `gdlkit` command line: `cli::run(args, host)` parses the arguments
//! with clap and runs one command, natively (`src/main.rs`) and through
//! WebAssembly (npm's CLI); `library` is the game library it carries.

pub mod cli;
pub mod library;

// The layers below under their own names, as every command reads them.
use gdlkit_engine::{
    clock, ground, job, memory, playouts, reasoner, replay, Engine, EngineChoice, EvalError, Game,
};
use gdlkit_ggp::{ggp, repository};
use gdlkit_lang::{check_text, diagnostic, fix, format, program, syntax, Program, Severity};
use gdlkit_play::{analysis, search, solve, standalone, structure, trace};
