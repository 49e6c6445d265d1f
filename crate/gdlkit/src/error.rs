//! Every error type of the library crates, in one place: the language's
//! [`TermError`], the engine's (evaluation, options, moves, replays), the
//! players' (heuristics, positions, explanations, matches, traces,
//! solutions) and the GGP protocol's (messages, replies, URLs, matches,
//! sessions, repositories). Each `Display` is the message users see.

pub use gdlkit_engine::error::*;
pub use gdlkit_ggp::error::*;
pub use gdlkit_lang::program::TermError;
pub use gdlkit_play::error::*;
