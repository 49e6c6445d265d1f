//! What the fast engine knows about the game besides its network (roles,
//! base, legal, goal and terminal propositions), below both the engine and
//! the network passes that read it.

use super::subgames::Subgames;
use crate::terms::TermId;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// Everything the engine knows about the game, besides the network.
#[derive(Clone)]
pub struct Tables {
    pub roles: Vec<TermId>,
    /// Fluent of each base proposition, and its node.
    pub base_fluent: Vec<TermId>,
    pub base_node: Vec<u32>,
    pub base_of_fluent: FxHashMap<TermId, u32>,
    pub init: Vec<u32>,
    /// Legal propositions of all roles; `legal_start[r]..legal_start[r+1]`
    /// are role `r`'s, sorted by their move's canonical text.
    pub legal_start: Vec<u32>,
    pub legal_move: Vec<TermId>,
    /// The input node (`does`) of each legal proposition, or `NONE` when no
    /// rule reads that move.
    pub legal_input: Vec<u32>,
    pub move_index: FxHashMap<(u32, TermId), u32>,
    pub terminal: u32,
    /// Per role: (goal value, node).
    pub goals: Vec<Vec<(i64, u32)>>,
    /// GDL-II, per role: (percept, node), sorted by the percept's text;
    /// `None` when the game has no `sees`. Evaluated like goals (lazily),
    /// after the joint move's inputs are set.
    pub sees: Option<Vec<Vec<(TermId, u32)>>>,
    /// Some legal, goal or terminal node depends on `does`: clear the moves
    /// before answering about a state.
    pub queries_use_does: bool,
    /// The game's independent subgames, where it has at least two.
    pub subgames: Option<Arc<Subgames>>,
}

impl Tables {
    pub(super) fn legal_role(&self, i: usize) -> usize {
        // Few roles: a linear search.
        let mut r = 0;
        while self.legal_start[r + 1] as usize <= i {
            r += 1;
        }
        r
    }
}
