//! The packed solver out of core: for a layered game whose states do not
//! fit in memory, each breadth-first layer lives in a file of its own and
//! at most about one layer is in memory at once (with its index).
//!
//! Forward, layer `k` is read back from `states-k.bin` in blocks, each
//! block expanded on all cores ([`pipeline::run`]); the successors go into
//! an index holding layer `k + 1` only, with positions local to it, and
//! the terminal states' goals into `goals-k.bin`. A finished layer `k + 1`
//! is written to `states-(k+1).bin`; the exploration ends at an empty
//! layer. Backward, from the last layer up, layer `k + 1`'s states are
//! read back into an index with their values (`vals-(k+1).bin`), and layer
//! `k` is streamed, each non-terminal state expanded again and valued from
//! its successors' values ([`super::back::combine`]) into `vals-k.bin`; a file
//! is deleted once used, since the largest games need tens of gigabytes.
//!
//! Only the layer being built is indexed, so a successor already found in
//! an earlier layer is not recognised: a state is counted once per layer
//! it appears in. For games whose layer is a function of the state (the
//! number of pieces on a connect-four board) every count is exact; in
//! others the values stay correct for finite games (the solve is of the
//! game tree folded per depth), and a game with cycles never reaches an
//! empty layer and stops at its limits.

use std::fs::{self, File};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use rustc_hash::FxHashMap;

use super::back::Val;
use super::{
    concept_of, expand_all, pipeline, role_name, successors_value, Buffers, Expanded, Found, Index,
    Outcome, Scoring, States, BLOCK, PREFETCH,
};
use crate::engine::Engine;
use crate::ground::FastEngine;
use crate::reasoner::StateMachine;
use crate::search::parallel::available_cores;
use crate::solve::{
    check_roles, limit_reason, sorted_counts, Limits, Refusal, Stats, Summary, Value, ValueCount,
    UNKNOWN,
};

/// Bytes of a state's value on disk: two goals, moves to the end (16
/// bits, little-endian), the zero-sum bounds `lo` and `hi`.
const VAL_BYTES: usize = 6;
/// The most layers: moves to the end are stored in 16 bits.
const MAX_LAYERS: usize = u16::MAX as usize;
/// The most states a layer may reach before a block: the index holds
/// 32-bit positions, and a block adds at most a few successors a state.
const MAX_LAYER: usize = u32::MAX as usize - 256 * BLOCK;

/// Solves the layered game on `engine` (the fast engine) with its layers
/// in files under `dir` (created when missing, and removed again if it
/// was; the solve's files are deleted in any case). `limits.max_states`
/// bounds the states found over all layers; `limits.seconds` covers both
/// passes. A stop (time, cancellation, memory) gives a summary with the
/// states found and no values. In the summary, `bytes_per_state` is the
/// peak held in memory over the largest layer's states.
pub fn solve_spilled(engine: Engine, limits: Limits, dir: &Path) -> Result<Summary, Refusal> {
    check_roles(&engine)?;
    let Engine::Fast(fast) = &engine else {
        return Err(Refusal(
            "the out-of-core solver (--spill) runs on the fast engine, and this game is on the interpreter (it does not ground)".into(),
        ));
    };
    if fast.state_words() == 0 {
        return Err(Refusal("the game has no state to spill".into()));
    }
    let created = !dir.exists();
    fs::create_dir_all(dir).map_err(io_refusal(dir))?;
    let mut spill = Spill::new(fast, limits, dir);
    let result = spill.run();
    spill.clean();
    if created {
        // Only an empty directory goes: someone else's files stay.
        let _ = fs::remove_dir(dir);
    }
    result
}

/// The solve's state between layers.
struct Spill {
    dir: PathBuf,
    /// One copy of the network per core.
    workers: Vec<FastEngine>,
    words: usize,
    roles: usize,
    limits: Limits,
    started_ms: f64,
    /// States per layer.
    layers: Vec<usize>,
    expanded: u64,
    terminal: u64,
    edges: u64,
    /// The first terminal's goal sum, and whether all sums agree.
    sum: Option<u16>,
    constant_sum: bool,
    /// States per value (the backward pass).
    counts: FxHashMap<[u8; 2], u64>,
    stopped: Option<String>,
    peak_bytes: usize,
}

