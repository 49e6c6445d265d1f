//! Tests of the WebAssembly API, one module per concern, in one test
//! binary: each binary is compiled, linked and started (in Node or a
//! browser session) on its own. Natively they compile to nothing.
#![cfg(target_arch = "wasm32")]

mod common;

mod analysis;
mod api;
mod check;
mod conformance;
mod fast_bench;
mod matches;
mod one_engine;
mod search;
mod solve;
