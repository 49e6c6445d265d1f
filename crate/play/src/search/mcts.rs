//! Monte-Carlo tree search with UCT and random playouts.
//!
//! Each tree node keeps, for **every role**, statistics of that role's own
//! moves (visits, summed reward of that role): selection picks one move per
//! role by UCB1 on its own statistics (decoupled UCT), which handles
//! turn-taking (the other roles have one move), simultaneous moves and any
//! number of roles alike. Children are keyed by the joint move. One
//! iteration: select down to a node with an untried joint move, expand it,
//! play random moves to the end, and add each role's goal value / 100 to the
//! statistics along the path. The move played is our role's most visited
//! move at the root (ties: higher mean). The tree is rebuilt for every move.
//!
//! With `rave=K` (RAVE, Gelly and Silver; as in CadiaPlayer) each node also
//! keeps, per role and move, the rewards of every iteration through the
//! node in which the role made that move later on, in the tree or the
//! playout (all moves as first: AMAF). Selection mixes a move's AMAF mean
//! into its own mean with weight `sqrt(K / (3n + K))` after `n` visits of
//! its own, so moves good elsewhere in the game are tried first and
//! sooner than their own statistics would tell.
//!
//! With `minimax=A` and an evaluation (implicit minimax backups, Lanctot,
//! Winands, Pepels and Sturtevant 2014) each node also keeps a value per
//! role: the evaluation of its state when it is made (a terminal's goal
//! values), then the minimax of its children's values (the child the
//! moving role values most). Selection for the moving role mixes each
//! move's mean with its child's value, weight `A`; proven ends and
//! material swings deep in the tree then reach the root at once instead
//! of through many playouts.

use super::learned::LearnedEval;
pub use super::root::{choose, mean_of, merge_roots, ranked, RootStats};
use super::tactics;
use super::{searched_move, since, Budget, Limit, Player, SearchResult, Stats};
use crate::clock::now_ms;
use crate::reasoner::greedy::Enders;
use crate::reasoner::mast::Mast;
use crate::reasoner::{only_mover, rewards, EvalError, StateMachine};
use crate::terms::TermId;
use rustc_hash::FxHashMap;
use std::sync::Arc;

#[derive(Clone, Debug)]
pub struct Config {
    pub budget: Budget,
    /// UCB1 exploration constant (rewards are in [0, 1]).
    pub exploration: f64,
    /// Tree nodes before the tree stops growing (playouts continue).
    pub max_nodes: usize,
    /// Step cap of one playout.
    pub playout_steps: usize,
    /// With an evaluation, playouts stop after `cutoff` steps and the
    /// evaluation gives the rewards of the state reached.
    pub eval: Option<Arc<LearnedEval>>,
    pub cutoff: usize,
    /// With an evaluation, each new child's value counts as this many
    /// visits of the moves leading to it (progressive bias).
    pub prior: u32,
    /// Greedy playouts: decisive and anti-decisive moves
    /// (`reasoner/greedy.rs`).
    pub greedy: bool,
    /// RAVE's equivalence constant (0: no RAVE).
    pub rave: u32,
    /// Transpositions: a state reached again by another path is the same
    /// node (the tree becomes a graph whose nodes pool their statistics).
    pub transpositions: bool,
    /// Check the final choice for forced wins and losses
    /// (`search/tactics.rs`), in [`TACTICS_SHARE`] of the time.
    pub tactics: bool,
    /// Implicit minimax backups: the weight of the children's minimax
    /// values in selection (0: off; needs `eval`).
    pub minimax: f64,
}

/// The share of a move's time the tactical check takes (the tree search
/// the rest); with a playout budget the check gets [`TACTICS_NODES`].
pub const TACTICS_SHARE: f64 = 0.2;
pub const TACTICS_NODES: u64 = 200_000;

impl Config {
    /// The tree search's budget: all of it, or its share with tactics.
    fn tree_budget(&self) -> Budget {
        match (self.tactics, self.budget.ms) {
            (true, Some(ms)) => Budget {
                ms: Some(ms * (1.0 - TACTICS_SHARE)),
                ..self.budget
            },
            _ => self.budget,
        }
    }

    /// The tactical check's budget, when it is on.
    pub fn tactics_budget(&self) -> Option<Budget> {
        self.tactics.then(|| match self.budget.ms {
            Some(ms) => Budget::ms(ms * TACTICS_SHARE),
            None => Budget::nodes(TACTICS_NODES),
        })
    }
}

impl Default for Config {
    fn default() -> Config {
        Config {
            budget: Budget::default(),
            exploration: 0.7,
            max_nodes: 500_000,
            playout_steps: 1000,
            eval: None,
            cutoff: 10,
            prior: 0,
            greedy: false,
            rave: 0,
            transpositions: false,
            tactics: false,
            minimax: 0.0,
        }
    }
}

