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

use super::minimax::order_moves;
use super::table::SharedTable;
use super::{
    goal_of, replies, searched_move, since, turn_of, Budget, GameInfo, Heuristic, Iteration, Limit,
    Player, SearchResult, Stats, Stop, Turn, MAX_DEPTH,
};
use crate::clock::now_ms;
use crate::evaluation::BoxedHeuristic;
use crate::ordering::Order;
use crate::reasoner::content_keys::Key;
use crate::reasoner::{EvalError, StateMachine};
use crate::terms::TermId;
use crate::trace::{joint_label, BoundKind, Event, NodeKind, Pruned, Trace};
use rustc_hash::FxHashMap;
use std::marker::PhantomData;
use std::sync::Arc;

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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flag {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Debug)]
pub struct Entry {
    value: f64,
    depth: u32,
    flag: Flag,
    solved: bool,
    /// The best joint move, by the moves' content keys.
    best: Option<Box<[Key]>>,
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
        let first = if self.cfg.iterative {
            (1 + self.cfg.helper as u32 % 2).min(max_depth)
        } else {
            max_depth
        };
        let mut completed = false;
        self.h.get().set_root(m, root)?;
        for depth in first..=max_depth {
            let mut root_id = 0;
            if let Some(t) = trace.as_deref_mut() {
                if self.cfg.iterative {
                    t.push(Event::Iteration { depth });
                }
                root_id = t.nodes();
            }
            let mut cx = Cx {
                m: &mut *m,
                h: self.h.get(),
                role,
                limit: &mut limit,
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
                trace: trace.as_deref_mut(),
                root_best: None,
            };
            let r = match mode {
                Mode::MaxN => cx.maxn(root, depth, 0).map(|(v, solved, best)| Out {
                    value: v[role],
                    solved,
                    best,
                }),
                _ => cx.ab(root, depth, 0, f64::NEG_INFINITY, f64::INFINITY, None, None),
            };
            let (stats, root_best) = (cx.stats.clone(), cx.root_best);
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
}

/// The table a search reads and writes.
enum Table<'a> {
    Own(&'a mut FxHashMap<Key, Entry>),
    Shared(&'a SharedTable<Key, Entry>),
}

struct Cx<'a, M: StateMachine> {
    m: &'a mut M,
    h: &'a mut dyn Heuristic<M>,
    role: usize,
    limit: &'a mut Limit,
    stats: Stats,
    tt: Option<Table<'a>>,
    tt_capacity: usize,
    /// See [`Config::helper`].
    helper: usize,
    ordering: bool,
    order: Order,
    budget: Budget,
    trace: Option<&'a mut Trace>,
    /// Best root move so far in this iteration (for a cut-short first
    /// iteration).
    root_best: Option<(TermId, f64)>,
}

fn w(v: f64) -> Option<f64> {
    Some(v)
}

impl<M: StateMachine> Cx<'_, M> {
    #[allow(clippy::too_many_arguments)]
    fn enter(
        &mut self,
        s: &M::State,
        parent: Option<u32>,
        ply: u32,
        kind: NodeKind,
        mv: Option<String>,
        reply: bool,
        alpha: f64,
        beta: f64,
    ) -> Option<u32> {
        let t = self.trace.as_deref_mut()?;
        if parent.is_none() && ply > 0 {
            return None;
        }
        let st = t.state(&*self.m, s);
        t.enter(parent, ply, kind, mv, st, reply, w(alpha), w(beta))
    }

    fn event(&mut self, id: Option<u32>, e: impl FnOnce(u32) -> Event) {
        if let (Some(t), Some(node)) = (self.trace.as_deref_mut(), id) {
            t.push(e(node));
        }
    }

    fn label(&self, legal: &[Vec<TermId>], joint: &[TermId]) -> Option<String> {
        self.trace
            .as_ref()
            .map(|_| joint_label(&*self.m, legal, joint))
    }

    fn leaf(&mut self, id: Option<u32>, value: f64, terminal: bool) {
        self.stats.leaves += 1;
        self.event(id, |node| Event::Leaf {
            node,
            value,
            terminal,
        });
        self.event(id, |node| Event::Return { node, value });
    }

    /// The table's key of `s`, `None` without a table.
    fn key(&mut self, s: &M::State) -> Option<Key> {
        self.tt.is_some().then(|| self.m.state_key(s))
    }

    fn store(&mut self, key: Option<Key>, e: Entry) {
        let cap = self.tt_capacity;
        match (&mut self.tt, key) {
            (Some(Table::Own(tt)), Some(k)) => {
                if tt.len() >= cap && !tt.contains_key(&k) {
                    tt.clear();
                }
                tt.insert(k, e);
            }
            (Some(Table::Shared(tt)), Some(k)) => tt.insert(k, e),
            _ => {}
        }
    }

