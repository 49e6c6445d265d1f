//! Best-first search for one-player games, as the thesis' pseudocode (3.2.1):
//!
//! ```text
//! GGP-Best-First-Search (One-Player-Game) returns BestMoveSoFar
//!   initialState.determineHeuristicValue
//!   Queue = [initialState]
//!   BestTerminalNode = nil (with utility -infinity)
//!   while (timeLeft AND NOT Queue.empty) do
//!     node = Queue.removeElementWithBestHeuristicValue
//!     if node.isTerminal AND node.utility > BestTerminalNode.utility then
//!       BestTerminalNode = node
//!     else
//!       forall successors s of node do
//!         s.determineHeuristicValue
//!         Queue.enqueue s
//!   return moveToReach(max(Queue.elementWithBestHeuristicValue,
//!                         BestTerminalNode.heuristicValue))
//! ```
//!
//! The heuristic value of a terminal node is its utility (its goal value);
//! the queue is ordered by heuristic value, highest first. Decisions the
//! pseudocode leaves open, taken here:
//! - equal heuristic values leave the queue first-in first-out, and a
//!   terminal node of the *same* utility but on a shorter path also replaces
//!   the best terminal node, so with enough time the plan returned is a
//!   shortest one among the best;
//! - terminal nodes have no successors (the game is over), so a terminal
//!   node that does not improve the best one is simply dropped;
//! - no duplicate detection (the pseudocode has none); the node budget
//!   bounds memory;
//! - with a tie between the best queued node and the best terminal node,
//!   the terminal node (a sure result) wins.

use super::{goal_of, searched_move, since, Budget, Heuristic, Limit, Player, SearchResult, Stats};
use crate::clock::now_ms;
use crate::reasoner::{EvalError, StateMachine};
use crate::terms::TermId;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Nodes kept before the search stops (memory bound).
pub const MAX_NODES: usize = 2_000_000;

struct Node<S> {
    state: S,
    parent: Option<u32>,
    /// Our move from the parent.
    mv: Option<TermId>,
    depth: u32,
    value: f64,
    terminal: bool,
}

#[derive(PartialEq)]
struct Item {
    value: f64,
    seq: u64,
    node: u32,
}

impl Eq for Item {}
impl Ord for Item {
    fn cmp(&self, o: &Self) -> Ordering {
        // Highest value first; among equals the earliest enqueued.
        self.value
            .total_cmp(&o.value)
            .then_with(|| o.seq.cmp(&self.seq))
    }
}
impl PartialOrd for Item {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// Result of a best-first search.
#[derive(Clone, Debug)]
pub struct Plan {
    pub result: SearchResult,
    /// Our moves from the root to the chosen node.
    pub moves: Vec<TermId>,
    /// Whether the chosen node is terminal (a complete plan).
    pub complete: bool,
    /// Whether the queue ran empty (the whole tree was searched).
    pub exhausted: bool,
}

/// The search tree: every node generated, the queue of those not yet
/// expanded, the best terminal node found.
struct Tree<S> {
    nodes: Vec<Node<S>>,
    queue: BinaryHeap<Item>,
    /// Enqueue order, for first-in first-out among equal values.
    seq: u64,
    best_terminal: Option<u32>,
}

impl<S> Tree<S> {
    /// The tree of the root node alone, queued.
    fn new(root: Node<S>) -> Tree<S> {
        let mut queue = BinaryHeap::new();
        queue.push(Item {
            value: root.value,
            seq: 0,
            node: 0,
        });
        Tree {
            nodes: vec![root],
            queue,
            seq: 0,
            best_terminal: None,
        }
    }

    /// Adds `node` and queues it.
    fn push(&mut self, node: Node<S>) {
        self.seq += 1;
        let id = self.nodes.len() as u32;
        let value = node.value;
        self.nodes.push(node);
        self.queue.push(Item {
            value,
            seq: self.seq,
            node: id,
        });
    }

    /// The terminal node `id` replaces the best terminal node when its
    /// utility is higher, or equal on a shorter path.
    fn note_terminal(&mut self, id: u32) {
        let n = &self.nodes[id as usize];
        let better = match self.best_terminal {
            None => true,
            Some(b) => {
                let b = &self.nodes[b as usize];
                n.value > b.value || (n.value == b.value && n.depth < b.depth)
            }
        };
        if better {
            self.best_terminal = Some(id);
        }
    }

