//! Boards of a state drawn from the structure: as text for the terminal and
//! as SVG for npm and the page. Columns are the first coordinate, rows the
//! second, the last value on top (as a chess board); a 1-D board is one
//! row. Only the drawing lives here: which fluent is a board, its size and
//! order come from [`super::Structure`].

use super::pieces::{self, Drawing};
use super::Board;
use crate::terms::{TermId, TermStore};
use std::fmt::Write as _;

/// The cells of one board in a state: `grid[row][col]` content text, rows
/// from the top, and the column and row labels.
pub struct Grid {
    pub fluent: String,
    pub cols: Vec<String>,
    pub rows: Vec<String>,
    pub cells: Vec<Vec<Option<String>>>,
}

/// One cell of a board in a state: its coordinates (`y` is `""` on a 1-D
/// board, `z` is `""` unless the board has 3 coordinates) and content text.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "BoardCell"))]
pub struct Cell {
    pub x: String,
    pub y: String,
    pub z: String,
    pub content: String,
}

/// A state's fluents split into the cells of one board and the rest: what
/// the page draws (`boardCells`), the text board and the SVG.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct BoardCells {
    pub fluent: String,
    pub size: Vec<usize>,
    /// The values of the coordinates in order; `ys` is `[""]` on a 1-D
    /// board, `zs` is empty unless the board has 3 coordinates.
    pub xs: Vec<String>,
    pub ys: Vec<String>,
    pub zs: Vec<String>,
    /// The occupied cells (several fluents on one cell: contents joined by a space).
    pub cells: Vec<Cell>,
    /// The fluents that are not on this board, in the given order.
    pub rest: Vec<String>,
    /// The board's `geometry` and `shear` (see `StructureBoard`).
    pub geometry: String,
    pub shear: f64,
    /// How each content on the board is drawn (`pieces`): the structure's,
    /// and one by its name alone for any content it did not list.
    pub drawings: Vec<Drawing>,
    /// The board's `shape`, `sizes`, `stores`, `links` and `places` (see
    /// `StructureBoard`).
    pub shape: String,
    pub sizes: Vec<String>,
    pub stores: Vec<Vec<String>>,
    pub links: Vec<Vec<String>>,
    pub places: Vec<[f64; 2]>,
}

/// Most values per coordinate that a board is drawn with.
const MAX_SIDE: usize = 64;

/// A fluent as a board reads it: its canonical text, relation name and
/// arguments (canonical text each).
#[derive(Clone, Debug, PartialEq)]
pub struct Fluent {
    pub text: String,
    pub name: String,
    pub args: Vec<String>,
}

impl Fluent {
    /// A state's fluents, split as terms.
    pub fn of_terms(store: &TermStore, fluents: &[TermId]) -> Vec<Fluent> {
        fluents
            .iter()
            .map(|&f| Fluent {
                text: store.display(f),
                name: store.symbols.name(store.functor(f)).to_string(),
                args: store.args_of(f).iter().map(|&a| store.display(a)).collect(),
            })
            .collect()
    }

    /// Fluents given as canonical text (from JavaScript, a match record),
    /// read by the KIF parser; a text that is not one term has no relation.
    pub fn of_texts(texts: &[String]) -> Vec<Fluent> {
        texts
            .iter()
            .map(|t| {
                let (name, args) = term_parts(t).unwrap_or_default();
                Fluent {
                    text: t.clone(),
                    name: name.to_string(),
                    args: args.into_iter().map(String::from).collect(),
                }
            })
            .collect()
    }
}

/// The board a state is drawn with: the largest with 2 or 3 coordinates,
/// else the largest with 1; among boards of one size the one with the
/// most kinds of content (blind tic-tac-toe's `cell`, with blanks and both
/// marks, before `taken`, which remembers collisions), then the last.
pub fn main_board(boards: &[Board]) -> Option<&Board> {
    let largest = |dims: &[usize]| {
        boards
            .iter()
            .filter(|b| dims.contains(&b.coordinates.len()))
            .max_by_key(|b| {
                let kinds = b.pieces.len() + b.markers.len();
                (b.size.iter().product::<usize>(), kinds)
            })
    };
    largest(&[2, 3]).or_else(|| largest(&[1]))
}

