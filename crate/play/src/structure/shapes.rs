//! Boards that are not drawn as a grid of squares, found from the rules
//! and the sampled states (never from names):
//!
//! - **pegs** (Towers of Hanoi): a 2-D board whose second coordinate is
//!   ordered, whose pieces a static binary relation orders totally, and
//!   whose pieces always lie in gapless stacks from the bottom, each on a
//!   larger one (the order's direction is read from the stacks). Columns
//!   are pegs, pieces discs of widths by size (`sizes`).
//! - **mancala** (Kalah): a board of quantities with two rows whose first
//!   and last columns each have one cell only, in different rows (the
//!   stores); the other cells are pits.
//! - **stacks** (Blocks World): a 1-D board over things whose contents are
//!   those things, each on at most one and under at most one, never in a
//!   cycle: `(on c a)` stacks c on a; a thing on nothing stands on the
//!   table. The cells are restacked into columns (`board::cells`).
//! - **dots** (Dots and Boxes): a 2-D board of odd sizes whose cells are
//!   dots where both places are even (never occupied), lines between two
//!   dots where one is odd, boxes where both are odd (both kinds occupied
//!   in some sampled state). A line's or a box's content that is not
//!   blank (`pieces`) draws the line or claims the box.

use super::board::{self, Fluent, Grid};
use super::pieces::Drawing;
use super::simulate::Sample;
use super::statics;
use super::Board;
use crate::program::Program;
use crate::terms::TermStore;
use rustc_hash::FxHashSet;
use std::fmt::Write as _;

pub const GRID: &str = "grid";
pub const PEGS: &str = "pegs";
pub const MANCALA: &str = "mancala";
pub const STACKS: &str = "stacks";
pub const HANDS: &str = "hands";
pub const DOTS: &str = "dots";

/// Sampled states looked at (enough to see stacks and stores).
const MAX_STATES: usize = 400;
/// Rows of a static relation beyond which it is not examined.
const MAX_ROWS: usize = 10_000;

/// Sets `shape`, `sizes` and `stores` of the boards that are pegs or mancala.
pub fn detect(program: &Program, store: &TermStore, sample: &Sample, boards: &mut [Board]) {
    let mut relations = None;
    for b in boards.iter_mut().filter(|b| b.coordinates.len() <= 2) {
        let grids: Vec<Grid> = sample
            .states
            .iter()
            .take(MAX_STATES)
            .filter_map(|s| board::grid(b, &Fluent::of_terms(store, s)))
            .collect();
        if grids.is_empty() {
            continue;
        }
        if b.coordinates.len() == 1 {
            if stacked(b, &grids) {
                b.shape = STACKS.to_string();
            }
            continue;
        }
        if dots(b, &grids) {
            b.shape = DOTS.to_string();
            continue;
        }
        if let Some(stores) = mancala_stores(b, &grids) {
            b.shape = MANCALA.to_string();
            b.stores = stores;
            continue;
        }
        if b.pieces.len() < 2 || !b.ordered.get(1).copied().unwrap_or(false) {
            continue;
        }
        let rels =
            relations.get_or_insert_with(|| statics::static_relations::<2>(program, MAX_ROWS));
        if let Some(sizes) = rels.iter().find_map(|r| pegs_sizes(b, r, &grids)) {
            b.shape = PEGS.to_string();
            b.sizes = sizes;
        }
    }
}

/// The pieces in the order `rows` gives them when it orders them totally
/// (each pair one way, never a piece with itself), first the least.
fn total_order(pieces: &[String], rows: &[[String; 2]]) -> Option<Vec<String>> {
    let set: FxHashSet<(&str, &str)> = rows
        .iter()
        .filter(|[a, b]| pieces.contains(a) && pieces.contains(b))
        .map(|[a, b]| (a.as_str(), b.as_str()))
        .collect();
    for (i, p) in pieces.iter().enumerate() {
        if set.contains(&(p.as_str(), p.as_str())) {
            return None;
        }
        for q in &pieces[i + 1..] {
            let one = set.contains(&(p.as_str(), q.as_str()));
            if one == set.contains(&(q.as_str(), p.as_str())) {
                return None;
            }
        }
    }
    // A tournament whose scores are all distinct is transitive.
    let below = |p: &String| set.iter().filter(|(_, b)| b == p).count();
    let mut order = pieces.to_vec();
    order.sort_by_key(below);
    let scores: FxHashSet<usize> = order.iter().map(below).collect();
    (scores.len() == order.len()).then_some(order)
}

