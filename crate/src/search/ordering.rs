//! Move orders for teaching (`ordering` of a search): the game's own order,
//! reversed, the best move first (perfect ordering: alpha-beta prunes the
//! most) or the worst first (it prunes nothing). Minimax and alpha-beta
//! reorder each node's legal moves with [`order_moves`]; for best and worst
//! first a child's value is its minimax value to the remaining depth (the
//! value the search will find), computed by a plain minimax that is not
//! counted in the search's statistics.

use super::minimax::Minimax;
use super::{Budget, Heuristic, Stop};
use crate::reasoner::StateMachine;
use crate::terms::TermId;

/// The order in which a search visits a node's moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// The engine's order of legal moves.
    #[default]
    Given,
    Reversed,
    /// The best move for the role to move first.
    Best,
    /// The worst move for the role to move first.
    Worst,
}

impl std::str::FromStr for Order {
    type Err = String;
    fn from_str(s: &str) -> Result<Order, String> {
        match s.to_ascii_lowercase().as_str() {
            "given" | "game" => Ok(Order::Given),
            "reversed" | "reverse" => Ok(Order::Reversed),
            "best" | "best-first" => Ok(Order::Best),
            "worst" | "worst-first" => Ok(Order::Worst),
            other => Err(format!(
                "ordering must be given, reversed, best or worst, got `{other}`"
            )),
        }
    }
}

impl Order {
    pub fn name(self) -> &'static str {
        match self {
            Order::Given => "given",
            Order::Reversed => "reversed",
            Order::Best => "best",
            Order::Worst => "worst",
        }
    }
}

/// Reorders each role's moves of `legal` (in state `s`, `depth` plies left,
/// values for `role`): our role maximises, the others minimise. Ties keep
/// the game's order.
#[allow(clippy::too_many_arguments)]
pub fn order_moves<M: StateMachine>(
    m: &mut M,
    h: &mut dyn Heuristic<M>,
    role: usize,
    s: &M::State,
    legal: &mut [Vec<TermId>],
    depth: u32,
    order: Order,
    budget: &Budget,
) -> Result<(), Stop> {
    match order {
        Order::Given => return Ok(()),
        Order::Reversed => {
            legal.iter_mut().for_each(|l| l.reverse());
            return Ok(());
        }
        Order::Best | Order::Worst => {}
    }
    if legal.iter().all(|l| l.len() <= 1) {
        return Ok(());
    }
    // The value of every joint move's child.
    let joints = crate::reasoner::joint_moves(legal)?;
    let mut values = Vec::with_capacity(joints.len());
    for joint in &joints {
        let child = m.next_state(s, joint)?;
        let mut mm = Minimax::new(m, h, role, budget);
        values.push(mm.value(&child, depth.saturating_sub(1))?);
    }
    for (r, moves) in legal.iter_mut().enumerate() {
        if moves.len() <= 1 {
            continue;
        }
        // A move of ours is worth its best joint (we choose), a move of
        // another role its worst joint for us.
        let worth = |mv: TermId| {
            let vs = joints
                .iter()
                .zip(&values)
                .filter(|(j, _)| j[r] == mv)
                .map(|(_, &v)| v);
            if r == role {
                vs.fold(f64::NEG_INFINITY, f64::max)
            } else {
                -vs.fold(f64::INFINITY, f64::min)
            }
        };
        let mut keyed: Vec<(f64, TermId)> = moves.iter().map(|&mv| (worth(mv), mv)).collect();
        // Stable: equal values keep the game's order.
        keyed.sort_by(|a, b| {
            let c = b.0.total_cmp(&a.0);
            if order == Order::Worst {
                c.reverse()
            } else {
                c
            }
        });
        *moves = keyed.into_iter().map(|(_, mv)| mv).collect();
    }
    Ok(())
}
