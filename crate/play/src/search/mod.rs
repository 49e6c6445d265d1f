//! Search: players that work on any game through the [`StateMachine`] API
//! (n roles, simultaneous moves, goals 0..100).
//!
//! | player | file | needs a heuristic |
//! |---|---|---|
//! | `random`, `legal` | here | no |
//! | `minimax` (reference, depth-limited, iterative deepening) | `minimax.rs` | at the depth limit |
//! | `alphabeta` (iterative deepening, transposition table, PV-first ordering) | `alphabeta/` | at the depth limit |
//! | `bestfirst` (one-player games, thesis 3.2.1) | `bestfirst.rs` | yes |
//! | `mcts` (UCT with per-role joint-move statistics) | `mcts.rs` | no |
//! | `mcts:solver=on` (MCTS-Solver, tree kept between moves) | `mcts_solver.rs` | no |
//! | `ensemble` (one alpha-beta per evaluation function plus an exhaustive one, lecture 004) | `ensemble.rs` | one each |
//!
//! Heuristics (`heuristics.rs`, `fuzzy/`) map non-terminal states to
//! `[1, 99]`, so a real win (100) is better and a real loss (0) worse than
//! any estimate; terminal states always score their real goal values.
//!
//! **Game-tree semantics** (minimax and alpha-beta): values are goal values
//! of the searching role ("our role"). In a state where only our role has a
//! choice we maximise; where only other roles choose, they minimise our value
//! (*paranoid* assumption); where both choose (simultaneous moves) we pick
//! our move first and the others answer with the joint reply that is worst
//! for us. For two-player zero-sum turn-taking games this is exactly classic
//! minimax. For two-player turn-taking games that are *not* zero-sum, the
//! default is the thesis' adaptation (3.2.3): each mover maximises its own
//! value (`mode=maxn`); paranoid is the default for more than two roles and
//! for simultaneous moves. Zero-sum and turn-taking are detected by random
//! simulation ([`GameInfo::sample`]).
//!
//! Budgets ([`Budget`]): wall-clock milliseconds (natively and in wasm),
//! nodes, and a depth limit. Every player always has a move when its budget
//! ends.

pub mod alphabeta;
pub mod alphabeta_parallel;
pub mod bestfirst;
mod build;
pub mod ensemble;
pub mod explain;
pub(crate) mod explain_board;
pub mod fjo;
pub mod fuzzy;
pub mod heuristics;
pub mod hidden;
pub mod information_sets;
pub mod matches;
pub mod mcts;
pub mod minimax;
pub mod parallel;
pub mod report;
pub mod spec;
pub mod spec_docs;
pub mod subgames;
pub(crate) mod table;

use crate::clock::{now_ms, Deadline};
use crate::reasoner::{EvalError, StateMachine};
use crate::terms::TermId;
use serde::Serialize;

pub use build::{build_player, solver_config};
pub use heuristics::Heuristic;
pub use spec::{
    AlphaBetaSpec, EnsembleSpec, Exploration, MctsSpec, PlayerSpec, SearchSpec, SpecError, Threads,
};

/// Search budget: any limit that is set ends the search.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Budget {
    /// Wall-clock milliseconds.
    pub ms: Option<f64>,
    /// Nodes (states entered; for MCTS, playouts).
    pub nodes: Option<u64>,
    /// Maximum depth in joint moves (plies).
    pub depth: Option<u32>,
}

impl Budget {
    pub fn ms(ms: f64) -> Budget {
        Budget {
            ms: Some(ms),
            ..Budget::default()
        }
    }
    pub fn depth(d: u32) -> Budget {
        Budget {
            depth: Some(d),
            ..Budget::default()
        }
    }
    pub fn nodes(n: u64) -> Budget {
        Budget {
            nodes: Some(n),
            ..Budget::default()
        }
    }
    /// `fraction` of this budget's time and nodes.
    pub fn share(&self, fraction: f64) -> Budget {
        Budget {
            ms: self.ms.map(|ms| ms * fraction),
            nodes: (self.nodes).map(|n| (n as f64 * fraction).ceil() as u64),
            ..*self
        }
    }
    pub fn unlimited(&self) -> bool {
        self.ms.is_none() && self.nodes.is_none()
    }
    /// The limits set, for a player's name: `200 ms`, `1000 nodes` (with
    /// `nodes` the word for what the player counts), `depth 3`.
    pub fn limits(&self, nodes: &str) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(ms) = self.ms {
            out.push(format!("{ms} ms"));
        }
        if let Some(n) = self.nodes {
            out.push(format!("{n} {nodes}"));
        }
        if let Some(d) = self.depth {
            out.push(format!("depth {d}"));
        }
        out
    }
}

