//! The Monte-Carlo tree search family: plain UCT ([`uct`], the `mcts`
//! player, a new tree per move, root-parallel on threads: [`parallel`])
//! and MCTS-Solver ([`solver`], `mcts:solver=on` and the default player
//! `mcts-solver`: proofs, one tree kept between moves and shared by the
//! threads). Beside them: the root's statistics and the move chosen from
//! them ([`root`]), the tactical check of forced wins and losses
//! ([`tactics`], with proof-number search: [`proof_number`]) and the
//! material learnt from playouts that the solver counts ([`learned`]).

pub mod learned;
pub mod parallel;
pub mod proof_number;
pub mod root;
pub mod solver;
pub mod tactics;
pub mod uct;

pub use root::{choose, mean_of, merge_roots, ranked, RootStats};
pub use uct::{decide, Config, Mcts};
