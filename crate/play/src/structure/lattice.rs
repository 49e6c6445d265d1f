//! Boards whose places lie on a lattice, found from the rules: a 1-D board
//! (places named by single symbols, as chinese checkers' `a1` … `i1`)
//! whose values static relations of two arguments join as directions
//! (each relation a step one way: no place with two successors or two
//! predecessors in it). The directions are placed on a triangular lattice
//! (six neighbours) or a square one so that every step of a relation is
//! the same vector, no two places meet, and the board is as compact as it
//! can be (the least spread about its centre; a tie keeps the square).
//! Such a board gets the geometry "lattice" and each place's position.
//! Names play no part.

use super::Board;
use rustc_hash::{FxHashMap, FxHashSet};

/// Most direction relations tried (six: a triangular lattice's).
const MAX_DIRECTIONS: usize = 6;

/// A lattice's unit steps in integer coordinates, and where a point of
/// those coordinates lies in the plane (neighbours one unit apart).
struct Lattice {
    steps: &'static [(i32, i32)],
    plane: fn((i32, i32)) -> [f64; 2],
}

const SQUARE: Lattice = Lattice {
    steps: &[(1, 0), (0, 1), (-1, 0), (0, -1)],
    plane: |(q, r)| [q as f64, r as f64],
};

/// Axial coordinates: the row `r` is shifted half a step per row.
const TRIANGULAR: Lattice = Lattice {
    steps: &[(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)],
    plane: |(q, r)| [q as f64 + r as f64 / 2.0, r as f64 * 3f64.sqrt() / 2.0],
};

pub fn detect(boards: &mut [Board], relations: &[Vec<[String; 2]>]) {
    for b in boards.iter_mut().filter(|b| super::ring::is_plain_row(b)) {
        let steps = directions(&b.values[0], relations);
        if let Some(places) = embed(b.values[0].len(), &steps) {
            b.geometry = super::LATTICE.to_string();
            b.places = places;
        }
    }
}

/// The relations that are directions among `values`, as index pairs:
/// every row joins two of the values, no value has two successors or two
/// predecessors, and none repeats another (or another read backwards).
fn directions(values: &[String], relations: &[Vec<[String; 2]>]) -> Vec<Vec<(usize, usize)>> {
    let index: FxHashMap<&str, usize> = values
        .iter()
        .enumerate()
        .map(|(i, v)| (v.as_str(), i))
        .collect();
    let mut out: Vec<Vec<(usize, usize)>> = Vec::new();
    for rows in relations {
        let pairs: Option<Vec<(usize, usize)>> = rows
            .iter()
            .map(|[a, b]| Some((*index.get(a.as_str())?, *index.get(b.as_str())?)))
            .collect();
        let Some(mut pairs) = pairs else { continue };
        pairs.sort_unstable();
        pairs.dedup();
        let one_way = |key: fn(&(usize, usize)) -> usize| {
            let mut seen = FxHashSet::default();
            pairs.iter().all(|p| seen.insert(key(p)))
        };
        if pairs.len() < 2
            || pairs.iter().any(|(a, b)| a == b)
            || !one_way(|p| p.0)
            || !one_way(|p| p.1)
        {
            continue;
        }
        let mut back: Vec<(usize, usize)> = pairs.iter().map(|&(a, b)| (b, a)).collect();
        back.sort_unstable();
        if !out.iter().any(|d| *d == pairs || *d == back) {
            out.push(pairs);
        }
    }
    out
}

/// Each of `n` places' position in the plane (top-left at 0, 0; one unit
/// between neighbours) when the directions lay them out on a lattice
/// (see the module's doc); `None` when they do not, or when the places
/// would all lie on one line.
fn embed(n: usize, dirs: &[Vec<(usize, usize)>]) -> Option<Vec<[f64; 2]>> {
    if !(2..=MAX_DIRECTIONS).contains(&dirs.len()) {
        return None;
    }
    // Each place's steps: (neighbour, direction, forwards).
    let mut next: Vec<Vec<(usize, usize, bool)>> = vec![Vec::new(); n];
    for (d, pairs) in dirs.iter().enumerate() {
        for &(a, b) in pairs {
            next[a].push((b, d, true));
            next[b].push((a, d, false));
        }
    }
    let mut best: Option<(f64, Vec<[f64; 2]>)> = None;
    for lattice in [&SQUARE, &TRIANGULAR] {
        let k = lattice.steps.len();
        // The first direction points right; every choice of the others.
        for code in 0..k.pow(dirs.len() as u32 - 1) {
            let mut rest = code;
            let choice: Vec<(i32, i32)> = (0..dirs.len())
                .map(|d| {
                    if d == 0 {
                        return lattice.steps[0];
                    }
                    let s = lattice.steps[rest % k];
                    rest /= k;
                    s
                })
                .collect();
            let Some(points) = place(&next, &choice) else {
                continue;
            };
            let plane: Vec<[f64; 2]> = points.into_iter().map(lattice.plane).collect();
            let spread = spread(&plane)?;
            if best.as_ref().is_none_or(|(s, _)| spread < s - 1e-9) {
                best = Some((spread, plane));
            }
        }
    }
    let (_, mut plane) = best?;
    let min = |i: usize| plane.iter().map(|p| p[i]).fold(f64::INFINITY, f64::min);
    let (x0, y0) = (min(0), min(1));
    for p in &mut plane {
        *p = [p[0] - x0, p[1] - y0];
    }
    Some(plane)
}

