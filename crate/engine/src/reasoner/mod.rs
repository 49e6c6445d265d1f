//! Reasoner: the game as a state machine (roles, initial state, legal moves,
//! next state, terminal test, goals).
//!
//! [`StateMachine`] is the interface every player, the semantic validator and
//! the bindings use; [`Interpreter`] is the reference implementation, a
//! bottom-up Datalog evaluator with stratified negation.

pub mod compile;
pub mod content_keys;
pub(crate) mod db;
pub mod greedy;
pub mod interpreter;
pub mod mast;
pub mod preferred;

pub use crate::error::EvalError;
pub use interpreter::{FluentState, Interpreter};

use crate::terms::{TermId, TermStore};
use std::fmt;
use std::hash::Hash;

/// Resource limits for one evaluation; exceeding one is an [`EvalError`],
/// never a hang.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Rows derived while evaluating one state (and one joint move).
    pub max_rows_per_state: usize,
    /// Rows derived for the state-independent part of the game.
    pub max_static_rows: usize,
    /// Join steps (candidate rows examined) in one evaluation.
    pub max_steps: u64,
    /// Distinct ground terms the game may create in total.
    pub max_terms: usize,
    /// Nesting depth of a created term (catches unbounded recursion through
    /// function terms).
    pub max_term_depth: usize,
    /// Subgoals of derived relations nested inside each other while one
    /// query is answered (a recursive relation over a chain of N facts nests
    /// N deep). Bounds the evaluator's stack, natively and in wasm.
    pub max_nesting: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_rows_per_state: 2_000_000,
            max_static_rows: 20_000_000,
            max_steps: 2_000_000_000,
            max_terms: 50_000_000,
            max_term_depth: 1_000,
            max_nesting: MAX_NESTING,
        }
    }
}

/// Default of [`Limits::max_nesting`]. Natively the stack grows on the heap
/// as needed (`stack::guarded`). In wasm the engine's own call stack bounds
/// recursion (V8 throws "Maximum call stack size exceeded" at about 900
/// levels of a two-literal recursive rule) and an overflow can corrupt the
/// instance, so the wasm limit keeps a wide margin.
#[cfg(not(target_arch = "wasm32"))]
pub const MAX_NESTING: usize = 10_000;
#[cfg(target_arch = "wasm32")]
pub const MAX_NESTING: usize = 200;

/// A game as a state machine. Moves and roles are ground terms of
/// [`StateMachine::terms`]; a joint move has one move per role, in role order.
pub trait StateMachine {
    type State: Clone + Eq + Hash + fmt::Debug;

    /// Roles in the order of the game's `role` facts.
    fn roles(&self) -> &[TermId];
    /// The term store, to print or build terms.
    fn terms(&self) -> &TermStore;
    /// Interns a term (e.g. a move typed by a user) into the game's store.
    fn terms_mut(&mut self) -> &mut TermStore;

    fn initial_state(&mut self) -> Result<Self::State, EvalError>;
    /// Every legal move of role number `role`.
    fn legal_moves(&mut self, state: &Self::State, role: usize) -> Result<Vec<TermId>, EvalError>;
    fn next_state(
        &mut self,
        state: &Self::State,
        joint: &[TermId],
    ) -> Result<Self::State, EvalError>;
    fn is_terminal(&mut self, state: &Self::State) -> Result<bool, EvalError>;
    /// Every goal value derivable for each role (a well-formed game has
    /// exactly one per role in terminal states).
    fn goal_values(&mut self, state: &Self::State) -> Result<Vec<Vec<i64>>, EvalError>;
    /// The true fluents of a state.
    fn fluents(&self, state: &Self::State) -> Vec<TermId>;
    /// The state made of exactly these fluents.
    fn state_from_fluents(&mut self, fluents: &[TermId]) -> Self::State;

