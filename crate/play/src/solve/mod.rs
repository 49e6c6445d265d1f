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
mod packed;
mod position;
mod retro;
pub mod symbolic;
#[cfg(test)]
mod tests;

pub use chance::{solve_chance, solve_gdl2, ChanceLimits, ChanceSolution};
pub use file::{read_solution, write_solution, FORMAT_VERSION};
pub use packed::solve_spilled;
pub use position::{outcome, MoveEntry, Outcome, Position};
pub use symbolic::{
    solve_symbolic, SymbolicCount, SymbolicLimits, SymbolicStats, SymbolicSummary, VarOrder,
};

use crate::engine::{Engine, EngineState};
use crate::ground::BitState;
use crate::reasoner::{content_keys::Key, EvalError, StateMachine};
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

/// A solved (or partially solved) game: per state index its value.
#[derive(Clone, Debug)]
pub struct Solution {
    pub concept: Concept,
    /// Role names, in role order.
    pub roles: Vec<String>,
    /// `"fast"` or `"interpreter"`: the engine whose state keys index it.
    pub engine: String,
    /// Every reachable state was explored.
    pub complete: bool,
    /// Why the exploration stopped early.
    pub stopped: Option<String>,
    pub stats: Stats,
    pub(crate) lookup: Lookup,
    /// Per state index: goal per role (one or two bytes used), UNKNOWN.
    pub(crate) goals: Vec<[u8; 2]>,
    pub(crate) depth: Depths,
}

/// How a solution finds a state's index.
#[derive(Clone, Debug)]
pub(crate) enum Lookup {
    /// By content key (the graph solver, and solution files).
    Keys(FxHashMap<Key, u32>),
    /// By the fast engine's words (the packed solver).
    Packed {
        states: packed::States,
        index: packed::Index,
    },
}

impl Lookup {
    /// Each state's content key, in index order.
    pub(crate) fn keys(&self, n: usize) -> Vec<Key> {
        match self {
            Lookup::Keys(map) => {
                let mut keys = vec![0; n];
                for (&k, &i) in map {
                    keys[i as usize] = k;
                }
                keys
            }
            Lookup::Packed { states, .. } => (0..states.len())
                .map(|i| {
                    crate::reasoner::content_keys::hash128(&BitState(
                        states.get(i).iter().copied().collect(),
                    ))
                })
                .collect(),
        }
    }
}

/// Moves to the end per state, in as few bytes as the longest needs.
#[derive(Clone, Debug)]
pub(crate) enum Depths {
    Narrow(Vec<u8>),
    Mid(Vec<u16>),
    Wide(Vec<u32>),
}

impl Depths {
    pub(crate) fn narrow(v: Vec<u32>) -> Depths {
        let max = v.iter().copied().max().unwrap_or(0);
        if max <= u32::from(u8::MAX) {
            Depths::Narrow(v.into_iter().map(|d| d as u8).collect())
        } else if max <= u32::from(u16::MAX) {
            Depths::Mid(v.into_iter().map(|d| d as u16).collect())
        } else {
            Depths::Wide(v)
        }
    }
    pub(crate) fn get(&self, i: usize) -> u32 {
        match self {
            Depths::Narrow(v) => u32::from(v[i]),
            Depths::Mid(v) => u32::from(v[i]),
            Depths::Wide(v) => v[i],
        }
    }
    fn bytes(&self) -> usize {
        match self {
            Depths::Narrow(v) => v.capacity(),
            Depths::Mid(v) => v.capacity() * 2,
            Depths::Wide(v) => v.capacity() * 4,
        }
    }
}

impl Solution {
    /// Number of states (index 0 is the initial state).
    pub fn len(&self) -> usize {
        self.goals.len()
    }

    pub fn is_empty(&self) -> bool {
        self.goals.is_empty()
    }

    /// The value of the state with index `i`.
    pub fn value_at(&self, i: usize) -> Option<Value> {
        let g = self.goals.get(i)?;
        if g[0] == UNKNOWN {
            return None;
        }
        Some(Value {
            goals: g[..self.roles.len()].to_vec(),
            moves_to_end: self.depth.get(i),
        })
    }

