//! Solving games: the value of every reachable state under perfect play.
//!
//! [`SolveJob`] enumerates the reachable states breadth-first on the
//! game's [`Engine`] (the fast engine's bit vectors, or the interpreter's
//! states when the game does not ground), indexes them by content key
//! ([`StateMachine::state_key`]) and records the successor graph; then a
//! retrograde analysis (`retro.rs`) gives each state its goal values under
//! perfect play and the number of moves to the end. The solution concepts
//! ([`Concept`], `docs/solve.md`):
//!
//! - **one role**: the best goal reachable and the fewest moves to it;
//! - **two roles, zero-sum, taking turns**: minimax (computed as attractors,
//!   so positions that can repeat for ever get no value unless one role can
//!   force the game to end);
//! - **two roles, other goal pairs, taking turns**: each mover maximises its
//!   own goal, ties broken by the opponent's lower goal (the thesis' minimax
//!   adaptation, 3.2.3); states on or above a cycle get no value.
//! - **two roles, zero-sum, both choosing at once** (in some or all
//!   states): a state where both choose has a value when a saddle point in
//!   pure moves gives it (one move of each role secures it whatever the
//!   other plays); where only a mixed strategy would, the state and those
//!   that must pass through it get none (the graph solver only).
//!
//! More than two roles are refused with the reason; in a game that is not
//! zero-sum, states where both roles choose get no value.
//! GDL-II games (chance and hidden information) are solved over their
//! information sets instead (`chance/`).
//! Moves to the end: the role that gets more hurries, the other delays
//! (win fastest, lose slowest), each keeping the value; on equal goals the
//! first role hurries and the second delays.
//!
//! Two explicit solvers share that semantics: games on the fast engine
//! whose moves all lead from one breadth-first layer to the next take the
//! packed solver (`packed/`: the states' words, a compact index, no edges,
//! on all cores); the others, and a game found not to be layered, the
//! graph solver (`graph.rs`), which stores the successor graph.
//!
//! The job is resumable (`step`), stops at its time limit, at 3/4 of the
//! memory budget, on cancellation or at [`Limits::max_states`], and then
//! gives a *partial* solution: the values it claims are proved on the
//! states explored (unexplored states count as unknown for both roles).

pub mod chance;
mod file;
mod graph;
mod job;
mod packed;
mod position;
mod retro;
mod solution;
pub mod symbolic;
#[cfg(test)]
mod tests;

pub use chance::{solve_chance, solve_gdl2, ChanceLimits, ChanceSolution};
pub use file::{read_solution, write_solution, FORMAT_VERSION};
pub use job::{Progress, SolveJob};
pub use packed::solve_spilled;
pub use position::{outcome, MoveEntry, Outcome, Position};
pub(crate) use solution::{Depths, Lookup};
pub use solution::{Solution, Summary, ValueCount};
pub use symbolic::{
    solve_symbolic, SymbolicCount, SymbolicLimits, SymbolicStats, SymbolicSummary, VarOrder,
};

use crate::engine::Engine;
use crate::reasoner::{EvalError, StateMachine};
use crate::terms::TermId;
use rustc_hash::FxHashMap;
use serde::Serialize;

/// A goal value that is not known ([`Solution`] values).
pub(crate) const UNKNOWN: u8 = u8::MAX;

/// How much a solve may do.
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// Wall-clock seconds. The graph solver explores until then and runs
    /// its retrograde analysis (linear in the edges) to its end after; the
    /// packed solver explores for 55% of it and stops its backward pass at
    /// the end (the layers above it then stay unknown).
    pub seconds: f64,
    /// Distinct states at most.
    pub max_states: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            seconds: 60.0,
            max_states: 100_000_000,
        }
    }
}

/// The solution concept applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "SolveConcept"))]
pub enum Concept {
    /// One role: the best reachable goal, the fewest moves to it.
    OnePlayer,
    /// Two roles taking turns, goals summing to a constant: minimax.
    ZeroSum,
    /// Two roles taking turns, other goal pairs: each mover maximises its
    /// own goal, ties broken by the opponent's lower goal.
    GeneralSum,
}

impl Concept {
    pub fn name(self) -> &'static str {
        match self {
            Concept::OnePlayer => "one-player",
            Concept::ZeroSum => "zero-sum",
            Concept::GeneralSum => "general-sum",
        }
    }
    fn from_name(s: &str) -> Option<Concept> {
        [Concept::OnePlayer, Concept::ZeroSum, Concept::GeneralSum]
            .into_iter()
            .find(|c| c.name() == s)
    }
}

/// A state's value under perfect play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "SolvedValue")
)]
pub struct Value {
    /// Each role's goal, in role order.
    pub goals: Vec<u8>,
    /// Moves (plies) to the end under that play.
    pub moves_to_end: u32,
}

/// One legal move of the role to move, with the value it leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveValue {
    pub r#move: TermId,
    /// `None`: the successor has no value in the solution.
    pub value: Option<Value>,
}

/// Figures of a solve.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "SolveStats")
)]
pub struct Stats {
    /// Distinct reachable states found.
    pub states: u64,
    /// Of which expanded (all of them when complete).
    pub expanded: u64,
    pub terminal: u64,
    /// Edges of the successor graph (the mover's moves; where both roles
    /// choose, every pair of moves).
    pub edges: u64,
    /// States where both roles choose at once.
    pub simultaneous: u64,
    pub seconds: f64,
    pub states_per_second: f64,
    /// Bytes of the explored graph per state (states, index, edges, values).
    pub bytes_per_state: f64,
    /// Bytes the solve held at most (estimate from its containers).
    pub peak_bytes: u64,
}