/// Hard cap on search depth (recursion stays bounded on any game).
pub const MAX_DEPTH: u32 = 400;

/// Checks a [`Budget`] cheaply: the clock is read every 64 ticks.
#[derive(Clone, Debug)]
pub struct Limit {
    deadline: Deadline,
    max_nodes: u64,
    ticks: u64,
    stopped: bool,
}

impl Limit {
    pub fn new(b: &Budget) -> Limit {
        Limit {
            deadline: b.ms.map(Deadline::after_ms).unwrap_or_else(Deadline::never),
            max_nodes: b.nodes.unwrap_or(u64::MAX),
            ticks: 0,
            stopped: false,
        }
    }
    /// Counts one unit of work; true once the budget is exhausted.
    pub fn tick(&mut self) -> bool {
        self.ticks += 1;
        if self.ticks > self.max_nodes || (self.ticks.is_multiple_of(64) && self.deadline.passed())
        {
            self.stopped = true;
        }
        self.stopped
    }
    /// True once the budget is exhausted (reads the clock).
    pub fn exhausted(&mut self) -> bool {
        if self.ticks >= self.max_nodes || self.deadline.passed() {
            self.stopped = true;
        }
        self.stopped
    }
    pub fn ticks(&self) -> u64 {
        self.ticks
    }
}

/// Why a search stopped early.
#[derive(Debug)]
pub enum Stop {
    Budget,
    Eval(EvalError),
}

impl From<EvalError> for Stop {
    fn from(e: EvalError) -> Stop {
        Stop::Eval(e)
    }
}

/// Counters of one search (`SearchStats` in JS).
#[derive(Clone, Debug, Default, Serialize, serde::Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "SearchStats")
)]
pub struct Stats {
    /// States entered (for MCTS: tree nodes created).
    pub nodes: u64,
    /// Leaves evaluated (terminal or heuristic).
    pub leaves: u64,
    /// Alpha-beta cut-offs.
    pub cutoffs: u64,
    /// Transposition-table hits that ended a node.
    pub tt_hits: u64,
    /// MCTS iterations (simulations): one per descent, whether it ends in
    /// a random playout or on a terminal node already in the tree.
    pub playouts: u64,
    /// Deepest completed iteration (iterative deepening) or tree depth.
    pub depth: u32,
    pub elapsed_ms: f64,
}

impl Stats {
    pub fn add(&mut self, o: &Stats) {
        self.nodes += o.nodes;
        self.leaves += o.leaves;
        self.cutoffs += o.cutoffs;
        self.tt_hits += o.tt_hits;
        self.playouts += o.playouts;
        self.depth = self.depth.max(o.depth);
        self.elapsed_ms += o.elapsed_ms;
    }
}

/// The outcome of one search from one state for one role.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// Value for the searching role on the 0..100 goal scale.
    pub value: f64,
    /// The chosen move of the searching role (`None` only if it has none).
    pub best_move: Option<TermId>,
    /// Whether the value is exact: no heuristic estimate influenced it.
    pub solved: bool,
    /// Totals over every iteration.
    pub stats: Stats,
    /// The counts of each iterative-deepening pass (one entry for a
    /// single full-depth pass; empty for best-first and MCTS).
    pub iterations: Vec<Iteration>,
}

/// The counts of one iterative-deepening pass.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "SearchIteration")
)]
pub struct Iteration {
    /// The depth limit of the pass.
    pub depth: u32,
    /// The pass finished (false: the budget ended it).
    pub complete: bool,
    pub nodes: u64,
    pub leaves: u64,
    pub cutoffs: u64,
    pub tt_hits: u64,
}

impl Iteration {
    pub fn of(depth: u32, complete: bool, s: &Stats) -> Iteration {
        Iteration {
            depth,
            complete,
            nodes: s.nodes,
            leaves: s.leaves,
            cutoffs: s.cutoffs,
            tt_hits: s.tt_hits,
        }
    }
}

