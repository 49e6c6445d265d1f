//! Independent subgames ("factors" in the GGP literature): parts of the
//! state that the moves change apart from each other, such as the two
//! boards of connectFourSimultaneous, where each move drops a piece on one
//! board and only the end tests look at both.
//!
//! Found on the grounded program: two fluents are in one subgame when the
//! rules that compute the next state or the legal moves link them, through
//! derived atoms, moves or each other. The end tests (`terminal`, `goal`)
//! are left out: they may join the parts (a line on either board ends the
//! game) without making the moves depend on each other. A player can then
//! search one subgame with the rest of the state held fixed.

use super::instantiate::AtomId;
use super::GroundProgram;

/// The subgames of a game with at least two.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subgames {
    /// Per legal proposition (as the engine numbers them) its subgame, or
    /// [`SHARED`] for a move linked to no fluent.
    pub of_legal: Vec<u32>,
    /// Per subgame, the bits of a state it changes: its own fluents and
    /// the shared ones (fluents that no move changes, such as a step
    /// counter, are simulated in every subgame).
    pub mask: Vec<Vec<u64>>,
    /// Per subgame, how many roles have moves in it.
    pub movers: Vec<usize>,
    /// Per subgame and role, the role's legal propositions in it (bit `i`
    /// for the role's `i`-th, as the engine's legal bits).
    pub legal_mask: Vec<Vec<Vec<u64>>>,
}

/// Neither subgame: in every one.
pub const SHARED: u32 = u32::MAX;

impl Subgames {
    /// How many.
    pub fn count(&self) -> usize {
        self.mask.len()
    }
}

/// The subgames of `gp`, with `legal_atoms` the legal propositions in the
/// engine's order (role `r`'s from `legal_start[r]`); `None` when there
/// are fewer than two.
pub(super) fn find(
    gp: &GroundProgram,
    legal_atoms: &[AtomId],
    legal_start: &[u32],
) -> Option<Subgames> {
    let n = gp.atoms.len();
    let needed = dynamics(gp, legal_atoms);
    let mut parts = UnionFind::new(n);
    for i in 0..gp.inst.len() {
        let head = gp.inst.head[i];
        if !needed[head as usize] {
            continue;
        }
        for &l in gp.inst.lits(i) {
            parts.union(head, l >> 1);
        }
    }
    // A fluent's `next` atom is the same proposition as its `true` atoms.
    let next_of = next_atoms(gp);
    let true_of = true_atoms(gp);
    for (reads, next) in true_of.iter().zip(&next_of) {
        let mut atoms = reads.iter().chain(next);
        if let Some(&first) = atoms.next() {
            atoms.for_each(|&a| parts.union(first, a));
        }
    }
    // A legal proposition and its move.
    let does_of = |a: AtomId| {
        let rd = gp.rel_does?;
        gp.atoms.find(rd as u32, gp.atoms.args(a))
    };
    for &la in legal_atoms {
        if let Some(d) = does_of(la) {
            parts.union(la, d);
        }
    }
    // Subgames are the parts with a legal proposition.
    let mut id = vec![SHARED; n];
    let mut count = 0u32;
    let of_legal: Vec<u32> = legal_atoms
        .iter()
        .map(|&la| {
            let root = parts.find(la) as usize;
            if id[root] == SHARED {
                id[root] = count;
                count += 1;
            }
            id[root]
        })
        .collect();
    if count < 2 {
        return None;
    }
    // Per base proposition its subgame, or SHARED.
    let of_base: Vec<u32> = (0..gp.fluents.len())
        .map(|b| {
            let atom = true_of[b].first().or(next_of[b].first());
            atom.map_or(SHARED, |&a| id[parts.find(a) as usize])
        })
        .collect();
    let mut mask = vec![vec![0u64; of_base.len().div_ceil(64).max(1)]; count as usize];
    for (b, &part) in of_base.iter().enumerate() {
        for (p, words) in mask.iter_mut().enumerate() {
            if part == SHARED || part == p as u32 {
                words[b / 64] |= 1 << (b % 64);
            }
        }
    }
    let legal_mask: Vec<Vec<Vec<u64>>> = (0..count)
        .map(|part| {
            (legal_start.windows(2))
                .map(|w| {
                    let (a, b) = (w[0] as usize, w[1] as usize);
                    let mut words = vec![0u64; (b - a).div_ceil(64)];
                    for (i, _) in (of_legal[a..b].iter().enumerate()).filter(|(_, &p)| p == part) {
                        words[i / 64] |= 1 << (i % 64);
                    }
                    words
                })
                .collect()
        })
        .collect();
    let movers = (legal_mask.iter())
        .map(|roles| roles.iter().filter(|w| w.iter().any(|&x| x != 0)).count())
        .collect();
    Some(Subgames {
        of_legal,
        mask,
        movers,
        legal_mask,
    })
}

