//! Symbolic solving with BDDs (Kissmann and Edelkamp's method): the game
//! grounded (`ground::ground_program`), its rules turned into BDDs over the
//! base propositions (`circuit.rs`), one transition relation per move
//! (`game.rs`), layered breadth-first reachability (`reach.rs`) and the
//! retrograde classification of the reachable states as sets
//! (`classify.rs`). States are never enumerated: counts are exact model
//! counts of the sets. Values agree with the explicit solver's
//! ([`crate::solve::solve`]); the moves to the end are not computed.

mod bdd;
mod checkpoint;
mod circuit;
mod classify;
mod game;
mod order;
mod reach;
#[cfg(test)]
mod tests;

use super::{Concept, Limits, Refusal};
use crate::ground::{Budget, GroundError};
use crate::program::Program;
use bdd::TooBig;
use game::Game;
pub use order::VarOrder;
use serde::Serialize;

/// Why a symbolic solve ended early.
pub enum Stop {
    Limit(String),
    Refuse(Refusal),
}

impl From<TooBig> for Stop {
    fn from(TooBig(limit): TooBig) -> Stop {
        Stop::Limit(format!("a BDD operation passed the node limit ({limit})"))
    }
}

impl From<Refusal> for Stop {
    fn from(r: Refusal) -> Stop {
        Stop::Refuse(r)
    }
}

/// The time and memory limits of one solve, checked between BDD
/// operations; the operations that build the rules and the relations, where
/// sizes can explode, also stop as soon as a result passes the node limit
/// (`bdd::Space::max_nodes`), so none runs on far past the limits.
pub(crate) struct Clock {
    deadline_ms: f64,
    seconds: f64,
    max_nodes: usize,
}

impl Clock {
    /// Stops when a BDD built (`nodes`, the peak so far) is over the
    /// node limit.
    fn check_nodes(&self, nodes: usize) -> Result<(), Stop> {
        if nodes > self.max_nodes {
            return Err(Stop::Limit(format!(
                "a BDD of {nodes} nodes passed the node limit ({})",
                self.max_nodes
            )));
        }
        Ok(())
    }

    fn check(&self) -> Result<(), Stop> {
        if crate::job::cancelled() {
            return Err(Stop::Limit("cancelled".into()));
        }
        if crate::clock::now_ms() >= self.deadline_ms || crate::job::soft_passed() {
            return Err(Stop::Limit(format!(
                "the time limit ({:.1} s) passed",
                self.seconds
            )));
        }
        if crate::memory::above(0.75) {
            return Err(Stop::Limit(format!(
                "3/4 of the memory budget ({} MB) is in use",
                crate::memory::budget_mb()
            )));
        }
        crate::job::check().map_err(|e| Stop::Limit(e.to_string()))
    }
}

/// States with one value (`goals` `None`: unknown).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct SymbolicCount {
    pub goals: Option<Vec<u8>>,
    #[serde(serialize_with = "ser_count")]
    #[cfg_attr(feature = "typescript", ts(type = "number"))]
    pub states: u128,
}

/// A count as a JSON number: exact up to 2^53 (JavaScript's safe
/// integers, far above any count reached here), rounded above.
fn ser_count<S: serde::Serializer>(n: &u128, s: S) -> Result<S::Ok, S::Error> {
    const SAFE: u128 = 1 << 53;
    if *n <= SAFE {
        s.serialize_u64(*n as u64)
    } else {
        s.serialize_f64(*n as f64)
    }
}

fn ser_counts<S: serde::Serializer>(ns: &[u128], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(ns.len()))?;
    for n in ns {
        seq.serialize_element(&Count(*n))?;
    }
    seq.end()
}

struct Count(u128);

impl Serialize for Count {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        ser_count(&self.0, s)
    }
}

