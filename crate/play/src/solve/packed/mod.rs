//! The packed solver, for games on the fast engine whose every move leads
//! from one breadth-first layer to the next (each move adds a piece, a
//! line or a domino, or takes one away: connect-k, dots and boxes,
//! domineering, clobber).
//!
//! It keeps only the states, as the engine's words ([`index::States`]),
//! found through an index of 4-byte slots, and per state its goals (2
//! bytes) and moves to the end (1 byte when the game has at most 256
//! layers): 8 bytes a word plus about 8, against the graph solver's 80–110,
//! which also stores every edge. There are no edges: the backward pass
//! expands each state again, layer by layer from the last, and looks its
//! successors up ([`back`]). Both passes expand blocks of states on all
//! cores ([`run_all`]), each core with its own copy of the network; the
//! index is filled by one thread, in the order the graph solver would
//! number the states, so both give the same indices.
//!
//! A move back to an earlier layer (a repeated position, a counter that
//! goes down) ends the attempt: [`Step::NotLayered`], and the caller
//! solves with the graph solver instead.

mod back;
mod index;
mod pipeline;
mod spill;
#[cfg(test)]
mod tests;

pub use spill::solve_spilled;

use super::{kind, Concept, Depths, Limits, Lookup, Progress, Refusal, Solution, Stats, UNKNOWN};
use crate::engine::Engine;
use crate::ground::{BitState, Expansion, FastEngine};
use crate::reasoner::StateMachine;
use crate::search::parallel::{available_cores, run_all, Job};
use back::Val;
pub(crate) use index::{hash, Found, Index, States, PREFETCH};

/// The share of the time limit the forward pass may use: the backward
/// pass expands every state again and takes about as long.
const FORWARD_SHARE: f64 = 0.55;
/// States expanded between two checks of the limits.
const BLOCK: usize = 65536;

/// What a step of the job did.
pub(crate) enum Step {
    Progress(Progress),
    /// A move leads to an earlier layer, or both roles choose at once:
    /// solve on the graph instead.
    NotLayered,
}

/// What one expansion found (a worker's answer per state).
enum Outcome {
    Terminal([u8; 2]),
    /// The number of successors.
    Moves(u32),
    /// Both roles choose: a matrix of successors, which only the graph
    /// solver values.
    Simultaneous,
    Refuse(Refusal),
}

pub(crate) struct PackedJob {
    engine: Engine,
    /// One copy of the network per core.
    workers: Vec<FastEngine>,
    roles: usize,
    limits: Limits,
    started_ms: f64,
    states: States,
    index: Index,
    /// Layer `k` is `bounds[k]..bounds[k + 1]`; the last entry ends the
    /// layer being found.
    bounds: Vec<usize>,
    /// States expanded by the forward pass.
    expanded: usize,
    /// Terminal goals from the forward pass; every value after the
    /// backward pass.
    goals: Vec<[u8; 2]>,
    depth: Vec<u32>,
    terminal: u64,
    edges: u64,
    /// The first terminal's goal sum, and whether all sums agree.
    sum: Option<u16>,
    constant_sum: bool,
    /// The backward pass: the layer being valued (`None` before it) and
    /// the bounds of the layer below it (zero-sum, per state).
    back_layer: Option<usize>,
    /// The next state to value, and how many were valued.
    back_pos: usize,
    back_done: usize,
    below: Vec<(u8, u8)>,
    current: Vec<(u8, u8)>,
    valued_all: bool,
    stopped: Option<String>,
    refusal: Option<Refusal>,
    peak_bytes: usize,
}