/// The layer being found (forward) or the valued layer below the one
/// being valued (backward): its states, by local position, and index.
struct Layer {
    states: States,
    index: Index,
    /// Backward: [`VAL_BYTES`] per state.
    vals: Vec<u8>,
}

impl Layer {
    fn new(words: usize) -> Layer {
        Layer {
            states: States::new(words),
            index: Index::new(),
            vals: Vec::new(),
        }
    }

    /// Adds state `s` (hash `h`) unless it is there already.
    fn intern(&mut self, s: &[u64], h: u64) {
        if let Found::Absent(slot) = self.index.find(&self.states, s, h) {
            let p = self.states.len() as u32;
            self.states.push(s);
            self.index.insert_at(&self.states, slot, p, h);
        }
    }

    /// The value of the state at local position `j`.
    fn val(&self, j: usize) -> Val {
        let v = &self.vals[j * VAL_BYTES..(j + 1) * VAL_BYTES];
        Val {
            goals: [v[0], v[1]],
            depth: u32::from(u16::from_le_bytes([v[2], v[3]])),
            lo: v[4],
            hi: v[5],
        }
    }

    fn bytes(&self) -> usize {
        self.states.bytes() + self.index.bytes() + self.vals.capacity()
    }
}

/// A value in [`VAL_BYTES`]; `None` when its moves to the end pass 16 bits.
fn encode(v: &Val) -> Option<[u8; VAL_BYTES]> {
    let d = u16::try_from(v.depth).ok()?.to_le_bytes();
    Some([v.goals[0], v.goals[1], d[0], d[1], v.lo, v.hi])
}

impl Spill {
    fn new(fast: &FastEngine, limits: Limits, dir: &Path) -> Spill {
        let cores = available_cores().clamp(1, 8);
        Spill {
            dir: dir.to_path_buf(),
            workers: (0..cores).map(|_| fast.clone()).collect(),
            words: fast.state_words(),
            roles: fast.roles().len(),
            limits,
            started_ms: crate::clock::now_ms(),
            layers: Vec::new(),
            expanded: 0,
            terminal: 0,
            edges: 0,
            sum: None,
            constant_sum: true,
            counts: FxHashMap::default(),
            stopped: None,
            peak_bytes: 0,
        }
    }

    fn path(&self, name: &str, k: usize) -> PathBuf {
        self.dir.join(format!("{name}-{k}.bin"))
    }

    /// Deletes every file the solve may have left.
    fn clean(&self) {
        for k in 0..=self.layers.len() {
            for name in ["states", "goals", "vals"] {
                let _ = fs::remove_file(self.path(name, k));
            }
        }
    }

    fn run(&mut self) -> Result<Summary, Refusal> {
        let init = self.workers[0].initial_state()?;
        let mut out = Out::create(self.path("states", 0))?;
        out.words(&init.0)?;
        out.finish()?;
        self.layers.push(1);
        self.forward()?;
        let initial = match self.stopped {
            None => self.backward()?,
            Some(_) => None,
        };
        Ok(self.summary(initial))
    }

    fn deadline(&self) -> f64 {
        self.started_ms + self.limits.seconds * 1000.0
    }

    /// Why the solve must stop before the next block, with `in_memory`
    /// states of the layer being found.
    fn limit(&self, in_memory: usize) -> Option<String> {
        if in_memory > MAX_LAYER {
            return Some(format!("a layer passed {MAX_LAYER} states"));
        }
        let found = self.layers.iter().sum::<usize>() + in_memory;
        limit_reason(&self.limits, self.deadline(), found)
    }

    /// Finds the layers, until one is empty or a limit stops it.
    fn forward(&mut self) -> Result<(), Refusal> {
        for k in 0.. {
            let next = self.forward_layer(k)?;
            if next == 0 {
                return Ok(());
            }
            // A stopped layer's states count as found.
            self.layers.push(next);
            if self.stopped.is_some() {
                return Ok(());
            }
            if self.layers.len() > MAX_LAYERS {
                self.stopped = Some(format!(
                    "more than {MAX_LAYERS} layers (a game that does not end?)"
                ));
                return Ok(());
            }
        }
        unreachable!("the loop returns")
    }

