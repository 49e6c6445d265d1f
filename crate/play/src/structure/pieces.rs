//! How each content of a board is drawn: a disc, a checkers man or king, a
//! chess piece, a mark (x, o), a number, an arrow, a burnt cell or, when
//! nothing better is known, a round token with an abbreviation of at most
//! two characters. Chosen once here, beside the structure, so that every
//! drawing of a board (the page, npm `renderBoard`, the gallery's
//! thumbnails) shows the same thing: JavaScript only places the SVG that
//! Rust names.
//!
//! Display only: the structure itself never depends on names. What the
//! structure knows decides the rest: the roles give owners and colours,
//! the board's other contents decide whether a king is a chess king or a
//! crowned man, and contents without a known owner get colours by their
//! order on the board, so distinct contents never look alike.

use super::Board;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// The drawing of one content of a board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "PieceDrawing")
)]
pub struct Drawing {
    /// The content's text, as `BoardCell.content`.
    pub content: String,
    /// `blank`, `disc`, `man`, `king`, `chess`, `mark`, `number`, `arrow`,
    /// `burnt`, `tile` (a square piece: a trail, a crate), `token`, or
    /// on shaped boards (`shapes`) `bar` (a disc on a peg) and `block`;
    /// `card` and `die` for chance's draws (`chance`).
    pub kind: String,
    /// The owning role (an index into the structure's roles), if known.
    pub owner: Option<usize>,
    /// The fill colour (CSS).
    pub colour: String,
    /// A label of at most four characters (a chess glyph, a number, an
    /// abbreviation of two; empty for shapes).
    pub label: String,
    /// The drawing as SVG elements in a 100 × 100 view box (nest it in an
    /// `<svg viewBox="0 0 100 100">`); every text is escaped and fits.
    pub svg: String,
}

/// Contents shown as an empty cell.
const BLANKS: [&str; 14] = [
    "b", "blank", "empty", "none", "free", "nil", "space", "_", "-", ".", "eaten", "gone",
    "removed", "captured",
];

/// Colour words (and lights, on or off, and chocolate) and their fills.
const COLOURS: [(&str, &str); 21] = [
    ("choc", "#6b4226"),
    ("chocolate", "#6b4226"),
    ("on", "#f2c200"),
    ("lit", "#f2c200"),
    ("off", "#4b5563"),
    ("white", "#f4f1ea"),
    ("black", "#262b36"),
    ("red", "#d63a32"),
    ("blue", "#2456c7"),
    ("yellow", "#f2c200"),
    ("green", "#1b8a4a"),
    ("orange", "#f07d00"),
    ("purple", "#7a3cc2"),
    ("brown", "#8a5a2b"),
    ("gray", "#8a8f98"),
    ("grey", "#8a8f98"),
    ("teal", "#138a8a"),
    ("magenta", "#c2337a"),
    ("pink", "#e68fb3"),
    ("cyan", "#3fb6d3"),
    ("violet", "#7a3cc2"),
];

/// Fills of owners without a colour name, by role index: light, dark, then hues.
const OWNER_FILLS: [&str; 6] = [
    "#f4f1ea", "#262b36", "#d63a32", "#2456c7", "#1b8a4a", "#7a3cc2",
];

/// Fills of contents without an owner, by their order on the board.
const TONES: [&str; 8] = [
    "#7fa7e0", "#e59a7c", "#87c79a", "#c59ad8", "#e8c65a", "#6fc2c9", "#c7a27c", "#a4abb5",
];

/// Chess piece names and letters, and their glyphs (white, black).
const CHESS: [(&str, &str, char, char); 6] = [
    ("king", "k", '♔', '♚'),
    ("queen", "q", '♕', '♛'),
    ("rook", "r", '♖', '♜'),
    ("bishop", "b", '♗', '♝'),
    ("knight", "n", '♘', '♞'),
    ("pawn", "p", '♙', '♟'),
];

/// Names of square pieces: an owner's trail or wall, crates, chocolate.
const TILES: [&str; 8] = [
    "trail",
    "tail",
    "wall",
    "box",
    "crate",
    "block",
    "choc",
    "chocolate",
];

