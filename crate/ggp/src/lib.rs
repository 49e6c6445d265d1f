//! The General Game Playing protocol as ggp-base and the competitions speak
//! it: messages, HTTP framing, the player session behind `gdlkit serve`,
//! the match manager behind `gdlkit host` (a state machine over any
//! transport; sockets only natively, in `ggp::net`), and the URLs of a game
//! repository in ggp-base's layout ([`repository`]).

pub mod error;
pub mod ggp;
pub mod repository;

// The layers below under their own names, as every module reads them.
#[cfg(not(target_arch = "wasm32"))]
use gdlkit_engine::job;
use gdlkit_engine::{clock, engine, ground, reasoner, EvalError, Game};
use gdlkit_lang::{diagnostic, program, syntax, terms, Diagnostic, Severity};
use gdlkit_play::{search, solve};
