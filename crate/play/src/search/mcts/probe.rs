//! Probe playouts: random playouts from the initial state in which every
//! move of the only mover is tried at each step, to find the moves that
//! always do something where they are legal: gain a latched piece
//! ([`super::latches`]), raise their mover's goal ([`super::progress`]).
//! Playouts then take them where they can (`solver/walker.rs`).

use crate::clock::now_ms;
use crate::reasoner::{only_mover, random_walk, EvalError, StateMachine};
use crate::terms::TermId;
use rustc_hash::FxHashMap;

/// Random playouts in which every move is tried.
const PROBES: usize = 24;

/// What the probes found.
pub struct Found {
    /// The moves whose `measure` rose for their role beyond any other
    /// role's every time they were legal, at least twice (sorted).
    pub moves: Vec<(usize, TermId)>,
    /// Whether some such rise led to a state that is not terminal.
    pub before_the_end: bool,
}

/// Probes from `root` for the moves after which `measure` (a number per
/// role) rose for their mover beyond any other role's, every time they
/// were legal along `PROBES` (24) random playouts of at most `max_steps`.
/// Stops at `until_ms` ([`now_ms`]'s clock) with what it saw by then.
pub fn moves_that_always_gain<M: StateMachine>(
    m: &mut M,
    root: &M::State,
    rng: &mut fastrand::Rng,
    max_steps: usize,
    until_ms: f64,
    mut measure: impl FnMut(&mut M, &M::State) -> Result<Vec<i64>, EvalError>,
) -> Result<Found, EvalError> {
    let mut seen: FxHashMap<(usize, TermId), (u32, u32)> = FxHashMap::default();
    let mut before_the_end = false;
    for _ in 0..PROBES {
        if now_ms() > until_ms {
            break;
        }
        random_walk(m, root, rng, max_steps, |m, s, legal, _| {
            if now_ms() > until_ms {
                return Ok(false);
            }
            let Some(r) = only_mover(legal) else {
                return Ok(true);
            };
            let before = measure(m, s)?;
            let mut joint: Vec<TermId> = legal.iter().map(|l| l[0]).collect();
            for &mv in &legal[r] {
                joint[r] = mv;
                let next = m.next_state(s, &joint)?;
                let gained = lead_gained(r, &before, &measure(m, &next)?) > 0;
                if gained && !before_the_end {
                    before_the_end = !m.is_terminal(&next)?;
                }
                let e = seen.entry((r, mv)).or_default();
                e.0 += 1;
                e.1 += u32::from(gained);
            }
            Ok(true)
        })?;
    }
    let mut moves: Vec<(usize, TermId)> = (seen.into_iter())
        .filter(|&(_, (legal, gained))| legal >= 2 && gained == legal)
        .map(|(mv, _)| mv)
        .collect();
    moves.sort_unstable();
    Ok(Found {
        moves,
        before_the_end,
    })
}

/// What role `r` gained from `before` to `after`, less the most any other
/// role gained.
pub fn lead_gained(r: usize, before: &[i64], after: &[i64]) -> i64 {
    let gain = |i: usize| after[i] - before[i];
    let others = (0..before.len()).filter(|&i| i != r).map(gain).max();
    gain(r) - others.unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lead_gained_is_the_movers_gain_less_the_best_other() {
        assert_eq!(lead_gained(0, &[1, 2], &[2, 2]), 1);
        assert_eq!(lead_gained(1, &[1, 2], &[2, 2]), -1);
        assert_eq!(lead_gained(0, &[0, 0, 0], &[1, 0, 2]), -1);
        assert_eq!(lead_gained(2, &[0, 0, 0], &[1, 0, 2]), 1);
    }
}
