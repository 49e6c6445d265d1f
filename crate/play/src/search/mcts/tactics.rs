//! Forced wins and losses, a few moves deep at full width and deeper by
//! proof numbers, proven beside MCTS-Solver's tree (`tactics=on`).
//!
//! UCT is known to walk into shallow traps: a move whose refutation is a
//! forced win a few plies deep can look best on the average of random
//! playouts (Ramanujan, Sabharwal and Selman 2010). Champions add an exact
//! search beside the tree (Sancho's local search). This is the general,
//! full-width form: where our role alone moves at the root, an iteratively
//! deepened AND/OR search (odd depths 1, 3, 5, …, within a budget) proves
//! - a **forced win** for us: that move is played, and
//! - **forced losses**: moves after which another role has a forced win of
//!   that depth; the player takes the best-ranked move not proven lost.
//!
//! Moves that won or escaped at earlier nodes are tried first (the
//! history heuristic), which orders the search and proves nothing new.
//!
//! The full-width search has 40% of the budget. Proof-number searches
//! ([`super::proof_number`]) have the rest, for the long forced lines it
//! cannot reach: a win at the root, then losses in the ranking's order up
//! to the first move not proven lost, at any depth.
//!
//! A player whose ranking changes while the check runs (the tree beside
//! it) ends with [`confirm`]: the move ranked first by then, searched at
//! full width to the depth completed.
//!
//! Only proofs change the choice: a search cut short by its budget proves
//! nothing, and states where several roles choose at once count as no win
//! for anybody. "Win" is the top reward (goal 100).

use super::proof_number::{self, Outcome};
use crate::reasoner::{only_mover, won, EvalError, StateMachine};
use crate::search::{Budget, Limit};
use crate::terms::TermId;
use rustc_hash::{FxHashMap, FxHashSet};

/// Deepest search tried (plies).
const MAX_DEPTH: u8 = 15;

/// States remembered before the table is cleared (bounds memory).
const MAX_KNOWN: usize = 1 << 20;

/// What the search found at the root (the tests' view of [`prove`]).
#[cfg(test)]
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Verdict {
    /// A move that wins by force.
    pub winning: Option<TermId>,
    /// The best-ranked move not proven lost, when it is not the first of
    /// the ranking.
    pub instead: Option<TermId>,
    /// The deepest depth completed (plies; 0: none).
    pub depth: u8,
}

#[cfg(test)]
impl Verdict {
    /// The move to play instead of the ranking's first, if any.
    pub fn choice(&self) -> Option<TermId> {
        self.winning.or(self.instead)
    }
}

/// Per state and role: no win within `none_to` plies, a win within `win_at`.
#[derive(Clone, Copy)]
struct Known {
    none_to: u8,
    win_at: u8,
}

/// What the searches proved per state and role: kept by a player from one
/// move to the next (the facts stay true), so the states met again cost
/// nothing, and so a move's search does not end by freeing its table.
pub struct Table<S> {
    known: FxHashMap<(S, usize), Known>,
    /// Per role and move, how often and how deep it won or escaped: tried
    /// first (the history heuristic). It orders moves only, so it changes
    /// what a budget reaches, never what is proven.
    history: FxHashMap<(usize, TermId), u32>,
}

impl<S> Default for Table<S> {
    fn default() -> Table<S> {
        Table {
            known: FxHashMap::default(),
            history: FxHashMap::default(),
        }
    }
}

impl<S> Table<S> {
    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.known.clear();
        self.history.clear();
    }
}

struct Search<'a, M: StateMachine> {
    m: &'a mut M,
    limit: Limit,
    known: &'a mut FxHashMap<(M::State, usize), Known>,
    history: &'a mut FxHashMap<(usize, TermId), u32>,
    /// Moves seen to end a game in playouts.
    enders: FxHashSet<TermId>,
}

enum Failed {
    /// Out of budget: nothing is proven.
    Time,
    Eval(EvalError),
}

impl From<EvalError> for Failed {
    fn from(e: EvalError) -> Failed {
        Failed::Eval(e)
    }
}

/// What a check proved at the root, for a player whose ranking may change
/// while it runs (a tree search beside it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Proofs {
    /// A move that wins by force.
    pub winning: Option<TermId>,
    /// Moves after which another role wins by force, each proven at a
    /// depth where some move was not (the moves lost latest are kept).
    pub lost: Vec<TermId>,
    /// The deepest depth completed (plies; 0: none).
    pub depth: u8,
}