    /// Expands layer `k` block by block; writes its goals and, when not
    /// stopped, layer `k + 1`; returns layer `k + 1`'s size.
    fn forward_layer(&mut self, k: usize) -> Result<usize, Refusal> {
        let (words, n) = (self.words, self.layers[k]);
        let first: usize = self.layers[..k].iter().sum();
        let mut input = In::open(self.path("states", k))?;
        let mut goals = Out::create(self.path("goals", k))?;
        let mut next = Layer::new(words);
        let mut done = 0;
        while done < n {
            if let Some(why) = self.limit(next.states.len()) {
                self.stopped = Some(why);
                return Ok(next.states.len());
            }
            let count = BLOCK.min(n - done);
            let block = input.words(count * words)?;
            self.forward_block(&block, first + done, &mut next, &mut goals)?;
            done += count;
            self.expanded += count as u64;
            let held = next.bytes() + block.len() * 8;
            self.peak_bytes = self.peak_bytes.max(held);
            crate::job::progress("solve", || {
                format!(
                    "layer {k}: {done} of {n} expanded, {} found",
                    next.states.len()
                )
            });
        }
        goals.finish()?;
        let found = next.states.len();
        if found > 0 {
            drop(next.index);
            let mut out = Out::create(self.path("states", k + 1))?;
            out.words(next.states.range(0, found))?;
            out.finish()?;
        }
        Ok(found)
    }

    /// Expands one block (its first state is state `first` overall) on
    /// every core into `next`, its goals into `goals`.
    fn forward_block(
        &mut self,
        block: &[u64],
        first: usize,
        next: &mut Layer,
        goals: &mut Out,
    ) -> Result<(), Refusal> {
        let words = self.words;
        let count = block.len() / words;
        let expand = |engine: &mut FastEngine, piece: usize| {
            let a = piece * pipeline::PIECE;
            let b = (a + pipeline::PIECE).min(count);
            expand_all(engine, &block[a * words..b * words], words, first + a)
        };
        let mut engines = std::mem::take(&mut self.workers);
        let mut failed = None;
        pipeline::run(&mut engines, count, &expand, &mut |part| {
            let r = self.absorb(part, next, goals);
            r.map_err(|e| failed = Some(e)).is_ok()
        });
        self.workers = engines;
        failed.map_or(Ok(()), Err)
    }

    /// Takes a piece's successors into `next` and its goals into `goals`.
    fn absorb(&mut self, part: Expanded, next: &mut Layer, goals: &mut Out) -> Result<(), Refusal> {
        let words = self.words;
        let mut k = 0;
        for outcome in part.outcomes {
            let g = match outcome {
                Outcome::Terminal(g) => {
                    self.record_terminal(g);
                    g
                }
                Outcome::Moves(count) => {
                    for _ in 0..count {
                        (next.index).prefetch_ahead(&next.states, &part.hashes, k);
                        next.intern(&part.succ[k * words..(k + 1) * words], part.hashes[k]);
                        k += 1;
                    }
                    self.edges += u64::from(count);
                    [UNKNOWN; 2]
                }
                Outcome::Refuse(r) => return Err(r),
                Outcome::Simultaneous => return Err(Refusal(
                    "both roles choose a move at once in a reachable state: the spilled solver takes only games where one role moves at a time (the graph solver values simultaneous moves)".into(),
                )),
            };
            goals.bytes(&g)?;
        }
        Ok(())
    }

    fn record_terminal(&mut self, g: [u8; 2]) {
        self.terminal += 1;
        let sum = u16::from(g[0]) + u16::from(g[1]);
        match self.sum {
            None => self.sum = Some(sum),
            Some(s) => self.constant_sum &= s == sum,
        }
    }

    fn scoring(&self) -> Scoring {
        Scoring {
            concept: concept_of(self.roles, self.sum, self.constant_sum),
            sum: self.sum.unwrap_or(0) as u8,
            roles: self.roles,
        }
    }

