//! Players for GDL-II's hidden information: they never see the true
//! state, only their own moves and what their role `sees`.
//!
//! [`Belief`] keeps the states consistent with those observations
//! (enumerated while few, sampled when many, as HyperPlay does);
//! [`Hyperplay`] searches sampled states with the existing MCTS and sums
//! the statistics of its moves over them.

mod belief;
mod hyperplay;

pub use belief::Belief;
pub use hyperplay::{Hyperplay, DEFAULT_SAMPLES};