#[derive(Clone, Copy, Default)]
struct Arm {
    visits: u32,
    total: f64,
}

struct Node<S> {
    state: S,
    terminal: bool,
    /// Goal values / 100 of a terminal node.
    rewards: Vec<f64>,
    legal: Vec<Vec<TermId>>,
    /// Per role, per legal move.
    arms: Vec<Vec<Arm>>,
    /// With RAVE, per role and legal move: the move's slot in the playout
    /// trail's numbering, and its all-moves-as-first statistics.
    slots: Vec<Vec<u32>>,
    amaf: Vec<Vec<Arm>>,
    visits: u32,
    children: FxHashMap<Box<[u16]>, u32>,
    /// With implicit minimax: the node's value per role, the role that
    /// moves here (the only one with a choice, else the first when nobody
    /// has one; none with simultaneous choices), and per move of that
    /// role the child it leads to (`NONE` before it is made).
    implicit: Vec<f64>,
    mover: Option<usize>,
    child_of: Vec<u32>,
}

const NONE: u32 = u32::MAX;

/// The nodes of a search, the root first; children by index.
type Tree<S> = Vec<Node<S>>;

/// A new child's value for role `r` from its material (after Sancho's
/// piece heuristic): a sigmoid of the change of the role's balance since
/// the root, steeper with more pieces on the board; once the root has a
/// mean of its own, that mean displaced towards 0 or 1 by as much.
fn material_prior<S>(
    material: &super::learned::Material,
    fluents: &[TermId],
    root_balance: &[f64],
    root: &Node<S>,
    r: usize,
) -> f64 {
    let (share, total) = material.balance(fluents, r);
    let change = share - root_balance.get(r).copied().unwrap_or(0.0);
    let h = super::learned::piece_value(change, total);
    let (n, sum) = root.arms[r]
        .iter()
        .fold((0u32, 0.0), |(n, s), a| (n + a.visits, s + a.total));
    if n <= 50 {
        return h;
    }
    super::learned::displace(sum / n as f64, h)
}

/// The MCTS player.
pub struct Mcts {
    pub cfg: Config,
    rng: fastrand::Rng,
    stats: Stats,
    /// The moves seen to end games (greedy playouts), kept for the game.
    enders: Enders,
    /// With RAVE: notes the playouts' moves (epsilon 1: drawn uniformly).
    trail: Mast,
    /// With RAVE: the slots played in an iteration, as bits.
    played: Vec<u64>,
    /// With a material evaluation: each role's balance at the root.
    root_balance: Vec<f64>,
}

impl Mcts {
    pub fn new(cfg: Config, seed: u64) -> Mcts {
        Mcts {
            cfg,
            rng: fastrand::Rng::with_seed(seed),
            stats: Stats::default(),
            enders: Enders::default(),
            trail: Mast::new(1.0),
            played: Vec::new(),
            root_balance: Vec::new(),
        }
    }

    fn make_node<M: StateMachine>(
        &mut self,
        m: &mut M,
        state: M::State,
    ) -> Result<Node<M::State>, EvalError> {
        let mut node = Self::bare_node(m, state)?;
        if self.cfg.rave > 0 && !node.terminal {
            node.amaf = node.arms.clone();
            node.slots = (node.legal.iter().enumerate())
                .map(|(r, moves)| {
                    let slot = |&mv: &TermId| m.move_slot(&mut self.trail, r, mv);
                    moves.iter().map(slot).collect()
                })
                .collect();
        }
        if self.cfg.minimax > 0.0 {
            if let Some(eval) = &self.cfg.eval {
                node.implicit = estimate(m, eval, &node);
                let forced = !node.terminal && node.legal.iter().all(|l| l.len() == 1);
                node.mover = only_mover(&node.legal).or(forced.then_some(0));
                if let Some(r) = node.mover {
                    node.child_of = vec![NONE; node.legal[r].len()];
                }
            }
        }
        Ok(node)
    }

