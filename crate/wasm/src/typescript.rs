//! The TypeScript of the JavaScript bindings' options and results,
//! generated from the Rust types with ts-rs (cargo feature `typescript`)
//! into `js/types.d.ts`, which `js/index.d.ts` re-exports. `node
//! scripts/types.mjs` rewrites the file; `npm test` (and
//! `cargo test --features typescript --test typescript`) fails when the
//! checked-in file is not what the types generate.
//!
//! ## A new binding's types
//! 1. Options: a struct with `#[serde(default, rename_all = "camelCase",
//!    deny_unknown_fields)]` (in the module of the feature, or in
//!    [`crate::js_api`] when it is JS-only), read in the binding with
//!    `js::options(value, "name")` (the one strict check: an unknown key is
//!    a `TypeError`). Add `#[cfg_attr(feature = "typescript",
//!    derive(ts_rs::TS))]`; fields with a default get `ts(optional)` (an
//!    `Option`) or `ts(as = "Option<T>", optional)`.
//! 2. Results: a struct deriving `Serialize`, returned with
//!    `js::to_js(&value)` (its fields become camelCase, [`crate::js_names`]);
//!    derive TS with `ts(rename_all = "camelCase")`. A result is never a
//!    `serde_json::Value` object: its keys would stay as they are.
//! 3. List the types in [`declarations`] below, run `node
//!    scripts/types.mjs`, and name them in the binding's
//!    `unchecked_return_type` / `js/index.d.ts` signature.

use ts_rs::{Config, TS};

/// Every exported type, in the order of the file.
macro_rules! types {
    ($($t:ty),* $(,)?) => {
        fn each(cfg: &Config) -> Vec<String> {
            vec![$(decl::<$t>(cfg)),*]
        }
    };
}

types!(
    // Diagnostics and fixes (`check`, `fix`).
    crate::diagnostic::Severity,
    crate::diagnostic::ResolvedRelated,
    crate::diagnostic::ResolvedEdit,
    crate::diagnostic::ResolvedFix,
    crate::diagnostic::ResolvedDiagnostic,
    crate::diagnostic::Position,
    crate::fix::Applied,
    crate::fix::Fixed,
    crate::js_api::FixOptions,
    // Games and states.
    crate::js_api::EngineChoice,
    crate::js_api::EngineInfo,
    crate::search::matches::RoleResult,
    crate::search::matches::Outcome,
    crate::js_api::StateDescription,
    crate::js_api::SeenStep,
    crate::search::hidden::Uncertain,
    crate::search::hidden::BeliefView,
    crate::js_api::PlayoutOptions,
    crate::playouts::Played,
    crate::playouts::Summary,
    // Search.
    crate::js_api::Algorithm,
    crate::js_api::Ordering,
    crate::js_api::SearchValue,
    crate::js_api::AbstractTree,
    crate::trace::Label,
    crate::trace::ShapeNode,
    crate::search::report::SearchOptions,
    crate::search::Stats,
    crate::search::Iteration,
    crate::trace::NodeKind,
    crate::trace::BoundKind,
    crate::trace::Pruned,
    crate::trace::Event,
    crate::search::report::ReportStats,
    crate::search::report::SearchReport,
    // Matches.
    crate::js_api::MatchOptions,
    crate::search::matches::GameRecord,
    crate::search::report::MatchPlayerReport,
    crate::search::report::MatchReport,
    // Explain.
    crate::search::explain::ExplainOptions,
    crate::js_api::StateExplainOptions,
    crate::search::fjo::GoalDistance,
    crate::search::explain::Reply,
    crate::search::explain::MoveValue,
    crate::search::explain::Explanation,
    // The game library (`games()`).
    crate::library::Header,
    crate::library::Game,
    crate::repository::Metadata,
    // Structure.
    crate::js_api::StructureOptions,
    crate::js_api::RenderBoardOptions,
    crate::structure::SuccessorInfo,
    crate::structure::OrderInfo,
    crate::structure::Board,
    crate::structure::Counter,
    crate::structure::Quantity,
    crate::structure::scene::Scene,
    crate::structure::scene::Thing,
    crate::structure::FluentDomain,
    crate::structure::Structure,
    // Instantiation (`groundReport`).
    crate::js_api::GroundReportOptions,
    crate::ground::report::Outcome,
    crate::ground::report::RelationCount,
    crate::ground::report::RuleCount,
    crate::ground::report::NetworkSize,
    crate::ground::report::SubgameSize,
    crate::ground::report::Stop,
    crate::ground::report::GroundReport,
    // Solve.
    crate::js_api::SolveOptions,
    crate::js_api::SymbolicOptions,
    crate::js_api::JobProgress,
    crate::solve::SymbolicSummary,
    crate::solve::SymbolicStats,
    crate::solve::SymbolicCount,
    crate::solve::VarOrder,
    crate::solve::Concept,
    crate::solve::Value,
    crate::solve::ValueCount,
    crate::solve::Stats,
    crate::solve::Progress,
    crate::solve::Summary,
    crate::solve::Outcome,
    crate::solve::MoveEntry,
    crate::solve::Position,
    // Analysis.
    crate::js_api::AnalysisOptions,
    crate::analysis::Phase,
    crate::analysis::Mode,
    crate::analysis::Progress,
    crate::analysis::Property,
    crate::analysis::Properties<'static>,
    crate::analysis::Summary<'static>,
    // Replay, the CLI, trees, players.
    crate::replay::ConformanceStep<'static>,
    crate::replay::Conformance<'static>,
    crate::js_api::CliResult,
    crate::js_api::ReorderedTree,
    crate::js_api::ParsedPlayerSpec,
    crate::search::PlayerInfo,
    crate::search::heuristics::HeuristicInfo,
    // Parallel players' workers, the memory budget, boards, the standalone file.
    crate::search::ensemble::MemberResult<String>,
    crate::js_api::EnsembleMemberResult,
    crate::js_api::EnsembleChoice,
    crate::search::alphabeta_parallel::WorkerResult<String>,
    crate::js_api::AlphaBetaRootResult,
    crate::js_api::AlphaBetaChoice,
    crate::search::mcts::RootStats<String>,
    crate::js_api::MctsRootResult,
    crate::js_api::MctsChoice,
    crate::js_api::MemoryBudget,
    crate::js_api::MctsWorkerOptions,
    crate::js_api::AlphaBetaWorkerOptions,
    crate::js_api::EnsembleMemberOptions,
    crate::structure::board::Cell,
    crate::structure::board::BoardCells,
    crate::structure::pieces::Drawing,
    crate::standalone::Request,
);

/// One type's declaration with its doc comment, exported.
fn decl<T: TS>(cfg: &Config) -> String {
    let docs = T::docs().unwrap_or_default();
    format!("{docs}export {}", T::decl(cfg))
}

/// The text of `js/types.d.ts`.
pub fn declarations() -> String {
    let cfg = Config::new().with_large_int("number");
    let mut out = String::from(
        "// Generated from the Rust types by ts-rs (crate/wasm/src/typescript.rs):\n\
         // do not edit; run `node scripts/types.mjs` after changing them.\n\n",
    );
    for d in each(&cfg) {
        out.push_str(&d);
        out.push_str("\n\n");
    }
    // The players' options, from their one declaration (not Rust types).
    out.push_str(&crate::search::spec_docs::typescript());
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}
