//! Tests of the compiled WebAssembly API live in `tests/`.