/// The cells of board `b` in the state with these fluents; `None` when `b`
/// has no or more than 3 coordinates or a coordinate with more than 64
/// values.
pub fn cells(b: &Board, fluents: &[Fluent]) -> Option<BoardCells> {
    let dims = b.coordinates.len();
    if dims == 0 || dims > 3 || b.values.len() < dims {
        return None;
    }
    if b.values.iter().any(|v| v.len() > MAX_SIDE) {
        return None;
    }
    let axis = |i: usize| b.values.get(i).filter(|_| i < dims).cloned();
    let xs = axis(0)?;
    let ys = axis(1).unwrap_or_else(|| vec![String::new()]);
    let zs = axis(2).unwrap_or_default();
    let mut out = BoardCells {
        fluent: b.fluent.clone(),
        size: b.size.clone(),
        xs,
        ys,
        zs,
        cells: Vec::new(),
        rest: Vec::new(),
        geometry: b.geometry.clone(),
        shear: b.shear,
        drawings: b.drawings.clone(),
        shape: b.shape.clone(),
        sizes: b.sizes.clone(),
        stores: b.stores.clone(),
        links: b.links.clone(),
        places: b.places.clone(),
    };
    let mut index = std::collections::HashMap::new();
    for f in fluents {
        let Some(cell) = on_board(b, &out, f) else {
            out.rest.push(f.text.clone());
            continue;
        };
        let key = (cell.x.clone(), cell.y.clone(), cell.z.clone());
        match index.get(&key) {
            Some(&i) => {
                let prev: &mut Cell = &mut out.cells[i];
                prev.content = format!("{} {}", prev.content, cell.content);
            }
            None => {
                index.insert(key, out.cells.len());
                out.cells.push(cell);
            }
        }
    }
    if b.shape == "stacks" {
        restack(&mut out);
    }
    add_fallbacks(&mut out);
    Some(out)
}

/// A stacks board (`shapes`: `(on c a)`, c on a) as columns of things
/// from the table up: one column per thing on nothing, in the order of
/// the values, the things on it above; columns and heights `1..=n` for
/// `n` things.
fn restack(bc: &mut BoardCells) {
    let things = std::mem::take(&mut bc.xs);
    let on: std::collections::HashMap<&str, &str> = bc
        .cells
        .iter()
        .map(|c| (c.x.as_str(), c.content.as_str()))
        .collect();
    let mut cells = Vec::new();
    let roots = things.iter().filter(|t| !on.contains_key(t.as_str()));
    for (col, root) in roots.enumerate() {
        let mut top = root.as_str();
        for height in 1..=things.len() {
            cells.push(Cell {
                x: (col + 1).to_string(),
                y: height.to_string(),
                z: String::new(),
                content: top.to_string(),
            });
            match on.iter().find(|(_, under)| **under == top) {
                Some((above, _)) => top = above,
                None => break,
            }
        }
    }
    let n = things.len();
    bc.xs = (1..=n).map(|i| i.to_string()).collect();
    bc.ys = bc.xs.clone();
    bc.size = vec![n, n];
    bc.cells = cells;
}

/// Drawings (by name alone) for the contents that have none yet.
fn add_fallbacks(bc: &mut BoardCells) {
    for i in 0..bc.cells.len() {
        let content = &bc.cells[i].content;
        if !bc.drawings.iter().any(|d| &d.content == content) {
            let d = pieces::fallback(content, bc.drawings.len());
            bc.drawings.push(d);
        }
    }
}

/// The cell that fluent `f` puts on board `b` (with the axes of `bc`), if any.
fn on_board(b: &Board, bc: &BoardCells, f: &Fluent) -> Option<Cell> {
    if f.name != b.fluent || f.args.len() != b.arity {
        return None;
    }
    let args = &f.args;
    let coord = |i: usize, values: &[String]| match b.coordinates.get(i) {
        Some(&k) => values.contains(&args[k]).then(|| args[k].clone()),
        None => Some(String::new()),
    };
    let content: Vec<&str> = b.contents.iter().map(|&k| args[k].as_str()).collect();
    Some(Cell {
        x: coord(0, &bc.xs)?,
        y: coord(1, &bc.ys)?,
        z: coord(2, &bc.zs)?,
        content: content.join(" "),
    })
}