/// A player: picks a move for one role in a state.
pub trait Player<M: StateMachine> {
    /// Short name with options, e.g. `alphabeta(fuzzy, 200 ms)`.
    fn name(&self) -> String;
    /// The move for `role`; always a legal move when the role has one.
    fn select_move(
        &mut self,
        m: &mut M,
        state: &M::State,
        role: usize,
    ) -> Result<TermId, EvalError>;
    /// Called before each new game.
    fn new_game(&mut self) {}
    /// GDL-II: after each step, the move played for `role` and what it
    /// perceived. Players that search the state they are given ignore it;
    /// players for hidden information ([`hidden`]) track their belief.
    fn observe(
        &mut self,
        _m: &mut M,
        _role: usize,
        _own: TermId,
        _percepts: &[TermId],
    ) -> Result<(), EvalError> {
        Ok(())
    }
    /// Sets the wall-clock budget of the next searches (a player on a play
    /// clock: the time left of it); players without a time budget ignore it.
    fn set_time_ms(&mut self, _ms: f64) {}
    /// The move the player would make at `state` from what it holds now,
    /// without searching (a server's reply should the search overrun);
    /// none where it holds nothing of `state`.
    fn known_move(&self, _state: &M::State, _role: usize) -> Option<TermId> {
        None
    }
    /// Counters of the last `select_move`.
    fn last_stats(&self) -> Stats {
        Stats::default()
    }
    /// Whether [`Player::ponder`] does anything: the player keeps what it
    /// learns between moves, so thinking on the opponent's time pays.
    fn ponders(&self) -> bool {
        false
    }
    /// Thinks about `state` for about `ms` milliseconds without choosing a
    /// move (a player server calls it while it waits for the next message);
    /// the playouts (or nodes) it added.
    fn ponder(
        &mut self,
        _m: &mut M,
        _state: &M::State,
        _role: usize,
        _ms: f64,
    ) -> Result<u64, EvalError> {
        Ok(0)
    }
}

fn no_move(role: usize) -> EvalError {
    EvalError::BadMove(format!("role number {role} has no legal move"))
}

/// The move a finished search chose for `role`, its counters kept in
/// `stats` (what [`Player::last_stats`] returns): the `select_move` of every
/// player that searches.
pub fn searched_move(
    result: SearchResult,
    stats: &mut Stats,
    role: usize,
) -> Result<TermId, EvalError> {
    *stats = result.stats;
    result.best_move.ok_or_else(|| no_move(role))
}

/// Plays uniformly random legal moves (seeded).
pub struct RandomPlayer {
    rng: fastrand::Rng,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: fastrand::Rng::with_seed(seed),
        }
    }
}

impl<M: StateMachine> Player<M> for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }
    fn select_move(
        &mut self,
        m: &mut M,
        state: &M::State,
        role: usize,
    ) -> Result<TermId, EvalError> {
        let moves = m.legal_moves(state, role)?;
        if moves.is_empty() {
            return Err(no_move(role));
        }
        Ok(moves[crate::reasoner::random_index(&mut self.rng, moves.len())])
    }
}

/// Plays the first legal move (deterministic, for tests).
pub struct LegalPlayer;

impl<M: StateMachine> Player<M> for LegalPlayer {
    fn name(&self) -> String {
        "legal".into()
    }
    fn select_move(
        &mut self,
        m: &mut M,
        state: &M::State,
        role: usize,
    ) -> Result<TermId, EvalError> {
        m.legal_moves(state, role)?
            .first()
            .copied()
            .ok_or_else(|| no_move(role))
    }
}

/// The goal value of `role` in a state (the largest derivable; 0 if none).
pub fn goal_of<M: StateMachine>(m: &mut M, s: &M::State, role: usize) -> Result<f64, EvalError> {
    Ok(m.goals(s)?.get(role).copied().flatten().unwrap_or(0) as f64)
}

/// Who chooses in a state, from the legal moves of every role.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// Nobody has a choice (every role has exactly one move).
    Forced,
    /// Only our role has a choice.
    Ours,
    /// Only other roles have a choice.
    Theirs,
    /// Our role and at least one other choose simultaneously.
    Both,
}

pub fn turn_of(legal: &[Vec<TermId>], role: usize) -> Turn {
    let ours = legal.get(role).map_or(0, Vec::len) > 1;
    let theirs = legal
        .iter()
        .enumerate()
        .any(|(r, ms)| r != role && ms.len() > 1);
    match (ours, theirs) {
        (false, false) => Turn::Forced,
        (true, false) => Turn::Ours,
        (false, true) => Turn::Theirs,
        (true, true) => Turn::Both,
    }
}

