//! The explicit solver on any engine: the reachable states breadth-first,
//! indexed by content key, with the successor graph stored for the
//! retrograde analysis (`retro.rs`), which also handles cycles. Games on
//! the fast engine whose moves all lead one layer down take the packed
//! solver (`packed/`) instead, which stores no edges.

use super::retro::{self, Graph};
use super::{kind, Depths, Limits, Lookup, Progress, Refusal, Solution, Stats, UNKNOWN};
use crate::engine::{Engine, EngineState};
use crate::ground::BitState;
use crate::reasoner::{content_keys::Key, EvalError, StateMachine};
use rustc_hash::FxHashMap;

/// Joint moves of one state at most (both roles choosing): each is a
/// successor to make, between two checks of the limits.
const MAX_JOINT_MOVES: usize = 1 << 16;
/// Edges made since the last check of the limits that bring the next one
/// forward.
const EDGES_PER_CHECK: usize = 1 << 16;

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

/// A resumable explicit solve over the state graph.
pub(crate) struct GraphJob {
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

impl GraphJob {
    /// A job on `engine`; refuses games with more than two roles.
    pub fn new(mut engine: Engine, limits: Limits, started_ms: f64) -> Result<GraphJob, Refusal> {
        let roles = super::check_roles(&engine)?;
        let init = engine.initial_state()?;
        let store = match &init {
            EngineState::Bits(b) => Store::Bits {
                words: b.0.len(),
                data: Vec::new(),
            },
            EngineState::Fluents(_) => Store::States(Vec::new()),
        };
        let mut job = GraphJob {
            limits,
            started_ms,
            store,
            index: FxHashMap::default(),
            graph: Graph {
                roles,
                kind: Vec::new(),
                goals: Vec::new(),
                start: vec![0],
                succ: Vec::new(),
                cols: FxHashMap::default(),
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
        let mut checked = self.graph.succ.len();
        for n in 0..budget {
            if !self.exploring() {
                break;
            }
            // Every 64 states, or sooner where both roles choose and a
            // state has many joint moves.
            if n % 64 == 0 || self.graph.succ.len() - checked > EDGES_PER_CHECK {
                checked = self.graph.succ.len();
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
        self.peak_bytes = self.peak_bytes.max(self.bytes());
        super::limit_reason(&self.limits, deadline, self.graph.kind.len())
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
            valued: 0,
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
            _ => kind::SIMULTANEOUS as usize,
        };
        let joint: usize = legal.iter().map(Vec::len).product();
        if joint > MAX_JOINT_MOVES {
            return Err(Stop::Refuse(Refusal(format!(
                "both roles choose in a reachable state (index {i}) with {} × {} = {joint} joint moves, more than the {MAX_JOINT_MOVES} the solver expands in one state",
                legal[0].len(),
                legal[1].len()
            ))));
        }
        let mut succ = Vec::with_capacity(joint);
        // Every joint move, role 0's moves the rows (one row when role 0
        // has one move), role 1's the columns.
        for &a in &legal[0] {
            for &b in legal.get(1).map_or(&[][..], Vec::as_slice) {
                let next = self.engine.next_state(&s, &[a, b])?;
                succ.push(self.intern(next));
            }
            if legal.len() == 1 {
                let next = self.engine.next_state(&s, &[a])?;
                succ.push(self.intern(next));
            }
        }
        if mover == kind::SIMULTANEOUS as usize {
            self.graph.cols.insert(i as u32, legal[1].len() as u32);
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
        // Predecessors per edge, and which joint move each is where both
        // roles choose somewhere.
        let per_edge = if self.graph.cols.is_empty() { 4 } else { 8 };
        let retro_bytes = self.graph.kind.len() * 16 + self.graph.succ.len() * per_edge;
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
            simultaneous: self.graph.cols.len() as u64,
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
            lookup: Lookup::Keys(self.index),
            goals: analysed.goals,
            depth: Depths::Wide(analysed.depth),
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
