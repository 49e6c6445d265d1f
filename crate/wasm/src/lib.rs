//! The WebAssembly bindings of gdlkit (wasm-bindgen): thin adapters over the
//! library crates for the npm package and the page (`wasm`, compiled only
//! for `wasm32`), the option and result types JavaScript sees ([`js_api`]),
//! their camelCase field names ([`js_names`]) and the TypeScript generated
//! from them (`typescript`, feature `typescript`).

#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub mod js_api;
pub mod js_names;
#[cfg(feature = "typescript")]
pub mod typescript;

// The library's layers under their own names, as every binding reads them.
// Which of them a build reads depends on its target and features (natively
// only `js_api` and `typescript`; the page's check wasm only `check`).
#[cfg(feature = "cli")]
#[allow(unused_imports)]
use gdlkit_cli::{cli, library};
#[allow(unused_imports)]
use gdlkit_engine::{
    clock, engine, ground, job, load_engine, load_game, memory, playouts, reasoner, replay, Engine,
    EngineChoice, EngineState, Game,
};
#[allow(unused_imports)]
use gdlkit_ggp::{ggp, repository};
#[allow(unused_imports)]
use gdlkit_lang::{check_text, diagnostic, fix, format, parse_program, program, terms, Program};
#[allow(unused_imports)]
use gdlkit_play::{analysis, ordering, search, solve, standalone, structure, trace};