/// Figures of a symbolic solve.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase")
)]
pub struct SymbolicStats {
    /// Reachable states (exact; of the layers done when stopped early).
    #[serde(serialize_with = "ser_count")]
    #[cfg_attr(feature = "typescript", ts(type = "number"))]
    pub states: u128,
    #[serde(serialize_with = "ser_count")]
    #[cfg_attr(feature = "typescript", ts(type = "number"))]
    pub terminal: u128,
    /// Reachable states per breadth-first layer.
    #[serde(serialize_with = "ser_counts")]
    #[cfg_attr(feature = "typescript", ts(type = "Array<number>"))]
    pub layers: Vec<u128>,
    /// Seconds spent finding each layer (0 for the initial state), also
    /// in runs before a resumed count's.
    pub layer_seconds: Vec<f64>,
    /// Every successor of a layer's states is in the next layer (then the
    /// classification goes backwards layer by layer).
    pub layered: bool,
    /// Base propositions (BDD variables: twice as many).
    pub propositions: usize,
    /// The variable order used.
    pub order: VarOrder,
    /// Transition relations (moves that are legal somewhere) and their nodes.
    pub relations: usize,
    pub relation_nodes: usize,
    /// The largest BDD built.
    pub peak_nodes: usize,
    pub seconds: f64,
}

/// What `gdlkit solve --symbolic` reports (`solveSymbolic` in JS).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase")
)]
pub struct SymbolicSummary {
    pub concept: Option<Concept>,
    pub roles: Vec<String>,
    pub complete: bool,
    pub stopped: Option<String>,
    /// The initial state's goals under perfect play (`None`: unknown).
    pub initial: Option<Vec<u8>>,
    /// States by value, best first for the first role.
    pub by_value: Vec<SymbolicCount>,
    pub stats: SymbolicStats,
}

/// How much a symbolic solve may do.
#[derive(Clone, Debug, PartialEq)]
pub struct SymbolicLimits {
    /// Wall-clock seconds, grounding included (it gets at most a third).
    pub seconds: f64,
    /// Nodes of one BDD at most (biodivine's nodes are 10 bytes, and an
    /// operation holds its operands, its result and its caches).
    pub max_nodes: usize,
    pub order: VarOrder,
    /// Only count the reachable states (per layer, and the terminal ones):
    /// no goals, no classification. The terminal states are then taken
    /// away from each layer rule instance by rule instance, never built as
    /// one BDD, which lets boards count whose "four in a line" alone
    /// passes the node limit (connect four 6 × 5 and 7 × 6).
    pub count_only: bool,
    /// When only counting: a directory where each layer's count is saved
    /// and from which a count of the same game resumes.
    pub checkpoint: Option<std::path::PathBuf>,
}

impl Default for SymbolicLimits {
    fn default() -> SymbolicLimits {
        SymbolicLimits {
            seconds: Limits::default().seconds,
            max_nodes: 4_000_000,
            order: VarOrder::default(),
            count_only: false,
            checkpoint: None,
        }
    }
}

