//! Expanding a state for a solver: is it terminal, who chooses, and every
//! successor's words appended to one buffer, with no allocation per state
//! (the explicit solver expands millions; `StateMachine::next_state` builds
//! a `BitState` and looks the move up in a map for each successor).

use super::FastEngine;
use crate::ground::network::NONE;
use smallvec::SmallVec;

/// What [`FastEngine::expand`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expansion {
    Terminal,
    /// One successor per legal move of `chooser` (the only role with more
    /// than one legal move, or role 0 when no role has a choice; `forced`
    /// tells which), in legal order.
    Moves {
        chooser: usize,
        forced: bool,
    },
    /// `role` has no legal move in a non-terminal state.
    NoMove {
        role: usize,
    },
    /// More than one role has a choice.
    Simultaneous,
}

impl FastEngine {
    /// The number of 64-bit words of a state.
    pub fn state_words(&self) -> usize {
        self.cur.len()
    }

    /// Expands the state whose words are `state`: on [`Expansion::Moves`]
    /// appends each successor's words to `out`.
    pub fn expand(&mut self, state: &[u64], out: &mut Vec<u64>) -> Expansion {
        debug_assert_eq!(state.len(), self.cur.len());
        if self.t.queries_use_does && !self.inputs.is_empty() {
            self.set_inputs(&[]);
        }
        if state != &self.cur[..] {
            self.set_state(state);
        }
        if self.on(self.t.terminal as usize) {
            return Expansion::Terminal;
        }
        // Each role's first legal index, and the chooser's bits.
        let roles = self.t.roles.len();
        let mut first: SmallVec<[usize; 4]> = SmallVec::new();
        let mut chooser: Option<(usize, SmallVec<[u64; 4]>)> = None;
        for r in 0..roles {
            let bits = self.legal_bits(r);
            let n: u32 = bits.iter().map(|w| w.count_ones()).sum();
            let Some(pos) = super::bit_positions(bits).next() else {
                return Expansion::NoMove { role: r };
            };
            if n > 1 {
                if chooser.is_some() {
                    return Expansion::Simultaneous;
                }
                chooser = Some((r, SmallVec::from_slice(bits)));
            }
            first.push(self.t.legal_start[r] as usize + pos);
        }
        let forced = chooser.is_none();
        let (who, bits) = chooser.unwrap_or_else(|| {
            let start = self.t.legal_start[0] as usize;
            let one = first[0] - start;
            let mut b: SmallVec<[u64; 4]> = SmallVec::from_elem(0, one / 64 + 1);
            b[one / 64] = 1 << (one % 64);
            (0, b)
        });
        let words = self.cur.len();
        let start = self.t.legal_start[who] as usize;
        let mut nodes: SmallVec<[u32; 8]> = SmallVec::new();
        for pos in super::bit_positions(&bits) {
            nodes.clear();
            for (r, &f) in first.iter().enumerate() {
                let i = if r == who { start + pos } else { f };
                let node = self.t.legal_input[i];
                if node != NONE {
                    nodes.push(node);
                }
            }
            self.set_inputs(&nodes);
            out.extend_from_slice(&self.hooked[..words]);
        }
        Expansion::Moves {
            chooser: who,
            forced,
        }
    }
}