    /// The table's entry for the state of `key`: the fields a node needs
    /// (the value, its bound, whether it is solved, and the best joint move).
    fn lookup(&self, key: Option<Key>) -> Option<Entry> {
        match (&self.tt, key) {
            (Some(Table::Own(tt)), Some(k)) => tt.get(&k).cloned(),
            (Some(Table::Shared(tt)), Some(k)) => tt.get(&k),
            _ => None,
        }
    }

    /// A joint move by its moves' content keys, as this copy's legal moves
    /// (`None` when one is not legal here: an entry of another state).
    fn resolve(&mut self, legal: &[Vec<TermId>], keys: &[Key]) -> Option<Vec<TermId>> {
        if keys.len() != legal.len() {
            return None;
        }
        let mut joint = Vec::with_capacity(keys.len());
        for (moves, &k) in legal.iter().zip(keys) {
            joint.push(*moves.iter().find(|&&mv| self.m.term_key(mv) == k)?);
        }
        Some(joint)
    }

    /// A helper's root order: the moves rotated by its number.
    fn diversify<T>(&self, ply: u32, moves: &mut [T]) {
        if ply == 0 && self.helper > 0 && !moves.is_empty() {
            let n = moves.len();
            moves.rotate_left(self.helper % n);
        }
    }

    /// Fail-soft alpha-beta on our role's value.
    #[allow(clippy::too_many_arguments)]
    fn ab(
        &mut self,
        s: &M::State,
        depth: u32,
        ply: u32,
        alpha0: f64,
        beta0: f64,
        parent: Option<u32>,
        mv: Option<String>,
    ) -> Result<Out, Stop> {
        self.stats.nodes += 1;
        if self.limit.tick() {
            return Err(Stop::Budget);
        }
        if self.m.is_terminal(s)? {
            let id = self.enter(s, parent, ply, NodeKind::Leaf, mv, false, alpha0, beta0);
            let v = goal_of(self.m, s, self.role)?;
            self.leaf(id, v, true);
            return Ok(Out {
                value: v,
                solved: true,
                best: None,
            });
        }
        let key = self.key(s);
        let mut tt_best: Option<Box<[Key]>> = None;
        if let Some(e) = self.lookup(key) {
            if e.solved || e.depth == depth {
                let usable = match e.flag {
                    Flag::Exact => true,
                    Flag::Lower => e.value >= beta0,
                    Flag::Upper => e.value <= alpha0,
                };
                if usable {
                    let (value, solved) = (e.value, e.solved);
                    // Only the root's best move is read (it is played).
                    let best = match e.best {
                        Some(b) if ply == 0 => {
                            let legal = self.m.all_legal_moves(s)?;
                            self.resolve(&legal, &b)
                        }
                        _ => None,
                    };
                    self.stats.tt_hits += 1;
                    let id = self.enter(s, parent, ply, NodeKind::Leaf, mv, false, alpha0, beta0);
                    self.event(id, |node| Event::TtHit { node, value });
                    self.event(id, |node| Event::Return { node, value });
                    return Ok(Out {
                        value,
                        solved,
                        best,
                    });
                }
            }
            if self.ordering {
                tt_best = e.best;
            }
        }
        if depth == 0 || ply >= MAX_DEPTH {
            let id = self.enter(s, parent, ply, NodeKind::Leaf, mv, false, alpha0, beta0);
            let v = self.h.evaluate(self.m, s, self.role)?;
            self.leaf(id, v, false);
            return Ok(Out {
                value: v,
                solved: false,
                best: None,
            });
        }
        let mut legal = self.m.all_legal_moves(s)?;
        if legal.iter().any(Vec::is_empty) {
            let id = self.enter(s, parent, ply, NodeKind::Leaf, mv, false, alpha0, beta0);
            let v = goal_of(self.m, s, self.role)?;
            self.leaf(id, v, true);
            return Ok(Out {
                value: v,
                solved: true,
                best: None,
            });
        }
        let tt_best = tt_best.and_then(|b| self.resolve(&legal, &b));
        order_moves(
            &mut *self.m,
            &mut *self.h,
            self.role,
            s,
            &mut legal,
            depth,
            self.order,
            &self.budget,
        )?;
        let turn = turn_of(&legal, self.role);
        let kind = match turn {
            Turn::Forced | Turn::Ours | Turn::Both => NodeKind::Max,
            Turn::Theirs => NodeKind::Min,
        };
        let kind = if turn == Turn::Forced {
            NodeKind::Forced
        } else {
            kind
        };
        let id = self.enter(s, parent, ply, kind, mv, false, alpha0, beta0);
        let (mut alpha, mut beta) = (alpha0, beta0);
        let mut solved = true;
        let mut best_joint: Option<Vec<TermId>> = None;
        let mut best = if kind == NodeKind::Min {
            f64::INFINITY
        } else {
            f64::NEG_INFINITY
        };
        if turn == Turn::Both {
            let mut ours = legal[self.role].clone();
            if let Some(b) = &tt_best {
                if let Some(i) = ours.iter().position(|&o| o == b[self.role]) {
                    ours[..=i].rotate_right(1);
                }
            }
            self.diversify(ply, &mut ours);
            for (i, &our) in ours.iter().enumerate() {
                let label = self.trace.as_ref().map(|_| self.m.terms().display(our));
                let rid = self.enter(s, id, ply, NodeKind::Min, label, true, alpha, beta);
                let mut rbeta = beta;
                let mut worst = f64::INFINITY;
                let mut worst_joint = None;
                let reps = replies(&legal, self.role, our)?;
                for (j, joint) in reps.iter().enumerate() {
                    let label = self.label(&legal, joint);
                    let child = self.m.next_state(s, joint)?;
                    let o = self.ab(&child, depth - 1, ply + 1, alpha, rbeta, rid, label)?;
                    solved &= o.solved;
                    if o.value < worst {
                        worst = o.value;
                        worst_joint = Some(joint.clone());
                    }
                    if worst < rbeta {
                        rbeta = worst;
                        self.event(rid, |node| Event::Bound {
                            node,
                            bound: BoundKind::Beta,
                            value: worst,
                        });
                    }
                    if worst <= alpha && j + 1 < reps.len() {
                        self.stats.cutoffs += 1;
                        let pruned = self.pruned(&legal, &reps[j + 1..]);
                        self.event(rid, |node| Event::Cutoff {
                            node,
                            alpha,
                            beta: rbeta,
                            value: worst,
                            pruned,
                        });
                        break;
                    }
                }
                self.event(rid, |node| Event::Return { node, value: worst });
                if worst > best {
                    best = worst;
                    best_joint = worst_joint;
                    if ply == 0 {
                        self.root_best = Some((our, best));
                    }
                }
                if best > alpha {
                    alpha = best;
                    self.event(id, |node| Event::Bound {
                        node,
                        bound: BoundKind::Alpha,
                        value: best,
                    });
                }
                if alpha >= beta && i + 1 < ours.len() {
                    self.stats.cutoffs += 1;
                    let pruned: Vec<Pruned> = match self.trace {
                        Some(_) => ours[i + 1..]
                            .iter()
                            .map(|&o| Pruned {
                                mv: self.m.terms().display(o),
                            })
                            .collect(),
                        None => Vec::new(),
                    };
                    self.event(id, |node| Event::Cutoff {
                        node,
                        alpha,
                        beta,
                        value: best,
                        pruned,
                    });
                    break;
                }
            }
        } else {
            let mut joints = crate::reasoner::joint_moves(&legal)?;
            if let Some(b) = &tt_best {
                if let Some(i) = joints.iter().position(|j| j[..] == b[..]) {
                    joints[..=i].rotate_right(1);
                }
            }
            self.diversify(ply, &mut joints);
            let maximise = kind != NodeKind::Min;
            for (i, joint) in joints.iter().enumerate() {
                let label = self.label(&legal, joint);
                let child = self.m.next_state(s, joint)?;
                let o = self.ab(&child, depth - 1, ply + 1, alpha, beta, id, label)?;
                solved &= o.solved;
                let v = o.value;
                if (maximise && v > best) || (!maximise && v < best) {
                    best = v;
                    best_joint = Some(joint.clone());
                    if ply == 0 {
                        self.root_best = Some((joint[self.role], best));
                    }
                }
                if maximise && best > alpha {
                    alpha = best;
                    self.event(id, |node| Event::Bound {
                        node,
                        bound: BoundKind::Alpha,
                        value: best,
                    });
                } else if !maximise && best < beta {
                    beta = best;
                    self.event(id, |node| Event::Bound {
                        node,
                        bound: BoundKind::Beta,
                        value: best,
                    });
                }
                if alpha >= beta && i + 1 < joints.len() {
                    self.stats.cutoffs += 1;
                    let pruned = self.pruned(&legal, &joints[i + 1..]);
                    self.event(id, |node| Event::Cutoff {
                        node,
                        alpha,
                        beta,
                        value: best,
                        pruned,
                    });
                    break;
                }
            }
        }
        self.event(id, |node| Event::Return { node, value: best });
        let flag = if best <= alpha0 {
            Flag::Upper
        } else if best >= beta0 {
            Flag::Lower
        } else {
            Flag::Exact
        };
        let best_keys = key.and(best_joint.as_ref()).map(|j| {
            let keys: Box<[Key]> = j.iter().map(|&mv| self.m.term_key(mv)).collect();
            keys
        });
        let entry = Entry {
            value: best,
            depth,
            flag,
            solved,
            best: best_keys,
        };
        self.store(key, entry);
        Ok(Out {
            value: best,
            solved,
            best: best_joint,
        })
    }

