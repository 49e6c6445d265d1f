//! The players' options for people and for TypeScript, generated from
//! their one declaration ([`super::spec::options_of`]): the CLI's help
//! ([`cli_help`]), docs/search.md's option table ([`markdown_table`]) and
//! the npm package's `PlayerOptions` types ([`typescript`]).

use super::spec::{options_of, Kind, OptionInfo};
use super::PLAYERS;

/// The option's name with its aliases: `threads` (alias `cores`).
fn spelled(o: &OptionInfo) -> String {
    match o.aliases {
        [] => format!("`{}`", o.name),
        aliases => format!("`{}` (alias `{}`)", o.name, aliases.join("`, `")),
    }
}

/// The values an option takes, for a table cell.
fn values(kind: &Kind) -> String {
    match kind {
        Kind::Choice(words) => words.join(" \\| "),
        Kind::Flag => "on \\| off".into(),
        Kind::FlagAuto => "on \\| off \\| auto".into(),
        Kind::Ms => "milliseconds".into(),
        Kind::Count => "N".into(),
        Kind::Exploration => "number \\| auto".into(),
        Kind::Threads => "1..256 \\| auto".into(),
        Kind::Heuristic => "name".into(),
        Kind::Heuristics => "a+b+...".into(),
    }
}

/// The markdown table of every player's options (docs/search.md holds it
/// between `<!-- player-options -->` comments; a test keeps them equal).
pub fn markdown_table() -> String {
    let mut out = String::from(
        "| player | option | values | default | what it does |\n|---|---|---|---|---|\n",
    );
    for p in PLAYERS {
        let options = options_of(p.name);
        if options.is_empty() {
            out.push_str(&format!("| `{}` | – | | | |\n", p.name));
        }
        for o in options {
            out.push_str(&format!(
                "| `{}` | {} | {} | {} | {} |\n",
                p.name,
                spelled(o),
                values(&o.kind),
                o.default,
                o.help
            ));
        }
    }
    out
}

/// The players and their options for `gdlkit match --help` and `gdlkit
/// serve --help`.
pub fn cli_help() -> String {
    let names: Vec<&str> = PLAYERS.iter().map(|p| p.name).collect();
    let mut out = format!(
        "SPEC: {}, options after a colon, e.g. alphabeta:heuristic=fuzzy,ms=200  mcts-solver:ms=200\n\
         (heuristics: fuzzy, mobility, inverse-mobility, novelty, none, fjo, hff, hadd, hmax,\n\
         feature:NAME:max|min; default budget 1000 ms per move)\n",
        names.join(" | ")
    );
    for p in PLAYERS {
        let options = options_of(p.name);
        if options.is_empty() {
            continue;
        }
        out.push_str(&format!("\n{}:\n", p.name));
        for o in options {
            let mut name = o.name.to_string();
            for a in o.aliases {
                name.push('|');
                name.push_str(a);
            }
            let default = match o.default {
                "-" => String::new(),
                d => format!(" (default {d})"),
            };
            out.push_str(&format!(
                "  {name}={}{default}: {}\n",
                values(&o.kind).replace(" \\| ", "|"),
                o.help
            ));
        }
    }
    out.truncate(out.trim_end().len());
    out
}

/// The TypeScript type of an option's value (a spec object's values are
/// written `key=value`, so `true` is `on`).
fn ts_type(kind: &Kind) -> String {
    let words = |ws: &[&str]| ws.iter().map(|w| format!("'{w}'")).collect::<Vec<_>>();
    match kind {
        Kind::Ms | Kind::Count => "number".into(),
        Kind::Flag => "boolean | 'on' | 'off'".into(),
        Kind::FlagAuto => "boolean | 'on' | 'off' | 'auto'".into(),
        Kind::Choice(ws) => words(ws).join(" | "),
        Kind::Exploration | Kind::Threads => "number | 'auto'".into(),
        Kind::Heuristic | Kind::Heuristics => "string".into(),
    }
}

/// The TypeScript name of a player's options type (`MctsSolverOptions`).
fn ts_name(player: &str) -> String {
    let mut name: String = (player.split('-'))
        .map(|w| {
            let mut cs = w.chars();
            cs.next()
                .map(|c| c.to_ascii_uppercase().to_string() + cs.as_str())
                .unwrap_or_default()
        })
        .collect();
    name.push_str("Options");
    name
}

/// One options type per player and `PlayerSpecObject`, the spec as an
/// object (`{name: 'mcts', ms: 200}`), for js/types.d.ts.
pub fn typescript() -> String {
    let mut out = String::new();
    let mut objects = Vec::new();
    for p in PLAYERS {
        let options = options_of(p.name);
        let name = ts_name(p.name);
        out.push_str(&format!(
            "/**\n * The options of `{}`.\n */\nexport type {name} = {{ ",
            p.name
        ));
        for o in options {
            let default = match o.default {
                "-" => String::new(),
                d => format!(" Default `{d}`."),
            };
            out.push_str(&format!(
                "\n/**\n * {}.{default}\n */\n{}?: {}, ",
                o.help,
                o.name,
                ts_type(&o.kind)
            ));
            for a in o.aliases {
                out.push_str(&format!(
                    "\n/**\n * Same as `{}`.\n */\n{a}?: {}, ",
                    o.name,
                    ts_type(&o.kind)
                ));
            }
        }
        out.push_str("};\n\n");
        objects.push(format!("{{ name: '{}' }} & {name}", p.name));
    }
    out.push_str(
        "/**\n * A player spec as an object: the player's name and its options\n * (`{name: 'mcts', ms: 200}`).\n */\nexport type PlayerSpecObject = ",
    );
    out.push_str(&objects.join(" | "));
    out.push(';');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/search.md");

    /// docs/search.md and the bounds of its region between the
    /// player-options comments.
    fn documented() -> (String, std::ops::Range<usize>) {
        let text = std::fs::read_to_string(DOC).expect("docs/search.md");
        let start = "<!-- player-options -->\n";
        let a = text.find(start).expect("the start comment") + start.len();
        let b = text
            .find("<!-- /player-options -->")
            .expect("the end comment");
        (text, a..b)
    }

    /// `UPDATE_DOCS=1 cargo test -p gdlkit-play spec_docs` rewrites the
    /// table.
    #[test]
    fn the_documented_option_table_is_the_generated_one() {
        let (mut text, region) = documented();
        let table = markdown_table();
        if std::env::var_os("UPDATE_DOCS").is_some() {
            text.replace_range(region, &table);
            std::fs::write(DOC, text).expect("docs/search.md written");
            return;
        }
        assert_eq!(
            text[region].to_string(),
            table,
            "docs/search.md's option table differs: run UPDATE_DOCS=1 cargo test -p gdlkit-play spec_docs"
        );
    }

    #[test]
    fn every_declared_option_is_in_the_help_and_the_types() {
        let (help, ts) = (cli_help(), typescript());
        let mut count = 0;
        for p in PLAYERS {
            assert!(help.contains(p.name), "{}", p.name);
            for o in options_of(p.name) {
                let line = format!("  {}", o.name);
                assert!(
                    help.contains(&format!("{line}=")) || help.contains(&format!("{line}|")),
                    "{}",
                    o.name
                );
                assert!(ts.contains(&format!("\n{}?: ", o.name)), "{}", o.name);
                count += 1;
            }
        }
        assert!(count >= 40, "{count} options");
        assert!(ts.contains("{ name: 'mcts-solver' } & MctsSolverOptions"));
    }
}
