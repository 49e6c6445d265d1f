//! The statistics of one role's moves at the root of a search, as plain
//! MCTS and MCTS-Solver report them: what root-parallel search merges
//! across threads and workers, and the one rule that picks the move.

use crate::terms::TermId;

/// Exact rewards above this count as the top reward (a win); below
/// `1 - WIN` as the bottom (a loss).
pub(crate) const WIN: f64 = 1.0 - 1e-9;

/// The statistics of one role's moves at the root of a search: per legal
/// move (in the machine's order) its visits, summed reward in [0, 1] and,
/// from MCTS-Solver, its proven value (where the role alone moves).
/// Empty `moves` means the root is terminal (or nobody can move).
/// `Mv` is the move: a term id natively, the move's text when statistics
/// travel between Web Workers or Node worker threads.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(concrete(Mv = String)))]
pub struct RootStats<Mv = TermId> {
    pub moves: Vec<Mv>,
    pub visits: Vec<u64>,
    /// Summed rewards in [0, 1] per move.
    pub totals: Vec<f64>,
    /// Iterations that produced these statistics.
    pub playouts: u64,
    /// Per move its proven value in [0, 1] (`null`: not proven); empty
    /// when the search proves nothing (plain MCTS).
    #[serde(default)]
    pub proven: Vec<Option<f64>>,
    /// Per proven move the plies to the end along its proof (`null`: not
    /// known); empty when nothing is proven.
    #[serde(default)]
    pub plies: Vec<Option<u32>>,
}

impl<Mv> Default for RootStats<Mv> {
    fn default() -> Self {
        RootStats {
            moves: Vec::new(),
            visits: Vec::new(),
            totals: Vec::new(),
            playouts: 0,
            proven: Vec::new(),
            plies: Vec::new(),
        }
    }
}

/// Merges the root statistics of searches from the same root (root
/// parallelisation): visits, rewards and playouts are summed per move, and
/// a value proven by any part is kept (proofs are exact, so they agree).
/// Parts must list the same moves in the same order.
pub fn merge_roots<Mv: Clone + PartialEq>(
    parts: &[RootStats<Mv>],
) -> Result<RootStats<Mv>, crate::error::SearchError> {
    let mut out = RootStats::default();
    for (k, p) in parts.iter().enumerate() {
        let n = p.moves.len();
        let proven_ok = p.proven.is_empty() || p.proven.len() == n;
        let plies_ok = p.plies.is_empty() || p.plies.len() == n;
        if p.visits.len() != n || p.totals.len() != n || !proven_ok || !plies_ok {
            return Err(crate::error::SearchError::Roots(
                "root statistics: moves, visits, totals, proven values and plies differ in length",
            ));
        }
        if k == 0 {
            out.moves = p.moves.clone();
            out.visits = vec![0; n];
            out.totals = vec![0.0; n];
        } else if p.moves != out.moves {
            return Err(crate::error::SearchError::Roots(
                "root statistics of different roots or roles cannot be merged",
            ));
        }
        for i in 0..n {
            out.visits[i] += p.visits[i];
            out.totals[i] += p.totals[i];
        }
        if !p.proven.is_empty() {
            out.proven.resize(n, None);
            out.plies.resize(n, None);
            let plies = p.plies.iter().copied().chain(std::iter::repeat(None));
            for ((o, v), (d, e)) in
                (out.proven.iter_mut().zip(&p.proven)).zip(out.plies.iter_mut().zip(plies))
            {
                if o.is_none() && v.is_some() {
                    *d = e;
                }
                *o = o.or(*v);
            }
        }
        out.playouts += p.playouts;
    }
    Ok(out)
}

/// The move to play from root statistics and its value in [0, 1]: the
/// quickest proven win; else, of the moves not proven lost (all if every
/// one is), the best proven value when all are proven (of equals, the
/// sooner end where it is better than the middle, else the later), else
/// the first of [`ranked`]'s order. `None` when there is no move.
pub fn choose<Mv>(rs: &RootStats<Mv>) -> Option<(usize, f64)> {
    let order = order(rs);
    let &first = order.first()?;
    let proven = |i: usize| rs.proven.get(i).copied().flatten();
    let value = |i: usize| proven(i).unwrap_or_else(|| mean_of(rs, i));
    let plies = |i: usize| rs.plies.get(i).copied().flatten();
    if group(rs, first) == 0 {
        let wins = order.iter().copied().take_while(|&i| group(rs, i) == 0);
        let quickest = wins.min_by_key(|&i| plies(i).unwrap_or(u32::MAX));
        return Some((quickest.unwrap_or(first), 1.0));
    }
    // Of two equal proven values, the better end: sooner where it is
    // better than the middle, later where it is worse.
    let sooner = |a: usize, b: usize| {
        let good = value(a) > 0.5;
        let unknown = if good { u32::MAX } else { 0 };
        let (pa, pb) = (plies(a).unwrap_or(unknown), plies(b).unwrap_or(unknown));
        if good {
            pb.cmp(&pa)
        } else {
            pa.cmp(&pb)
        }
    };
    let open: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&i| group(rs, i) == 1)
        .collect();
    let pool = if open.is_empty() { order } else { open };
    if pool.iter().all(|&i| proven(i).is_some()) {
        return pool
            .into_iter()
            .max_by(|&a, &b| {
                (value(a).total_cmp(&value(b)))
                    .then_with(|| sooner(a, b))
                    .then(b.cmp(&a))
            })
            .map(|i| (i, value(i)));
    }
    Some((pool[0], value(pool[0])))
}

