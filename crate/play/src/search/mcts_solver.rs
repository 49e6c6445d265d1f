//! MCTS-Solver with the tree kept between moves (`mcts:solver=on`).
//!
//! The statistics are those of [`super::mcts`] (per node and role, each
//! move's visits and summed reward: decoupled UCT, which is plain
//! single-perspective UCT where one role moves), with these additions:
//! - **Proven values** (MCTS-Solver, Winands et al.): a terminal node is
//!   proven with its goals; a node where one role chooses is proven as soon
//!   as one child gives that role the top reward 1, or once every child is
//!   proven (the best for the mover); a node where several roles choose is
//!   proven only when every joint child is proven with the same rewards.
//!   Selection scores a proven child by its exact value without a bonus, an
//!   iteration that reaches a proven node backs up its value, and the move
//!   played is a proven win at once, never a proven loss while another
//!   move is open.
//! - **Decisive moves**: on a node's second visit, where one role moves,
//!   each of its moves is tried once; one that ends the game with the
//!   mover's top reward proves the node at once (and its parent sees a
//!   proven loss: anti-decisive). Otherwise that iteration's playout
//!   starts at the node. A new node whose first playout won at its first
//!   step for its only mover is checked at once.
//! - **Moves into proven losses choked off** (after Sancho; `choke=off`
//!   counts them; in `mcts-solver` `auto`: on where the material is
//!   counted): an iteration that ends on a child proven lost for the
//!   role that moved into it, while that role has another move open,
//!   counts at that node only; the visits above are taken back.
//! - **Transpositions** (`transpositions=on`; in the player `auto`, on
//!   where no material is counted): one node per state, so a proof found
//!   by one move order serves every other. A move's statistics stay its
//!   parent's; a link that would close a cycle on the walk down ends the
//!   walk with a playout.
//! - **The tree is kept** between moves: the next search starts from the
//!   node of the new state (a child or grandchild of the old root, found by
//!   state equality), with its statistics, and the rest is dropped. It
//!   grows to [`Config::max_nodes`] or half the memory budget.
//! - **MAST playouts** (`mast=on`): moves drawn epsilon-greedily by their
//!   average reward over earlier playouts; or **PPA** (`mast=ppa`): by a
//!   softmax policy that learns the winners' moves
//!   ([`crate::reasoner::mast`]). Either is kept for the whole game.
//! - **RAVE** (`rave=K`): each move's mean mixed with its all-moves-as-first
//!   mean, as in [`super::mcts`]; the tree's nodes hold moves as terms, so
//!   a playout's trail is read back as terms ([`StateMachine::slot_move`]).
//! - **Tree-parallel on N threads**: one tree, grown by every thread.
//!   A thread locks it to walk down, and again to add the new node and
//!   the rewards; the engine's work between (the new node's state and
//!   moves, the decisive-move check, the playout) runs unlocked. A move
//!   counts its visit on the way down (a virtual loss until the rewards
//!   arrive), so the threads spread over different lines.
//! - **Material** (`eval=material`, two roles; after Sancho's piece
//!   heuristic): where an exchange of pieces ends (a quiet move after one
//!   or more captures), the node's rewards are shifted, on their way up,
//!   towards the role that came out of the exchange with more: by
//!   `2σ(t/4 · Δ) − 1` of the distance to the top (or bottom) reward, `Δ`
//!   the change of role 0's balance `(own − theirs)/(own + theirs)` over
//!   the exchange, `t` the pieces on the board. Random playouts count
//!   material only by its chances to win the race to the end; the shift
//!   makes a piece won in the tree worth something at once. Proven
//!   rewards are not shifted. The decisive-move check, which makes the
//!   mover's child states anyway, also seeds the captures: tried before
//!   the other untried moves, with the node's mean displaced alike counted
//!   in their means as `SEED_WEIGHT` visits.
//! - **Implicit minimax backups** (`minimax=A`, with the material;
//!   Lanctot et al. 2014, as in [`super::mcts`]): each node keeps a value
//!   per role, its state's material estimate when made, then after each
//!   iteration that of the child its mover values most (a proven child by
//!   its proven rewards); where one role moves, selection mixes each
//!   move's mean with its child's value, `(1 − A) · mean + A · value`.
//! - **The tactical check** (`tactics=on`; in `mcts-solver` `auto`, on
//!   where the material is counted): forced
//!   wins and losses at the root proven by [`super::tactics`] on a thread
//!   beside the walkers (that thread walks too once the check has
//!   ended, and in the move's last part searches again the move the tree
//!   then ranks first), marked in the root's view as proven values.
//!
//! The move played is our role's most visited root move (ties: higher
//! mean), after the proven values above.

use super::learned::{displace, piece_value, LearnedEval, Material};
use super::mcts::{implicit_estimate, most_valued, rave_mix};
use super::parallel::{run_all, worker_seed, Job};
use super::root::{choose, ranked, RootStats, WIN};
use super::tactics::{self, Proofs};
use super::{searched_move, since, Budget, Limit, Player, SearchResult, Stats};
use crate::clock::now_ms;
use crate::reasoner::greedy::Enders;
use crate::reasoner::mast::{Mast, Rule};
use crate::reasoner::{only_mover, rewards, EvalError, StateMachine};
use crate::terms::TermId;
use rustc_hash::{FxHashMap, FxHashSet, FxHasher};
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

#[derive(Clone, Debug)]
pub struct Config {
    pub budget: Budget,
    /// UCB1 exploration constant (rewards are in [0, 1]).
    pub exploration: f64,
    /// Tree nodes before the tree stops growing (playouts continue); it
    /// also stops at half the memory budget, and that size is then the cap
    /// for the rest of the game.
    pub max_nodes: usize,
    /// Step cap of one playout.
    pub playout_steps: usize,
    /// Keep the tree between moves.
    pub reuse: bool,
    /// With the tree kept, grow it on the opponents' time (a player
    /// server). Off, for measuring on one machine: there pondering takes
    /// the opponent's cores.
    pub ponder: bool,
    /// Playouts drawn by move statistics: MAST or PPA (none: uniform).
    pub mast: Option<Rule>,
    /// Greedy playouts: decisive and anti-decisive moves
    /// ([`crate::reasoner::greedy`]).
    pub greedy: bool,
    /// The pieces counted for the material shift (two roles).
    pub material: Option<Arc<LearnedEval>>,
    /// RAVE's equivalence constant `K` (0: off): a move's mean is mixed
    /// with its all-moves-as-first mean, weight `sqrt(K / (3n + K))`.
    pub rave: u32,
    /// Prove forced wins and losses at the root
    /// ([`super::tactics`]): on a thread of its own beside the walkers,
    /// or in [`TACTICS_SHARE`] of the time on one thread.
    pub tactics: bool,
    /// Implicit minimax backups over the material evaluation (0: off):
    /// the weight of a child's minimax value in its move's mean.
    pub minimax: f64,
    /// A move into a proven loss for its mover is not counted above its
    /// node while the mover has another move open, and a new node whose
    /// first playout won at once for its mover is checked at once
    /// (`choke=off`: counted, and checked on the second visit).
    pub choke: bool,
    /// One node per state: a move into a state the tree holds links to
    /// its node, so a proof or a statistic found by one move order serves
    /// every other.
    pub transpositions: bool,
}

/// The share of a move's time the tactical check takes where it cannot
/// run beside the tree search (one thread).
pub const TACTICS_SHARE: f64 = 0.3;

/// The last share of a move's time, where the check beside the tree looks
/// again at the move the tree then ranks first ([`tactics::confirm`]).
pub const CONFIRM_SHARE: f64 = 0.15;

impl Default for Config {
    fn default() -> Config {
        Config {
            budget: Budget::default(),
            exploration: 0.7,
            max_nodes: 5_000_000,
            playout_steps: 1000,
            reuse: true,
            ponder: true,
            mast: None,
            greedy: false,
            material: None,
            rave: 0,
            tactics: false,
            minimax: 0.0,
            choke: true,
            transpositions: false,
        }
    }
}

#[derive(Clone, Copy)]
struct Arm {
    visits: u32,
    /// With material, a capture's expected reward (NaN: none): tried
    /// first, and counted in the mean as [`SEED_WEIGHT`] visits.
    seed: f32,
    total: f64,
}

impl Default for Arm {
    fn default() -> Arm {
        Arm {
            visits: 0,
            seed: f32::NAN,
            total: 0.0,
        }
    }
}

/// A move's all-moves-as-first statistics (RAVE): the iterations through
/// its node in which its role made it there or later, and their rewards.
#[derive(Clone, Copy, Default)]
struct Amaf {
    visits: u32,
    total: f32,
}

impl Amaf {
    fn mean(self) -> f64 {
        self.total as f64 / self.visits.max(1) as f64
    }
}

/// The visits a capture's seed counts for in its move's mean (Sancho's
/// piece heuristic counts 2 to 6).
const SEED_WEIGHT: f64 = 4.0;

/// The exploration constant `c=auto` (the default) picks from the game's
/// length, after Sancho's rule: a game whose random playouts from the
/// initial state last `L` joint moves gets `15 / L + 0.4` in [0.5, 1.2],
/// times 0.7 with material (Sancho found piece games like less
/// exploration), over √2 for this UCB1's form. `L` is the mean length
/// moved towards the middle of the shortest and longest by the spread
/// (Sancho's correction for skewed lengths). Breakthrough gets about 0.3,
/// connect four about 0.7; in self-play 0.4 beat 0.7 in breakthrough, and
/// 0.7 beat 0.3 in connect four. At most `playouts` playouts and
/// `max_ms`: counted, not timed, below that, so a seed gives one value
/// everywhere.
pub fn auto_exploration<M: StateMachine>(
    m: &mut M,
    seed: u64,
    material: bool,
    playouts: usize,
    max_ms: f64,
) -> Result<f64, EvalError> {
    let t0 = now_ms();
    let s0 = m.initial_state()?;
    let mut rng = fastrand::Rng::with_seed(seed ^ 0xc0a5);
    let mut lengths = Vec::with_capacity(playouts);
    while lengths.len() < playouts && (lengths.is_empty() || now_ms() - t0 < max_ms) {
        lengths.push(m.random_playout(&s0, &mut rng, 1000)?.steps as f64);
    }
    let n = lengths.len() as f64;
    let mean = lengths.iter().sum::<f64>() / n;
    let sd = (lengths.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / n).sqrt();
    let (lo, hi) = lengths
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &l| (a.min(l), b.max(l)));
    let length = (mean + ((lo + hi) / 2.0 - mean) * sd / mean.max(1.0)).max(1.0);
    let bias = (15.0 / length + 0.4).clamp(0.5, 1.2);
    let bias = if material { 0.7 * bias } else { bias };
    Ok(bias / std::f64::consts::SQRT_2)
}

impl Arm {
    /// The mean selection sees: the seed counted in.
    fn score(self) -> f64 {
        if self.seed.is_nan() {
            return self.mean();
        }
        (self.total + SEED_WEIGHT * self.seed as f64) / (self.visits as f64 + SEED_WEIGHT)
    }

    fn mean(self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.total / self.visits as f64
        }
    }
}

/// Joint children of a node where several roles choose, beyond which the
/// solver does not try to prove it.
const MAX_PROVEN_JOINTS: u64 = 256;

struct Node<S> {
    state: S,
    /// Legal moves per role (empty when terminal).
    legal: Vec<Vec<TermId>>,
    /// Per role, per legal move.
    arms: Vec<Vec<Arm>>,
    /// With RAVE, shaped as `arms` once an iteration has passed (else
    /// empty).
    amaf: Vec<Vec<Amaf>>,
    /// Mixed-radix weights: the joint index is `sum(pick[r] * strides[r])`.
    strides: Vec<u64>,
    visits: u32,
    children: FxHashMap<u64, u32>,
    /// Exact rewards per role in [0, 1] once solved.
    proven: Option<Box<[f64]>>,
    /// The mover's move that ends the game with its top reward, found by
    /// [`Searcher::decisive`] (the node is then proven).
    winning: Option<u16>,
    /// Whether [`Searcher::decisive`] has looked at this node.
    checked: bool,
    /// Where the node stands in an exchange of pieces (with material).
    exchange: Exchange,
    /// With implicit minimax, the node's value per role: its state's
    /// material estimate, then that of the child its mover values most
    /// (empty: off).
    implicit: Box<[f64]>,
}

