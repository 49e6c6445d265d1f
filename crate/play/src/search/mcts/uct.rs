//! Monte-Carlo tree search with UCT and random playouts (`mcts`).
//!
//! Each tree node keeps, for **every role**, statistics of that role's own
//! moves (visits, summed reward of that role): selection picks one move per
//! role by UCB1 on its own statistics (decoupled UCT), which handles
//! turn-taking (the other roles have one move), simultaneous moves and any
//! number of roles alike. Children are keyed by the joint move. One
//! iteration: select down to a node with an untried joint move, expand it,
//! play random (or greedy: `greedy=on`) moves to the end, and add each
//! role's goal value / 100 to the statistics along the path. The move
//! played is our role's most visited move at the root (ties: higher mean).
//! The tree is rebuilt for every move; on several threads each grows its
//! own and the roots are merged ([`super::parallel`]). MCTS-Solver,
//! with proofs and a tree kept between moves, is [`super::solver`].

pub use super::root::{choose, mean_of, merge_roots, ranked, RootStats};
use crate::clock::now_ms;
use crate::reasoner::greedy::Enders;
use crate::reasoner::{rewards, EvalError, StateMachine};
use crate::search::{searched_move, since, Budget, Limit, Player, SearchResult, Stats};
use crate::terms::TermId;
use rustc_hash::FxHashMap;

#[derive(Clone, Debug)]
pub struct Config {
    pub budget: Budget,
    /// UCB1 exploration constant (rewards are in [0, 1]).
    pub exploration: f64,
    /// Tree nodes before the tree stops growing (playouts continue).
    pub max_nodes: usize,
    /// Step cap of one playout.
    pub playout_steps: usize,
    /// Greedy playouts: decisive and anti-decisive moves
    /// (`reasoner/greedy.rs`).
    pub greedy: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            budget: Budget::default(),
            exploration: 0.7,
            max_nodes: 500_000,
            playout_steps: 1000,
            greedy: false,
        }
    }
}

#[derive(Clone, Copy, Default)]
struct Arm {
    visits: u32,
    total: f64,
}

impl Arm {
    fn mean(self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.total / self.visits as f64
        }
    }
}

struct Node<S> {
    state: S,
    terminal: bool,
    /// Goal values / 100 of a terminal node.
    rewards: Vec<f64>,
    legal: Vec<Vec<TermId>>,
    /// Per role, per legal move.
    arms: Vec<Vec<Arm>>,
    visits: u32,
    children: FxHashMap<Box<[u16]>, u32>,
}

/// The nodes of a search, the root first; children by index.
type Tree<S> = Vec<Node<S>>;

/// The MCTS player.
pub struct Mcts {
    pub cfg: Config,
    rng: fastrand::Rng,
    stats: Stats,
    /// The moves seen to end games (greedy playouts), kept for the game.
    enders: Enders,
}

impl Mcts {
    pub fn new(cfg: Config, seed: u64) -> Mcts {
        Mcts {
            cfg,
            rng: fastrand::Rng::with_seed(seed),
            stats: Stats::default(),
            enders: Enders::default(),
        }
    }