/// Atoms that the next state or the legal moves depend on.
fn dynamics(gp: &GroundProgram, legal_atoms: &[AtomId]) -> Vec<bool> {
    let n = gp.atoms.len();
    // Instances by head.
    let mut start = vec![0u32; n + 1];
    for &h in &gp.inst.head {
        start[h as usize + 1] += 1;
    }
    for a in 0..n {
        start[a + 1] += start[a];
    }
    let mut fill = start.clone();
    let mut by_head = vec![0u32; gp.inst.len()];
    for (i, &h) in gp.inst.head.iter().enumerate() {
        by_head[fill[h as usize] as usize] = i as u32;
        fill[h as usize] += 1;
    }
    let mut needed = vec![false; n];
    let mut stack: Vec<AtomId> = legal_atoms.to_vec();
    if let Some(rn) = gp.rel_next {
        stack.extend(&gp.rels[rn].rows);
    }
    while let Some(a) = stack.pop() {
        if std::mem::replace(&mut needed[a as usize], true) {
            continue;
        }
        for &i in &by_head[start[a as usize] as usize..start[a as usize + 1] as usize] {
            stack.extend(gp.inst.lits(i as usize).iter().map(|l| l >> 1));
        }
    }
    needed
}

/// Per base proposition, its `next` atom (none or one).
fn next_atoms(gp: &GroundProgram) -> Vec<Vec<AtomId>> {
    let mut out = vec![Vec::new(); gp.fluents.len()];
    if let Some(rn) = gp.rel_next {
        for &a in &gp.rels[rn].rows {
            if let Some(&b) = gp.base_of.get(&gp.atoms.args(a)[0]) {
                out[b as usize].push(a);
            }
        }
    }
    out
}

/// Per base proposition, the atoms that read it (`true`).
fn true_atoms(gp: &GroundProgram) -> Vec<Vec<AtomId>> {
    gp.fluents
        .iter()
        .map(|&f| {
            let (store, atoms) = (&gp.store, &gp.atoms);
            let key = (store.functor(f), store.arity(f) as u32);
            let by_table = gp.true_tables.get(&key);
            let by_table = by_table.and_then(|&t| atoms.find(t as u32, store.args_of(f)));
            let by_all = gp.true_all.and_then(|t| atoms.find(t as u32, &[f]));
            by_table.into_iter().chain(by_all).collect()
        })
        .collect()
}

/// Disjoint sets over atoms, with path halving.
struct UnionFind {
    parent: Vec<u32>,
}

impl UnionFind {
    fn new(n: usize) -> UnionFind {
        UnionFind {
            parent: (0..n as u32).collect(),
        }
    }
    fn find(&mut self, mut a: u32) -> u32 {
        while self.parent[a as usize] != a {
            let up = self.parent[self.parent[a as usize] as usize];
            self.parent[a as usize] = up;
            a = up;
        }
        a
    }
    fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent[ra.max(rb) as usize] = ra.min(rb);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{ground, Budget, FastEngine};
    use crate::reasoner::StateMachine;
    use crate::terms::TermId;

    const GAME: &str = include_str!("../../testdata/two_boards_game.kif");

    fn engine(text: &str) -> FastEngine {
        ground(&crate::parse_program(text), Budget::default()).expect("grounds")
    }

    fn board_of(e: &FastEngine, mv: TermId) -> Option<TermId> {
        let store = e.terms();
        (store.arity(mv) == 3).then(|| store.args_of(mv)[0])
    }