    /// A key naming `state` by its content: the same in every copy (clone)
    /// of this machine, where term ids may differ ([`content_keys`]; what
    /// tables shared between copies are keyed by). Machines whose ids mean
    /// the same in every copy may key by the state itself.
    fn state_key(&mut self, state: &Self::State) -> content_keys::Key {
        let store = self.terms();
        let keys = self.fluents(state).into_iter();
        content_keys::state_of(keys.map(|f| content_keys::term_key(store, f)))
    }

    /// A key naming term `t` (e.g. a move) by its content, the same in
    /// every copy of this machine (see [`StateMachine::state_key`]).
    fn term_key(&mut self, t: TermId) -> content_keys::Key {
        content_keys::term_key(self.terms(), t)
    }

    /// Legal moves of every role.
    fn all_legal_moves(&mut self, state: &Self::State) -> Result<Vec<Vec<TermId>>, EvalError> {
        (0..self.roles().len())
            .map(|r| self.legal_moves(state, r))
            .collect()
    }

    /// Every legal joint move (the cartesian product, first role slowest).
    /// Fails with a limit error beyond [`MAX_JOINT_MOVES`] (six players with
    /// 100 moves each have 10^12 joint moves): enumerate per role instead.
    fn legal_joint_moves(&mut self, state: &Self::State) -> Result<Vec<Vec<TermId>>, EvalError> {
        let per_role = self.all_legal_moves(state)?;
        joint_moves(&per_role)
    }

    /// A random playout from `state` (as the free [`random_playout`]);
    /// machines with a faster way to play one (the fast engine plays it
    /// inside its network) override this, and MCTS calls it.
    fn random_playout(
        &mut self,
        state: &Self::State,
        rng: &mut fastrand::Rng,
        max_steps: usize,
    ) -> Result<Playout<Self::State>, EvalError>
    where
        Self: Sized,
    {
        random_playout(self, state, rng, max_steps)
    }

    /// A playout whose moves `mast` draws ([`mast::mast_playout`]);
    /// the fast engine plays it inside its network.
    fn mast_playout(
        &mut self,
        state: &Self::State,
        rng: &mut fastrand::Rng,
        max_steps: usize,
        mast: &mut mast::Mast,
    ) -> Result<Playout<Self::State>, EvalError>
    where
        Self: Sized,
    {
        mast::mast_playout(self, state, rng, max_steps, mast)
    }

    /// A greedy playout without MAST (`reasoner/greedy.rs`); the fast
    /// engine plays it inside its network.
    fn greedy_playout(
        &mut self,
        state: &Self::State,
        rng: &mut fastrand::Rng,
        max_steps: usize,
        enders: &mut greedy::Enders,
    ) -> Result<Playout<Self::State>, EvalError>
    where
        Self: Sized,
    {
        greedy::greedy_playout(self, state, rng, max_steps, enders, None)
    }

    /// A greedy playout whose other moves `mast` draws, every move noted on
    /// its trail (`reasoner/greedy.rs`); the fast engine plays it inside
    /// its network.
    fn greedy_mast_playout(
        &mut self,
        state: &Self::State,
        rng: &mut fastrand::Rng,
        max_steps: usize,
        enders: &mut greedy::Enders,
        mast: &mut mast::Mast,
    ) -> Result<Playout<Self::State>, EvalError>
    where
        Self: Sized,
    {
        greedy::greedy_playout(self, state, rng, max_steps, enders, Some(mast))
    }

    /// The preference for these (role, move) pairs in
    /// [`StateMachine::preferring_playout`] (the fast engine adds a mask
    /// of its legal bits).
    fn preferred(&self, moves: &[(usize, TermId)]) -> preferred::Preferred {
        preferred::Preferred::of(moves.iter().copied())
    }

    /// A random playout in which each role takes a preferred move
    /// whenever it has one ([`preferred::preferring_playout`]); the fast
    /// engine plays it inside its network.
    fn preferring_playout(
        &mut self,
        state: &Self::State,
        rng: &mut fastrand::Rng,
        max_steps: usize,
        prefer: &preferred::Preferred,
    ) -> Result<Playout<Self::State>, EvalError>
    where
        Self: Sized,
    {
        preferred::preferring_playout(self, state, rng, max_steps, prefer)
    }