/// The root moves best first: a proven win, then the moves not proven
/// lost, then the rest; each group most visited first (ties: higher mean,
/// then the first).
pub fn ranked<Mv: Copy>(rs: &RootStats<Mv>) -> Vec<Mv> {
    order(rs).into_iter().map(|i| rs.moves[i]).collect()
}

/// [`ranked`]'s order, as indices.
fn order<Mv>(rs: &RootStats<Mv>) -> Vec<usize> {
    let n = rs.moves.len().min(rs.visits.len()).min(rs.totals.len());
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| {
        (group(rs, a).cmp(&group(rs, b)))
            .then(rs.visits[b].cmp(&rs.visits[a]))
            .then(mean_of(rs, b).total_cmp(&mean_of(rs, a)))
            .then(a.cmp(&b))
    });
    order
}

/// Move `i`'s group in [`ranked`]: 0 proven won, 1 open, 2 proven lost.
fn group<Mv>(rs: &RootStats<Mv>, i: usize) -> u8 {
    match rs.proven.get(i).copied().flatten() {
        Some(v) if v >= WIN => 0,
        Some(v) if v <= 1.0 - WIN => 2,
        _ => 1,
    }
}

/// Move `i`'s mean reward at the root (0 before any visit).
pub fn mean_of<Mv>(rs: &RootStats<Mv>, i: usize) -> f64 {
    if rs.visits[i] == 0 {
        0.0
    } else {
        rs.totals[i] / rs.visits[i] as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(visits: &[u64], means: &[f64], proven: &[Option<f64>]) -> RootStats<u8> {
        RootStats {
            moves: (0..visits.len() as u8).collect(),
            visits: visits.to_vec(),
            totals: visits
                .iter()
                .zip(means)
                .map(|(&n, m)| n as f64 * m)
                .collect(),
            playouts: visits.iter().sum(),
            proven: proven.to_vec(),
            plies: Vec::new(),
        }
    }

    /// The quickest of the proven wins, the latest of the proven losses,
    /// whatever the visits; the first of equals where no ply is known.
    #[test]
    fn choose_ends_wins_soon_and_losses_late() {
        let mut rs = stats(&[9, 5, 1], &[1.0; 3], &[Some(1.0), Some(1.0), None]);
        rs.plies = vec![Some(7), Some(3), None];
        assert_eq!(choose(&rs), Some((1, 1.0)));
        let mut rs = stats(&[9, 5, 2], &[0.0; 3], &[Some(0.0); 3]);
        rs.plies = vec![Some(2), Some(6), Some(4)];
        assert_eq!(choose(&rs), Some((1, 0.0)));
        // A draw: the later end, as a loss.
        rs.proven = vec![Some(0.5); 3];
        assert_eq!(choose(&rs), Some((1, 0.5)));
        rs.plies.clear();
        assert_eq!(choose(&rs), Some((0, 0.5)));
    }

    #[test]
    fn choose_plays_the_first_ranked_move_unless_every_open_one_is_proven() {
        // Open moves: the most visited, a tie to the higher mean.
        let rs = stats(&[5, 9, 9], &[0.9, 0.4, 0.5], &[]);
        assert_eq!(ranked(&rs), vec![2, 1, 0]);
        assert_eq!(choose(&rs), Some((2, 0.5)));
        // A proven loss goes last, behind a less visited open move.
        let rs = stats(&[5, 9], &[0.3, 0.6], &[None, Some(0.0)]);
        assert_eq!(ranked(&rs), vec![0, 1]);
        assert_eq!(choose(&rs), Some((0, 0.3)));
        // A proven win first, whatever its visits.
        let rs = stats(&[9, 1], &[0.5, 1.0], &[None, Some(1.0)]);
        assert_eq!(ranked(&rs), vec![1, 0]);
        assert_eq!(choose(&rs), Some((1, 1.0)));
        // Every move proven: the best value, not the most visited.
        let rs = stats(&[9, 1], &[0.5, 0.7], &[Some(0.5), Some(0.7)]);
        assert_eq!(ranked(&rs), vec![0, 1]);
        assert_eq!(choose(&rs), Some((1, 0.7)));
        // Every move lost: still a move, the first of the equals.
        let rs = stats(&[2, 7], &[0.0, 0.0], &[Some(0.0), Some(0.0)]);
        assert_eq!(choose(&rs).map(|c| c.0), Some(0));
        assert_eq!(choose(&stats(&[], &[], &[])), None);
    }
}
