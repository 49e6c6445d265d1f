//! The facade's integration tests, one module per concern, in one test
//! binary: optimised builds do not share generic code between crates, so
//! each separate binary compiled the players and engines it used again.
//! `cargo test --profile ci -p gdlkit --test integration <module>::` runs
//! one module.

mod common;

mod analysis;
mod analysis_corpus;
mod check;
mod conformance;
mod connect_four;
mod demand_vs_materialised;
mod engine_choice;
mod ensemble;
mod explain_board;
mod fast_conformance;
mod fast_vs_interpreter;
mod fixes;
mod format;
mod fuzzy_values;
mod gdl2;
mod gdl2_solve;
mod gdl2_wire;
mod ground_estimate;
mod hyperplay;
mod mcts_options;
mod mcts_solver;
mod module_cycles;
mod parallel_alphabeta;
mod parallel_mcts;
mod parser_robustness;
mod planning;
mod search;
mod search_reports;
mod seeded_players;
mod solve;
mod structure;
mod symbolic;
mod typed_errors;