    fn bare_node<M: StateMachine>(m: &mut M, state: M::State) -> Result<Node<M::State>, EvalError> {
        let n = m.roles().len();
        let terminal = m.is_terminal(&state)?;
        let (legal, rewards) = if terminal {
            (vec![Vec::new(); n], rewards(m, &state)?)
        } else {
            let legal = m.all_legal_moves(&state)?;
            if legal.iter().any(Vec::is_empty) {
                // Nobody can move: treat as the end of the game.
                let r = rewards(m, &state)?;
                return Ok(Node {
                    state,
                    terminal: true,
                    rewards: r,
                    legal,
                    arms: Vec::new(),
                    slots: Vec::new(),
                    amaf: Vec::new(),
                    visits: 0,
                    children: FxHashMap::default(),
                    implicit: Vec::new(),
                    mover: None,
                    child_of: Vec::new(),
                });
            }
            (legal, Vec::new())
        };
        let arms = legal
            .iter()
            .map(|l| vec![Arm::default(); l.len()])
            .collect();
        Ok(Node {
            state,
            terminal,
            rewards,
            legal,
            arms,
            slots: Vec::new(),
            amaf: Vec::new(),
            visits: 0,
            children: FxHashMap::default(),
            implicit: Vec::new(),
            mover: None,
            child_of: Vec::new(),
        })
    }

    /// Runs MCTS from `root` for `role`.
    pub fn search<M: StateMachine>(
        &mut self,
        m: &mut M,
        root: &M::State,
        role: usize,
    ) -> Result<SearchResult, EvalError> {
        let (rs, stats) = self.search_root(m, root, role)?;
        decide(m, root, role, &rs, stats, self.cfg.tactics_budget())
    }

    /// Runs MCTS from `root` and returns the statistics of `role`'s moves
    /// at the root (what root-parallel search merges) and the counters.
    pub fn search_root<M: StateMachine>(
        &mut self,
        m: &mut M,
        root: &M::State,
        role: usize,
    ) -> Result<(RootStats, Stats), EvalError> {
        let t0 = now_ms();
        let (tree, mut stats) = self.grow(m, root)?;
        let root_node = &tree[0];
        let mut rs = RootStats {
            playouts: stats.playouts,
            ..RootStats::default()
        };
        if !root_node.terminal && !root_node.arms.is_empty() {
            rs.moves = root_node.legal[role].clone();
            rs.visits = root_node.arms[role]
                .iter()
                .map(|a| a.visits as u64)
                .collect();
            rs.totals = root_node.arms[role].iter().map(|a| a.total).collect();
        }
        stats.elapsed_ms = since(t0);
        Ok((rs, stats))
    }

    /// Grows a tree from `root` within the budget: the tree (the root
    /// first) and the counters.
    fn grow<M: StateMachine>(
        &mut self,
        m: &mut M,
        root: &M::State,
    ) -> Result<(Tree<M::State>, Stats), EvalError> {
        let mut limit = Limit::new(&self.cfg.tree_budget());
        let mut stats = Stats::default();
        let mut tree = vec![self.make_node(m, root.clone())?];
        // With transpositions: every node by its state.
        let mut known: FxHashMap<M::State, u32> = FxHashMap::default();
        if self.cfg.transpositions {
            known.insert(root.clone(), 0);
        }
        if let Some(material) = self.cfg.eval.as_ref().and_then(|e| e.material.as_ref()) {
            let fluents = m.fluents(root);
            self.root_balance = (0..m.roles().len())
                .map(|r| material.balance(&fluents, r).0)
                .collect();
        }
        stats.nodes = 1;
        let n_roles = m.roles().len();
        let mut path: Vec<(u32, Box<[u16]>)> = Vec::new();
        let mut max_depth = 0u32;
        let mix = Mix {
            rave: self.cfg.rave as f64,
            minimax: self.cfg.minimax,
        };
        loop {
            // Playouts are expensive: read the clock every time.
            if stats.playouts > 0 && limit.exhausted() {
                break;
            }
            limit.tick();
            if tree[0].terminal {
                break;
            }
            // Selection.
            path.clear();
            let mut cur = 0u32;
            let rewards: Vec<f64> = loop {
                let node = &tree[cur as usize];
                if node.terminal {
                    break node.rewards.clone();
                }
                let pick: Box<[u16]> = (0..n_roles)
                    .map(|r| {
                        let amaf = node.amaf.get(r).map_or(&[][..], Vec::as_slice);
                        let implicit = children_values(&tree, node, r);
                        select(
                            &node.arms[r],
                            amaf,
                            &implicit,
                            node.visits,
                            self.cfg.exploration,
                            mix,
                            &mut self.rng,
                        )
                    })
                    .collect();
                path.push((cur, pick.clone()));
                if let Some(&c) = node.children.get(&pick) {
                    // With transpositions a link may close a cycle: the
                    // walk ends there with a playout, as at a new leaf.
                    if self.cfg.transpositions && path.iter().any(|(id, _)| *id == c) {
                        let state = tree[c as usize].state.clone();
                        break self.playout(m, &state, n_roles)?;
                    }
                    cur = c;
                    continue;
                }
                // Expansion (or a playout from here once the tree is full).
                let joint: Vec<TermId> = pick
                    .iter()
                    .enumerate()
                    .map(|(r, &i)| node.legal[r][i as usize])
                    .collect();
                let child_state = m.next_state(&node.state.clone(), &joint)?;
                let seen = self
                    .cfg
                    .transpositions
                    .then(|| known.get(&child_state).copied());
                if let Some(c) = seen.flatten() {
                    link_child(&mut tree[cur as usize], &pick, c);
                    tree[cur as usize].children.insert(pick, c);
                    if path.iter().any(|(id, _)| *id == c) {
                        break self.playout(m, &child_state, n_roles)?;
                    }
                    cur = c;
                    continue;
                }
                let start = if tree.len() < self.cfg.max_nodes {
                    let child = self.make_node(m, child_state)?;
                    let id = tree.len() as u32;
                    tree.push(child);
                    stats.nodes += 1;
                    self.seed_prior(m, &mut tree, cur, id, &pick);
                    link_child(&mut tree[cur as usize], &pick, id);
                    tree[cur as usize].children.insert(pick, id);
                    if self.cfg.transpositions {
                        known.insert(tree[id as usize].state.clone(), id);
                    }
                    cur = id;
                    if tree[id as usize].terminal {
                        break tree[id as usize].rewards.clone();
                    }
                    tree[id as usize].state.clone()
                } else {
                    child_state
                };
                break self.playout(m, &start, n_roles)?;
            };
            stats.playouts += 1;
            max_depth = max_depth.max(path.len() as u32);
            // Backpropagation (the node the walk ended on, if it is not on
            // the path, then the path).
            if path.last().is_none_or(|(last, _)| *last != cur) {
                tree[cur as usize].visits += 1;
            }
            if self.cfg.rave > 0 {
                self.back_up_amaf(&mut tree, &path, &rewards);
            }
            if self.cfg.minimax > 0.0 {
                back_up_minimax(&mut tree, &path);
            }
            for (id, pick) in &path {
                let node = &mut tree[*id as usize];
                node.visits += 1;
                for (r, &i) in pick.iter().enumerate() {
                    let arm = &mut node.arms[r][i as usize];
                    arm.visits += 1;
                    arm.total += rewards.get(r).copied().unwrap_or(0.0);
                }
            }
        }
        stats.depth = max_depth;
        Ok((tree, stats))
    }
}

