//! The GGP protocol (Stanford's, as ggp-base speaks it on the wire; see
//! `docs/ggp-protocol.md`): messages ([`message`]), their HTTP framing
//! ([`http`]), the player side as a state machine fed messages
//! ([`session`]), and the manager side as a state machine over an abstract
//! transport ([`manager`]); a relay for pages ([`relay`]). Only [`net`]
//! touches sockets, natively; in WebAssembly JavaScript sends the bytes and
//! the rest is the same code.

pub mod http;
pub mod manager;
pub mod message;
#[cfg(not(target_arch = "wasm32"))]
pub mod net;
pub mod relay;
pub mod session;

pub use manager::{Answer, Failure, GameMatch, MatchSetup, Outgoing};
pub use message::Message;
pub use session::{PlayerConfig, Reply, Session};