    /// The slot of a role's move in `mast`, as the playouts above note it
    /// (the fast engine: the move's legal index).
    fn move_slot(&mut self, mast: &mut mast::Mast, role: usize, mv: TermId) -> u32 {
        mast.slot(role, mv)
    }

    /// Whether a clone names every term as this machine does, whatever
    /// either computes later. The interpreter interns the terms it meets,
    /// so its clones drift apart; a tree shared by threads needs this.
    fn clones_share_terms(&self) -> bool {
        false
    }

    /// The move a slot of `mast`'s trail stands for (the inverse of
    /// [`StateMachine::move_slot`]).
    fn slot_move(&self, mast: &mast::Mast, slot: u32) -> Option<TermId> {
        mast.slot_move(slot)
    }

    /// GDL-II: what each role perceives when `joint` is made in `state`
    /// (the `p` of every derivable `(sees role p)`, evaluated like `next`
    /// on the state and the joint move), per role in role order, each list
    /// sorted by canonical text. Games without `sees`: every list empty.
    fn percepts(
        &mut self,
        state: &Self::State,
        joint: &[TermId],
    ) -> Result<Vec<Vec<TermId>>, EvalError> {
        let _ = (state, joint);
        Ok(vec![Vec::new(); self.roles().len()])
    }

    /// The game defines `sees` (GDL-II), so [`StateMachine::percepts`] can
    /// be non-empty.
    fn has_percepts(&self) -> bool {
        false
    }

    /// Per independent subgame the machine knows the game splits into
    /// (see [`crate::ground::subgames`]), how many roles have moves in it;
    /// empty where it knows fewer than two.
    fn subgames(&self) -> Vec<usize> {
        Vec::new()
    }

    /// The subgame a move of role number `role` plays in, where
    /// [`StateMachine::subgames`] is not empty and the move is in
    /// one.
    fn subgame_of_move(&self, role: usize, mv: TermId) -> Option<u32> {
        let _ = (role, mv);
        None
    }

    /// From now on plays in subgame `part` only: a role's legal moves are
    /// those in it (none where it has none there), `pass` is the move of a
    /// role without one, the state changes in the part only (the rest held
    /// as it is), and a playout ends where no role can move in it. Machines
    /// that know no subgames fail.
    fn enter_subgame(&mut self, part: u32, pass: TermId) -> Result<(), EvalError> {
        let _ = (part, pass);
        Err(EvalError::BadMove("this engine knows no subgames".into()))
    }

    /// In a subgame ([`StateMachine::enter_subgame`]): from now on every
    /// query reads the fluents outside the part from `state`, whatever the
    /// state asked about holds there, and successors leave them out.
    /// Returns `state` with them left out: the same whatever happened
    /// outside the part, so a search tree kept between moves finds its
    /// nodes again.
    fn hold_subgame(&mut self, state: &Self::State) -> Result<Self::State, EvalError> {
        let _ = state;
        Err(EvalError::BadMove("this engine knows no subgames".into()))
    }

    /// One goal value per role: the largest derivable one, or `None`.
    fn goals(&mut self, state: &Self::State) -> Result<Vec<Option<i64>>, EvalError> {
        Ok(self
            .goal_values(state)?
            .into_iter()
            .map(|v| v.into_iter().max())
            .collect())
    }
}

/// GDL-II's chance role: the index of the role `random`, whose moves the
/// game master draws uniformly (no player sits there).
pub fn chance_role<M: StateMachine>(m: &M) -> Option<usize> {
    let random = m.terms().symbols.get(crate::terms::kw::RANDOM_NAME)?;
    let store = m.terms();
    m.roles()
        .iter()
        .position(|&r| store.arity(r) == 0 && store.functor(r) == random)
}