    /// The index of `state` (a state of `engine`, the engine the solution
    /// was made with); `None` when not reached.
    pub fn index_of(&self, engine: &mut Engine, state: &EngineState) -> Option<usize> {
        if engine.name() != self.engine {
            return None;
        }
        match (&self.lookup, state) {
            (Lookup::Keys(map), _) => map.get(&engine.state_key(state)).map(|&i| i as usize),
            (Lookup::Packed { states, index }, EngineState::Bits(b)) => {
                match index.find(states, &b.0, packed::hash(&b.0)) {
                    packed::Found::At(i) => Some(i as usize),
                    packed::Found::Absent(_) => None,
                }
            }
            (Lookup::Packed { .. }, EngineState::Fluents(_)) => None,
        }
    }

    /// The value of `state` (a state of `engine`, the engine the solution
    /// was made with); `None` when unknown or not reached.
    pub fn value_of(&self, engine: &mut Engine, state: &EngineState) -> Option<Value> {
        self.value_at(self.index_of(engine, state)?)
    }

    /// The initial state's value.
    pub fn initial(&self) -> Option<Value> {
        self.value_at(0)
    }

    /// Number of states per value (`None`: unknown), best first for the
    /// first role.
    pub fn counts(&self) -> Vec<(Option<Vec<u8>>, u64)> {
        let mut counts: FxHashMap<[u8; 2], u64> = FxHashMap::default();
        for g in &self.goals {
            *counts.entry(*g).or_default() += 1;
        }
        sorted_counts(counts, self.roles.len())
    }

    /// Every legal move of `role` in `state` with the value it leads to.
    /// Empty when `role` is not the only role with a choice there.
    pub fn move_values(
        &self,
        engine: &mut Engine,
        state: &EngineState,
        role: usize,
    ) -> Result<Vec<MoveValue>, EvalError> {
        if engine.is_terminal(state)? {
            return Ok(Vec::new());
        }
        let legal = engine.all_legal_moves(state)?;
        self.values_of_moves(engine, state, role, &legal)
    }

