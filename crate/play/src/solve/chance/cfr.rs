//! Counterfactual regret minimisation (CFR+, Tammelin 2014; CFR: Zinkevich
//! et al., NIPS 2007) over the whole tree of a two-player zero-sum game:
//! regret matching with regrets floored at zero, the players updated in
//! turn, the average strategy weighted by the iteration. Its
//! exploitability is measured by each player's best response.

use super::expectimax::{best_response, Strategy};
use super::tree::{Kind, Tree};

pub(crate) struct Cfr<'a> {
    tree: &'a Tree,
    regrets: Strategy,
    sums: Strategy,
    /// The current strategy (regret matching on `regrets`).
    current: Strategy,
    delta: Strategy,
    pub iterations: u64,
}

impl<'a> Cfr<'a> {
    pub fn new(tree: &'a Tree) -> Cfr<'a> {
        let zeros: Strategy = tree
            .infosets
            .iter()
            .map(|s| vec![0.0; s.moves.len()])
            .collect();
        let mut cfr = Cfr {
            tree,
            regrets: zeros.clone(),
            sums: zeros.clone(),
            current: zeros.clone(),
            delta: zeros,
            iterations: 0,
        };
        cfr.match_regrets();
        cfr
    }

    /// One iteration: each player in turn updates its regrets against the
    /// other's current strategy.
    pub fn iterate(&mut self) {
        self.iterations += 1;
        for p in 0..2u8 {
            for d in &mut self.delta {
                d.fill(0.0);
            }
            self.traverse(0, p, 1.0, 1.0);
            for (r, d) in self.regrets.iter_mut().zip(&self.delta) {
                for (r, d) in r.iter_mut().zip(d) {
                    *r = (*r + d).max(0.0);
                }
            }
            self.match_regrets();
        }
    }

    /// Regret matching: moves in proportion to their positive regret,
    /// uniform when none has any.
    fn match_regrets(&mut self) {
        for (cur, r) in self.current.iter_mut().zip(&self.regrets) {
            normalise(cur, r);
        }
    }

    /// Player `p`'s expected goal at node `i`; `mine` is the probability
    /// that `p` plays to `i`, `others` that chance and the other player do.
    fn traverse(&mut self, i: usize, p: u8, mine: f64, others: f64) -> f64 {
        let tree = self.tree;
        let n = tree.nodes[i];
        let kids = tree.kids(i);
        match n.kind {
            Kind::Terminal => tree.goals[n.data as usize][p as usize],
            Kind::Chance => {
                let w = 1.0 / kids.len() as f64;
                kids.iter()
                    .map(|&k| self.traverse(k as usize, p, mine, others * w))
                    .sum::<f64>()
                    * w
            }
            Kind::Decision => {
                let set = n.data as usize;
                let sigma = self.current[set].clone();
                if tree.infosets[set].player != p {
                    return kids
                        .iter()
                        .zip(&sigma)
                        .filter(|(_, &s)| s > 0.0)
                        .map(|(&k, &s)| s * self.traverse(k as usize, p, mine, others * s))
                        .sum();
                }
                let values: Vec<f64> = kids
                    .iter()
                    .zip(&sigma)
                    .map(|(&k, &s)| self.traverse(k as usize, p, mine * s, others))
                    .collect();
                let v: f64 = values.iter().zip(&sigma).map(|(u, s)| u * s).sum();
                let weight = self.iterations as f64 * mine;
                for (a, u) in values.iter().enumerate() {
                    self.delta[set][a] += others * (u - v);
                    self.sums[set][a] += weight * sigma[a];
                }
                v
            }
        }
    }

    /// The average strategy (the one that converges to an equilibrium).
    pub fn average(&self) -> Strategy {
        self.sums
            .iter()
            .map(|s| {
                let mut out = vec![0.0; s.len()];
                normalise(&mut out, s);
                out
            })
            .collect()
    }
}

fn normalise(out: &mut [f64], weights: &[f64]) {
    let total: f64 = weights.iter().map(|w| w.max(0.0)).sum();
    for (o, w) in out.iter_mut().zip(weights) {
        *o = if total > 0.0 {
            w.max(0.0) / total
        } else {
            1.0 / weights.len() as f64
        };
    }
}

/// How far `strategy` is from an equilibrium: the mean of what each
/// player's best response gains over its value under `strategy`
/// (NashConv / 2), in goal points; and the best responses' values.
pub(crate) fn exploitability(tree: &Tree, strategy: &Strategy, values: &[f64]) -> (f64, [f64; 2]) {
    let br = [
        best_response(tree, 0, strategy).value,
        best_response(tree, 1, strategy).value,
    ];
    let gain = (br[0] - values[0]) + (br[1] - values[1]);
    (gain / 2.0, br)
}