/// A chance move: one of `legal` drawn uniformly by `rng`, in the order of
/// the moves' canonical text so that every engine draws the same move.
pub fn draw_chance_move<M: StateMachine>(
    m: &M,
    legal: &[TermId],
    rng: &mut fastrand::Rng,
) -> Option<TermId> {
    if legal.is_empty() {
        return None;
    }
    let mut by_text: Vec<(String, TermId)> =
        legal.iter().map(|&t| (m.terms().display(t), t)).collect();
    by_text.sort();
    Some(by_text[random_index(rng, by_text.len())].1)
}

/// Sorts terms by their canonical text (percepts are listed so).
pub fn sort_by_text(store: &TermStore, terms: &mut [TermId]) {
    terms.sort_by_cached_key(|&t| store.display(t));
}

/// Most joint moves [`StateMachine::legal_joint_moves`] enumerates.
pub const MAX_JOINT_MOVES: u64 = 1_000_000;

/// Most moves held by the joint moves of one state (joint moves times
/// roles): with thousands of simultaneous roles even a few joint moves are
/// large (2,000 roles: at most 8,000 joint moves, 64 MB of term ids).
pub const MAX_JOINT_MOVE_CELLS: u64 = 16_000_000;

/// Each role's goal value in `s` divided by 100 (no goal: 0): the rewards
/// of a playout or a tree node in [0, 1].
pub fn rewards<M: StateMachine>(m: &mut M, s: &M::State) -> Result<Vec<f64>, EvalError> {
    Ok(m.goals(s)?
        .iter()
        .map(|g| g.unwrap_or(0) as f64 / 100.0)
        .collect())
}

/// Whether role `r` has its top reward (goal 100) in `s`.
pub fn won<M: StateMachine>(m: &mut M, s: &M::State, r: usize) -> Result<bool, EvalError> {
    Ok(rewards(m, s)?.get(r).is_some_and(|&g| g >= 1.0 - 1e-9))
}

/// The only role with more than one legal move, if exactly one has
/// (`legal`: each role's moves).
pub fn only_mover(legal: &[Vec<TermId>]) -> Option<usize> {
    let mut choosers = legal.iter().enumerate().filter(|(_, l)| l.len() > 1);
    match (choosers.next(), choosers.next()) {
        (Some((r, _)), None) => Some(r),
        _ => None,
    }
}

/// A uniformly random index below `n`, the same for a seed on every target:
/// fastrand draws `usize` differently where it is 32 bits (wasm32), so a
/// seeded game in the page or the npm CLI would differ from the native one.
pub fn random_index(rng: &mut fastrand::Rng, n: usize) -> usize {
    rng.u64(..n as u64) as usize
}

/// How many joint moves the lists make (`None`: more than `u64` holds).
pub fn joint_count(lists: &[Vec<TermId>]) -> Option<u64> {
    lists
        .iter()
        .try_fold(1u64, |acc, m| acc.checked_mul(m.len() as u64))
}

/// [`cartesian`], or a limit error beyond [`MAX_JOINT_MOVES`] combinations
/// or [`MAX_JOINT_MOVE_CELLS`] moves in all (what every search uses: twelve
/// roles with ten moves each would otherwise allocate 10^12 joint moves).
pub fn joint_moves(lists: &[Vec<TermId>]) -> Result<Vec<Vec<TermId>>, EvalError> {
    let cells = |n: u64| n.saturating_mul(lists.len() as u64);
    match joint_count(lists) {
        Some(n) if n <= MAX_JOINT_MOVES && cells(n) <= MAX_JOINT_MOVE_CELLS => Ok(cartesian(lists)),
        Some(n) if n <= MAX_JOINT_MOVES => Err(EvalError::Limit {
            what: "moves in the joint moves of one state (reasoner::MAX_JOINT_MOVE_CELLS)",
            limit: MAX_JOINT_MOVE_CELLS,
        }),
        _ => Err(EvalError::Limit {
            what: "joint moves in one state (reasoner::MAX_JOINT_MOVES)",
            limit: MAX_JOINT_MOVES,
        }),
    }
}

