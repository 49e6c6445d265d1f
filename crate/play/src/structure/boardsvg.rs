//! A board as a standalone SVG (npm `renderBoard`, the gallery's
//! thumbnails): square cells (checkered from 4 × 4 on), hexagons (a
//! rhombus, `hexgrid`) or points joined by lines (`linegrid`), each
//! content drawn as `pieces` names it. The page
//! draws the same cells and the same piece SVG in HTML (`site/src/play/board.js`).

use super::board::{grid, layer_grids, Fluent, Grid};
use super::pieces;
use super::{shapes, shapesvg, Board, HEX, LATTICE, LINES, RING};
use std::fmt::Write as _;

const LIGHT: &str = "#efe6d3";
const DARK: &str = "#c8b48f";
const LINE: &str = "#8a7a60";
const INK: &str = "#5a6270";

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Where the cells of a grid lie: the centre of (row, column) and the
/// drawing's size, `cell` pixels per cell, `margin` on the left and bottom.
struct Layout {
    cell: f64,
    margin: f64,
    hex: bool,
    /// Rows' shifts in cells (hex boards), from the top row.
    shifts: Vec<f64>,
    step: f64,
}

impl Layout {
    fn new(b: &Board, g: &Grid, cell: f64, margin: f64) -> Layout {
        let hex = b.geometry == HEX;
        let n = g.rows.len();
        // Rows are listed from the top, the last value of the second coordinate first.
        let raw: Vec<f64> = (0..n).map(|r| b.shear * (n - 1 - r) as f64).collect();
        let least = raw.iter().copied().fold(0.0, f64::min);
        let shifts = if hex {
            raw.iter().map(|s| s - least).collect()
        } else {
            vec![0.0; n]
        };
        // Hexagons as wide as a cell: rows 0.866 cells apart.
        let step = if hex { cell * 3f64.sqrt() / 2.0 } else { cell };
        Layout {
            cell,
            margin,
            hex,
            shifts,
            step,
        }
    }

    fn centre(&self, r: usize, c: usize) -> (f64, f64) {
        let top = if self.hex {
            self.cell / 2.0 / 0.866
        } else {
            self.cell / 2.0
        };
        let x = self.margin + (c as f64 + 0.5 + self.shifts[r]) * self.cell;
        (x, top + r as f64 * self.step)
    }

    fn size(&self, g: &Grid) -> (f64, f64) {
        let widest = self.shifts.iter().copied().fold(0.0, f64::max);
        let w = self.margin + self.cell * (g.cols.len() as f64 + widest);
        let rows = g.rows.len().max(1) as f64;
        let h = if self.hex {
            self.step * (rows - 1.0) + self.cell / 0.866
        } else {
            self.cell * rows
        };
        // A pixel more, for the outermost strokes.
        (w + 1.0, h + self.margin + 1.0)
    }

    /// The outline of cell (r, c): a square or a pointy-top hexagon.
    fn outline(&self, r: usize, c: usize, fill: &str) -> String {
        let (x, y) = self.centre(r, c);
        let half = self.cell / 2.0;
        if !self.hex {
            return format!(
                r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{fill}" stroke="{LINE}" stroke-width="1"/>"#,
                x - half,
                y - half,
                self.cell,
                self.cell
            );
        }
        let (h, q) = (half / 0.866, half / 0.866 / 2.0);
        let p = [
            (x, y - h),
            (x + half, y - q),
            (x + half, y + q),
            (x, y + h),
            (x - half, y + q),
            (x - half, y - q),
        ];
        let points: Vec<String> = p.iter().map(|(a, b)| format!("{a:.2},{b:.2}")).collect();
        format!(
            r#"<polygon points="{}" fill="{fill}" stroke="{LINE}" stroke-width="1"/>"#,
            points.join(" ")
        )
    }
}

/// The board as a standalone SVG, `cell` pixels per square, coordinates
/// along the edges (`labels`), contents drawn as `pieces` names them.
pub fn svg(b: &Board, g: &Grid, cell: f64, labels: bool) -> String {
    match b.shape.as_str() {
        shapes::PEGS => return shapesvg::pegs(b, g, cell),
        shapes::MANCALA => return shapesvg::mancala(b, g, cell),
        shapes::STACKS => return shapesvg::stacks(b, g, cell),
        shapes::DOTS => return shapesvg::dots(b, g, cell),
        _ => {}
    }
    if b.geometry == RING {
        return ring_svg(b, g, cell);
    }
    if b.geometry == LATTICE && b.places.len() == b.values[0].len() {
        return lattice_svg(b, g, cell);
    }
    let margin = if labels { cell * 0.6 } else { 0.0 };
    let l = Layout::new(b, g, cell, margin);
    let (w, h) = l.size(g);
    let lines = b.geometry == LINES;
    let checkered = !l.hex && !lines && g.cols.len() >= 4 && g.rows.len() >= 4;
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="gdl-board" viewBox="0 0 {w:.2} {h:.2}" width="{w:.2}" height="{h:.2}" font-family="sans-serif" role="img" aria-label="board {}">"#,
        escape(&g.fluent)
    );
    if lines {
        s.push_str(&lines_svg(b, g, &l, w, h));
    }
    for (r, row) in g.cells.iter().enumerate() {
        for (c, content) in row.iter().enumerate() {
            let dark = checkered && (r + c) % 2 == 1;
            if !lines {
                s.push_str(&l.outline(r, c, if dark { DARK } else { LIGHT }));
            }
            let Some(t) = content else { continue };
            piece(&mut s, b, t, l.centre(r, c), cell);
        }
    }
    if labels {
        s.push_str(&edge_labels(&l, g, h));
    }
    s.push_str("</svg>");
    s
}

