//! The node search of alpha-beta: fail-soft alpha-beta on our role's value
//! with the transposition table, PV-first move ordering and tracing.

use super::table::{Entry, Flag, Table};
use super::Out;
use crate::ordering::Order;
use crate::reasoner::content_keys::Key;
use crate::reasoner::StateMachine;
use crate::search::minimax::order_moves;
use crate::search::{
    chance_replies, chance_turn, goal_of, replies, turn_of, Budget, Heuristic, Limit, Stats, Stop,
    Turn, MAX_DEPTH,
};
use crate::terms::TermId;
use crate::trace::{joint_label, BoundKind, Event, NodeKind, Pruned, Trace};

pub(super) struct Cx<'a, M: StateMachine> {
    pub(super) m: &'a mut M,
    pub(super) h: &'a mut dyn Heuristic<M>,
    pub(super) role: usize,
    pub(super) limit: &'a mut Limit,
    pub(super) stats: Stats,
    pub(super) tt: Option<Table<'a>>,
    pub(super) tt_capacity: usize,
    /// See [`super::Config::helper`].
    pub(super) helper: usize,
    pub(super) ordering: bool,
    pub(super) order: Order,
    pub(super) budget: Budget,
    pub(super) trace: Option<&'a mut Trace>,
    /// Best root move so far in this iteration (for a cut-short first
    /// iteration).
    pub(super) root_best: Option<(TermId, f64)>,
    /// GDL-II's chance role, whose nodes are averaged.
    pub(super) chance: Option<usize>,
}

/// A node whose moves are being searched: what its move loops read.
struct Node<'n, S> {
    s: &'n S,
    depth: u32,
    ply: u32,
    /// Its trace node.
    id: Option<u32>,
    /// The window it was entered with.
    alpha0: f64,
    beta0: f64,
    legal: &'n [Vec<TermId>],
    /// The table's best joint move, tried first.
    tt_best: Option<&'n [TermId]>,
}

/// What a node's move loop found.
struct Scan {
    best: f64,
    best_joint: Option<Vec<TermId>>,
    /// No heuristic estimate influenced `best`.
    solved: bool,
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

    #[inline]
    fn bound(&mut self, id: Option<u32>, bound: BoundKind, value: f64) {
        self.event(id, |node| Event::Bound { node, bound, value });
    }

    #[inline]
    fn cutoff(&mut self, id: Option<u32>, alpha: f64, beta: f64, value: f64, pruned: Vec<Pruned>) {
        self.stats.cutoffs += 1;
        self.event(id, |node| Event::Cutoff {
            node,
            alpha,
            beta,
            value,
            pruned,
        });
    }

    /// The table's key of `s`, `None` without a table.
    fn key(&mut self, s: &M::State) -> Option<Key> {
        self.tt.is_some().then(|| self.m.state_key(s))
    }

    fn store(&mut self, key: Option<Key>, e: Entry) {
        if let (Some(tt), Some(k)) = (&mut self.tt, key) {
            tt.insert(k, e, self.tt_capacity);
        }
    }

    /// The table's entry for the state of `key`: the fields a node needs
    /// (the value, its bound, whether it is solved, and the best joint move).
    fn lookup(&self, key: Option<Key>) -> Option<Entry> {
        match (&self.tt, key) {
            (Some(tt), Some(k)) => tt.get(k),
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
    pub(super) fn ab(
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
            return self.leaf_node(s, parent, ply, mv, alpha0, beta0, true);
        }
        let key = self.key(s);
        let mut tt_best: Option<Box<[Key]>> = None;
        if let Some(e) = self.lookup(key) {
            if e.answers(depth, alpha0, beta0) {
                return self.table_hit(s, e, parent, ply, mv, alpha0, beta0);
            }
            if self.ordering {
                tt_best = e.best;
            }
        }
        if depth == 0 || ply >= MAX_DEPTH {
            return self.leaf_node(s, parent, ply, mv, alpha0, beta0, false);
        }
        let mut legal = self.m.all_legal_moves(s)?;
        if legal.iter().any(Vec::is_empty) {
            return self.leaf_node(s, parent, ply, mv, alpha0, beta0, true);
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
            _ if chance_turn(&legal, self.role, self.chance) => NodeKind::Chance,
            Turn::Forced => NodeKind::Forced,
            Turn::Ours | Turn::Both => NodeKind::Max,
            Turn::Theirs => NodeKind::Min,
        };
        let id = self.enter(s, parent, ply, kind, mv, false, alpha0, beta0);
        let node = Node {
            s,
            depth,
            ply,
            id,
            alpha0,
            beta0,
            legal: &legal,
            tt_best: tt_best.as_deref(),
        };
        let scan = if kind == NodeKind::Chance {
            self.chance(&node)?
        } else if turn == Turn::Both {
            self.simultaneous(&node)?
        } else {
            self.sequential(&node, kind != NodeKind::Min)?
        };
        let best = scan.best;
        self.event(id, |node| Event::Return { node, value: best });
        // A chance node's mean is exact: its children had the full window.
        let (a, b) = match kind {
            NodeKind::Chance => (f64::NEG_INFINITY, f64::INFINITY),
            _ => (alpha0, beta0),
        };
        self.store_node(key, depth, a, b, &scan);
        Ok(Out {
            value: scan.best,
            solved: scan.solved,
            best: scan.best_joint,
        })
    }

    /// A leaf: the goal value when `terminal` (or a role has no move),
    /// the heuristic's estimate otherwise.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn leaf_node(
        &mut self,
        s: &M::State,
        parent: Option<u32>,
        ply: u32,
        mv: Option<String>,
        alpha0: f64,
        beta0: f64,
        terminal: bool,
    ) -> Result<Out, Stop> {
        let id = self.enter(s, parent, ply, NodeKind::Leaf, mv, false, alpha0, beta0);
        let v = if terminal {
            goal_of(self.m, s, self.role)?
        } else {
            self.h.evaluate(self.m, s, self.role)?
        };
        self.leaf(id, v, terminal);
        Ok(Out {
            value: v,
            solved: terminal,
            best: None,
        })
    }

