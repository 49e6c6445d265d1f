//! The standalone lecture file: one self-contained `.html` (the page's
//! JavaScript, the wasm in base64 and the game inlined) that opens from disk
//! with no network and steps like the hosted page.
//!
//! The file is the standalone template (made by `npm run build`:
//! `pkg/gdlkit-standalone.html`, also `site/build/standalone.html`) with its
//! two markers replaced by the title and one custom element (`<gdl-tree>` or
//! `<gdl-play>`). `gdlkit export` (`cli/export.rs`) and the page's "Download
//! as standalone HTML" (the `standaloneHtml` binding) both call [`html`], so
//! they make the very same file; the page's wasm has no command-line code.

use crate::diagnostic::render;
use serde::Deserialize;
use std::collections::BTreeMap;

/// The markers of the template, replaced by the title and the element.
const TITLE_MARK: &str = "<!--gdlkit:title-->";
const CONTENT_MARK: &str = "<!--gdlkit:content-->";

/// Element attributes for the tree view, in the order they are written.
pub const TREE_ATTRS: &[&str] = &[
    "algorithm",
    "depth",
    "order",
    "compare",
    "role",
    "source",
    "position",
    "step",
];
/// Element attributes for the play view.
pub const PLAY_ATTRS: &[&str] = &["players", "moves"];

/// What the file shows. JS: `{view, tree, game, gameName, title, attrs}`.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "StandaloneRequest", optional_fields)
)]
pub struct Request {
    /// `tree` or `play` (default: tree for `tree`, play for a game).
    #[cfg_attr(feature = "typescript", ts(type = "'tree' | 'play'", optional))]
    pub view: Option<String>,
    /// A lecture tree such as `((3 12 8) (2 4 6))` instead of a game.
    pub tree: Option<String>,
    /// The game's text.
    pub game: Option<String>,
    /// The game's file name, for the title and error messages.
    pub game_name: Option<String>,
    pub title: Option<String>,
    /// Element attributes by name ([`TREE_ATTRS`], [`PLAY_ATTRS`]); the
    /// other view's are ignored.
    #[serde(default)]
    #[cfg_attr(feature = "typescript", ts(as = "Option<BTreeMap<String, String>>"))]
    pub attrs: BTreeMap<String, String>,
}

/// Why no file was made: the request is wrong (the CLI's usage error) or
/// the game has errors (rendered with their positions).
#[derive(Debug, PartialEq)]
pub enum Error {
    Usage(String),
    Game(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Usage(m) | Error::Game(m) => f.write_str(m),
        }
    }
}

/// The standalone file for `request` from `template`.
pub fn html(template: &str, request: &Request) -> Result<String, Error> {
    let tree = request.tree.as_deref();
    let game_name = request.game_name.as_deref().unwrap_or("game.kif");
    let game = match (tree, request.game.as_deref()) {
        (Some(_), Some(_)) => return Err(usage("give either a game or a tree, not both")),
        (None, None) => return Err(usage("missing a game or a tree")),
        (_, Some(text)) => Some(checked_game(game_name, text)?),
        (Some(_), None) => None,
    };
    let view = request
        .view
        .as_deref()
        .unwrap_or(if tree.is_some() { "tree" } else { "play" });
    let element = match view {
        "tree" => tree_element(request, game)?,
        "play" => {
            let Some(text) = game else {
                return Err(usage("--view play needs a game (GAME.kif)"));
            };
            element("gdl-play", request, PLAY_ATTRS, &[], Some(text))
        }
        other => {
            return Err(usage(format!(
                "--view must be `tree` or `play`, got `{other}`"
            )))
        }
    };
    let title = match (&request.title, tree, game) {
        (Some(t), _, _) => t.clone(),
        (None, Some(t), _) => format!("gdlkit: search tree {t}"),
        (None, None, Some(_)) => format!("gdlkit: {} ({view})", file_name(game_name)),
        (None, None, None) => "gdlkit".to_string(),
    };
    fill(template, &escape(&title), &element)
}

fn usage(message: impl Into<String>) -> Error {
    Error::Usage(message.into())
}

/// The game's text, refused with its diagnostics when it does not load.
fn checked_game<'a>(name: &str, text: &'a str) -> Result<&'a str, Error> {
    match crate::load_game(text) {
        Ok(_) => Ok(text),
        Err(diags) => Err(Error::Game(format!(
            "{name} has errors:\n{}",
            render(&diags, name, text, false)
        ))),
    }
}

