//! Proofs in MCTS-Solver's tree: a node's exact values from its
//! children's, with the plies to the end along the proof, so that of
//! equally proven moves the quickest win and the slowest loss are known.

use super::tree::{Node, Searcher, MAX_PROVEN_JOINTS};
use crate::search::mcts::root::WIN;

impl<S> Searcher<S> {
    /// The proven rewards of the child of `node` reached by joint index `k`.
    pub(super) fn child_proven(&self, node: &Node<S>, k: u64) -> Option<&[f64]> {
        self.child_proof(node, k).map(|p| p.0)
    }

    /// [`Self::child_proven`] with the child's plies to the end.
    pub(super) fn child_proof(&self, node: &Node<S>, k: u64) -> Option<(&[f64], u16)> {
        let c = &self.nodes[*node.children.get(&k)? as usize];
        Some((c.proven.as_deref()?, c.plies))
    }

    /// Proves node `id` from its children where it can; true if proven.
    pub(super) fn prove(&mut self, id: u32) -> bool {
        let node = &self.nodes[id as usize];
        if node.proven.is_some() {
            return true;
        }
        let value: Option<(&[f64], u16)> = match node.mover() {
            Some(r) => {
                // The best proven child: a win proves the node whatever
                // the others are, anything else once all are proven.
                let mut best: Option<(&[f64], u16)> = None;
                let mut all = true;
                for i in 0..node.legal[r].len() {
                    match self.child_proof(node, (i as u64).wrapping_mul(node.strides[r])) {
                        Some(p) => {
                            if best.is_none_or(|b| better_proof(r, p, b)) {
                                best = Some(p);
                            }
                        }
                        None => all = false,
                    }
                }
                best.filter(|b| all || b.0[r] >= WIN)
            }
            None => {
                let n = node.joints();
                if n > MAX_PROVEN_JOINTS {
                    None
                } else {
                    // Every joint move alike (as late as the slowest), or
                    // a move that wins whatever the others play.
                    let first = self.child_proven(node, 0);
                    let same = (1..n).all(|k| self.child_proven(node, k) == first);
                    let latest = || {
                        (0..n)
                            .filter_map(|k| self.child_proof(node, k))
                            .map(|c| c.1)
                            .max()
                    };
                    match (first, same) {
                        (Some(p), true) => Some((p, latest().unwrap_or(0))),
                        _ => self.dominant_win(node),
                    }
                }
            }
        };
        let Some((value, plies)) = value else {
            return false;
        };
        let (value, plies) = (Box::from(value), plies.saturating_add(1));
        let node = &mut self.nodes[id as usize];
        node.proven = Some(value);
        node.plies = plies;
        true
    }

    /// Where several roles move at once: the outcome of role `r`'s move
    /// `i` if every joint move with it is proven to the same values
    /// (whatever the others play), else `None`.
    /// With the plies to the end: the most of the row's (the others
    /// delay as they can).
    pub(super) fn row_proof(&self, node: &Node<S>, r: usize, i: usize) -> Option<(&[f64], u16)> {
        let n = node.joints();
        if n > MAX_PROVEN_JOINTS {
            return None;
        }
        let (len, stride) = (node.legal[r].len() as u64, node.strides[r]);
        let mut row = (0..n).filter(|k| (k / stride) % len == i as u64);
        let (first, mut plies) = self.child_proof(node, row.next()?)?;
        for k in row {
            match self.child_proof(node, k) {
                Some((p, d)) if p == first => plies = plies.max(d),
                _ => return None,
            }
        }
        Some((first, plies))
    }

    /// A move of some role that wins whatever the others play: the role
    /// plays it (nothing is better for it), so the node has its values.
    fn dominant_win(&self, node: &Node<S>) -> Option<(&[f64], u16)> {
        (0..node.legal.len()).find_map(|r| {
            (0..node.legal[r].len())
                .filter_map(|i| self.row_proof(node, r, i))
                .find(|p| p.0[r] >= WIN)
        })
    }
}

/// Whether proof `a` is better than `b` for role `r`: a higher value, or
/// the same sooner where it is a win or better than the middle, later
/// where it is worse (the opponent may yet err, or the other part of a
/// race end first).
pub(super) fn better_proof(r: usize, a: (&[f64], u16), b: (&[f64], u16)) -> bool {
    match a.0[r].total_cmp(&b.0[r]) {
        std::cmp::Ordering::Equal if a.0[r] > 0.5 => a.1 < b.1,
        std::cmp::Ordering::Equal => a.1 > b.1,
        o => o.is_gt(),
    }
}
