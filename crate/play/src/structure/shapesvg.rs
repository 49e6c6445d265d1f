//! The SVG of the boards that `shapes` names: pegs (a peg per column on a
//! base, each disc a bar as wide as its size) and mancala (two rows of
//! round pits, a tall store at each end spanning both rows, the counts
//! written in them), stacks and dots and boxes.

use super::board::Grid;
use super::pieces::drawing_of;
use super::shapes::{disc_width, dots_cell, DotsCell};
use super::Board;
use std::fmt::Write as _;

const WOOD: &str = "#c8a46e";
const RIM: &str = "#6b5b45";
const WELL: &str = "#efe6d3";
const INK: &str = "#1d2330";

fn open(w: f64, h: f64, fluent: &str) -> String {
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="gdl-board" viewBox="0 0 {w:.2} {h:.2}" width="{w:.2}" height="{h:.2}" font-family="sans-serif" role="img" aria-label="board {}">"#,
        super::pieces::escape(fluent)
    )
}

/// Pegs: columns are pegs, the bottom row on the base; each piece of
/// `b.sizes` a disc (`class="disc"`, `data-size` its rank from 0).
pub fn pegs(b: &Board, g: &Grid, cell: f64) -> String {
    let cols = g.cols.len() as f64;
    let rows = g.rows.len() as f64;
    let base = cell * 0.25;
    let (w, h) = (cols * cell + 1.0, rows * cell + cell * 0.3 + base + 1.0);
    let top = cell * 0.3;
    let mut s = open(w, h, &g.fluent);
    let _ = write!(
        s,
        r#"<rect x="0.5" y="{:.2}" width="{:.2}" height="{base:.2}" rx="3" fill="{WOOD}" stroke="{RIM}"/>"#,
        top + rows * cell,
        cols * cell
    );
    for c in 0..g.cols.len() {
        let x = (c as f64 + 0.5) * cell;
        let _ = write!(
            s,
            r#"<rect class="peg" x="{:.2}" y="{:.2}" width="{:.2}" height="{:.2}" fill="{WOOD}" stroke="{RIM}"/>"#,
            x - cell * 0.05,
            top * 0.5,
            cell * 0.1,
            rows * cell + top * 0.5
        );
    }
    let n = b.sizes.len();
    for (r, row) in g.cells.iter().enumerate() {
        for (c, content) in row.iter().enumerate() {
            let Some(t) = content else { continue };
            let Some(rank) = b.sizes.iter().position(|p| p == t) else {
                continue;
            };
            let dw = disc_width(rank, n) / 100.0 * cell;
            let fill = b
                .drawings
                .iter()
                .find(|d| &d.content == t)
                .map_or("#d9534f", |d| d.colour.as_str());
            let _ = write!(
                s,
                r#"<rect class="disc" data-size="{rank}" x="{:.2}" y="{:.2}" width="{dw:.2}" height="{:.2}" rx="{:.2}" fill="{fill}" stroke="{RIM}"><title>{}</title></rect>"#,
                (c as f64 + 0.5) * cell - dw / 2.0,
                top + (r as f64 + 0.2) * cell,
                cell * 0.6,
                cell * 0.15,
                super::pieces::escape(t)
            );
        }
    }
    s.push_str("</svg>");
    s
}

/// Mancala: the stores (`b.stores`) as tall wells at the ends, the other
/// cells of the inner columns as round pits (`class="pit"`/`"store"`),
/// each with its count.
pub fn mancala(b: &Board, g: &Grid, cell: f64) -> String {
    let cols = g.cols.len();
    let (w, h) = (cols as f64 * cell + 1.0, 2.0 * cell + 1.0);
    let mut s = open(w, h, &g.fluent);
    let _ = write!(
        s,
        r#"<rect x="0.5" y="0.5" width="{:.2}" height="{:.2}" rx="{:.2}" fill="{WOOD}" stroke="{RIM}"/>"#,
        w - 1.0,
        h - 1.0,
        cell * 0.4
    );
    let count = |r: usize, c: usize| g.cells[r][c].clone().unwrap_or_default();
    for (c, col) in g.cols.iter().enumerate() {
        let x = (c as f64 + 0.5) * cell;
        let store = g
            .rows
            .iter()
            .position(|row| b.stores.contains(&vec![col.clone(), row.clone()]));
        if let Some(r) = store {
            let _ = write!(
                s,
                r#"<ellipse class="store" cx="{x:.2}" cy="{:.2}" rx="{:.2}" ry="{:.2}" fill="{WELL}" stroke="{RIM}"/>"#,
                cell,
                cell * 0.4,
                cell * 0.9
            );
            s.push_str(&label(x, cell, cell, &count(r, c)));
            continue;
        }
        if c == 0 || c + 1 == cols {
            continue;
        }
        for r in 0..g.rows.len() {
            let y = (r as f64 + 0.5) * cell;
            let _ = write!(
                s,
                r#"<circle class="pit" cx="{x:.2}" cy="{y:.2}" r="{:.2}" fill="{WELL}" stroke="{RIM}"/>"#,
                cell * 0.4
            );
            s.push_str(&label(x, y, cell, &count(r, c)));
        }
    }
    s.push_str("</svg>");
    s
}