/// Checks `role`'s moves at `root`, `ranked` best first (each a legal
/// move), within `budget`. Returns the default verdict (no change) where
/// `role` does not move alone.
#[cfg(test)]
pub fn check<M: StateMachine>(
    m: &mut M,
    root: &M::State,
    role: usize,
    ranked: &[TermId],
    budget: &Budget,
) -> Result<Verdict, EvalError> {
    if ranked.is_empty() {
        return Ok(Verdict::default());
    }
    let (enders, mut table) = (FxHashSet::default(), Table::default());
    let mut rank = |_: &[TermId]| ranked.to_vec();
    let proofs = prove(m, root, role, &mut rank, enders, &mut table, budget)?;
    let first = ranked.iter().find(|mv| !proofs.lost.contains(mv));
    Ok(Verdict {
        winning: proofs.winning,
        instead: first.filter(|&&mv| mv != ranked[0]).copied(),
        depth: proofs.depth,
    })
}

/// Proves what it can about `role`'s moves at `root` within `budget`,
/// deepening by two plies at a time. Before each depth `rank` is told the
/// moves proven lost so far and gives the moves best first: losses are
/// looked for in that order up to the first move not lost, so the
/// best-ranked moves are the ones checked. `enders`:
/// moves that won games in playouts ([`crate::reasoner::greedy::Enders`]),
/// where known the only ones tried on a search's last ply. `table`: what
/// earlier searches of this game proved.
pub fn prove<M: StateMachine>(
    m: &mut M,
    root: &M::State,
    role: usize,
    rank: &mut dyn FnMut(&[TermId]) -> Vec<TermId>,
    enders: FxHashSet<TermId>,
    table: &mut Table<M::State>,
    budget: &Budget,
) -> Result<Proofs, EvalError> {
    let legal = m.all_legal_moves(root)?;
    let mut proofs = Proofs::default();
    if only_mover(&legal) != Some(role) {
        return Ok(proofs);
    }
    let moves = legal[role].clone();
    let children = after_each(m, root, &legal, role, &moves)?;
    let others: Vec<usize> = (0..legal.len()).filter(|&r| r != role).collect();
    // Older successes count half: the position has moved on.
    table.history.values_mut().for_each(|h| *h /= 2);
    let mut whole = Limit::new(budget);
    let mut s = Search::new(m, table, enders, &budget.share(WIDE_SHARE));
    let mut lost = Vec::new();
    let mut depth = 1u8;
    while depth <= MAX_DEPTH {
        let proven: Vec<TermId> = lost.iter().map(|&i| moves[i]).collect();
        let order = in_order(&moves, &rank(&proven));
        match s.round(&children, &order, role, &others, &mut lost, depth) {
            Ok(Some(i)) => {
                proofs.winning = Some(moves[i]);
                proofs.depth = depth;
                break;
            }
            Ok(None) => proofs.depth = depth,
            // Out of time, or every move lost: what is proven stands.
            Err(Failed::Time) => break,
            Err(Failed::Eval(e)) => return Err(e),
        }
        depth += 2;
    }
    if proofs.winning.is_none() {
        let mut win = Limit::new(&budget.share((1.0 - WIDE_SHARE) / 2.0));
        proofs.winning = match proof_number::prove(s.m, root, role, &mut win)? {
            (Outcome::Win, mv) => mv,
            _ => None,
        };
    }
    if proofs.winning.is_none() {
        let deep = Deep {
            moves: &moves,
            children: &children,
            others: &others,
        };
        deep.losses(s.m, rank, &mut lost, &mut whole)?;
    }
    proofs.lost = lost.into_iter().map(|i| moves[i]).collect();
    Ok(proofs)
}

