//! Tests of the compiled WebAssembly API live in `tests/`:
//! `api.rs` (the `Game` class, errors, `runCli`, the clock) and
//! `conformance.rs` (reference traces replayed through the wasm API).