/// Solves `program` symbolically within `limits`.
pub fn solve_symbolic(
    program: &Program,
    limits: &SymbolicLimits,
) -> Result<SymbolicSummary, Refusal> {
    let t0 = crate::clock::now_ms();
    let clock = Clock {
        deadline_ms: t0 + limits.seconds * 1000.0,
        seconds: limits.seconds,
        max_nodes: limits.max_nodes,
    };
    let budget = Budget {
        max_ms: Budget::default().max_ms.min(limits.seconds * 1000.0 / 3.0),
        ..Budget::default()
    };
    let gp = crate::ground::ground_program(program, budget).map_err(|e: GroundError| {
        Refusal(format!("symbolic solving needs the grounded game: {e}"))
    })?;
    let roles: Vec<String> = gp.roles.iter().map(|&r| gp.store.display(r)).collect();
    if roles.is_empty() || roles.len() > 2 {
        return Err(Refusal(format!(
            "the game has {} roles: solving covers one role (best plan) and two roles taking turns (minimax); more roles have no single solved value",
            roles.len()
        )));
    }
    let positions = order::positions(&gp, limits.order);
    let fingerprint = order::fingerprint(&gp, &positions);
    let space = bdd::Space::new(&positions, limits.max_nodes).ok_or_else(|| {
        Refusal(format!(
            "{} base propositions are more than the BDD library's variables",
            gp.fluents.len()
        ))
    })?;
    let mut summary = SymbolicSummary {
        concept: None,
        roles,
        complete: false,
        stopped: None,
        initial: None,
        by_value: Vec::new(),
        stats: SymbolicStats {
            propositions: gp.fluents.len(),
            order: limits.order,
            ..SymbolicStats::default()
        },
    };
    let finish = |mut s: SymbolicSummary, peak: usize| {
        s.stats.peak_nodes = s.stats.peak_nodes.max(peak);
        s.stats.seconds = (crate::clock::now_ms() - t0) / 1000.0;
        s
    };
    let mut game = match Game::build(&gp, space, &clock, !limits.count_only) {
        Ok(g) => g,
        Err(Stop::Refuse(r)) => return Err(r),
        Err(Stop::Limit(why)) => {
            summary.stopped = Some(format!("{why} (building the transition relations)"));
            return Ok(finish(summary, 0));
        }
    };
    drop(gp);
    summary.stats.relations = game.rels.len();
    summary.stats.relation_nodes = game.relation_nodes();
    let checkpoint = (limits.checkpoint.as_deref())
        .filter(|_| limits.count_only)
        .map(|dir| checkpoint::Checkpoint::new(dir, fingerprint));
    let result = run(
        &mut game,
        &mut summary,
        &clock,
        limits.count_only,
        checkpoint.as_ref(),
    );
    let peak = game.space.peak_nodes;
    match result {
        Ok(()) => summary.complete = true,
        Err(Stop::Refuse(r)) => return Err(r),
        Err(Stop::Limit(why)) => summary.stopped = Some(why),
    }
    Ok(finish(summary, peak))
}

/// Reachability, the checks, the classification into `summary`; when
/// counting with a checkpoint, reachability only, from the checkpoint on.
fn run(
    game: &mut Game,
    summary: &mut SymbolicSummary,
    clock: &Clock,
    count_only: bool,
    checkpoint: Option<&checkpoint::Checkpoint>,
) -> Result<(), Stop> {
    let vars = usize::from(game.init.num_vars());
    let start = match checkpoint.map(|c| c.load(vars)).transpose()? {
        Some(Some(saved)) => saved,
        _ => reach::Reached::start(game),
    };
    let mut save = |r: &reach::Reached| checkpoint.map_or(Ok(()), |c| c.save(r));
    let (reach, result) = reach::reach(game, clock, start, !count_only, &mut save);
    summary.stats.layers = reach.layers.clone();
    summary.stats.layer_seconds = reach.seconds.clone();
    summary.stats.layered = reach.layered;
    summary.stats.states = reach.layers.iter().sum();
    summary.stats.terminal = reach.terminal;
    result?;
    if count_only {
        return Ok(());
    }
    game.check(&reach.all, &summary.roles)?;
    let terminal = classify::terminal_values(game, &reach.all);
    let concept = classify::concept(game.roles, &terminal);
    game.restrict(&reach.all);
    summary.concept = Some(concept);
    crate::job::progress("solve --symbolic: retrograde classification", String::new);
    let values = classify::classify(game, &reach, &terminal, concept, clock)?;
    let roles = game.roles;
    let mut known = game.space.f();
    let mut counts: Vec<([u8; 2], u128)> = Vec::new();
    for (g, set) in &values {
        let set = &set.and(&reach.all);
        if !game.init.and(set).is_false() {
            summary.initial = Some(g[..roles].to_vec());
        }
        known = known.or(set);
        let n = game.space.count(set);
        if n > 0 {
            counts.push((*g, n));
        }
    }
    counts.sort_by_key(|&(g, _)| (std::cmp::Reverse(g[0]), g[1]));
    summary.by_value = counts
        .into_iter()
        .map(|(g, states)| SymbolicCount {
            goals: Some(g[..roles].to_vec()),
            states,
        })
        .collect();
    let unknown = game.space.count(&reach.all.and_not(&known));
    if unknown > 0 {
        summary.by_value.push(SymbolicCount {
            goals: None,
            states: unknown,
        });
    }
    Ok(())
}