/// Whether, of the roles other than ours, only GDL-II's chance role
/// (`chance`) has a choice in a state with these legal moves: it replies
/// uniformly, so minimax and alpha-beta take the mean of the values over
/// its moves (expectimax), after our move if we choose too.
pub fn chance_replies(legal: &[Vec<TermId>], role: usize, chance: Option<usize>) -> bool {
    chance.is_some_and(|c| {
        c != role
            && legal.get(c).is_some_and(|ms| ms.len() > 1)
            && legal
                .iter()
                .enumerate()
                .all(|(r, ms)| r == c || r == role || ms.len() <= 1)
    })
}

/// Whether only the chance role has a choice: a chance node.
pub fn chance_turn(legal: &[Vec<TermId>], role: usize, chance: Option<usize>) -> bool {
    chance_replies(legal, role, chance) && legal.get(role).is_none_or(|ms| ms.len() <= 1)
}

/// The joint moves where our role plays `ours` and the others range over
/// their legal moves (first other role slowest).
pub fn replies(
    legal: &[Vec<TermId>],
    role: usize,
    ours: TermId,
) -> Result<Vec<Vec<TermId>>, EvalError> {
    let mut lists: Vec<Vec<TermId>> = legal.to_vec();
    lists[role] = vec![ours];
    crate::reasoner::joint_moves(&lists)
}

/// Properties of a game found by random simulation.
#[derive(Clone, Debug, PartialEq)]
pub struct GameInfo {
    pub roles: usize,
    /// In every sampled terminal state the goal values summed to the same
    /// total.
    pub zero_sum: bool,
    /// In every sampled state at most one role had more than one legal move.
    pub turn_taking: bool,
    /// Sampled playouts that reached a terminal state.
    pub terminal_samples: usize,
}

impl GameInfo {
    /// Plays `playouts` random games from `root` (at most 300 steps each).
    pub fn sample<M: StateMachine>(
        m: &mut M,
        root: &M::State,
        playouts: usize,
        seed: u64,
    ) -> Result<GameInfo, EvalError> {
        let n = m.roles().len();
        let mut rng = fastrand::Rng::with_seed(seed);
        let (mut zero_sum, mut turn_taking, mut sum, mut terminals) = (true, true, None, 0);
        for _ in 0..playouts {
            let end = crate::reasoner::random_walk(m, root, &mut rng, 300, |_, _, legal, _| {
                if legal.iter().filter(|l| l.len() > 1).count() > 1 {
                    turn_taking = false;
                }
                Ok(true)
            })?;
            if end.terminal {
                let total: i64 = m.goals(&end.state)?.iter().map(|g| g.unwrap_or(0)).sum();
                if *sum.get_or_insert(total) != total {
                    zero_sum = false;
                }
                terminals += 1;
            }
        }
        Ok(GameInfo {
            roles: n,
            zero_sum: zero_sum && terminals > 0,
            turn_taking,
            terminal_samples: terminals,
        })
    }
}

/// One player of the registry [`PLAYERS`] (`players()` in JS).
#[derive(Clone, Copy, Debug, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "PlayerInfo", rename_all = "camelCase")
)]
pub struct PlayerInfo {
    /// The canonical name (`bestfirst`; `best-first` is an alias).
    pub name: &'static str,
    /// The name for people (`best-first`, `alpha-beta`).
    pub label: &'static str,
    pub description: &'static str,
    /// It searches abstract trees with the lecture's trace, so the tree
    /// view can draw its search (minimax and alpha-beta).
    pub draws_tree: bool,
}

const fn player(
    name: &'static str,
    label: &'static str,
    draws_tree: bool,
    description: &'static str,
) -> PlayerInfo {
    PlayerInfo {
        name,
        label,
        description,
        draws_tree,
    }
}

