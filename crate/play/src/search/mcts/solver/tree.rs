//! MCTS-Solver's tree: nodes with per-role move statistics, proofs and
//! the material shift of exchanges, and the searcher that walks, grows,
//! proves and re-roots it (selection, backup, the choke).

use super::exchange::Exchange;
use super::Config;
use crate::reasoner::{only_mover, rewards, EvalError, StateMachine};
use crate::search::mcts::learned::LearnedEval;
use crate::search::mcts::probe::lead_gained;
use crate::search::mcts::root::{choose, RootStats, WIN};
use crate::terms::TermId;
use rustc_hash::{FxHashMap, FxHasher};
use std::hash::{Hash, Hasher};

#[derive(Clone, Copy)]
pub(super) struct Arm {
    pub(super) visits: u32,
    /// With material, a capture's expected reward (NaN: none): tried
    /// first, and counted in the mean as [`SEED_WEIGHT`] visits.
    pub(super) seed: f32,
    pub(super) total: f64,
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

/// The visits a capture's seed counts for in its move's mean (Sancho's
/// piece heuristic counts 2 to 6).
pub(super) const SEED_WEIGHT: f64 = 4.0;

impl Arm {
    /// The mean selection sees: the seed counted in.
    pub(super) fn score(self) -> f64 {
        if self.seed.is_nan() {
            return self.mean();
        }
        (self.total + SEED_WEIGHT * self.seed as f64) / (self.visits as f64 + SEED_WEIGHT)
    }

    pub(super) fn mean(self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.total / self.visits as f64
        }
    }
}

/// Joint children of a node where several roles choose, beyond which the
/// solver does not try to prove it.
pub(super) const MAX_PROVEN_JOINTS: u64 = 256;

pub(super) struct Node<S> {
    pub(super) state: S,
    /// Legal moves per role (empty when terminal).
    pub(super) legal: Vec<Vec<TermId>>,
    /// Per role, per legal move.
    pub(super) arms: Vec<Vec<Arm>>,
    /// Mixed-radix weights: the joint index is `sum(pick[r] * strides[r])`.
    pub(super) strides: Vec<u64>,
    pub(super) visits: u32,
    pub(super) children: FxHashMap<u64, u32>,
    /// Exact rewards per role in [0, 1] once solved.
    pub(super) proven: Option<Box<[f64]>>,
    /// Once solved, the plies to the end along the proof (0 at a terminal
    /// node): the quickest known win for the mover, the slowest loss.
    pub(super) plies: u16,
    /// The mover's move that ends the game with its top reward, found by
    /// [`Searcher::decisive`] (the node is then proven).
    pub(super) winning: Option<u16>,
    /// Whether [`Searcher::decisive`] has looked at this node.
    pub(super) checked: bool,
    /// Where the node stands in an exchange of pieces (with material).
    pub(super) exchange: Exchange,
}

impl<S> Node<S> {
    /// Counts a descent's visit by the roles' `pick`s: the joint move's
    /// index among the children, and the joint move.
    pub(super) fn visit(&mut self, pick: &[u16]) -> (u64, Vec<TermId>) {
        self.visits += 1;
        for (r, &i) in pick.iter().enumerate() {
            self.arms[r][i as usize].visits += 1;
        }
        // Wrapping: past 2^64 joint moves (thousands of roles) the strides
        // saturate and keys may collide, a coarser tree but never a panic.
        let key = pick.iter().zip(&self.strides).fold(0u64, |k, (&i, &w)| {
            k.wrapping_add((i as u64).wrapping_mul(w))
        });
        let joint = (pick.iter().enumerate())
            .map(|(r, &i)| self.legal[r][i as usize])
            .collect();
        (key, joint)
    }

    /// The only role with a choice, if exactly one has one.
    pub(super) fn mover(&self) -> Option<usize> {
        only_mover(&self.legal)
    }
    pub(super) fn joints(&self) -> u64 {
        self.legal
            .iter()
            .try_fold(1u64, |a, l| a.checked_mul(l.len() as u64))
            .unwrap_or(u64::MAX)
    }
}