/// A node's material, for the shift at the end of an exchange.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Exchange {
    /// Role 0's balance `(own − theirs) / (own + theirs)`.
    balance: f64,
    /// The balance before the exchange the node is in (its own when the
    /// move into it took nothing).
    before: f64,
    /// Whether the move into the node changed the balance.
    took: bool,
    /// The shift of the rewards passing up through the node: towards
    /// role 0's top reward when positive, role 1's when negative.
    shift: f64,
}

impl Exchange {
    /// The exchange of a node with role 0's `balance` and `total` pieces,
    /// the child of a node with `parent`'s (none: the root).
    fn after(parent: Option<Exchange>, balance: f64, total: f64) -> Exchange {
        let Some(parent) = parent else {
            return Exchange {
                balance,
                before: balance,
                ..Exchange::default()
            };
        };
        let took = (balance - parent.balance).abs() > 1e-9;
        let before = match (took, parent.took) {
            (false, _) => balance,
            (true, true) => parent.before,
            (true, false) => parent.balance,
        };
        // A quiet move after captures ends the exchange: its outcome counts.
        let shift = if !took && parent.took {
            2.0 * piece_value(balance - parent.before, total) - 1.0
        } else {
            0.0
        };
        Exchange {
            balance,
            before,
            took,
            shift,
        }
    }

    /// `value` of role `r`, displaced as Sancho's piece heuristic does
    /// towards the top reward (or the bottom) by the change `gain` of role
    /// 0's balance with `total` pieces on the board.
    fn displace(value: f64, r: usize, gain: f64, total: f64) -> f64 {
        let h = piece_value(gain, total);
        displace(value, if r == 0 { h } else { 1.0 - h })
    }

    /// Shifts two roles' rewards by [`Exchange::shift`].
    fn apply(&self, rewards: &mut [f64]) {
        let ([r0, r1], false) = (rewards, self.shift == 0.0) else {
            return;
        };
        let (up, down) = if self.shift >= 0.0 {
            (r0, r1)
        } else {
            (r1, r0)
        };
        let s = self.shift.abs();
        *up += (1.0 - *up) * s;
        *down -= *down * s;
    }
}

impl<S> Node<S> {
    /// Counts a descent's visit by the roles' `pick`s: the joint move's
    /// index among the children, and the joint move.
    fn visit(&mut self, pick: &[u16]) -> (u64, Vec<TermId>) {
        self.visits += 1;
        for (r, &i) in pick.iter().enumerate() {
            self.arms[r][i as usize].visits += 1;
        }
        let key = pick
            .iter()
            .zip(&self.strides)
            .map(|(&i, &w)| i as u64 * w)
            .sum();
        let joint = (pick.iter().enumerate())
            .map(|(r, &i)| self.legal[r][i as usize])
            .collect();
        (key, joint)
    }

    /// The only role with a choice, if exactly one has one.
    fn mover(&self) -> Option<usize> {
        only_mover(&self.legal)
    }
    fn joints(&self) -> u64 {
        self.legal
            .iter()
            .try_fold(1u64, |a, l| a.checked_mul(l.len() as u64))
            .unwrap_or(u64::MAX)
    }
}

/// RAVE's update of `node` on the way up: the moves of `pick` join
/// `played`, and each move its role made there or below takes that
/// role's reward.
fn all_moves_as_first<S>(
    node: &mut Node<S>,
    pick: &[u16],
    rewards: &[f64],
    played: &mut FxHashSet<(u32, TermId)>,
) {
    for (r, &i) in pick.iter().enumerate() {
        played.insert((r as u32, node.legal[r][i as usize]));
    }
    if node.amaf.is_empty() {
        node.amaf = node
            .arms
            .iter()
            .map(|a| vec![Amaf::default(); a.len()])
            .collect();
    }
    for (r, (moves, stats)) in node.legal.iter().zip(&mut node.amaf).enumerate() {
        if moves.len() < 2 {
            continue;
        }
        let reward = rewards.get(r).copied().unwrap_or(0.0) as f32;
        for (&mv, a) in moves.iter().zip(stats.iter_mut()) {
            if played.contains(&(r as u32, mv)) {
                a.visits += 1;
                a.total += reward;
            }
        }
    }
}

/// The search tree, shared by the player's threads.
pub struct Searcher<S> {
    cfg: Config,
    nodes: Vec<Node<S>>,
    /// The root mover's moves proven lost by the tactical check while the
    /// walkers run: selection leaves them, so the time goes to the others.
    banned: Vec<u16>,
    /// Iterations whose visits were taken back (a move into a proven
    /// loss), for the root's count: its visits are the others.
    choked: u64,
    /// With transpositions, each node by its state's hash (of two states
    /// with one hash, the first).
    index: FxHashMap<u64, u32>,
}

/// A state's key in [`Searcher::index`].
fn state_hash<S: Hash>(state: &S) -> u64 {
    let mut h = FxHasher::default();
    state.hash(&mut h);
    h.finish()
}

/// How many new nodes between two readings of the memory in use.
const MEMORY_STRIDE: usize = 4096;

/// Frees `count` pruned nodes: natively, when there are many, on a thread
/// of their own, since millions of them take a good part of a second to
/// free and the move's clock runs.
fn discard<T: Send + 'static>(garbage: T, count: usize) {
    #[cfg(not(target_arch = "wasm32"))]
    if count >= 10_000 {
        std::thread::spawn(move || drop(garbage));
        return;
    }
    let _ = count;
    drop(garbage);
}

/// Where one descent ended, and the engine's work it leaves to do with
/// the tree unlocked.
enum Leaf<S> {
    /// A proven node: its rewards.
    Proven(u32, Vec<f64>),
    /// The child of `parent` by the joint move (`key` its index) is not in
    /// the tree: its state follows from the parent's. Without room in the
    /// tree the playout starts there and counts at the parent.
    Expand {
        parent: u32,
        key: u64,
        state: S,
        joint: Vec<TermId>,
        room: bool,
        /// The parent's exchange.
        exchange: Exchange,
    },
    /// A node on its second visit, with its state and legal moves: checked
    /// for a decisive move, else a playout starts there.
    Check(u32, S, Vec<Vec<TermId>>),
}

/// What an iteration found with the tree unlocked, for [`Searcher::end`].
enum End<S> {
    At(u32),
    New {
        parent: u32,
        key: u64,
        node: Node<S>,
        /// The new node's decisive-move check, where made at once.
        found: Option<Box<Checked>>,
    },
    Checked(u32, Checked),
}

/// What a node's check found: a decisive move with its goals, and with
/// material, per move of the mover the change of role 0's balance and the
/// pieces on the board after it.
#[derive(Default)]
struct Checked {
    win: Option<(u16, Vec<f64>)>,
    captures: Vec<(f64, f64)>,
}

/// The material counted, if any.
fn material(cfg: &Config) -> Option<&Material> {
    cfg.material.as_ref().and_then(|e| e.material.as_ref())
}

/// Decisive moves: where one role moves, each of its moves is tried once;
/// the first that ends the game with the mover's top reward wins, with the
/// goals. Done on a node's second visit, so leaves visited once never pay
/// for it; the parent then sees a proven loss (anti-decisive). With
/// `material`, each move's change of role 0's balance is noted from the
/// same successor states.
fn check_node<M: StateMachine>(
    m: &mut M,
    state: &M::State,
    legal: &[Vec<TermId>],
    material: Option<&Material>,
) -> Result<Checked, EvalError> {
    let Some(r) = only_mover(legal) else {
        return Ok(Checked::default());
    };
    let before = material.map(|mat| mat.balance(&m.fluents(state), 0).0);
    let mut joint: Vec<TermId> = legal.iter().map(|l| l[0]).collect();
    let mut captures = Vec::new();
    for (i, &mv) in legal[r].iter().enumerate() {
        joint[r] = mv;
        let next = m.next_state(state, &joint)?;
        if m.is_terminal(&next)? {
            let goals = rewards(m, &next)?;
            if goals.get(r).is_some_and(|&g| g >= WIN) {
                return Ok(Checked {
                    win: Some((i as u16, goals)),
                    captures: Vec::new(),
                });
            }
        }
        if let (Some(mat), Some(before)) = (material, before) {
            let (after, total) = mat.balance(&m.fluents(&next), 0);
            captures.push((after - before, total));
        }
    }
    Ok(Checked {
        win: None,
        captures,
    })
}