/// The one registry of players and search algorithms (for `--help`, the
/// player specs, the page's play and tree views).
pub const PLAYERS: &[PlayerInfo] = &[
    player("random", "random", false, "uniformly random legal moves"),
    player("legal", "legal", false, "the first legal move (deterministic)"),
    player("minimax", "minimax", true, "depth-limited minimax with iterative deepening (no pruning); options depth, ms, nodes, heuristic"),
    player(
        "alphabeta",
        "alpha-beta",
        true,
        "alpha-beta, iterative deepening, transposition table, PV-first ordering; options depth, ms, nodes, heuristic, mode=auto|paranoid|maxn, threads=N|cores=auto (lazy SMP on N threads sharing one table, budget per thread)",
    ),
    player("bestfirst", "best-first", false, "best-first search for one-player games (thesis 3.2.1); options ms, nodes, heuristic"),
    player("mcts", "MCTS", false, "Monte-Carlo tree search (UCT, per-role statistics, the tree kept between moves); options ms, playouts, c (exploration, default 0.7; with solver=on auto, from the game's length), threads=N|cores=auto (one tree shared by N threads, budget per thread), greedy=on (playouts take a move that wins at once, among the moves seen to end games, and take back a move that lets the opponent win at once; with solver=on also greedy=auto: unless that costs more than 20 successor states a step), solver=on (MCTS-Solver: proven wins and losses, the tree grown on the opponent's time by a player server, unless ponder=off); with solver=on also eval=material|off (the pieces counted: rewards backed up through the end of an exchange of pieces shifted towards the side that gained, after Sancho's piece heuristic), tactics=on|off|auto (forced wins and losses proven on a thread beside the tree, full width then by proof numbers; auto: where the material is counted), choke=on|off|auto (on: a move into a proven loss counts only at its node while another move is open, after Sancho; auto: where the material is counted), transpositions=on|off|auto (one node per state; auto: where no material is counted)"),
    player(
        "mcts-solver",
        "MCTS-Solver",
        false,
        "the default player (the strongest by measurement, BENCHMARKS.md): mcts with solver=on, greedy=auto (greedy playouts unless they cost more than 20 successor states a step or the game ends at a set length), eval=material (counted only where the pieces tell something of the outcome) and tactics=auto (forced wins and losses proven on a thread beside the tree, full width then by proof numbers, where the material is counted, unless the game ends at a set length), moves into proven losses choked off where the material is counted (choke=auto), and one node per state where no material is counted (transpositions=auto); takes the options of mcts with solver=on, e.g. greedy=off, eval=off, tactics=on|off, c, threads|cores",
    ),
    player(
        "coolerjo",
        "CoolerJO",
        false,
        "the thesis's player: f_JO (relaxed plans) with best-first for one role, alpha-beta for more; options depth, ms, nodes",
    ),
    player(
        "ensemble",
        "ensemble",
        false,
        "several alpha-beta searches, one per evaluation function plus an exhaustive one; follows a proven result, else the deepest (lecture 004); options workers, ms, heuristics=a+b+...",
    ),
    player(
        "hyperplay",
        "HyperPlay",
        false,
        "GDL-II (hidden information): keeps the states consistent with its own moves and percepts (every one while at most 2000, else 200 sampled), and searches them with MCTS, the move with the largest weighted share of the visits played; the default player of GDL-II games in serve; options ms, playouts, c, samples",
    ),
];

/// The player `serve`, npm's `Player` and workers and the page use unless
/// told otherwise.
pub const DEFAULT_PLAYER: &str = "mcts-solver";

/// The player `serve` uses instead of [`DEFAULT_PLAYER`] in GDL-II games
/// (a `random` role or `sees`), where the state is hidden.
pub const GDL2_PLAYER: &str = "hyperplay";

/// The canonical name of a player or search algorithm, from the one
/// registry [`PLAYERS`]: case is ignored and the usual spellings
/// (`best-first`, `alpha-beta`, `uct`) are aliases.
pub fn player_name(text: &str) -> Result<&'static str, SpecError> {
    let name = text.trim().to_ascii_lowercase();
    let name = match name.as_str() {
        "best-first" | "best_first" => "bestfirst",
        "alpha-beta" | "alpha_beta" => "alphabeta",
        "uct" => "mcts",
        other => other,
    };
    PLAYERS
        .iter()
        .map(|p| p.name)
        .find(|n| *n == name)
        .ok_or_else(|| {
            let names: Vec<&str> = PLAYERS.iter().map(|p| p.name).collect();
            SpecError::UnknownPlayer {
                name: name.to_string(),
                players: names.join(", "),
            }
        })
}

/// Default milliseconds per move for players with a time budget.
pub const DEFAULT_MS: f64 = 1000.0;

/// Maps `x` in `[0, 1]` to `[1, 99]`, the range of every heuristic, so a
/// real win (100) beats and a real loss (0) is worse than any estimate.
pub fn scale(x: f64) -> f64 {
    1.0 + 98.0 * x.clamp(0.0, 1.0)
}

/// Milliseconds since `t0` (from [`now_ms`]).
pub(crate) fn since(t0: f64) -> f64 {
    now_ms() - t0
}