impl Mcts {
    /// Adds the evaluation of the new child `id` of `parent` to the arms of
    /// the joint move `pick` as [`Config::prior`] visits.
    fn seed_prior<M: StateMachine>(
        &self,
        m: &mut M,
        tree: &mut [Node<M::State>],
        parent: u32,
        id: u32,
        pick: &[u16],
    ) {
        let (Some(eval), k) = (&self.cfg.eval, self.cfg.prior) else {
            return;
        };
        if k == 0 {
            return;
        }
        let child = &tree[id as usize];
        let values = if child.terminal {
            child.rewards.clone()
        } else if let Some(material) = &eval.material {
            let fluents = m.fluents(&child.state);
            let root = &tree[0];
            (0..root.arms.len())
                .map(|r| material_prior(material, &fluents, &self.root_balance, root, r))
                .collect()
        } else {
            eval.rewards(&m.fluents(&child.state))
        };
        let node = &mut tree[parent as usize];
        node.visits += k;
        for (r, &i) in pick.iter().enumerate() {
            let arm = &mut node.arms[r][i as usize];
            arm.visits += k;
            arm.total += k as f64 * values.get(r).copied().unwrap_or(0.0);
        }
    }

    /// Adds the iteration's rewards to the AMAF statistics along `path`:
    /// at each node, of every move its role made there or below, in the
    /// tree or in the playout (noted on the trail).
    fn back_up_amaf<S>(
        &mut self,
        tree: &mut [Node<S>],
        path: &[(u32, Box<[u16]>)],
        rewards: &[f64],
    ) {
        let played = &mut self.played;
        played.fill(0);
        for (slot, _) in self.trail.trail() {
            mark(played, slot);
        }
        self.trail.truncate(0);
        for (id, pick) in path.iter().rev() {
            let node = &mut tree[*id as usize];
            for (r, &i) in pick.iter().enumerate() {
                if let Some(&slot) = node.slots.get(r).and_then(|s| s.get(i as usize)) {
                    mark(played, slot);
                }
            }
            for (r, slots) in node.slots.iter().enumerate() {
                let reward = rewards.get(r).copied().unwrap_or(0.0);
                for (arm, &slot) in node.amaf[r].iter_mut().zip(slots) {
                    if has(played, slot) {
                        arm.visits += 1;
                        arm.total += reward;
                    }
                }
            }
        }
    }