impl PackedJob {
    /// A job on the fast engine's game; `None` on the interpreter.
    pub fn new(engine: &Engine, limits: Limits, started_ms: f64) -> Option<PackedJob> {
        let Engine::Fast(fast) = engine else {
            return None;
        };
        let mut first = (**fast).clone();
        let init = first.initial_state().ok()?;
        let mut states = States::new(fast.state_words());
        let mut index = Index::new();
        states.push(&init.0);
        let Found::Absent(slot) = index.find(&states, &init.0, hash(&init.0)) else {
            unreachable!("the index is empty")
        };
        index.insert_at(&states, slot, 0, hash(&init.0));
        let cores = available_cores().clamp(1, 8);
        let mut workers = vec![first];
        workers.extend((1..cores).map(|_| (**fast).clone()));
        Some(PackedJob {
            roles: fast.roles().len(),
            engine: engine.clone(),
            workers,
            limits,
            started_ms,
            states,
            index,
            bounds: vec![0, 1],
            expanded: 0,
            goals: vec![[UNKNOWN; 2]],
            depth: Vec::new(),
            terminal: 0,
            edges: 0,
            sum: None,
            constant_sum: true,
            back_layer: None,
            back_pos: 0,
            back_done: 0,
            below: Vec::new(),
            current: Vec::new(),
            valued_all: false,
            stopped: None,
            refusal: None,
            peak_bytes: 0,
        })
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The limits and the start time (ms), for a graph solver instead.
    pub fn limits(&self) -> (Limits, f64) {
        (self.limits.clone(), self.started_ms)
    }

    pub fn refuse(&mut self, r: Refusal) {
        self.refusal = Some(r);
    }

    fn exploring(&self) -> bool {
        self.stopped.is_none() && self.refusal.is_none() && self.expanded < self.states.len()
    }

    pub fn progress(&self) -> Progress {
        Progress {
            states: self.states.len() as u64,
            expanded: self.expanded as u64,
            edges: self.edges,
            valued: self.back_done as u64,
            done: self.refusal.is_some() || self.valued_all,
        }
    }

    /// Ends the exploration now (cancellation); the backward pass values
    /// what was explored.
    pub fn stop(&mut self) {
        if self.exploring() {
            self.stopped = Some("stopped".into());
        }
    }

    /// Expands (forward, then backward) about `budget` states.
    pub fn step(&mut self, budget: usize) -> Step {
        let deadline = self.started_ms + self.limits.seconds * 1000.0 * FORWARD_SHARE;
        let mut left = budget;
        while left > 0 && self.exploring() {
            if let Some(why) = super::limit_reason(&self.limits, deadline, self.states.len()) {
                self.stopped = Some(why);
                break;
            }
            self.peak_bytes = self.peak_bytes.max(self.bytes());
            let n = self.forward_block(left.min(BLOCK));
            if n == usize::MAX {
                return Step::NotLayered;
            }
            left = left.saturating_sub(n);
        }
        let end = self.started_ms + self.limits.seconds * 1000.0;
        while left > 0 && !self.exploring() && self.refusal.is_none() && !self.valued_all {
            if crate::job::cancelled() || crate::clock::now_ms() >= end {
                // The layers above stay unknown: a partial solution. The
                // forward pass may have overrun the whole limit, so the
                // layers close here too: the terminal states it found
                // have values, and moves to the end (zero).
                if self.back_layer.is_none() {
                    self.start_backward();
                }
                let why = super::limit_reason(&self.limits, end, 0);
                self.stopped = self.stopped.take().or(why);
                self.valued_all = true;
                break;
            }
            left = left.saturating_sub(self.backward_block(left.min(BLOCK)));
        }
        Step::Progress(self.progress())
    }

    /// The layer holding state `i`.
    fn layer_of(&self, i: usize) -> usize {
        self.bounds.partition_point(|&b| b <= i) - 1
    }

    /// Expands up to `n` states of the current layer on every core and
    /// records their successors; `usize::MAX` when one leads back.
    fn forward_block(&mut self, n: usize) -> usize {
        let layer = self.layer_of(self.expanded);
        let next_layer = self.bounds[layer + 1];
        let (from, end) = (self.expanded, next_layer.min(self.expanded + n));
        let words = self.states.words().max(1);
        // A copy of the block, which the cores read while this thread
        // adds the states they find.
        let block = self.states.range(from, end).to_vec();
        let expand = |engine: &mut FastEngine, piece: usize| {
            let a = piece * pipeline::PIECE;
            let b = (a + pipeline::PIECE).min(end - from);
            expand_all(engine, &block[a * words..b * words], words, from + a)
        };
        let mut engines = std::mem::take(&mut self.workers);
        let mut back = false;
        pipeline::run(&mut engines, end - from, &expand, &mut |part| {
            back = !self.absorb(part, next_layer);
            !back && self.refusal.is_none()
        });
        self.workers = engines;
        if back {
            return usize::MAX;
        }
        if self.expanded == next_layer && self.states.len() > next_layer {
            self.bounds.push(self.states.len());
        }
        end - from
    }

    /// Takes a piece's outcomes and successors in; `false` when a
    /// successor lies in an earlier layer (`next_layer` starts the one
    /// being found) or both roles choose in a state.
    fn absorb(&mut self, part: Expanded, next_layer: usize) -> bool {
        let words = self.states.words().max(1);
        let mut k = 0;
        for outcome in part.outcomes {
            let i = self.expanded;
            match outcome {
                Outcome::Terminal(g) => self.record_terminal(i, g),
                Outcome::Moves(count) => {
                    for _ in 0..count {
                        (self.index).prefetch_ahead(&self.states, &part.hashes, k);
                        let s = &part.succ[k * words..(k + 1) * words];
                        if self.intern(s, part.hashes[k]) < next_layer {
                            return false;
                        }
                        k += 1;
                    }
                    self.edges += u64::from(count);
                }
                Outcome::Refuse(r) => {
                    self.refusal = Some(r);
                    return true;
                }
                Outcome::Simultaneous => return false,
            }
            self.expanded += 1;
        }
        true
    }

    fn record_terminal(&mut self, i: usize, g: [u8; 2]) {
        self.goals[i] = g;
        self.terminal += 1;
        let sum = u16::from(g[0]) + u16::from(g[1]);
        match self.sum {
            None => self.sum = Some(sum),
            Some(s) => self.constant_sum &= s == sum,
        }
    }

    /// The position of state `s` (hash `h`), adding it when new.
    fn intern(&mut self, s: &[u64], h: u64) -> usize {
        match self.index.find(&self.states, s, h) {
            Found::At(p) => p as usize,
            Found::Absent(slot) => {
                let p = self.states.len();
                self.states.push(s);
                self.goals.push([UNKNOWN; 2]);
                self.index.insert_at(&self.states, slot, p as u32, h);
                p
            }
        }
    }

    fn concept(&self) -> Concept {
        concept_of(self.roles, self.sum, self.constant_sum)
    }

    fn scoring(&self) -> Scoring {
        Scoring {
            concept: self.concept(),
            sum: self.sum.unwrap_or(0) as u8,
            roles: self.roles,
        }
    }

    /// Values up to `n` states of the layer being valued, from the last
    /// layer up; returns how many.
    fn backward_block(&mut self, n: usize) -> usize {
        let layer = match self.back_layer {
            Some(l) => l,
            None => self.start_backward(),
        };
        let end = self.bounds[layer + 1].min(self.back_pos + n);
        let from = self.back_pos;
        let vals = self.value_range(layer, from, end);
        for (k, v) in vals.iter().enumerate() {
            self.goals[from + k] = v.goals;
            self.depth[from + k] = v.depth;
        }
        self.current.extend(vals.iter().map(|v| (v.lo, v.hi)));
        self.back_pos = end;
        self.back_done += end - from;
        if end == self.bounds[layer + 1] {
            if layer == 0 {
                self.valued_all = true;
            } else {
                self.below = std::mem::take(&mut self.current);
                self.back_layer = Some(layer - 1);
                self.back_pos = self.bounds[layer - 1];
            }
        }
        end - from
    }

    /// Closes the layers found (a partial exploration's last one too) and
    /// sizes the index for lookups only; returns the last layer.
    fn start_backward(&mut self) -> usize {
        if self.states.len() > *self.bounds.last().expect("a layer") {
            self.bounds.push(self.states.len());
        }
        self.index.fit(&self.states);
        self.states.shrink();
        self.goals.shrink_to_fit();
        self.depth = vec![0; self.states.len()];
        let last = self.bounds.len() - 2;
        (self.back_layer, self.back_pos) = (Some(last), self.bounds[last]);
        last
    }

    /// The values of states `a..b` of `layer` on every core.
    fn value_range(&mut self, layer: usize, a: usize, b: usize) -> Vec<Val> {
        let ctx = Ctx {
            states: &self.states,
            index: &self.index,
            goals: &self.goals,
            depth: &self.depth,
            below: &self.below,
            below_start: self.bounds[layer + 1],
            scoring: self.scoring(),
            expanded: self.expanded,
        };
        let ctx = &ctx;
        let parts = split(a, b, self.workers.len());
        let jobs: Vec<Job<'_, Vec<Val>>> = (self.workers.iter_mut())
            .zip(parts)
            .map(|(w, (x, y))| {
                Box::new(move || {
                    let mut buf = Buffers::default();
                    (x..y).map(|i| ctx.value_of(w, i, &mut buf)).collect()
                }) as Job<'_, _>
            })
            .collect();
        run_all(jobs).concat()
    }

    /// Bytes held: states, index, goals, moves to the end, bounds.
    fn bytes(&self) -> usize {
        self.states.bytes()
            + self.index.bytes()
            + self.goals.capacity() * 2
            + self.depth.capacity() * 4
            + (self.below.capacity() + self.current.capacity()) * 2
    }

    /// The solution, once [`Self::step`] reports `done`.
    pub fn finish(mut self) -> Result<Solution, Refusal> {
        if let Some(r) = self.refusal.take() {
            return Err(r);
        }
        self.peak_bytes = self.peak_bytes.max(self.bytes());
        let concept = self.concept();
        let depth = Depths::narrow(std::mem::take(&mut self.depth));
        let states = self.states.len();
        let held =
            self.states.bytes() + self.index.bytes() + self.goals.capacity() * 2 + depth.bytes();
        let seconds = (crate::clock::now_ms() - self.started_ms) / 1000.0;
        let complete = self.stopped.is_none() && self.expanded == states;
        let fast = &self.workers[0];
        let roles = (0..self.roles).map(|r| role_name(fast, r)).collect();
        let stats = Stats {
            states: states as u64,
            expanded: self.expanded as u64,
            terminal: self.terminal,
            edges: self.edges,
            simultaneous: 0,
            seconds,
            states_per_second: states as f64 / seconds.max(1e-9),
            bytes_per_state: held as f64 / states.max(1) as f64,
            peak_bytes: self.peak_bytes as u64,
        };
        Ok(Solution {
            concept,
            roles,
            engine: self.engine.name().to_string(),
            complete,
            stopped: if complete { None } else { self.stopped },
            stats,
            lookup: Lookup::Packed {
                states: self.states,
                index: self.index,
            },
            goals: self.goals,
            depth,
        })
    }
}

/// What the backward pass reads: the states, the values of the layer
/// below and their bounds.
struct Ctx<'a> {
    states: &'a States,
    index: &'a Index,
    goals: &'a [[u8; 2]],
    depth: &'a [u32],
    below: &'a [(u8, u8)],
    below_start: usize,
    scoring: Scoring,
    expanded: usize,
}