/// Content `t` drawn as `pieces` names it (nothing for a blank), in a
/// square of `cell` pixels centred on `at`.
fn piece(s: &mut String, b: &Board, t: &str, at: (f64, f64), cell: f64) {
    let d = pieces::drawing_of(b, t);
    if d.kind == "blank" {
        return;
    }
    let _ = write!(
        s,
        r#"<svg x="{:.2}" y="{:.2}" width="{cell}" height="{cell}" viewBox="0 0 100 100"><title>{}</title>{}</svg>"#,
        at.0 - cell / 2.0,
        at.1 - cell / 2.0,
        escape(t),
        d.svg
    );
}

/// Where place `i` of `n` lies on a ring of radius `r` round (`c`, `c`):
/// the first at the top, then clockwise.
pub fn ring_point(i: usize, n: usize, r: f64, c: f64) -> (f64, f64) {
    let a = std::f64::consts::TAU * i as f64 / n as f64;
    (c + r * a.sin(), c - r * a.cos())
}

/// A `ring` board: its places as circles round a circle, in the ring's
/// order, each content drawn as `pieces` names it.
fn ring_svg(b: &Board, g: &Grid, cell: f64) -> String {
    let n = g.cols.len().max(1);
    // The places a quarter of a cell apart along the circle.
    let r = (cell * 1.25 * n as f64 / std::f64::consts::TAU).max(cell);
    let c = r + cell * 0.6;
    let size = 2.0 * c;
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="gdl-board" viewBox="0 0 {size:.2} {size:.2}" width="{size:.2}" height="{size:.2}" font-family="sans-serif" role="img" aria-label="board {}"><rect width="100%" height="100%" fill="{LIGHT}"/><circle cx="{c:.2}" cy="{c:.2}" r="{r:.2}" fill="none" stroke="{LINE}" stroke-width="{:.2}"/>"#,
        escape(&g.fluent),
        (cell * 0.06).max(1.0)
    );
    let row = g.cells.first().map(Vec::as_slice).unwrap_or_default();
    for i in 0..g.cols.len() {
        let (x, y) = ring_point(i, n, r, c);
        let _ = write!(
            s,
            r#"<circle cx="{x:.2}" cy="{y:.2}" r="{:.2}" fill="{DARK}" stroke="{LINE}" stroke-width="1"/>"#,
            cell * 0.45
        );
        let Some(Some(t)) = row.get(i) else { continue };
        piece(&mut s, b, t, (x, y), cell);
    }
    s.push_str("</svg>");
    s
}

/// A `lattice` board: its places as holes at their lattice points (the
/// chinese checkers star), each content drawn as `pieces` names it.
fn lattice_svg(b: &Board, g: &Grid, cell: f64) -> String {
    let far = |i: usize| b.places.iter().map(|p| p[i]).fold(0.0, f64::max);
    let (w, h) = ((far(0) + 1.2) * cell, (far(1) + 1.2) * cell);
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="gdl-board" viewBox="0 0 {w:.2} {h:.2}" width="{w:.2}" height="{h:.2}" font-family="sans-serif" role="img" aria-label="board {}"><rect width="100%" height="100%" rx="{:.2}" fill="{LIGHT}"/>"#,
        escape(&g.fluent),
        cell * 0.3
    );
    let row = g.cells.first().map(Vec::as_slice).unwrap_or_default();
    for (i, col) in g.cols.iter().enumerate() {
        let Some(k) = b.values[0].iter().position(|v| v == col) else {
            continue;
        };
        let (x, y) = ((b.places[k][0] + 0.6) * cell, (b.places[k][1] + 0.6) * cell);
        let _ = write!(
            s,
            r#"<circle cx="{x:.2}" cy="{y:.2}" r="{:.2}" fill="{DARK}" stroke="{LINE}" stroke-width="1"/>"#,
            cell * 0.42
        );
        let Some(Some(t)) = row.get(i) else { continue };
        piece(&mut s, b, t, (x, y), cell);
    }
    s.push_str("</svg>");
    s
}

