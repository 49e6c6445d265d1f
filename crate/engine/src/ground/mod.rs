//! The fast engine: the game grounded into a propositional network, a state a
//! bit vector of base propositions. See `docs/fast-engine.md` for the design
//! and the measurements behind it.
//!
//! One file per concern:
//! - [`rules`]: the rules to ground (from the interpreter's compiled
//!   program) split so that no instance joins unrelated variables;
//! - [`instantiate`]: reachable atoms by a relaxed fixpoint, then every rule
//!   instance, with static relations and `distinct` resolved;
//! - `program`: the grounding's phases in order, into a [`GroundProgram`];
//! - `assemble`: from a [`GroundProgram`] to the network and the engine's
//!   tables;
//! - [`split`]: the game without its end tests, for the hybrid engine
//!   (`engine/hybrid.rs`) when the whole game would not ground;
//! - [`subgames`]: parts of the state the moves change independently;
//! - [`report`]: what instantiation did (counts, top rules, network size,
//!   where it stopped), for `gdlkit ground` and the page;
//! - [`network`]: threshold gates in flat arrays, cycles as components;
//! - [`engine`]: differential propagation and the [`StateMachine`](crate::StateMachine)
//!   implementation.
//!
//! Grounding has a [`Budget`]; a game over it gets a [`GroundError`] and the
//! caller (see [`crate::engine`]) runs the interpreter instead; under `auto`
//! a game whose size [`estimate`] is far over the budget is not grounded at
//! all.

#[cfg(test)]
mod agreement;
mod assemble;
mod constant;
mod count;
pub mod demand;
mod duplicates;
pub mod engine;
pub mod estimate;
mod exclusion;
mod factor;
mod fold;
mod grule;
mod guards;
pub mod instantiate;
pub mod network;
mod passes;
pub mod profile;
mod program;
pub mod report;
pub mod rules;
mod semijoin;
pub mod split;
pub mod subgames;
mod tables;
pub mod types;

pub use engine::{BitState, Expansion, FastEngine};

use crate::clock::now_ms;
use crate::deps::RelId;
use crate::program::Program;
use crate::reasoner::EvalError;
use crate::terms::{Sym, TermId, TermStore};
use assemble::engine_of;
use instantiate::AtomId;
use program::{fixpoint, ground_program_with};
use rustc_hash::FxHashMap;
use std::fmt;

/// Limits for grounding; over any of them the game is not grounded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    pub max_atoms: usize,
    /// Literals over all rule instances (the size of the network).
    pub max_literals: usize,
    /// Estimated memory of the grounder's tables and the network.
    pub max_bytes: usize,
    pub max_ms: f64,
    pub max_term_depth: usize,
    /// Join steps the interpreter may take computing the static relations.
    pub max_static_steps: u64,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            max_atoms: 4_000_000,
            max_literals: 30_000_000,
            max_bytes: 1_500_000_000,
            max_ms: 20_000.0,
            max_term_depth: 100,
            max_static_steps: 100_000_000,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum GroundError {
    Budget {
        what: &'static str,
        limit: u64,
    },
    /// Computing a static relation failed in the interpreter.
    Eval(EvalError),
    Unsupported(String),
}

impl fmt::Display for GroundError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GroundError::Budget { what, limit } => {
                write!(f, "grounding needs more than {limit} {what}")
            }
            GroundError::Eval(e) => write!(f, "grounding stopped: {e}"),
            GroundError::Unsupported(s) => write!(f, "cannot ground: {s}"),
        }
    }
}

impl std::error::Error for GroundError {}

/// Sizes and cost of a grounding.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GroundStats {
    pub ms: f64,
    /// Peak estimated memory of the grounder's tables (bytes).
    pub peak_bytes: usize,
    /// Memory of the network kept for play (bytes).
    pub network_bytes: usize,
    pub atoms: usize,
    pub rules: usize,
    pub aux_rules: usize,
    /// Rules evaluated as exclusions (`exclusion.rs`).
    pub exclusions: usize,
    /// Rules evaluated as counts, "at least k of" (`count.rs`).
    pub counting_rules: usize,
    /// Recursions rewritten as folds (`fold.rs`).
    pub folds: usize,
    pub instances: usize,
    pub literals: usize,
    pub base: usize,
    pub inputs: usize,
    pub legals: usize,
    pub nodes: usize,
    pub edges: usize,
    pub cyclic_components: usize,
    pub rounds: usize,
    /// Guards tried (`guards.rs`), those kept after the walk, and the ANDs
    /// the kept ones guard.
    pub guard_candidates: usize,
    pub guards: usize,
    pub guarded_ands: usize,
    /// Independent subgames ([`subgames`]), 0 where fewer than two.
    pub subgames: usize,
}