/// Stacks: the blocks as drawn (`class="block"`) on a table under the
/// bottom row; the empty cells are air.
pub fn stacks(b: &Board, g: &Grid, cell: f64) -> String {
    let rows = g.rows.len() as f64;
    let base = cell * 0.2;
    let (w, h) = (g.cols.len() as f64 * cell + 1.0, rows * cell + base + 1.0);
    let mut s = open(w, h, &g.fluent);
    let _ = write!(
        s,
        r#"<rect x="0.5" y="{:.2}" width="{:.2}" height="{base:.2}" fill="{WOOD}" stroke="{RIM}"/>"#,
        rows * cell,
        w - 1.0
    );
    for (r, row) in g.cells.iter().enumerate() {
        for (c, content) in row.iter().enumerate() {
            let Some(t) = content else { continue };
            let svg = b
                .drawings
                .iter()
                .find(|d| &d.content == t)
                .map_or(String::new(), |d| d.svg.clone());
            let _ = write!(
                s,
                r#"<svg class="block" data-content="{}" x="{:.2}" y="{:.2}" width="{cell}" height="{cell}" viewBox="0 0 100 100"><title>{}</title>{svg}</svg>"#,
                super::pieces::escape(t),
                c as f64 * cell,
                r as f64 * cell,
                super::pieces::escape(t)
            );
        }
    }
    s.push_str("</svg>");
    s
}

/// Dots and boxes: each claimed box (`class="box"`) filled in its owner's
/// colour with its drawing, each drawn line (`class="drawn"`) between its
/// two dots, a faint dashed line where none is drawn yet, then the dots.
pub fn dots(b: &Board, g: &Grid, cell: f64) -> String {
    let (w, h) = (g.cols.len() as f64 * cell, g.rows.len() as f64 * cell);
    let mut s = open(w, h, &g.fluent);
    let _ = write!(s, r#"<rect width="{w:.2}" height="{h:.2}" fill="{WELL}"/>"#);
    let centre = |c: usize, r: usize| ((c as f64 + 0.5) * cell, (r as f64 + 0.5) * cell);
    let (mut boxes, mut lines, mut spots) = (String::new(), String::new(), String::new());
    for (r, row) in g.cells.iter().enumerate() {
        for (c, content) in row.iter().enumerate() {
            let (x, y) = centre(c, r);
            let mark = drawn(b, content);
            let title = mark.as_ref().map_or(String::new(), |(t, _)| {
                format!("<title>{}</title>", super::pieces::escape(t))
            });
            match dots_cell(c, r) {
                DotsCell::Dot => {
                    let _ = write!(
                        spots,
                        r#"<circle class="dot" cx="{x:.2}" cy="{y:.2}" r="{:.2}" fill="{INK}"/>"#,
                        cell * 0.16
                    );
                }
                DotsCell::Box => {
                    let Some((_, d)) = mark else { continue };
                    let _ = write!(
                        boxes,
                        r#"<g class="box">{title}<rect x="{:.2}" y="{:.2}" width="{:.2}" height="{:.2}" fill="{}" fill-opacity="0.35"/><svg x="{:.2}" y="{:.2}" width="{cell}" height="{cell}" viewBox="0 0 100 100">{}</svg></g>"#,
                        x - cell,
                        y - cell,
                        2.0 * cell,
                        2.0 * cell,
                        d.colour,
                        x - cell / 2.0,
                        y - cell / 2.0,
                        d.svg
                    );
                }
                kind => {
                    let (dx, dy) = if kind == DotsCell::Across {
                        (cell, 0.0)
                    } else {
                        (0.0, cell)
                    };
                    let style = if mark.is_some() {
                        format!(
                            r#"class="drawn" stroke="{INK}" stroke-width="{:.2}""#,
                            cell * 0.16
                        )
                    } else {
                        format!(
                            r#"stroke="{RIM}" stroke-opacity="0.45" stroke-width="{:.2}" stroke-dasharray="{:.2}""#,
                            cell * 0.05,
                            cell * 0.15
                        )
                    };
                    let _ = write!(
                        lines,
                        r#"<line x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" {style} stroke-linecap="round">{title}</line>"#,
                        x - dx,
                        y - dy,
                        x + dx,
                        y + dy
                    );
                }
            }
        }
    }
    s.push_str(&boxes);
    s.push_str(&lines);
    s.push_str(&spots);
    s.push_str("</svg>");
    s
}

/// A cell's content and drawing unless it is blank (an undrawn line, an
/// unclaimed box).
fn drawn<'a>(b: &Board, content: &'a Option<String>) -> Option<(&'a str, super::pieces::Drawing)> {
    let t = content.as_deref()?;
    let d = drawing_of(b, t);
    (d.kind != "blank").then_some((t, d))
}