    /// The rewards of a playout from `start`: random (or greedy) to the
    /// end, or cut short and evaluated when there is an evaluation.
    fn playout<M: StateMachine>(
        &mut self,
        m: &mut M,
        start: &M::State,
        n_roles: usize,
    ) -> Result<Vec<f64>, EvalError> {
        let steps = match self.cfg.eval {
            Some(_) if self.cfg.cutoff > 0 => self.cfg.cutoff,
            _ => self.cfg.playout_steps,
        };
        let (rng, enders, trail) = (&mut self.rng, &mut self.enders, &mut self.trail);
        let p = match (self.cfg.greedy, self.cfg.rave > 0) {
            (true, false) => m.greedy_playout(start, rng, steps, enders)?,
            (true, true) => m.greedy_mast_playout(start, rng, steps, enders, trail)?,
            (false, false) => m.random_playout(start, rng, steps)?,
            (false, true) => m.mast_playout(start, rng, steps, trail)?,
        };
        if p.terminal {
            return rewards(m, &p.state);
        }
        Ok(match &self.cfg.eval {
            Some(eval) if self.cfg.cutoff > 0 => eval.rewards(&m.fluents(&p.state)),
            _ => vec![0.0; n_roles],
        })
    }
}

/// Sets a slot's bit.
fn mark(bits: &mut Vec<u64>, slot: u32) {
    let w = slot as usize / 64;
    if w >= bits.len() {
        bits.resize(w + 1, 0);
    }
    bits[w] |= 1 << (slot % 64);
}

fn has(bits: &[u64], slot: u32) -> bool {
    bits.get(slot as usize / 64)
        .is_some_and(|w| w & (1 << (slot % 64)) != 0)
}

/// The search result from (merged) root statistics: the chosen move and its
/// value on the 0..100 scale; at a terminal root, the first legal move (if
/// any) and the role's goal. With a `tactics` budget, a forced win found
/// by the tactical check (`search/tactics.rs`) is played (value 100,
/// solved), and a move proven
/// lost gives way to the best-ranked one not proven lost.
pub fn decide<M: StateMachine>(
    m: &mut M,
    root: &M::State,
    role: usize,
    rs: &RootStats,
    stats: Stats,
    tactics: Option<Budget>,
) -> Result<SearchResult, EvalError> {
    let mut result = SearchResult {
        iterations: Vec::new(),
        value: 0.0,
        best_move: None,
        solved: false,
        stats,
    };
    let Some((i, v)) = choose(rs) else {
        result.best_move = m.legal_moves(root, role)?.first().copied();
        result.value = rewards(m, root)?.get(role).copied().unwrap_or(0.0) * 100.0;
        return Ok(result);
    };
    (result.best_move, result.value) = (Some(rs.moves[i]), v * 100.0);
    if let Some(budget) = tactics {
        let verdict = tactics::check(m, root, role, &ranked(rs), &budget)?;
        if verdict.winning.is_some() {
            (result.value, result.solved) = (100.0, true);
        } else if let Some(k) = verdict
            .instead
            .and_then(|mv| rs.moves.iter().position(|&x| x == mv))
        {
            result.value = mean_of(rs, k) * 100.0;
        }
        result.best_move = verdict.choice().or(result.best_move);
    }
    Ok(result)
}

/// A new node's value per role for implicit minimax: its goal values when
/// it is terminal, else [`implicit_estimate`] of its state.
fn estimate<M: StateMachine>(m: &mut M, eval: &LearnedEval, node: &Node<M::State>) -> Vec<f64> {
    if node.terminal {
        return node.rewards.clone();
    }
    implicit_estimate(eval, &m.fluents(&node.state), node.legal.len())
}

/// A state's value per role for implicit minimax, from its fluents: with
/// a material evaluation a sigmoid of the role's lead in pieces,
/// `1 / (1 + e^(−lead/4))` (the slope of Sancho's piece heuristic), else
/// the learnt evaluation.
pub(super) fn implicit_estimate(eval: &LearnedEval, fluents: &[TermId], roles: usize) -> Vec<f64> {
    match &eval.material {
        Some(material) => (0..roles)
            .map(|r| {
                let (share, total) = material.balance(fluents, r);
                1.0 / (1.0 + (-share * total / 4.0).exp())
            })
            .collect(),
        None => eval.rewards(fluents),
    }
}

/// With implicit minimax, the values for role `r` of the children its
/// moves at `node` lead to (NaN where none is made yet); empty when `r`
/// does not move alone here.
fn children_values<S>(tree: &[Node<S>], node: &Node<S>, r: usize) -> Vec<f64> {
    if node.mover != Some(r) {
        return Vec::new();
    }
    let value = |&c: &u32| match c {
        NONE => f64::NAN,
        c => tree[c as usize].implicit[r],
    };
    node.child_of.iter().map(value).collect()
}