impl<S: Clone + Eq + Hash + Send + 'static> Searcher<S> {
    pub fn new(cfg: Config) -> Searcher<S> {
        Searcher {
            cfg,
            nodes: Vec::new(),
            banned: Vec::new(),
            choked: 0,
            index: FxHashMap::default(),
        }
    }

    /// Empties the tree.
    fn clear(&mut self) {
        self.nodes.clear();
        self.index.clear();
    }

    /// The node of `state` in the index, if it is that state's.
    fn indexed(&self, state: &S) -> Option<u32> {
        let &id = self.index.get(&state_hash(state))?;
        (self.nodes[id as usize].state == *state).then_some(id)
    }

    /// Adds `node` to the tree (and to the index, with transpositions).
    fn push(&mut self, node: Node<S>) -> u32 {
        let id = self.nodes.len() as u32;
        if self.cfg.transpositions {
            self.index.entry(state_hash(&node.state)).or_insert(id);
        }
        self.nodes.push(node);
        id
    }

    /// Nodes in the tree.
    #[cfg(test)]
    pub fn size(&self) -> usize {
        self.nodes.len()
    }

    /// Makes the node of `state` the root if it is the root, a child or a
    /// grandchild of it, keeping its subtree; otherwise empties the tree.
    /// True when a subtree was kept.
    pub fn reroot(&mut self, state: &S) -> bool {
        let Some(found) = self.find(state) else {
            let n = self.nodes.len();
            discard(std::mem::take(&mut self.nodes), n);
            self.index.clear();
            return false;
        };
        if found == 0 {
            return true;
        }
        // The kept subtree breadth first (each node once: with
        // transpositions a node may have several parents), moved to the
        // front in that order by swaps, so the work is in the kept nodes,
        // not in the whole tree.
        let n = self.nodes.len() as u32;
        let mut seen = vec![false; n as usize];
        seen[found as usize] = true;
        let mut order = vec![found];
        let mut i = 0;
        while i < order.len() {
            for &c in self.nodes[order[i] as usize].children.values() {
                if !std::mem::replace(&mut seen[c as usize], true) {
                    order.push(c);
                }
            }
            i += 1;
        }
        // Where each old node is now, and which old node each place holds.
        let (mut pos, mut at): (Vec<u32>, Vec<u32>) = ((0..n).collect(), (0..n).collect());
        for (j, &id) in order.iter().enumerate() {
            let p = pos[id as usize] as usize;
            self.nodes.swap(j, p);
            at.swap(j, p);
            pos[id as usize] = j as u32;
            pos[at[p] as usize] = p as u32;
        }
        for node in &mut self.nodes[..order.len()] {
            for c in node.children.values_mut() {
                *c = pos[*c as usize];
            }
        }
        let kept = order.len() as u32;
        self.index.retain(|_, id| {
            *id = pos[*id as usize];
            *id < kept
        });
        let mut old = std::mem::take(&mut self.nodes).into_iter();
        self.nodes = old.by_ref().take(order.len()).collect();
        discard(old, n as usize - order.len());
        true
    }

    /// The node of `state` among the root, its children and grandchildren;
    /// of several (the same state by different move orders), the most
    /// visited.
    fn find(&self, state: &S) -> Option<u32> {
        let root = self.nodes.first()?;
        if root.state == *state {
            return Some(0);
        }
        let kids = |id: u32| self.nodes[id as usize].children.values().copied();
        kids(0)
            .chain(kids(0).flat_map(kids))
            .filter(|&id| self.nodes[id as usize].state == *state)
            .max_by_key(|&id| (self.nodes[id as usize].visits, std::cmp::Reverse(id)))
    }

    /// Whether the tree has reached its cap. Every [`MEMORY_STRIDE`] nodes
    /// the memory in use is read: above half the budget, the tree's size
    /// becomes its cap (memory freed by later moves' pruning is reused,
    /// so the cap holds for the game).
    fn full(&mut self) -> bool {
        let n = self.nodes.len();
        if n >= self.cfg.max_nodes {
            return true;
        }
        if n.is_multiple_of(MEMORY_STRIDE) && crate::memory::above(0.5) {
            self.cfg.max_nodes = n;
            return true;
        }
        false
    }

    /// Roots the tree at `root` (its kept subtree, or a new node) and
    /// looks for a decisive move there.
    fn start<M: StateMachine<State = S>>(&mut self, m: &mut M, root: &S) -> Result<(), EvalError> {
        self.banned.clear();
        if !(self.cfg.reuse && self.reroot(root)) {
            self.clear();
            let node = Self::make_node(m, root.clone(), &self.cfg, None)?;
            self.push(node);
        }
        if !self.nodes[0].checked {
            self.decisive(m, 0)?;
        }
        Ok(())
    }

    /// The node of `state`; with material, the child of a node whose
    /// exchange is `parent` (none: the root).
    fn make_node<M: StateMachine<State = S>>(
        m: &mut M,
        state: S,
        cfg: &Config,
        parent: Option<Exchange>,
    ) -> Result<Node<S>, EvalError> {
        let eval = cfg.material.as_deref();
        let fluents = eval.map(|_| m.fluents(&state));
        let exchange = match (eval.and_then(|e| e.material.as_ref()), &fluents) {
            (Some(mat), Some(fluents)) => {
                let (balance, total) = mat.balance(fluents, 0);
                Exchange::after(parent, balance, total)
            }
            _ => Exchange::default(),
        };
        let terminal = m.is_terminal(&state)?;
        let legal = if terminal {
            Vec::new()
        } else {
            m.all_legal_moves(&state)?
        };
        // Nobody can move: the end of the game.
        let proven = if terminal || legal.iter().any(Vec::is_empty) {
            Some(rewards(m, &state)?.into_boxed_slice())
        } else {
            None
        };
        let implicit: Box<[f64]> = match (eval, &fluents, &proven) {
            (_, _, Some(p)) if cfg.minimax > 0.0 => p.clone(),
            (Some(e), Some(f), None) if cfg.minimax > 0.0 => {
                implicit_estimate(e, f, legal.len()).into_boxed_slice()
            }
            _ => Box::default(),
        };
        let legal = if proven.is_some() { Vec::new() } else { legal };
        let mut strides = Vec::with_capacity(legal.len());
        let mut w = 1u64;
        for l in legal.iter().rev() {
            strides.push(w);
            w = w.saturating_mul(l.len() as u64);
        }
        strides.reverse();
        Ok(Node {
            arms: legal
                .iter()
                .map(|l| vec![Arm::default(); l.len()])
                .collect(),
            amaf: Vec::new(),
            state,
            legal,
            strides,
            visits: 0,
            children: FxHashMap::default(),
            proven,
            winning: None,
            checked: false,
            exchange,
            implicit,
        })
    }

    /// Looks for a decisive move at `id` ([`check_node`]) and proves
    /// the node with it.
    fn decisive<M: StateMachine<State = S>>(
        &mut self,
        m: &mut M,
        id: u32,
    ) -> Result<(), EvalError> {
        let node = &self.nodes[id as usize];
        let eval = self.cfg.material.clone();
        let material = eval.as_ref().and_then(|e| e.material.as_ref());
        let found = check_node(m, &node.state, &node.legal, material)?;
        self.settle(id, found);
        Ok(())
    }

    /// Marks node `id` checked for a decisive move, and proven by the one
    /// found; otherwise seeds the mover's captures: the node's mean for
    /// the mover so far, displaced by what each capture gains or loses.
    fn settle(&mut self, id: u32, found: Checked) {
        let node = &mut self.nodes[id as usize];
        node.checked = true;
        if let Some((i, goals)) = found.win {
            node.proven = Some(goals.into_boxed_slice());
            node.winning = Some(i);
            return;
        }
        // Where every move changes the balance alike (a piece dropped in
        // connect four) there is nothing to tell the moves apart by.
        let gains = found.captures.iter().map(|c| c.0);
        let spread = gains.clone().fold(f64::MIN, f64::max) - gains.fold(f64::MAX, f64::min);
        let Some(r) = node.mover().filter(|_| spread > 1e-9) else {
            return;
        };
        let arms = &mut node.arms[r];
        let (n, sum) = arms
            .iter()
            .fold((0, 0.0), |(n, s), a| (n + a.visits, s + a.total));
        let mean = if n > 0 { sum / n as f64 } else { 0.5 };
        for (arm, &(gain, total)) in arms.iter_mut().zip(&found.captures) {
            if gain.abs() > 1e-9 {
                arm.seed = Exchange::displace(mean, r, gain, total) as f32;
            }
        }
    }

    /// The proven rewards of the child of `node` reached by joint index `k`.
    fn child_proven(&self, node: &Node<S>, k: u64) -> Option<&[f64]> {
        let c = node.children.get(&k)?;
        self.nodes[*c as usize].proven.as_deref()
    }

    /// With implicit minimax, where one role moves, the values of the child
    /// of `node` reached by joint index `k` (its proven rewards once
    /// proven), if it is made.
    fn implicit(&self, node: &Node<S>, alone: bool, k: u64) -> Option<&[f64]> {
        if !alone || self.cfg.minimax <= 0.0 {
            return None;
        }
        let child = &self.nodes[*node.children.get(&k)? as usize];
        child.proven.as_deref().or(Some(&child.implicit))
    }

    /// Backs the children's minimax values up the path, from its end: each
    /// node where one role moves takes the values of the child its mover
    /// values most, until a node keeps the values it had (its ancestors
    /// then keep theirs too).
    fn back_up_minimax(&mut self, path: &[(u32, Vec<u16>)]) {
        for (id, _) in path.iter().rev() {
            let node = &self.nodes[*id as usize];
            let Some(r) = node.mover() else { return };
            let value = |c: &u32| {
                let c = &self.nodes[*c as usize];
                c.proven.as_deref().unwrap_or(&c.implicit)
            };
            let Some(best) = most_valued(node.children.values().map(value), r) else {
                return;
            };
            if *best == *node.implicit {
                return;
            }
            let best: Box<[f64]> = best.into();
            self.nodes[*id as usize].implicit = best;
        }
    }

    /// Role `r`'s move at `node`: an untried one (random) first, else UCB1,
    /// where a proven child (the role moving alone) scores its exact value.
    /// With RAVE, a move tried only in other lines counts as tried, its
    /// mean taken from those.
    fn select(&self, id: u32, r: usize, rng: &mut fastrand::Rng) -> u16 {
        let node = &self.nodes[id as usize];
        let arms = &node.arms[r];
        if arms.len() == 1 {
            return 0;
        }
        let alone = node.mover() == Some(r);
        // Moves proven lost at the root are left while another is open.
        let banned = match id == 0 && alone && self.banned.len() < arms.len() {
            true => &self.banned[..],
            false => &[],
        };
        let open = |i: usize| !banned.contains(&(i as u16));
        let amaf = node.amaf.get(r).map_or(&[][..], Vec::as_slice);
        let unknown =
            |i: usize| open(i) && arms[i].visits == 0 && amaf.get(i).is_none_or(|a| a.visits == 0);
        let untried = (0..arms.len()).filter(|&i| unknown(i)).count();
        // Untried captures first, the best seed first.
        let capture = (arms.iter().enumerate())
            .filter(|&(i, a)| open(i) && a.visits == 0 && !a.seed.is_nan())
            .max_by(|x, y| x.1.seed.total_cmp(&y.1.seed));
        if let Some((i, _)) = capture {
            return i as u16;
        }
        if untried > 0 {
            let k = crate::reasoner::random_index(rng, untried);
            return (0..arms.len()).filter(|&i| unknown(i)).nth(k).unwrap_or(0) as u16;
        }
        let rave = self.cfg.rave as f64;
        let ln = (node.visits.max(1) as f64).ln();
        let mut best = (0u16, f64::NEG_INFINITY);
        for (i, a) in arms.iter().enumerate().filter(|&(i, _)| open(i)) {
            // A proven loss goes below every open move, whose score may be
            // 0 too: a choked iteration leaves the node's count as it was.
            let exact = if alone {
                self.child_proven(node, i as u64 * node.strides[r])
                    .map(|p| if p[r] <= 0.0 { -1.0 } else { p[r] })
            } else {
                None
            };
            let u = exact.unwrap_or_else(|| {
                let n = a.visits as f64;
                let mean = match amaf.get(i) {
                    Some(&all) if all.visits > 0 => rave_mix(a.score(), all.mean(), n, rave),
                    _ => a.score(),
                };
                let mean = match self.implicit(node, alone, i as u64 * node.strides[r]) {
                    Some(v) => (1.0 - self.cfg.minimax) * mean + self.cfg.minimax * v[r],
                    None => mean,
                };
                mean + self.cfg.exploration * (ln / n.max(1.0)).sqrt()
            });
            if u > best.1 {
                best = (i as u16, u);
            }
        }
        best.0
    }

    /// Proves node `id` from its children where it can; true if proven.
    fn prove(&mut self, id: u32) -> bool {
        let node = &self.nodes[id as usize];
        if node.proven.is_some() {
            return true;
        }
        let value: Option<Box<[f64]>> = match node.mover() {
            Some(r) => {
                let mut best: Option<&[f64]> = None;
                let mut all = true;
                for i in 0..node.legal[r].len() {
                    match self.child_proven(node, i as u64 * node.strides[r]) {
                        Some(p) if p[r] >= WIN => {
                            best = Some(p);
                            all = true;
                            break;
                        }
                        Some(p) => {
                            if best.is_none_or(|b| p[r] > b[r]) {
                                best = Some(p);
                            }
                        }
                        None => all = false,
                    }
                }
                best.filter(|b| all || b[r] >= WIN).map(Box::from)
            }
            None => {
                let n = node.joints();
                if n > MAX_PROVEN_JOINTS {
                    None
                } else {
                    let first = self.child_proven(node, 0);
                    let same = (1..n).all(|k| self.child_proven(node, k) == first);
                    first.filter(|_| same).map(Box::from)
                }
            }
        };
        let proven = value.is_some();
        self.nodes[id as usize].proven = value;
        proven
    }

    /// One descent from the root, by selection, to where the tree ends:
    /// a proven node, a move whose child is not made yet, or a node on
    /// its second visit, not yet checked for a decisive move (then claimed
    /// for the check). Each node on the way counts the visit, and each
    /// chosen move its pull, at once, before the rewards arrive: a thread
    /// descending meanwhile sees them as worth nothing (a virtual loss)
    /// and spreads to other moves. The engine's work waits until the tree
    /// is unlocked.
    fn descend(&mut self, rng: &mut fastrand::Rng, path: &mut Vec<(u32, Vec<u16>)>) -> Leaf<S> {
        path.clear();
        let mut cur = 0u32;
        let linked = self.cfg.transpositions;
        loop {
            let node = &mut self.nodes[cur as usize];
            if let Some(p) = &node.proven {
                return Leaf::Proven(cur, p.to_vec());
            }
            if !node.checked && node.visits > 0 {
                node.checked = true;
                return Leaf::Check(cur, node.state.clone(), node.legal.clone());
            }
            let roles = node.legal.len();
            let pick: Vec<u16> = (0..roles).map(|r| self.select(cur, r, rng)).collect();
            let node = &mut self.nodes[cur as usize];
            let (key, joint) = node.visit(&pick);
            path.push((cur, pick));
            let cycle = match node.children.get(&key) {
                // With transpositions a link may close a cycle: the
                // playout then starts there and counts at this node.
                Some(&c) if linked && path.iter().any(|(id, _)| *id == c) => true,
                Some(&c) => {
                    cur = c;
                    continue;
                }
                None => false,
            };
            let room = !cycle && !self.full();
            let node = &self.nodes[cur as usize];
            return Leaf::Expand {
                parent: cur,
                key,
                state: node.state.clone(),
                joint,
                room,
                exchange: node.exchange,
            };
        }
    }

    /// Where an iteration's rewards go: the node it ended on, after adding
    /// what was found with the tree unlocked (a new node, or the result of
    /// a decisive-move check). A child another thread made meanwhile is
    /// kept, and the new one dropped; with transpositions, so is one whose
    /// state the tree holds: the move links to that state's node.
    fn end(&mut self, end: End<S>) -> u32 {
        match end {
            End::At(id) => id,
            End::New {
                parent,
                key,
                node,
                found,
            } => {
                if let Some(&c) = self.nodes[parent as usize].children.get(&key) {
                    return c;
                }
                let known = (self.cfg.transpositions)
                    .then(|| self.indexed(&node.state))
                    .flatten();
                let id = match known {
                    Some(id) => id,
                    None => self.push(node),
                };
                self.nodes[parent as usize].children.insert(key, id);
                if let Some(found) = found.filter(|_| !self.nodes[id as usize].checked) {
                    self.settle(id, *found);
                }
                id
            }
            End::Checked(id, found) => {
                self.settle(id, found);
                id
            }
        }
    }

    /// Adds the rewards along the path (whose visits [`Self::descend`]
    /// counted; the node the walk ended on counts its own here) and proves
    /// what the new values prove, bottom up. Rewards not proven are
    /// shifted by each node's exchange on their way up. With RAVE, `played`
    /// holds the playout's moves (role, move), and each node's
    /// all-moves-as-first statistics take the rewards of the moves made
    /// there or below.
    fn backup(
        &mut self,
        end: u32,
        path: &[(u32, Vec<u16>)],
        rewards: &[f64],
        played: &mut FxHashSet<(u32, TermId)>,
    ) {
        let ended_below = path.last().is_none_or(|(last, _)| *last != end);
        if ended_below {
            self.nodes[end as usize].visits += 1;
        }
        // A proven node's own rewards (a playout's reached it by a move
        // order the tree links to it).
        let proven = self.nodes[end as usize].proven.as_deref();
        let mut rewards = proven.unwrap_or(rewards).to_vec();
        let mut proving = proven.is_some();
        let shifting = !proving;
        // A move into a proven loss for its mover, where the mover has
        // another move open, is one it will not make: the loss tells
        // nothing of the nodes above, and counting it there (once per
        // losing move, as each is tried) would make a position with one
        // good reply look lost (Sancho's anti-decisive choke, for
        // breakthrough's runners). The iteration's visits are taken back
        // instead, from the node and above, except its move's.
        let mut choked = self.cfg.choke && ended_below && self.lost_into(end, path.last());
        // The node below each on the path: the next one, and for the last
        // the node the walk ended on (none when the playout left the tree).
        let mut below = ended_below.then_some(end);
        for (id, pick) in path.iter().rev() {
            if let (true, Some(c)) = (shifting, below) {
                self.nodes[c as usize].exchange.apply(&mut rewards);
            }
            below = Some(*id);
            let node = &mut self.nodes[*id as usize];
            for (r, &i) in pick.iter().enumerate() {
                node.arms[r][i as usize].total += rewards.get(r).copied().unwrap_or(0.0);
            }
            if self.cfg.rave > 0 {
                all_moves_as_first(node, pick, &rewards, played);
            }
            // Only a node whose child was just proven can become proven.
            proving = proving && self.prove(*id);
            if choked && !proving {
                self.take_back(&path[..path.len() - 1]);
                let node = &mut self.nodes[*id as usize];
                node.visits = node.visits.saturating_sub(1);
                self.choked += 1;
                break;
            }
            choked = false;
        }
        if self.cfg.minimax > 0.0 {
            self.back_up_minimax(path);
        }
    }

    /// Whether node `end`, reached from the path's last step `last`, is
    /// proven lost for the role that moved alone into it.
    fn lost_into(&self, end: u32, last: Option<&(u32, Vec<u16>)>) -> bool {
        let (Some((parent, _)), Some(p)) = (last, &self.nodes[end as usize].proven) else {
            return false;
        };
        let mover = self.nodes[*parent as usize].mover();
        mover.is_some_and(|r| p[r] <= 0.0)
    }

    /// Takes back the visits a descent counted along `path`.
    fn take_back(&mut self, path: &[(u32, Vec<u16>)]) {
        for (id, pick) in path {
            let node = &mut self.nodes[*id as usize];
            node.visits = node.visits.saturating_sub(1);
            for (r, &i) in pick.iter().enumerate() {
                let arm = &mut node.arms[r][i as usize];
                arm.visits = arm.visits.saturating_sub(1);
            }
        }
    }

    /// Bans `role`'s root moves `lost` from selection (see `banned`).
    fn ban(&mut self, role: usize, lost: &[TermId]) {
        let Some(moves) = self.nodes.first().and_then(|n| n.legal.get(role)) else {
            return;
        };
        self.banned = (moves.iter().enumerate())
            .filter(|(_, mv)| lost.contains(mv))
            .map(|(i, _)| i as u16)
            .collect();
    }

    fn root_view(&self, role: usize, playouts: u64) -> RootStats {
        self.view(0, role, playouts)
    }

    /// The move [`choose`] picks for `role` at `state` from the tree as it
    /// is, if the tree holds `state` (the root, a child or a grandchild)
    /// and has visited it.
    pub fn known_move(&self, state: &S, role: usize) -> Option<TermId> {
        let id = self.find(state)?;
        let view = self.view(id, role, 0);
        let visited = view.visits.iter().any(|&v| v > 0);
        let proven = view.proven.iter().any(Option::is_some);
        let (i, _) = choose(&view).filter(|_| visited || proven)?;
        view.moves.get(i).copied()
    }

    /// `role`'s view of node `id`: its moves' visits, totals and proven
    /// values.
    fn view(&self, id: u32, role: usize, playouts: u64) -> RootStats {
        let node = &self.nodes[id as usize];
        let mut v = RootStats {
            playouts,
            ..RootStats::default()
        };
        let Some(arms) = node.arms.get(role) else {
            return v;
        };
        let alone = node.mover() == Some(role);
        v.moves = node.legal[role].clone();
        v.visits = arms.iter().map(|a| a.visits as u64).collect();
        v.totals = arms.iter().map(|a| a.total).collect();
        v.proven = (0..arms.len())
            .map(|i| {
                if alone && node.winning == Some(i as u16) {
                    return Some(1.0);
                }
                let k = i as u64 * node.strides[role];
                self.child_proven(node, k)
                    .filter(|_| alone)
                    .map(|p| p[role])
            })
            .collect();
        v
    }
}