    /// Values the layers from the last up; the initial state's value, or
    /// `None` when a limit stopped it.
    fn backward(&mut self) -> Result<Option<Val>, Refusal> {
        let scoring = self.scoring();
        let mut below = Layer::new(self.words);
        for k in (0..self.layers.len()).rev() {
            let first = self.value_layer(k, scoring, &below)?;
            if self.stopped.is_some() {
                return Ok(None);
            }
            // Layer k + 1 and layer k's goals are used up.
            drop(below);
            for name in ["states", "vals"] {
                let _ = fs::remove_file(self.path(name, k + 1));
            }
            let _ = fs::remove_file(self.path("goals", k));
            if k == 0 {
                return Ok(first);
            }
            below = self.load(k)?;
        }
        unreachable!("layer 0 returns")
    }

    /// Reads layer `k`'s states and values back, and indexes the states.
    fn load(&mut self, k: usize) -> Result<Layer, Refusal> {
        let (words, n) = (self.words, self.layers[k]);
        let mut layer = Layer {
            states: States::new(words),
            // Sized so that it never grows while filled.
            index: Index::with_capacity(n + n / 2 + 16),
            vals: Vec::new(),
        };
        layer.states.reserve(n);
        let mut input = In::open(self.path("states", k))?;
        let mut done = 0;
        while done < n {
            let count = BLOCK.min(n - done);
            let block = input.words(count * words)?;
            let hashes: Vec<u64> = block.chunks_exact(words).map(super::hash).collect();
            for (k, s) in block.chunks_exact(words).enumerate() {
                // The index outgrows the caches: fetch the slots ahead.
                if let Some(&h) = hashes.get(k + PREFETCH) {
                    layer.index.prefetch(h);
                }
                layer.intern(s, hashes[k]);
            }
            done += count;
        }
        layer.vals = In::open(self.path("vals", k))?.bytes(n * VAL_BYTES)?;
        Ok(layer)
    }

    /// Values layer `k` block by block into `vals-k.bin` from the values
    /// of the layer below; returns its first state's value.
    fn value_layer(
        &mut self,
        k: usize,
        scoring: Scoring,
        below: &Layer,
    ) -> Result<Option<Val>, Refusal> {
        let (words, n) = (self.words, self.layers[k]);
        let mut states = In::open(self.path("states", k))?;
        let mut goals = In::open(self.path("goals", k))?;
        let mut out = Out::create(self.path("vals", k))?;
        let (mut first, mut done) = (None, 0);
        while done < n {
            if let Some(why) = limit_reason(&self.limits, self.deadline(), 0) {
                self.stopped = Some(why);
                return Ok(None);
            }
            let count = BLOCK.min(n - done);
            let block = states.words(count * words)?;
            let block_goals = goals.bytes(count * 2)?;
            let vals = self.value_block(&block, &block_goals, scoring, below);
            for v in &vals {
                *self.counts.entry(v.goals).or_default() += 1;
                let bytes = encode(v).ok_or_else(|| {
                    Refusal("a state's moves to the end pass 65,535: too long to store".into())
                })?;
                out.bytes(&bytes)?;
            }
            first = first.or(vals.first().copied());
            done += count;
            let held = below.bytes() + block.len() * 8 + vals.capacity() * 12;
            self.peak_bytes = self.peak_bytes.max(held);
            crate::job::progress("solve", || format!("layer {k}: {done} of {n} valued"));
        }
        out.finish()?;
        Ok(first)
    }

    /// The values of one block of states (with their goals, two bytes a
    /// state) on every core.
    fn value_block(
        &mut self,
        block: &[u64],
        goals: &[u8],
        scoring: Scoring,
        below: &Layer,
    ) -> Vec<Val> {
        let words = self.words;
        let count = block.len() / words;
        let look = (&below.states, &below.index);
        let val = |j: usize| below.val(j);
        let expand = |engine: &mut FastEngine, piece: usize| -> Vec<Val> {
            let a = piece * pipeline::PIECE;
            let b = (a + pipeline::PIECE).min(count);
            let mut buf = Buffers::default();
            (a..b)
                .map(|i| match [goals[2 * i], goals[2 * i + 1]] {
                    g if g[0] != UNKNOWN => Val::terminal(scoring.concept, g),
                    _ => {
                        let s = &block[i * words..(i + 1) * words];
                        successors_value(engine, s, scoring, look, val, &mut buf)
                    }
                })
                .collect()
        };
        let mut vals = Vec::with_capacity(count);
        let mut engines = std::mem::take(&mut self.workers);
        pipeline::run(&mut engines, count, &expand, &mut |part| {
            vals.extend(part);
            true
        });
        self.workers = engines;
        vals
    }

