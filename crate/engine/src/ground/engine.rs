//! The fast engine at run time: differential propagation over the network.
//!
//! The network keeps the values of one current state and joint move. Asking
//! about another state flips only the base propositions that differ (in a
//! playout, a handful) and propagates: each flip adjusts the counts of the
//! node's successors, and a successor whose threshold test changes is
//! flipped in turn. Legal moves (per role) and the next state are bitsets
//! maintained by hooks on the nodes that define them, so reading them costs
//! nothing extra. A cyclic component is recomputed as a unit (least
//! fixpoint) when one of its inputs changed. No allocation per step.

use super::network::{Network, NONE};
use super::passes::Gates;
pub use super::tables::Tables;
use super::GroundStats;
use crate::terms::{TermId, TermStore};
pub use expand::Expansion;
use smallvec::SmallVec;

mod build;
mod expand;
mod greedy;
mod machine;
mod playout;
mod propagate;
#[cfg(test)]
mod tests;

pub(crate) use playout::bit_positions;

/// A state of the fast engine: one bit per base proposition.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct BitState(pub SmallVec<[u64; 4]>);

impl BitState {
    fn zero(words: usize) -> BitState {
        BitState(SmallVec::from_elem(0, words))
    }
    pub fn get(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
    fn set(&mut self, i: usize, v: bool) {
        if v {
            self.0[i / 64] |= 1 << (i % 64);
        } else {
            self.0[i / 64] &= !(1 << (i % 64));
        }
    }
    pub fn count(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
}

/// A node's run-time state is one `u32`: its count in the low 24 bits and
/// its flags above (4 bytes a node: one load for a count update and its
/// target's test, and a smaller working set than separate arrays).
/// Count offset: a gate of threshold `thr` starts at `OFFSET - thr` and
/// its count says true when bit 23 is set (no load of `thr`). The count
/// stays within 24 bits because no gate has `MAX_FAN_IN` inputs or more.
const OFFSET: u32 = 1 << 23;
/// Flags: the node's value (one bit above the count's test bit, so that
/// `s ^ s >> 1` compares them), it has hooks, it is queued.
const V: u32 = 1 << 24;
const HOOKED: u32 = 1 << 25;
/// Edge flags: the target needs the slow path (it is in a cyclic
/// component, or a guarded AND); the input is negated.
const E_SCC: u32 = 2;
const E_NEG: u32 = 1;
const QUEUED: u32 = 1 << 26;
/// Propagate level by level (each node changes at most once per update)
/// rather than last in, first out. Measured (instructions per playout,
/// callgrind): ticTacToe 60k levelled vs 54k LIFO, chess_200 85M both, so
/// the simpler order is used; the levels stay for the comparison.
const LEVELLED: bool = false;
const SCC_MARK: u32 = 1 << 31;
/// With `SCC_MARK`, a queue item is a guarded AND, not a component.
const GUARD_ITEM: u32 = 1 << 30;
/// Flags of guarded ANDs (see [`guards`](super::guards)): the node leaves its
/// guard out of its count; it is in its guard's armed list. And of guards:
/// the node guards ANDs.
const GUARDED: u32 = 1 << 27;
const ARMED: u32 = 1 << 28;
const GUARDS: u32 = 1 << 29;
/// Let `does` inputs with many ANDs guard them (see [`guards`](super::guards));
/// a switch for measuring.
const GUARD_ANDS: bool = true;
/// States of at most this many words are set word by word; larger ones
/// through the list of the words that change (pancakes88: 630 words).
const DENSE_WORDS: usize = 4;
/// Take shared inputs out of legal gates (see [`Gates`]); a switch for
/// measuring.
const GATE_LEGALS: bool = true;
/// Merge single-successor ORs into ORs, ANDs into ANDs (see [`flatten`](super::passes::flatten)).
const FLATTEN: bool = true;
/// Allow the new-move-first order in [`FastEngine::set_inputs`] (see
/// [`frame_inputs`](super::passes::frame_inputs)); a switch for measuring.
const NEW_FIRST: bool = true;
/// Rewrite wide ORs over most `does` inputs as their complement (see
/// [`complement_ors`](super::passes::complement_ors)); a switch for measuring.
const COMPLEMENT: bool = true;
/// Factor shared literals out of ORs of ANDs (see [`factor_ors`](super::factor::factor_ors)); a
/// switch for measuring.
const FACTOR: bool = true;

/// The fast engine: a grounded game evaluated as a propositional network.
#[derive(Clone)]
pub struct FastEngine {
    store: TermStore,
    net: Network,
    t: Tables,
    stats: GroundStats,
    /// `target << 2 | in-cycle << 1 | negated`, per node from `out_start`.
    edges: Vec<u32>,
    // Run-time values.
    /// Per node its count and flags (see [`OFFSET`]).
    ns: Vec<u32>,
    /// The state held and its successor under the inputs set: plain
    /// vectors, not `BitState`s, so that the hooks' bit flips do not test
    /// whether a small vector spilled.
    cur: Vec<u64>,
    /// What the hooks maintain, in one bitset so that a hook is a bit
    /// position and its update one XOR: the successor state in the first
    /// `cur.len()` words, then the legal propositions (see `legal_word`).
    hooked: Vec<u64>,
    /// A buffer for copying the successor state without allocating.
    spare: Vec<u64>,
    /// A buffer for the words of the state that change (see
    /// `FastEngine::set_state`).
    diff: Vec<(u32, u64)>,
    /// The one hook bit of a node, or `NONE` (several: `hook_bits`).
    hook: Vec<u32>,
    /// `net.hooks` as positions in `hooked` (same `net.hook_start`).
    hook_bits: Vec<u32>,
    /// Nodes needed only for goals: not propagated, evaluated on demand
    /// (`lazy_order`, topological, with their inputs `lazy_in`).
    lazy_order: Vec<u32>,
    lazy_in_start: Vec<u32>,
    lazy_in: Vec<u32>,
    lazy_fresh: bool,
    /// Legal propositions that are true: role `r`'s bits start at word
    /// `legal_word[r]` of `hooked` (bit `i` is legal proposition
    /// `legal_start[r] + i`).
    legal_word: Vec<u32>,
    /// Inputs taken out of legal gates (see [`Gates`]), and a buffer for
    /// a role's legal bits with their masks applied.
    gates: Gates,
    masked: Vec<u64>,
    /// Input nodes currently set, and how many distinct ones count in the
    /// complement gates (see [`complement_ors`](super::passes::complement_ors)).
    inputs: SmallVec<[u32; 8]>,
    inputs_on: u32,
    /// Gates whose count includes `inputs_on`, and per node whether it
    /// counts in it (see [`complement_ors`](super::passes::complement_ors)).
    complement: Vec<u32>,
    counted: Vec<bool>,
    /// Per node the index of its guard in `guard_nodes` (empty without
    /// guards), the guard nodes (sorted), and per guard the ANDs it guards
    /// whose other inputs are true (and some that no longer are, dropped
    /// when the guard flips).
    guard_of: Vec<u32>,
    guard_nodes: Vec<u32>,
    armed: Vec<Vec<u32>>,
    /// Per guard: how often it flipped and the work its list cost (see
    /// `cheap_guards`).
    guard_flips: Vec<u64>,
    guard_work: Vec<u64>,
    /// Propagation work so far, for the guard trial's budget: the edges out
    /// of flipped leaves and of recomputed cyclic components (counting every
    /// gate's flip cost ~2% of a playout's instructions). Work, not time, so
    /// the network kept does not depend on the machine's speed or load.
    work_done: u64,
    /// Longest path from a leaf: a node's inputs all have smaller levels.
    level: Vec<u32>,
    /// Nodes (or `SCC_MARK | component`) waiting, per level: propagation
    /// goes level by level, so each node changes at most once per update.
    buckets: Vec<Vec<u32>>,
    /// Nodes (or `SCC_MARK | component`) waiting, last in first out (the
    /// order used, see [`LEVELLED`]).
    stack: Vec<u32>,
    /// Lowest and highest level with waiting nodes.
    lo: usize,
    hi: usize,
    dirty_flag: Vec<bool>,
    scratch: Vec<bool>,
    work: Vec<u32>,
    /// [`Self::set_inputs`] turns the new moves on before the old ones off
    /// (see [`frame_inputs`](super::passes::frame_inputs)).
    new_first: bool,
    /// The subgame this copy plays in ([`FastEngine::enter_subgame`]), or
    /// `NONE` for the whole game; and the move that stands for a pass.
    part: u32,
    pass: Option<TermId>,
    /// In a subgame, the state whose fluents outside the part every query
    /// reads ([`FastEngine::hold_subgame`]), if one is held.
    held: Option<Vec<u64>>,
}

impl FastEngine {
    pub fn stats(&self) -> &GroundStats {
        &self.stats
    }

    /// The network as run (flattened; its edges, as in `Self::edges`, and
    /// each node's level): `crate::engine::choice` reads its shape.
    pub fn layout(&self) -> (&Network, &[u32], &[u32]) {
        (&self.net, &self.edges, &self.level)
    }

    /// The game's independent subgames, where it has two or more.
    pub fn subgame_parts(&self) -> Option<&super::subgames::Subgames> {
        self.t.subgames.as_deref()
    }

    pub(super) fn finish_stats(&mut self, t0: f64) {
        self.stats.ms = crate::clock::now_ms() - t0;
    }
}