/// What each thread keeps to itself: its random generator, MAST's
/// statistics and the moves seen to end games (the latter two for the
/// game).
struct Walker {
    rng: fastrand::Rng,
    mast: Mast,
    enders: Enders,
    /// With RAVE, the moves (role, move) of the running iteration.
    played: FxHashSet<(u32, TermId)>,
}

/// The tree as the threads share it, and the flag that stops them all
/// when one of them fails (a proven root stops each by itself).
struct Shared<'a, S> {
    tree: Mutex<&'a mut Searcher<S>>,
    stop: AtomicBool,
}

impl<'a, S> Shared<'a, S> {
    fn lock(&self) -> std::sync::MutexGuard<'_, &'a mut Searcher<S>> {
        // A thread that panicked re-raises its panic in `run_all`.
        self.tree.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Walker {
    fn new(cfg: &Config, seed: u64) -> Walker {
        Walker {
            rng: fastrand::Rng::with_seed(seed),
            // Without MAST its trail still notes RAVE's moves: all random.
            mast: Mast::with_rule(cfg.mast.unwrap_or(Rule::Greedy(1.0))),
            enders: Enders::default(),
            played: FxHashSet::default(),
        }
    }

    /// Iterates on the shared tree within `limit` (this thread's): the
    /// playouts made and the deepest descent. The tree is locked while a
    /// descent walks it, and again while what was found and the rewards
    /// are added; the engine's work between runs unlocked.
    fn walk<S: Clone + Eq + Hash + Send + 'static, M: StateMachine<State = S>>(
        &mut self,
        m: &mut M,
        shared: &Shared<'_, S>,
        cfg: &Config,
        mut limit: Limit,
    ) -> Result<(u64, u32), EvalError> {
        let (mut playouts, mut depth) = (0u64, 0u32);
        let mut path = Vec::new();
        let roles = m.roles().len();
        let failed = |e: EvalError| {
            shared.stop.store(true, Ordering::Relaxed);
            e
        };
        loop {
            if shared.stop.load(Ordering::Relaxed) || (playouts > 0 && limit.exhausted()) {
                break;
            }
            limit.tick();
            let leaf = {
                let mut tree = shared.lock();
                if tree.nodes[0].proven.is_some() {
                    break;
                }
                tree.descend(&mut self.rng, &mut path)
            };
            self.played.clear();
            let (end, rewards) = self.explore(m, leaf, roles, cfg).map_err(failed)?;
            let mut tree = shared.lock();
            let end = tree.end(end);
            tree.backup(end, &path, &rewards, &mut self.played);
            drop(tree);
            playouts += 1;
            depth = depth.max(path.len() as u32);
        }
        Ok((playouts, depth))
    }

    /// The engine's work of an iteration, with the tree unlocked: the
    /// node a descent ended on made or checked, and the rewards (proven,
    /// or a playout's).
    fn explore<S: Clone + Eq + Hash + Send + 'static, M: StateMachine<State = S>>(
        &mut self,
        m: &mut M,
        leaf: Leaf<S>,
        roles: usize,
        cfg: &Config,
    ) -> Result<(End<S>, Vec<f64>), EvalError> {
        Ok(match leaf {
            Leaf::Proven(id, rewards) => (End::At(id), rewards),
            Leaf::Expand {
                parent,
                room: false,
                state,
                joint,
                ..
            } => {
                let next = m.next_state(&state, &joint)?;
                (End::At(parent), self.playout(m, &next, roles, cfg)?.0)
            }
            Leaf::Expand {
                parent,
                key,
                state,
                joint,
                exchange,
                ..
            } => {
                let next = m.next_state(&state, &joint)?;
                let node = Searcher::make_node(m, next, cfg, Some(exchange))?;
                let (rewards, won) = match &node.proven {
                    Some(p) => (p.to_vec(), false),
                    None => self.playout(m, &node.state, roles, cfg)?,
                };
                // A playout whose first step won for the node's only
                // mover shows it a decisive move: the node is checked at
                // once, not on its second visit, so that its parent's
                // mover sees a proven loss before it counts as a playout.
                let won = cfg.choke && won && node.mover().is_some_and(|r| rewards[r] >= WIN);
                let found = match won {
                    true => Some(Box::new(check_node(
                        m,
                        &node.state,
                        &node.legal,
                        material(cfg),
                    )?)),
                    false => None,
                };
                let rewards = match found.as_ref().and_then(|f| f.win.as_ref()) {
                    Some((_, goals)) => goals.clone(),
                    None => rewards,
                };
                (
                    End::New {
                        parent,
                        key,
                        node,
                        found,
                    },
                    rewards,
                )
            }
            Leaf::Check(id, state, legal) => {
                let checked = check_node(m, &state, &legal, material(cfg))?;
                let rewards = match &checked.win {
                    Some((_, goals)) => goals.clone(),
                    None => self.playout(m, &state, roles, cfg)?.0,
                };
                (End::Checked(id, checked), rewards)
            }
        })
    }

    /// A playout from `start`: its rewards, and whether its first step
    /// ended the game.
    fn playout<S, M: StateMachine<State = S>>(
        &mut self,
        m: &mut M,
        start: &S,
        roles: usize,
        cfg: &Config,
    ) -> Result<(Vec<f64>, bool), EvalError> {
        let steps = cfg.playout_steps;
        let mast = cfg.mast.is_some();
        // MAST and RAVE read the playout's moves off the trail.
        let trail = mast || cfg.rave > 0;
        let (rng, enders) = (&mut self.rng, &mut self.enders);
        let p = match (cfg.greedy, trail) {
            (true, true) => m.greedy_mast_playout(start, rng, steps, enders, &mut self.mast)?,
            (true, false) => m.greedy_playout(start, rng, steps, enders)?,
            (false, true) => m.mast_playout(start, rng, steps, &mut self.mast)?,
            (false, false) => m.random_playout(start, rng, steps)?,
        };
        let r = if p.terminal {
            rewards(m, &p.state)?
        } else {
            vec![0.0; roles]
        };
        if cfg.rave > 0 {
            let moves = self.mast.trail();
            let moves =
                moves.filter_map(|(slot, role)| Some((role, m.slot_move(&self.mast, slot)?)));
            self.played.extend(moves);
        }
        if mast {
            self.mast.finish(&r);
        } else {
            self.mast.truncate(0);
        }
        Ok((r, p.terminal && p.steps == 1))
    }
}

/// The player: one tree, kept between moves, grown by one walker per
/// thread (tree-parallel).
pub struct SolverMcts<S> {
    tree: Searcher<S>,
    walkers: Vec<Walker>,
    stats: Stats,
    /// The tactical check's table, kept for the game.
    table: tactics::Table<S>,
}

/// What one thread of a search brings back: its playouts and deepest
/// descent, and on the check's thread the check's proofs.
struct Part {
    walked: (u64, u32),
    proofs: Option<Proofs>,
}

