//! `gdlkit export (GAME.kif | --tree TREE) [--view tree|play] --out FILE`:
//! a standalone lecture file. One self-contained `.html` (the page's
//! JavaScript, the wasm in base64 and the game inlined) that opens from disk
//! with no network and steps like the hosted page.
//!
//! The file is the standalone template (made by `npm run build`:
//! `pkg/gdlkit-standalone.html`, also `site/build/standalone.html`) with
//! its two markers replaced by the title and one custom element. The
//! command reads the template named by `--template`; the shells fill that
//! in when it is not given: the npm CLI with the package's copy, the native
//! binary with `gdlkit-standalone.html` beside itself or the source tree's
//! `pkg/` (`src/main.rs`). The page's "Download as standalone HTML" runs
//! this very command in its worker.

use super::{Args, Fail, Host, Output, EXIT_OK};
use crate::diagnostic::render;

const HELP: &str = "\
gdlkit export (GAME.kif | --tree '((3 12 8) (2 4 6) (14 5 2))') [--view tree|play] [--out FILE]
  --view tree|play   what the file shows (default: tree for --tree, play for a game)
  --out FILE         the .html to write (default: standard output)
  --template FILE    the standalone template (default: found by the gdlkit you run)
  --title TEXT       the page's title
  tree view: --algorithm minimax|alphabeta  --depth N  --order O  --compare O  --role ROLE
             --source initial  --position '(fluent …);(fluent …)'  --step N|end
             (O: given, reversed, best, worst; --position: search from that position of the game)
  play view: --players 'human;alphabeta:ms=300'  --moves '(mark 2 2),noop;noop,(mark 1 1)'
";

/// The markers of the template, replaced by the title and the element.
const TITLE_MARK: &str = "<!--gdlkit:title-->";
const CONTENT_MARK: &str = "<!--gdlkit:content-->";

/// Element attributes taken from options of the same name (tree view, play view).
const TREE_ATTRS: &[&str] = &[
    "algorithm",
    "depth",
    "order",
    "compare",
    "role",
    "source",
    "position",
    "step",
];
const PLAY_ATTRS: &[&str] = &["players", "moves"];

pub fn run(raw: &[String], host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    let args = Args::parse(raw, &["help"])?;
    if args.flag("help") {
        out.stdout = HELP.to_string();
        return Ok(EXIT_OK);
    }
    let mut known = vec!["tree", "view", "out", "template", "title", "help"];
    known.extend(TREE_ATTRS);
    known.extend(PLAY_ATTRS);
    args.only(&known)?;

    let tree = args.get("tree");
    let game = match (tree, args.positional.first()) {
        (Some(_), Some(_)) => return Err(Fail::usage("give either GAME.kif or --tree, not both")),
        (None, None) => return Err(Fail::usage(format!("missing GAME.kif or --tree\n\n{HELP}"))),
        (_, Some(path)) => Some((path.as_str(), read_game(host, path)?)),
        (Some(_), None) => None,
    };
    let view = args
        .get("view")
        .unwrap_or(if tree.is_some() { "tree" } else { "play" });
    let element = match view {
        "tree" => tree_element(&args, tree, game.as_ref().map(|(_, t)| t.as_str()))?,
        "play" => {
            let Some((_, text)) = &game else {
                return Err(Fail::usage("--view play needs a game (GAME.kif)"));
            };
            element("gdl-play", &args, PLAY_ATTRS, &[], Some(text))
        }
        other => {
            return Err(Fail::usage(format!(
                "--view must be `tree` or `play`, got `{other}`"
            )))
        }
    };
    let title = match (args.get("title"), tree, &game) {
        (Some(t), _, _) => t.to_string(),
        (None, Some(t), _) => format!("gdlkit: search tree {t}"),
        (None, None, Some((path, _))) => format!("gdlkit: {} ({view})", file_name(path)),
        (None, None, None) => "gdlkit".to_string(),
    };

    let template = read_template(host, args.get("template"))?;
    let html = fill(&template, &escape(&title), &element)?;
    match args.get("out") {
        Some(path) => {
            host.write_file(path, &html)
                .map_err(|e| Fail::usage(format!("cannot write {path}: {e}")))?;
            out.stderr = format!("wrote {path} ({} KiB)\n", html.len().div_ceil(1024));
        }
        None => out.stdout = html,
    }
    Ok(EXIT_OK)
}

/// A game's text, refused with its diagnostics when it does not load.
fn read_game(host: &mut dyn Host, path: &str) -> Result<String, Fail> {
    let text = host
        .read_file(path)
        .map_err(|e| Fail::usage(format!("cannot read {path}: {e}")))?;
    match crate::load_game(&text) {
        Ok(_) => Ok(text),
        Err(diags) => Err(Fail::game(format!(
            "{path} has errors:\n{}",
            render(&diags, path, &text, false)
        ))),
    }
}

fn tree_element(args: &Args, tree: Option<&str>, game: Option<&str>) -> Result<String, Fail> {
    let mut fixed = Vec::new();
    if let Some(t) = tree {
        crate::trace::Tree::parse(t).map_err(|e| Fail::usage(format!("--tree: {e}")))?;
        fixed.push(("tree", t.to_string()));
    } else if args.get("source").is_none() && args.get("position").is_none() {
        fixed.push(("source", "initial".to_string()));
    }
    if tree.is_some() && args.get("position").is_some() {
        return Err(Fail::usage(
            "--position is a position of a game, not of --tree",
        ));
    }
    if args.get("source") == Some("position") && args.get("position").is_none() {
        return Err(Fail::usage(
            "--source position needs --position '(fluent …);(fluent …)'",
        ));
    }
    Ok(element("gdl-tree", args, TREE_ATTRS, &fixed, game))
}

