//! The walkers that grow MCTS-Solver's one tree, one per thread: each
//! walks down under the tree's lock, then runs the engine unlocked (the new
//! node, the decisive-move check, the playout) and adds what it found.

use super::tree::*;
use super::Config;
use crate::reasoner::greedy::Enders;
use crate::reasoner::preferred::Preferred;
use crate::reasoner::{rewards, EvalError, StateMachine};
use crate::search::mcts::root::WIN;
use crate::search::Limit;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// What each thread keeps to itself: its random generator, the moves
/// seen to end games and the moves its playouts prefer (for the game).
pub(super) struct Walker {
    pub(super) rng: fastrand::Rng,
    pub(super) enders: Enders,
    prefer: Option<Preferred>,
}

/// The tree as the threads share it, and the flag that stops them all
/// when one of them fails (a proven root stops each by itself).
pub(super) struct Shared<'a, S> {
    pub(super) tree: Mutex<&'a mut Searcher<S>>,
    pub(super) stop: AtomicBool,
}

impl<'a, S> Shared<'a, S> {
    pub(super) fn lock(&self) -> std::sync::MutexGuard<'_, &'a mut Searcher<S>> {
        // A thread that panicked re-raises its panic in `run_all`.
        self.tree.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Walker {
    pub(super) fn new(seed: u64) -> Walker {
        Walker {
            rng: fastrand::Rng::with_seed(seed),
            enders: Enders::default(),
            prefer: None,
        }
    }

    /// Iterates on the shared tree within `limit` (this thread's): the
    /// playouts made and the deepest descent. The tree is locked while a
    /// descent walks it, and again while what was found and the rewards
    /// are added; the engine's work between runs unlocked.
    pub(super) fn walk<S: Clone + Eq + Hash + Send + 'static, M: StateMachine<State = S>>(
        &mut self,
        m: &mut M,
        shared: &Shared<'_, S>,
        cfg: &Config,
        mut limit: Limit,
    ) -> Result<(u64, u32), EvalError> {
        let (mut playouts, mut depth) = (0u64, 0u32);
        let mut path = Vec::new();
        let roles = m.roles().len();
        let failed = |e: EvalError| {
            shared.stop.store(true, Ordering::Relaxed);
            e
        };
        loop {
            if shared.stop.load(Ordering::Relaxed) || (playouts > 0 && limit.exhausted()) {
                break;
            }
            limit.tick();
            let leaf = {
                let mut tree = shared.lock();
                if tree.nodes[0].proven.is_some() {
                    break;
                }
                tree.descend(&mut self.rng, &mut path)
            };
            let (end, rewards) = self.explore(m, leaf, roles, cfg).map_err(failed)?;
            let mut tree = shared.lock();
            let end = tree.end(end);
            tree.backup(end, &path, &rewards);
            drop(tree);
            playouts += 1;
            depth = depth.max(path.len() as u32);
        }
        Ok((playouts, depth))
    }

    /// The engine's work of an iteration, with the tree unlocked: the
    /// node a descent ended on made or checked, and the rewards (proven,
    /// or a playout's).
    pub(super) fn explore<S: Clone + Eq + Hash + Send + 'static, M: StateMachine<State = S>>(
        &mut self,
        m: &mut M,
        leaf: Leaf<S>,
        roles: usize,
        cfg: &Config,
    ) -> Result<(End<S>, Vec<f64>), EvalError> {
        Ok(match leaf {
            Leaf::Proven(id, rewards) => (End::At(id), rewards),
            Leaf::Expand {
                parent,
                room: false,
                state,
                joint,
                ..
            } => {
                let next = m.next_state(&state, &joint)?;
                (End::At(parent), self.playout(m, &next, roles, cfg)?.0)
            }
            Leaf::Expand {
                parent,
                key,
                state,
                joint,
                exchange,
                ..
            } => {
                let next = m.next_state(&state, &joint)?;
                let node = Searcher::make_node(m, next, cfg, Some(exchange))?;
                let (rewards, won) = match &node.proven {
                    Some(p) => (p.to_vec(), false),
                    None => self.playout(m, &node.state, roles, cfg)?,
                };
                // A playout whose first step won for the node's only
                // mover shows it a decisive move: the node is checked at
                // once, not on its second visit, so that its parent's
                // mover sees a proven loss before it counts as a playout.
                let won = cfg.choke && won && node.mover().is_some_and(|r| rewards[r] >= WIN);
                let found = match won {
                    true => Some(Box::new(check_node(
                        m,
                        &node.state,
                        &node.legal,
                        learnt(cfg),
                    )?)),
                    false => None,
                };
                let rewards = match found.as_ref().and_then(|f| f.win.as_ref()) {
                    Some((_, goals)) => goals.clone(),
                    None => rewards,
                };
                (
                    End::New {
                        parent,
                        key,
                        node,
                        found,
                    },
                    rewards,
                )
            }
            Leaf::Check(id, state, legal) => {
                let checked = check_node(m, &state, &legal, learnt(cfg))?;
                let rewards = match &checked.win {
                    Some((_, goals)) => goals.clone(),
                    None => self.playout(m, &state, roles, cfg)?.0,
                };
                (End::Checked(id, checked), rewards)
            }
        })
    }

    /// A playout from `start`: its rewards, and whether its first step
    /// ended the game.
    pub(super) fn playout<S, M: StateMachine<State = S>>(
        &mut self,
        m: &mut M,
        start: &S,
        roles: usize,
        cfg: &Config,
    ) -> Result<(Vec<f64>, bool), EvalError> {
        let steps = cfg.playout_steps;
        let latched = learnt(cfg).and_then(|e| e.latches.as_ref());
        let moves = latched.map_or(&cfg.progress[..], |l| &l.moves[..]);
        if self.prefer.is_none() && !moves.is_empty() {
            self.prefer = Some(m.preferred(moves));
        }
        let (rng, enders) = (&mut self.rng, &mut self.enders);
        let p = match (cfg.greedy, &self.prefer) {
            (true, _) => m.greedy_playout(start, rng, steps, enders)?,
            (false, Some(prefer)) => m.preferring_playout(start, rng, steps, prefer)?,
            (false, None) => m.random_playout(start, rng, steps)?,
        };
        let r = if p.terminal {
            rewards(m, &p.state)?
        } else {
            vec![0.0; roles]
        };
        Ok((r, p.terminal && p.steps == 1))
    }
}
