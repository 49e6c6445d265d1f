//! Move orders for teaching (`ordering` of a search): the game's own order,
//! reversed, the best move first (perfect ordering: alpha-beta prunes the
//! most) or the worst first (it prunes nothing). Minimax and alpha-beta
//! reorder each node's legal moves with
//! [`order_moves`](crate::search::minimax::order_moves), which lives with the plain
//! minimax it runs for best and worst first.

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
    type Err = crate::error::SearchError;
    fn from_str(s: &str) -> Result<Order, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "given" | "game" => Ok(Order::Given),
            "reversed" | "reverse" => Ok(Order::Reversed),
            "best" | "best-first" => Ok(Order::Best),
            "worst" | "worst-first" => Ok(Order::Worst),
            other => Err(crate::error::SearchError::Ordering(other.into())),
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