    /// What the solve found; `initial` is the initial state's value.
    fn summary(&self, initial: Option<Val>) -> Summary {
        let states: usize = self.layers.iter().sum();
        let complete = self.stopped.is_none();
        let by_value = if complete {
            sorted_counts(self.counts.clone(), self.roles)
        } else {
            vec![(None, states as u64)]
        };
        let seconds = (crate::clock::now_ms() - self.started_ms) / 1000.0;
        let largest = self.layers.iter().copied().max().unwrap_or(1).max(1);
        let fast = &self.workers[0];
        Summary {
            concept: self.scoring().concept,
            roles: (0..self.roles).map(|r| role_name(fast, r)).collect(),
            engine: "fast".into(),
            complete,
            stopped: self.stopped.clone(),
            initial: initial.filter(|v| v.goals[0] != UNKNOWN).map(|v| Value {
                goals: v.goals[..self.roles].to_vec(),
                moves_to_end: v.depth,
            }),
            by_value: (by_value.into_iter())
                .map(|(goals, states)| ValueCount { goals, states })
                .collect(),
            stats: Stats {
                states: states as u64,
                expanded: self.expanded,
                terminal: self.terminal,
                edges: self.edges,
                simultaneous: 0,
                seconds,
                states_per_second: states as f64 / seconds.max(1e-9),
                // Out of core: the peak held in memory over the largest
                // layer, not over all states.
                bytes_per_state: self.peak_bytes as f64 / largest as f64,
                peak_bytes: self.peak_bytes as u64,
            },
        }
    }
}

/// A refusal naming the file an I/O error is about.
fn io_refusal(path: &Path) -> impl Fn(std::io::Error) -> Refusal + '_ {
    move |e| Refusal(format!("{}: {e}", path.display()))
}

/// A file being read: words (little-endian) or bytes.
struct In {
    r: BufReader<File>,
    path: PathBuf,
}

impl In {
    fn open(path: PathBuf) -> Result<In, Refusal> {
        let f = File::open(&path).map_err(io_refusal(&path))?;
        Ok(In {
            r: BufReader::with_capacity(1 << 20, f),
            path,
        })
    }

    fn bytes(&mut self, n: usize) -> Result<Vec<u8>, Refusal> {
        let mut v = vec![0; n];
        self.r.read_exact(&mut v).map_err(io_refusal(&self.path))?;
        Ok(v)
    }

    fn words(&mut self, n: usize) -> Result<Vec<u64>, Refusal> {
        let bytes = self.bytes(n * 8)?;
        let word = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
        Ok(bytes.chunks_exact(8).map(word).collect())
    }
}

/// A file being written.
struct Out {
    w: BufWriter<File>,
    path: PathBuf,
}

impl Out {
    fn create(path: PathBuf) -> Result<Out, Refusal> {
        let f = File::create(&path).map_err(io_refusal(&path))?;
        Ok(Out {
            w: BufWriter::with_capacity(1 << 20, f),
            path,
        })
    }

    fn bytes(&mut self, b: &[u8]) -> Result<(), Refusal> {
        self.w.write_all(b).map_err(io_refusal(&self.path))
    }

    fn words(&mut self, w: &[u64]) -> Result<(), Refusal> {
        w.iter().try_for_each(|x| self.bytes(&x.to_le_bytes()))
    }

    /// Flushes: a write error shows here rather than being lost on drop.
    fn finish(mut self) -> Result<(), Refusal> {
        self.w.flush().map_err(io_refusal(&self.path))
    }
}

#[cfg(test)]
mod tests;