/// The concept of a game with `roles` roles whose terminal goals first
/// summed to `sum`, all to the same when `constant_sum`.
fn concept_of(roles: usize, sum: Option<u16>, constant_sum: bool) -> Concept {
    match (roles, sum) {
        (1, _) => Concept::OnePlayer,
        (_, Some(_)) if !constant_sum => Concept::GeneralSum,
        _ => Concept::ZeroSum,
    }
}

/// How values combine: the concept, the goals' constant sum (zero-sum)
/// and the number of roles.
#[derive(Clone, Copy)]
struct Scoring {
    concept: Concept,
    sum: u8,
    roles: usize,
}

/// The value of the non-terminal state `s` from its successors': each is
/// looked up in `below` (states and their index), `val` gives a found
/// one's value (by position), one not found is open.
fn successors_value(
    engine: &mut FastEngine,
    s: &[u64],
    scoring: Scoring,
    below: (&States, &Index),
    val: impl Fn(usize) -> Val,
    buf: &mut Buffers,
) -> Val {
    let (states, index) = below;
    let Buffers { succ, hashes, vals } = buf;
    succ.clear();
    let mover = match engine.expand(s, succ) {
        Expansion::Moves { .. } if scoring.roles == 1 => 0,
        Expansion::Moves { forced: true, .. } => kind::FORCED,
        Expansion::Moves { chooser, .. } => chooser as u8,
        // Refused or terminal in the forward pass, never here.
        _ => return Val::OPEN,
    };
    let words = s.len().max(1);
    hashes.clear();
    hashes.extend(succ.chunks_exact(words).map(hash));
    // Every successor's slot is fetched before the first lookup waits.
    hashes.iter().for_each(|&h| index.prefetch(h));
    vals.clear();
    vals.extend(
        succ.chunks_exact(words)
            .zip(hashes.drain(..))
            .map(|(w, h)| match index.find(states, w, h) {
                Found::At(j) => val(j as usize),
                Found::Absent(_) => Val::OPEN,
            }),
    );
    back::combine(scoring.concept, mover, vals, scoring.sum)
}