/// The board's cells in the state with these fluents, as rows for the text
/// board and the SVG.
pub fn grid(b: &Board, fluents: &[Fluent]) -> Option<Grid> {
    if b.coordinates.len() > 2 {
        return None;
    }
    // A board of one or two coordinates is one layer, its cells' `z` "".
    Some(layer_grid(&cells(b, fluents)?, ""))
}

/// The grids of a board with three coordinates: one per value of the
/// third, in order, each with that value.
pub fn layer_grids(b: &Board, fluents: &[Fluent]) -> Option<Vec<(String, Grid)>> {
    if b.coordinates.len() != 3 {
        return None;
    }
    let bc = cells(b, fluents)?;
    Some(
        bc.zs
            .iter()
            .map(|z| (z.clone(), layer_grid(&bc, z)))
            .collect(),
    )
}

/// The grid of the cells of `bc` whose third coordinate is `z`, rows from
/// the top (the last value of the second coordinate first).
fn layer_grid(bc: &BoardCells, z: &str) -> Grid {
    let rows: Vec<String> = bc.ys.iter().rev().cloned().collect();
    let mut grid = vec![vec![None; bc.xs.len()]; rows.len()];
    for cell in bc.cells.iter().filter(|c| c.z == z) {
        let c = bc.xs.iter().position(|v| *v == cell.x);
        let r = rows.iter().position(|v| *v == cell.y);
        if let (Some(c), Some(r)) = (c, r) {
            grid[r][c] = Some(cell.content.clone());
        }
    }
    Grid {
        fluent: bc.fluent.clone(),
        cols: bc.xs.clone(),
        rows,
        cells: grid,
    }
}

/// The head and top-level arguments of one term's text, read by the KIF
/// parser (`(cell 1 (f 2) x)` → `cell`, [`1`, `(f 2)`, `x`]; a constant
/// has none).
fn term_parts(text: &str) -> Option<(&str, Vec<&str>)> {
    let tree = crate::syntax::parse(text);
    let [term] = tree.forms.as_slice() else {
        return None;
    };
    match term.as_list() {
        Some([head, args @ ..]) => {
            Some((head.text(text), args.iter().map(|a| a.text(text)).collect()))
        }
        Some([]) => None,
        None => Some((term.text(text), Vec::new())),
    }
}

/// Chess symbols for the usual GDL piece names (display only: the
/// structure never depends on names).
fn glyph(content: &str) -> Option<&'static str> {
    let g = match content.replace(' ', "_").as_str() {
        "wk" | "white_king" => "♔",
        "wq" | "white_queen" => "♕",
        "wr" | "white_rook" => "♖",
        "wb" | "white_bishop" => "♗",
        "wn" | "white_knight" => "♘",
        "wp" | "white_pawn" => "♙",
        "bk" | "black_king" => "♚",
        "bq" | "black_queen" => "♛",
        "br" | "black_rook" => "♜",
        "bb" | "black_bishop" => "♝",
        "bn" | "black_knight" => "♞",
        "bp" | "black_pawn" => "♟",
        _ => return None,
    };
    Some(g)
}

/// A cell's label of at most `width` characters.
fn label(content: &str, width: usize) -> String {
    glyph(content).map_or_else(|| content.chars().take(width).collect(), str::to_string)
}

/// The board as text, coordinates along the edges.
pub fn text(g: &Grid) -> String {
    let width = g
        .cells
        .iter()
        .flatten()
        .flatten()
        .map(|c| {
            if glyph(c).is_some() {
                1
            } else {
                c.chars().count()
            }
        })
        .chain(g.cols.iter().map(|c| c.chars().count()))
        .max()
        .unwrap_or(1)
        .min(3);
    let rw = g.rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
    let mut s = String::new();
    for (r, row) in g.rows.iter().enumerate() {
        let _ = write!(s, "{row:>rw$} |");
        for cell in &g.cells[r] {
            let l = cell.as_deref().map_or(".".to_string(), |c| label(c, width));
            let _ = write!(s, " {l:<width$}");
        }
        s.push('\n');
    }
    let _ = write!(s, "{:>rw$}  ", "");
    for c in &g.cols {
        let c: String = c.chars().take(width).collect();
        let _ = write!(s, " {c:<width$}");
    }
    s.push('\n');
    s
}

/// The boards of a state as text (each titled by its fluent), empty when the
/// game has no drawable board.
pub fn text_all(boards: &[Board], store: &TermStore, fluents: &[TermId]) -> String {
    text_of(boards, &Fluent::of_terms(store, fluents))
}