/// The first `limit` combinations of [`cartesian`] in its order, built
/// without the others (an odometer, last list fastest).
pub fn first_joint_moves(lists: &[Vec<TermId>], limit: usize) -> Vec<Vec<TermId>> {
    let mut out = Vec::new();
    if lists.iter().any(Vec::is_empty) {
        return out;
    }
    let mut at = vec![0usize; lists.len()];
    while out.len() < limit {
        out.push(lists.iter().zip(&at).map(|(l, &i)| l[i]).collect());
        // Advance the last position that can, resetting those after it.
        let Some(r) = (0..lists.len()).rev().find(|&r| at[r] + 1 < lists[r].len()) else {
            break;
        };
        at[r] += 1;
        at[r + 1..].iter_mut().for_each(|i| *i = 0);
    }
    out
}

/// All combinations picking one element of each list (first list slowest).
pub fn cartesian(lists: &[Vec<TermId>]) -> Vec<Vec<TermId>> {
    let mut out: Vec<Vec<TermId>> = vec![Vec::with_capacity(lists.len())];
    for list in lists {
        let mut next = Vec::with_capacity(out.len() * list.len());
        for prefix in &out {
            for &m in list {
                let mut v = prefix.clone();
                v.push(m);
                next.push(v);
            }
        }
        out = next;
    }
    out
}

/// The end of a random playout.
#[derive(Clone, Debug)]
pub struct Playout<S> {
    pub state: S,
    /// Joint moves made.
    pub steps: usize,
    /// Whether the final state is terminal (otherwise the step cap was hit
    /// or some role had no legal move).
    pub terminal: bool,
}

/// Plays uniformly random joint moves from `state` until a terminal state,
/// a role without legal moves, or `max_steps`.
pub fn random_playout<M: StateMachine>(
    m: &mut M,
    state: &M::State,
    rng: &mut fastrand::Rng,
    max_steps: usize,
) -> Result<Playout<M::State>, EvalError> {
    random_playout_observed(m, state, rng, max_steps, |_, _| {})
}

/// [`random_playout`], showing each joint move to `observe` before it is
/// made: the one random playout, which `playouts::play` records (the fast
/// engine's in-network playout draws the same moves).
pub fn random_playout_observed<M: StateMachine>(
    m: &mut M,
    state: &M::State,
    rng: &mut fastrand::Rng,
    max_steps: usize,
    mut observe: impl FnMut(&M, &[TermId]),
) -> Result<Playout<M::State>, EvalError> {
    random_walk(m, state, rng, max_steps, |m, _, _, joint| {
        observe(m, joint);
        Ok(true)
    })
}

/// The one random walk under [`random_playout`] and the samplers (game
/// info, benchmarks): uniformly random joint moves from `state` until a
/// terminal state, a role without legal moves or `max_steps`. Each role's
/// move is drawn as its legal moves are listed (role order), then `visit`
/// sees the state, every role's legal moves and the joint move before it
/// is made; `false` ends the walk in that state (not terminal).
pub fn random_walk<M: StateMachine>(
    m: &mut M,
    state: &M::State,
    rng: &mut fastrand::Rng,
    max_steps: usize,
    visit: impl FnMut(&mut M, &M::State, &[Vec<TermId>], &[TermId]) -> Result<bool, EvalError>,
) -> Result<Playout<M::State>, EvalError> {
    let uniform =
        |rng: &mut fastrand::Rng, _: usize, moves: &[TermId]| random_index(rng, moves.len());
    walk(m, state, rng, max_steps, uniform, visit)
}

