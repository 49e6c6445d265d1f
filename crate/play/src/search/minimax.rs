//! Minimax: the reference search (lecture 001, thesis 3.2.2), depth-limited,
//! no pruning, no table, children in the order the game lists them.
//!
//! Semantics as in [`super`]: our role maximises, the other roles minimise
//! our value; with simultaneous moves we choose first and the others reply.
//! Alpha-beta must return the same value (property-tested), so this file
//! stays deliberately plain.

use super::{
    chance_replies, chance_turn, goal_of, replies, searched_move, since, turn_of, Budget,
    Heuristic, Iteration, Limit, Player, SearchResult, Stats, Stop, Turn, MAX_DEPTH,
};
use crate::clock::now_ms;
use crate::ordering::Order;
use crate::reasoner::{EvalError, StateMachine};
use crate::terms::TermId;
use crate::trace::{joint_label, Event, NodeKind, Trace};

/// One depth-limited minimax search.
pub struct Minimax<'a, M: StateMachine> {
    pub m: &'a mut M,
    pub h: &'a mut dyn Heuristic<M>,
    pub role: usize,
    pub limit: Limit,
    pub stats: Stats,
    pub trace: Option<&'a mut Trace>,
    /// A heuristic leaf was evaluated (the value is an estimate).
    pub estimated: bool,
    /// The order of each node's moves (teaching; values do not change).
    pub order: Order,
    budget: Budget,
    /// GDL-II's chance role, whose nodes are averaged.
    chance: Option<usize>,
}

impl<'a, M: StateMachine> Minimax<'a, M> {
    pub fn new(m: &'a mut M, h: &'a mut dyn Heuristic<M>, role: usize, budget: &Budget) -> Self {
        let chance = crate::reasoner::chance_role(&*m);
        Minimax {
            m,
            h,
            role,
            limit: Limit::new(budget),
            stats: Stats::default(),
            trace: None,
            estimated: false,
            order: Order::Given,
            budget: *budget,
            chance,
        }
    }

    /// The minimax value of `s` to `depth` plies (no trace, the heuristic's
    /// root unchanged).
    pub fn value(&mut self, s: &M::State, depth: u32) -> Result<f64, Stop> {
        Ok(self.node(s, depth, 0, None, None)?.0)
    }

    /// Searches `root` to `depth` plies; returns the value and our best move.
    pub fn search(&mut self, root: &M::State, depth: u32) -> Result<(f64, Option<TermId>), Stop> {
        self.h.set_root(self.m, root)?;
        let (v, best) = self.node(root, depth, 0, None, None)?;
        if let (Some(t), Some(b)) = (self.trace.as_deref_mut(), best) {
            let mv = self.m.terms().display(b);
            t.push(Event::BestMove {
                node: 0,
                mv,
                value: v,
            });
        }
        Ok((v, best))
    }

    fn enter(
        &mut self,
        s: &M::State,
        parent: Option<u32>,
        ply: u32,
        kind: NodeKind,
        mv: Option<String>,
        reply: bool,
    ) -> Option<u32> {
        let t = self.trace.as_deref_mut()?;
        if parent.is_none() && ply > 0 {
            return None; // the parent was not recorded
        }
        let st = t.state(&*self.m, s);
        t.enter(parent, ply, kind, mv, st, reply, None, None)
    }

    fn leaf(&mut self, id: Option<u32>, value: f64, terminal: bool) {
        self.stats.leaves += 1;
        if let (Some(t), Some(node)) = (self.trace.as_deref_mut(), id) {
            t.push(Event::Leaf {
                node,
                value,
                terminal,
            });
            t.push(Event::Return { node, value });
        }
    }

    fn ret(&mut self, id: Option<u32>, value: f64) {
        if let (Some(t), Some(node)) = (self.trace.as_deref_mut(), id) {
            t.push(Event::Return { node, value });
        }
    }

    /// Value of `s` with `depth` plies left, and our best move there.
    fn node(
        &mut self,
        s: &M::State,
        depth: u32,
        ply: u32,
        parent: Option<u32>,
        mv: Option<String>,
    ) -> Result<(f64, Option<TermId>), Stop> {
        self.stats.nodes += 1;
        if self.limit.tick() {
            return Err(Stop::Budget);
        }
        if self.m.is_terminal(s)? {
            return self.leaf_node(s, parent, ply, mv, true);
        }
        if depth == 0 || ply >= MAX_DEPTH {
            return self.leaf_node(s, parent, ply, mv, false);
        }
        let mut legal = self.m.all_legal_moves(s)?;
        if legal.iter().any(Vec::is_empty) {
            // A role without moves in a non-terminal state: score it like a
            // terminal state (the game cannot go on).
            return self.leaf_node(s, parent, ply, mv, true);
        }
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
        if chance_turn(&legal, self.role, self.chance) {
            let id = self.enter(s, parent, ply, NodeKind::Chance, mv, false);
            let mean = self.over_chance(s, depth, ply, id, &legal)?;
            self.ret(id, mean);
            return Ok((mean, None));
        }
        let turn = turn_of(&legal, self.role);
        let kind = match turn {
            Turn::Forced => NodeKind::Forced,
            Turn::Ours | Turn::Both => NodeKind::Max,
            Turn::Theirs => NodeKind::Min,
        };
        let id = self.enter(s, parent, ply, kind, mv, false);
        let (best, best_move) = match turn {
            Turn::Forced | Turn::Ours | Turn::Theirs => {
                self.over_joints(s, depth, ply, id, &legal, kind == NodeKind::Min)?
            }
            Turn::Both => self.over_ours(s, depth, ply, id, &legal)?,
        };
        self.ret(id, best);
        Ok((best, best_move))
    }