/// The pieces from the smallest to the largest when the board is pegs
/// under the order `rows`: every column a gapless stack from the bottom,
/// and every piece on another on the same side of it in the order.
fn pegs_sizes(b: &Board, rows: &[[String; 2]], grids: &[Grid]) -> Option<Vec<String>> {
    let order = total_order(&b.pieces, rows)?;
    let place = |c: &str| order.iter().position(|p| p == c);
    let (mut upper_first, mut lower_first) = (0, 0);
    for g in grids {
        for c in 0..g.cols.len() {
            // Bottom to top: the last row is the bottom.
            let column: Vec<Option<usize>> = g
                .cells
                .iter()
                .rev()
                .map(|row| row[c].as_deref().and_then(place))
                .collect();
            let height = column.iter().take_while(|p| p.is_some()).count();
            if column[height..].iter().any(Option::is_some) {
                return None;
            }
            for w in column[..height].windows(2) {
                if w[1] < w[0] {
                    upper_first += 1;
                } else {
                    lower_first += 1;
                }
            }
        }
    }
    // The upper piece of a pair is the smaller one.
    match (upper_first, lower_first) {
        (a, 0) if a > 0 => Some(order),
        (0, d) if d > 0 => Some(order.into_iter().rev().collect()),
        _ => None,
    }
}

/// The two stores when the board is a mancala board: two rows, contents
/// that are quantities, the first and the last column each occupied in
/// one row only (different rows), every other cell occupied sometime.
fn mancala_stores(b: &Board, grids: &[Grid]) -> Option<Vec<Vec<String>>> {
    let g0 = &grids[0];
    let cols = g0.cols.len();
    if g0.rows.len() != 2 || cols < 4 || !b.pieces.is_empty() || !b.markers.is_empty() {
        return None;
    }
    let mut seen = vec![[false; 2]; cols];
    for g in grids {
        for (r, row) in g.cells.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                if let Some(content) = cell {
                    content.parse::<i64>().ok()?;
                    seen[c][r] = true;
                }
            }
        }
    }
    let only = |c: usize| match seen[c] {
        [true, false] => Some(0),
        [false, true] => Some(1),
        _ => None,
    };
    let (first, last) = (only(0)?, only(cols - 1)?);
    if first == last || seen[1..cols - 1].iter().any(|s| s != &[true, true]) {
        return None;
    }
    let cell = |c: usize, r: usize| vec![g0.cols[c].clone(), g0.rows[r].clone()];
    Some(vec![cell(0, first), cell(cols - 1, last)])
}

/// What a cell of a dots board is, by its places (column, row).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DotsCell {
    Dot,
    /// A line between the dots left and right of it.
    Across,
    /// A line between the dots above and below it.
    Down,
    Box,
}

pub fn dots_cell(c: usize, r: usize) -> DotsCell {
    match (c % 2, r % 2) {
        (0, 0) => DotsCell::Dot,
        (1, 0) => DotsCell::Across,
        (0, _) => DotsCell::Down,
        _ => DotsCell::Box,
    }
}

