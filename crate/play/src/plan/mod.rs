//! Relaxed planning over the grounded rules (thesis 3.3–3.5): the game as a
//! planning problem ([`translate`]) and the relaxed planning graph with
//! h_max, h_add and h_FF ([`graph`]). The evaluation function f_JO built on
//! it is in `crate::search::fjo`. See `docs/planning.md`.

pub mod graph;
pub mod translate;

pub use graph::{Graph, INF};
pub use translate::{Costs, Problem};