/// Names of plain pieces drawn as discs.
const DISCS: [&str; 12] = [
    "stone", "disc", "disk", "piece", "peg", "counter", "bead", "marble", "seed", "ball",
    "checker", "token",
];

/// The drawings of a board's contents (its markers and pieces, in that order).
pub fn drawings(b: &Board, roles: &[String]) -> Vec<Drawing> {
    let contents: Vec<&String> = b.markers.iter().chain(&b.pieces).collect();
    // A king among men is crowned; among queens and rooks it is a chess king.
    let checkers = contents.iter().any(|c| {
        owner(&c.to_lowercase(), roles)
            .rest
            .iter()
            .any(|w| is_man(w))
    });
    let mut tone = 0;
    contents
        .iter()
        .map(|c| {
            let d = drawing(c, roles, checkers, tone);
            if d.owner.is_none() && d.colour == TONES[tone % TONES.len()] {
                tone += 1;
            }
            d
        })
        .collect()
}

/// A content's drawing on `b` (the structure's, else a token).
pub fn drawing_of(b: &Board, content: &str) -> Drawing {
    b.drawings
        .iter()
        .find(|d| d.content == content)
        .cloned()
        .unwrap_or_else(|| fallback(content, b.drawings.len()))
}

/// The drawing of a content that the board's structure did not list (seen
/// only later, or several fluents on one cell), by its name alone.
pub fn fallback(content: &str, index: usize) -> Drawing {
    drawing(content, &[], false, index)
}

fn words(content: &str) -> Vec<&str> {
    content
        .split([' ', '_', '-'])
        .filter(|w| !w.is_empty())
        .collect()
}

fn is_man(w: &str) -> bool {
    matches!(w, "man" | "men" | "checker")
}

fn colour_of(w: &str) -> Option<&'static str> {
    COLOURS.iter().find(|(n, _)| *n == w).map(|(_, c)| *c)
}

/// A role's fill: its colour name, else by its index.
fn role_fill(roles: &[String], i: usize) -> &'static str {
    colour_of(&roles[i]).unwrap_or(OWNER_FILLS[i % OWNER_FILLS.len()])
}

/// The owner named by a content and the words left of it: a word that is a
/// role (`white queen`, `red`), or a role's initial before a piece name or
/// letter (`wman`, `bp`; then `prefixed`), or x/o for roles named x… and o….
struct Owned<'a> {
    who: Option<usize>,
    rest: Vec<&'a str>,
    prefixed: bool,
}

fn owner<'a>(content: &'a str, roles: &[String]) -> Owned<'a> {
    let ws = words(content);
    if let Some(i) = ws.iter().find_map(|w| roles.iter().position(|r| r == w)) {
        let rest: Vec<&str> = ws.iter().copied().filter(|w| *w != roles[i]).collect();
        // A role's own name (`red`) is its piece.
        let rest = if rest.is_empty() { ws } else { rest };
        return Owned {
            who: Some(i),
            rest,
            prefixed: false,
        };
    }
    // A role's name before a piece's (`bluetrail`).
    for (i, r) in roles.iter().enumerate() {
        if let Some(rest) = ws.first().and_then(|w| w.strip_prefix(r.as_str())) {
            if rest.len() >= 2 {
                return Owned {
                    who: Some(i),
                    rest: vec![rest],
                    prefixed: true,
                };
            }
        }
    }
    let initials: Vec<char> = roles.iter().filter_map(|r| r.chars().next()).collect();
    let unique = |c: char| initials.iter().filter(|&&i| i == c).count() == 1;
    if let [w] = ws.as_slice() {
        let mut chars = w.chars();
        if let Some(c) = chars.next().filter(|&c| unique(c)) {
            let rest = chars.as_str();
            let who = initials.iter().position(|&i| i == c);
            if piece_word(rest) {
                return Owned {
                    who,
                    rest: vec![rest],
                    prefixed: true,
                };
            }
            // x and o are marks; another role's initial alone is its piece (`v`, `h`).
            if rest.is_empty() {
                let piece = if c == 'x' || c == 'o' { *w } else { "piece" };
                return Owned {
                    who,
                    rest: vec![piece],
                    prefixed: false,
                };
            }
        }
    }
    Owned {
        who: None,
        rest: ws,
        prefixed: false,
    }
}