/// A count centred at (x, y), at most as wide as 0.6 cells.
fn label(x: f64, y: f64, cell: f64, text: &str) -> String {
    let squeeze = if text.chars().count() > 2 {
        format!(
            r#" textLength="{:.2}" lengthAdjust="spacingAndGlyphs""#,
            cell * 0.6
        )
    } else {
        String::new()
    };
    format!(
        r#"<text class="count" x="{x:.2}" y="{y:.2}" font-size="{:.2}" font-weight="700" text-anchor="middle" dominant-baseline="central" fill="{INK}"{squeeze}>{}</text>"#,
        cell * 0.36,
        super::pieces::escape(text)
    )
}

#[cfg(test)]
mod tests {
    use super::super::board::{grid, Fluent};
    use super::super::{boardsvg, find, shapes, Board, Structure, DISPLAY_OPTIONS};
    use crate::reasoner::StateMachine;
    use crate::EngineChoice;

    /// A project game's structure and the fluents of the states of one
    /// playout (each role's middle legal move), at most `steps` states.
    fn states(name: &str, steps: usize) -> (Structure, Vec<Vec<Fluent>>) {
        let path = format!("{}/../../games/{name}.kif", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).expect("the game file");
        let crate::Game {
            program,
            mut engine,
        } = crate::Game::load(&text, EngineChoice::Interpreter).expect("the game loads");
        let st = find(&program, &mut engine, DISPLAY_OPTIONS).unwrap();
        let mut s = engine.initial_state().unwrap();
        let mut out = Vec::new();
        for _ in 0..steps {
            out.push(Fluent::of_terms(engine.terms(), &engine.fluents(&s)));
            if engine.is_terminal(&s).unwrap() {
                break;
            }
            let joint: Vec<_> = (0..engine.roles().len())
                .map(|r| {
                    let l = engine.legal_moves(&s, r).unwrap();
                    l[l.len() / 2]
                })
                .collect();
            s = engine.next_state(&s, &joint).unwrap();
        }
        (st, out)
    }