    /// [`Solution::move_values`] in a non-terminal `state` with these
    /// `legal` moves per role.
    fn values_of_moves(
        &self,
        engine: &mut Engine,
        state: &EngineState,
        role: usize,
        legal: &[Vec<TermId>],
    ) -> Result<Vec<MoveValue>, EvalError> {
        if legal
            .iter()
            .enumerate()
            .any(|(r, m)| r != role && m.len() != 1)
        {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        for &m in legal.get(role).map_or(&[][..], Vec::as_slice) {
            let joint: Vec<TermId> = (0..legal.len())
                .map(|r| if r == role { m } else { legal[r][0] })
                .collect();
            let next = engine.next_state(state, &joint)?;
            out.push(MoveValue {
                r#move: m,
                value: self.value_of(engine, &next),
            });
        }
        Ok(out)
    }

    /// The moves of `role` in `state` that keep its solved value (for a
    /// winner the fastest, for a loser the slowest); empty when the state
    /// is not covered by the solution or `role` is not to move.
    pub fn best_moves(
        &self,
        engine: &mut Engine,
        state: &EngineState,
        role: usize,
    ) -> Result<Vec<MoveValue>, EvalError> {
        let moves = self.move_values(engine, state, role)?;
        Ok(self.best_of(moves, role))
    }

    /// The moves among `moves` whose value `role` likes most.
    fn best_of(&self, moves: Vec<MoveValue>, role: usize) -> Vec<MoveValue> {
        let rank = |v: &Value| self.preference(role, v);
        let Some(best) = moves
            .iter()
            .filter_map(|m| m.value.as_ref())
            .map(rank)
            .max()
        else {
            return Vec::new();
        };
        moves
            .into_iter()
            .filter(|m| m.value.as_ref().map(rank) == Some(best))
            .collect()
    }

    /// The move a player of `role` makes in `state` from the solution, or
    /// `None` when it does not settle the choice (search instead). Every
    /// move valued: a best one. Some left open (a partial solution, or a
    /// cycle nobody can force an end of): only a proved goal of 100, since
    /// an open move might beat any other valued one.
    ///
    /// Where both roles choose, a move that secures the state's value
    /// whatever the other plays (among those, the one best on average over
    /// the other's moves), or `None` when the state has no value.
    pub fn solved_move(
        &self,
        engine: &mut Engine,
        state: &EngineState,
        role: usize,
    ) -> Result<Option<TermId>, EvalError> {
        if engine.is_terminal(state)? {
            return Ok(None);
        }
        let legal = engine.all_legal_moves(state)?;
        if legal.len() == 2 && legal.iter().all(|m| m.len() > 1) {
            return self.securing_move(engine, state, role, &legal);
        }
        let moves = self.values_of_moves(engine, state, role, &legal)?;
        Ok(self.solved_of(moves, role))
    }

    /// Where both roles choose (`legal`, per role): a move of `role` whose
    /// every outcome is valued and worth at least the state's value to it.
    fn securing_move(
        &self,
        engine: &mut Engine,
        state: &EngineState,
        role: usize,
        legal: &[Vec<TermId>],
    ) -> Result<Option<TermId>, EvalError> {
        let Some(value) = self.value_of(engine, state) else {
            return Ok(None);
        };
        let mut best: Option<(u32, TermId)> = None;
        for &m in &legal[role] {
            let mut total = 0;
            let mut secure = true;
            for &o in &legal[1 - role] {
                let joint = if role == 0 { [m, o] } else { [o, m] };
                let next = engine.next_state(state, &joint)?;
                match self.value_of(engine, &next) {
                    Some(v) if v.goals[role] >= value.goals[role] => {
                        total += u32::from(v.goals[role])
                    }
                    _ => {
                        secure = false;
                        break;
                    }
                }
            }
            if secure && best.is_none_or(|(t, _)| total > t) {
                best = Some((total, m));
            }
        }
        Ok(best.map(|(_, m)| m))
    }

    /// [`Solution::solved_move`] among `moves` (`move_values`' result).
    fn solved_of(&self, moves: Vec<MoveValue>, role: usize) -> Option<TermId> {
        let open = moves.iter().any(|m| m.value.is_none());
        self.best_of(moves, role)
            .into_iter()
            .find(|m| !open || m.value.as_ref().is_some_and(|v| v.goals[role] == 100))
            .map(|m| m.r#move)
    }

    /// Whether the solution is of `engine`'s game: the same roles in the
    /// same order (a loaded file's state keys are then those of `engine`
    /// when it is the engine named in the file).
    pub fn of_roles(&self, engine: &Engine) -> Result<(), crate::error::SolutionError> {
        let roles: Vec<String> = engine
            .roles()
            .iter()
            .map(|&r| engine.terms().display(r))
            .collect();
        if self.roles == roles {
            return Ok(());
        }
        Err(crate::error::SolutionError(format!(
            "the solution is of roles {}; this game has roles {}",
            self.roles.join(", "),
            roles.join(", ")
        )))
    }

    /// How much `role` likes a successor's value: its own goal, then the
    /// opponent's lower goal (general-sum), then fewer moves when it
    /// hurries (`retro::hurry`), more otherwise.
    fn preference(&self, role: usize, v: &Value) -> (u8, u8, i64) {
        let d = i64::from(v.moves_to_end);
        if v.goals.len() == 1 {
            return (v.goals[0], 0, -d);
        }
        let goals = [v.goals[0], v.goals[1]];
        let tie = if self.concept == Concept::GeneralSum {
            u8::MAX - goals[1 - role]
        } else {
            0
        };
        let pace = if retro::hurry(goals, role) { -d } else { d };
        (goals[role], tie, pace)
    }
}

/// Where a solve is; cheap to produce after every step.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "SolveProgress")
)]
pub struct Progress {
    /// Distinct states found so far.
    pub states: u64,
    /// States expanded.
    pub expanded: u64,
    pub edges: u64,
    /// States given their value so far (the packed solver's backward
    /// pass; the graph solver values all at once when it finishes).
    pub valued: u64,
    /// Nothing left to step: `finish` gives the solution.
    pub done: bool,
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

/// A resumable solve (natively [`solve`] runs one; the wasm worker steps
/// it to report progress and stop on cancellation): the packed solver
/// where the game allows, else the graph solver.
pub struct SolveJob {
    inner: Inner,
}

enum Inner {
    Packed(Box<packed::PackedJob>),
    Graph(Box<graph::GraphJob>),
}

impl SolveJob {
    /// A job on `engine`; refuses games with more than two roles.
    pub fn new(engine: Engine, limits: Limits) -> Result<SolveJob, Refusal> {
        check_roles(&engine)?;
        let started = crate::clock::now_ms();
        let inner = match packed::PackedJob::new(&engine, limits.clone(), started) {
            Some(job) => Inner::Packed(Box::new(job)),
            None => Inner::Graph(Box::new(graph::GraphJob::new(engine, limits, started)?)),
        };
        Ok(SolveJob { inner })
    }