impl Ctx<'_> {
    /// The value of state `i`, with buffers reused from one state to the
    /// next.
    fn value_of(&self, engine: &mut FastEngine, i: usize, buf: &mut Buffers) -> Val {
        if i >= self.expanded {
            return Val::OPEN;
        }
        if self.goals[i][0] != UNKNOWN {
            return Val::terminal(self.scoring.concept, self.goals[i]);
        }
        let below = (self.states, self.index);
        let s = self.states.get(i);
        successors_value(engine, s, self.scoring, below, |j| self.val(j), buf)
    }

    /// A valued state of the layer below.
    fn val(&self, j: usize) -> Val {
        let (lo, hi) = self
            .below
            .get(j.wrapping_sub(self.below_start))
            .copied()
            .unwrap_or((UNKNOWN, UNKNOWN));
        Val {
            goals: self.goals[j],
            depth: self.depth[j],
            lo,
            hi,
        }
    }
}

/// A backward worker's buffers: a state's successors, their hashes and
/// their values.
#[derive(Default)]
struct Buffers {
    succ: Vec<u64>,
    hashes: Vec<u64>,
    vals: Vec<Val>,
}

/// `a..b` cut into `parts` nearly equal ranges.
fn split(a: usize, b: usize, parts: usize) -> Vec<(usize, usize)> {
    let n = b - a;
    (0..parts)
        .map(|k| (a + n * k / parts, a + n * (k + 1) / parts))
        .filter(|(x, y)| x < y)
        .collect()
}