    fn pruned(&self, legal: &[Vec<TermId>], rest: &[Vec<TermId>]) -> Vec<Pruned> {
        match self.trace {
            Some(_) => rest
                .iter()
                .map(|j| Pruned {
                    mv: joint_label(&*self.m, legal, j),
                })
                .collect(),
            None => Vec::new(),
        }
    }

    /// MaxN (thesis 3.2.3): values for every role; the role with a choice
    /// maximises its own; with several choosing, paranoid on our value.
    fn maxn(&mut self, s: &M::State, depth: u32, ply: u32) -> Result<MaxnValue, Stop> {
        self.stats.nodes += 1;
        if self.limit.tick() {
            return Err(Stop::Budget);
        }
        let n = self.m.roles().len();
        if self.m.is_terminal(s)? {
            self.stats.leaves += 1;
            let g = self.m.goals(s)?;
            return Ok((
                g.iter().map(|v| v.unwrap_or(0) as f64).collect(),
                true,
                None,
            ));
        }
        if depth == 0 || ply >= MAX_DEPTH {
            self.stats.leaves += 1;
            let mut v = Vec::with_capacity(n);
            for r in 0..n {
                v.push(self.h.evaluate(self.m, s, r)?);
            }
            return Ok((v, false, None));
        }
        let legal = self.m.all_legal_moves(s)?;
        if legal.iter().any(Vec::is_empty) {
            self.stats.leaves += 1;
            let g = self.m.goals(s)?;
            return Ok((
                g.iter().map(|v| v.unwrap_or(0) as f64).collect(),
                true,
                None,
            ));
        }
        let choosing: Vec<usize> = (0..n).filter(|&r| legal[r].len() > 1).collect();
        let mut solved = true;
        if choosing.len() <= 1 {
            let mover = choosing.first().copied().unwrap_or(self.role);
            let mut best: Option<(Vec<f64>, Vec<TermId>)> = None;
            for joint in crate::reasoner::joint_moves(&legal)? {
                let child = self.m.next_state(s, &joint)?;
                let (v, sv, _) = self.maxn(&child, depth - 1, ply + 1)?;
                solved &= sv;
                if best.as_ref().is_none_or(|(b, _)| v[mover] > b[mover]) {
                    if ply == 0 {
                        self.root_best = Some((joint[self.role], v[self.role]));
                    }
                    best = Some((v, joint));
                }
            }
            let (v, j) = best.expect("at least one joint move");
            return Ok((v, solved, Some(j)));
        }
        let mut best: Option<(Vec<f64>, Vec<TermId>)> = None;
        for &our in &legal[self.role] {
            let mut worst: Option<(Vec<f64>, Vec<TermId>)> = None;
            for joint in replies(&legal, self.role, our)? {
                let child = self.m.next_state(s, &joint)?;
                let (v, sv, _) = self.maxn(&child, depth - 1, ply + 1)?;
                solved &= sv;
                if worst
                    .as_ref()
                    .is_none_or(|(b, _)| v[self.role] < b[self.role])
                {
                    worst = Some((v, joint));
                }
            }
            let worst = worst.expect("at least one reply");
            if best
                .as_ref()
                .is_none_or(|(b, _)| worst.0[self.role] > b[self.role])
            {
                if ply == 0 {
                    self.root_best = Some((our, worst.0[self.role]));
                }
                best = Some(worst);
            }
        }
        let (v, j) = best.expect("at least one move");
        Ok((v, solved, Some(j)))
    }
}

impl<M: StateMachine, B: BoxedHeuristic<M>> Player<M> for AlphaBeta<M, B> {
    fn name(&self) -> String {
        let mut parts = vec![self.h.name()];
        if let Some(ms) = self.cfg.budget.ms {
            parts.push(format!("{ms} ms"));
        }
        if let Some(n) = self.cfg.budget.nodes {
            parts.push(format!("{n} nodes"));
        }
        if let Some(d) = self.cfg.budget.depth {
            parts.push(format!("depth {d}"));
        }
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

/// A MaxN result: values per role, whether they are exact, the best joint move.
type MaxnValue = (Vec<f64>, bool, Option<Vec<TermId>>);