/// Notes under the mover's move in `pick` that it leads to child `id`.
fn link_child<S>(node: &mut Node<S>, pick: &[u16], id: u32) {
    if let Some(slot) = (node.mover)
        .and_then(|r| pick.get(r))
        .and_then(|&i| node.child_of.get_mut(i as usize))
    {
        *slot = id;
    }
}

/// Backs the children's minimax values up the path, from its end: each
/// node takes the values of the child its mover values most, until a node
/// keeps the values it had (its ancestors then keep theirs too).
fn back_up_minimax<S>(tree: &mut [Node<S>], path: &[(u32, Box<[u16]>)]) {
    for (id, _) in path.iter().rev() {
        let node = &tree[*id as usize];
        let Some(r) = node.mover else { return };
        let children = (node.child_of.iter().copied())
            .filter(|&c| c != NONE)
            .map(|c| &*tree[c as usize].implicit);
        let Some(best) = most_valued(children, r) else {
            return;
        };
        if *best == *node.implicit {
            return;
        }
        let best = best.to_vec();
        tree[*id as usize].implicit = best;
    }
}

/// Of children's implicit minimax values (empty: none yet), the one
/// role `r`, the mover, values most: what the parent's value becomes.
pub(super) fn most_valued<'a>(
    children: impl Iterator<Item = &'a [f64]>,
    r: usize,
) -> Option<&'a [f64]> {
    children
        .filter(|v| !v.is_empty())
        .max_by(|a, b| a[r].total_cmp(&b[r]))
}

fn mean(a: Arm) -> f64 {
    if a.visits == 0 {
        0.0
    } else {
        a.total / a.visits as f64
    }
}

/// How selection mixes other values into a move's mean: RAVE's
/// equivalence constant and the weight of the implicit minimax value.
#[derive(Clone, Copy)]
struct Mix {
    rave: f64,
    minimax: f64,
}

/// UCB1 on one role's arms, each mean mixed with its AMAF mean when
/// `amaf` is given (RAVE with equivalence constant `mix.rave`) and then
/// with its child's minimax value when `implicit` has one (not NaN);
/// untried arms without AMAF statistics first (a random one of them).
fn select(
    arms: &[Arm],
    amaf: &[Arm],
    implicit: &[f64],
    visits: u32,
    c: f64,
    mix: Mix,
    rng: &mut fastrand::Rng,
) -> u16 {
    let k = mix.rave;
    if arms.len() == 1 {
        return 0;
    }
    let unknown = |i: usize| arms[i].visits == 0 && amaf.get(i).is_none_or(|a| a.visits == 0);
    let untried = (0..arms.len()).filter(|&i| unknown(i)).count();
    if untried > 0 {
        let pick = crate::reasoner::random_index(rng, untried);
        return (0..arms.len())
            .filter(|&i| unknown(i))
            .nth(pick)
            .unwrap_or(0) as u16;
    }
    let ln = (visits.max(1) as f64).ln();
    let mut best = (0u16, f64::NEG_INFINITY);
    for (i, &a) in arms.iter().enumerate() {
        let n = a.visits as f64;
        let value = match amaf.get(i) {
            Some(&r) if r.visits > 0 => rave_mix(mean(a), mean(r), n, k),
            _ => mean(a),
        };
        let value = match implicit.get(i) {
            Some(&v) if !v.is_nan() => (1.0 - mix.minimax) * value + mix.minimax * v,
            _ => value,
        };
        let u = value + c * (ln / n.max(1.0)).sqrt();
        if u > best.1 {
            best = (i as u16, u);
        }
    }
    best.0
}

/// RAVE's mix of a move's mean after `n` visits with its all-moves-as-first
/// mean, equivalence constant `k`: weight `sqrt(k / (3n + k))` on the
/// latter.
pub(super) fn rave_mix(mean: f64, amaf: f64, n: f64, k: f64) -> f64 {
    let beta = (k / (3.0 * n + k)).sqrt();
    (1.0 - beta) * mean + beta * amaf
}

