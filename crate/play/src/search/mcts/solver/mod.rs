//! MCTS-Solver with the tree kept between moves (`mcts:solver=on`).
//!
//! The statistics are plain MCTS's (per node and role, each
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
//!   move is open. A proof keeps its plies to the end: of proven moves the
//!   quickest win is played, and the slowest loss (a race of independent
//!   boards is decided by the board that ends first).
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
//!   in their means as `SEED_WEIGHT` visits. A move that gains a latched
//!   piece ([`super::latches`]: one no playout removed, that favours its
//!   owner, as reversi's corners) is seeded as a win for the mover instead
//!   (after Sancho's majority heuristic), one that lets another role gain
//!   more as a loss, and random playouts take the moves that always gain
//!   one wherever they are legal.
//! - **The tactical check** (`tactics=on`; in `mcts-solver` `auto`, on
//!   where the material is counted): forced
//!   wins and losses at the root proven by [`super::tactics`] on a thread
//!   beside the walkers (that thread walks too once the check has
//!   ended, and in the move's last part searches again the move the tree
//!   then ranks first), marked in the root's view as proven values.
//!
//! The move played is our role's most visited root move (ties: higher
//! mean), after the proven values above.

mod auto;
mod exchange;
mod proof;
#[cfg(test)]
mod proof_tests;
#[cfg(test)]
pub(crate) mod tests;
mod tree;
mod walker;

use crate::clock::now_ms;
use crate::reasoner::{only_mover, rewards, EvalError, StateMachine};
use crate::search::mcts::learned::LearnedEval;
use crate::search::mcts::root::{choose, ranked, RootStats};
use crate::search::mcts::tactics::{self, Proofs};
use crate::search::parallel::{has_threads, run_all, worker_seed, Job};
use crate::search::{searched_move, since, Budget, Limit, Player, SearchResult, Stats};
use crate::terms::TermId;
pub use auto::{auto_exploration, auto_greedy, Lengths};
use rustc_hash::FxHashSet;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use tree::*;
use walker::*;

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
    /// Grow the tree, kept between moves, on the opponents' time (a
    /// player server). Off, for measuring on one machine: there pondering takes
    /// the opponent's cores.
    pub ponder: bool,
    /// Greedy playouts: decisive and anti-decisive moves
    /// ([`crate::reasoner::greedy`]).
    pub greedy: bool,
    /// The pieces counted for the material shift (two roles).
    pub material: Option<Arc<LearnedEval>>,
    /// Prove forced wins and losses at the root
    /// ([`super::tactics`]): on a thread of its own beside the walkers,
    /// or in [`TACTICS_SHARE`] of the time on one thread.
    pub tactics: bool,
    /// A move into a proven loss for its mover is not counted above its
    /// node while the mover has another move open, and a new node whose
    /// first playout won at once for its mover is checked at once
    /// (`choke=off`: counted, and checked on the second visit).
    pub choke: bool,
    /// One node per state: a move into a state the tree holds links to
    /// its node, so a proof or a statistic found by one move order serves
    /// every other.
    pub transpositions: bool,
    /// MCTS-Solver's proven values and decisive-move checks; off, the
    /// tree is plain UCT (`mcts`): a terminal node's goals are its
    /// rewards, and the statistics alone choose the move.
    pub proofs: bool,
    /// Moves that raise their mover's goal before the end
    /// ([`super::progress`]): playouts without greedy steps take them
    /// where legal.
    pub progress: Vec<(usize, TermId)>,
}

/// The share of a move's time the tactical check takes where it cannot
/// run beside the tree search (one thread).
pub const TACTICS_SHARE: f64 = 0.3;

/// The tactical check's budget with a playout budget (no clock).
pub const TACTICS_NODES: u64 = 200_000;

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
            ponder: true,
            greedy: false,
            material: None,
            tactics: false,
            choke: true,
            transpositions: false,
            proofs: true,
            progress: Vec::new(),
        }
    }
}

impl Config {
    /// Plain MCTS (`mcts`): the same tree without proofs, choke, material,
    /// tactics, transpositions or pondering.
    pub fn plain() -> Config {
        Config {
            ponder: false,
            choke: false,
            proofs: false,
            ..Config::default()
        }
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
        None => (*budget, Budget::nodes(TACTICS_NODES)),
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
                .map(|i| Walker::new(worker_seed(seed, i)))
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
        let beside = tactics && self.walkers.len() >= 2 && has_threads();
        let (walk_budget, check_budget) = split_budget(&cfg.budget, tactics && !beside);
        let walkers = self.walkers.len() - usize::from(beside);
        // Every thread's clock starts now, before the tree is rerooted
        // (without threads they run one after the other, within that time).
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
        let solved = |i: usize| view.proven.get(i).is_some_and(Option::is_some);
        let (best_move, value, solved) = match choose(&view) {
            Some((i, v)) => (Some(view.moves[i]), v * 100.0, solved(i)),
            // Nothing to choose from: plain MCTS gives the state's goal.
            None => {
                let goal = match self.tree.cfg.proofs {
                    true => 0.0,
                    false => rewards(m, root)?.get(role).copied().unwrap_or(0.0) * 100.0,
                };
                (m.legal_moves(root, role)?.first().copied(), goal, false)
            }
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

/// The name of plain MCTS: `mcts`, with its budget and greedy playouts.
fn plain_name(cfg: &Config, threads: usize) -> String {
    let mut tags: Vec<String> = cfg.budget.limits("playouts").into_iter().take(1).collect();
    if cfg.greedy {
        tags.push("greedy".into());
    }
    let base = if tags.is_empty() {
        "mcts".into()
    } else {
        format!("mcts({})", tags.join(", "))
    };
    match threads {
        1 => base,
        n => crate::search::parallel::threaded_name(&base, n),
    }
}

impl<M> Player<M> for SolverMcts<M::State>
where
    M: StateMachine + Clone + Send,
    M::State: Send + Sync + 'static,
{
    fn name(&self) -> String {
        let cfg = &self.tree.cfg;
        if !cfg.proofs {
            return plain_name(cfg, self.walkers.len());
        }
        let mut tags = vec!["solver".to_string()];
        if cfg.exploration != Config::default().exploration {
            tags.push(format!("c={:.2}", cfg.exploration));
        }
        let options = [
            (cfg.material.is_some(), "material"),
            (learnt(cfg).is_some_and(|e| e.latches.is_some()), "latches"),
            (!cfg.progress.is_empty(), "progress"),
            (cfg.greedy, "greedy"),
            (cfg.tactics, "tactics"),
            (cfg.transpositions, "transpositions"),
        ];
        tags.extend(options.iter().filter(|o| o.0).map(|o| o.1.to_string()));
        if !cfg.choke {
            tags.push("no choke".into());
        }
        tags.extend(cfg.budget.limits("playouts").into_iter().take(1));
        let base = format!("mcts({})", tags.join(", "));
        match self.walkers.len() {
            1 => base,
            n => crate::search::parallel::threaded_name(&base, n),
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
        self.tree.cfg.ponder
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
