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

use super::{Args, Fail, Host, Output, EXIT_OK};
use crate::standalone::{self, Request, PLAY_ATTRS, TREE_ATTRS};

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

    let path = args.positional.first();
    if path.is_some() && args.get("tree").is_some() {
        return Err(Fail::usage("give either GAME.kif or --tree, not both"));
    }
    if path.is_none() && args.get("tree").is_none() {
        return Err(Fail::usage(format!("missing GAME.kif or --tree\n\n{HELP}")));
    }
    let game = match path {
        Some(path) => Some(super::read_game(host, path)?),
        None => None,
    };
    let owned = |name: &str| args.get(name).map(str::to_string);
    let request = Request {
        view: owned("view"),
        tree: owned("tree"),
        game,
        game_name: path.cloned(),
        title: owned("title"),
        attrs: TREE_ATTRS
            .iter()
            .chain(PLAY_ATTRS)
            .filter_map(|a| Some((a.to_string(), args.get(a)?.to_string())))
            .collect(),
    };
    let template = read_template(host, args.get("template"))?;
    let html = standalone::html(&template, &request).map_err(|e| match e {
        standalone::Error::Usage(m) => Fail::usage(m),
        standalone::Error::Game(m) => Fail::game(m),
    })?;
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
}