    /// max(best queued node, best terminal node), terminal on ties; the
    /// root when there is neither.
    fn chosen(&self) -> u32 {
        match (self.queue.peek().map(|i| i.node), self.best_terminal) {
            (Some(q), Some(b)) => {
                if self.nodes[q as usize].value > self.nodes[b as usize].value {
                    q
                } else {
                    b
                }
            }
            (Some(q), None) => q,
            (None, Some(b)) => b,
            (None, None) => 0,
        }
    }

    /// Our moves from the root to node `id`.
    fn moves_to(&self, id: u32) -> Vec<TermId> {
        let mut moves = Vec::new();
        let mut cur = id;
        while let Some(p) = self.nodes[cur as usize].parent {
            moves.extend(self.nodes[cur as usize].mv);
            cur = p;
        }
        moves.reverse();
        moves
    }
}

/// The best-first player.
pub struct BestFirst<M: StateMachine> {
    h: Box<dyn Heuristic<M>>,
    budget: Budget,
    stats: Stats,
}

impl<M: StateMachine> BestFirst<M> {
    pub fn new(h: Box<dyn Heuristic<M>>, budget: Budget) -> Self {
        BestFirst {
            h,
            budget,
            stats: Stats::default(),
        }
    }

    fn value(&mut self, m: &mut M, s: &M::State, role: usize) -> Result<(f64, bool), EvalError> {
        if m.is_terminal(s)? {
            Ok((goal_of(m, s, role)?, true))
        } else {
            Ok((self.h.evaluate(m, s, role)?, false))
        }
    }

    /// Searches from `root` and returns the plan to the best node.
    pub fn search(&mut self, m: &mut M, root: &M::State, role: usize) -> Result<Plan, EvalError> {
        let t0 = now_ms();
        self.h.set_root(m, root)?;
        let mut limit = Limit::new(&self.budget);
        let mut stats = Stats::default();
        let (v0, t0term) = self.value(m, root, role)?;
        let mut tree = Tree::new(Node {
            state: root.clone(),
            parent: None,
            mv: None,
            depth: 0,
            value: v0,
            terminal: t0term,
        });
        let max_depth = self.budget.depth.unwrap_or(u32::MAX);
        while !limit.exhausted() {
            let Some(item) = tree.queue.pop() else { break };
            let id = item.node;
            let (terminal, depth) = {
                let n = &tree.nodes[id as usize];
                (n.terminal, n.depth)
            };
            stats.nodes += 1;
            limit.tick();
            if terminal {
                stats.leaves += 1;
                tree.note_terminal(id);
                continue;
            }
            if depth >= max_depth || tree.nodes.len() >= MAX_NODES {
                continue;
            }
            self.expand(m, &mut tree, id, role)?;
        }
        let exhausted = tree.queue.is_empty();
        let chosen = tree.chosen();
        let moves = tree.moves_to(chosen);
        let fallback = m.legal_moves(root, role)?.first().copied();
        stats.depth = moves.len() as u32;
        stats.elapsed_ms = since(t0);
        let c = &tree.nodes[chosen as usize];
        Ok(Plan {
            result: SearchResult {
                iterations: Vec::new(),
                value: c.value,
                best_move: moves.first().copied().or(fallback),
                solved: c.terminal && exhausted,
                stats,
            },
            complete: c.terminal,
            moves,
            exhausted,
        })
    }

    /// Queues the successors of node `id` (none when a role has no move).
    fn expand(
        &mut self,
        m: &mut M,
        tree: &mut Tree<M::State>,
        id: u32,
        role: usize,
    ) -> Result<(), EvalError> {
        let state = tree.nodes[id as usize].state.clone();
        let depth = tree.nodes[id as usize].depth;
        let legal = m.all_legal_moves(&state)?;
        if legal.iter().any(Vec::is_empty) {
            return Ok(());
        }
        for joint in crate::reasoner::joint_moves(&legal)? {
            let child = m.next_state(&state, &joint)?;
            let (v, t) = self.value(m, &child, role)?;
            tree.push(Node {
                state: child,
                parent: Some(id),
                mv: Some(joint[role]),
                depth: depth + 1,
                value: v,
                terminal: t,
            });
        }
        Ok(())
    }
}

impl<M: StateMachine> Player<M> for BestFirst<M> {
    fn name(&self) -> String {
        let mut parts = vec![self.h.name()];
        parts.extend(self.budget.limits("nodes").into_iter().take(1));
        format!("bestfirst({})", parts.join(", "))
    }
    fn select_move(
        &mut self,
        m: &mut M,
        state: &M::State,
        role: usize,
    ) -> Result<TermId, EvalError> {
        let plan = self.search(m, state, role)?;
        searched_move(plan.result, &mut self.stats, role)
    }
    fn last_stats(&self) -> Stats {
        self.stats.clone()
    }
}