impl<M: StateMachine> Player<M> for Mcts {
    fn name(&self) -> String {
        let eval = match &self.cfg.eval {
            Some(e) => format!(
                ", eval R² {:.2}, cutoff {}, prior {}",
                e.fit, self.cfg.cutoff, self.cfg.prior
            ),
            None => String::new(),
        };
        let eval = if self.cfg.greedy {
            format!(", greedy{eval}")
        } else {
            eval
        };
        let eval = match self.cfg.rave {
            0 => eval,
            k => format!(", rave {k}{eval}"),
        };
        let eval = if self.cfg.transpositions {
            format!(", transpositions{eval}")
        } else {
            eval
        };
        let eval = if self.cfg.minimax > 0.0 {
            format!(", minimax {}{eval}", self.cfg.minimax)
        } else {
            eval
        };
        let eval = if self.cfg.tactics {
            format!(", tactics{eval}")
        } else {
            eval
        };
        match (self.cfg.budget.ms, self.cfg.budget.nodes) {
            (Some(ms), _) => format!("mcts({ms} ms{eval})"),
            (None, Some(n)) => format!("mcts({n} playouts{eval})"),
            _ if eval.is_empty() => "mcts".into(),
            _ => format!("mcts({})", &eval[2..]),
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
    fn set_time_ms(&mut self, ms: f64) {
        self.cfg.budget.ms = Some(ms);
    }
    fn last_stats(&self) -> Stats {
        self.stats.clone()
    }
}

/// The project's tic-tac-toe, for the tests below.
#[cfg(test)]
const TIC_TAC_TOE: &str = include_str!("../../../../games/ticTacToe.kif");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{load_engine, EngineChoice};

    #[test]
    fn amaf_credits_every_move_made_later_by_its_role() {
        for choice in [EngineChoice::Interpreter, EngineChoice::Fast] {
            let mut m = load_engine(TIC_TAC_TOE, choice).expect("the game loads");
            let cfg = Config {
                rave: 100,
                ..Config::default()
            };
            let mut mcts = Mcts::new(cfg, 1);
            let s0 = m.initial_state().unwrap();
            let mut tree = vec![mcts.make_node(&mut m, s0).unwrap()];
            let (x_moves, o_moves) = (tree[0].legal[0].len(), tree[0].legal[1].len());
            assert_eq!((x_moves, o_moves), (9, 1), "{choice:?}");
            // x makes its first move in the tree; the playout then has o
            // answer and x make its fifth.
            let (first, fifth) = (tree[0].legal[0][0], tree[0].legal[0][4]);
            let noop = tree[0].legal[1][0];
            let s1 = m.next_state(&tree[0].state, &[first, noop]).unwrap();
            let o_reply = m.legal_moves(&s1, 1).unwrap()[0];
            let o_slot = m.move_slot(&mut mcts.trail, 1, o_reply);
            let later = m.move_slot(&mut mcts.trail, 0, fifth);
            mcts.trail.record(o_slot, 1);
            mcts.trail.record(later, 0);
            let pick: Box<[u16]> = Box::new([0, 0]);
            mcts.back_up_amaf(&mut tree, &[(0, pick)], &[1.0, 0.0]);
            let amaf = &tree[0].amaf;
            let visits: Vec<u32> = amaf[0].iter().map(|a| a.visits).collect();
            assert_eq!(visits, [1, 0, 0, 0, 1, 0, 0, 0, 0], "{choice:?}");
            assert_eq!((amaf[0][0].total, amaf[0][4].total), (1.0, 1.0));
            // o's noop at the root: credited with o's reward.
            assert_eq!((amaf[1][0].visits, amaf[1][0].total), (1, 0.0));
            assert_eq!(mcts.trail.trail_len(), 0, "the trail is used up");
        }
    }
}

#[cfg(test)]
mod transposition_tests {
    use super::*;
    use crate::engine::{load_engine, EngineChoice};

    fn config(transpositions: bool, playouts: u64) -> Config {
        Config {
            budget: Budget::nodes(playouts),
            transpositions,
            ..Config::default()
        }
    }

    #[test]
    fn a_state_reached_by_two_paths_is_one_node() {
        // ticTacToe: x at 1 then 2 and x at 2 then 1 (o elsewhere) meet.
        for choice in [EngineChoice::Interpreter, EngineChoice::Fast] {
            let mut m = load_engine(TIC_TAC_TOE, choice).expect("the game loads");
            let s0 = m.initial_state().unwrap();
            let nodes = |t: bool, m: &mut crate::engine::Engine| {
                let (rs, stats) = Mcts::new(config(t, 3000), 1)
                    .search_root(m, &s0, 0)
                    .unwrap();
                assert_eq!(
                    rs.visits.iter().sum::<u64>(),
                    3000,
                    "every playout through the root"
                );
                stats.nodes
            };
            let (tree, graph) = (nodes(false, &mut m), nodes(true, &mut m));
            // One node per iteration in a tree; shared nodes in the graph.
            assert!(tree <= 3001, "{tree} nodes");
            assert!(graph < tree * 9 / 10, "{graph} nodes against {tree}");
        }
    }