/// A name or letter of a piece (after an owner's initial).
fn piece_word(w: &str) -> bool {
    is_man(w) || CHESS.iter().any(|(n, l, _, _)| *n == w || *l == w) || DISCS.contains(&w)
}

/// The drawing of one content; `tone` colours contents without an owner.
fn drawing(content: &str, roles: &[String], checkers: bool, tone: usize) -> Drawing {
    let lower = content.to_lowercase();
    if BLANKS.contains(&lower.as_str()) {
        return finish(content, "blank", None, "none", String::new());
    }
    if lower.parse::<i64>().is_ok() {
        // Up to four digits, squeezed; a longer number is cut with "…".
        let label = if lower.len() <= 4 {
            lower.clone()
        } else {
            format!("{}…", &lower[..3])
        };
        return finish(content, "number", None, "none", label);
    }
    let Owned {
        who,
        rest,
        prefixed,
    } = owner(&lower, roles);
    let named = rest.iter().find_map(|w| colour_of(w));
    let fill = who
        .map(|i| role_fill(roles, i))
        .or(named)
        .unwrap_or(TONES[tone % TONES.len()]);
    let w = rest.last().copied().unwrap_or("");
    let kind = kind_of(w, rest.len(), prefixed, checkers);
    let label = match kind {
        "chess" => chess_glyph(w, is_dark(fill)).to_string(),
        "mark" => w.to_string(),
        "token" => abbreviation(content),
        _ => String::new(),
    };
    finish(content, kind, who, fill, label)
}

/// The kind a content's last word `w` names (`words` words were left after
/// its owner; `prefixed`: after an owner's initial).
fn kind_of(w: &str, words: usize, prefixed: bool, checkers: bool) -> &'static str {
    let chess_name = CHESS.iter().any(|(n, _, _, _)| *n == w);
    let chess_letter = CHESS.iter().any(|(_, l, _, _)| *l == w);
    match w {
        _ if is_man(w) => "man",
        "king" | "k" if checkers => "king",
        "x" | "o" if words == 1 => "mark",
        "arrow" => "arrow",
        "wall" if words == 1 && !prefixed => "burnt",
        "burnt" | "burned" | "fire" | "blocked" => "burnt",
        _ if TILES.contains(&w) => "tile",
        // A single letter is a chess piece only after an owner's initial (`wk`).
        _ if chess_name || (prefixed && chess_letter) => "chess",
        _ if DISCS.contains(&w) || colour_of(w).is_some() => "disc",
        _ => "token",
    }
}

fn chess_glyph(w: &str, black: bool) -> char {
    let (_, _, white, dark) = CHESS
        .iter()
        .find(|(n, l, _, _)| *n == w || *l == w)
        .copied()
        .unwrap_or(CHESS[5]);
    if black {
        dark
    } else {
        white
    }
}

/// A short word whole (`rock`, `gold`), else two characters: the initials
/// of two words, or the first two letters.
fn abbreviation(content: &str) -> String {
    let ws = words(content);
    if ws.len() == 1 && content.chars().count() <= MAX_WORD {
        return content.to_string();
    }
    let s: String = if ws.len() >= 2 {
        ws.iter().filter_map(|w| w.chars().next()).take(2).collect()
    } else {
        content.chars().take(2).collect()
    };
    s
}

/// The longest word a token shows whole.
const MAX_WORD: usize = 5;

fn finish(content: &str, kind: &str, owner: Option<usize>, fill: &str, label: String) -> Drawing {
    Drawing {
        svg: svg(kind, fill, &label),
        content: content.to_string(),
        kind: kind.to_string(),
        owner,
        colour: fill.to_string(),
        label,
    }
}