/// Whether a board is dots and boxes: odd sizes of at least 3, the dots'
/// cells never occupied, some line's and some box's cell occupied.
fn dots(b: &Board, grids: &[Grid]) -> bool {
    let g0 = &grids[0];
    let (cols, rows) = (g0.cols.len(), g0.rows.len());
    if b.geometry != super::SQUARE || cols < 3 || rows < 3 || cols % 2 == 0 || rows % 2 == 0 {
        return false;
    }
    let mut seen = [false; 4];
    for g in grids {
        for (r, row) in g.cells.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                if cell.is_some() {
                    seen[dots_cell(c, r) as usize] = true;
                }
            }
        }
    }
    let line = seen[DotsCell::Across as usize] || seen[DotsCell::Down as usize];
    !seen[DotsCell::Dot as usize] && line && seen[DotsCell::Box as usize]
}

/// Whether a 1-D board relates things to things of its own kind, each
/// on at most one and under at most one, never in a cycle (blocks on
/// blocks): every content is a piece and a coordinate value, and in every
/// sampled state following "is on" from any block ends.
fn stacked(b: &Board, grids: &[Grid]) -> bool {
    let values = &b.values[0];
    if b.pieces.is_empty() || !b.markers.is_empty() || b.contents.len() != 1 {
        return false;
    }
    if !b.pieces.iter().all(|p| values.contains(p)) {
        return false;
    }
    grids.iter().all(|g| {
        let under = |x: &str| {
            let c = g.cols.iter().position(|v| v == x)?;
            g.cells[0][c].clone()
        };
        values.iter().all(|start| {
            let mut at = start.clone();
            for _ in 0..=values.len() {
                match under(&at) {
                    Some(next) => at = next,
                    None => return true,
                }
            }
            false
        })
    })
}

/// Blocks for the contents of a stacks board: square tiles, labelled.
pub fn block_drawings(b: &mut Board) {
    let blocks: Vec<String> = b.values[0].clone();
    b.drawings.retain(|d| !blocks.contains(&d.content));
    for (i, name) in blocks.iter().enumerate() {
        b.drawings.push(block(name, i));
    }
}

fn block(name: &str, i: usize) -> Drawing {
    let fill = DISC_FILLS[i % DISC_FILLS.len()];
    let label: String = name.chars().take(3).collect();
    let squeeze = if label.chars().count() > 1 {
        r#" textLength="60" lengthAdjust="spacingAndGlyphs""#
    } else {
        ""
    };
    let svg = format!(
        r##"<rect x="6" y="6" width="88" height="88" rx="6" fill="{fill}" stroke="#3b3128" stroke-width="4"/><text x="50" y="52" font-size="46" font-family="sans-serif" font-weight="700" text-anchor="middle" dominant-baseline="central" fill="#1d2330"{squeeze}>{}</text>"##,
        super::pieces::escape(&label)
    );
    Drawing {
        content: name.to_string(),
        kind: "block".to_string(),
        owner: None,
        colour: fill.to_string(),
        label,
        svg,
    }
}

/// Discs for the pieces of a pegs board: bars of widths by size.
pub fn disc_drawings(b: &mut Board) {
    let n = b.sizes.len();
    for d in &mut b.drawings {
        if let Some(rank) = b.sizes.iter().position(|s| *s == d.content) {
            *d = disc(d, rank, n);
        }
    }
}

/// The width (in a 100-wide cell) of the disc of size `rank` of `n`:
/// proportional to the size plus a fixed part, the smallest at most 0.4
/// of the largest (96, inside the cell with its stroke) from 4 discs on.
pub fn disc_width(rank: usize, n: usize) -> f64 {
    20.0 + 76.0 * (rank + 1) as f64 / n.max(1) as f64
}

const DISC_FILLS: [&str; 6] = [
    "#d9534f", "#f0ad4e", "#5cb85c", "#5bc0de", "#6f6fd8", "#b565c4",
];

fn disc(d: &Drawing, rank: usize, n: usize) -> Drawing {
    let w = disc_width(rank, n);
    let fill = DISC_FILLS[rank % DISC_FILLS.len()];
    let mut svg = String::new();
    let _ = write!(
        svg,
        r##"<rect x="{:.1}" y="30" width="{w:.1}" height="40" rx="12" fill="{fill}" stroke="#3b3128" stroke-width="3"/>"##,
        50.0 - w / 2.0
    );
    Drawing {
        content: d.content.clone(),
        kind: "bar".to_string(),
        owner: d.owner,
        colour: fill.to_string(),
        label: String::new(),
        svg,
    }
}

