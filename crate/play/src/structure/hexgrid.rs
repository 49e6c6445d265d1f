//! Hexagonal boards, found from the rules: a static relation over two
//! cells of a 2-D board (`(near ?x ?y ?u ?v)`) is a neighbourhood when it
//! is symmetric and every pair it holds is one of six steps in the board's
//! order: (±1, 0), (0, ±1) and one diagonal both ways. The cells then have
//! six neighbours (a hex grid, a rhombus when the board is square); four
//! or eight steps are a square board. Names play no part.

use super::Board;
use crate::program::Program;
use rustc_hash::FxHashSet;

/// Rows of a static relation beyond which it is not examined.
const MAX_ROWS: usize = 50_000;

/// A step between two cells, in places along each coordinate.
type Step = (i64, i64);

const AXES: [Step; 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// Marks the 2-D boards whose cells have six neighbours: `geometry` "hex"
/// and `shear`, how far (in cells) each row lies to the right of the row
/// before it (the row of the next value of the second coordinate).
pub fn detect(program: &Program, boards: &mut [Board]) {
    let candidates = boards
        .iter()
        .any(|b| b.values.len() == 2 && b.coordinates.len() == 2);
    if !candidates {
        return;
    }
    let relations = super::statics::static_relations::<4>(program, MAX_ROWS);
    for b in boards
        .iter_mut()
        .filter(|b| b.coordinates.len() == 2 && b.values.len() == 2)
    {
        if let Some(shear) = relations.iter().find_map(|rows| hex_shear(b, rows)) {
            b.geometry = super::HEX.to_string();
            b.shear = shear;
        }
    }
}

/// The shear of a hex grid when `rows` relate neighbouring cells of `b`
/// (as `x y u v` or `x u y v`): +0.5 when the diagonal step is (1, −1),
/// −0.5 when it is (1, 1).
fn hex_shear(b: &Board, rows: &[[String; 4]]) -> Option<f64> {
    let place = |axis: usize, v: &str| b.values[axis].iter().position(|w| w == v).map(|i| i as i64);
    for order in [[0, 1, 2, 3], [0, 2, 1, 3]] {
        let steps: Option<FxHashSet<Step>> = rows
            .iter()
            .map(|row| {
                let [x, y, u, v] = order.map(|i| row[i].as_str());
                Some((place(0, u)? - place(0, x)?, place(1, v)? - place(1, y)?))
            })
            .collect();
        if let Some(shear) = steps.as_ref().and_then(shear_of) {
            return Some(shear);
        }
    }
    None
}

/// The shear of six hex steps, or `None` for any other set of steps.
fn shear_of(steps: &FxHashSet<Step>) -> Option<f64> {
    if steps.len() != 6 || !AXES.iter().all(|s| steps.contains(s)) {
        return None;
    }
    if steps.contains(&(1, -1)) && steps.contains(&(-1, 1)) {
        Some(0.5)
    } else if steps.contains(&(1, 1)) && steps.contains(&(-1, -1)) {
        Some(-0.5)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn six_steps_with_one_diagonal_are_hex() {
        let set = |s: &[Step]| s.iter().copied().collect::<FxHashSet<Step>>();
        let hex = set(&[(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]);
        assert_eq!(shear_of(&hex), Some(0.5));
        let hex = set(&[(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)]);
        assert_eq!(shear_of(&hex), Some(-0.5));
        let square = set(&AXES);
        assert_eq!(shear_of(&square), None);
        let odd = set(&[(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1)]);
        assert_eq!(shear_of(&odd), None);
    }
}
