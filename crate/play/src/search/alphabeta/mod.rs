//! Alpha-beta search (thesis 3.2.3) with iterative deepening, a
//! transposition table and principal-variation-first move ordering.
//!
//! - **Iterative deepening**: depth 1, 2, ... until the budget ends or the
//!   root is *solved* (no heuristic estimate influenced its value); the move
//!   of the last completed iteration is played, so there is always a best
//!   move so far. An iteration cut short by the budget is discarded, except
//!   that the first one still yields the best root move found before the
//!   budget ended.
//! - **Transposition table**: keyed by the state's content key
//!   ([`StateMachine::state_key`]: the same in every copy of the game, so
//!   the threads of parallel alpha-beta, each on its own copy, can share
//!   one table), storing value, bound kind (exact, lower, upper), remaining
//!   depth, whether the value is exact game-theoretically (*solved*) and the
//!   best joint move (as content keys of the moves). An entry answers
//!   a node when its depth equals the node's remaining depth, or when it is
//!   solved (then at any depth: a solved value is the true game value, which
//!   can only be better informed than a depth-limited estimate). The table
//!   persists across the moves of a game while the role and heuristic allow
//!   (state-only heuristics), so a small game is solved once and then
//!   answered from the table.
//! - **Move ordering**: the table's best move of a state (from the previous
//!   iteration, or the previous move's search) is tried first, so the
//!   principal variation is searched first; the others keep the game's order.
//!
//! The table and ordering change node counts, not values (property-tested
//! against [`super::minimax`]), except that solved entries may replace a
//! depth-limited estimate by the true value in games where the same state
//! can be reached at different depths.
//!
//! Semantics: see [`super`] (paranoid by default; `Mode::MaxN` is the
//! thesis' "each mover maximises its own value", used by default for
//! two-player turn-taking games that are not zero-sum; it prunes nothing and
//! is not traced).

mod maxn;
mod node;
mod table;

use super::table::SharedTable;
use super::{
    searched_move, since, Budget, GameInfo, Heuristic, Iteration, Limit, Player, SearchResult,
    Stats, Stop, MAX_DEPTH,
};
use crate::clock::now_ms;
use crate::evaluation::BoxedHeuristic;
use crate::ordering::Order;
use crate::reasoner::content_keys::Key;
use crate::reasoner::{EvalError, StateMachine};
use crate::terms::TermId;
use crate::trace::{Event, Trace};
use node::Cx;
use rustc_hash::FxHashMap;
use std::marker::PhantomData;
use std::sync::Arc;
pub use table::Entry;
use table::Table;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// MaxN for two-player turn-taking games that are not zero-sum,
    /// paranoid otherwise.
    Auto,
    Paranoid,
    MaxN,
}

#[derive(Clone, Debug)]
pub struct Config {
    pub budget: Budget,
    pub tt: bool,
    pub ordering: bool,
    pub mode: Mode,
    /// Iterative deepening; without it one search to `budget.depth`.
    pub iterative: bool,
    /// Entries before the table is cleared.
    pub tt_capacity: usize,
    /// The order of each node's moves before PV-first ordering (teaching:
    /// `given` by default).
    pub order: Order,
    /// 0: the main search; `i > 0`: helper `i` of parallel alpha-beta
    /// (lazy SMP, [`super::alphabeta_parallel`]): it starts one depth
    /// deeper when `i` is odd and tries the root moves rotated by `i`, so
    /// the helpers search different parts of the tree first.
    pub helper: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            budget: Budget::default(),
            tt: true,
            ordering: true,
            mode: Mode::Auto,
            iterative: true,
            tt_capacity: 200_000,
            order: Order::Given,
            helper: 0,
        }
    }
}

struct Out {
    value: f64,
    solved: bool,
    best: Option<Vec<TermId>>,
}

/// A transposition table shared by the threads of a parallel search.
pub type Shared = Arc<SharedTable<Key, Entry>>;