/// Whether a 1-D board is the roles' hands: its coordinate's values are
/// roles and its contents pieces (each thing held by one role at most),
/// never markers (`(holds first k)`: first holds the card k).
pub fn hands(b: &Board, roles: &[String]) -> bool {
    b.coordinates.len() == 1
        && b.shape == GRID
        && !b.pieces.is_empty()
        && b.markers.is_empty()
        && b.values[0].iter().all(|v| roles.contains(v))
}

/// Playing cards for the pieces of a hands board: the rank on a card.
pub fn card_drawings(b: &mut Board) {
    for d in &mut b.drawings {
        if b.pieces.contains(&d.content) {
            *d = card(&d.content);
        }
    }
}

fn card(name: &str) -> Drawing {
    let label: String = name.chars().take(2).collect::<String>().to_uppercase();
    let esc = super::pieces::escape(&label);
    let squeeze = if label.chars().count() > 1 {
        r#" textLength="40" lengthAdjust="spacingAndGlyphs""#
    } else {
        ""
    };
    let svg = format!(
        r##"<rect class="card" x="20" y="6" width="60" height="88" rx="8" fill="#fbfaf6" stroke="#3b3128" stroke-width="3"/><rect x="26" y="12" width="48" height="76" rx="5" fill="none" stroke="#b03a2e" stroke-width="1.5"/><text x="50" y="52" font-size="40" font-family="serif" font-weight="700" text-anchor="middle" dominant-baseline="central" fill="#b03a2e"{squeeze}>{esc}</text><text x="31" y="22" font-size="12" font-family="serif" font-weight="700" text-anchor="middle" dominant-baseline="central" fill="#b03a2e">{esc}</text>"##
    );
    Drawing {
        content: name.to_string(),
        kind: "card".to_string(),
        owner: None,
        colour: "#fbfaf6".to_string(),
        label,
        svg,
    }
}

/// A die showing `face` (1 to 6): a rounded square with its pips.
pub fn die(face: u8) -> Drawing {
    const AT: [(f64, f64); 7] = [
        (30.0, 30.0),
        (70.0, 30.0),
        (30.0, 50.0),
        (50.0, 50.0),
        (70.0, 50.0),
        (30.0, 70.0),
        (70.0, 70.0),
    ];
    // Which of AT each face shows.
    let pips: &[usize] = match face {
        1 => &[3],
        2 => &[1, 5],
        3 => &[1, 3, 5],
        4 => &[0, 1, 5, 6],
        5 => &[0, 1, 3, 5, 6],
        _ => &[0, 1, 2, 4, 5, 6],
    };
    let mut svg = String::from(
        r##"<rect class="die" x="14" y="14" width="72" height="72" rx="14" fill="#fbfaf6" stroke="#3b3128" stroke-width="4"/>"##,
    );
    for &i in pips {
        let (x, y) = AT[i];
        let _ = write!(svg, r##"<circle cx="{x}" cy="{y}" r="7" fill="#1d2330"/>"##);
    }
    Drawing {
        content: face.to_string(),
        kind: "die".to_string(),
        owner: None,
        colour: "#fbfaf6".to_string(),
        label: face.to_string(),
        svg,
    }
}

/// The only piece on the board of a game with one player (roles other
/// than `random`) is that player on the board: a person.
pub fn agent_drawings(b: &mut Board, roles: &[String]) {
    let players: Vec<usize> = (0..roles.len()).filter(|&i| roles[i] != "random").collect();
    if players.len() != 1 || b.pieces.len() != 1 || b.shape != GRID {
        return;
    }
    for d in &mut b.drawings {
        if d.content == b.pieces[0] {
            d.kind = "agent".to_string();
            d.owner = Some(players[0]);
            d.svg = super::scene::person(50.0);
            d.label = String::new();
        }
    }
}