    fn make_node<M: StateMachine>(m: &mut M, state: M::State) -> Result<Node<M::State>, EvalError> {
        let n = m.roles().len();
        let terminal = m.is_terminal(&state)?;
        let legal = if terminal {
            vec![Vec::new(); n]
        } else {
            m.all_legal_moves(&state)?
        };
        // Nobody can move: treat as the end of the game.
        let ended = terminal || legal.iter().any(Vec::is_empty);
        let rewards = if ended {
            rewards(m, &state)?
        } else {
            Vec::new()
        };
        let arms = match ended {
            true => Vec::new(),
            false => (legal.iter())
                .map(|l| vec![Arm::default(); l.len()])
                .collect(),
        };
        Ok(Node {
            state,
            terminal: ended,
            rewards,
            legal,
            arms,
            visits: 0,
            children: FxHashMap::default(),
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
        decide(m, root, role, &rs, stats)
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
        let mut limit = Limit::new(&self.cfg.budget);
        let mut stats = Stats {
            nodes: 1,
            ..Stats::default()
        };
        let mut tree = vec![Self::make_node(m, root.clone())?];
        let mut path: Vec<(u32, Box<[u16]>)> = Vec::new();
        loop {
            // Playouts are expensive: read the clock every time.
            if stats.playouts > 0 && limit.exhausted() {
                break;
            }
            limit.tick();
            if tree[0].terminal {
                break;
            }
            path.clear();
            let (end, rewards) = self.iterate(m, &mut tree, &mut path, &mut stats)?;
            stats.playouts += 1;
            stats.depth = stats.depth.max(path.len() as u32);
            back_up(&mut tree, &path, end, &rewards);
        }
        Ok((tree, stats))
    }

    /// One iteration: selection down the tree, the expansion of one node
    /// (while the tree may grow) and a playout. The node the walk ended
    /// on and the rewards.
    fn iterate<M: StateMachine>(
        &mut self,
        m: &mut M,
        tree: &mut Tree<M::State>,
        path: &mut Vec<(u32, Box<[u16]>)>,
        stats: &mut Stats,
    ) -> Result<(u32, Vec<f64>), EvalError> {
        let mut cur = 0u32;
        loop {
            let node = &tree[cur as usize];
            if node.terminal {
                return Ok((cur, node.rewards.clone()));
            }
            let pick: Box<[u16]> = (node.arms.iter())
                .map(|arms| select(arms, node.visits, self.cfg.exploration, &mut self.rng))
                .collect();
            path.push((cur, pick.clone()));
            if let Some(&c) = node.children.get(&pick) {
                cur = c;
                continue;
            }
            let joint: Vec<TermId> = (pick.iter().enumerate())
                .map(|(r, &i)| node.legal[r][i as usize])
                .collect();
            let child_state = m.next_state(&node.state.clone(), &joint)?;
            // A playout from here once the tree is full.
            if tree.len() >= self.cfg.max_nodes {
                return Ok((cur, self.playout(m, &child_state)?));
            }
            let id = tree.len() as u32;
            tree.push(Self::make_node(m, child_state)?);
            stats.nodes += 1;
            tree[cur as usize].children.insert(pick, id);
            let child = &tree[id as usize];
            if child.terminal {
                return Ok((id, child.rewards.clone()));
            }
            let state = child.state.clone();
            return Ok((id, self.playout(m, &state)?));
        }
    }

    /// The rewards of a random (or greedy) playout from `start`.
    fn playout<M: StateMachine>(
        &mut self,
        m: &mut M,
        start: &M::State,
    ) -> Result<Vec<f64>, EvalError> {
        let steps = self.cfg.playout_steps;
        let p = match self.cfg.greedy {
            true => m.greedy_playout(start, &mut self.rng, steps, &mut self.enders)?,
            false => m.random_playout(start, &mut self.rng, steps)?,
        };
        match p.terminal {
            true => rewards(m, &p.state),
            false => Ok(vec![0.0; m.roles().len()]),
        }
    }
}

/// Adds an iteration's rewards: to the node the walk ended on, if it is
/// not on the path, then along the path.
fn back_up<S>(tree: &mut [Node<S>], path: &[(u32, Box<[u16]>)], end: u32, rewards: &[f64]) {
    if path.last().is_none_or(|(last, _)| *last != end) {
        tree[end as usize].visits += 1;
    }
    for (id, pick) in path {
        let node = &mut tree[*id as usize];
        node.visits += 1;
        for (r, &i) in pick.iter().enumerate() {
            let arm = &mut node.arms[r][i as usize];
            arm.visits += 1;
            arm.total += rewards.get(r).copied().unwrap_or(0.0);
        }
    }
}

/// The search's result from the root's statistics: the move [`choose`]
/// picks, with its mean as the value (no moves: the first legal one, if
/// any, and the role's goal).
pub fn decide<M: StateMachine>(
    m: &mut M,
    root: &M::State,
    role: usize,
    rs: &RootStats,
    stats: Stats,
) -> Result<SearchResult, EvalError> {
    let mut result = SearchResult {
        iterations: Vec::new(),
        value: 0.0,
        best_move: None,
        solved: false,
        stats,
    };
    match choose(rs) {
        Some((i, v)) => (result.best_move, result.value) = (Some(rs.moves[i]), v * 100.0),
        None => {
            result.best_move = m.legal_moves(root, role)?.first().copied();
            result.value = rewards(m, root)?.get(role).copied().unwrap_or(0.0) * 100.0;
        }
    }
    Ok(result)
}

/// UCB1 on one role's arms; untried arms first (a random one of them).
fn select(arms: &[Arm], visits: u32, c: f64, rng: &mut fastrand::Rng) -> u16 {
    if arms.len() == 1 {
        return 0;
    }
    let untried = arms.iter().filter(|a| a.visits == 0).count();
    if untried > 0 {
        let pick = crate::reasoner::random_index(rng, untried);
        return (0..arms.len())
            .filter(|&i| arms[i].visits == 0)
            .nth(pick)
            .unwrap_or(0) as u16;
    }
    let ln = (visits.max(1) as f64).ln();
    let mut best = (0u16, f64::NEG_INFINITY);
    for (i, &a) in arms.iter().enumerate() {
        let u = a.mean() + c * (ln / (a.visits as f64).max(1.0)).sqrt();
        if u > best.1 {
            best = (i as u16, u);
        }
    }
    best.0
}

impl<M: StateMachine> Player<M> for Mcts {
    fn name(&self) -> String {
        let greedy = if self.cfg.greedy { ", greedy" } else { "" };
        match (self.cfg.budget.ms, self.cfg.budget.nodes) {
            (Some(ms), _) => format!("mcts({ms} ms{greedy})"),
            (None, Some(n)) => format!("mcts({n} playouts{greedy})"),
            _ if greedy.is_empty() => "mcts".into(),
            _ => "mcts(greedy)".into(),
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
