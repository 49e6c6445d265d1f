//! Proof-number search (Allis, van der Meulen and van den Herik 1994):
//! whether a role can force a win, at any depth.
//!
//! The tree is grown one node at a time where a proof or a disproof is
//! cheapest to finish: a node's proof number is how many leaves must still
//! be shown wins to prove it, its disproof number how many must be shown
//! not to be. Where the opponent has few replies that do not lose at once
//! (a runner about to break through), the proof numbers stay small and the
//! search follows that line far deeper than a full-width search of the
//! same size, which is why it finds the long forced wins of race games.
//!
//! The search is exact: a node is proven only from terminal states. States
//! where several roles choose at once count as no win, as in the
//! tactical check (`search/tactics.rs`) that runs it. "Win" is the top
//! reward (goal 100).

use crate::reasoner::{only_mover, won, EvalError, StateMachine};
use crate::search::Limit;
use crate::terms::TermId;

/// Infinity for proof and disproof numbers; sums saturate here.
const INF: u32 = u32::MAX / 4;

/// Nodes a tree may hold (32 bytes each): beyond it, nothing more is
/// proven.
pub const MAX_NODES: usize = 1 << 21;

/// What a search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The role wins by force.
    Win,
    /// The role cannot force a win.
    NoWin,
    /// The budget ended first.
    Unknown,
}

#[derive(Clone, Copy)]
struct Node {
    proof: u32,
    disproof: u32,
    parent: u32,
    /// The mover's move from the parent.
    mv: TermId,
    /// Children `first..first + len` (an expanded node; `len` 0: a leaf).
    first: u32,
    len: u32,
    /// The searched-for role moves here (fixed on expansion).
    or: bool,
    /// Where the expanded node's state lies in [`Tree::states`].
    state: u32,
}

/// An expanded node's state, its legal moves and the role choosing there.
struct Expanded<S> {
    state: S,
    legal: Vec<Vec<TermId>>,
    mover: usize,
}

struct Tree<'a, M: StateMachine> {
    m: &'a mut M,
    role: usize,
    nodes: Vec<Node>,
    states: Vec<Expanded<M::State>>,
}

/// Whether `role` can force a win from `state`, within `limit` (one tick
/// per node expanded). With a win proven, also the winning move where
/// `role` chooses at `state`.
pub fn prove<M: StateMachine>(
    m: &mut M,
    state: &M::State,
    role: usize,
    limit: &mut Limit,
) -> Result<(Outcome, Option<TermId>), EvalError> {
    if m.is_terminal(state)? {
        let outcome = if won(m, state, role)? {
            Outcome::Win
        } else {
            Outcome::NoWin
        };
        return Ok((outcome, None));
    }
    let mut tree = Tree {
        m,
        role,
        nodes: vec![leaf(u32::MAX, TermId(u32::MAX), 1, 1)],
        states: Vec::new(),
    };
    tree.expand(0, Some(state.clone()))?;
    loop {
        let root = tree.nodes[0];
        if root.proof == 0 {
            return Ok((Outcome::Win, tree.winning_move()));
        }
        if root.disproof == 0 {
            return Ok((Outcome::NoWin, None));
        }
        if limit.tick() || tree.nodes.len() >= MAX_NODES {
            return Ok((Outcome::Unknown, None));
        }
        let leaf = tree.most_proving();
        tree.expand(leaf, None)?;
        tree.update_from(tree.nodes[leaf as usize].parent);
    }
}

fn leaf(parent: u32, mv: TermId, proof: u32, disproof: u32) -> Node {
    Node {
        proof,
        disproof,
        parent,
        mv,
        first: 0,
        len: 0,
        or: false,
        state: u32::MAX,
    }
}

