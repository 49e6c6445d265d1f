//! `--engine auto`'s choice between the fast engine and the interpreter for
//! a game that grounds: the fast engine is not faster on every network.
//!
//! Small networks (most games) always get the fast engine, with no trial,
//! so the choice for them does not depend on the machine's load; only a
//! large network gets a bounded timed trial of both engines (see
//! [`interpreter_is_faster`]). Network statistics alone did not separate
//! the slow networks from the fast ones on the corpus (BENCHMARKS.md).

use super::{Engine, EngineState};
use crate::clock::now_ms;
use crate::ground::{FastEngine, GroundStats};
use crate::reasoner::StateMachine;

/// Figures of a network that predict its speed against the interpreter.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shape {
    pub nodes: usize,
    /// Edges propagated at run time (not those into goal-only nodes).
    pub edges: usize,
    pub base: usize,
    pub cyclic_components: usize,
    /// Nodes inside cyclic components (recomputed as units).
    pub cyclic_nodes: usize,
    pub largest_component: usize,
    /// Longest path from a leaf, a cyclic component counting as one node.
    pub depth: usize,
}

impl Shape {
    pub fn of(f: &FastEngine) -> Shape {
        let (net, edges, level) = f.layout();
        let comps = net.scc_start.len().saturating_sub(1);
        let largest = (0..comps)
            .map(|c| (net.scc_start[c + 1] - net.scc_start[c]) as usize)
            .max()
            .unwrap_or(0);
        Shape {
            nodes: net.len(),
            edges: edges.len(),
            base: f.stats().base,
            cyclic_components: comps,
            cyclic_nodes: net.scc_members.len(),
            largest_component: largest,
            depth: level.iter().copied().max().unwrap_or(0) as usize,
        }
    }
}

/// Networks under both sizes (nodes, base propositions) get the fast
/// engine with no trial: on the corpus every such game measured at least
/// 1.1× the interpreter, most 5-100× (BENCHMARKS.md "Choosing the
/// engine"); the games measured slower have 20,000 nodes or more (merrills,
/// amazonsTorus, racer, crisscross, ...) or 500 base propositions or more
/// (pancakes, snakeParallel).
pub const TRIAL_MIN_NODES: usize = 20_000;
pub const TRIAL_MIN_BASE: usize = 500;

/// Whether `--engine auto` times both engines on a grounded game.
pub fn needs_trial(g: &GroundStats) -> bool {
    g.nodes >= TRIAL_MIN_NODES || g.base >= TRIAL_MIN_BASE
}

/// The trial: each engine runs random steps for `SLICES` slices of
/// `SLICE_MS`, alternating, so that a change of the machine's load hits
/// both alike (200 ms per engine).
const SLICES: usize = 8;
const SLICE_MS: f64 = 25.0;
/// Joint moves per call between two reads of the clock.
const CHUNK: usize = 4;

/// Why `--engine auto` runs the interpreter on a game that grounds, or
/// `None` to run the fast engine: on a large network, a bounded trial of
/// both engines (random steps from the initial state, seeded) and the one
/// with more states per second wins.
pub fn interpreter_is_faster(fast: &mut Engine, interpreter: &mut Engine) -> Option<String> {
    let Engine::Fast(f) = fast else {
        return None;
    };
    if !needs_trial(f.stats()) {
        return None;
    }
    let (nodes, base) = (f.stats().nodes, f.stats().base);
    crate::job::progress("grounding: choosing the engine", String::new);
    let mut a = Walk::new(fast)?;
    let mut b = Walk::new(interpreter)?;
    for _ in 0..SLICES {
        a.run(fast)?;
        b.run(interpreter)?;
    }
    let (fa, fb) = (a.rate(), b.rate());
    (fa < fb).then(|| {
        format!(
            "the interpreter is faster on this game: {fb:.0} states/s against the fast engine's {fa:.0} \
             in a trial of {:.0} ms each (network of {nodes} nodes, {base} base propositions)",
            SLICES as f64 * SLICE_MS
        )
    })
}

/// A random walk timed in slices; errors end the trial (the fast engine
/// stays).
struct Walk {
    init: EngineState,
    state: EngineState,
    rng: fastrand::Rng,
    states: u64,
    ms: f64,
}

impl Walk {
    fn new(e: &mut Engine) -> Option<Walk> {
        let init = e.initial_state().ok()?;
        if e.is_terminal(&init).ok()? {
            return None;
        }
        Some(Walk {
            state: init.clone(),
            init,
            rng: fastrand::Rng::with_seed(1),
            states: 0,
            ms: 0.0,
        })
    }

    fn run(&mut self, e: &mut Engine) -> Option<()> {
        let t0 = now_ms();
        loop {
            let p = e.random_playout(&self.state, &mut self.rng, CHUNK).ok()?;
            self.states += p.steps as u64;
            self.state = if p.terminal || p.steps < CHUNK {
                self.init.clone()
            } else {
                p.state
            };
            let t = now_ms() - t0;
            if t >= SLICE_MS {
                self.ms += t;
                return Some(());
            }
        }
    }

    fn rate(&self) -> f64 {
        self.states as f64 * 1000.0 / self.ms.max(1.0)
    }
}