    /// The engine the job runs on.
    pub fn engine(&self) -> &Engine {
        match &self.inner {
            Inner::Packed(job) => job.engine(),
            Inner::Graph(job) => job.engine(),
        }
    }

    /// Does about `budget` states' work and reports where the solve is.
    pub fn step(&mut self, budget: usize) -> Progress {
        let Inner::Packed(job) = &mut self.inner else {
            let Inner::Graph(job) = &mut self.inner else {
                unreachable!()
            };
            return job.step(budget);
        };
        match job.step(budget) {
            packed::Step::Progress(p) => p,
            packed::Step::NotLayered => {
                // The graph solver from the start, within the same limits.
                let (limits, started) = job.limits();
                match graph::GraphJob::new(job.engine().clone(), limits, started) {
                    Ok(g) => {
                        self.inner = Inner::Graph(Box::new(g));
                        self.step(budget)
                    }
                    Err(r) => {
                        job.refuse(r);
                        job.progress()
                    }
                }
            }
        }
    }

    /// Ends the exploration now; what was explored is still valued.
    pub fn stop(&mut self) {
        match &mut self.inner {
            Inner::Packed(job) => job.stop(),
            Inner::Graph(job) => job.stop(),
        }
    }

    pub fn progress(&self) -> Progress {
        match &self.inner {
            Inner::Packed(job) => job.progress(),
            Inner::Graph(job) => job.progress(),
        }
    }

    /// The solution (partial when the exploration stopped early), or why
    /// the game is refused.
    pub fn finish(self) -> Result<Solution, Refusal> {
        match self.inner {
            Inner::Packed(job) => job.finish(),
            Inner::Graph(job) => job.finish(),
        }
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

/// Number of states with one value (`goals` `None`: unknown).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "SolveValueCount")
)]
pub struct ValueCount {
    pub goals: Option<Vec<u8>>,
    pub states: u64,
}

/// What `gdlkit solve` and the JavaScript `solve()` report.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "SolveSummary")
)]
pub struct Summary {
    pub concept: Concept,
    pub roles: Vec<String>,
    /// `"fast"` or `"interpreter"`.
    pub engine: String,
    pub complete: bool,
    /// Why the exploration stopped early (a partial solution).
    pub stopped: Option<String>,
    /// The initial state's value under perfect play (`None`: unknown).
    pub initial: Option<Value>,
    /// States by value, best first for the first role.
    pub by_value: Vec<ValueCount>,
    pub stats: Stats,
}

impl Solution {
    pub fn summary(&self) -> Summary {
        Summary {
            concept: self.concept,
            roles: self.roles.clone(),
            engine: self.engine.clone(),
            complete: self.complete,
            stopped: self.stopped.clone(),
            initial: self.initial(),
            by_value: self
                .counts()
                .into_iter()
                .map(|(goals, states)| ValueCount { goals, states })
                .collect(),
            stats: self.stats.clone(),
        }
    }
}