    /// The two boards are the subgames, both roles move on each, and a
    /// move's subgame is its board's.
    #[test]
    fn the_boards_are_the_subgames() {
        let mut e = engine(GAME);
        assert_eq!(e.subgames(), vec![2, 2]);
        let s = e.initial_state().unwrap();
        let mut seen = Vec::new();
        for role in 0..2 {
            let moves = e.legal_moves(&s, role).unwrap();
            assert_eq!(moves.len(), 9, "one board's cells");
            for mv in moves {
                let part = e.subgame_of_move(role, mv).expect("a mark is in a subgame");
                seen.push((board_of(&e, mv).unwrap(), part));
            }
        }
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 2, "one subgame per board: {seen:?}");
        assert_ne!(seen[0].1, seen[1].1);
    }

    /// Over random walks, the next state in a subgame is the game's next
    /// state on that subgame's fluents and the shared step counter, and
    /// the state as it was elsewhere; a role without a move there passes,
    /// and a role's legal moves there are its moves in the subgame.
    #[test]
    fn a_subgame_moves_its_own_fluents_only() {
        let mut e = engine(GAME);
        let pass = e.terms_mut().symbols.intern("pass");
        let pass = e.terms_mut().constant(pass);
        let mut parts: Vec<FastEngine> = (0..2).map(|_| e.clone()).collect();
        for (p, sub) in parts.iter_mut().enumerate() {
            sub.enter_subgame(p as u32, pass).unwrap();
        }
        let mut rng = fastrand::Rng::with_seed(7);
        let mut checked = 0;
        for _ in 0..20 {
            let mut s = e.initial_state().unwrap();
            while !e.is_terminal(&s).unwrap() {
                let legal = e.all_legal_moves(&s).unwrap();
                let joint: Vec<TermId> = legal.iter().map(|m| m[rng.usize(..m.len())]).collect();
                let next = e.next_state(&s, &joint).unwrap();
                for (part, sub) in parts.iter_mut().enumerate() {
                    let part = part as u32;
                    let in_part = |r: usize, mv: TermId| e.subgame_of_move(r, mv) == Some(part);
                    for (r, moves) in legal.iter().enumerate() {
                        let mut own = moves.clone();
                        own.retain(|&mv| in_part(r, mv));
                        assert_eq!(sub.legal_moves(&s, r).unwrap(), own);
                    }
                    let own: Vec<TermId> = (joint.iter().enumerate())
                        .map(|(r, &mv)| if in_part(r, mv) { mv } else { pass })
                        .collect();
                    assert_eq!(own.iter().filter(|&&mv| mv != pass).count(), 1);
                    let held = sub.next_state(&s, &own).unwrap();
                    let (now, before, whole) = (e.fluents(&held), e.fluents(&s), e.fluents(&next));
                    for f in now.iter().chain(&before).chain(&whole) {
                        let in_part =
                            fluent_board(&e, *f).is_none_or(|b| part_of(&e, &s, b) == Some(part));
                        let expected = if in_part {
                            whole.contains(f)
                        } else {
                            before.contains(f)
                        };
                        assert_eq!(now.contains(f), expected, "{}", e.terms().display(*f));
                    }
                    checked += 1;
                }
                s = next;
            }
        }
        assert!(checked >= 100, "{checked} steps checked");
    }

    /// A playout in a subgame leaves the other board as it was, and ends
    /// in a terminal state or where no role can move in the subgame.
    #[test]
    fn a_subgame_playout_holds_the_rest() {
        let mut e = engine(GAME);
        let pass = e.terms_mut().symbols.intern("pass");
        let pass = e.terms_mut().constant(pass);
        let s = e.initial_state().unwrap();
        let first = e.legal_moves(&s, 0).unwrap()[0];
        let part = e.subgame_of_move(0, first).unwrap();
        let board = board_of(&e, first).unwrap();
        let mut sub = e.clone();
        sub.enter_subgame(part, pass).unwrap();
        let mut rng = fastrand::Rng::with_seed(3);
        let mut greedy = crate::reasoner::greedy::Enders::default();
        for i in 0..40 {
            let (_, ended) = match i % 2 {
                0 => sub.playout(&s, &mut rng, 100),
                _ => sub.playout_greedy(&s, &mut rng, 100, &mut greedy, None),
            };
            assert!(ended, "a playout ends");
            let end = sub.current_state();
            let stalled = (0..2).all(|r| sub.legal_moves(&end, r).unwrap().is_empty());
            assert!(e.is_terminal(&end).unwrap() || stalled);
            for f in e.fluents(&end) {
                let elsewhere = fluent_board(&e, f).is_some_and(|b| b != board);
                assert!(
                    !elsewhere || e.fluents(&s).contains(&f),
                    "{}",
                    e.terms().display(f)
                );
            }
        }
    }

    /// With the state held, a subgame answers about a state without the
    /// other board as about the whole state, and its successors leave the
    /// other board out: the same successors whatever the other board holds.
    #[test]
    fn a_held_state_fills_in_the_other_board() {
        let mut e = engine(GAME);
        let pass = e.terms_mut().symbols.intern("pass");
        let pass = e.terms_mut().constant(pass);
        let mut rng = fastrand::Rng::with_seed(11);
        let mut checked = 0;
        for _ in 0..10 {
            let mut s = e.initial_state().unwrap();
            while !e.is_terminal(&s).unwrap() {
                let legal = e.all_legal_moves(&s).unwrap();
                let joint: Vec<TermId> = legal.iter().map(|m| m[rng.usize(..m.len())]).collect();
                for part in 0..2u32 {
                    let mut sub = e.clone();
                    sub.enter_subgame(part, pass).unwrap();
                    let mut whole = sub.clone();
                    let bare = sub.hold_subgame(&s).unwrap();
                    assert!(
                        e.fluents(&bare).len() < e.fluents(&s).len(),
                        "the other board left out"
                    );
                    for r in 0..2 {
                        assert_eq!(
                            sub.legal_moves(&bare, r).unwrap(),
                            whole.legal_moves(&s, r).unwrap()
                        );
                    }
                    assert_eq!(sub.is_terminal(&bare).unwrap(), e.is_terminal(&s).unwrap());
                    let own: Vec<TermId> = (joint.iter().enumerate())
                        .map(|(r, &mv)| {
                            if e.subgame_of_move(r, mv) == Some(part) {
                                mv
                            } else {
                                pass
                            }
                        })
                        .collect();
                    let next = sub.next_state(&bare, &own).unwrap();
                    let full = whole.next_state(&s, &own).unwrap();
                    let kept: Vec<TermId> = (whole.fluents(&full).into_iter())
                        .filter(|&f| {
                            fluent_board(&e, f).is_none_or(|b| part_of(&e, &s, b) == Some(part))
                        })
                        .collect();
                    assert_eq!(e.fluents(&next), kept);
                    checked += 1;
                }
                s = e.next_state(&s, &joint).unwrap();
            }
        }
        assert!(checked >= 50, "{checked} steps checked");
    }

    /// The board a fluent is on (`cell` and `control`), none for `step`.
    fn fluent_board(e: &FastEngine, f: TermId) -> Option<TermId> {
        let store = e.terms();
        match store.symbols.name(store.functor(f)) {
            "cell" => Some(store.args_of(f)[0]),
            "control" => Some(store.args_of(f)[1]),
            _ => None,
        }
    }

    /// The subgame of a board: that of a mark on it by the role whose turn it is.
    fn part_of(e: &FastEngine, s: &super::super::BitState, board: TermId) -> Option<u32> {
        let mut e = e.clone();
        (0..2).find_map(|r| {
            let moves = e.legal_moves(s, r).ok()?;
            let mv = moves
                .into_iter()
                .find(|&mv| board_of(&e, mv) == Some(board))?;
            e.subgame_of_move(r, mv)
        })
    }

    /// A game whose moves all change one board has no subgames.
    #[test]
    fn tic_tac_toe_has_none() {
        let e = engine(include_str!("../../../../games/ticTacToe.kif"));
        assert!(e.subgames().is_empty());
    }
}
