//! TypeScript-only types that the reports' fields name (`ts(as = ...)`):
//! string unions and recursive shapes with no Rust struct of their own.
//! Compiled only with the `typescript` feature, which generates
//! `js/types.d.ts`.

use ts_rs::TS;

/// Which state machine runs: "auto" (the grounded fast engine when the
/// game grounds within budget, else the interpreter), "fast" or
/// "interpreter". (A TypeScript type only.)
#[derive(TS)]
#[ts(type = "'auto' | 'fast' | 'interpreter'")]
pub struct EngineChoice;

/// A search algorithm (`players()` lists every player).
#[derive(TS)]
#[ts(type = "'alphabeta' | 'minimax' | 'best-first' | 'mcts' | (string & {})")]
pub struct Algorithm;

/// The order each node's moves are searched in.
#[derive(TS)]
#[ts(type = "'given' | 'reversed' | 'best' | 'worst'")]
pub struct Ordering;

/// A search value: a number on the 0..100 goal scale (trees: the leaf
/// values), or an unbounded alpha/beta.
#[derive(TS)]
#[ts(type = "number | 'inf' | '-inf'")]
pub struct SearchValue;

/// A nested abstract tree: numbers are leaves, `{chance: [...]}` chance
/// nodes (each child equally likely).
#[derive(TS)]
#[ts(type = "number | AbstractTree[] | { chance: AbstractTree[] }")]
pub struct AbstractTree;