/// Why a game cannot be solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal(pub String);

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refusal {}

impl From<EvalError> for Refusal {
    fn from(e: EvalError) -> Refusal {
        Refusal(e.to_string())
    }
}

/// Counts of states per goal pair, best first for the first role, each
/// pair cut to `roles` goals (`None`: unknown).
pub(crate) fn sorted_counts(
    counts: FxHashMap<[u8; 2], u64>,
    roles: usize,
) -> Vec<(Option<Vec<u8>>, u64)> {
    let mut v: Vec<_> = counts.into_iter().collect();
    v.sort_by_key(|&(g, _)| (g[0] == UNKNOWN, std::cmp::Reverse(g[0]), g[1]));
    v.into_iter()
        .map(|(g, n)| ((g[0] != UNKNOWN).then(|| g[..roles].to_vec()), n))
        .collect()
}

/// What kind of state an index is (the explored graph).
pub(crate) mod kind {
    /// Role 0 or 1 is the only role with a choice (one role: always 0).
    pub const FORCED: u8 = 2;
    pub const TERMINAL: u8 = 3;
    /// Found but not expanded (a partial exploration).
    pub const OPEN: u8 = 4;
    /// Both roles choose: the successors are a matrix, role 0's moves
    /// its rows (the graph solver only).
    pub const SIMULTANEOUS: u8 = 5;
}

/// Why an exploration must stop now, if it must: cancellation, the
/// deadline (ms), the state limit, 3/4 of the memory budget.
pub(crate) fn limit_reason(limits: &Limits, deadline: f64, states: usize) -> Option<String> {
    if crate::job::cancelled() {
        return Some("cancelled".into());
    }
    if crate::clock::now_ms() >= deadline || crate::job::soft_passed() {
        return Some(format!("the time limit ({:.1} s) passed", limits.seconds));
    }
    if states >= limits.max_states {
        return Some(format!("{} states (the state limit)", limits.max_states));
    }
    if crate::memory::above(0.75) {
        return Some(format!(
            "3/4 of the memory budget ({} MB) is in use",
            crate::memory::budget_mb()
        ));
    }
    crate::job::check().err().map(|e| e.to_string())
}

/// The number of roles, when solving covers it (one or two).
pub(crate) fn check_roles(engine: &Engine) -> Result<usize, Refusal> {
    match engine.roles().len() {
        n @ (1 | 2) => Ok(n),
        n => Err(Refusal(format!(
            "the game has {n} roles: solving covers one role (best plan) and two roles taking turns (minimax); more roles have no single solved value"
        ))),
    }
}
/// Solves a game on `engine` within `limits`, reporting progress
/// ([`crate::job::progress`]).
pub fn solve(engine: Engine, limits: Limits) -> Result<Solution, Refusal> {
    let mut job = SolveJob::new(engine, limits)?;
    loop {
        let p = job.step(65536);
        if p.done {
            break;
        }
        crate::job::progress("solve", || {
            format!(
                "{} states, {} expanded, {} valued",
                p.states, p.expanded, p.valued
            )
        });
    }
    job.finish()
}

/// What [`solve_picked`] solved with.
pub enum Picked {
    Explicit(Solution),
    /// The explicit states did not fit (`explicit` says where it stopped);
    /// the BDDs got the rest of the time.
    Symbolic {
        summary: SymbolicSummary,
        explicit: String,
    },
}

/// Solves by enumeration and, when the states do not fit (the state limit
/// or 3/4 of the memory budget) with time left, with BDDs instead: the
/// measured choice (`BENCHMARKS.md`, "Solving": enumeration wins wherever
/// its states fit, about 24 bytes each). `program` is the game's rules
/// for the BDD solver, which grounds them itself.
pub fn solve_picked(
    engine: Engine,
    program: &crate::program::Program,
    limits: Limits,
    symbolic: SymbolicLimits,
) -> Result<Picked, Refusal> {
    let started = crate::clock::now_ms();
    // The BDD solver grounds the game as the fast engine does.
    let grounds = matches!(engine, Engine::Fast(_));
    let solution = solve(engine, limits.clone())?;
    let full = grounds
        && (solution.stats.states as usize >= limits.max_states || crate::memory::above(0.75));
    let left = limits.seconds - (crate::clock::now_ms() - started) / 1000.0;
    if solution.complete || !full || left < 1.0 || crate::job::cancelled() {
        return Ok(Picked::Explicit(solution));
    }
    let explicit = format!(
        "{} states found ({})",
        solution.stats.states,
        solution.stopped.as_deref().unwrap_or("stopped")
    );
    // Its memory is the BDDs' now.
    drop(solution);
    let limits = SymbolicLimits {
        seconds: left,
        ..symbolic
    };
    let summary = solve_symbolic(program, &limits)?;
    Ok(Picked::Symbolic { summary, explicit })
}

/// The player hook: a complete solution of the game on a copy of `engine`
/// within `limits`, or `None` (refused, or not complete in time).
pub fn try_solve(engine: &Engine, limits: Limits) -> Option<Solution> {
    solve(engine.clone(), limits).ok().filter(|s| s.complete)
}
