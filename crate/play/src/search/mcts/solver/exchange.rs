//! The material shift of MCTS-Solver (`eval=material`, after Sancho's
//! piece heuristic): where an exchange of pieces ends, the rewards backed
//! up through it move towards the side that came out with more.

use crate::search::mcts::learned::{displace, piece_value};

/// A node's material, for the shift at the end of an exchange.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Exchange {
    /// Role 0's balance `(own − theirs) / (own + theirs)`.
    pub(super) balance: f64,
    /// The balance before the exchange the node is in (its own when the
    /// move into it took nothing).
    pub(super) before: f64,
    /// Whether the move into the node changed the balance.
    pub(super) took: bool,
    /// The shift of the rewards passing up through the node: towards
    /// role 0's top reward when positive, role 1's when negative.
    pub(super) shift: f64,
}

impl Exchange {
    /// The exchange of a node with role 0's `balance` and `total` pieces,
    /// the child of a node with `parent`'s (none: the root).
    pub(super) fn after(parent: Option<Exchange>, balance: f64, total: f64) -> Exchange {
        let Some(parent) = parent else {
            return Exchange {
                balance,
                before: balance,
                ..Exchange::default()
            };
        };
        let took = (balance - parent.balance).abs() > 1e-9;
        let before = match (took, parent.took) {
            (false, _) => balance,
            (true, true) => parent.before,
            (true, false) => parent.balance,
        };
        // A quiet move after captures ends the exchange: its outcome counts.
        let shift = if !took && parent.took {
            2.0 * piece_value(balance - parent.before, total) - 1.0
        } else {
            0.0
        };
        Exchange {
            balance,
            before,
            took,
            shift,
        }
    }

    /// `value` of role `r`, displaced as Sancho's piece heuristic does
    /// towards the top reward (or the bottom) by the change `gain` of role
    /// 0's balance with `total` pieces on the board.
    pub(super) fn displace(value: f64, r: usize, gain: f64, total: f64) -> f64 {
        let h = piece_value(gain, total);
        displace(value, if r == 0 { h } else { 1.0 - h })
    }

    /// Shifts two roles' rewards by [`Exchange::shift`].
    pub(super) fn apply(&self, rewards: &mut [f64]) {
        let ([r0, r1], false) = (rewards, self.shift == 0.0) else {
            return;
        };
        let (up, down) = if self.shift >= 0.0 {
            (r0, r1)
        } else {
            (r1, r0)
        };
        let s = self.shift.abs();
        *up += (1.0 - *up) * s;
        *down -= *down * s;
    }
}
