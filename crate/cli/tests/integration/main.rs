//! The command line's integration tests, one module per concern, in one
//! test binary (optimised builds compile the generic code each binary uses
//! again). `cargo test --profile ci -p gdlkit-cli --test integration
//! <module>::` runs one module.

mod common;

mod adversarial;
mod cli;
mod export;
mod ggp;
mod ground;
mod library;
mod repository;