    /// A node answered by the table entry `e`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn table_hit(
        &mut self,
        s: &M::State,
        e: Entry,
        parent: Option<u32>,
        ply: u32,
        mv: Option<String>,
        alpha0: f64,
        beta0: f64,
    ) -> Result<Out, Stop> {
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
        Ok(Out {
            value,
            solved,
            best,
        })
    }

    /// Records a searched node's value in the table.
    #[inline]
    fn store_node(&mut self, key: Option<Key>, depth: u32, alpha0: f64, beta0: f64, scan: &Scan) {
        let flag = Flag::of(scan.best, alpha0, beta0);
        let best_keys = key.and(scan.best_joint.as_ref()).map(|j| {
            let keys: Box<[Key]> = j.iter().map(|&mv| self.m.term_key(mv)).collect();
            keys
        });
        let entry = Entry {
            value: scan.best,
            depth,
            flag,
            solved: scan.solved,
            best: best_keys,
        };
        self.store(key, entry);
    }

    /// Several roles choose, ours among them: we maximise over our moves the
    /// minimum over the others' replies.
    fn simultaneous(&mut self, n: &Node<'_, M::State>) -> Result<Scan, Stop> {
        let (mut alpha, beta) = (n.alpha0, n.beta0);
        let mut scan = Scan {
            best: f64::NEG_INFINITY,
            best_joint: None,
            solved: true,
        };
        let mut ours = n.legal[self.role].clone();
        if let Some(b) = n.tt_best {
            if let Some(i) = ours.iter().position(|&o| o == b[self.role]) {
                ours[..=i].rotate_right(1);
            }
        }
        self.diversify(n.ply, &mut ours);
        for (i, &our) in ours.iter().enumerate() {
            let (worst, worst_joint) = self.worst_reply(n, our, alpha, beta, &mut scan.solved)?;
            if worst > scan.best {
                scan.best = worst;
                scan.best_joint = worst_joint;
                if n.ply == 0 {
                    self.root_best = Some((our, scan.best));
                }
            }
            if scan.best > alpha {
                alpha = scan.best;
                self.bound(n.id, BoundKind::Alpha, scan.best);
            }
            if alpha >= beta && i + 1 < ours.len() {
                let pruned = self.pruned_moves(&ours[i + 1..]);
                self.cutoff(n.id, alpha, beta, scan.best, pruned);
                break;
            }
        }
        Ok(scan)
    }

    /// The others' best reply to our move `our` (a min node under the
    /// trace node of `n`) and its joint move.
    #[inline]
    fn worst_reply(
        &mut self,
        n: &Node<'_, M::State>,
        our: TermId,
        alpha: f64,
        beta: f64,
        solved: &mut bool,
    ) -> Result<(f64, Option<Vec<TermId>>), Stop> {
        let label = self.trace.as_ref().map(|_| self.m.terms().display(our));
        if chance_replies(n.legal, self.role, self.chance) {
            let rid = self.enter(n.s, n.id, n.ply, NodeKind::Chance, label, true, alpha, beta);
            let reps = replies(n.legal, self.role, our)?;
            let node = Node {
                legal: n.legal,
                id: rid,
                ..*n
            };
            let scan = self.chance_over(&node, &reps)?;
            *solved &= scan.solved;
            let mean = scan.best;
            self.event(rid, |node| Event::Return { node, value: mean });
            return Ok((mean, reps.first().cloned()));
        }
        let rid = self.enter(n.s, n.id, n.ply, NodeKind::Min, label, true, alpha, beta);
        let mut rbeta = beta;
        let mut worst = f64::INFINITY;
        let mut worst_joint = None;
        let reps = replies(n.legal, self.role, our)?;
        for (j, joint) in reps.iter().enumerate() {
            let label = self.label(n.legal, joint);
            let child = self.m.next_state(n.s, joint)?;
            let o = self.ab(&child, n.depth - 1, n.ply + 1, alpha, rbeta, rid, label)?;
            *solved &= o.solved;
            if o.value < worst {
                worst = o.value;
                worst_joint = Some(joint.clone());
            }
            if worst < rbeta {
                rbeta = worst;
                self.bound(rid, BoundKind::Beta, worst);
            }
            if worst <= alpha && j + 1 < reps.len() {
                let pruned = self.pruned(n.legal, &reps[j + 1..]);
                self.cutoff(rid, alpha, rbeta, worst, pruned);
                break;
            }
        }
        self.event(rid, |node| Event::Return { node, value: worst });
        Ok((worst, worst_joint))
    }

    /// Chance chooses: the mean of its children's values, each searched
    /// with the full window (a bound on one child bounds no mean), so
    /// nothing below a chance node is cut by a window from above it.
    fn chance(&mut self, n: &Node<'_, M::State>) -> Result<Scan, Stop> {
        let joints = crate::reasoner::joint_moves(n.legal)?;
        self.chance_over(n, &joints)
    }

    /// The mean over `joints` (chance's moves) below `n`.
    fn chance_over(
        &mut self,
        n: &Node<'_, M::State>,
        joints: &[Vec<TermId>],
    ) -> Result<Scan, Stop> {
        let (mut sum, mut solved) = (0.0, true);
        for joint in joints {
            let label = self.label(n.legal, joint);
            let child = self.m.next_state(n.s, joint)?;
            let (lo, hi) = (f64::NEG_INFINITY, f64::INFINITY);
            let o = self.ab(&child, n.depth - 1, n.ply + 1, lo, hi, n.id, label)?;
            sum += o.value;
            solved &= o.solved;
        }
        Ok(Scan {
            best: sum / joints.len() as f64,
            best_joint: None,
            solved,
        })
    }

    /// At most one role chooses (or ours does not): a max node when it is
    /// ours (`maximise`), a min node otherwise, over the joint moves.
    fn sequential(&mut self, n: &Node<'_, M::State>, maximise: bool) -> Result<Scan, Stop> {
        let (mut alpha, mut beta) = (n.alpha0, n.beta0);
        let mut scan = Scan {
            best: if maximise {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            },
            best_joint: None,
            solved: true,
        };
        let mut joints = crate::reasoner::joint_moves(n.legal)?;
        if let Some(b) = n.tt_best {
            if let Some(i) = joints.iter().position(|j| j[..] == b[..]) {
                joints[..=i].rotate_right(1);
            }
        }
        self.diversify(n.ply, &mut joints);
        for (i, joint) in joints.iter().enumerate() {
            let label = self.label(n.legal, joint);
            let child = self.m.next_state(n.s, joint)?;
            let o = self.ab(&child, n.depth - 1, n.ply + 1, alpha, beta, n.id, label)?;
            scan.solved &= o.solved;
            let v = o.value;
            if (maximise && v > scan.best) || (!maximise && v < scan.best) {
                scan.best = v;
                scan.best_joint = Some(joint.clone());
                if n.ply == 0 {
                    self.root_best = Some((joint[self.role], scan.best));
                }
            }
            let best = scan.best;
            if maximise && best > alpha {
                alpha = best;
                self.bound(n.id, BoundKind::Alpha, best);
            } else if !maximise && best < beta {
                beta = best;
                self.bound(n.id, BoundKind::Beta, best);
            }
            if alpha >= beta && i + 1 < joints.len() {
                let pruned = self.pruned(n.legal, &joints[i + 1..]);
                self.cutoff(n.id, alpha, beta, best, pruned);
                break;
            }
        }
        Ok(scan)
    }

    /// The trace's labels of the joint moves a cutoff skipped (none without
    /// a trace).
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

    /// The trace's labels of our moves a cutoff skipped.
    fn pruned_moves(&self, rest: &[TermId]) -> Vec<Pruned> {
        match self.trace {
            Some(_) => rest
                .iter()
                .map(|&o| Pruned {
                    mv: self.m.terms().display(o),
                })
                .collect(),
            None => Vec::new(),
        }
    }
}
