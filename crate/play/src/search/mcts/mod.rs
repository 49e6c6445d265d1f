//! The Monte-Carlo tree search family: one tree ([`solver`]) for plain
//! MCTS (`mcts`: UCT with decoupled statistics, [`Config::plain`]) and
//! MCTS-Solver (`mcts:solver=on` and the default player `mcts-solver`:
//! proofs and the options built on them), kept between moves and shared by
//! the threads. Beside it: the root's statistics and the move chosen from
//! them ([`root`]), the tactical check of forced wins and losses
//! ([`tactics`], with proof-number search: [`proof_number`]) and the
//! material learnt from playouts that the solver counts ([`learned`]).

pub mod latches;
pub mod learned;
pub mod probe;
pub mod progress;
pub mod proof_number;
pub mod root;
pub mod solver;
pub mod tactics;

pub use root::{choose, mean_of, merge_roots, ranked, RootStats};
pub use solver::{Config, SolverMcts};
