//! Connect four on small boards, from the library's rules with the board's
//! width and height changed, against a dedicated solver written here: a
//! memoised search over the positions as two bitboards. Both `gdlkit
//! solve` (explicit) and `solve --symbolic` must give its reachable
//! positions (per ply too), its terminal positions, its count of
//! positions by value and the initial value, and `--symbolic --count` its
//! positions per ply and terminal positions. A position after a win is
//! terminal, as in the rules; a full board is a draw.

use std::collections::HashMap;

use gdlkit::solve::{self, Limits, SymbolicLimits};
use gdlkit::{load_engine, parse_program, EngineChoice};

use crate::common::corpus;

/// The library's connect four on a `w` × `h` board.
fn rules(w: usize, h: usize) -> String {
    let path = corpus::root().join("games/connectFour.kif");
    let text = std::fs::read_to_string(&path).expect("games/connectFour.kif");
    let list = |name: &str, n: usize| {
        (1..=n)
            .map(|i| format!("({name} {i})"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let succ = (1..w.max(h))
        .map(|i| format!("(succ {i} {})", i + 1))
        .collect::<Vec<_>>()
        .join(" ");
    let swaps = [
        (list("column", 7), list("column", w)),
        (list("row", 6), list("row", h)),
        (
            "(succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5) (succ 5 6) (succ 6 7)".into(),
            succ,
        ),
        (
            "(true (cell ?x 6 b))".into(),
            format!("(true (cell ?x {h} b))"),
        ),
    ];
    swaps.iter().fold(text, |t, (from, to)| {
        assert!(t.contains(from.as_str()), "connectFour.kif has no {from}");
        t.replace(from.as_str(), to)
    })
}

/// What the dedicated solver finds: positions per ply, terminal
/// positions, positions by red's value (100, 50, 0), the initial value.
#[derive(Debug, Default)]
struct Truth {
    per_ply: Vec<u128>,
    terminal: u128,
    by_red: [u128; 3],
    initial: u8,
}

/// Bitboards: bit `x * (h + 1) + y` is column `x`, row `y` from the bottom
/// (a spare bit per column keeps lines from wrapping).
struct Board {
    w: usize,
    h: usize,
    values: HashMap<(u64, u64), u8>,
}

impl Board {
    fn four(&self, b: u64) -> bool {
        let s = self.h + 1;
        [1, s, s + 1, s - 1].iter().any(|&d| {
            let m = b & (b >> d);
            m & (m >> (2 * d)) != 0
        })
    }

    /// Red's value of the position (`red`, `yellow`), counting each
    /// position once into `t`.
    fn value(&mut self, red: u64, yellow: u64, t: &mut Truth) -> u8 {
        if let Some(&v) = self.values.get(&(red, yellow)) {
            return v;
        }
        let discs = (red | yellow).count_ones() as usize;
        if t.per_ply.len() <= discs {
            t.per_ply.resize(discs + 1, 0);
        }
        t.per_ply[discs] += 1;
        let v = if self.four(red) {
            100
        } else if self.four(yellow) {
            0
        } else if discs == self.w * self.h {
            50
        } else {
            let red_moves = discs.is_multiple_of(2);
            let mut best = if red_moves { 0 } else { 100 };
            for x in 0..self.w {
                let col = (red | yellow) >> (x * (self.h + 1)) & ((1 << self.h) - 1);
                let y = col.count_ones() as usize;
                if y == self.h {
                    continue;
                }
                let bit = 1u64 << (x * (self.h + 1) + y);
                let v = if red_moves {
                    self.value(red | bit, yellow, t)
                } else {
                    self.value(red, yellow | bit, t)
                };
                best = if red_moves { best.max(v) } else { best.min(v) };
            }
            best
        };
        if self.four(red) || self.four(yellow) || discs == self.w * self.h {
            t.terminal += 1;
        }
        t.by_red[usize::from(2 - v / 50)] += 1;
        self.values.insert((red, yellow), v);
        v
    }
}

fn truth(w: usize, h: usize) -> Truth {
    let mut t = Truth::default();
    let mut b = Board {
        w,
        h,
        values: HashMap::new(),
    };
    t.initial = b.value(0, 0, &mut t);
    t
}

fn by_value(t: &Truth) -> Vec<(Option<Vec<u8>>, u128)> {
    [100u8, 50, 0]
        .iter()
        .zip(t.by_red)
        .filter(|&(_, n)| n > 0)
        .map(|(&v, n)| (Some(vec![v, 100 - v]), n))
        .collect()
}

/// Distinct positions after each of the first `plies` moves, by playing
/// every sequence of moves (no memo, no shared code with [`Board::value`]
/// but the line test).
fn by_sequences(w: usize, h: usize, plies: usize) -> Vec<usize> {
    let b = Board {
        w,
        h,
        values: HashMap::new(),
    };
    let mut layer = std::collections::HashSet::from([(0u64, 0u64)]);
    let mut counts = vec![1];
    for ply in 0..plies {
        let mut next = std::collections::HashSet::new();
        for &(red, yellow) in &layer {
            if b.four(red) || b.four(yellow) {
                continue;
            }
            for x in 0..w {
                let Some(y) = (0..h).find(|&y| (red | yellow) & (1 << (x * (h + 1) + y)) == 0)
                else {
                    continue;
                };
                let bit = 1u64 << (x * (h + 1) + y);
                next.insert(if ply.is_multiple_of(2) {
                    (red | bit, yellow)
                } else {
                    (red, yellow | bit)
                });
            }
        }
        counts.push(next.len());
        layer = next;
    }
    counts
}

#[test]
fn the_dedicated_solver_counts_the_known_boards() {
    // Tromp's count of 4 × 4 connect four positions.
    let t = truth(4, 4);
    assert_eq!(t.per_ply.iter().sum::<u128>(), 161_029);
    assert_eq!(t.initial, 50, "4 × 4 is a draw");
    // The first plies against every sequence of moves played out.
    let played: Vec<u128> = by_sequences(4, 4, 9)
        .into_iter()
        .map(|n| n as u128)
        .collect();
    assert_eq!(t.per_ply[..10], played[..]);
}

#[test]
fn both_solvers_agree_with_the_dedicated_solver_on_small_boards() {
    let mut boards = 0;
    for (w, h) in [(4, 3), (5, 3), (4, 4)] {
        let text = rules(w, h);
        let t = truth(w, h);
        let states: u128 = t.per_ply.iter().sum();
        let engine = load_engine(&text, EngineChoice::Fast).expect("the rules load");
        let e = solve::solve(engine, Limits::default())
            .expect("solves")
            .summary();
        assert!(e.complete, "{w}x{h}: explicit stopped: {:?}", e.stopped);
        assert_eq!(
            u128::from(e.stats.states),
            states,
            "{w}x{h}: explicit states"
        );
        assert_eq!(
            u128::from(e.stats.terminal),
            t.terminal,
            "{w}x{h}: explicit terminal"
        );
        let got: Vec<_> = e
            .by_value
            .iter()
            .map(|c| (c.goals.clone(), u128::from(c.states)))
            .collect();
        assert_eq!(got, by_value(&t), "{w}x{h}: explicit states by value");
        assert_eq!(
            e.initial.map(|v| v.goals),
            Some(vec![t.initial, 100 - t.initial]),
            "{w}x{h}: explicit initial value"
        );

        let s = solve::solve_symbolic(&parse_program(&text), &SymbolicLimits::default())
            .expect("solves symbolically");
        assert!(s.complete, "{w}x{h}: symbolic stopped: {:?}", s.stopped);
        assert_eq!(s.stats.layers, t.per_ply, "{w}x{h}: symbolic layers");
        assert_eq!(s.stats.terminal, t.terminal, "{w}x{h}: symbolic terminal");
        let got: Vec<_> = s
            .by_value
            .iter()
            .map(|c| (c.goals.clone(), c.states))
            .collect();
        assert_eq!(got, by_value(&t), "{w}x{h}: symbolic states by value");
        assert_eq!(
            s.initial,
            Some(vec![t.initial, 100 - t.initial]),
            "{w}x{h}: symbolic initial value"
        );

        // Counting only: the same layers and terminal positions, with the
        // terminal states in parts and no goals.
        let count = SymbolicLimits {
            count_only: true,
            ..SymbolicLimits::default()
        };
        let c = solve::solve_symbolic(&parse_program(&text), &count).expect("counts");
        assert!(c.complete, "{w}x{h}: counting stopped: {:?}", c.stopped);
        assert_eq!(c.stats.layers, t.per_ply, "{w}x{h}: counted layers");
        assert_eq!(c.stats.terminal, t.terminal, "{w}x{h}: counted terminal");
        assert!(c.initial.is_none() && c.by_value.is_empty() && c.concept.is_none());
        boards += 1;
    }
    assert_eq!(boards, 3);
}