/// The search tree, shared by the player's threads.
pub struct Searcher<S> {
    pub(super) cfg: Config,
    pub(super) nodes: Vec<Node<S>>,
    /// The root mover's moves proven lost by the tactical check while the
    /// walkers run: selection leaves them, so the time goes to the others.
    pub(super) banned: Vec<u16>,
    /// Iterations whose visits were taken back (a move into a proven
    /// loss), for the root's count: its visits are the others.
    pub(super) choked: u64,
    /// With transpositions, each node by its state's hash (of two states
    /// with one hash, the first).
    pub(super) index: FxHashMap<u64, u32>,
}

/// A state's key in [`Searcher::index`].
pub(super) fn state_hash<S: Hash>(state: &S) -> u64 {
    let mut h = FxHasher::default();
    state.hash(&mut h);
    h.finish()
}

/// How many new nodes between two readings of the memory in use.
pub(super) const MEMORY_STRIDE: usize = 4096;

/// Frees `count` pruned nodes: natively, when there are many, on a thread
/// of their own, since millions of them take a good part of a second to
/// free and the move's clock runs.
pub(super) fn discard<T: Send + 'static>(garbage: T, count: usize) {
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
pub(super) enum Leaf<S> {
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
pub(super) enum End<S> {
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
/// pieces on the board after it, and the latched pieces the mover gains
/// beyond any other role.
#[derive(Default)]
pub(super) struct Checked {
    pub(super) win: Option<(u16, Vec<f64>)>,
    pub(super) captures: Vec<(f64, f64)>,
    pub(super) latched: Vec<i64>,
}

/// What the material's playouts learnt, where the material is counted.
pub(super) fn learnt(cfg: &Config) -> Option<&LearnedEval> {
    cfg.material.as_deref()
}

/// Decisive moves: where one role moves, each of its moves is tried once;
/// the first that ends the game with the mover's top reward wins, with the
/// goals. Done on a node's second visit, so leaves visited once never pay
/// for it; the parent then sees a proven loss (anti-decisive). With what
/// the material's playouts learnt, `eval`, each move's change of role 0's
/// balance and of the latched pieces are noted from the same successor
/// states.
pub(super) fn check_node<M: StateMachine>(
    m: &mut M,
    state: &M::State,
    legal: &[Vec<TermId>],
    eval: Option<&LearnedEval>,
) -> Result<Checked, EvalError> {
    let Some(r) = only_mover(legal) else {
        return Ok(Checked::default());
    };
    let material = eval.and_then(|e| e.material.as_ref());
    let latches = eval.and_then(|e| e.latches.as_ref());
    let fluents = eval.map(|_| m.fluents(state)).unwrap_or_default();
    let before = material.map(|mat| mat.balance(&fluents, 0).0);
    let held = latches.map(|l| l.counts(&fluents, legal.len()));
    let mut joint: Vec<TermId> = legal.iter().map(|l| l[0]).collect();
    let (mut captures, mut latched) = (Vec::new(), Vec::new());
    for (i, &mv) in legal[r].iter().enumerate() {
        joint[r] = mv;
        let next = m.next_state(state, &joint)?;
        if m.is_terminal(&next)? {
            let goals = rewards(m, &next)?;
            if goals.get(r).is_some_and(|&g| g >= WIN) {
                return Ok(Checked {
                    win: Some((i as u16, goals)),
                    ..Checked::default()
                });
            }
        }
        let Some(eval) = eval else { continue };
        let after = m.fluents(&next);
        if let (Some(mat), Some(before)) = (&eval.material, before) {
            let (balance, total) = mat.balance(&after, 0);
            captures.push((balance - before, total));
        }
        if let (Some(l), Some(held)) = (&eval.latches, &held) {
            latched.push(lead_gained(r, held, &l.counts(&after, held.len())));
        }
    }
    Ok(Checked {
        win: None,
        captures,
        latched,
    })
}

/// Seeds role `r`'s captures at a node: its mean so far, displaced by
/// what each capture gains or loses. Where every move changes the balance
/// alike (a piece dropped in connect four) there is nothing to tell the
/// moves apart by.
fn seed_captures(arms: &mut [Arm], r: usize, captures: &[(f64, f64)]) {
    let gains = captures.iter().map(|c| c.0);
    let spread = gains.clone().fold(f64::MIN, f64::max) - gains.fold(f64::MAX, f64::min);
    if spread <= 1e-9 {
        return;
    }
    let (n, sum) = arms
        .iter()
        .fold((0, 0.0), |(n, s), a| (n + a.visits, s + a.total));
    let mean = if n > 0 { sum / n as f64 } else { 0.5 };
    for (arm, &(gain, total)) in arms.iter_mut().zip(captures) {
        if gain.abs() > 1e-9 {
            arm.seed = Exchange::displace(mean, r, gain, total) as f32;
        }
    }
}

/// Seeds the moves that gain a latched piece (reversi's corners) as wins
/// for the mover, and those that let another role gain more as losses,
/// as Sancho's majority heuristic does; overrides a capture's seed. Where
/// every move gains alike (connect four's pieces all stay) nothing is
/// told apart.
fn seed_latched(arms: &mut [Arm], latched: &[i64]) {
    let (lo, hi) = (latched.iter().min(), latched.iter().max());
    if lo == hi {
        return;
    }
    for (arm, &gain) in arms.iter_mut().zip(latched) {
        if gain != 0 {
            arm.seed = if gain > 0 { 1.0 } else { 0.0 };
        }
    }
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
    pub(super) fn clear(&mut self) {
        self.nodes.clear();
        self.index.clear();
    }

    /// The node of `state` in the index, if it is that state's.
    pub(super) fn indexed(&self, state: &S) -> Option<u32> {
        let &id = self.index.get(&state_hash(state))?;
        (self.nodes[id as usize].state == *state).then_some(id)
    }

    /// Adds `node` to the tree (and to the index, with transpositions).
    pub(super) fn push(&mut self, node: Node<S>) -> u32 {
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
    pub(super) fn find(&self, state: &S) -> Option<u32> {
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
    pub(super) fn full(&mut self) -> bool {
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
    pub(super) fn start<M: StateMachine<State = S>>(
        &mut self,
        m: &mut M,
        root: &S,
    ) -> Result<(), EvalError> {
        self.banned.clear();
        if !self.reroot(root) {
            self.clear();
            let node = Self::make_node(m, root.clone(), &self.cfg, None)?;
            self.push(node);
        }
        if self.cfg.proofs && !self.nodes[0].checked {
            self.decisive(m, 0)?;
        }
        Ok(())
    }

    /// The node of `state`; with material, the child of a node whose
    /// exchange is `parent` (none: the root).
    pub(super) fn make_node<M: StateMachine<State = S>>(
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
            state,
            legal,
            strides,
            visits: 0,
            children: FxHashMap::default(),
            proven,
            plies: 0,
            winning: None,
            checked: false,
            exchange,
        })
    }

    /// Looks for a decisive move at `id` ([`check_node`]) and proves
    /// the node with it.
    pub(super) fn decisive<M: StateMachine<State = S>>(
        &mut self,
        m: &mut M,
        id: u32,
    ) -> Result<(), EvalError> {
        let node = &self.nodes[id as usize];
        let found = check_node(m, &node.state, &node.legal, learnt(&self.cfg))?;
        self.settle(id, found);
        Ok(())
    }

    /// Marks node `id` checked for a decisive move, and proven by the one
    /// found; otherwise seeds the mover's captures and latched pieces.
    pub(super) fn settle(&mut self, id: u32, found: Checked) {
        let node = &mut self.nodes[id as usize];
        node.checked = true;
        if let Some((i, goals)) = found.win {
            node.proven = Some(goals.into_boxed_slice());
            node.plies = 1;
            node.winning = Some(i);
            return;
        }
        let Some(r) = node.mover() else {
            return;
        };
        seed_captures(&mut node.arms[r], r, &found.captures);
        seed_latched(&mut node.arms[r], &found.latched);
    }

    /// Role `r`'s move at `node`: an untried one (random) first, else UCB1,
    /// where a proven child (the role moving alone) scores its exact value.
    pub(super) fn select(&self, id: u32, r: usize, rng: &mut fastrand::Rng) -> u16 {
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
        let unknown = |i: usize| open(i) && arms[i].visits == 0;
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
        let ln = (node.visits.max(1) as f64).ln();
        let mut best = (0u16, f64::NEG_INFINITY);
        for (i, a) in arms.iter().enumerate().filter(|&(i, _)| open(i)) {
            // A proven loss goes below every open move, whose score may be
            // 0 too: a choked iteration leaves the node's count as it was.
            let exact = if alone && self.cfg.proofs {
                self.child_proven(node, (i as u64).wrapping_mul(node.strides[r]))
                    .map(|p| if p[r] <= 0.0 { -1.0 } else { p[r] })
            } else {
                None
            };
            let u = exact.unwrap_or_else(|| {
                let n = a.visits as f64;
                a.score() + self.cfg.exploration * (ln / n.max(1.0)).sqrt()
            });
            if u > best.1 {
                best = (i as u16, u);
            }
        }
        best.0
    }

    /// One descent from the root, by selection, to where the tree ends:
    /// a proven node, a move whose child is not made yet, or a node on
    /// its second visit, not yet checked for a decisive move (then claimed
    /// for the check). Each node on the way counts the visit, and each
    /// chosen move its pull, at once, before the rewards arrive: a thread
    /// descending meanwhile sees them as worth nothing (a virtual loss)
    /// and spreads to other moves. The engine's work waits until the tree
    /// is unlocked.
    pub(super) fn descend(
        &mut self,
        rng: &mut fastrand::Rng,
        path: &mut Vec<(u32, Vec<u16>)>,
    ) -> Leaf<S> {
        path.clear();
        let mut cur = 0u32;
        let linked = self.cfg.transpositions;
        loop {
            let node = &mut self.nodes[cur as usize];
            if let Some(p) = &node.proven {
                return Leaf::Proven(cur, p.to_vec());
            }
            if self.cfg.proofs && !node.checked && node.visits > 0 {
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
    pub(super) fn end(&mut self, end: End<S>) -> u32 {
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
    /// shifted by each node's exchange on their way up.
    pub(super) fn backup(&mut self, end: u32, path: &[(u32, Vec<u16>)], rewards: &[f64]) {
        let ended_below = path.last().is_none_or(|(last, _)| *last != end);
        if ended_below {
            self.nodes[end as usize].visits += 1;
        }
        // A proven node's own rewards (a playout's reached it by a move
        // order the tree links to it).
        let proven = self.nodes[end as usize].proven.as_deref();
        let mut rewards = proven.unwrap_or(rewards).to_vec();
        let mut proving = proven.is_some() && self.cfg.proofs;
        let shifting = proven.is_none();
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
    }

    /// Whether node `end`, reached from the path's last step `last`, is
    /// proven lost for the role that moved alone into it.
    pub(super) fn lost_into(&self, end: u32, last: Option<&(u32, Vec<u16>)>) -> bool {
        let (Some((parent, _)), Some(p)) = (last, &self.nodes[end as usize].proven) else {
            return false;
        };
        let mover = self.nodes[*parent as usize].mover();
        mover.is_some_and(|r| p[r] <= 0.0)
    }

    /// Takes back the visits a descent counted along `path`.
    pub(super) fn take_back(&mut self, path: &[(u32, Vec<u16>)]) {
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
    pub(super) fn ban(&mut self, role: usize, lost: &[TermId]) {
        let Some(moves) = self.nodes.first().and_then(|n| n.legal.get(role)) else {
            return;
        };
        self.banned = (moves.iter().enumerate())
            .filter(|(_, mv)| lost.contains(mv))
            .map(|(i, _)| i as u16)
            .collect();
    }

    pub(super) fn root_view(&self, role: usize, playouts: u64) -> RootStats {
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

    /// `role`'s view of node `id`: its moves' visits, totals, proven
    /// values and the plies to the end along each proof.
    pub(super) fn view(&self, id: u32, role: usize, playouts: u64) -> RootStats {
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
        if !self.cfg.proofs {
            return v;
        }
        let proofs: Vec<Option<(f64, u32)>> = (0..arms.len())
            .map(|i| {
                if alone && node.winning == Some(i as u16) {
                    return Some((1.0, 1));
                }
                if !alone {
                    // Moving at once: proven if its outcome does not
                    // depend on the others' moves.
                    return (self.row_proof(node, role, i)).map(|p| (p.0[role], p.1 as u32 + 1));
                }
                let k = i as u64 * node.strides[role];
                self.child_proof(node, k)
                    .map(|p| (p.0[role], p.1 as u32 + 1))
            })
            .collect();
        v.proven = proofs.iter().map(|p| p.map(|p| p.0)).collect();
        v.plies = proofs.iter().map(|p| p.map(|p| p.1)).collect();
        v
    }
}