/// [`text_all`] of fluents already split.
pub fn text_of(boards: &[Board], fluents: &[Fluent]) -> String {
    let mut out = String::new();
    for b in boards {
        if let Some(g) = grid(b, fluents) {
            if boards.len() > 1 {
                let _ = writeln!(out, "{}:", b.fluent);
            }
            out.push_str(&text(&g));
        }
    }
    out
}

/// The cells of a board that a move names, for clicking moves on a drawn
/// board: the first run of adjacent (column, row) argument pairs
/// (`(move 1 2 1 3)` names (1,2) then (1,3)), (column, row, layer)
/// triples on a 3-D board (`(mark 1 2 3)`), or places on a 1-D board
/// (`(go p4 c)`: the row is then `""`, as `BoardCells` has it); on a 2-D board a move whose
/// only argument is a column (`(drop 3)`) names that whole column
/// (`column` is then true).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct MoveCells {
    /// Each cell's coordinates: `[column, row]` (`[place, ""]` on a 1-D
    /// board), or `[column, row, layer]`.
    pub cells: Vec<Vec<String>>,
    pub column: bool,
}

pub fn move_cells(b: &Board, mv: &str) -> MoveCells {
    let dims = b.coordinates.len();
    if !(1..=3).contains(&dims) || b.values.len() < dims {
        return MoveCells::default();
    }
    let args = move_args(mv);
    let atoms: Vec<&String> = args.iter().filter(|a| !a.starts_with('(')).collect();
    let is_cell =
        |j: usize| j + dims <= atoms.len() && (0..dims).all(|d| b.values[d].contains(atoms[j + d]));
    if let Some(i) = (0..atoms.len()).find(|&i| is_cell(i)) {
        let mut cells = Vec::new();
        let mut j = i;
        while is_cell(j) {
            let mut cell: Vec<String> = atoms[j..j + dims].iter().map(|a| a.to_string()).collect();
            if dims == 1 {
                cell.push(String::new());
            }
            cells.push(cell);
            j += dims;
        }
        return MoveCells {
            cells,
            column: false,
        };
    }
    if dims == 2 && args.len() == 1 && b.values[0].contains(&args[0]) {
        return MoveCells {
            cells: b.values[1]
                .iter()
                .map(|r| vec![args[0].clone(), r.clone()])
                .collect(),
            column: true,
        };
    }
    MoveCells::default()
}