/// What a core found for a range of states: their outcomes, the
/// successors' words in one buffer, and the successors' hashes (computed
/// here, on every core, rather than by the one thread that interns them).
struct Expanded {
    outcomes: Vec<Outcome>,
    succ: Vec<u64>,
    hashes: Vec<u64>,
}

/// Expands the states in `block` (of `words` words each), the first of
/// which is state `first`.
fn expand_all(engine: &mut FastEngine, block: &[u64], words: usize, first: usize) -> Expanded {
    let mut succ = Vec::new();
    let outcomes = (block.chunks_exact(words).enumerate())
        .map(|(k, s)| expand_one(engine, s, first + k, &mut succ))
        .collect();
    let hashes = succ.chunks_exact(words).map(hash).collect();
    Expanded {
        outcomes,
        succ,
        hashes,
    }
}

fn expand_one(engine: &mut FastEngine, s: &[u64], i: usize, succ: &mut Vec<u64>) -> Outcome {
    let before = succ.len();
    let words = s.len().max(1);
    match engine.expand(s, succ) {
        Expansion::Terminal => terminal_goals(engine, s, i),
        Expansion::Moves { .. } => Outcome::Moves(((succ.len() - before) / words) as u32),
        Expansion::NoMove { role } => Outcome::Refuse(Refusal(format!(
            "role {} has no legal move in a non-terminal state (index {i}): the game is not playable there",
            role_name(engine, role)
        ))),
        Expansion::Simultaneous => Outcome::Simultaneous,
    }
}

fn terminal_goals(engine: &mut FastEngine, s: &[u64], i: usize) -> Outcome {
    let state = BitState(s.iter().copied().collect());
    let goals = match engine.goals(&state) {
        Ok(g) => g,
        Err(e) => return Outcome::Refuse(e.into()),
    };
    let mut out = [UNKNOWN; 2];
    for (r, g) in goals.iter().enumerate() {
        match g {
            Some(g) if (0..=100).contains(g) => out[r] = *g as u8,
            _ => {
                return Outcome::Refuse(Refusal(format!(
                    "a terminal state (index {i}) gives role {} {}: solving needs one goal in 0..100 per role",
                    role_name(engine, r),
                    g.map_or("no goal".to_string(), |g| format!("goal {g}"))
                )))
            }
        }
    }
    Outcome::Terminal(out)
}

fn role_name(engine: &FastEngine, r: usize) -> String {
    engine.terms().display(engine.roles()[r])
}