/// Every place's lattice point, walking the steps from place 0; `None` if
/// two walks disagree, a place is not reached or two places meet.
fn place(next: &[Vec<(usize, usize, bool)>], choice: &[(i32, i32)]) -> Option<Vec<(i32, i32)>> {
    let mut at: Vec<Option<(i32, i32)>> = vec![None; next.len()];
    at[0] = Some((0, 0));
    let mut queue = vec![0usize];
    while let Some(a) = queue.pop() {
        let (q, r) = at[a]?;
        for &(b, d, forwards) in &next[a] {
            let (dq, dr) = choice[d];
            let p = if forwards {
                (q + dq, r + dr)
            } else {
                (q - dq, r - dr)
            };
            match at[b] {
                Some(seen) if seen != p => return None,
                Some(_) => {}
                None => {
                    at[b] = Some(p);
                    queue.push(b);
                }
            }
        }
    }
    let points: Option<Vec<(i32, i32)>> = at.into_iter().collect();
    let points = points?;
    let distinct: FxHashSet<(i32, i32)> = points.iter().copied().collect();
    (distinct.len() == points.len()).then_some(points)
}

/// The places' mean squared distance from their centre; `None` when they
/// lie on one line (no picture a row would not give).
fn spread(plane: &[[f64; 2]]) -> Option<f64> {
    let n = plane.len() as f64;
    let mean = |i: usize| plane.iter().map(|p| p[i]).sum::<f64>() / n;
    let (mx, my) = (mean(0), mean(1));
    let (mut xx, mut yy, mut xy) = (0.0, 0.0, 0.0);
    for p in plane {
        let (x, y) = (p[0] - mx, p[1] - my);
        xx += x * x;
        yy += y * y;
        xy += x * y;
    }
    // The covariance's determinant is zero exactly on a line.
    (xx * yy - xy * xy > 1e-9 * n * n).then_some((xx + yy) / n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::structure::{board, boardsvg, find, DISPLAY_OPTIONS, LATTICE};
    use crate::EngineChoice;

    /// A game on a centre and six places round it, joined by three
    /// directions: its board is a lattice, every neighbour one cell away,
    /// drawn as seven holes with the peg in one.
    #[test]
    fn a_game_on_a_hexagon_of_places_is_drawn_on_its_lattice() {
        let text = include_str!("../../testdata/star_game.kif");
        let crate::Game {
            program,
            mut engine,
        } = crate::Game::load(text, EngineChoice::Interpreter).unwrap();
        let st = find(&program, &mut engine, DISPLAY_OPTIONS).unwrap();
        let b = board::main_board(&st.boards).unwrap();
        assert_eq!((b.fluent.as_str(), b.geometry.as_str()), ("peg", LATTICE));
        let at = |v: &str| b.places[b.values[0].iter().position(|x| x == v).unwrap()];
        for p in ["p1", "p2", "p3", "p4", "p5", "p6"] {
            assert!(
                (distance(at("c"), at(p)) - 1.0).abs() < 1e-9,
                "{p} {:?}",
                b.places
            );
        }
        assert!((distance(at("p1"), at("p4")) - 2.0).abs() < 1e-9);
        let fluents: Vec<String> = ["(peg p4 red)", "(peg c empty)"].map(String::from).to_vec();
        let svg =
            boardsvg::svg_of(&st.boards, &board::Fluent::of_texts(&fluents), 40.0, false).unwrap();
        assert_eq!(
            svg.matches("<circle").count() - svg.matches("<title>").count(),
            7,
            "{svg}"
        );
        assert!(svg.contains("<title>red</title>"), "{svg}");
    }

    /// Index pairs for the places of `pos` one `step` apart.
    fn steps(pos: &[(i32, i32)], step: (i32, i32)) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (a, &(q, r)) in pos.iter().enumerate() {
            if let Some(b) = pos.iter().position(|&p| p == (q + step.0, r + step.1)) {
                out.push((a, b));
            }
        }
        out
    }

    fn distance(a: [f64; 2], b: [f64; 2]) -> f64 {
        ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
    }

    /// A hexagon of seven places (centre and ring) with three directions:
    /// each place one unit from its neighbours, the ring at 60° steps.
    #[test]
    fn a_hexagon_lies_on_the_triangular_lattice() {
        let pos = [(0, 0), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)];
        let dirs: Vec<_> = [(1, 0), (0, 1), (-1, 1)].map(|s| steps(&pos, s)).to_vec();
        let plane = embed(pos.len(), &dirs).unwrap();
        for i in 1..7 {
            assert!(
                (distance(plane[0], plane[i]) - 1.0).abs() < 1e-9,
                "{plane:?}"
            );
        }
        assert!(
            (distance(plane[1], plane[2]) - 1.0).abs() < 1e-9,
            "{plane:?}"
        );
    }

    /// The star of chinese checkers has only two directions in the one-
    /// and two-player games: the compact layout is still the 60° one.
    #[test]
    fn a_star_with_two_directions_is_drawn_at_60_degrees() {
        // A star of David: the triangles (0,0)+(0..2) and its mirror.
        let mut pos = Vec::new();
        for q in -4i32..=4 {
            for r in -4i32..=4 {
                let s = -q - r;
                let up = q >= -2 && r >= -2 && s >= -2 && q.max(r).max(s) <= 4;
                let down = q <= 2 && r <= 2 && s <= 2 && q.min(r).min(s) >= -4;
                if up || down {
                    pos.push((q, r));
                }
            }
        }
        let dirs = vec![steps(&pos, (1, 0)), steps(&pos, (0, 1))];
        let plane = embed(pos.len(), &dirs).unwrap();
        let a = pos.iter().position(|&p| p == (0, 0)).unwrap();
        let b = pos.iter().position(|&p| p == (1, -1)).unwrap();
        // (1, -1) is a neighbour on the true lattice: one unit away.
        assert!((distance(plane[a], plane[b]) - 1.0).abs() < 1e-9);
    }

    /// A 3 × 3 grid with steps right and down is a square, not a rhombus.
    #[test]
    fn a_grid_of_two_directions_stays_square() {
        let pos: Vec<(i32, i32)> = (0..9).map(|i| (i % 3, i / 3)).collect();
        let dirs = vec![steps(&pos, (1, 0)), steps(&pos, (0, 1))];
        let plane = embed(pos.len(), &dirs).unwrap();
        assert!(
            (distance(plane[0], plane[4]) - 2f64.sqrt()).abs() < 1e-9,
            "{plane:?}"
        );
    }

    #[test]
    fn a_line_two_meeting_places_or_one_direction_are_no_lattice() {
        let line: Vec<(i32, i32)> = (0..6).map(|i| (i, 0)).collect();
        let two = vec![steps(&line, (1, 0)), steps(&line, (2, 0))];
        assert_eq!(embed(line.len(), &two), None);
        let one = vec![steps(&line, (1, 0))];
        assert_eq!(embed(line.len(), &one), None);
        // A place reached by no step.
        let mut apart = vec![(0, 0), (1, 0), (0, 1), (1, 1)];
        apart.push((5, 5));
        let dirs = vec![steps(&apart, (1, 0)), steps(&apart, (0, 1))];
        assert_eq!(embed(apart.len(), &dirs), None);
    }

    #[test]
    fn only_one_way_relations_within_the_board_are_directions() {
        let values: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        let rows = |r: &[(&str, &str)]| -> Vec<[String; 2]> {
            r.iter()
                .map(|(a, b)| [a.to_string(), b.to_string()])
                .collect()
        };
        let relations = vec![
            rows(&[("a", "b"), ("c", "d")]),
            rows(&[("b", "a"), ("d", "c")]), // the first, backwards
            rows(&[("a", "b"), ("a", "c")]), // a has two successors
            rows(&[("a", "z"), ("b", "c")]), // z is no place
            rows(&[("a", "c"), ("b", "d")]),
        ];
        let dirs = directions(&values, &relations);
        assert_eq!(dirs, vec![vec![(0, 1), (2, 3)], vec![(0, 2), (1, 3)]]);
    }
}
