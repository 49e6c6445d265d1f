//! Boards of points joined by lines (nine men's morris), found from the
//! rules: a static relation over two cells of a 2-D board
//! (`(adjacent ?x ?y ?u ?v)`) is a set of lines when it is symmetric,
//! every pair it holds lies on one row or one column, no other point of it
//! lies between a pair's ends, and some pair spans more than one cell.
//! Such a board is drawn as its points and the lines between them, not as
//! a grid of squares (a grid's neighbours are never more than one cell
//! apart). Names play no part.

use super::Board;
use crate::program::Program;
use rustc_hash::FxHashSet;

/// Rows of a static relation beyond which it is not examined.
const MAX_ROWS: usize = 50_000;

/// A cell by its places along the two coordinates.
type Point = (usize, usize);

/// Marks the 2-D square boards whose cells are points joined by lines:
/// `geometry` "lines" and `links`, each line between two neighbouring
/// points once, as `[x, y, u, v]`.
pub fn detect(program: &Program, boards: &mut [Board]) {
    let candidate =
        |b: &Board| b.coordinates.len() == 2 && b.values.len() == 2 && b.geometry == super::SQUARE;
    if !boards.iter().any(candidate) {
        return;
    }
    let relations = super::statics::static_relations::<4>(program, MAX_ROWS);
    for b in boards.iter_mut().filter(|b| candidate(b)) {
        if let Some(links) = relations.iter().find_map(|rows| lines_of(b, rows)) {
            b.geometry = super::LINES.to_string();
            b.links = links
                .into_iter()
                .map(|((i, j), (k, l))| {
                    let v = &b.values;
                    vec![
                        v[0][i].clone(),
                        v[1][j].clone(),
                        v[0][k].clone(),
                        v[1][l].clone(),
                    ]
                })
                .collect();
        }
    }
}

/// The lines of `b` when `rows` relate its points (as `x y u v` or
/// `x u y v`), each once with its lesser end first.
fn lines_of(b: &Board, rows: &[[String; 4]]) -> Option<Vec<(Point, Point)>> {
    let place = |axis: usize, v: &str| b.values[axis].iter().position(|w| w == v);
    for order in [[0, 1, 2, 3], [0, 2, 1, 3]] {
        let pairs: Option<FxHashSet<(Point, Point)>> = rows
            .iter()
            .map(|row| {
                let [x, y, u, v] = order.map(|i| row[i].as_str());
                Some(((place(0, x)?, place(1, y)?), (place(0, u)?, place(1, v)?)))
            })
            .collect();
        if let Some(lines) = pairs.as_ref().and_then(lines) {
            return Some(lines);
        }
    }
    None
}

/// The pairs as lines, or `None` unless they are lines between points.
fn lines(pairs: &FxHashSet<(Point, Point)>) -> Option<Vec<(Point, Point)>> {
    let straight = |&(a, b): &(Point, Point)| a != b && (a.0 == b.0 || a.1 == b.1);
    let symmetric = |&(a, b): &(Point, Point)| pairs.contains(&(b, a));
    if pairs.len() < 4 || !pairs.iter().all(|p| straight(p) && symmetric(p)) {
        return None;
    }
    let length = |&(a, b): &(Point, Point)| a.0.abs_diff(b.0) + a.1.abs_diff(b.1);
    if !pairs.iter().any(|p| length(p) > 1) {
        return None;
    }
    let points: FxHashSet<Point> = pairs.iter().map(|p| p.0).collect();
    let between = |&(a, b): &(Point, Point), p: &Point| {
        let within = |s: usize, t: usize, x: usize| s.min(t) < x && x < s.max(t);
        (a.0 == b.0 && p.0 == a.0 && within(a.1, b.1, p.1))
            || (a.1 == b.1 && p.1 == a.1 && within(a.0, b.0, p.0))
    };
    if pairs
        .iter()
        .any(|pair| points.iter().any(|p| between(pair, p)))
    {
        return None;
    }
    let mut out: Vec<(Point, Point)> = pairs.iter().filter(|(a, b)| a < b).copied().collect();
    out.sort_unstable();
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(pairs: &[(Point, Point)]) -> FxHashSet<(Point, Point)> {
        pairs.iter().flat_map(|&(a, b)| [(a, b), (b, a)]).collect()
    }

    #[test]
    fn a_square_of_points_joined_at_its_corners_and_midpoints_is_lines() {
        // The outer square of a morris board: corners and midpoints, 3 apart.
        let square = set(&[
            ((0, 0), (3, 0)),
            ((3, 0), (6, 0)),
            ((6, 0), (6, 3)),
            ((6, 3), (6, 6)),
            ((6, 6), (3, 6)),
            ((3, 6), (0, 6)),
            ((0, 6), (0, 3)),
            ((0, 3), (0, 0)),
        ]);
        let found = lines(&square).expect("lines");
        assert_eq!(found.len(), 8);
        assert!(found.iter().all(|(a, b)| a < b));
    }

    #[test]
    fn grids_diagonals_and_lines_over_points_are_not_lines() {
        // Neighbours one cell apart: an ordinary grid.
        let grid = set(&[
            ((0, 0), (1, 0)),
            ((1, 0), (2, 0)),
            ((0, 0), (0, 1)),
            ((0, 1), (0, 2)),
        ]);
        assert_eq!(lines(&grid), None);
        // A diagonal pair.
        let diagonal = set(&[
            ((0, 0), (3, 0)),
            ((3, 0), (6, 0)),
            ((0, 0), (2, 2)),
            ((6, 0), (6, 3)),
        ]);
        assert_eq!(lines(&diagonal), None);
        // A pair with another point between its ends (a whole row related).
        let row = set(&[
            ((0, 0), (3, 0)),
            ((3, 0), (6, 0)),
            ((0, 0), (6, 0)),
            ((6, 0), (6, 3)),
        ]);
        assert_eq!(lines(&row), None);
        // Not symmetric.
        let one_way: FxHashSet<(Point, Point)> = [
            ((0, 0), (3, 0)),
            ((3, 0), (6, 0)),
            ((6, 0), (6, 3)),
            ((6, 3), (6, 6)),
        ]
        .into_iter()
        .collect();
        assert_eq!(lines(&one_way), None);
    }
}