/// Whether text on this fill should be light.
fn is_dark(fill: &str) -> bool {
    let hex = fill.trim_start_matches('#');
    let channel =
        |i: usize| u32::from_str_radix(hex.get(i..i + 2).unwrap_or("ff"), 16).unwrap_or(255);
    channel(0) * 299 + channel(2) * 587 + channel(4) * 114 < 128_000
}

pub(crate) fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Text centred in the view box, squeezed to `width` when longer than one character.
fn text(label: &str, size: u32, width: u32, colour: &str) -> String {
    let squeeze = if label.chars().count() > 1 {
        format!(r#" textLength="{width}" lengthAdjust="spacingAndGlyphs""#)
    } else {
        String::new()
    };
    format!(
        r#"<text x="50" y="52" font-size="{size}" font-family="sans-serif" font-weight="600" text-anchor="middle" dominant-baseline="central" fill="{colour}"{squeeze}>{}</text>"#,
        escape(label)
    )
}

/// A disc with a dark or light rim.
fn disc(fill: &str, r: u32) -> String {
    let rim = if is_dark(fill) { "#0b0d12" } else { "#5a5346" };
    format!(r#"<circle cx="50" cy="50" r="{r}" fill="{fill}" stroke="{rim}" stroke-width="4"/>"#)
}

/// The SVG elements of a drawing in a 100 × 100 view box.
fn svg(kind: &str, fill: &str, label: &str) -> String {
    let ink = if is_dark(fill) { "#f4f1ea" } else { "#262b36" };
    let mut s = String::new();
    match kind {
        "blank" => {}
        "disc" => s.push_str(&disc(fill, 38)),
        "man" | "king" => {
            s.push_str(&disc(fill, 40));
            let _ = write!(
                s,
                r#"<circle cx="50" cy="50" r="28" fill="none" stroke="{ink}" stroke-opacity="0.45" stroke-width="3"/>"#
            );
            if kind == "king" {
                let _ = write!(
                    s,
                    r##"<path d="M30 62 L27 38 L40 50 L50 32 L60 50 L73 38 L70 62 Z" fill="#e3b21b" stroke="{ink}" stroke-width="2.5" stroke-linejoin="round"/>"##
                );
            }
        }
        "chess" => {
            let _ = write!(
                s,
                r##"<text x="50" y="54" font-size="78" text-anchor="middle" dominant-baseline="central" fill="#1d2330" font-family="'DejaVu Sans', 'Segoe UI Symbol', sans-serif">{label}</text>"##
            );
        }
        "mark" if label == "x" => {
            let _ = write!(
                s,
                r##"<path d="M24 24 L76 76 M76 24 L24 76" stroke="#1f4fb0" stroke-width="11" stroke-linecap="round"/>"##
            );
        }
        "mark" => s.push_str(
            r##"<circle cx="50" cy="50" r="28" fill="none" stroke="#c2410c" stroke-width="10"/>"##,
        ),
        "number" => s.push_str(&text(label, 52, 76, "#1d2330")),
        "arrow" => s.push_str(
            r##"<rect x="10" y="10" width="80" height="80" rx="8" fill="#4a3f35"/><path d="M28 72 L72 28 M52 28 L72 28 L72 48" stroke="#f2c200" stroke-width="7" fill="none" stroke-linecap="round" stroke-linejoin="round"/>"##,
        ),
        "tile" => {
            let rim = if is_dark(fill) { "#0b0d12" } else { "#5a5346" };
            let _ = write!(
                s,
                r#"<rect x="14" y="14" width="72" height="72" rx="10" fill="{fill}" stroke="{rim}" stroke-width="4"/>"#
            );
        }
        "burnt" => s.push_str(
            r##"<rect x="10" y="10" width="80" height="80" rx="8" fill="#4a3f35"/>"##,
        ),
        _ => {
            s.push_str(&disc(fill, 40));
            // Smaller type for longer words, each squeezed into the disc.
            let (size, width) = match label.chars().count() {
                0..=2 => (40, 54),
                3 => (34, 60),
                _ => (28, 64),
            };
            s.push_str(&text(label, size, width, ink));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(markers: &[&str], pieces: &[&str]) -> Board {
        let v = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        Board {
            fluent: "cell".into(),
            arity: 3,
            coordinates: vec![0, 1],
            contents: vec![2],
            size: vec![3, 3],
            ordered: vec![true, true],
            order: vec![None, None],
            values: vec![v(&["1", "2", "3"]), v(&["1", "2", "3"])],
            pieces: v(pieces),
            markers: v(markers),
            geometry: super::super::SQUARE.to_string(),
            shear: 0.0,
            drawings: Vec::new(),
            shape: "grid".into(),
            sizes: vec![],
            stores: vec![],
            links: vec![],
            places: vec![],
        }
    }

    fn kinds(b: &Board, roles: &[&str]) -> Vec<(String, String, Option<usize>)> {
        let roles: Vec<String> = roles.iter().map(|r| r.to_string()).collect();
        drawings(b, &roles)
            .into_iter()
            .map(|d| (d.content, d.kind, d.owner))
            .collect()
    }

    fn k(c: &str, kind: &str, owner: Option<usize>) -> (String, String, Option<usize>) {
        (c.to_string(), kind.to_string(), owner)
    }

    #[test]
    fn checkers_men_and_kings() {
        let b = board(&["b", "bman", "wman"], &["bking", "wking"]);
        assert_eq!(
            kinds(&b, &["white", "black"]),
            [
                k("b", "blank", None),
                k("bman", "man", Some(1)),
                k("wman", "man", Some(0)),
                k("bking", "king", Some(1)),
                k("wking", "king", Some(0)),
            ]
        );
    }

    #[test]
    fn chess_pieces_marks_and_numbers() {
        let b = board(&["wp", "b"], &["wk", "bq", "white knight"]);
        let roles: Vec<String> = vec!["white".into(), "black".into()];
        let labels: Vec<String> = drawings(&b, &roles).into_iter().map(|d| d.label).collect();
        assert_eq!(labels, ["♙", "", "♔", "♛", "♘"]);
        let b = board(&["x", "o", "b"], &[]);
        assert_eq!(
            kinds(&b, &["xplayer", "oplayer"]),
            [
                k("x", "mark", Some(0)),
                k("o", "mark", Some(1)),
                k("b", "blank", None)
            ]
        );
        assert_eq!(fallback("12", 0).kind, "number");
    }

    #[test]
    fn unknown_names_are_distinct_short_tokens() {
        let b = board(&["caramel", "poison"], &["red", "arrow"]);
        let roles: Vec<String> = vec!["ann".into(), "ben".into()];
        let ds = drawings(&b, &roles);
        assert_eq!(ds[0].kind, "token");
        assert_eq!(ds[0].label, "ca");
        assert_ne!(ds[0].colour, ds[1].colour);
        assert_eq!(
            (ds[2].kind.as_str(), ds[2].colour.as_str()),
            ("disc", "#d63a32")
        );
        assert_eq!(ds[3].kind, "arrow");
        assert!(ds.iter().all(|d| d.label.chars().count() <= 3));
        assert!(fallback("<x y>", 1).svg.contains("&lt;"));
        // Short words whole, in smaller type.
        assert_eq!(fallback("rock", 0).label, "rock");
        assert!(fallback("rock", 0).svg.contains(r#"font-size="28""#));
        assert_eq!(fallback("keeper", 0).label, "ke");
    }

    #[test]
    fn owners_by_name_prefix_or_initial() {
        let b = board(&["b", "bluetrail", "off"], &["blue"]);
        assert_eq!(
            kinds(&b, &["red", "blue"]),
            [
                k("b", "blank", None),
                k("bluetrail", "tile", Some(1)),
                k("off", "disc", None),
                k("blue", "disc", Some(1)),
            ]
        );
        let b = board(&["v", "h"], &[]);
        assert_eq!(
            kinds(&b, &["vertical", "horizontal"]),
            [k("v", "disc", Some(0)), k("h", "disc", Some(1))]
        );
    }
}
