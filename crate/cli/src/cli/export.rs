//! `gdlkit export (GAME.kif | --tree TREE) [--view tree|play] --out FILE`:
//! a standalone lecture file. One self-contained `.html` (the page's
//! JavaScript, the wasm in base64 and the game inlined) that opens from disk
//! with no network and steps like the hosted page.
//!
//! The file itself is [`crate::standalone`]'s (the page's "Download as
//! standalone HTML" calls the same function). The command reads the
//! template named by `--template`; the shells fill that in when it is not
//! given: the npm CLI with the package's copy, the native binary with
//! `gdlkit-standalone.html` beside itself or the source tree's `pkg/`
//! (`src/main.rs`).

use super::{Fail, Host, Output, EXIT_OK};
use crate::standalone::{self, Request};

#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("input").required(true).args(["game", "tree"])))]
pub struct ExportArgs {
    /// The game's rules
    #[arg(value_name = "GAME.kif")]
    game: Option<String>,
    /// A game tree instead of a game, e.g. '((3 12 8) (2 4 6) (14 5 2))'
    #[arg(long, value_name = "TREE")]
    tree: Option<String>,
    /// What the file shows: tree or play (default: tree for --tree, play for a game)
    #[arg(long, value_name = "VIEW")]
    view: Option<String>,
    /// The .html to write (default: standard output)
    #[arg(long, value_name = "FILE")]
    out: Option<String>,
    /// The standalone template (default: found by the gdlkit you run)
    #[arg(long, value_name = "FILE")]
    template: Option<String>,
    /// The page's title
    #[arg(long, value_name = "TEXT")]
    title: Option<String>,
    /// Tree view: minimax or alphabeta
    #[arg(long, value_name = "A")]
    algorithm: Option<String>,
    /// Tree view: the search depth
    #[arg(long, value_name = "N")]
    depth: Option<String>,
    /// Tree view: the order of the moves (given, reversed, best, worst)
    #[arg(long, value_name = "O")]
    order: Option<String>,
    /// Tree view: an order to compare with
    #[arg(long, value_name = "O")]
    compare: Option<String>,
    /// Tree view: the searching role
    #[arg(long, value_name = "ROLE")]
    role: Option<String>,
    /// Tree view: `initial` to search from the game's initial state
    #[arg(long, value_name = "SOURCE")]
    source: Option<String>,
    /// Tree view: search from this position, e.g. '(fluent …);(fluent …)'
    #[arg(long, value_name = "FLUENTS")]
    position: Option<String>,
    /// Tree view: the step shown first, N or end
    #[arg(long, value_name = "STEP")]
    step: Option<String>,
    /// Play view: the players, e.g. 'human;alphabeta:ms=300'
    #[arg(long, value_name = "SPECS")]
    players: Option<String>,
    /// Play view: moves played first, e.g. '(mark 2 2),noop;noop,(mark 1 1)'
    #[arg(long, value_name = "MOVES")]
    moves: Option<String>,
}

impl ExportArgs {
    /// The element's attributes given ([`standalone::TREE_ATTRS`],
    /// [`standalone::PLAY_ATTRS`]).
    fn attrs(&self) -> Vec<(String, String)> {
        [
            ("algorithm", &self.algorithm),
            ("depth", &self.depth),
            ("order", &self.order),
            ("compare", &self.compare),
            ("role", &self.role),
            ("source", &self.source),
            ("position", &self.position),
            ("step", &self.step),
            ("players", &self.players),
            ("moves", &self.moves),
        ]
        .into_iter()
        .filter_map(|(name, v)| Some((name.to_string(), v.clone()?)))
        .collect()
    }
}

pub fn run(args: ExportArgs, host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    let game = match &args.game {
        Some(path) => Some(super::read_game(host, path)?),
        None => None,
    };
    let request = Request {
        attrs: args.attrs().into_iter().collect(),
        view: args.view,
        tree: args.tree,
        game,
        game_name: args.game,
        title: args.title,
    };
    let template = read_template(host, args.template.as_deref())?;
    let html = standalone::html(&template, &request).map_err(|e| match e {
        standalone::Error::Usage(m) => Fail::usage(m),
        standalone::Error::Game(m) => Fail::game(m),
    })?;
    match args.out {
        Some(path) => {
            host.write_file(&path, &html)
                .map_err(|e| Fail::usage(format!("cannot write {path}: {e}")))?;
            out.stderr = format!("wrote {path} ({} KiB)\n", html.len().div_ceil(1024));
        }
        None => out.stdout = html,
    }
    Ok(EXIT_OK)
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

#[cfg(test)]
mod tests {
    use super::*;

    use crate::cli::MemoryHost as Files;

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
    fn every_element_attribute_is_an_option() {
        let all = ExportArgs {
            game: None,
            tree: None,
            view: None,
            out: None,
            template: None,
            title: None,
            algorithm: Some("a".into()),
            depth: Some("a".into()),
            order: Some("a".into()),
            compare: Some("a".into()),
            role: Some("a".into()),
            source: Some("a".into()),
            position: Some("a".into()),
            step: Some("a".into()),
            players: Some("a".into()),
            moves: Some("a".into()),
        };
        let mut given: Vec<String> = all.attrs().into_iter().map(|(k, _)| k).collect();
        let mut known: Vec<String> = standalone::TREE_ATTRS
            .iter()
            .chain(standalone::PLAY_ATTRS)
            .map(|s| s.to_string())
            .collect();
        given.sort();
        known.sort();
        assert_eq!(given, known);
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
}