/// The walkers' budget and the tactical check's: with `share` the check
/// runs after the walkers in [`TACTICS_SHARE`] of the time, else beside
/// them; a playout budget gives it [`super::mcts::TACTICS_NODES`].
fn split_budget(budget: &Budget, share: bool) -> (Budget, Budget) {
    match budget.ms {
        Some(ms) if share => (
            Budget {
                ms: Some(ms * (1.0 - TACTICS_SHARE)),
                ..*budget
            },
            Budget::ms(ms * TACTICS_SHARE),
        ),
        Some(ms) => (*budget, Budget::ms(ms)),
        None => (*budget, Budget::nodes(super::mcts::TACTICS_NODES)),
    }
}

/// Marks the check's proofs in a root view where the tree proved nothing.
fn mark_proofs(view: &mut RootStats, proofs: &Proofs) {
    view.proven.resize(view.moves.len(), None);
    for (mv, proven) in view.moves.iter().zip(view.proven.iter_mut()) {
        if proofs.winning == Some(*mv) {
            proven.get_or_insert(1.0);
        } else if proofs.lost.contains(mv) {
            proven.get_or_insert(0.0);
        }
    }
}

impl<S: Clone + Eq + Hash + Send + 'static> SolverMcts<S> {
    /// `threads` walkers (at least one); walker `i` is seeded with
    /// [`worker_seed`]`(seed, i)`.
    pub fn new(cfg: Config, seed: u64, threads: usize) -> SolverMcts<S> {
        SolverMcts {
            walkers: (0..threads.max(1))
                .map(|i| Walker::new(&cfg, worker_seed(seed, i)))
                .collect(),
            tree: Searcher::new(cfg),
            stats: Stats::default(),
            table: tactics::Table::default(),
        }
    }

    /// Grows the tree from `root` with every walker (the first on `m`, the
    /// others on clones of it, which keep its term ids): `role`'s view of
    /// the root and the counters. With tactics, where `role` moves alone,
    /// what the check proves is marked in the view (a forced win proven
    /// 1, forced losses 0). An error empties the tree.
    pub fn search_view<M>(
        &mut self,
        m: &mut M,
        root: &S,
        role: usize,
    ) -> Result<(RootStats, Stats), EvalError>
    where
        M: StateMachine<State = S> + Clone + Send,
        S: Send + Sync,
    {
        let t0 = now_ms();
        let cfg = self.tree.cfg.clone();
        let tactics = cfg.tactics && only_mover(&m.all_legal_moves(root)?) == Some(role);
        // The moves the walkers saw end games, for the check's last plies.
        let mut enders: Option<FxHashSet<TermId>> = tactics.then(|| {
            (self.walkers.iter())
                .flat_map(|w| w.enders.terms(m))
                .collect()
        });
        // The check runs beside the walkers on a thread of its own, or
        // after them in its share of the time.
        let beside = tactics && self.walkers.len() >= 2 && !cfg!(target_arch = "wasm32");
        let (walk_budget, check_budget) = split_budget(&cfg.budget, tactics && !beside);
        let walkers = self.walkers.len() - usize::from(beside);
        // Every thread's clock starts now, before the tree is rerooted (on
        // wasm32 the threads run one after the other, within that time).
        let mut limits: Vec<Limit> = (0..walkers).map(|_| Limit::new(&walk_budget)).collect();
        // Once its check has ended, the check's thread walks until the
        // confirmation in the move's last part, then until the walkers'
        // clock runs out (a playout budget leaves it out: the walkers'
        // playouts stay as counted).
        let check_walks = walk_budget.nodes.is_none() && m.clones_share_terms();
        let after = Limit::new(&walk_budget);
        let confirm_at = Limit::new(&walk_budget.share(1.0 - CONFIRM_SHARE));
        self.tree.start(m, root)?;
        // The tree holds the walkers' terms: on a machine whose clones name
        // new terms apart (the interpreter) one walker grows it.
        let threads = if m.clones_share_terms() { walkers } else { 1 };
        let mut forks: Vec<M> = (1..threads + usize::from(beside))
            .map(|_| m.clone())
            .collect();
        let checker = if beside { forks.pop() } else { None };
        // The check's table holds its machine's states: a clone of a
        // machine whose clones name new terms apart starts it afresh.
        if beside && !m.clones_share_terms() {
            self.table.clear();
        }
        let mut machines: Vec<&mut M> = vec![&mut *m];
        machines.extend(forks.iter_mut());
        let shared = Shared {
            tree: Mutex::new(&mut self.tree),
            stop: AtomicBool::new(false),
        };
        let (walking, spare) = self.walkers.split_at_mut(threads);
        let mut jobs: Vec<Job<Result<Part, EvalError>>> = (walking.iter_mut())
            .zip(machines)
            .map(|(w, mm)| {
                let (shared, cfg) = (&shared, &cfg);
                let limit = limits.pop().expect("one limit per walker");
                Box::new(move || {
                    let walked = w.walk(mm, shared, cfg, limit)?;
                    Ok(Part {
                        walked,
                        proofs: None,
                    })
                }) as Job<_>
            })
            .collect();
        if let Some(mut tm) = checker {
            let (shared, enders) = (&shared, enders.take().unwrap_or_default());
            let table = &mut self.table;
            let mut walker = spare.first_mut().filter(|_| check_walks);
            let cfg = &cfg;
            jobs.push(Box::new(move || {
                // Before each depth: what is proven lost is left by the
                // walkers from then on, and the ranking is read again.
                let mut rank = |lost: &[TermId]| {
                    let mut tree = shared.lock();
                    tree.ban(role, lost);
                    ranked(&tree.root_view(role, 0))
                };
                let proofs = tactics::prove(
                    &mut tm,
                    root,
                    role,
                    &mut rank,
                    enders.clone(),
                    table,
                    &check_budget.share(1.0 - CONFIRM_SHARE),
                );
                // A forced win ends the search; an error ends every thread.
                if proofs.as_ref().map_or(true, |p| p.winning.is_some()) {
                    shared.stop.store(true, Ordering::Relaxed);
                }
                let mut proofs = proofs?;
                let won = proofs.winning.is_some();
                // A check that ended early leaves its thread to the tree,
                // until the move the tree then ranks first is confirmed,
                // and after.
                let mut walk_until = |tm: &mut M, mut limit: Limit| match walker.as_deref_mut() {
                    Some(w) if !won && !limit.exhausted() => w.walk(tm, shared, cfg, limit),
                    _ => Ok((0, 0)),
                };
                let (playouts, depth) = walk_until(&mut tm, confirm_at)?;
                let confirm_budget = check_budget.share(CONFIRM_SHARE);
                tactics::confirm(
                    &mut tm,
                    root,
                    role,
                    &mut rank,
                    enders,
                    table,
                    &mut proofs,
                    &confirm_budget,
                )?;
                let (more, deeper) = walk_until(&mut tm, after)?;
                Ok(Part {
                    walked: (playouts + more, depth.max(deeper)),
                    proofs: Some(proofs),
                })
            }));
        }
        let parts = run_all(jobs);
        let mut stats = Stats::default();
        let mut proofs = None;
        for part in parts {
            match part {
                Ok(Part {
                    walked: (playouts, depth),
                    proofs: p,
                }) => {
                    stats.playouts += playouts;
                    stats.depth = stats.depth.max(depth);
                    proofs = proofs.or(p);
                }
                Err(e) => {
                    self.tree.clear();
                    return Err(e);
                }
            }
        }
        if tactics && !beside {
            let mut rank = |_: &[TermId]| ranked(&self.tree.root_view(role, 0));
            let (enders, table) = (enders.take().unwrap_or_default(), &mut self.table);
            let check = tactics::prove(m, root, role, &mut rank, enders, table, &check_budget)?;
            proofs = Some(check);
        }
        stats.nodes = self.tree.nodes.len() as u64;
        stats.elapsed_ms = since(t0);
        let mut view = self.tree.root_view(role, stats.playouts);
        if let Some(p) = &proofs {
            mark_proofs(&mut view, p);
        }
        Ok((view, stats))
    }

    /// Searches and decides on the root's view.
    pub fn search<M>(&mut self, m: &mut M, root: &S, role: usize) -> Result<SearchResult, EvalError>
    where
        M: StateMachine<State = S> + Clone + Send,
        S: Send + Sync,
    {
        let (view, stats) = self.search_view(m, root, role)?;
        let (best_move, value, solved) = match choose(&view) {
            Some((i, v)) => (Some(view.moves[i]), v * 100.0, view.proven[i].is_some()),
            None => (m.legal_moves(root, role)?.first().copied(), 0.0, false),
        };
        Ok(SearchResult {
            iterations: Vec::new(),
            value,
            best_move,
            solved,
            stats,
        })
    }
}