    #[test]
    fn a_cycle_ends_the_walk_and_the_winning_path_is_found() {
        // From a the player may go to b and back (a cycle) or lose; only
        // from b can it win.
        let text = "(role p) (init (at a))
            (<= (legal p (go b)) (true (at a))) (<= (legal p (go lose)) (true (at a)))
            (<= (legal p (go a)) (true (at b))) (<= (legal p (go win)) (true (at b)))
            (<= (next (at ?x)) (does p (go ?x)))
            (<= terminal (true (at win))) (<= terminal (true (at lose)))
            (<= (goal p 100) (true (at win))) (<= (goal p 0) (not (true (at win))))";
        let mut m = load_engine(text, EngineChoice::Interpreter).expect("the game loads");
        let s0 = m.initial_state().unwrap();
        let mut p = Mcts::new(config(true, 500), 1);
        let r = p.search(&mut m, &s0, 0).unwrap();
        assert_eq!(
            m.terms().display(r.best_move.unwrap()).to_string(),
            "(go b)"
        );
        assert_eq!(r.stats.playouts, 500);
        // a, b and the two ends: four states, four nodes.
        assert!(r.stats.nodes <= 4, "{} nodes", r.stats.nodes);
    }
}

#[cfg(test)]
pub(crate) mod minimax_tests {
    use super::*;
    use crate::engine::{load_engine, Engine, EngineChoice};
    use crate::search::learned::Policy;

    /// Every role's value of `s` under the rule implicit minimax backs up:
    /// the mover takes the child it values most (goal values at the end).
    pub(crate) fn exact(m: &mut Engine, s: &<Engine as StateMachine>::State) -> Vec<f64> {
        if m.is_terminal(s).unwrap() {
            return rewards(m, s).unwrap();
        }
        let legal = m.all_legal_moves(s).unwrap();
        let mover = (0..legal.len()).find(|&r| legal[r].len() > 1).unwrap_or(0);
        let mut best: Option<Vec<f64>> = None;
        for &mv in &legal[mover] {
            let joint: Vec<TermId> = (0..legal.len())
                .map(|r| if r == mover { mv } else { legal[r][0] })
                .collect();
            let child = m.next_state(s, &joint).unwrap();
            let v = exact(m, &child);
            if best.as_ref().is_none_or(|b| v[mover] > b[mover]) {
                best = Some(v);
            }
        }
        best.unwrap()
    }

    /// Tic-tac-toe on `choice`, an evaluation learnt from its playouts,
    /// and the state after `marks` marks (each role's first legal move).
    pub(crate) fn tic_tac_toe_after(
        choice: EngineChoice,
        marks: usize,
    ) -> (Engine, LearnedEval, <Engine as StateMachine>::State) {
        let mut m = load_engine(TIC_TAC_TOE, choice).expect("the game loads");
        let eval = LearnedEval::learn(&mut m, &mut Policy::new(1, false), 60_000.0, 400)
            .unwrap()
            .expect("ticTacToe gives an evaluation");
        let mut s = m.initial_state().unwrap();
        for _ in 0..marks {
            let joint: Vec<TermId> = (m.all_legal_moves(&s).unwrap().iter())
                .map(|l| l[0])
                .collect();
            s = m.next_state(&s, &joint).unwrap();
        }
        (m, eval, s)
    }

    #[test]
    fn a_fully_grown_tree_holds_the_exact_minimax_values() {
        for choice in [EngineChoice::Interpreter, EngineChoice::Fast] {
            // Five marks made, four cells empty: a tree of at most 65 nodes.
            let (mut m, eval, s) = tic_tac_toe_after(choice, 5);
            assert!(!m.is_terminal(&s).unwrap(), "{choice:?}");
            let cfg = Config {
                budget: Budget::nodes(3000),
                eval: Some(Arc::new(eval)),
                cutoff: 0,
                minimax: 0.5,
                ..Config::default()
            };
            let (tree, _) = Mcts::new(cfg, 1).grow(&mut m, &s).unwrap();
            assert!(tree.len() > 20, "{choice:?}: {} nodes", tree.len());
            assert_eq!(tree[0].implicit, exact(&mut m, &s), "{choice:?}");
            // Every node all of whose moves are made holds its best child's
            // values.
            let mut complete = 0;
            for node in &tree {
                let (Some(r), false) = (node.mover, node.child_of.contains(&NONE)) else {
                    continue;
                };
                let best = (node.child_of.iter())
                    .map(|&c| &tree[c as usize].implicit)
                    .max_by(|a, b| a[r].total_cmp(&b[r]))
                    .unwrap();
                assert_eq!(best[r], node.implicit[r], "{choice:?}");
                complete += 1;
            }
            assert!(complete >= 10, "{choice:?}: {complete} complete nodes");
        }
    }
}