/// Looks again, within `budget`, at the move `rank` now puts first, for
/// a player whose ranking changes while [`prove`] runs: a move that rose
/// to the top after its depth began was never looked at. The move is
/// searched at full width to the deepest depth `proofs` completed; proven
/// lost, it joins `proofs.lost` and the next one is looked at, until one
/// is not proven lost. As in [`prove`], the last move not lost is never
/// added, and a search cut short proves nothing.
#[allow(clippy::too_many_arguments)]
pub fn confirm<M: StateMachine>(
    m: &mut M,
    root: &M::State,
    role: usize,
    rank: &mut dyn FnMut(&[TermId]) -> Vec<TermId>,
    enders: FxHashSet<TermId>,
    table: &mut Table<M::State>,
    proofs: &mut Proofs,
    budget: &Budget,
) -> Result<(), EvalError> {
    let legal = m.all_legal_moves(root)?;
    if proofs.winning.is_some() || proofs.depth == 0 || only_mover(&legal) != Some(role) {
        return Ok(());
    }
    let moves = legal[role].clone();
    let others: Vec<usize> = (0..legal.len()).filter(|&r| r != role).collect();
    let mut s = Search::new(m, table, enders, budget);
    loop {
        let open: Vec<usize> = in_order(&moves, &rank(&proofs.lost))
            .into_iter()
            .filter(|&i| !proofs.lost.contains(&moves[i]))
            .collect();
        let [first, _, ..] = open[..] else {
            return Ok(());
        };
        let child = after_each(s.m, root, &legal, role, &[moves[first]])?;
        match s.beaten(&child[0], &others, proofs.depth) {
            Ok(true) => proofs.lost.push(moves[first]),
            Ok(false) | Err(Failed::Time) => return Ok(()),
            Err(Failed::Eval(e)) => return Err(e),
        }
    }
}

/// The full-width search's share of the budget. Proof-number searches
/// have the rest: half of it for a win at the root, then what is left for
/// losses.
const WIDE_SHARE: f64 = 0.4;

/// The root's moves, the states after them and the other roles, for the
/// proof-number searches beyond the full width.
struct Deep<'a, S> {
    moves: &'a [TermId],
    children: &'a [S],
    others: &'a [usize],
}

impl<S> Deep<'_, S> {
    /// Forced losses at any depth, looked for in `rank`'s order up to the
    /// first move not proven lost (added to `lost`). As in the full-width
    /// rounds, where every move is lost nothing is added.
    fn losses<M: StateMachine<State = S>>(
        &self,
        m: &mut M,
        rank: &mut dyn FnMut(&[TermId]) -> Vec<TermId>,
        lost: &mut Vec<usize>,
        limit: &mut Limit,
    ) -> Result<(), EvalError> {
        let proven: Vec<TermId> = lost.iter().map(|&i| self.moves[i]).collect();
        let mut found = Vec::new();
        for i in in_order(self.moves, &rank(&proven)) {
            if lost.contains(&i) {
                continue;
            }
            let mut beaten = false;
            for &o in self.others {
                if !beaten {
                    let (outcome, _) = proof_number::prove(m, &self.children[i], o, limit)?;
                    beaten = outcome == Outcome::Win;
                }
            }
            if !beaten {
                lost.extend(found);
                return Ok(());
            }
            found.push(i);
        }
        Ok(())
    }
}

/// Indices into `moves` in the order of `ranked`, the moves it leaves out
/// after them.
fn in_order(moves: &[TermId], ranked: &[TermId]) -> Vec<usize> {
    let mut order: Vec<usize> = (ranked.iter())
        .filter_map(|mv| moves.iter().position(|x| x == mv))
        .collect();
    let rest: Vec<usize> = (0..moves.len()).filter(|i| !order.contains(i)).collect();
    order.extend(rest);
    order
}