fn tree_element(request: &Request, game: Option<&str>) -> Result<String, Error> {
    let attr = |name: &str| request.attrs.get(name).map(String::as_str);
    let mut fixed = Vec::new();
    if let Some(t) = request.tree.as_deref() {
        crate::trace::Tree::parse(t).map_err(|e| usage(format!("--tree: {e}")))?;
        fixed.push(("tree", t.to_string()));
    } else if attr("source").is_none() && attr("position").is_none() {
        fixed.push(("source", "initial".to_string()));
    }
    if request.tree.is_some() && attr("position").is_some() {
        return Err(usage("--position is a position of a game, not of --tree"));
    }
    if attr("source") == Some("position") && attr("position").is_none() {
        return Err(usage(
            "--source position needs --position '(fluent …);(fluent …)'",
        ));
    }
    Ok(element("gdl-tree", request, TREE_ATTRS, &fixed, game))
}

/// `<NAME attr="…" …>` with the game inlined, `</NAME>`.
fn element(
    name: &str,
    request: &Request,
    attrs: &[&str],
    fixed: &[(&str, String)],
    game: Option<&str>,
) -> String {
    let mut s = format!("<{name}");
    let given = attrs
        .iter()
        .filter_map(|a| request.attrs.get(*a).map(|v| (*a, v.clone())));
    for (attr, value) in fixed.iter().cloned().chain(given) {
        s.push_str(&format!(" {attr}=\"{}\"", escape(&value)));
    }
    s.push('>');
    if let Some(text) = game {
        s.push('\n');
        s.push_str(&inline_game(text));
        s.push('\n');
    }
    s.push_str(&format!("</{name}>"));
    s
}

/// The game in a `<script type="text/kif">`: as it is, or in base64 when its
/// text would end the script element early (`</script`, `<!--`).
fn inline_game(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    if lower.contains("</script") || lower.contains("<!--") {
        format!(
            "<script type=\"text/kif\" data-base64>{}</script>",
            base64(text.as_bytes())
        )
    } else {
        format!("<script type=\"text/kif\">\n{text}</script>")
    }
}

/// The template with its markers replaced; an error if it lacks them.
fn fill(template: &str, title: &str, element: &str) -> Result<String, Error> {
    if !template.contains(TITLE_MARK) || !template.contains(CONTENT_MARK) {
        return Err(usage(
            "the template is not a gdlkit standalone template (its markers are missing)",
        ));
    }
    Ok(template
        .replacen(TITLE_MARK, title, 1)
        .replacen(CONTENT_MARK, element, 1))
}

fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// Text for HTML content and attribute values.
fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            c => s.push(c),
        }
    }
    s
}

/// Standard base64 with padding.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                s.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEMPLATE: &str = "<title><!--gdlkit:title--></title>\n<!--gdlkit:content-->\n";

    #[test]
    fn base64_matches_the_standard_vectors() {
        for (plain, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), encoded);
        }
    }

    #[test]
    fn a_game_that_would_end_the_script_is_inlined_in_base64() {
        assert!(inline_game("(role x)\n").starts_with("<script type=\"text/kif\">"));
        let tricky = inline_game("; </script><b>\n(role x)\n");
        assert!(tricky.contains("data-base64"));
        let body = tricky
            .split_once('>')
            .map(|(_, b)| b.trim_end_matches("</script>"));
        assert!(body.is_some_and(|b| !b.contains('<')), "{tricky}");
    }

    #[test]
    fn a_tree_request_fills_the_template_with_its_attributes_in_order() {
        let request = Request {
            tree: Some("((3 12) (2 4))".into()),
            attrs: [
                ("step", "end"),
                ("algorithm", "alphabeta"),
                ("players", "x"),
            ]
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .into(),
            ..Request::default()
        };
        let html = html(TEMPLATE, &request).unwrap();
        assert!(html.contains("<title>gdlkit: search tree ((3 12) (2 4))</title>"));
        assert!(html.contains(
            "<gdl-tree tree=\"((3 12) (2 4))\" algorithm=\"alphabeta\" step=\"end\"></gdl-tree>"
        ));
    }

    #[test]
    fn bad_requests_are_refused_with_the_reason() {
        let game = |text: &str| Request {
            game: Some(text.into()),
            game_name: Some("g.kif".into()),
            ..Request::default()
        };
        assert!(matches!(
            html(TEMPLATE, &Request::default()),
            Err(Error::Usage(_))
        ));
        let Err(Error::Game(m)) = html(TEMPLATE, &game("(role x")) else {
            panic!("a game with errors is refused");
        };
        assert!(m.starts_with("g.kif has errors:"), "{m}");
        assert!(matches!(
            html("no markers", &game(include_str!("../../../games/ticTacToe.kif"))),
            Err(Error::Usage(m)) if m.contains("markers")
        ));
    }
}
