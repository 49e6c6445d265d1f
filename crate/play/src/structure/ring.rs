//! Boards whose places form a ring, found from the rules: a 1-D board
//! whose values a static relation of two arguments joins into one cycle
//! (each value next to exactly two others, every value reached going
//! round: circle solitaire's `(adj p1 p2)` … `(adj p8 p1)`). Such a board
//! gets the geometry "ring" and its values in the ring's order, and is
//! drawn as places round a circle. A chain that does not close (a
//! successor relation) is no ring. Names play no part.

use super::Board;
use crate::program::Program;
use rustc_hash::{FxHashMap, FxHashSet};

/// Rows of a static relation beyond which it is not examined.
const MAX_ROWS: usize = 10_000;
/// Fewest places of a ring or lattice (fewer read as well in a row).
const MIN_PLACES: usize = 5;

/// A 1-D board of at least [`MIN_PLACES`] places still drawn as a plain
/// row: the boards a ring or a lattice (`lattice.rs`) is looked for in.
pub(super) fn is_plain_row(b: &Board) -> bool {
    b.coordinates.len() == 1
        && b.values.len() == 1
        && b.values[0].len() >= MIN_PLACES
        && b.geometry == super::SQUARE
        && b.shape == super::shapes::GRID
}

/// The static relations of two arguments that may join the places of a
/// plain row (`is_plain_row`), read once for the ring and the lattice;
/// none when no board is a plain row.
pub(super) fn place_relations(program: &Program, boards: &[Board]) -> Vec<Vec<[String; 2]>> {
    if !boards.iter().any(is_plain_row) {
        return Vec::new();
    }
    super::statics::static_relations::<2>(program, MAX_ROWS)
}

pub fn detect(boards: &mut [Board], relations: &[Vec<[String; 2]>]) {
    for b in boards.iter_mut().filter(|b| is_plain_row(b)) {
        if let Some(order) = relations.iter().find_map(|rows| cycle(&b.values[0], rows)) {
            b.geometry = super::RING.to_string();
            b.values[0] = order;
        }
    }
}

/// `values` in the order of the one cycle `rows` make of them (both
/// directions of a row count), from the first value towards its
/// neighbour listed first; `None` unless every value has exactly two
/// neighbours among them and one walk visits them all.
fn cycle(values: &[String], rows: &[[String; 2]]) -> Option<Vec<String>> {
    let place: FxHashMap<&str, usize> = values
        .iter()
        .enumerate()
        .map(|(i, v)| (v.as_str(), i))
        .collect();
    let mut next: Vec<FxHashSet<usize>> = vec![FxHashSet::default(); values.len()];
    for [a, b] in rows {
        let (Some(&i), Some(&j)) = (place.get(a.as_str()), place.get(b.as_str())) else {
            continue;
        };
        if i != j {
            next[i].insert(j);
            next[j].insert(i);
        }
    }
    if next.iter().any(|n| n.len() != 2) {
        return None;
    }
    let mut order = vec![0usize];
    let mut prev = usize::MAX;
    let mut at = 0usize;
    loop {
        let mut ends: Vec<usize> = next[at].iter().copied().filter(|&k| k != prev).collect();
        ends.sort_unstable();
        let step = ends[0];
        if step == 0 {
            break;
        }
        if order.contains(&step) {
            return None;
        }
        order.push(step);
        (prev, at) = (at, step);
    }
    (order.len() == values.len()).then(|| order.into_iter().map(|i| values[i].clone()).collect())
}

#[cfg(test)]
mod tests {
    use super::cycle;
    use crate::structure::{board, boardsvg, find, DISPLAY_OPTIONS, RING};
    use crate::EngineChoice;

    /// A game on six places joined in a ring: its board is a ring, drawn
    /// as six places round a circle with the disks on them.
    #[test]
    fn a_game_on_a_ring_is_drawn_round_a_circle() {
        let text = include_str!("../../testdata/ring_game.kif");
        let crate::Game {
            program,
            mut engine,
        } = crate::Game::load(text, EngineChoice::Interpreter).unwrap();
        let st = find(&program, &mut engine, DISPLAY_OPTIONS).unwrap();
        let b = board::main_board(&st.boards).unwrap();
        assert_eq!((b.fluent.as_str(), b.geometry.as_str()), ("disk", RING));
        assert_eq!(b.values[0], ["p1", "p2", "p3", "p4", "p5", "p6"]);
        let fluents: Vec<String> = ["(disk p1 green)", "(disk p2 red)", "(disk p4 none)"]
            .map(String::from)
            .to_vec();
        let svg =
            boardsvg::svg_of(&st.boards, &board::Fluent::of_texts(&fluents), 40.0, false).unwrap();
        // The ring and six places, stroked in the board's line colour.
        assert_eq!(svg.matches(r##"stroke="#8a7a60""##).count(), 7, "{svg}");
        assert!(svg.contains("<title>green</title>") && svg.contains("<title>red</title>"));
    }

    fn rows(pairs: &[(&str, &str)]) -> Vec<[String; 2]> {
        pairs
            .iter()
            .map(|(a, b)| [a.to_string(), b.to_string()])
            .collect()
    }

    #[test]
    fn a_closed_chain_is_a_ring_an_open_one_is_not() {
        let v: Vec<String> = ["a", "b", "c", "d", "e"].map(String::from).to_vec();
        // Listed out of order and in one direction only.
        let ring = rows(&[("a", "c"), ("c", "e"), ("e", "b"), ("b", "d"), ("d", "a")]);
        assert_eq!(cycle(&v, &ring).unwrap(), ["a", "c", "e", "b", "d"]);
        let chain = rows(&[("a", "b"), ("b", "c"), ("c", "d"), ("d", "e")]);
        assert_eq!(cycle(&v, &chain), None);
        // Two rings of two and three are not one ring.
        let two = rows(&[("a", "b"), ("b", "a"), ("c", "d"), ("d", "e"), ("e", "c")]);
        assert_eq!(cycle(&v, &two), None);
        // A place with three neighbours.
        let star = rows(&[
            ("a", "b"),
            ("b", "c"),
            ("c", "d"),
            ("d", "e"),
            ("e", "a"),
            ("a", "c"),
        ]);
        assert_eq!(cycle(&v, &star), None);
    }
}