/// A game grounded over its reachable atoms: every atom that can hold in
/// some reachable state (a relaxed over-approximation) and every rule
/// instance over them (static literals and `distinct` resolved). The fast
/// engine's network and the relaxed planning problem (`crate::plan`) are
/// both built from it.
pub struct GroundProgram {
    pub store: TermStore,
    pub roles: Vec<TermId>,
    pub atoms: instantiate::Atoms,
    pub rels: Vec<instantiate::Relation>,
    pub inst: instantiate::Instances,
    pub rel_init: Option<RelId>,
    pub rel_next: Option<RelId>,
    pub rel_legal: Option<RelId>,
    pub rel_does: Option<RelId>,
    pub rel_goal: Option<RelId>,
    pub rel_terminal: Option<RelId>,
    /// GDL-II's `sees`, where the game defines it.
    pub rel_sees: Option<RelId>,
    /// `(true (f a b))` is the atom `(true_tables[(f, 2)] a b)`.
    pub true_tables: FxHashMap<(Sym, u32), RelId>,
    /// Or, for fluents read by a variable, `(true_all f)`.
    pub true_all: Option<RelId>,
    /// Base fluents: every `init` fluent and every reachable `next` fluent.
    pub fluents: Vec<TermId>,
    pub base_of: FxHashMap<TermId, u32>,
    /// Indices into `fluents` of the initial state.
    pub init: Vec<u32>,
    /// Instances `0..facts` are facts (no body).
    pub facts: usize,
    pub rules: usize,
    pub aux_rules: usize,
    /// Rules evaluated as exclusions (`exclusion.rs`).
    pub exclusions: usize,
    /// Rules evaluated as counts, "at least k of" (`count.rs`).
    pub counting_rules: usize,
    /// Recursions rewritten as folds (`fold.rs`).
    pub folds: usize,
    pub rounds: usize,
    pub peak_bytes: usize,
}

impl GroundProgram {
    /// The atom `(true f)` reads, if some rule reads it.
    pub fn true_atom(&self, f: TermId) -> Option<AtomId> {
        let key = (self.store.functor(f), self.store.arity(f) as u32);
        self.true_tables
            .get(&key)
            .and_then(|&t| self.atoms.find(t as u32, self.store.args_of(f)))
            .or_else(|| self.true_all.and_then(|t| self.atoms.find(t as u32, &[f])))
    }
}