/// `<NAME attr="…" …>` with the game inlined, `</NAME>`.
fn element(
    name: &str,
    args: &Args,
    attrs: &[&str],
    fixed: &[(&str, String)],
    game: Option<&str>,
) -> String {
    let mut s = format!("<{name}");
    let from_args = attrs
        .iter()
        .filter_map(|a| args.get(a).map(|v| (*a, v.to_string())));
    for (attr, value) in fixed.iter().cloned().chain(from_args) {
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

fn read_template(host: &mut dyn Host, path: Option<&str>) -> Result<String, Fail> {
    let Some(path) = path else {
        return Err(Fail::usage(
            "no standalone template: pass --template FILE (pkg/gdlkit-standalone.html or \
             site/build/standalone.html, made by `npm run build`; the native binary also looks \
             for gdlkit-standalone.html beside itself)",
        ));
    };
    host.read_file(path)
        .map_err(|e| Fail::usage(format!("cannot read the standalone template {path}: {e}")))
}

/// The template with its markers replaced; an error if it lacks them.
fn fill(template: &str, title: &str, element: &str) -> Result<String, Fail> {
    if !template.contains(TITLE_MARK) || !template.contains(CONTENT_MARK) {
        return Err(Fail::usage(
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

    /// Files in memory.
    struct Files(std::collections::HashMap<String, String>);

    impl Host for Files {
        fn read_file(&mut self, path: &str) -> Result<String, String> {
            self.0
                .get(path)
                .cloned()
                .ok_or_else(|| "No such file".into())
        }
        fn write_file(&mut self, path: &str, content: &str) -> Result<(), String> {
            self.0.insert(path.into(), content.into());
            Ok(())
        }
        fn stdout_is_terminal(&self) -> bool {
            false
        }
    }

    fn export(args: &[&str], files: &[(&str, &str)]) -> (Output, Files) {
        let template =
            "<title><!--gdlkit:title--></title>\n<!--gdlkit:content-->\n<script>engine</script>";
        let mut host = Files(
            [("t.html", template)]
                .iter()
                .chain(files)
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        );
        let mut raw: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        raw.extend(["--template".into(), "t.html".into()]);
        let out = crate::cli::run(&[vec!["export".to_string()], raw].concat(), &mut host);
        (out, host)
    }

    #[test]
    fn the_tree_and_the_game_become_the_element() {
        let (out, host) = export(
            &[
                "--tree",
                "((3 12 8) (2 4 6) (14 5 2))",
                "--step",
                "end",
                "--out",
                "o.html",
            ],
            &[],
        );
        assert_eq!(out.code, EXIT_OK, "{}", out.stderr);
        let html = &host.0["o.html"];
        assert!(
            html.contains(r#"<gdl-tree tree="((3 12 8) (2 4 6) (14 5 2))" step="end"></gdl-tree>"#),
            "{html}"
        );
        assert!(html.ends_with("<script>engine</script>"));

        let game = "(role <b>x</b>)\n(init (c 1))\n(<= (legal <b>x</b> go) (true (c 1)))\n(<= (next (c 2)) (does <b>x</b> go))\n(<= terminal (true (c 2)))\n(goal <b>x</b> 100)\n";
        let (out, host) = export(
            &["g.kif", "--players", "random", "--out", "p.html"],
            &[("g.kif", game)],
        );
        assert_eq!(out.code, EXIT_OK, "{}", out.stderr);
        let html = &host.0["p.html"];
        assert!(
            html.contains("<title>gdlkit: g.kif (play)</title>"),
            "{html}"
        );
        assert!(html.contains(&format!("<gdl-play players=\"random\">\n<script type=\"text/kif\">\n{game}</script>\n</gdl-play>")), "{html}");
    }

    #[test]
    fn bad_input_is_refused_and_nothing_written() {
        let (out, host) = export(&["--tree", "((3 12", "--out", "o.html"], &[]);
        assert_eq!(out.code, super::super::EXIT_USAGE);
        assert!(out.stderr.contains("unclosed"), "{}", out.stderr);
        assert!(!host.0.contains_key("o.html"));
        let (out, host) = export(&["g.kif", "--out", "o.html"], &[("g.kif", "(role x")]);
        assert_eq!(out.code, super::super::EXIT_DIAGNOSTICS, "{}", out.stderr);
        assert!(out.stderr.contains("g.kif has errors"), "{}", out.stderr);
        assert!(!host.0.contains_key("o.html"));
        let (out, _) = export(&["--tree", "(1 2)", "--view", "play"], &[]);
        assert_eq!(out.code, super::super::EXIT_USAGE);
        assert!(
            out.stderr.contains("--view play needs a game"),
            "{}",
            out.stderr
        );
    }

    #[test]
    fn a_template_without_markers_is_refused() {
        assert!(fill("<html></html>", "t", "e").is_err());
        let html = fill(
            "<title><!--gdlkit:title--></title><!--gdlkit:content-->",
            "a &amp; b",
            "<gdl-tree></gdl-tree>",
        )
        .ok();
        assert_eq!(
            html.as_deref(),
            Some("<title>a &amp; b</title><gdl-tree></gdl-tree>")
        );
    }
}