    /// A leaf: the goal value when `terminal`, else the heuristic's estimate.
    fn leaf_node(
        &mut self,
        s: &M::State,
        parent: Option<u32>,
        ply: u32,
        mv: Option<String>,
        terminal: bool,
    ) -> Result<(f64, Option<TermId>), Stop> {
        let id = self.enter(s, parent, ply, NodeKind::Leaf, mv, false);
        let v = if terminal {
            goal_of(self.m, s, self.role)?
        } else {
            let v = self.h.evaluate(self.m, s, self.role)?;
            self.estimated = true;
            v
        };
        self.leaf(id, v, terminal);
        Ok((v, None))
    }

    /// Chance chooses: the mean of the values over its moves.
    fn over_chance(
        &mut self,
        s: &M::State,
        depth: u32,
        ply: u32,
        id: Option<u32>,
        legal: &[Vec<TermId>],
    ) -> Result<f64, Stop> {
        let joints = crate::reasoner::joint_moves(legal)?;
        let mut sum = 0.0;
        for joint in &joints {
            sum += self.child(s, depth, ply, id, legal, joint)?;
        }
        Ok(sum / joints.len() as f64)
    }

    /// The value of the child of `s` after `joint`, searched under the
    /// trace node `id`.
    fn child(
        &mut self,
        s: &M::State,
        depth: u32,
        ply: u32,
        id: Option<u32>,
        legal: &[Vec<TermId>],
        joint: &[TermId],
    ) -> Result<f64, Stop> {
        let label = self
            .trace
            .as_ref()
            .map(|_| joint_label(&*self.m, legal, joint));
        let child = self.m.next_state(s, joint)?;
        Ok(self.node(&child, depth - 1, ply + 1, id, label)?.0)
    }

    /// At most one role chooses: the best (`min`: the least) value over the
    /// joint moves, and our move of the best one.
    fn over_joints(
        &mut self,
        s: &M::State,
        depth: u32,
        ply: u32,
        id: Option<u32>,
        legal: &[Vec<TermId>],
        min: bool,
    ) -> Result<(f64, Option<TermId>), Stop> {
        let mut best = if min {
            f64::INFINITY
        } else {
            f64::NEG_INFINITY
        };
        let mut best_move = None;
        let joints = crate::reasoner::joint_moves(legal)?;
        for joint in &joints {
            let v = self.child(s, depth, ply, id, legal, joint)?;
            let better = if min { v < best } else { v > best };
            if better {
                best = v;
                best_move = Some(joint[self.role]);
            }
        }
        Ok((best, best_move))
    }

    /// Several roles choose, ours among them: the best over our moves of the
    /// least value over the others' replies.
    fn over_ours(
        &mut self,
        s: &M::State,
        depth: u32,
        ply: u32,
        id: Option<u32>,
        legal: &[Vec<TermId>],
    ) -> Result<(f64, Option<TermId>), Stop> {
        let (mut best, mut best_move) = (f64::NEG_INFINITY, None);
        // Chance as the only other role replies uniformly: the mean.
        let chance = chance_replies(legal, self.role, self.chance);
        let kind = if chance {
            NodeKind::Chance
        } else {
            NodeKind::Min
        };
        for &ours in &legal[self.role] {
            let label = self.trace.as_ref().map(|_| self.m.terms().display(ours));
            let rid = self.enter(s, id, ply, kind, label, true);
            let (mut worst, mut sum) = (f64::INFINITY, 0.0);
            let reps = replies(legal, self.role, ours)?;
            for joint in &reps {
                let v = self.child(s, depth, ply, rid, legal, joint)?;
                worst = worst.min(v);
                sum += v;
            }
            if chance {
                worst = sum / reps.len() as f64;
            }
            self.ret(rid, worst);
            if worst > best {
                best = worst;
                best_move = Some(ours);
            }
        }
        Ok((best, best_move))
    }
}

