//! The packed solver's backward pass: one state's value from its
//! successors' values, with the graph solver's semantics (`retro.rs`) on
//! a layered graph, where every successor is decided before its
//! predecessors and the attractors reduce to minima and maxima.

use crate::solve::retro::hurry;
use crate::solve::{kind, Concept, UNKNOWN};

/// What the backward pass knows of a state. `lo` and `hi` (zero-sum):
/// the best bound on the first role's goal that the first role, and the
/// second, can force (`UNKNOWN`: none, the end is not forced within what
/// was explored); the value is known when they meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Val {
    pub goals: [u8; 2],
    pub depth: u32,
    pub lo: u8,
    pub hi: u8,
}

impl Val {
    /// A state not expanded (or not decided): no value.
    pub const OPEN: Val = Val {
        goals: [UNKNOWN; 2],
        depth: 0,
        lo: UNKNOWN,
        hi: UNKNOWN,
    };

    /// A terminal state with these goals (the second ignored for one role).
    pub fn terminal(concept: Concept, goals: [u8; 2]) -> Val {
        let goals = match concept {
            Concept::OnePlayer => [goals[0], 0],
            _ => goals,
        };
        Val {
            goals,
            depth: 0,
            lo: goals[0],
            hi: goals[0],
        }
    }
}

/// The value of a state where `mover` (0, 1 or [`kind::FORCED`]) picks one
/// of `succ`; `sum` is the goals' constant sum (zero-sum).
pub(crate) fn combine(concept: Concept, mover: u8, succ: &[Val], sum: u8) -> Val {
    match concept {
        Concept::OnePlayer => one_player(succ),
        Concept::ZeroSum => zero_sum(mover, succ, sum),
        Concept::GeneralSum => general_sum(mover, succ),
    }
}

/// The best goal reachable, by the fewest moves.
fn one_player(succ: &[Val]) -> Val {
    let known = || succ.iter().filter(|v| v.goals[0] != UNKNOWN);
    let Some(best) = known().map(|v| v.goals[0]).max() else {
        return Val::OPEN;
    };
    let depth = known()
        .filter(|v| v.goals[0] == best)
        .map(|v| v.depth)
        .min()
        .unwrap_or(0);
    Val {
        goals: [best, 0],
        depth: depth + 1,
        ..Val::OPEN
    }
}

/// The bound that `attacker` forces: where it moves the best known
/// successor's, elsewhere the worst of all successors' (none if one has
/// none). `better` says which of two bounds the attacker prefers.
fn bound(
    attacker: u8,
    mover: u8,
    succ: &[Val],
    get: impl Fn(&Val) -> u8,
    better: fn(u8, u8) -> u8,
    worse: fn(u8, u8) -> u8,
) -> u8 {
    let mut bounds = succ.iter().map(get);
    if mover == attacker {
        return bounds
            .filter(|&b| b != UNKNOWN)
            .reduce(better)
            .unwrap_or(UNKNOWN);
    }
    let first = bounds.next().unwrap_or(UNKNOWN);
    bounds.fold(first, |acc, b| {
        if acc == UNKNOWN || b == UNKNOWN {
            UNKNOWN
        } else {
            worse(acc, b)
        }
    })
}

fn zero_sum(mover: u8, succ: &[Val], sum: u8) -> Val {
    let lo = bound(0, mover, succ, |v| v.lo, u8::max, u8::min);
    let hi = bound(1, mover, succ, |v| v.hi, u8::min, u8::max);
    if lo == UNKNOWN || lo != hi {
        return Val {
            lo,
            hi,
            ..Val::OPEN
        };
    }
    let goals = [lo, sum - lo];
    // The moves to the end over the successors that keep the value: the
    // role that hurries takes the fewest, the other the most.
    let hurries = mover >= kind::FORCED || hurry(goals, usize::from(mover));
    let keeping = succ.iter().filter(|v| v.goals == goals).map(|v| v.depth);
    let depth = if hurries {
        keeping.min()
    } else {
        keeping.max()
    };
    Val {
        goals,
        depth: depth.map_or(0, |d| d + 1),
        lo,
        hi,
    }
}

/// Each mover maximises its own goal, then the opponent's lower goal,
/// then the pace ([`hurry`]); undecided when a successor is.
fn general_sum(mover: u8, succ: &[Val]) -> Val {
    if succ.iter().any(|v| v.goals[0] == UNKNOWN) {
        return Val::OPEN;
    }
    let mover = if mover >= kind::FORCED {
        0
    } else {
        usize::from(mover)
    };
    let rank = |v: &Val| {
        let d = i64::from(v.depth);
        let pace = if hurry(v.goals, mover) { -d } else { d };
        (v.goals[mover], u8::MAX - v.goals[1 - mover], pace)
    };
    // The last of equal ranks, as the graph solver's `max_by_key`.
    let best = succ.iter().max_by_key(|v| rank(v)).expect("a successor");
    Val {
        goals: best.goals,
        depth: best.depth + 1,
        ..Val::OPEN
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(g: u8) -> Val {
        Val::terminal(Concept::ZeroSum, [g, 100 - g])
    }

    #[test]
    fn zero_sum_takes_minimax_and_paces() {
        // The first role picks the win, the fastest of two.
        let slow = Val { depth: 3, ..t(100) };
        let v = combine(Concept::ZeroSum, 0, &[t(0), slow, t(100)], 100);
        assert_eq!((v.goals, v.depth), ([100, 0], 1));
        // The second role picks its own win, as fast as it can.
        let v = combine(Concept::ZeroSum, 1, &[t(100), slow, t(0)], 100);
        assert_eq!((v.goals, v.depth), ([0, 100], 1));
        // An open successor: the second role cannot be sure of less.
        let v = combine(Concept::ZeroSum, 0, &[t(50), Val::OPEN], 100);
        assert_eq!((v.goals[0], v.lo, v.hi), (UNKNOWN, 50, UNKNOWN));
        // A win for the first role bounds it from below only: the graph
        // solver's attractors give a value where both bounds meet.
        let v = combine(Concept::ZeroSum, 0, &[t(100), Val::OPEN], 100);
        assert_eq!((v.goals[0], v.lo, v.hi), (UNKNOWN, 100, UNKNOWN));
    }

    #[test]
    fn general_sum_waits_for_every_successor() {
        let a = Val::terminal(Concept::GeneralSum, [50, 50]);
        let b = Val::terminal(Concept::GeneralSum, [50, 0]);
        // Equal own goals: the opponent's lower goal wins the tie.
        let v = combine(Concept::GeneralSum, 0, &[a, b], 0);
        assert_eq!(v.goals, [50, 0]);
        assert_eq!(
            combine(Concept::GeneralSum, 0, &[a, Val::OPEN], 0),
            Val::OPEN
        );
    }
}
