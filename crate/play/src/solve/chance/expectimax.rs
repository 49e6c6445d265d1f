//! A player's best response over its information sets: expectimax where
//! chance averages uniformly, the other player (if any) plays a fixed
//! strategy, and the player takes the same move in every node of an
//! information set, the one with the best expected goal over the set.
//!
//! With perfect recall (a history holds the player's own moves) this is
//! exact when the information sets are resolved deepest first: the value
//! of a move in a set depends only on the player's later sets.

use super::tree::{Kind, Tree};

/// Per information set: the probability of each move.
pub(crate) type Strategy = Vec<Vec<f64>>;

/// What a best response found.
pub(crate) struct Response {
    /// The player's expected goal.
    pub value: f64,
    /// Per information set of the player: the index of its move
    /// (`usize::MAX` for the other player's sets).
    pub choice: Vec<usize>,
}

/// The best response of `player` when the other player plays `other`
/// (ignored when there is no other player).
pub(crate) fn best_response(tree: &Tree, player: u8, other: &Strategy) -> Response {
    let reach = reach(tree, player, other);
    let mut members: Vec<Vec<u32>> = vec![Vec::new(); tree.infosets.len()];
    for (i, n) in tree.nodes.iter().enumerate() {
        if n.kind == Kind::Decision && tree.infosets[n.data as usize].player == player {
            members[n.data as usize].push(i as u32);
        }
    }
    let mut order: Vec<usize> = (0..tree.infosets.len())
        .filter(|&s| !members[s].is_empty())
        .collect();
    order.sort_by_key(|&s| std::cmp::Reverse(tree.infosets[s].step));
    let mut walk = Walk {
        tree,
        player,
        other,
        choice: vec![usize::MAX; tree.infosets.len()],
        memo: vec![f64::NAN; tree.nodes.len()],
    };
    for set in order {
        let moves = tree.infosets[set].moves.len();
        let mut best = (f64::NEG_INFINITY, 0);
        for a in 0..moves {
            let q: f64 = members[set]
                .iter()
                .filter(|&&h| reach[h as usize] > 0.0)
                .map(|&h| reach[h as usize] * walk.value(tree.kids(h as usize)[a] as usize))
                .sum();
            // Ties keep the first move (in the order of the moves' text).
            if q > best.0 + 1e-12 {
                best = (q, a);
            }
        }
        walk.choice[set] = best.1;
    }
    Response {
        value: walk.value(0),
        choice: walk.choice,
    }
}

/// Per node: the probability that chance and the other player reach it
/// (the player's own moves count as taken).
fn reach(tree: &Tree, player: u8, other: &Strategy) -> Vec<f64> {
    let mut reach = vec![0.0; tree.nodes.len()];
    reach[0] = 1.0;
    for (i, &n) in tree.nodes.iter().enumerate() {
        let kids = tree.kids(i);
        for (a, &k) in kids.iter().enumerate() {
            let p = match n.kind {
                Kind::Chance => 1.0 / kids.len() as f64,
                Kind::Decision if tree.infosets[n.data as usize].player != player => {
                    other[n.data as usize][a]
                }
                _ => 1.0,
            };
            reach[k as usize] = reach[i] * p;
        }
    }
    reach
}

struct Walk<'a> {
    tree: &'a Tree,
    player: u8,
    other: &'a Strategy,
    choice: Vec<usize>,
    memo: Vec<f64>,
}

impl Walk<'_> {
    /// The player's expected goal at node `i` under the choices made so
    /// far (those below `i` are all made when this is asked).
    fn value(&mut self, i: usize) -> f64 {
        if !self.memo[i].is_nan() {
            return self.memo[i];
        }
        let tree = self.tree;
        let n = tree.nodes[i];
        let kids = tree.kids(i);
        let v = match n.kind {
            Kind::Terminal => tree.goals[n.data as usize][self.player as usize],
            Kind::Chance => {
                kids.iter().map(|&k| self.value(k as usize)).sum::<f64>() / kids.len() as f64
            }
            Kind::Decision if tree.infosets[n.data as usize].player == self.player => {
                let a = self.choice[n.data as usize];
                debug_assert!(a != usize::MAX, "a deeper set is resolved first");
                self.value(kids[a] as usize)
            }
            Kind::Decision => {
                let other = self.other;
                let sigma = &other[n.data as usize];
                kids.iter()
                    .zip(sigma)
                    .filter(|(_, &p)| p > 0.0)
                    .map(|(&k, &p)| p * self.value(k as usize))
                    .sum()
            }
        };
        self.memo[i] = v;
        v
    }
}

/// Per node: the probability that every role (chance and both players
/// playing `strategy`) reaches it.
pub(crate) fn profile_reach(tree: &Tree, strategy: &Strategy) -> Vec<f64> {
    let mut reach = vec![0.0; tree.nodes.len()];
    reach[0] = 1.0;
    for (i, &n) in tree.nodes.iter().enumerate() {
        let kids = tree.kids(i);
        for (a, &k) in kids.iter().enumerate() {
            let p = match n.kind {
                Kind::Chance => 1.0 / kids.len() as f64,
                _ => strategy[n.data as usize][a],
            };
            reach[k as usize] = reach[i] * p;
        }
    }
    reach
}

/// Each player's expected goal when both play `strategy`.
pub(crate) fn expected(tree: &Tree, strategy: &Strategy) -> Vec<f64> {
    let reach = profile_reach(tree, strategy);
    let mut total = vec![0.0; tree.players.len()];
    for (i, n) in tree.nodes.iter().enumerate() {
        if n.kind == Kind::Terminal {
            for (t, g) in total.iter_mut().zip(&tree.goals[n.data as usize]) {
                *t += reach[i] * g;
            }
        }
    }
    total
}