/// The step loop of every playout on a generic machine: `choose` picks
/// each role's move (its index among the role's legal moves, role
/// order), so that uniform, MAST and preferring playouts differ only
/// there; `visit` as in [`random_walk`].
pub fn walk<M: StateMachine>(
    m: &mut M,
    state: &M::State,
    rng: &mut fastrand::Rng,
    max_steps: usize,
    mut choose: impl FnMut(&mut fastrand::Rng, usize, &[TermId]) -> usize,
    mut visit: impl FnMut(&mut M, &M::State, &[Vec<TermId>], &[TermId]) -> Result<bool, EvalError>,
) -> Result<Playout<M::State>, EvalError> {
    let mut s = state.clone();
    let roles = m.roles().len();
    let mut legal: Vec<Vec<TermId>> = Vec::with_capacity(roles);
    let mut joint = Vec::with_capacity(roles);
    let end = |state, steps, terminal| {
        Ok(Playout {
            state,
            steps,
            terminal,
        })
    };
    for steps in 0..=max_steps {
        if m.is_terminal(&s)? {
            return end(s, steps, true);
        }
        if steps == max_steps {
            break;
        }
        legal.clear();
        joint.clear();
        for r in 0..roles {
            let moves = m.legal_moves(&s, r)?;
            if moves.is_empty() {
                return end(s, steps, false);
            }
            joint.push(moves[choose(rng, r, &moves)]);
            legal.push(moves);
        }
        if !visit(m, &s, &legal, &joint)? {
            return end(s, steps, false);
        }
        s = m.next_state(&s, &joint)?;
    }
    end(s, max_steps, false)
}

/// A fluent of a list that does not parse: its text and why.
#[derive(Debug)]
pub struct BadFluent<'a> {
    pub text: &'a str,
    pub error: crate::program::TermError,
}

/// The state made of these fluents (term text, as `from` options and the
/// bindings give a position).
pub fn state_of<'a, M: StateMachine>(
    m: &mut M,
    fluents: &'a [String],
) -> Result<M::State, BadFluent<'a>> {
    let mut ids = Vec::with_capacity(fluents.len());
    for text in fluents {
        let id =
            crate::program::parse_ground_term(m.terms_mut(), text).map_err(|error| BadFluent {
                text: text.as_str(),
                error,
            })?;
        ids.push(id);
    }
    Ok(m.state_from_fluents(&ids))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(v: &[u32]) -> Vec<TermId> {
        v.iter().map(|&i| TermId(i)).collect()
    }

    #[test]
    fn first_joint_moves_is_a_prefix_of_the_cartesian_product() {
        let shapes: [&[&[u32]]; 5] = [
            &[&[1, 2], &[3], &[4, 5, 6]],
            &[&[1], &[2], &[3]],
            &[&[1, 2, 3], &[4, 5]],
            &[&[1, 2], &[], &[3]],
            &[],
        ];
        for shape in shapes {
            let lists: Vec<Vec<TermId>> = shape.iter().map(|l| ids(l)).collect();
            let all = cartesian(&lists);
            for limit in 0..=all.len() + 2 {
                let first = first_joint_moves(&lists, limit);
                assert_eq!(first, all[..limit.min(all.len())], "{shape:?} {limit}");
            }
        }
    }

    #[test]
    fn joint_moves_are_bounded_by_count_and_by_moves_held() {
        // 2,000 roles with two moves each: 2^2000 joint moves, refused at once.
        let wide = vec![ids(&[1, 2]); 2000];
        assert_eq!(joint_count(&wide), None);
        assert!(joint_moves(&wide).is_err());
        // 2,000 roles, 2^13 joint moves: 16.4M moves held, over the cells bound.
        let mut held = vec![ids(&[1]); 2000];
        held[..13].iter_mut().for_each(|l| *l = ids(&[1, 2]));
        assert_eq!(joint_count(&held), Some(8192));
        assert!(joint_moves(&held).is_err());
        held[12] = ids(&[1]);
        assert_eq!(joint_moves(&held).map(|j| j.len()), Ok(4096));
    }
}