/// Minimax with iterative deepening under a budget (the move of the last
/// completed iteration; stops early once no heuristic value was used).
pub struct MinimaxPlayer<M: StateMachine> {
    h: Box<dyn Heuristic<M>>,
    budget: Budget,
    stats: Stats,
}

impl<M: StateMachine> MinimaxPlayer<M> {
    pub fn new(h: Box<dyn Heuristic<M>>, budget: Budget) -> Self {
        MinimaxPlayer {
            h,
            budget,
            stats: Stats::default(),
        }
    }

    /// Iterative deepening from `state`.
    pub fn search(
        &mut self,
        m: &mut M,
        state: &M::State,
        role: usize,
    ) -> Result<SearchResult, EvalError> {
        let t0 = now_ms();
        let max_depth = self.budget.depth.unwrap_or(MAX_DEPTH).min(MAX_DEPTH);
        let fallback = m.legal_moves(state, role)?.first().copied();
        let mut result = SearchResult {
            value: 50.0,
            best_move: fallback,
            solved: false,
            stats: Stats::default(),
            iterations: Vec::new(),
        };
        let mut limit = Limit::new(&self.budget);
        for d in 1..=max_depth {
            let chance = crate::reasoner::chance_role(&*m);
            let mut mm = Minimax {
                m,
                h: &mut *self.h,
                role,
                limit,
                stats: Stats::default(),
                trace: None,
                estimated: false,
                order: Order::Given,
                budget: self.budget,
                chance,
            };
            let r = mm.search(state, d);
            limit = mm.limit.clone();
            let (stats, estimated) = (mm.stats.clone(), mm.estimated);
            result.stats.add(&stats);
            result.iterations.push(Iteration::of(d, r.is_ok(), &stats));
            match r {
                Ok((v, mv)) => {
                    result.value = v;
                    result.best_move = mv.or(fallback);
                    result.stats.depth = d;
                    result.solved = !estimated;
                    if !estimated {
                        break;
                    }
                }
                Err(Stop::Budget) => break,
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

impl<M: StateMachine> Player<M> for MinimaxPlayer<M> {
    fn name(&self) -> String {
        format!("minimax({})", self.h.name())
    }
    fn select_move(
        &mut self,
        m: &mut M,
        state: &M::State,
        role: usize,
    ) -> Result<TermId, EvalError> {
        searched_move(self.search(m, state, role)?, &mut self.stats, role)
    }
    fn last_stats(&self) -> Stats {
        self.stats.clone()
    }
}

/// Reorders each role's moves of `legal` (in state `s`, `depth` plies left,
/// values for `role`): our role maximises, the others minimise. Ties keep
/// the game's order. For best and worst first a child's value is its
/// minimax value to the remaining depth (the value the search will find),
/// computed by a plain minimax that is not counted in the search's
/// statistics.
#[allow(clippy::too_many_arguments)]
pub fn order_moves<M: StateMachine>(
    m: &mut M,
    h: &mut dyn Heuristic<M>,
    role: usize,
    s: &M::State,
    legal: &mut [Vec<TermId>],
    depth: u32,
    order: Order,
    budget: &Budget,
) -> Result<(), Stop> {
    match order {
        Order::Given => return Ok(()),
        Order::Reversed => {
            legal.iter_mut().for_each(|l| l.reverse());
            return Ok(());
        }
        Order::Best | Order::Worst => {}
    }
    if legal.iter().all(|l| l.len() <= 1) {
        return Ok(());
    }
    // The value of every joint move's child.
    let joints = crate::reasoner::joint_moves(legal)?;
    let mut values = Vec::with_capacity(joints.len());
    for joint in &joints {
        let child = m.next_state(s, joint)?;
        let mut mm = Minimax::new(m, h, role, budget);
        values.push(mm.value(&child, depth.saturating_sub(1))?);
    }
    for (r, moves) in legal.iter_mut().enumerate() {
        if moves.len() <= 1 {
            continue;
        }
        // A move of ours is worth its best joint (we choose), a move of
        // another role its worst joint for us.
        let worth = |mv: TermId| {
            let vs = joints
                .iter()
                .zip(&values)
                .filter(|(j, _)| j[r] == mv)
                .map(|(_, &v)| v);
            if r == role {
                vs.fold(f64::NEG_INFINITY, f64::max)
            } else {
                -vs.fold(f64::INFINITY, f64::min)
            }
        };
        let mut keyed: Vec<(f64, TermId)> = moves.iter().map(|&mv| (worth(mv), mv)).collect();
        // Stable: equal values keep the game's order.
        keyed.sort_by(|a, b| {
            let c = b.0.total_cmp(&a.0);
            if order == Order::Worst {
                c.reverse()
            } else {
                c
            }
        });
        *moves = keyed.into_iter().map(|(_, mv)| mv).collect();
    }
    Ok(())
}
