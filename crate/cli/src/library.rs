//! The game library: the games of `games/`, each written as a teaching
//! example with a header of comment lines at the top of its file:
//!
//! ```text
//! ; Reversi (6x6)                      <- the title: the first line
//! ; Category: board                    <- board, puzzle, simultaneous, n-player, lecture or chance
//! ; Board: cell                        <- the fluent drawn as the board, or none
//! ; Credit: Othello (Goro Hasegawa, 1971)
//! ; Description: Black and white place discs ...
//! ;   a field goes on over lines indented by two spaces
//! ; Well-formed: no                    <- optional: a deliberately ill-formed game
//! ;
//! ```
//!
//! The header ends at the first line that is not a comment. The native CLI
//! and the npm package embed the texts (a game name is accepted wherever a
//! file is: `gdlkit play reversi`); the page reads the same list from
//! `games/index.json`, written by `scripts/build.mjs` from [`games`].

use serde::Serialize;

include!(concat!(env!("OUT_DIR"), "/library.rs"));

/// The categories a header may name.
pub const CATEGORIES: [&str; 6] = [
    "board",
    "puzzle",
    "simultaneous",
    "n-player",
    "lecture",
    "chance",
];

/// A game's header, as written at the top of its file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "GameHeader", rename_all = "camelCase")
)]
pub struct Header {
    /// The first comment line.
    pub title: String,
    pub category: Option<String>,
    /// The fluent drawn as the board; `None` for `Board: none` or no field.
    pub board: Option<String>,
    pub credit: Option<String>,
    pub description: Option<String>,
    /// `false` only for `Well-formed: no` (a game that shows what the
    /// analysis refutes).
    pub well_formed: bool,
}

/// A library game: its name (the file name without `.kif`) and header.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "LibraryGame", rename_all = "camelCase")
)]
pub struct Game {
    pub name: String,
    #[serde(flatten)]
    #[cfg_attr(feature = "typescript", ts(flatten))]
    pub header: Header,
}

/// Reads the header of a game's text (every field is optional here; the
/// library's test requires them).
pub fn parse_header(text: &str) -> Header {
    let mut header = Header {
        well_formed: true,
        ..Header::default()
    };
    let mut field: Option<(String, String)> = None;
    for (i, line) in text.lines().map(str::trim_end).enumerate() {
        let Some(comment) = line.strip_prefix(';') else {
            break;
        };
        let comment = comment.trim_start_matches(';');
        if i == 0 {
            header.title = comment.trim().to_string();
            continue;
        }
        // A continuation: indented by at least two spaces after `; `.
        if let (Some((_, value)), true) = (&mut field, comment.starts_with("   ")) {
            value.push(' ');
            value.push_str(comment.trim());
            continue;
        }
        if let Some((key, value)) = field.take() {
            set_field(&mut header, &key, value);
        }
        if let Some((key, value)) = comment.trim().split_once(": ") {
            if !key.contains(' ') || key == "Well-formed" {
                field = Some((key.to_string(), value.trim().to_string()));
            }
        }
    }
    if let Some((key, value)) = field {
        set_field(&mut header, &key, value);
    }
    header
}

fn set_field(header: &mut Header, key: &str, value: String) {
    match key {
        "Category" => header.category = Some(value),
        "Board" => header.board = (value != "none").then_some(value),
        "Credit" => header.credit = Some(value),
        "Description" => header.description = Some(value),
        "Well-formed" => header.well_formed = value != "no",
        _ => {}
    }
}

/// The embedded games with their headers, sorted by name (empty without
/// the `cli` feature).
pub fn games() -> Vec<Game> {
    EMBEDDED
        .iter()
        .map(|(name, text)| Game {
            name: name.to_string(),
            header: parse_header(text),
        })
        .collect()
}

/// The text of the embedded game `name` (with or without `.kif`).
pub fn text(name: &str) -> Option<&'static str> {
    let name = name.strip_suffix(".kif").unwrap_or(name);
    EMBEDDED.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_fields_and_continuations() {
        let h = parse_header(
            "; Title here\n; Category: puzzle\n; Board: none\n; Credit: someone: 1900\n\
             ; Description: first line\n;   second line\n;\n; Note: not a field of the header\n(role r)\n; Category: late",
        );
        assert_eq!(h.title, "Title here");
        assert_eq!(h.category.as_deref(), Some("puzzle"));
        assert_eq!(h.board, None);
        assert_eq!(h.credit.as_deref(), Some("someone: 1900"));
        assert_eq!(h.description.as_deref(), Some("first line second line"));
        assert!(h.well_formed);
        assert!(!parse_header(";x\n; Well-formed: no\n").well_formed);
        assert_eq!(
            parse_header("(role r)"),
            Header {
                well_formed: true,
                ..Header::default()
            }
        );
    }

    #[test]
    fn lookup_by_name() {
        if let Some(g) = games().first() {
            assert_eq!(text(&g.name), text(&format!("{}.kif", g.name)));
            assert!(text(&g.name).is_some());
        }
        assert_eq!(text("no such game"), None);
    }
}