impl<'a, M: StateMachine> Search<'a, M> {
    fn new(
        m: &'a mut M,
        table: &'a mut Table<M::State>,
        enders: FxHashSet<TermId>,
        budget: &Budget,
    ) -> Search<'a, M> {
        Search {
            m,
            limit: Limit::new(budget),
            known: &mut table.known,
            history: &mut table.history,
            enders,
        }
    }

    /// One depth: a forced win among our moves (`children`, checked in
    /// `order`), else the moves proven lost, in `order` up to the first
    /// one after which no other role wins by force (added to `lost`).
    /// Where every move is lost, `lost` is left as it was and the search
    /// ends ([`Failed::Time`]: deeper, nothing more is learnt).
    fn round(
        &mut self,
        children: &[M::State],
        order: &[usize],
        role: usize,
        others: &[usize],
        lost: &mut Vec<usize>,
        depth: u8,
    ) -> Result<Option<usize>, Failed> {
        for &i in order {
            if self.wins(&children[i], role, depth - 1)? {
                return Ok(Some(i));
            }
        }
        let before = lost.len();
        for &i in order {
            if lost[..before].contains(&i) {
                continue;
            }
            if !self.beaten_at(&children[i], others, depth)? {
                return Ok(None);
            }
            lost.push(i);
        }
        lost.truncate(before);
        Err(Failed::Time)
    }

    /// Whether another role (`others`) wins by force from `state` within
    /// `depth` plies, the shallow depths first (they settle most cheaply).
    fn beaten(&mut self, state: &M::State, others: &[usize], depth: u8) -> Result<bool, Failed> {
        for d in (1..=depth).step_by(2) {
            if self.beaten_at(state, others, d)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether another role (`others`) wins by force from `state` within
    /// `d` plies.
    fn beaten_at(&mut self, state: &M::State, others: &[usize], d: u8) -> Result<bool, Failed> {
        for &o in others {
            if self.wins(state, o, d)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether `r` has a forced win from `state` within `d` plies.
    fn wins(&mut self, state: &M::State, r: usize, d: u8) -> Result<bool, Failed> {
        if self.limit.tick() {
            return Err(Failed::Time);
        }
        if self.m.is_terminal(state)? {
            return Ok(won(self.m, state, r)?);
        }
        if d == 0 {
            return Ok(false);
        }
        let key = (state.clone(), r);
        if let Some(k) = self.known.get(&key) {
            if k.win_at <= d {
                return Ok(true);
            }
            if k.none_to >= d {
                return Ok(false);
            }
        }
        let result = self.expand(state, r, d)?;
        if self.known.len() >= MAX_KNOWN {
            self.known.clear();
        }
        let k = self.known.entry(key).or_insert(Known {
            none_to: 0,
            win_at: u8::MAX,
        });
        if result {
            k.win_at = k.win_at.min(d);
        } else {
            k.none_to = k.none_to.max(d);
        }
        Ok(result)
    }

    /// The children of a non-terminal `state`: `r` needs one winning child
    /// where it moves, every child winning where another role moves.
    fn expand(&mut self, state: &M::State, r: usize, d: u8) -> Result<bool, Failed> {
        let legal = self.m.all_legal_moves(state)?;
        let mover = match only_mover(&legal) {
            Some(mover) => mover,
            // Nobody chooses: the one joint move.
            None if legal.iter().all(|l| l.len() == 1) => r,
            // Several roles choose at once, or someone cannot move.
            None => return Ok(false),
        };
        if mover != r {
            return self.every_reply_wins(state, &legal, mover, r, d);
        }
        // On the last ply only a move that ends the game wins: where the
        // playouts have seen moves win games, only those are tried (a win
        // missed there proves less, never something false).
        let mut moves: Vec<TermId> = if d == 1 && !self.enders.is_empty() {
            (legal[r].iter().copied())
                .filter(|mv| self.enders.contains(mv))
                .collect()
        } else {
            legal[r].clone()
        };
        self.order(r, &mut moves);
        let children = after_each(self.m, state, &legal, r, &moves)?;
        // Games ending at once first: they settle most nodes cheaply.
        let mut open = Vec::with_capacity(children.len());
        for (mv, c) in moves.into_iter().zip(children) {
            if self.m.is_terminal(&c)? {
                if won(self.m, &c, r)? {
                    self.credit(r, mv, d);
                    return Ok(true);
                }
            } else if d > 1 {
                open.push((mv, c));
            }
        }
        for (mv, c) in &open {
            if self.wins(c, r, d - 1)? {
                self.credit(r, *mv, d);
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Role `r`'s moves that won or escaped before first, by their history.
    fn order(&self, r: usize, moves: &mut [TermId]) {
        let h = |mv: &TermId| self.history.get(&(r, *mv)).copied().unwrap_or(0);
        moves.sort_by_key(|mv| std::cmp::Reverse(h(mv)));
    }

    /// Role `r`'s `mv` settled a node `d` plies from the horizon: deeper
    /// counts more.
    fn credit(&mut self, r: usize, mv: TermId, d: u8) {
        let h = self.history.entry((r, mv)).or_insert(0);
        *h = h.saturating_add(u32::from(d) * u32::from(d));
    }

    /// Where another role (`mover`) chooses: whether each of its moves
    /// leaves `r` a win within `d - 1` plies. The children are made one at
    /// a time, since the first escape settles it.
    fn every_reply_wins(
        &mut self,
        state: &M::State,
        legal: &[Vec<TermId>],
        mover: usize,
        r: usize,
        d: u8,
    ) -> Result<bool, Failed> {
        let mut joint: Vec<TermId> = legal.iter().map(|l| l[0]).collect();
        let mut replies = legal[mover].clone();
        self.order(mover, &mut replies);
        for mv in replies {
            joint[mover] = mv;
            let child = self.m.next_state(state, &joint)?;
            if !self.wins(&child, r, d - 1)? {
                self.credit(mover, mv, d);
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// The states after each of `mover`'s `moves`, every other role making its
/// only move (`legal`: each role's moves at `state`).
fn after_each<M: StateMachine>(
    m: &mut M,
    state: &M::State,
    legal: &[Vec<TermId>],
    mover: usize,
    moves: &[TermId],
) -> Result<Vec<M::State>, EvalError> {
    let mut joint: Vec<_> = legal.iter().map(|l| l[0]).collect();
    let mut children = Vec::with_capacity(moves.len());
    for &mv in moves {
        joint[mover] = mv;
        children.push(m.next_state(state, &joint)?);
    }
    Ok(children)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Engine, EngineState};
    use crate::search::mcts::solver::tests::take_away;

    /// Take-away from `pile`, its initial state and a's moves there:
    /// (take 1) and (take 2).
    fn take_away_start(pile: u32) -> (Engine, EngineState, TermId, TermId) {
        let mut m = take_away(pile);
        let root = m.initial_state().unwrap();
        let legal = m.legal_moves(&root, 0).unwrap();
        let find = |name: &str| {
            *legal
                .iter()
                .find(|&&t| m.terms().display(t) == name)
                .unwrap()
        };
        let (take1, take2) = (find("(take 1)"), find("(take 2)"));
        (m, root, take1, take2)
    }

    #[test]
    fn finds_the_forced_win_deep_in_take_away() {
        // From 7, taking 1 leaves a multiple of three: a forced win, proven
        // only at depth 5 (a, b, a, b, a takes the last).
        let (mut m, root, take1, take2) = take_away_start(7);
        // The ranking prefers the losing move; the verdict overrides it.
        let v = check(&mut m, &root, 0, &[take2, take1], &Budget::nodes(100_000)).unwrap();
        assert_eq!(v.winning, Some(take1));
        assert_eq!(v.depth, 5);
    }

    #[test]
    fn avoids_a_move_that_loses_by_force_and_trusts_nothing_unproven() {
        // From 8, (take 2) leaves 6 and wins; (take 1) leaves 7, and b
        // takes 1 and wins.
        let (mut m, root, take1, take2) = take_away_start(8);
        // Too small a budget proves nothing: the ranking stands.
        let v = check(&mut m, &root, 0, &[take1, take2], &Budget::nodes(3)).unwrap();
        assert_eq!((v.winning, v.instead), (None, None));
        // The win of (take 2) takes b, a, b, a after it: proven at depth 5,
        // where wins are looked for before losses.
        let v = check(&mut m, &root, 0, &[take1, take2], &Budget::nodes(100_000)).unwrap();
        assert_eq!(v.winning, Some(take2));
        // In a lost position (9: every move leaves b a winning pile) both
        // moves are proven lost at depth 5: nothing is changed, and the
        // depth completed is the last one with a move not proven lost.
        let (mut m, root, take1, take2) = take_away_start(9);
        let v = check(&mut m, &root, 0, &[take1, take2], &Budget::nodes(100_000)).unwrap();
        assert_eq!((v.winning, v.instead, v.depth), (None, None, 3));
    }

    #[test]
    fn a_shallow_loss_is_avoided_before_the_win_is_proven() {
        // From 4, (take 2) lets b take the last two; (take 1) wins at depth
        // 3. A budget whose full-width share (three of its six nodes)
        // ends within depth 1 still proves the loss, by the proof-number
        // search.
        let (mut m, root, take1, take2) = take_away_start(4);
        let v = check(&mut m, &root, 0, &[take2, take1], &Budget::nodes(6)).unwrap();
        assert_eq!((v.winning, v.instead, v.depth), (None, Some(take1), 0));
        assert_eq!(v.choice(), Some(take1));
        let v = check(&mut m, &root, 0, &[take2, take1], &Budget::nodes(1000)).unwrap();
        assert_eq!((v.winning, v.depth), (Some(take1), 3));
    }

    #[test]
    fn the_last_ply_tries_only_the_moves_seen_ending_games() {
        // From 4, (take 1) wins at depth 3 and (take 2) loses at depth 1.
        let (mut m, root, take1, take2) = take_away_start(4);
        let budget = Budget::nodes(10_000);
        let mut told = Vec::new();
        let both = FxHashSet::from_iter([take1, take2]);
        let mut rank = |lost: &[TermId]| {
            told.push(lost.to_vec());
            vec![take2, take1]
        };
        let p = prove(
            &mut m,
            &root,
            0,
            &mut rank,
            both,
            &mut Table::default(),
            &budget,
        )
        .unwrap();
        assert_eq!(
            (p.winning, p.depth, &p.lost[..]),
            (Some(take1), 3, &[take2][..])
        );
        // The ranking is read before each depth, told what is lost so far.
        assert_eq!(told, [vec![], vec![take2]]);
        // Knowing only (take 1) to end games, the last ply misses (take 2)
        // from a pile of two: the loss is proven at depth 3, the win at
        // depth 5, and nothing false.
        let only = FxHashSet::from_iter([take1]);
        let mut rank = |_: &[TermId]| vec![take2, take1];
        let p = prove(
            &mut m,
            &root,
            0,
            &mut rank,
            only,
            &mut Table::default(),
            &budget,
        )
        .unwrap();
        assert_eq!(
            (p.winning, p.depth, &p.lost[..]),
            (Some(take1), 5, &[take2][..])
        );
    }

    #[test]
    fn confirm_looks_at_the_move_ranked_first_now() {
        // From 4, (take 2) lets b take the last two (lost at depth 1) and
        // (take 1) wins.
        let (mut m, root, take1, take2) = take_away_start(4);
        let budget = Budget::nodes(10_000);
        let none = FxHashSet::default();
        let mut table = Table::default();
        let confirm_with = |m: &mut Engine, ranking: Vec<TermId>, depth: u8| {
            let mut proofs = Proofs {
                depth,
                ..Proofs::default()
            };
            let mut told = Vec::new();
            let mut rank = |lost: &[TermId]| {
                told.push(lost.to_vec());
                ranking.clone()
            };
            let (e, t) = (none.clone(), &mut Table::default());
            confirm(m, &root, 0, &mut rank, e, t, &mut proofs, &budget).unwrap();
            (proofs.lost, told)
        };
        // The loss ranked first is found and the next move looked at.
        let (lost, told) = confirm_with(&mut m, vec![take2, take1], 1);
        assert_eq!((lost, told), (vec![take2], vec![vec![], vec![take2]]));
        // A move not lost ranked first ends it at once.
        let (lost, told) = confirm_with(&mut m, vec![take1, take2], 1);
        assert_eq!((lost, told.len()), (vec![], 1));
        // Where no depth was completed, nothing is looked at.
        let (lost, told) = confirm_with(&mut m, vec![take2, take1], 0);
        assert_eq!((lost, told.len()), (vec![], 0));
        // In a lost position (9) the last move not proven lost is kept.
        let (mut m, root9, take1, take2) = take_away_start(9);
        let mut proofs = Proofs {
            depth: 5,
            ..Proofs::default()
        };
        let mut rank = |_: &[TermId]| vec![take1, take2];
        confirm(
            &mut m,
            &root9,
            0,
            &mut rank,
            none,
            &mut table,
            &mut proofs,
            &budget,
        )
        .unwrap();
        assert_eq!(proofs.lost, [take1]);
    }

    #[test]
    fn the_history_orders_moves_and_proves_the_same() {
        // From 8, (take 2) wins by force (depth 5).
        let (mut m, root, take1, take2) = take_away_start(8);
        let budget = Budget::nodes(100_000);
        let mut rank = |_: &[TermId]| vec![take1, take2];
        let mut fresh = Table::default();
        let none = FxHashSet::default();
        let p = prove(
            &mut m,
            &root,
            0,
            &mut rank,
            none.clone(),
            &mut fresh,
            &budget,
        )
        .unwrap();
        assert_eq!(p.winning, Some(take2));
        assert!(
            fresh.history.get(&(0, take2)).is_some_and(|&h| h > 0),
            "the winning move is credited"
        );
        // A history that favours the losing move everywhere changes the
        // order of the search, not what it proves.
        let mut skewed = Table::default();
        skewed.history.insert((0, take1), 1_000_000);
        let q = prove(&mut m, &root, 0, &mut rank, none, &mut skewed, &budget).unwrap();
        assert_eq!(p, q);
    }
}