/// The alpha-beta player (also usable as a plain search). `B`: how the
/// heuristic is boxed (`Send` for a search on another thread).
pub struct AlphaBeta<M: StateMachine, B: BoxedHeuristic<M> = Box<dyn Heuristic<M>>> {
    h: B,
    pub cfg: Config,
    tt: FxHashMap<Key, Entry>,
    /// When set, used instead of `tt` (its owner clears it).
    shared: Option<Shared>,
    tt_role: Option<usize>,
    info: Option<GameInfo>,
    stats: Stats,
    machine: PhantomData<fn(&mut M)>,
}

impl<M: StateMachine, B: BoxedHeuristic<M>> AlphaBeta<M, B> {
    pub fn new(h: B, cfg: Config) -> Self {
        AlphaBeta {
            h,
            cfg,
            tt: FxHashMap::default(),
            shared: None,
            tt_role: None,
            info: None,
            stats: Stats::default(),
            machine: PhantomData,
        }
    }

    /// Searches with `table` instead of its own transposition table.
    pub fn share_table(&mut self, table: Shared) {
        self.shared = Some(table);
    }

    /// Whether the transposition table of the last search stays valid for
    /// a search from `root` for `role` (same role, state-only heuristic,
    /// paranoid mode).
    pub fn keeps_table(
        &mut self,
        m: &mut M,
        root: &M::State,
        role: usize,
    ) -> Result<bool, EvalError> {
        let mode = self.resolve_mode(m, root)?;
        Ok(self.cfg.tt
            && self.h.get().state_only()
            && self.tt_role == Some(role)
            && mode != Mode::MaxN)
    }

    /// Forgets the transposition table and what the heuristic cached by
    /// term id, not the game analysis (the ensemble's members on a fresh
    /// copy of the game, whose new terms may get other ids).
    pub fn forget_states(&mut self) {
        self.tt.clear();
        self.tt_role = None;
        self.forget_terms();
    }

    /// Forgets what the heuristic cached by term id (before a search on a
    /// fresh copy of the game; the table is keyed by content and stays).
    pub fn forget_terms(&mut self) {
        self.h.get().forget_terms();
    }