/// A `lines` board's background, its lines between the points' centres
/// and a dot on each point (the pieces are drawn over them).
fn lines_svg(b: &Board, g: &Grid, l: &Layout, w: f64, h: f64) -> String {
    let mut s = format!(r#"<rect x="0" y="0" width="{w:.2}" height="{h:.2}" fill="{LIGHT}"/>"#);
    let at = |x: &str, y: &str| {
        let c = g.cols.iter().position(|v| v == x)?;
        let r = g.rows.iter().position(|v| v == y)?;
        Some(l.centre(r, c))
    };
    let stroke = (l.cell * 0.08).max(1.0);
    let mut points = Vec::new();
    for link in &b.links {
        let [x, y, u, v] = link.as_slice() else {
            continue;
        };
        let (Some(a), Some(z)) = (at(x, y), at(u, v)) else {
            continue;
        };
        let _ = write!(
            s,
            r#"<line x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="{LINE}" stroke-width="{stroke:.2}" stroke-linecap="round"/>"#,
            a.0, a.1, z.0, z.1
        );
        points.extend([a, z]);
    }
    points.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    points.dedup();
    for (x, y) in points {
        let _ = write!(
            s,
            r#"<circle cx="{x:.2}" cy="{y:.2}" r="{:.2}" fill="{LINE}"/>"#,
            l.cell * 0.12
        );
    }
    s
}

/// Column labels under the bottom row, row labels left of each row.
fn edge_labels(l: &Layout, g: &Grid, h: f64) -> String {
    let lf = l.cell * 0.3;
    let bottom = g.rows.len().saturating_sub(1);
    let mut s = String::new();
    for (c, label) in g.cols.iter().enumerate() {
        let (x, _) = l.centre(bottom, c);
        let _ = write!(
            s,
            r#"<text x="{x:.2}" y="{:.2}" font-size="{lf}" text-anchor="middle" fill="{INK}">{}</text>"#,
            h - l.margin * 0.25,
            escape(label)
        );
    }
    for (r, label) in g.rows.iter().enumerate() {
        let (x, y) = l.centre(r, 0);
        let _ = write!(
            s,
            r#"<text x="{:.2}" y="{y:.2}" font-size="{lf}" text-anchor="middle" dominant-baseline="central" fill="{INK}">{}</text>"#,
            x - l.cell / 2.0 - l.margin / 2.0,
            escape(label)
        );
    }
    s
}

/// The SVG of the largest drawable board of a state, or `None` when the
/// game has none. A board with three coordinates is drawn as one grid
/// per value of the third, side by side, as the page shows it.
pub fn svg_of(boards: &[Board], fluents: &[Fluent], cell: f64, labels: bool) -> Option<String> {
    let b = boards
        .iter()
        .filter(|b| (1..=3).contains(&b.coordinates.len()))
        .max_by_key(|b| b.size.iter().product::<usize>())?;
    if b.coordinates.len() == 3 {
        return Some(layers(b, &layer_grids(b, fluents)?, cell, labels));
    }
    let g = grid(b, fluents)?;
    Some(svg(b, &g, cell, labels))
}

/// The layers of a 3-D board side by side, each captioned by its value.
fn layers(b: &Board, grids: &[(String, Grid)], cell: f64, labels: bool) -> String {
    let margin = if labels { cell * 0.6 } else { 0.0 };
    let gap = cell * 0.5;
    let caption = cell * 0.6;
    let mut body = String::new();
    let (mut x, mut height) = (0.0, 0.0f64);
    for (z, g) in grids {
        let (w, h) = Layout::new(b, g, cell, margin).size(g);
        let _ = write!(
            body,
            r#"<g transform="translate({x:.2},0)">{}"#,
            svg(b, g, cell, labels)
        );
        let _ = write!(
            body,
            r#"<text x="{:.2}" y="{:.2}" font-size="{:.2}" text-anchor="middle" fill="{INK}">{}</text></g>"#,
            w / 2.0,
            h + caption * 0.8,
            caption * 0.7,
            escape(z)
        );
        x += w + gap;
        height = height.max(h + caption);
    }
    let width = (x - gap).max(0.0);
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="gdl-board" viewBox="0 0 {width:.2} {height:.2}" width="{width:.2}" height="{height:.2}" font-family="sans-serif" role="img" aria-label="board {}">{body}</svg>"#,
        escape(&b.fluent)
    )
}

/// The SVG of a state: its largest drawable board, else its scene
/// (`scene`: lamps, rooms or doors in a row), else `None`.
pub fn svg_of_structure(
    st: &super::Structure,
    fluents: &[Fluent],
    cell: f64,
    labels: bool,
) -> Option<String> {
    svg_of(&st.boards, fluents, cell, labels).or_else(|| {
        let scene = st.scene.as_ref()?;
        Some(super::scene::svg(
            &super::scene::cells(scene, fluents),
            cell,
        ))
    })
}