impl<M> Player<M> for SolverMcts<M::State>
where
    M: StateMachine + Clone + Send,
    M::State: Send + Sync + 'static,
{
    fn name(&self) -> String {
        let cfg = &self.tree.cfg;
        let mut tags = vec!["solver".to_string()];
        if cfg.exploration != Config::default().exploration {
            tags.push(format!("c={:.2}", cfg.exploration));
        }
        let options = [
            (cfg.material.is_some(), "material"),
            (cfg.greedy, "greedy"),
            (matches!(cfg.mast, Some(Rule::Greedy(_))), "mast"),
            (matches!(cfg.mast, Some(Rule::Adapt(_))), "ppa"),
            (cfg.tactics, "tactics"),
            (cfg.transpositions, "transpositions"),
        ];
        tags.extend(options.iter().filter(|o| o.0).map(|o| o.1.to_string()));
        if cfg.rave > 0 {
            tags.push(format!("rave {}", cfg.rave));
        }
        if cfg.minimax > 0.0 {
            tags.push(format!("minimax {}", cfg.minimax));
        }
        if !cfg.choke {
            tags.push("no choke".into());
        }
        match (cfg.budget.ms, cfg.budget.nodes) {
            (Some(ms), _) => tags.push(format!("{ms} ms")),
            (None, Some(n)) => tags.push(format!("{n} playouts")),
            _ => {}
        }
        let base = format!("mcts({})", tags.join(", "));
        match self.walkers.len() {
            1 => base,
            n => super::parallel::threaded_name(&base, n),
        }
    }
    fn select_move(
        &mut self,
        m: &mut M,
        state: &M::State,
        role: usize,
    ) -> Result<TermId, EvalError> {
        searched_move(self.search(m, state, role)?, &mut self.stats, role)
    }
    fn new_game(&mut self) {
        self.tree.clear();
        self.table.clear();
        for w in &mut self.walkers {
            w.mast.clear();
            w.enders.clear();
        }
    }
    // The server sets each move's budget from the request's arrival.
    fn set_time_ms(&mut self, ms: f64) {
        self.tree.cfg.budget.ms = Some(ms);
    }
    fn last_stats(&self) -> Stats {
        self.stats.clone()
    }
    fn known_move(&self, state: &M::State, role: usize) -> Option<TermId> {
        self.tree.known_move(state, role)
    }
    // The tree is kept between moves, so what pondering adds is used.
    fn ponders(&self) -> bool {
        self.tree.cfg.reuse && self.tree.cfg.ponder
    }
    fn ponder(
        &mut self,
        m: &mut M,
        state: &M::State,
        role: usize,
        ms: f64,
    ) -> Result<u64, EvalError> {
        let budget = std::mem::replace(&mut self.tree.cfg.budget, Budget::ms(ms));
        let searched = self.search(m, state, role);
        self.tree.cfg.budget = budget;
        searched.map(|r| r.stats.playouts)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::engine::{load_engine, Engine, EngineChoice, EngineState};
    use crate::search::mcts::minimax_tests::{exact, tic_tac_toe_after};
    use crate::search::root::merge_roots;

    /// Take-away: the mover takes 1 or 2 stones; taking the last one wins.
    /// A pile that is a multiple of 3 is lost for the mover.
    pub(crate) fn take_away(pile: u32) -> Engine {
        load_engine(&take_away_text(pile), EngineChoice::Interpreter).expect("the test game loads")
    }

    fn take_away_text(pile: u32) -> String {
        let mut text = format!(
            "(role a) (role b) (init (pile {pile})) (init (control a))
             (<= (legal ?r (take ?k)) (true (control ?r)) (true (pile ?n)) (minus ?n ?k ?m))
             (<= (legal a noop) (true (control b))) (<= (legal b noop) (true (control a)))
             (<= (next (pile ?m)) (does ?r (take ?k)) (true (pile ?n)) (minus ?n ?k ?m))
             (<= (next (control b)) (true (control a))) (<= (next (control a)) (true (control b)))
             (<= (next (last ?r)) (does ?r (take ?k)))
             (<= terminal (true (pile 0)))
             (<= (goal ?r 100) (true (last ?r)))
             (<= (goal ?r 0) (role ?r) (not (true (last ?r))))"
        );
        for n in 1..=12 {
            for k in 1..=2u32.min(n) {
                text.push_str(&format!(" (minus {n} {k} {})", n - k));
            }
        }
        text
    }

    fn cfg(playouts: u64) -> Config {
        Config {
            budget: Budget::nodes(playouts),
            ..Config::default()
        }
    }

    fn shown(m: &Engine, t: Option<TermId>) -> String {
        t.map_or("none".into(), |t| m.terms().display(t).to_string())
    }

    #[test]
    fn proves_a_forced_win_and_plays_it() {
        // From 4 the only winning move is to take 1, from 5 to take 2.
        // One thread, and two sharing the tree.
        let cases = [(4, "(take 1)"), (5, "(take 2)"), (7, "(take 1)")];
        for ((pile, win), threads) in cases.into_iter().flat_map(|c| [(c, 1), (c, 2)]) {
            let mut m = take_away(pile);
            let root = m.initial_state().unwrap();
            let mut p = SolverMcts::new(cfg(20_000), 3, threads);
            let r = p.search(&mut m, &root, 0).unwrap();
            assert_eq!(shown(&m, r.best_move), win, "pile {pile}");
            assert!(r.solved, "pile {pile}: the win is proven");
            assert_eq!(r.value, 100.0);
            // The root itself is proven a win for a, and the search stopped
            // early once it was.
            let tree = &p.tree.nodes;
            assert_eq!(tree[0].proven.as_deref(), Some(&[1.0, 0.0][..]));
            assert!(r.stats.playouts < 20_000, "pile {pile}");
        }
    }

    #[test]
    fn the_move_known_without_a_search_is_the_trees_choice() {
        let ttt = include_str!("../../../../games/ticTacToe.kif");
        let mut m = load_engine(ttt, EngineChoice::Fast).expect("tic-tac-toe loads");
        let root = m.initial_state().unwrap();
        let mut p = SolverMcts::new(cfg(3_000), 5, 1);
        assert_eq!(
            p.tree.known_move(&root, 0),
            None,
            "an empty tree knows nothing"
        );
        let r = p.search(&mut m, &root, 0).unwrap();
        assert_eq!(p.tree.known_move(&root, 0), r.best_move);
        // At a child (o to move): o's most visited move there.
        let legal = m.all_legal_moves(&root).unwrap();
        let x = r.best_move.unwrap();
        let child = m.next_state(&root, &[x, legal[1][0]]).unwrap();
        let id = p
            .tree
            .find(&child)
            .expect("the played move's child is in the tree");
        let view = p.tree.view(id, 1, 0);
        let o = p
            .tree
            .known_move(&child, 1)
            .expect("o's replies were searched");
        let i = view
            .moves
            .iter()
            .position(|&mv| mv == o)
            .expect("a legal move of o");
        assert_eq!(Some(i), choose(&view).map(|c| c.0));
        assert!(view.visits[i] > 0 && view.visits[i] == *view.visits.iter().max().unwrap());
        // Three plies down the tree holds nothing to go by.
        let lc = m.all_legal_moves(&child).unwrap();
        let grandchild = m.next_state(&child, &[lc[0][0], o]).unwrap();
        let lg = m.all_legal_moves(&grandchild).unwrap();
        let deeper = m.next_state(&grandchild, &[lg[0][0], lg[1][0]]).unwrap();
        assert_eq!(p.tree.known_move(&deeper, 1), None);
    }

    #[test]
    fn the_check_thread_walks_once_its_check_has_ended() {
        // In tic-tac-toe the check proves all it can in milliseconds; with
        // a time budget its thread then walks (its walker's generator has
        // moved on), with a playout budget it does not.
        let ttt = include_str!("../../../../games/ticTacToe.kif");
        let walked = |budget: Budget| {
            let mut m = load_engine(ttt, EngineChoice::Fast).expect("tic-tac-toe loads");
            let root = m.initial_state().unwrap();
            let cfg = Config {
                tactics: true,
                budget,
                ..Config::default()
            };
            let mut p = SolverMcts::new(cfg, 3, 2);
            p.search_view(&mut m, &root, 0).unwrap();
            let fresh = fastrand::Rng::with_seed(worker_seed(3, 1)).u64(..);
            p.walkers[1].rng.u64(..) != fresh
        };
        assert!(walked(Budget::ms(3_000.0)));
        assert!(!walked(Budget::nodes(2_000)));
    }

    #[test]
    fn tactics_prove_a_win_the_tree_has_not_seen() {
        // From 11 only (take 2) wins, seven plies deep: three playouts
        // prove nothing, the check beside them (two threads) or after them
        // (one) does.
        let search = |tactics, threads| {
            let mut m = take_away(11);
            let root = m.initial_state().unwrap();
            let mut p = SolverMcts::new(Config { tactics, ..cfg(3) }, 3, threads);
            let r = p.search(&mut m, &root, 0).unwrap();
            (shown(&m, r.best_move), r.solved, r.value)
        };
        assert!(!search(false, 1).1, "the tree alone proves nothing");
        for threads in [1, 2] {
            assert_eq!(search(true, threads), ("(take 2)".into(), true, 100.0));
        }
    }

    #[test]
    fn moves_banned_at_the_root_are_left_while_another_is_open() {
        let mut m = take_away(8);
        let root = m.initial_state().unwrap();
        let mut t = Searcher::new(cfg(100));
        t.start(&mut m, &root).unwrap();
        let moves = t.nodes[0].legal[0].clone();
        let mut rng = fastrand::Rng::with_seed(1);
        t.ban(0, &moves[..1]);
        // Untried moves first, then by UCB1: never the banned one.
        for visits in [0, 10] {
            t.nodes[0].arms[0]
                .iter_mut()
                .for_each(|a| a.visits = visits);
            t.nodes[0].visits = 2 * visits;
            for _ in 0..50 {
                assert_eq!(t.select(0, 0, &mut rng), 1);
            }
        }
        // Every move banned (a lost root): the ban is ignored.
        t.nodes[0].arms[0].iter_mut().for_each(|a| a.visits = 0);
        t.ban(0, &moves);
        let picks: FxHashSet<u16> = (0..50).map(|_| t.select(0, 0, &mut rng)).collect();
        assert_eq!(picks.len(), 2);
        // A new search starts with nothing banned.
        t.start(&mut m, &root).unwrap();
        assert!(t.banned.is_empty());
    }

    #[test]
    fn tactics_stay_sound_from_move_to_move() {
        // a has a forced win from 11: with tactics on two threads (the
        // check on a clone, whose terms the interpreter names apart) and
        // three playouts a move, a wins a whole game on both engines.
        for choice in [EngineChoice::Interpreter, EngineChoice::Fast] {
            let mut m = load_engine(&take_away_text(11), choice).unwrap();
            let mut s = m.initial_state().unwrap();
            let mut p = SolverMcts::new(
                Config {
                    tactics: true,
                    ..cfg(3)
                },
                7,
                2,
            );
            while !m.is_terminal(&s).unwrap() {
                let legal = m.all_legal_moves(&s).unwrap();
                let a = match legal[0].len() {
                    1 => legal[0][0],
                    _ => p.select_move(&mut m, &s, 0).unwrap(),
                };
                let b = *legal[1].last().unwrap();
                s = m.next_state(&s, &[a, b]).unwrap();
            }
            assert_eq!(rewards(&mut m, &s).unwrap(), [1.0, 0.0], "{choice:?}");
        }
    }

    #[test]
    fn a_move_proven_lost_by_tactics_is_not_played() {
        let mut m = take_away(8);
        let root = m.initial_state().unwrap();
        let moves = m.legal_moves(&root, 0).unwrap();
        let mut view = RootStats {
            moves: moves.clone(),
            visits: vec![10, 5],
            totals: vec![8.0, 2.0],
            playouts: 15,
            proven: vec![None, None],
        };
        assert_eq!(choose(&view).map(|c| c.0), Some(0));
        let lost = Proofs {
            lost: vec![moves[0]],
            ..Proofs::default()
        };
        mark_proofs(&mut view, &lost);
        assert_eq!(view.proven, [Some(0.0), None]);
        assert_eq!(choose(&view).map(|c| c.0), Some(1));
        // A value the tree proved stands.
        view.proven[0] = Some(1.0);
        mark_proofs(&mut view, &lost);
        assert_eq!(choose(&view).map(|c| c.0), Some(0));
    }

    #[test]
    fn root_parallel_parts_keep_their_proofs() {
        // Take-away from 7, two searches with their own seeds (the page's
        // workers): the merged root keeps the proven win (take 1, to 6),
        // and the merge plays it whatever the visits.
        let mut m = take_away(7);
        let root = m.initial_state().unwrap();
        let parts: Vec<RootStats> = (0..2)
            .map(|w| {
                let mut p = SolverMcts::new(cfg(20_000), worker_seed(3, w), 1);
                p.search_view(&mut m, &root, 0).unwrap().0
            })
            .collect();
        let merged = merge_roots(&parts).unwrap();
        let win = merged
            .moves
            .iter()
            .position(|&t| shown(&m, Some(t)) == "(take 1)");
        let win = win.expect("take 1 is legal");
        // The search stops once the root is proven, so the other move
        // may be left unproven, but never proven a win.
        assert_eq!(merged.proven[win], Some(1.0));
        assert_ne!(merged.proven[1 - win], Some(1.0));
        let mut skewed = merged.clone();
        skewed.visits[win] = 0;
        assert_eq!(choose(&skewed), Some((win, 1.0)));
        // A part that proves nothing (plain MCTS) takes nothing away.
        let plain = RootStats {
            proven: Vec::new(),
            ..parts[0].clone()
        };
        assert_eq!(
            merge_roots(&[plain, parts[1].clone()]).unwrap().proven,
            parts[1].proven
        );
        // Proven values of another length are refused.
        let bad = RootStats {
            proven: vec![None],
            ..parts[0].clone()
        };
        assert!(merge_roots(&[parts[0].clone(), bad]).is_err());
    }

    #[test]
    fn threads_grow_one_tree_and_lose_no_update() {
        // Tic-tac-toe, two threads of 3,000 playouts each on one tree:
        // every playout reaches the root but those taken back (a move into
        // a proven loss), and at every node each move's visits are its
        // child's visits (one lost or doubled update between the threads
        // breaks this).
        let ttt = include_str!("../../../../games/ticTacToe.kif");
        let mut m = load_engine(ttt, EngineChoice::Fast).expect("tic-tac-toe loads");
        let root = m.initial_state().unwrap();
        let mut p = SolverMcts::new(cfg(3_000), 11, 2);
        let (view, stats) = p.search_view(&mut m, &root, 0).unwrap();
        assert!(stats.playouts > 3_000, "both threads searched: {stats:?}");
        let tree = &p.tree.nodes;
        let choked = p.tree.choked;
        assert_eq!(tree[0].visits as u64 + choked, stats.playouts);
        assert_eq!(view.visits.iter().sum::<u64>() + choked, stats.playouts);
        let mut checked = 0;
        for node in tree {
            let Some(r) = node.mover() else { continue };
            for (&k, &c) in &node.children {
                let i = (k / node.strides[r]) as usize;
                assert_eq!(node.arms[r][i].visits, tree[c as usize].visits);
                checked += 1;
            }
        }
        assert!(checked >= 1_000, "{checked} moves checked");
    }

    #[test]
    fn an_immediate_win_is_played_without_searching() {
        // From 2, taking both stones wins at once: the decisive-move check
        // of the root proves it before any playout.
        let mut m = take_away(2);
        let root = m.initial_state().unwrap();
        let mut p = SolverMcts::new(cfg(1_000), 1, 1);
        let r = p.search(&mut m, &root, 0).unwrap();
        assert_eq!(shown(&m, r.best_move), "(take 2)");
        assert_eq!((r.value, r.solved, r.stats.playouts), (100.0, true, 0));
    }

    /// Adds to `s` the child of node `id` by `role`'s move `mv` (the other
    /// role's only move), counting the visit as a descent does: the child
    /// and the descent's step.
    fn descend_to(
        s: &mut Searcher<EngineState>,
        m: &mut Engine,
        id: u32,
        role: usize,
        mv: &str,
    ) -> (u32, (u32, Vec<u16>)) {
        let node = &mut s.nodes[id as usize];
        let picks: Vec<u16> = (node.legal.iter().enumerate())
            .map(|(r, l)| match r == role {
                true => l.iter().position(|&t| m.terms().display(t) == mv).unwrap() as u16,
                false => 0,
            })
            .collect();
        let (key, joint) = node.visit(&picks);
        let (state, exchange) = (node.state.clone(), node.exchange);
        let next = m.next_state(&state, &joint).unwrap();
        let child = Searcher::make_node(m, next, &s.cfg, Some(exchange)).unwrap();
        let c = s.nodes.len() as u32;
        s.nodes.push(child);
        s.nodes[id as usize].children.insert(key, c);
        (c, (id, picks))
    }

    #[test]
    fn a_move_into_a_proven_loss_is_not_counted_above_its_node() {
        // From 6 a takes 2; at 4 b's (take 2) leaves 2, which a takes: a
        // loss for b, whose (take 1) is still open.
        let mut m = take_away(6);
        let root = m.initial_state().unwrap();
        for choke in [true, false] {
            let mut s = Searcher::new(Config { choke, ..cfg(1) });
            s.start(&mut m, &root).unwrap();
            let (p, top) = descend_to(&mut s, &mut m, 0, 0, "(take 2)");
            let (e, step) = descend_to(&mut s, &mut m, p, 1, "(take 2)");
            s.decisive(&mut m, e).unwrap();
            assert_eq!(s.nodes[e as usize].proven.as_deref(), Some(&[1.0, 0.0][..]));
            let path = [top.clone(), step.clone()];
            s.backup(e, &path, &[1.0, 0.0], &mut FxHashSet::default());
            assert!(s.nodes[p as usize].proven.is_none());
            // The losing move counts at b's node, either way.
            let lost = s.nodes[p as usize].arms[1][step.1[1] as usize];
            assert_eq!((lost.visits, lost.total), (1, 0.0));
            let above = s.nodes[0].arms[0][top.1[0] as usize];
            let expected = if choke { (0, 0.0, 0) } else { (1, 1.0, 1) };
            assert_eq!(
                (above.visits, above.total, s.nodes[0].visits),
                expected,
                "choke {choke}"
            );
        }
    }

    #[test]
    fn a_playout_won_at_its_first_step_proves_the_new_node_at_once() {
        // From 4 a's (take 2) leaves 2: b's (take 2) wins at once, its
        // (take 1) only a step later. Random playouts take either.
        let mut m = take_away(4);
        let root = m.initial_state().unwrap();
        let mut seen = (0, 0);
        for seed in 0..40 {
            let config = cfg(1);
            let mut s = Searcher::new(config.clone());
            s.start(&mut m, &root).unwrap();
            let (c, (_, picks)) = descend_to(&mut s, &mut m, 0, 0, "(take 2)");
            let child = s.nodes.pop().unwrap();
            let node = &s.nodes[0];
            let leaf = Leaf::Expand {
                parent: 0,
                key: node
                    .children
                    .iter()
                    .find(|(_, &v)| v == c)
                    .map(|(&k, _)| k)
                    .unwrap(),
                state: node.state.clone(),
                joint: (picks.iter().enumerate())
                    .map(|(r, &i)| node.legal[r][i as usize])
                    .collect(),
                room: true,
                exchange: node.exchange,
            };
            let mut w = Walker::new(&config, seed);
            let (end, rewards) = w.explore(&mut m, leaf, 2, &config).unwrap();
            let End::New { node, found, .. } = end else {
                panic!("a new node");
            };
            assert!(node.state == child.state);
            match found {
                Some(found) => {
                    let (i, goals) = found.win.expect("the decisive move");
                    assert_eq!(shown(&m, Some(node.legal[1][i as usize])), "(take 2)");
                    assert_eq!((goals.clone(), rewards), (vec![0.0, 1.0], goals));
                    seen.0 += 1;
                }
                None => seen.1 += 1,
            }
        }
        assert!(seen.0 >= 5 && seen.1 >= 5, "{seen:?}");
    }

    #[test]
    fn transpositions_keep_the_proofs_exact() {
        // A pile that is a multiple of 3 is lost for the mover, any other
        // won by leaving one: one thread, and two sharing the graph.
        for (pile, threads) in (3..=10).flat_map(|p| [(p, 1), (p, 2)]) {
            let mut m = take_away(pile);
            let root = m.initial_state().unwrap();
            let cfg = Config {
                transpositions: true,
                ..cfg(50_000)
            };
            let mut p = SolverMcts::new(cfg, 3, threads);
            let r = p.search(&mut m, &root, 0).unwrap();
            let won = pile % 3 != 0;
            let value: &[f64] = if won { &[1.0, 0.0] } else { &[0.0, 1.0] };
            assert_eq!(
                p.tree.nodes[0].proven.as_deref(),
                Some(value),
                "pile {pile}"
            );
            if won {
                let take = format!("(take {})", pile % 3);
                assert_eq!(shown(&m, r.best_move), take, "pile {pile}");
            }
        }
    }

    #[test]
    fn transpositions_give_each_state_one_node_through_a_reroot() {
        let mut m = take_away(12);
        let root = m.initial_state().unwrap();
        let distinct = |s: &Searcher<EngineState>| {
            let states: FxHashSet<&EngineState> = s.nodes.iter().map(|n| &n.state).collect();
            states.len() == s.size()
        };
        // Without transpositions two move orders to one pile make two nodes.
        for transpositions in [false, true] {
            let cfg = Config {
                transpositions,
                ..cfg(3_000)
            };
            let mut p = SolverMcts::new(cfg, 9, 1);
            p.search_view(&mut m, &root, 0).unwrap();
            assert_eq!(distinct(&p.tree), transpositions);
        }
        let cfg = Config {
            transpositions: true,
            ..cfg(300)
        };
        let mut p = SolverMcts::new(cfg, 9, 1);
        p.search_view(&mut m, &root, 0).unwrap();
        let s = &mut p.tree;
        let c = *s.nodes[0].children.values().next().unwrap();
        let g = *s.nodes[c as usize].children.values().next().unwrap();
        let (state, visits) = (
            s.nodes[g as usize].state.clone(),
            s.nodes[g as usize].visits,
        );
        let before = s.size();
        assert!(s.reroot(&state));
        assert!(s.size() < before && s.nodes[0].visits == visits);
        // Each kept node once, reachable, and indexed by its state.
        assert!(distinct(s));
        let mut seen = vec![false; s.size()];
        let mut stack = vec![0u32];
        while let Some(id) = stack.pop() {
            if !std::mem::replace(&mut seen[id as usize], true) {
                stack.extend(s.nodes[id as usize].children.values());
            }
        }
        assert!(seen.iter().all(|&x| x));
        for (i, node) in s.nodes.iter().enumerate() {
            assert_eq!(s.indexed(&node.state), Some(i as u32));
        }
        assert_eq!(s.index.len(), s.size());
    }

    #[test]
    fn transpositions_prove_tic_tac_toe_in_fewer_playouts() {
        // After 1 to 3 marks (each role's first legal move), one thread:
        // the proof is exact either way, and the graph needs fewer
        // playouts than the tree, which proves each move order apart
        // (after one mark, a draw: about 44,000 against 1,100).
        let ttt = include_str!("../../../../games/ticTacToe.kif");
        let mut m = load_engine(ttt, EngineChoice::Fast).expect("tic-tac-toe loads");
        let mut s = m.initial_state().unwrap();
        for marks in 0..=3 {
            if marks > 0 {
                let exact = exact(&mut m, &s);
                let mut playouts = [0u64; 2];
                for (i, transpositions) in [false, true].into_iter().enumerate() {
                    let cfg = Config {
                        transpositions,
                        greedy: true,
                        ..cfg(200_000)
                    };
                    let mut p = SolverMcts::new(cfg, 11, 1);
                    let r = p.search(&mut m, &s, 0).unwrap();
                    let proven = p.tree.nodes[0].proven.as_deref();
                    assert_eq!(proven, Some(&exact[..]), "{marks} marks, {transpositions}");
                    playouts[i] = r.stats.playouts;
                }
                assert!(playouts[1] <= playouts[0], "{marks} marks: {playouts:?}");
                if marks == 1 {
                    assert!(playouts[1] * 10 < playouts[0], "{playouts:?}");
                }
            }
            let joint: Vec<TermId> = (m.all_legal_moves(&s).unwrap().iter())
                .map(|l| l[0])
                .collect();
            s = m.next_state(&s, &joint).unwrap();
        }
    }

    /// A one-player ring of three states that `go` walks round; `stop`
    /// ends the game, with nothing won.
    fn ring() -> Engine {
        let text = "(role a) (init (p 1)) (succ 1 2) (succ 2 3) (succ 3 1)
             (<= (legal a go) (true (p ?x))) (<= (legal a stop) (true (p ?x)))
             (<= (next (p ?y)) (does a go) (true (p ?x)) (succ ?x ?y))
             (<= (next done) (does a stop))
             (<= terminal (true done))
             (goal a 0)";
        load_engine(text, EngineChoice::Interpreter).expect("the test game loads")
    }

    #[test]
    fn transpositions_link_a_cycle_without_walking_round_it() {
        let mut m = ring();
        let root = m.initial_state().unwrap();
        let cfg = Config {
            transpositions: true,
            playout_steps: 20,
            ..cfg(2_000)
        };
        let mut p = SolverMcts::new(cfg, 1, 1);
        let r = p.search(&mut m, &root, 0).unwrap();
        assert!(r.stats.playouts >= 2_000);
        // p 1, p 2, p 3 and done: one node each; going round never ends.
        assert_eq!(p.tree.size(), 4);
        assert!(p.tree.nodes[0].proven.is_none());
    }

    #[test]
    fn proves_a_lost_position_lost() {
        // From 6 every move loses against best play: the root is proven
        // with a's reward 0, and both moves are proven losses.
        let mut m = take_away(6);
        let root = m.initial_state().unwrap();
        let mut p = SolverMcts::new(cfg(50_000), 5, 1);
        let (view, _) = p.search_view(&mut m, &root, 0).unwrap();
        assert_eq!(p.tree.nodes[0].proven.as_deref(), Some(&[0.0, 1.0][..]));
        assert_eq!(view.proven, vec![Some(0.0), Some(0.0)]);
        assert!(choose(&view).is_some());
    }

    #[test]
    fn kept_subtree_keeps_its_statistics() {
        let mut m = take_away(12);
        let root = m.initial_state().unwrap();
        let mut p = SolverMcts::new(cfg(3_000), 9, 1);
        p.search_view(&mut m, &root, 0).unwrap();
        let s = &mut p.tree;
        // The most visited child and, below it, a grandchild.
        let best_child = |s: &Searcher<_>, id: u32| -> u32 {
            let n: &Node<_> = &s.nodes[id as usize];
            *n.children
                .values()
                .max_by_key(|&&c| s.nodes[c as usize].visits)
                .unwrap()
        };
        let c = best_child(s, 0);
        let g = best_child(s, c);
        // The same state may be reached by two move orders: the kept node
        // is the most visited of them (ties: the first made, as in reroot).
        let state = s.nodes[g as usize].state.clone();
        let g = (0..s.nodes.len())
            .filter(|&i| s.nodes[i].state == state)
            .max_by_key(|&i| (s.nodes[i].visits, std::cmp::Reverse(i)))
            .unwrap();
        let node = &s.nodes[g];
        let visits = node.visits;
        let arms: Vec<Vec<u32>> = node
            .arms
            .iter()
            .map(|a| a.iter().map(|x| x.visits).collect())
            .collect();
        let kids: Vec<(u64, u32)> = {
            let mut k: Vec<(u64, u32)> = node
                .children
                .iter()
                .map(|(&k, &c)| (k, s.nodes[c as usize].visits))
                .collect();
            k.sort();
            k
        };
        assert!(visits > 10 && !kids.is_empty());
        assert!(s.reroot(&state));
        let root = &s.nodes[0];
        assert_eq!(root.visits, visits);
        let arms_after: Vec<Vec<u32>> = root
            .arms
            .iter()
            .map(|a| a.iter().map(|x| x.visits).collect())
            .collect();
        assert_eq!(arms_after, arms);
        let mut kids_after: Vec<(u64, u32)> = root
            .children
            .iter()
            .map(|(&k, &c)| (k, s.nodes[c as usize].visits))
            .collect();
        kids_after.sort();
        assert_eq!(kids_after, kids);
        // Every kept node is reachable from the new root exactly once.
        let mut seen = vec![false; s.nodes.len()];
        let mut stack = vec![0u32];
        while let Some(id) = stack.pop() {
            assert!(!seen[id as usize]);
            seen[id as usize] = true;
            stack.extend(s.nodes[id as usize].children.values());
        }
        assert!(seen.iter().all(|&x| x));
        // A search from there starts with those visits and adds its own.
        let (view, _) = p.search_view(&mut m, &state, 0).unwrap();
        assert_eq!(p.tree.nodes[0].visits, visits + view.playouts as u32);
        // A state that is not in the tree empties it.
        let fresh = m.initial_state().unwrap();
        assert!(!p.tree.reroot(&fresh));
        assert_eq!(p.tree.size(), 0);
    }

    #[test]
    fn an_exchange_shifts_rewards_by_its_outcome_once_it_ends() {
        // Balances of 20 pieces: role 0 takes one (10 against 9), then
        // role 1 takes one back (9 against 9), then a quiet move.
        let root = Exchange::after(None, 0.0, 20.0);
        let take = Exchange::after(Some(root), 1.0 / 19.0, 19.0);
        assert!(take.took && take.shift == 0.0 && take.before == 0.0);
        let quiet = Exchange::after(Some(take), 1.0 / 19.0, 19.0);
        assert!(!quiet.took && quiet.shift > 0.0, "{quiet:?}");
        let back = Exchange::after(Some(take), 0.0, 18.0);
        assert_eq!(
            back.before, 0.0,
            "the exchange began before the first capture"
        );
        let even = Exchange::after(Some(back), 0.0, 18.0);
        assert_eq!(even.shift, 0.0, "an even exchange shifts nothing");
        // Quiet moves without an exchange before shift nothing either.
        assert_eq!(Exchange::after(Some(quiet), 1.0 / 19.0, 19.0).shift, 0.0);
        // The shift moves role 0's reward up by its share of the distance
        // left, role 1's down, and keeps a zero-sum sum.
        for (r0, r1) in [(0.0, 1.0), (0.5, 0.5), (1.0, 0.0)] {
            let mut rewards = [r0, r1];
            quiet.apply(&mut rewards);
            let s = quiet.shift;
            assert!((rewards[0] - (r0 + (1.0 - r0) * s)).abs() < 1e-12);
            assert!((rewards[0] + rewards[1] - 1.0).abs() < 1e-12, "{rewards:?}");
        }
        // Role 1's gain shifts the other way.
        let lost = Exchange::after(Some(root), -1.0 / 19.0, 19.0);
        let mut rewards = [0.5, 0.5];
        Exchange::after(Some(lost), -1.0 / 19.0, 19.0).apply(&mut rewards);
        assert!(rewards[1] > 0.5 && rewards[0] < 0.5, "{rewards:?}");
    }

    #[test]
    fn backed_up_rewards_are_shifted_above_an_exchange_that_ended() {
        // Root, then A (a capture: no shift), then B (the exchange's end,
        // shifting by 0.2 towards role 0). A playout's rewards from B reach
        // A's and the root's move shifted; proven rewards are not.
        let mut m = take_away(4);
        let s0 = m.initial_state().unwrap();
        let joint = |m: &mut Engine, s| {
            let legal = m.all_legal_moves(s).unwrap();
            legal.iter().map(|l| l[0]).collect::<Vec<_>>()
        };
        let j0 = joint(&mut m, &s0);
        let s1 = m.next_state(&s0, &j0).unwrap();
        let j1 = joint(&mut m, &s1);
        let s2 = m.next_state(&s1, &j1).unwrap();
        let mut tree = Searcher::new(cfg(1));
        for (s, took, shift) in [(s0, false, 0.0), (s1, true, 0.0), (s2, false, 0.2)] {
            let mut node = Searcher::make_node(&mut m, s, &cfg(1), None).unwrap();
            node.exchange = Exchange {
                took,
                shift,
                ..Exchange::default()
            };
            tree.nodes.push(node);
        }
        let path = vec![(0, vec![0, 0]), (1, vec![0, 0])];
        tree.backup(2, &path, &[0.5, 0.5], &mut FxHashSet::default());
        let total = |t: &Searcher<_>, id: usize, r: usize| t.nodes[id].arms[r][0].total;
        for id in [0, 1] {
            assert!((total(&tree, id, 0) - 0.6).abs() < 1e-12, "node {id}");
            assert!((total(&tree, id, 1) - 0.4).abs() < 1e-12, "node {id}");
        }
        tree.nodes[2].proven = Some(vec![0.0, 1.0].into_boxed_slice());
        tree.backup(2, &path, &[0.0, 1.0], &mut FxHashSet::default());
        assert!((total(&tree, 0, 0) - 0.6).abs() < 1e-12);
        assert!((total(&tree, 0, 1) - 1.4).abs() < 1e-12);
    }

    #[test]
    fn captures_are_seeded_and_tried_first() {
        // Take-away from 4: role a moves; pretend its second move captures
        // (role 0's balance up by 0.1 of 20 pieces), its first not.
        let mut m = take_away(4);
        let s0 = m.initial_state().unwrap();
        let mut tree = Searcher::new(cfg(1));
        tree.nodes
            .push(Searcher::make_node(&mut m, s0, &cfg(1), None).unwrap());
        let alike = vec![(0.1, 20.0), (0.1, 20.0)];
        tree.settle(
            0,
            Checked {
                win: None,
                captures: alike,
            },
        );
        let arms = &tree.nodes[0].arms[0];
        assert!(
            arms.iter().all(|a| a.seed.is_nan()),
            "moves alike: no seeds"
        );
        let captures = vec![(0.0, 20.0), (0.1, 20.0)];
        tree.settle(
            0,
            Checked {
                win: None,
                captures,
            },
        );
        let arms = &tree.nodes[0].arms[0];
        assert!(arms[0].seed.is_nan(), "a quiet move is not seeded");
        let seed = arms[1].seed as f64;
        let expected = 0.5 + 0.5 * (2.0 / (1.0 + (-0.5f64).exp()) - 1.0);
        assert!((seed - expected).abs() < 1e-6, "{seed} against {expected}");
        let mut rng = fastrand::Rng::with_seed(1);
        assert_eq!(tree.select(0, 0, &mut rng), 1, "the capture first");
        // Role 1 losing as much is displaced the other way.
        assert!(Exchange::displace(0.5, 1, 0.1, 20.0) < 0.5);
        assert!((Exchange::displace(0.5, 1, 0.1, 20.0) + seed - 1.0).abs() < 1e-6);
    }

    #[test]
    fn mast_playouts_stop_playing_a_move_that_lost() {
        // From 2, taking both wins and taking one loses. With epsilon 0 a
        // move is tried again only while it rates top: the losing move is
        // played at most once, where uniform playouts lose half the time.
        for choice in [EngineChoice::Interpreter, EngineChoice::Fast] {
            let mut m = load_engine(&take_away_text(2), choice).expect("take-away loads");
            let root = m.initial_state().unwrap();
            let mut mast = Mast::new(0.0);
            let mut rng = fastrand::Rng::with_seed(7);
            let mut losses = 0;
            for _ in 0..50 {
                let p = m.mast_playout(&root, &mut rng, 10, &mut mast).unwrap();
                assert!(p.terminal, "{choice:?}");
                let r = rewards(&mut m, &p.state).unwrap();
                losses += (r[0] < 0.5) as u32;
                mast.finish(&r);
            }
            assert!(losses <= 1, "{choice:?}: {losses} losses");
        }
    }

    #[test]
    fn the_solver_with_mast_still_proves_forced_wins() {
        let mut m = take_away(7);
        let root = m.initial_state().unwrap();
        let cfg = Config {
            mast: Some(Rule::Greedy(crate::reasoner::mast::EPSILON)),
            ..cfg(20_000)
        };
        let r = SolverMcts::new(cfg, 3, 1).search(&mut m, &root, 0).unwrap();
        assert_eq!(shown(&m, r.best_move), "(take 1)");
        assert!(r.solved && r.value == 100.0);
    }

    #[test]
    fn rave_counts_the_moves_made_there_or_later_and_keeps_the_proofs() {
        // From 12 each role takes several times a game, so a root move's
        // all-moves-as-first count passes its own visits. On both engines:
        // the fast one names a playout's moves by their legal index.
        for choice in [EngineChoice::Interpreter, EngineChoice::Fast] {
            let mut m = load_engine(&take_away_text(12), choice).unwrap();
            let root = m.initial_state().unwrap();
            let cfg = Config {
                rave: 50,
                ..cfg(300)
            };
            let mut player = SolverMcts::new(cfg, 5, 1);
            player.search(&mut m, &root, 0).unwrap();
            let node = &player.tree.nodes[0];
            let (arms, amaf) = (&node.arms[0], &node.amaf[0]);
            assert_eq!(arms.len(), 2, "{choice:?}");
            for (a, all) in arms.iter().zip(amaf) {
                assert!(all.visits >= a.visits, "{choice:?}");
                assert!((0.0..=1.0).contains(&all.mean()), "{choice:?}");
            }
            let (own, all): (u32, u32) = (
                arms.iter().map(|a| a.visits).sum(),
                amaf.iter().map(|a| a.visits).sum(),
            );
            assert!(all > own + 50, "{choice:?}: {all} against {own}");
        }
        // Two threads on the interpreter: its clones intern the piles they
        // meet apart, so one walker grows the tree (two crashed here).
        let mut m = take_away(7);
        let root = m.initial_state().unwrap();
        let cfg = Config {
            rave: 50,
            ..cfg(20_000)
        };
        let r = SolverMcts::new(cfg, 3, 2).search(&mut m, &root, 0).unwrap();
        assert_eq!(shown(&m, r.best_move), "(take 1)");
        assert!(r.solved && r.value == 100.0);
    }

    #[test]
    fn seeded_searches_are_deterministic() {
        let mut m = take_away(12);
        let root = m.initial_state().unwrap();
        let run = |m: &mut Engine| {
            let mut p = SolverMcts::new(cfg(500), 17, 1);
            p.search_view(m, &root, 0).unwrap().0
        };
        assert_eq!(run(&mut m), run(&mut m));
    }

    #[test]
    fn implicit_minimax_backs_up_the_best_childs_values() {
        // Three marks made, six cells empty.
        let (mut m, eval, s) = tic_tac_toe_after(EngineChoice::Fast, 3);
        let eval = Arc::new(eval);
        let with = |playouts| Config {
            material: Some(eval.clone()),
            minimax: 0.5,
            ..cfg(playouts)
        };
        // Part grown: every open node all of whose moves are made holds
        // the values of the child its mover values most; a leaf its own
        // estimate.
        let mut p = SolverMcts::new(with(150), 3, 1);
        p.search_view(&mut m, &s, 0).unwrap();
        let nodes = &p.tree.nodes;
        let value = |c: &u32| {
            let c = &nodes[*c as usize];
            c.proven.clone().unwrap_or(c.implicit.clone())
        };
        let (mut complete, mut leaves) = (0, 0);
        for node in nodes.iter().filter(|n| n.proven.is_none()) {
            let Some(r) = node.mover() else { continue };
            if node.children.is_empty() {
                let own = implicit_estimate(&eval, &m.fluents(&node.state), 2);
                assert_eq!(*node.implicit, *own);
                leaves += 1;
            } else if node.children.len() == node.legal[r].len() {
                let best = node.children.values().map(value);
                let best = best.max_by(|a, b| a[r].total_cmp(&b[r])).unwrap();
                assert_eq!(best[r], node.implicit[r]);
                complete += 1;
            }
        }
        assert!(
            complete >= 3 && leaves >= 3,
            "{complete} complete, {leaves} leaves"
        );
        // Grown until proven: the root holds the exact values.
        let mut p = SolverMcts::new(with(20_000), 3, 1);
        p.search_view(&mut m, &s, 0).unwrap();
        let root = &p.tree.nodes[0];
        assert!(root.proven.is_some());
        assert_eq!(*root.implicit, *exact(&mut m, &s));
    }

    #[test]
    fn proven_values_overrule_visits() {
        let a = RootStats {
            moves: vec![TermId(1), TermId(2)],
            visits: vec![3, 5],
            totals: vec![1.0, 2.0],
            proven: vec![None, None],
            playouts: 8,
        };
        let mut b = a.clone();
        b.proven[0] = Some(1.0);
        // The proven win is chosen over the more visited move.
        assert_eq!(choose(&b), Some((0, 1.0)));
        // A proven loss is not played while another move is open.
        let mut c = a;
        c.proven[1] = Some(0.0);
        assert_eq!(choose(&c).map(|x| x.0), Some(0));
    }
}