impl<M: StateMachine> Tree<'_, M> {
    /// From the root, the child nearest a proof where the role moves and
    /// nearest a disproof where another does, down to an unexpanded node.
    fn most_proving(&self) -> u32 {
        let mut i = 0u32;
        loop {
            let n = self.nodes[i as usize];
            if n.len == 0 {
                return i;
            }
            let kids = n.first..n.first + n.len;
            let number = |k: &u32| {
                let c = &self.nodes[*k as usize];
                if n.or {
                    c.proof
                } else {
                    c.disproof
                }
            };
            i = kids
                .min_by_key(number)
                .expect("an expanded node has children");
        }
    }

    /// Expands node `i`: makes its state (the root's is given), its
    /// children and, for the children that end the game, their numbers.
    /// A node settled by a child (a win where the role moves, an escape
    /// where another does) gets no more children: they would not change it.
    fn expand(&mut self, i: u32, given: Option<M::State>) -> Result<(), EvalError> {
        let state = match given {
            Some(s) => s,
            None => self.child_state(i)?,
        };
        let legal = self.m.all_legal_moves(&state)?;
        let mover = match only_mover(&legal) {
            Some(mover) => mover,
            // Nobody chooses: the one joint move, as if the role chose it.
            None if legal.iter().all(|l| l.len() == 1) => self.role,
            // Several roles choose at once, or someone cannot move.
            None => {
                self.settle(i, INF, 0);
                return Ok(());
            }
        };
        let or = mover == self.role;
        let first = self.nodes.len() as u32;
        let mut joint: Vec<TermId> = legal.iter().map(|l| l[0]).collect();
        for &mv in &legal[mover] {
            joint[mover] = mv;
            let child = self.m.next_state(&state, &joint)?;
            let (proof, disproof) = if !self.m.is_terminal(&child)? {
                (1, 1)
            } else if won(self.m, &child, self.role)? {
                (0, INF)
            } else {
                (INF, 0)
            };
            self.nodes.push(leaf(i, mv, proof, disproof));
            if (or && proof == 0) || (!or && disproof == 0) {
                break;
            }
        }
        let (len, at) = (self.nodes.len() as u32 - first, self.states.len() as u32);
        let n = &mut self.nodes[i as usize];
        (n.first, n.len, n.or, n.state) = (first, len, or, at);
        self.states.push(Expanded {
            state,
            legal,
            mover,
        });
        let (proof, disproof) = self.numbers(i);
        self.settle(i, proof, disproof);
        Ok(())
    }

    fn settle(&mut self, i: u32, proof: u32, disproof: u32) {
        let n = &mut self.nodes[i as usize];
        (n.proof, n.disproof) = (proof, disproof);
    }

    /// The state of unexpanded node `i`, from its parent's.
    fn child_state(&mut self, i: u32) -> Result<M::State, EvalError> {
        let n = self.nodes[i as usize];
        let p = &self.states[self.nodes[n.parent as usize].state as usize];
        let mut joint: Vec<TermId> = p.legal.iter().map(|l| l[0]).collect();
        joint[p.mover] = n.mv;
        let parent = p.state.clone();
        self.m.next_state(&parent, &joint)
    }

    /// Node `i`'s numbers from its children's.
    fn numbers(&self, i: u32) -> (u32, u32) {
        let n = self.nodes[i as usize];
        let kids = &self.nodes[n.first as usize..(n.first + n.len) as usize];
        let min = |f: fn(&Node) -> u32| kids.iter().map(f).min().unwrap_or(INF);
        let sum = |f: fn(&Node) -> u32| kids.iter().map(f).fold(0, |a, b| (a + b).min(INF));
        if n.or {
            (min(|c| c.proof), sum(|c| c.disproof))
        } else {
            (sum(|c| c.proof), min(|c| c.disproof))
        }
    }

    /// Brings the numbers of `i` and its ancestors up to date, stopping
    /// where nothing changes.
    fn update_from(&mut self, mut i: u32) {
        while i != u32::MAX {
            let (proof, disproof) = self.numbers(i);
            let n = &mut self.nodes[i as usize];
            if (n.proof, n.disproof) == (proof, disproof) {
                return;
            }
            (n.proof, n.disproof) = (proof, disproof);
            i = n.parent;
        }
    }

    /// The root's proven child, where the role chooses there.
    fn winning_move(&self) -> Option<TermId> {
        let root = self.nodes[0];
        let choosing = (self.states.first()).is_some_and(|e| e.legal[e.mover].len() > 1);
        if !(root.or && choosing) {
            return None;
        }
        let kids = &self.nodes[root.first as usize..(root.first + root.len) as usize];
        kids.iter().find(|c| c.proof == 0).map(|c| c.mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{load_engine, EngineChoice};
    use crate::search::mcts::solver::tests::take_away;
    use crate::search::Budget;
    use rustc_hash::FxHashMap;

    /// The oracle: whether `r` forces a win from `state`, by exhaustive
    /// search (small games only).
    fn forced_win<M: StateMachine>(
        m: &mut M,
        state: &M::State,
        r: usize,
        memo: &mut FxHashMap<M::State, bool>,
    ) -> bool {
        if let Some(&w) = memo.get(state) {
            return w;
        }
        let w = if m.is_terminal(state).unwrap() {
            won(m, state, r).unwrap()
        } else {
            let legal = m.all_legal_moves(state).unwrap();
            let mover = only_mover(&legal).unwrap_or(r);
            let mut joint: Vec<TermId> = legal.iter().map(|l| l[0]).collect();
            let mut results = legal[mover].iter().map(|&mv| {
                joint[mover] = mv;
                let child = m.next_state(state, &joint).unwrap();
                forced_win(m, &child, r, memo)
            });
            if mover == r {
                results.any(|w| w)
            } else {
                results.all(|w| w)
            }
        };
        memo.insert(state.clone(), w);
        w
    }

    fn unlimited() -> Limit {
        Limit::new(&Budget::nodes(10_000_000))
    }

    #[test]
    fn take_away_is_won_exactly_from_piles_not_a_multiple_of_three() {
        for pile in 1..=12 {
            let mut m = take_away(pile);
            let root = m.initial_state().unwrap();
            let (outcome, mv) = prove(&mut m, &root, 0, &mut unlimited()).unwrap();
            let expected = if pile % 3 == 0 {
                Outcome::NoWin
            } else {
                Outcome::Win
            };
            assert_eq!(outcome, expected, "pile {pile}");
            // The winning move leaves a multiple of three.
            if let Some(mv) = mv {
                let take = if m.terms().display(mv) == "(take 1)" {
                    1
                } else {
                    2
                };
                assert_eq!((pile - take) % 3, 0, "pile {pile}");
            }
            assert_eq!(mv.is_some(), pile % 3 != 0 && pile > 1, "pile {pile}");
            // b, who moves second, wins exactly where a does not.
            let (outcome, _) = prove(&mut m, &root, 1, &mut unlimited()).unwrap();
            assert_eq!(outcome == Outcome::Win, pile % 3 == 0, "pile {pile}");
        }
    }

    #[test]
    fn agrees_with_exhaustive_search_on_tic_tac_toe_positions() {
        // Every position after two, three and four marks, for both roles:
        // the proof-number search says what the exhaustive search says.
        let ttt = include_str!("../../../../../games/ticTacToe.kif");
        let mut m = load_engine(ttt, EngineChoice::Fast).expect("tic-tac-toe loads");
        let mut layer = vec![m.initial_state().unwrap()];
        let (mut memos, mut checked, mut wins) =
            ([FxHashMap::default(), FxHashMap::default()], 0, 0);
        for depth in 1..=4 {
            let mut next = Vec::new();
            for s in &layer {
                for joint in m.legal_joint_moves(s).unwrap() {
                    next.push(m.next_state(s, &joint).unwrap());
                }
            }
            next.sort_by_key(|s| m.fluents(s));
            next.dedup();
            layer = next;
            if depth < 2 {
                continue;
            }
            for s in &layer {
                for (r, memo) in memos.iter_mut().enumerate() {
                    let truth = forced_win(&mut m, s, r, memo);
                    let (outcome, _) = prove(&mut m, s, r, &mut unlimited()).unwrap();
                    let expected = if truth { Outcome::Win } else { Outcome::NoWin };
                    assert_eq!(outcome, expected, "role {r} at {:?}", m.fluents(s));
                    checked += 1;
                    wins += usize::from(truth);
                }
            }
        }
        assert!(
            checked >= 1_000 && wins >= 100,
            "{checked} checked, {wins} wins"
        );
        // From the start nobody forces a win.
        let root = m.initial_state().unwrap();
        for r in 0..2 {
            let (outcome, _) = prove(&mut m, &root, r, &mut unlimited()).unwrap();
            assert_eq!(outcome, Outcome::NoWin);
        }
    }

    #[test]
    fn a_budget_too_small_proves_nothing() {
        let mut m = take_away(11);
        let root = m.initial_state().unwrap();
        let mut tiny = Limit::new(&Budget::nodes(2));
        assert_eq!(
            prove(&mut m, &root, 0, &mut tiny).unwrap(),
            (Outcome::Unknown, None)
        );
    }
}