/// The top-level arguments of a move's text (none for a constant).
fn move_args(mv: &str) -> Vec<String> {
    term_parts(mv).map_or_else(Vec::new, |(_, args)| {
        args.into_iter().map(String::from).collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::structure::boardsvg::svg;

    fn board() -> Board {
        let v = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        Board {
            fluent: "cell".into(),
            arity: 3,
            coordinates: vec![0, 1],
            contents: vec![2],
            size: vec![3, 2],
            ordered: vec![true, true],
            order: vec![None, None],
            values: vec![v(&["1", "2", "3"]), v(&["a", "b"])],
            pieces: vec![],
            markers: v(&["x"]),
            geometry: crate::structure::SQUARE.to_string(),
            shear: 0.0,
            drawings: vec![],
            shape: "grid".into(),
            sizes: vec![],
            stores: vec![],
            links: vec![],
            places: vec![],
        }
    }

    #[test]
    fn moves_name_cells_or_columns() {
        let b = board();
        let mc = move_cells(&b, "(move wp 1 a 2 b)");
        assert_eq!(mc.cells, [["1", "a"], ["2", "b"]]);
        assert!(!mc.column);
        let mc = move_cells(&b, "(drop 3)");
        assert_eq!(mc.cells, [["3", "a"], ["3", "b"]]);
        assert!(mc.column);
        assert_eq!(move_cells(&b, "noop"), MoveCells::default());
        assert_eq!(move_cells(&b, "(mark 4 a)"), MoveCells::default());
    }

    #[test]
    fn moves_name_places_of_a_1d_board() {
        let v = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let mut b = board();
        b.arity = 2;
        b.coordinates = vec![0];
        b.contents = vec![1];
        b.size = vec![3];
        b.values = vec![v(&["p1", "p2", "c"])];
        let mc = move_cells(&b, "(go p1 c)");
        assert_eq!(mc.cells, [["p1", ""], ["c", ""]]);
        assert!(!mc.column);
        assert_eq!(move_cells(&b, "(go q c)").cells, [["c", ""]]);
        assert_eq!(move_cells(&b, "stop"), MoveCells::default());
    }

    #[test]
    fn moves_name_cells_of_a_3d_board() {
        let v = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let mut b = board();
        b.arity = 4;
        b.coordinates = vec![0, 1, 2];
        b.contents = vec![3];
        b.size = vec![3, 2, 2];
        b.values.push(v(&["p", "q"]));
        let mc = move_cells(&b, "(mark 2 b q)");
        assert_eq!(mc.cells, [["2", "b", "q"]]);
        assert!(!mc.column);
        let mc = move_cells(&b, "(move 1 a p 3 b q)");
        assert_eq!(mc.cells, [["1", "a", "p"], ["3", "b", "q"]]);
        // No column drops on a layered board; a pair is not a cell there.
        assert_eq!(move_cells(&b, "(drop 3)"), MoveCells::default());
        assert_eq!(move_cells(&b, "(mark 2 b)"), MoveCells::default());
    }

    #[test]
    fn text_board_puts_the_last_row_on_top() {
        let b = board();
        let texts = vec!["(cell 1 a x)".to_string(), "(cell 3 b x)".to_string()];
        let g = grid(&b, &Fluent::of_texts(&texts)).unwrap();
        assert_eq!(text(&g), "b | . . x\na | x . .\n    1 2 3\n");
        let svg = svg(&b, &g, 10.0, true);
        assert_eq!(svg.matches("<rect ").count(), 6);
        // Two x marks (pieces.rs), no text.
        assert_eq!(svg.matches("M24 24").count(), 2);
    }

    #[test]
    fn cells_split_a_state_into_board_and_rest() {
        let b = board();
        let texts: Vec<String> = [
            "(cell 1 a x)",
            "(control o)",
            "(cell 3 b x)",
            "(cell 4 a x)",
        ]
        .map(String::from)
        .to_vec();
        let bc = cells(&b, &Fluent::of_texts(&texts)).unwrap();
        assert_eq!((bc.xs.len(), bc.ys.len(), bc.zs.len()), (3, 2, 0));
        let at: Vec<(&str, &str, &str)> = bc
            .cells
            .iter()
            .map(|c| (c.x.as_str(), c.y.as_str(), c.content.as_str()))
            .collect();
        assert_eq!(at, [("1", "a", "x"), ("3", "b", "x")]);
        // Off the board's domain or another relation: the rest, in order.
        assert_eq!(bc.rest, ["(control o)", "(cell 4 a x)"]);
    }

    #[test]
    fn cells_of_one_and_three_coordinates() {
        let v = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let mut b = board();
        b.fluent = "at".into();
        b.arity = 4;
        b.coordinates = vec![0, 1, 2];
        b.contents = vec![3];
        b.values.push(v(&["p", "q"]));
        b.size = vec![3, 2, 2];
        let texts = v(&["(at 2 b q x)", "(at 2 b p o)"]);
        let bc = cells(&b, &Fluent::of_texts(&texts)).unwrap();
        assert_eq!(bc.zs, ["p", "q"]);
        assert_eq!(bc.cells.len(), 2);
        assert_eq!(
            (bc.cells[0].z.as_str(), bc.cells[0].content.as_str()),
            ("q", "x")
        );
        assert!(
            grid(&b, &Fluent::of_texts(&texts)).is_none(),
            "the text board is 2-D only"
        );
        assert_eq!(
            main_board(std::slice::from_ref(&b)).map(|m| &m.fluent),
            Some(&b.fluent)
        );

        let mut line = board();
        line.fluent = "slot".into();
        line.arity = 2;
        line.coordinates = vec![0];
        line.contents = vec![1];
        line.values.truncate(1);
        line.size = vec![3];
        let bc = cells(&line, &Fluent::of_texts(&v(&["(slot 2 x)"]))).unwrap();
        assert_eq!(bc.ys, [""]);
        assert_eq!((bc.cells[0].x.as_str(), bc.cells[0].y.as_str()), ("2", ""));
        let g = grid(&line, &Fluent::of_texts(&v(&["(slot 2 x)"]))).unwrap();
        assert_eq!(g.cells, [[None, Some("x".to_string()), None]]);
    }
}
