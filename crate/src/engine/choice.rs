//! `--engine auto`'s choice between the fast engine and the interpreter for
//! a game that grounds: the fast engine is not faster on every network.
//!
//! Small networks (most games) always get the fast engine, with no trial,
//! so the choice for them does not depend on the machine's load; only a
//! large network gets a bounded timed trial of both engines (see
//! [`interpreter_is_faster`]), and the interpreter only wins it by a margin
//! ([`MARGIN`]), so games near 1× keep the fast engine at any load. Network statistics alone did not separate
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

/// The trial times one fixed piece of work on each engine: the same seeded
/// random walk of `steps` joint moves from the initial state, sized so the
/// fast engine takes about [`WALK_MS`]. The walks alternate between the
/// engines, and each engine's **fastest** walk counts: load only ever adds
/// time, and a walk of a few milliseconds often runs uninterrupted even on
/// a loaded machine, so the minimum barely moves with the load (the mean
/// of timed slices did, and games near 1× changed engine from run to run).
const WALK_MS: f64 = 2.0;
/// At least this many walks per engine, at most `MAX_WALKS`, and no new
/// walk once an engine has spent `TRIAL_MS` in all.
const MIN_WALKS: usize = 3;
const MAX_WALKS: usize = 15;
const TRIAL_MS: f64 = 200.0;
/// The margin: the fast engine stays unless the interpreter's fastest walk
/// is this many times faster than the fast engine's. Games within the
/// margin (measured 0.8-1.2× on the corpus: quarto, zombieAttack1PL6,
/// pancakes) cost at most that factor on the fast engine, and a choice
/// near 1× no longer flips with the noise.
pub const MARGIN: f64 = 1.25;

/// The rule, on the walks' times in ms (each engine's fastest walk): the
/// interpreter only when it is more than [`MARGIN`] times faster.
pub fn interpreter_clearly_faster(fast_ms: &[f64], interpreter_ms: &[f64]) -> bool {
    let best = |t: &[f64]| t.iter().copied().fold(f64::INFINITY, f64::min);
    let (f, i) = (best(fast_ms), best(interpreter_ms));
    f.is_finite() && i.is_finite() && f > MARGIN * i
}

/// A trial's timings: each engine's walks (ms), alternating.
#[derive(Clone, Debug, Default)]
pub struct Trial {
    /// Joint moves per walk.
    pub steps: usize,
    pub fast_ms: Vec<f64>,
    pub interpreter_ms: Vec<f64>,
}

impl Trial {
    /// States per second of an engine's fastest walk.
    pub fn rate(&self, walks: &[f64]) -> f64 {
        self.steps as f64 * 1000.0 / walks.iter().copied().fold(f64::INFINITY, f64::min)
    }
}

/// Times both engines on the same seeded random walk (module docs, `None`
/// when a walk fails or the game cannot move).
pub fn trial(fast: &mut Engine, interpreter: &mut Engine) -> Option<Trial> {
    let a = Walk::new(fast)?;
    let b = Walk::new(interpreter)?;
    // Double the walk until the fast engine needs about WALK_MS for it
    // (its fastest of three, so the load seldom changes the length).
    let mut steps = 32;
    loop {
        let best = (0..3).try_fold(f64::INFINITY, |b, _| Some(b.min(a.time(fast, steps)?)))?;
        if best >= WALK_MS || steps >= 1 << 16 {
            break;
        }
        steps *= 2;
    }
    let mut t = Trial {
        steps,
        ..Trial::default()
    };
    while t.fast_ms.len() < MAX_WALKS {
        t.fast_ms.push(a.time(fast, steps)?);
        t.interpreter_ms.push(b.time(interpreter, steps)?);
        let spent = t
            .fast_ms
            .iter()
            .sum::<f64>()
            .max(t.interpreter_ms.iter().sum());
        if t.fast_ms.len() >= MIN_WALKS && spent >= TRIAL_MS {
            break;
        }
    }
    Some(t)
}

/// Why `--engine auto` runs the interpreter on a game that grounds, or
/// `None` to run the fast engine: on a large network, a bounded [`trial`]
/// of both engines and [`interpreter_clearly_faster`].
pub fn interpreter_is_faster(fast: &mut Engine, interpreter: &mut Engine) -> Option<String> {
    let Engine::Fast(f) = fast else {
        return None;
    };
    if !needs_trial(f.stats()) {
        return None;
    }
    let (nodes, base) = (f.stats().nodes, f.stats().base);
    crate::job::progress("grounding: choosing the engine", String::new);
    let t = trial(fast, interpreter)?;
    if !interpreter_clearly_faster(&t.fast_ms, &t.interpreter_ms) {
        return None;
    }
    Some(format!(
        "the interpreter is faster on this game: {:.0} states/s against the fast engine's {:.0} \
         (fastest of {} alternating walks of {} steps each; the fast engine stays unless the \
         interpreter is more than {MARGIN}× faster; network of {nodes} nodes, {base} base propositions)",
        t.rate(&t.interpreter_ms),
        t.rate(&t.fast_ms),
        t.fast_ms.len(),
        t.steps,
    ))
}

/// The trial's random walk; errors end the trial (the fast engine stays).
struct Walk {
    init: EngineState,
}

impl Walk {
    fn new(e: &mut Engine) -> Option<Walk> {
        let init = e.initial_state().ok()?;
        if e.is_terminal(&init).ok()? {
            return None;
        }
        Some(Walk { init })
    }

    /// Milliseconds for `steps` seeded random joint moves from the initial
    /// state (a finished game starts again): the same moves every time.
    fn time(&self, e: &mut Engine, steps: usize) -> Option<f64> {
        let mut rng = fastrand::Rng::with_seed(1);
        let mut state = self.init.clone();
        let mut done = 0;
        let t0 = now_ms();
        while done < steps {
            let p = e.random_playout(&state, &mut rng, steps - done).ok()?;
            // A walk that cannot move (no legal move, no step) would loop.
            if p.steps == 0 && state == self.init {
                return None;
            }
            done += p.steps;
            state = if p.terminal || p.steps == 0 {
                self.init.clone()
            } else {
                p.state
            };
        }
        Some(now_ms() - t0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interpreter_must_be_clearly_faster() {
        // Within the margin the fast engine stays, whatever the noise of
        // the slow walks (load only adds time; the fastest walk counts).
        assert!(!interpreter_clearly_faster(
            &[2.0, 9.0, 2.4],
            &[1.7, 1.8, 5.0]
        ));
        assert!(!interpreter_clearly_faster(&[2.0, 2.1], &[2.0 / MARGIN]));
        // Clearly faster, even when most of its walks were interrupted.
        assert!(interpreter_clearly_faster(
            &[4.0, 4.2, 4.1],
            &[30.0, 1.9, 25.0]
        ));
        // The fast engine faster: it stays.
        assert!(!interpreter_clearly_faster(&[1.0, 1.1], &[2.0, 2.2]));
        // No walk timed: no evidence, the fast engine stays.
        assert!(!interpreter_clearly_faster(&[], &[1.0]));
    }
}
