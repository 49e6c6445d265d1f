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
//!
//! Simultaneous moves and more than two roles are refused with the reason.
//! GDL-II games (chance and hidden information) are solved over their
//! information sets instead (`chance/`).
//! Moves to the end: the role that gets more hurries, the other delays
//! (win fastest, lose slowest), each keeping the value; on equal goals the
//! first role hurries and the second delays.
//!
//! The job is resumable (`step`), stops at its time limit, at 3/4 of the
//! memory budget, on cancellation or at [`Limits::max_states`], and then
//! gives a *partial* solution: the values it claims are proved on the
//! states explored (unexplored states count as unknown for both roles).

pub mod chance;
mod file;
mod position;
mod retro;
pub mod symbolic;
#[cfg(test)]
mod tests;

pub use chance::{solve_chance, solve_gdl2, ChanceLimits, ChanceSolution};
pub use file::{read_solution, write_solution, FORMAT_VERSION};
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
    /// Wall-clock seconds for the exploration (the retrograde analysis,
    /// linear in the edges, always runs to its end).
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
    /// Edges of the successor graph (the mover's moves).
    pub edges: u64,
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
    pub(crate) index: FxHashMap<Key, u32>,
    /// Per state index: goal per role (one or two bytes used), UNKNOWN.
    pub(crate) goals: Vec<[u8; 2]>,
    pub(crate) depth: Vec<u32>,
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
            moves_to_end: self.depth[i],
        })
    }

    /// The index of a state, by its content key.
    pub fn index_of(&self, key: Key) -> Option<usize> {
        self.index.get(&key).map(|&i| i as usize)
    }

    /// The value of `state` (a state of `engine`, the engine the solution
    /// was made with); `None` when unknown or not reached.
    pub fn value_of(&self, engine: &mut Engine, state: &EngineState) -> Option<Value> {
        if engine.name() != self.engine {
            return None;
        }
        self.value_at(self.index_of(engine.state_key(state))?)
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
        let mut v: Vec<_> = counts.into_iter().collect();
        v.sort_by_key(|&(g, _)| (g[0] == UNKNOWN, std::cmp::Reverse(g[0]), g[1]));
        v.into_iter()
            .map(|(g, n)| {
                let value = (g[0] != UNKNOWN).then(|| g[..self.roles.len()].to_vec());
                (value, n)
            })
            .collect()
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
    pub fn solved_move(
        &self,
        engine: &mut Engine,
        state: &EngineState,
        role: usize,
    ) -> Result<Option<TermId>, EvalError> {
        let moves = self.move_values(engine, state, role)?;
        Ok(self.solved_of(moves, role))
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
    /// The exploration ended (the retrograde analysis is next).
    pub done: bool,
}

/// The explored states: the fast engine's words in one flat vector, or
/// the interpreter's states.
enum Store {
    Bits { words: usize, data: Vec<u64> },
    States(Vec<EngineState>),
}

impl Store {
    fn get(&self, i: usize) -> EngineState {
        match self {
            Store::Bits { words, data } => {
                let w = &data[i * words..(i + 1) * words];
                EngineState::Bits(BitState(w.iter().copied().collect()))
            }
            Store::States(v) => v[i].clone(),
        }
    }
    fn push(&mut self, s: EngineState) {
        match (self, s) {
            (Store::Bits { data, .. }, EngineState::Bits(b)) => data.extend_from_slice(&b.0),
            (Store::States(v), s) => v.push(s),
            (Store::Bits { .. }, EngineState::Fluents(_)) => {
                unreachable!("the fast engine's states are bits")
            }
        }
    }
    fn bytes(&self) -> usize {
        match self {
            Store::Bits { data, .. } => data.capacity() * 8,
            // Estimate: a fluent state's vector of ids and its header.
            Store::States(v) => v.iter().map(|s| 48 + state_heap_bytes(s)).sum(),
        }
    }
}

fn state_heap_bytes(s: &EngineState) -> usize {
    match s {
        EngineState::Bits(b) => b.0.len() * 8,
        EngineState::Fluents(f) => f.fluents().len() * 4,
    }
}

/// What kind of state an index is (the explored graph).
pub(crate) mod kind {
    /// Role 0 or 1 is the only role with a choice (one role: always 0).
    pub const FORCED: u8 = 2;
    pub const TERMINAL: u8 = 3;
    /// Found but not expanded (a partial exploration).
    pub const OPEN: u8 = 4;
}

/// The explored state graph, the input of the retrograde analysis.
pub(crate) struct Graph {
    pub roles: usize,
    /// Per state: the mover (0, 1), or a [`kind`].
    pub kind: Vec<u8>,
    /// Terminal states' goals.
    pub goals: Vec<[u8; 2]>,
    /// Successors of expanded state `i`: `succ[start[i]..start[i + 1]]`.
    pub start: Vec<u32>,
    pub succ: Vec<u32>,
}

/// A resumable solve (natively [`solve`] runs one; the wasm worker steps
/// it to report progress and stop on cancellation).
pub struct SolveJob {
    engine: Engine,
    limits: Limits,
    started_ms: f64,
    store: Store,
    index: FxHashMap<Key, u32>,
    graph: Graph,
    /// Why the exploration stopped before the end.
    stopped: Option<String>,
    refusal: Option<Refusal>,
    peak_bytes: usize,
}

impl SolveJob {
    /// A job on `engine`; refuses games with more than two roles.
    pub fn new(mut engine: Engine, limits: Limits) -> Result<SolveJob, Refusal> {
        let roles = engine.roles().len();
        if roles == 0 || roles > 2 {
            return Err(Refusal(format!(
                "the game has {roles} roles: solving covers one role (best plan) and two roles taking turns (minimax); more roles have no single solved value"
            )));
        }
        let init = engine.initial_state()?;
        let store = match &init {
            EngineState::Bits(b) => Store::Bits {
                words: b.0.len(),
                data: Vec::new(),
            },
            EngineState::Fluents(_) => Store::States(Vec::new()),
        };
        let mut job = SolveJob {
            limits,
            started_ms: crate::clock::now_ms(),
            store,
            index: FxHashMap::default(),
            graph: Graph {
                roles,
                kind: Vec::new(),
                goals: Vec::new(),
                start: vec![0],
                succ: Vec::new(),
            },
            stopped: None,
            refusal: None,
            peak_bytes: 0,
            engine,
        };
        job.intern(init);
        Ok(job)
    }

    /// The engine the job runs on.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    fn expanded(&self) -> usize {
        self.graph.start.len() - 1
    }

    fn exploring(&self) -> bool {
        self.stopped.is_none() && self.refusal.is_none() && self.expanded() < self.graph.kind.len()
    }

    /// The index of `s`, adding it when new.
    fn intern(&mut self, s: EngineState) -> u32 {
        let key = self.engine.state_key(&s);
        let next = self.graph.kind.len() as u32;
        let i = *self.index.entry(key).or_insert(next);
        if i == next {
            self.store.push(s);
            self.graph.kind.push(kind::OPEN);
            self.graph.goals.push([UNKNOWN; 2]);
        }
        i
    }

    /// Expands up to `budget` states; stops at the limits.
    pub fn step(&mut self, budget: usize) -> Progress {
        let deadline = self.started_ms + self.limits.seconds * 1000.0;
        for n in 0..budget {
            if !self.exploring() {
                break;
            }
            if n % 64 == 0 {
                if let Some(why) = self.over_limits(deadline) {
                    self.stopped = Some(why);
                    break;
                }
            }
            match self.expand(self.expanded()) {
                Ok(()) => {}
                Err(Stop::Limit(e)) => self.stopped = Some(e.to_string()),
                Err(Stop::Refuse(r)) => self.refusal = Some(r),
            }
        }
        self.progress()
    }

    fn over_limits(&mut self, deadline: f64) -> Option<String> {
        if crate::job::cancelled() {
            return Some("cancelled".into());
        }
        if crate::clock::now_ms() >= deadline || crate::job::soft_passed() {
            return Some(format!(
                "the time limit ({:.1} s) passed",
                self.limits.seconds
            ));
        }
        if self.graph.kind.len() >= self.limits.max_states {
            return Some(format!(
                "{} states (the state limit)",
                self.limits.max_states
            ));
        }
        self.peak_bytes = self.peak_bytes.max(self.bytes());
        if crate::memory::above(0.75) {
            return Some(format!(
                "3/4 of the memory budget ({} MB) is in use",
                crate::memory::budget_mb()
            ));
        }
        crate::job::check().err().map(|e| e.to_string())
    }

    /// Ends the exploration now (cancellation).
    pub fn stop(&mut self) {
        if self.exploring() {
            self.stopped = Some("stopped".into());
        }
    }

    pub fn progress(&self) -> Progress {
        Progress {
            states: self.graph.kind.len() as u64,
            expanded: self.expanded() as u64,
            edges: self.graph.succ.len() as u64,
            done: !self.exploring(),
        }
    }

    /// Expands state `i` (the next in breadth-first order).
    fn expand(&mut self, i: usize) -> Result<(), Stop> {
        let s = self.store.get(i);
        if self.engine.is_terminal(&s)? {
            let goals = self.engine.goals(&s)?;
            for (r, g) in goals.iter().enumerate() {
                match g {
                    Some(g) if (0..=100).contains(g) => self.graph.goals[i][r] = *g as u8,
                    _ => {
                        return Err(Stop::Refuse(Refusal(format!(
                            "a terminal state (index {i}) gives role {} {}: solving needs one goal in 0..100 per role",
                            self.role_name(r),
                            g.map_or("no goal".to_string(), |g| format!("goal {g}"))
                        ))))
                    }
                }
            }
            self.graph.kind[i] = kind::TERMINAL;
            self.graph.start.push(self.graph.succ.len() as u32);
            return Ok(());
        }
        let legal = self.engine.all_legal_moves(&s)?;
        if let Some(r) = legal.iter().position(Vec::is_empty) {
            return Err(Stop::Refuse(Refusal(format!(
                "role {} has no legal move in a non-terminal state (index {i}): the game is not playable there",
                self.role_name(r)
            ))));
        }
        let choosers: Vec<usize> = (0..legal.len()).filter(|&r| legal[r].len() > 1).collect();
        let mover = match (choosers.as_slice(), legal.len()) {
            (_, 1) => 0,
            ([], _) => kind::FORCED as usize,
            ([r], _) => *r,
            _ => {
                return Err(Stop::Refuse(Refusal(format!(
                    "both roles choose a move at once in a reachable state (index {i}): simultaneous moves have no minimax value (security values are not implemented)"
                ))))
            }
        };
        let chooser = if mover < 2 { mover } else { 0 };
        let mut joint: Vec<TermId> = legal.iter().map(|m| m[0]).collect();
        let mut succ = Vec::with_capacity(legal[chooser].len());
        for &m in &legal[chooser] {
            joint[chooser] = m;
            let next = self.engine.next_state(&s, &joint)?;
            succ.push(self.intern(next));
        }
        if self.graph.succ.len() + succ.len() > u32::MAX as usize {
            return Err(Stop::Limit(EvalError::Limit {
                what: "edges",
                limit: u64::from(u32::MAX),
            }));
        }
        self.graph.kind[i] = mover as u8;
        self.graph.succ.extend(succ);
        self.graph.start.push(self.graph.succ.len() as u32);
        Ok(())
    }

    fn role_name(&self, r: usize) -> String {
        self.engine.terms().display(self.engine.roles()[r])
    }

    /// Bytes held by the explored graph.
    fn bytes(&self) -> usize {
        let g = &self.graph;
        self.store.bytes()
            + self.index.capacity() * (std::mem::size_of::<(Key, u32)>() + 1)
            + g.kind.capacity()
            + g.goals.capacity() * 2
            + (g.start.capacity() + g.succ.capacity()) * 4
    }

    /// The retrograde analysis of what was explored: the solution, partial
    /// when the exploration did not end, or why the game is refused.
    pub fn finish(mut self) -> Result<Solution, Refusal> {
        if let Some(r) = self.refusal.take() {
            return Err(r);
        }
        // Anything not expanded stays open (an unknown for both roles).
        let explored = self.bytes();
        let analysed = retro::analyse(&self.graph);
        let retro_bytes = self.graph.kind.len() * 16 + self.graph.succ.len() * 4;
        let peak = self.peak_bytes.max(explored + retro_bytes);
        let seconds = (crate::clock::now_ms() - self.started_ms) / 1000.0;
        let states = self.graph.kind.len() as u64;
        let roles = (0..self.graph.roles).map(|r| self.role_name(r)).collect();
        let complete = self.stopped.is_none() && self.expanded() == self.graph.kind.len();
        let stats = Stats {
            states,
            expanded: self.expanded() as u64,
            terminal: self
                .graph
                .kind
                .iter()
                .filter(|&&k| k == kind::TERMINAL)
                .count() as u64,
            edges: self.graph.succ.len() as u64,
            seconds,
            states_per_second: states as f64 / seconds.max(1e-9),
            bytes_per_state: (explored + self.graph.kind.len() * 4) as f64 / states.max(1) as f64,
            peak_bytes: peak as u64,
        };
        Ok(Solution {
            concept: analysed.concept,
            roles,
            engine: self.engine.name().to_string(),
            complete,
            stopped: if complete { None } else { self.stopped },
            stats,
            index: self.index,
            goals: analysed.goals,
            depth: analysed.depth,
        })
    }
}

enum Stop {
    /// An evaluation limit: the exploration ends, the solution is partial.
    Limit(EvalError),
    Refuse(Refusal),
}

impl From<EvalError> for Stop {
    fn from(e: EvalError) -> Stop {
        match e {
            EvalError::Limit { .. } => Stop::Limit(e),
            other => Stop::Refuse(other.into()),
        }
    }
}

/// Solves a game on `engine` within `limits`, reporting progress
/// ([`crate::job::progress`]).
pub fn solve(engine: Engine, limits: Limits) -> Result<Solution, Refusal> {
    let mut job = SolveJob::new(engine, limits)?;
    loop {
        let p = job.step(1024);
        if p.done {
            break;
        }
        crate::job::progress("solve: exploring", || {
            format!("{} states, {} expanded", p.states, p.expanded)
        });
    }
    crate::job::progress("solve: retrograde analysis", String::new);
    job.finish()
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