    /// Forgets the transposition table and the game analysis.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.tt_role = None;
        self.info = None;
    }

    pub fn heuristic_name(&self) -> String {
        self.h.name()
    }

    /// The mode actually used for this game.
    pub fn resolve_mode(&mut self, m: &mut M, root: &M::State) -> Result<Mode, EvalError> {
        Ok(match self.cfg.mode {
            Mode::Auto => {
                if self.info.is_none() {
                    self.info = Some(GameInfo::sample(m, root, 10, 1)?);
                }
                let info = self.info.as_ref().expect("just set");
                if info.roles == 2
                    && info.turn_taking
                    && !info.zero_sum
                    && info.terminal_samples > 0
                {
                    Mode::MaxN
                } else {
                    Mode::Paranoid
                }
            }
            other => other,
        })
    }

    /// Searches `root` for `role` under the configured budget. With a trace,
    /// every iteration is recorded (an [`Event::Iteration`] starts each).
    pub fn search(
        &mut self,
        m: &mut M,
        root: &M::State,
        role: usize,
        mut trace: Option<&mut Trace>,
    ) -> Result<SearchResult, EvalError> {
        let t0 = now_ms();
        let mode = self.resolve_mode(m, root)?;
        if !self.keeps_table(m, root, role)? {
            self.tt.clear();
        }
        self.tt_role = Some(role);
        let mut limit = Limit::new(&self.cfg.budget);
        let max_depth = self.cfg.budget.depth.unwrap_or(MAX_DEPTH).min(MAX_DEPTH);
        let fallback = m.legal_moves(root, role)?.first().copied();
        let mut result = SearchResult {
            value: 50.0,
            best_move: fallback,
            solved: false,
            stats: Stats::default(),
            iterations: Vec::new(),
        };
        let mut completed = false;
        self.h.get().set_root(m, root)?;
        for depth in self.first_depth(max_depth)..=max_depth {
            let mut root_id = 0;
            if let Some(t) = trace.as_deref_mut() {
                if self.cfg.iterative {
                    t.push(Event::Iteration { depth });
                }
                root_id = t.nodes();
            }
            let run = (&mut *m, root, role, mode, depth);
            let (r, stats, root_best) = self.iteration(run, &mut limit, trace.as_deref_mut());
            result.stats.add(&stats);
            result
                .iterations
                .push(Iteration::of(depth, r.is_ok(), &stats));
            match r {
                Ok(out) => {
                    result.value = out.value;
                    result.best_move = out.best.map(|j| j[role]).or(fallback);
                    result.solved = out.solved;
                    result.stats.depth = depth;
                    completed = true;
                    if let (Some(t), Some(mv)) = (trace.as_deref_mut(), result.best_move) {
                        let mv = m.terms().display(mv);
                        t.push(Event::BestMove {
                            node: root_id,
                            mv,
                            value: out.value,
                        });
                    }
                    if out.solved {
                        break;
                    }
                }
                Err(Stop::Budget) => {
                    if !completed {
                        if let Some((mv, v)) = root_best {
                            result.best_move = Some(mv);
                            result.value = v;
                        }
                    }
                    break;
                }
                Err(Stop::Eval(e)) => return Err(e),
            }
            if limit.exhausted() {
                break;
            }
        }
        result.stats.elapsed_ms = since(t0);
        Ok(result)
    }

    /// The depth of the first iteration (helpers with odd numbers start one
    /// deeper); without iterative deepening, `max_depth`.
    fn first_depth(&self, max_depth: u32) -> u32 {
        if self.cfg.iterative {
            (1 + self.cfg.helper as u32 % 2).min(max_depth)
        } else {
            max_depth
        }
    }

    /// One search of `root` to `depth` for `role` in `mode`: its result,
    /// its statistics and the best root move it found (also when cut short).
    fn iteration(
        &mut self,
        (m, root, role, mode, depth): (&mut M, &M::State, usize, Mode, u32),
        limit: &mut Limit,
        trace: Option<&mut Trace>,
    ) -> (Result<Out, Stop>, Stats, Option<(TermId, f64)>) {
        let chance = crate::reasoner::chance_role(&*m);
        let mut cx = Cx {
            m,
            h: self.h.get(),
            role,
            limit,
            stats: Stats::default(),
            tt: match (&self.shared, self.cfg.tt && mode == Mode::Paranoid) {
                (_, false) => None,
                (Some(t), true) => Some(Table::Shared(t)),
                (None, true) => Some(Table::Own(&mut self.tt)),
            },
            helper: self.cfg.helper,
            tt_capacity: self.cfg.tt_capacity,
            ordering: self.cfg.ordering,
            order: self.cfg.order,
            budget: self.cfg.budget,
            trace,
            root_best: None,
            chance,
        };
        let r = match mode {
            Mode::MaxN => cx.maxn(root, depth, 0).map(|(v, solved, best)| Out {
                value: v[role],
                solved,
                best,
            }),
            _ => cx.ab(root, depth, 0, f64::NEG_INFINITY, f64::INFINITY, None, None),
        };
        (r, cx.stats, cx.root_best)
    }
}

impl<M: StateMachine, B: BoxedHeuristic<M>> Player<M> for AlphaBeta<M, B> {
    fn name(&self) -> String {
        let mut parts = vec![self.h.name()];
        parts.extend(self.cfg.budget.limits("nodes"));
        format!("alphabeta({})", parts.join(", "))
    }
    fn select_move(
        &mut self,
        m: &mut M,
        state: &M::State,
        role: usize,
    ) -> Result<TermId, EvalError> {
        searched_move(self.search(m, state, role, None)?, &mut self.stats, role)
    }
    fn set_time_ms(&mut self, ms: f64) {
        self.cfg.budget.ms = Some(ms);
    }
    fn new_game(&mut self) {
        // The table stays valid across games of the same game (state-only
        // heuristics); the search clears it when it must.
    }
    fn last_stats(&self) -> Stats {
        self.stats.clone()
    }
}
