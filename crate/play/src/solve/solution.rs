//! A solution: per reachable state its value under perfect play, its moves
//! to the end, and how a state is found in it; the summary the commands
//! report.

use super::{packed, retro, sorted_counts, Concept, MoveValue, Stats, Value, UNKNOWN};
use crate::engine::{Engine, EngineState};
use crate::ground::BitState;
use crate::reasoner::{content_keys::Key, EvalError, StateMachine};
use crate::terms::TermId;
use rustc_hash::FxHashMap;
use serde::Serialize;

/// A solved (or partially solved) game: per state index its value.
#[derive(Clone, Debug)]
pub struct Solution {
    pub concept: Concept,
    /// Role names, in role order.
    pub roles: Vec<String>,
    /// `"fast"`, `"hybrid"` or `"interpreter"`: the engine whose state keys index it.
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
    pub(super) fn bytes(&self) -> usize {
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
    pub(super) fn best_of(&self, moves: Vec<MoveValue>, role: usize) -> Vec<MoveValue> {
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
    pub(super) fn solved_of(&self, moves: Vec<MoveValue>, role: usize) -> Option<TermId> {
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
    /// `"fast"`, `"hybrid"` or `"interpreter"`.
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
