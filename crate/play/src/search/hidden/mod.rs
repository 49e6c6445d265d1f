//! Players for GDL-II's hidden information: they never see the true
//! state, only their own moves and what their role `sees`.
//!
//! [`Belief`] keeps the states consistent with those observations
//! (enumerated while few, sampled when many, as HyperPlay does);
//! [`Hyperplay`] searches sampled states with the existing MCTS and sums
//! the statistics of its moves over them; [`BeliefTracker`] tells what a
//! role knows of the state (a seat's board in the page).

mod belief;
mod hyperplay;
mod view;

pub use belief::Belief;
pub use hyperplay::{Hyperplay, DEFAULT_SAMPLES};
pub use view::{BeliefTracker, BeliefView, Uncertain};

use crate::program::parse_ground_term;
use crate::reasoner::StateMachine;
use crate::search::Player;
use crate::terms::TermId;
use crate::EvalError;

/// One step as a role saw it, given as term text (its move and its
/// percepts, as a GGP message or the page carries them): parsed and passed
/// to `player` ([`Player::observe`]). Returns the parsed terms for whoever
/// tracks a belief of its own. Text that is no term is a
/// [`EvalError::BadMove`] naming it.
pub fn observe_text<M: StateMachine>(
    m: &mut M,
    player: &mut dyn Player<M>,
    role: usize,
    own: &str,
    percepts: &[String],
) -> Result<(TermId, Vec<TermId>), EvalError> {
    let mut parse = |what: &str, text: &str| {
        parse_ground_term(m.terms_mut(), text)
            .map_err(|e| EvalError::BadMove(format!("{what} `{text}`: {e}")))
    };
    let own = parse("move", own)?;
    let seen = percepts
        .iter()
        .map(|p| parse("percept", p))
        .collect::<Result<Vec<_>, _>>()?;
    player.observe(m, role, own, &seen)?;
    Ok((own, seen))
}
