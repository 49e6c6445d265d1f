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
/// engine"); the games measured slower have 20,000 nodes or more
/// (amazonsTorus, racer, crisscross, ...) or 500 base propositions or more
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
/// a loaded machine, so the best rate barely moves with the load (the mean
/// of timed slices did, and games near 1× changed engine from run to run).
const WALK_MS: f64 = 2.0;
/// A slow network's walk: about this long (at least one step).
const LONG_WALK_MS: f64 = 20.0;
/// A walk stops after this long (an engine hundreds of times slower than
/// the other); the rate of the part done counts.
const WALK_CAP_MS: f64 = 100.0;
/// Joint moves per call between two reads of the clock.
const CHUNK: usize = 4;
/// Walks per engine: at most `MAX_WALKS`; none after `TRIAL_MS` (the
/// slower engine's time) once there are `MIN_WALKS` or the rates are
/// clearly apart (beyond 2× the margin).
const MIN_WALKS: usize = 3;
const MAX_WALKS: usize = 15;
const TRIAL_MS: f64 = 200.0;
/// The margin: the fast engine stays unless the interpreter's best rate is
/// more than this many times the fast engine's. Games within the margin
/// (measured 0.8-1.2× on the corpus: quarto, zombieAttack1PL6, kalaha6x2x4)
/// cost at most that factor on the fast engine, and a choice near 1× no
/// longer flips with the noise.
pub const MARGIN: f64 = 1.25;

/// The best of some walks' rates (states per second), 0 without any.
fn best(rates: &[f64]) -> f64 {
    rates.iter().copied().fold(0.0, f64::max)
}

/// The rule, on the walks' rates (each engine's best walk): the
/// interpreter only when it is more than [`MARGIN`] times faster.
pub fn interpreter_clearly_faster(fast_rates: &[f64], interpreter_rates: &[f64]) -> bool {
    let (f, i) = (best(fast_rates), best(interpreter_rates));
    f > 0.0 && i > MARGIN * f
}

/// A trial's walks: each engine's rates (states per second), alternating.
#[derive(Clone, Debug, Default)]
pub struct Trial {
    /// Joint moves per walk.
    pub steps: usize,
    pub fast: Vec<f64>,
    pub interpreter: Vec<f64>,
}

impl Trial {
    /// The interpreter's best rate over the fast engine's.
    pub fn ratio(&self) -> f64 {
        best(&self.interpreter) / best(&self.fast).max(f64::MIN_POSITIVE)
    }
}

/// Times both engines on the same seeded random walk (module docs, `None`
/// when a walk fails or the game cannot move).
pub fn trial(fast: &mut Engine, interpreter: &mut Engine) -> Option<Trial> {
    let a = Walk::new(fast)?;
    let b = Walk::new(interpreter)?;
    let steps = walk_length(&a, fast)?;
    let mut t = Trial {
        steps,
        ..Trial::default()
    };
    let (mut spent_a, mut spent_b) = (0.0, 0.0);
    while t.fast.len() < MAX_WALKS {
        let (done, ms) = a.run(fast, steps)?;
        t.fast.push(done as f64 * 1000.0 / ms.max(1e-3));
        spent_a += ms;
        let (done, ms) = b.run(interpreter, steps)?;
        t.interpreter.push(done as f64 * 1000.0 / ms.max(1e-3));
        spent_b += ms;
        let clear = !(0.5..=2.0 * MARGIN).contains(&t.ratio());
        if f64::max(spent_a, spent_b) >= TRIAL_MS && (t.fast.len() >= MIN_WALKS || clear) {
            break;
        }
    }
    Some(t)
}

/// The walk's length: doubled from 4 steps until the fast engine's
/// fastest of three takes [`WALK_MS`] (so the load seldom changes it); a
/// slow network's is cut to about [`LONG_WALK_MS`].
fn walk_length(a: &Walk, fast: &mut Engine) -> Option<usize> {
    let mut steps = 4;
    loop {
        let (done, ms) = a.run(fast, steps)?;
        let full = ms * steps as f64 / done.max(1) as f64;
        if full >= LONG_WALK_MS {
            return Some(((steps as f64 * LONG_WALK_MS / full) as usize).max(1));
        }
        let best = (0..2).try_fold(ms, |b, _| Some(b.min(a.run(fast, steps)?.1)))?;
        if best >= WALK_MS || steps >= 1 << 16 {
            return Some(steps);
        }
        steps *= 2;
    }
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
    if !interpreter_clearly_faster(&t.fast, &t.interpreter) {
        return None;
    }
    Some(format!(
        "the interpreter is faster on this game: {:.0} states/s against the fast engine's {:.0} \
         (best of {} alternating walks of {} steps each; the fast engine stays unless the \
         interpreter is more than {MARGIN}× faster; network of {nodes} nodes, {base} base propositions)",
        best(&t.interpreter),
        best(&t.fast),
        t.fast.len(),
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

    /// `steps` seeded random joint moves from the initial state (a finished
    /// game starts again), the same moves every time, or fewer after
    /// [`WALK_CAP_MS`]: the steps done and the milliseconds.
    fn run(&self, e: &mut Engine, steps: usize) -> Option<(usize, f64)> {
        let mut rng = fastrand::Rng::with_seed(1);
        let mut state = self.init.clone();
        let mut done = 0;
        let t0 = now_ms();
        while done < steps {
            let ask = (steps - done).min(CHUNK);
            let (p, _) = e.scored_playout(&state, &mut rng, ask).ok()?;
            // A walk that cannot move (no legal move, no step) would loop.
            if p.steps == 0 && state == self.init {
                return None;
            }
            done += p.steps;
            state = if p.terminal || p.steps < ask {
                self.init.clone()
            } else {
                p.state
            };
            if now_ms() - t0 >= WALK_CAP_MS {
                break;
            }
        }
        Some((done, now_ms() - t0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interpreter_must_be_clearly_faster() {
        // Rates (states/s). Within the margin the fast engine stays,
        // whatever the noise of the slow walks (load only lowers a rate;
        // the best walk counts).
        assert!(!interpreter_clearly_faster(
            &[1000.0, 200.0, 800.0],
            &[1150.0, 1100.0, 400.0]
        ));
        assert!(!interpreter_clearly_faster(
            &[1000.0, 950.0],
            &[1000.0 * MARGIN]
        ));
        // Clearly faster, even when most of its walks were interrupted.
        assert!(interpreter_clearly_faster(
            &[500.0, 480.0, 490.0],
            &[60.0, 1050.0, 80.0]
        ));
        // The fast engine faster: it stays.
        assert!(!interpreter_clearly_faster(
            &[2000.0, 1900.0],
            &[1000.0, 900.0]
        ));
        // No walk timed: no evidence, the fast engine stays.
        assert!(!interpreter_clearly_faster(&[], &[1.0]));
    }
}