/// Grounds a game (a program without errors) over its reachable atoms. An
/// interpreter with limits derived from the budget provides the static
/// relations, the roles and the compiled rules.
pub fn ground_program(program: &Program, budget: Budget) -> Result<GroundProgram, GroundError> {
    let t0 = now_ms();
    // The first strategy gets a part of the atom and literal budgets (every
    // corpus game it grounds needs at most 1.33M atoms and 3.3M literals);
    // over them, or out of memory, the second strategy (demand.rs) gets the
    // whole budget in the time left, and if that fails too the first
    // strategy the rest. Games that ground the first way are unchanged.
    // A budget over twice the default also splits the time: the first
    // strategy stops at half of it (at least the default's 20 s, which no
    // corpus game it grounds needs), so that the second gets a chance
    // (alexChess: the first strategy runs out of time, demand grounds it).
    let first_budget = Budget {
        max_atoms: budget.max_atoms.min(FIRST_ATOMS),
        max_literals: budget.max_literals.min(FIRST_LITERALS),
        max_ms: budget.max_ms.min(FIRST_MS.max(budget.max_ms / 2.0)),
        ..budget
    };
    // The first attempt is untyped (types.rs costs time and changes no
    // network the first strategy builds on the corpus); the others typed.
    // It splits frame rules such as "a pit keeps its seeds when another is
    // sown" into "another is sown" per pit (`Strategy::guards`);
    // `GDLKIT_GROUND_NO_GUARD_SPLITS` (native, a diagnostic) does not.
    // It moves dynamic filters into the auxiliaries that keep their
    // variables (`Strategy::filters`; `GDLKIT_GROUND_NO_FILTERS` does not).
    let first = rules::Strategy {
        untyped: true,
        guards: std::env::var_os("GDLKIT_GROUND_NO_GUARD_SPLITS").is_none(),
        filters: std::env::var_os("GDLKIT_GROUND_NO_FILTERS").is_none(),
        ..rules::Strategy::default()
    };
    let mut result = ground_with_strategy(program, first_budget, first);
    let out_of_time = |r: &Result<GroundProgram, GroundError>| {
        matches!(
            r,
            Err(GroundError::Budget {
                what: "milliseconds",
                ..
            })
        )
    };
    let retry = |r: &Result<GroundProgram, GroundError>| {
        matches!(r, Err(GroundError::Budget { .. }))
            && (!out_of_time(r) || first_budget.max_ms < budget.max_ms)
    };
    let left = |t0: f64| budget.max_ms - (now_ms() - t0);
    if retry(&result) && left(t0) > 0.0 {
        let demand = rules::Strategy {
            demand: true,
            project_first: true,
            ..rules::Strategy::default()
        };
        let b = Budget {
            max_ms: left(t0),
            ..budget
        };
        let second = ground_with_strategy(program, b, demand);
        let first_capped = match result {
            Err(GroundError::Budget {
                what: "ground atoms",
                ..
            }) => budget.max_atoms > FIRST_ATOMS,
            Err(GroundError::Budget {
                what: "literals in rule instances",
                ..
            }) => budget.max_literals > FIRST_LITERALS,
            _ => false,
        };
        result = second;
        if retry(&result) && first_capped && left(t0) > 0.0 {
            let b = Budget {
                max_ms: left(t0),
                ..budget
            };
            let typed = rules::Strategy {
                guards: true,
                ..rules::Strategy::default()
            };
            result = ground_with_strategy(program, b, typed);
        }
    }
    // The first strategy stopped at its own caps (below the budget's) and
    // no time was left for the next: the time ran out, not the budget.
    let left_at_first_caps = matches!(
        result,
        Err(GroundError::Budget { what: "ground atoms", limit }) if (limit as usize) < budget.max_atoms
    ) || matches!(
        result,
        Err(GroundError::Budget { what: "literals in rule instances", limit }) if (limit as usize) < budget.max_literals
    );
    if out_of_time(&result) || left_at_first_caps {
        // The whole budget, not the last attempt's share of it.
        result = Err(GroundError::Budget {
            what: "milliseconds",
            limit: budget.max_ms as u64,
        });
    }
    result
}

/// Milliseconds the first strategy may use of a large time budget.
const FIRST_MS: f64 = 20_000.0;

/// Atoms the first strategy may use before the demand-driven one is tried.
const FIRST_ATOMS: usize = 1_500_000;
/// Literals the first strategy may use before the second is tried.
const FIRST_LITERALS: usize = 5_000_000;

/// A fast engine grounded with one strategy only (tests).
#[cfg(test)]
pub fn ground_with_strategy_for_tests(
    program: &Program,
    budget: Budget,
    strategy: rules::Strategy,
) -> Result<FastEngine, GroundError> {
    engine_of(ground_with_strategy(program, budget, strategy)?, now_ms())
}

/// Grounds with one strategy only (no second attempt); tests compare them.
#[cfg(test)]
pub fn ground_program_with_strategy(
    program: &Program,
    budget: Budget,
    strategy: rules::Strategy,
) -> Result<GroundProgram, GroundError> {
    ground_with_strategy(program, budget, strategy)
}

fn ground_with_strategy(
    program: &Program,
    budget: Budget,
    strategy: rules::Strategy,
) -> Result<GroundProgram, GroundError> {
    let mut prof = profile::Profile::default();
    let r = ground_program_with(program, budget, strategy, &mut prof);
    match &r {
        Ok(gp) => {
            prof.sizes = gp.rels.iter().map(|r| r.rows.len()).collect();
            prof.print("grounded");
        }
        Err(e) => prof.print(&e.to_string()),
    }
    r
}

/// Grounds a game (a program without errors) into a fast engine.
pub fn ground(program: &Program, budget: Budget) -> Result<FastEngine, GroundError> {
    let t0 = now_ms();
    let gp = ground_program(program, budget)?;
    engine_of(gp, t0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The demand-driven strategy grounds a game over the first one's budget.
    #[test]
    fn the_second_strategy_grounds_what_the_first_cannot() {
        let program = crate::parse_program(include_str!("../../testdata/demand_game.kif"));
        let small = Budget {
            max_atoms: 2_000,
            max_ms: 600_000.0,
            ..Budget::default()
        };
        let first = rules::Strategy {
            untyped: true,
            ..rules::Strategy::default()
        };
        let plain = ground_program_with_strategy(&program, small, first);
        assert!(plain.is_err(), "the plain grounding fits in 2,000 atoms");
        let gp = ground_program(&program, small).expect("demand grounds it");
        assert!(gp.atoms.len() < 2_000);
    }
}