    fn board<'a>(st: &'a Structure, fluent: &str) -> &'a Board {
        st.boards
            .iter()
            .find(|b| b.fluent == fluent)
            .expect("the board")
    }

    /// The value of attribute `name` in the element text `el`.
    fn attr(el: &str, name: &str) -> f64 {
        let key = format!(" {name}=\"");
        let at = el.find(&key).unwrap_or_else(|| panic!("{name} in {el}")) + key.len();
        el[at..].split('"').next().unwrap().parse().unwrap()
    }

    /// The elements of `svg` that start with `start` (up to their `>`).
    fn elements<'a>(svg: &'a str, start: &str) -> Vec<&'a str> {
        svg.match_indices(start)
            .map(|(i, _)| &svg[i..i + svg[i..].find('>').unwrap()])
            .collect()
    }

    fn view_box(svg: &str) -> (f64, f64) {
        let at = svg.find("viewBox=\"0 0 ").unwrap() + 13;
        let mut it = svg[at..]
            .split(['"', ' '])
            .map(|v| v.parse::<f64>().unwrap());
        (it.next().unwrap(), it.next().unwrap())
    }

    #[test]
    fn hanoi_is_discs_on_pegs() {
        let (st, states) = states("hanoi", 8);
        let b = board(&st, "slot");
        assert_eq!(b.shape, shapes::PEGS);
        assert_eq!(b.sizes, ["d1", "d2", "d3", "d4"], "from the smallest");
        assert!(states.len() >= 4, "{} states", states.len());
        for fluents in &states {
            let svg = boardsvg::svg(b, &grid(b, fluents).unwrap(), 40.0, false);
            let discs = elements(&svg, "<rect class=\"disc\"");
            let held = fluents
                .iter()
                .filter(|f| f.name == "slot" && b.sizes.contains(&f.args[2]))
                .count();
            assert_eq!(discs.len(), held, "a disc for each disc fact");
            assert_eq!(elements(&svg, "<rect class=\"peg\"").len(), 3);
            let (w, h) = view_box(&svg);
            let mut by_size: Vec<(f64, f64)> = discs
                .iter()
                .map(|d| {
                    let (x, y, dw, dh) = (
                        attr(d, "x"),
                        attr(d, "y"),
                        attr(d, "width"),
                        attr(d, "height"),
                    );
                    assert!(
                        x >= 0.0 && y >= 0.0 && x + dw <= w && y + dh <= h,
                        "{d} inside {w}×{h}"
                    );
                    (attr(d, "data-size"), dw)
                })
                .collect();
            by_size.sort_by(|a, b| a.0.total_cmp(&b.0));
            // Each size clearly wider (a tenth of a peg) than the one below.
            assert!(
                by_size
                    .windows(2)
                    .all(|p| p[0].0 < p[1].0 && p[0].1 + 4.0 <= p[1].1),
                "{by_size:?}"
            );
        }
        // The page's discs (`drawings`): inside the cell, the largest at
        // least twice the smallest, each size wider than the one below.
        let widths: Vec<f64> = b
            .sizes
            .iter()
            .map(|s| {
                let d = b.drawings.iter().find(|d| &d.content == s).unwrap();
                let rect = elements(&d.svg, "<rect")[0];
                let (x, w) = (attr(rect, "x"), attr(rect, "width"));
                assert!(x >= 0.0 && x + w <= 100.0, "{rect} inside the cell");
                w
            })
            .collect();
        assert_eq!(widths.len(), 4);
        assert!(widths.windows(2).all(|p| p[0] + 10.0 <= p[1]), "{widths:?}");
        assert!(widths[3] >= 2.0 * widths[0], "{widths:?}");
    }

    #[test]
    fn kalah_is_pits_and_stores() {
        let (st, states) = states("kalah", 8);
        let b = board(&st, "pit");
        assert_eq!(b.shape, shapes::MANCALA);
        assert_eq!(b.stores.len(), 2);
        assert!(states.len() >= 4, "{} states", states.len());
        let pits = b.values[0].len() - 2;
        for fluents in &states {
            let svg = boardsvg::svg(b, &grid(b, fluents).unwrap(), 40.0, false);
            assert_eq!(elements(&svg, "<ellipse class=\"store\"").len(), 2);
            assert_eq!(elements(&svg, "<circle class=\"pit\"").len(), 2 * pits);
            let mut drawn: Vec<String> = svg
                .split("<text class=\"count\"")
                .skip(1)
                .map(|t| t[t.find('>').unwrap() + 1..t.find('<').unwrap()].to_string())
                .collect();
            let mut held: Vec<String> = fluents
                .iter()
                .filter(|f| f.name == "pit")
                .map(|f| f.args[2].clone())
                .collect();
            drawn.sort();
            held.sort();
            assert_eq!(drawn, held, "every count drawn once");
        }
    }

    #[test]
    fn blocks_world_is_stacks_on_a_table() {
        let (st, states) = states("blocksWorld", 5);
        let b = board(&st, "on");
        assert_eq!(b.shape, shapes::STACKS);
        assert!(states.len() >= 3, "{} states", states.len());
        let blocks = &b.values[0];
        for fluents in &states {
            let svg = boardsvg::svg(b, &grid(b, fluents).unwrap(), 40.0, false);
            let drawn = elements(&svg, "<svg class=\"block\"");
            let place = |name: &str| {
                let key = format!("data-content=\"{name}\"");
                let found: Vec<&&str> = drawn.iter().filter(|d| d.contains(&key)).collect();
                assert_eq!(found.len(), 1, "{name} drawn once in {svg}");
                (attr(found[0], "x"), attr(found[0], "y"))
            };
            assert_eq!(drawn.len(), blocks.len());
            for f in fluents.iter().filter(|f| f.name == "on") {
                let (upper, lower) = (place(&f.args[0]), place(&f.args[1]));
                assert_eq!(upper.0, lower.0, "{} over {}", f.args[0], f.args[1]);
                assert!(upper.1 + 1.0 < lower.1, "{} above {}", f.args[0], f.args[1]);
            }
        }
    }

    #[test]
    fn kuhn_poker_cards_are_playing_cards() {
        let (st, states) = states("kuhnPoker", 6);
        let b = board(&st, "holds");
        assert_eq!(b.shape, shapes::HANDS);
        let mut held_seen = 0;
        for fluents in &states {
            let Some(g) = grid(b, fluents) else { continue };
            let svg = boardsvg::svg(b, &g, 40.0, false);
            let held = fluents.iter().filter(|f| f.name == "holds").count();
            assert_eq!(elements(&svg, "<rect class=\"card\"").len(), held, "{svg}");
            held_seen += held;
        }
        assert!(held_seen >= 2, "cards were dealt");
        for p in &b.pieces {
            let d = b.drawings.iter().find(|d| &d.content == p).unwrap();
            assert_eq!(d.kind, "card");
            assert_eq!(d.label, p.to_uppercase(), "the rank on the card");
        }
    }

    #[test]
    fn the_sokoban_keeper_is_a_person() {
        let (st, _) = states("sokoban", 1);
        let b = board(&st, "square");
        assert_eq!(b.pieces.len(), 1, "{:?}", b.pieces);
        let d = b
            .drawings
            .iter()
            .find(|d| d.content == b.pieces[0])
            .unwrap();
        assert_eq!(d.kind, "agent");
        assert_eq!(d.owner, Some(0));
        assert!(d.svg.contains("class=\"agent\""));
        let others = b.drawings.iter().filter(|d| d.content != b.pieces[0]);
        assert!(others.clone().all(|d| d.kind != "agent"));
    }

    #[test]
    fn dots_and_boxes_is_dots_lines_and_boxes() {
        let (st, states) = states("dotsAndBoxes", 40);
        let b = board(&st, "grid");
        assert_eq!(b.shape, shapes::DOTS);
        assert!(states.len() >= 20, "{} states", states.len());
        let mut claimed = 0;
        for fluents in &states {
            let svg = boardsvg::svg(b, &grid(b, fluents).unwrap(), 40.0, false);
            // A 7 x 7 grid: 16 dots, 24 lines, 9 boxes.
            assert_eq!(elements(&svg, "<circle class=\"dot\"").len(), 16);
            assert_eq!(elements(&svg, "<line").len(), 24);
            let drawn = fluents
                .iter()
                .filter(|f| f.name == "grid" && f.args[2] == "line")
                .count();
            assert_eq!(
                elements(&svg, "<line x1")
                    .iter()
                    .filter(|l| l.contains("class=\"drawn\""))
                    .count(),
                drawn
            );
            let owned = fluents
                .iter()
                .filter(|f| f.name == "grid" && (f.args[2] == "red" || f.args[2] == "blue"))
                .count();
            assert_eq!(elements(&svg, "<g class=\"box\"").len(), owned);
            claimed = claimed.max(owned);
            for l in elements(&svg, "<line x1") {
                let (x1, x2) = (attr(l, "x1"), attr(l, "x2"));
                let (y1, y2) = (attr(l, "y1"), attr(l, "y2"));
                assert!(x1 == x2 || y1 == y2, "straight: {l}");
                assert!((x1 - x2).abs() + (y1 - y2).abs() == 80.0, "dot to dot: {l}");
            }
        }
        assert!(claimed >= 1, "no box claimed in the playout");
    }

    #[test]
    fn grids_stay_grids() {
        for (game, fluent) in [
            ("ticTacToe", "cell"),
            ("nim", "heap"),
            ("connectFour", "cell"),
            ("nineMensMorris", "point"),
            ("checkers", "cell"),
        ] {
            let (st, _) = states(game, 1);
            if let Some(b) = st.boards.iter().find(|b| b.fluent == fluent) {
                assert_eq!(b.shape, shapes::GRID, "{game}");
            }
        }
        let (st, _) = states("ticTacToe", 1);
        assert!(!st.boards.is_empty());
    }
}
