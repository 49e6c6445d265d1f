//! `gdlkit check GAME.kif [--fix [--unsafe-fixes]]`: diagnostics like a
//! compiler, or JSON. `--fix` applies the quick fixes the diagnostics carry
//! (`crate::fix`), rewrites the file, says what it did, and reports what is
//! left.

use super::options::FormatArg;
use super::{Fail, Host, Output, EXIT_DIAGNOSTICS, EXIT_OK};
use crate::diagnostic::{has_errors, render, resolve};
use std::fmt::Write as _;

#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The game's rules
    #[arg(value_name = "GAME.kif")]
    game: String,
    /// Apply the quick fixes the diagnostics carry and rewrite the file
    #[arg(long)]
    fix: bool,
    /// With --fix, also apply the fixes that are guesses
    #[arg(long, requires = "fix")]
    unsafe_fixes: bool,
    #[command(flatten)]
    format: FormatArg,
}

pub fn run(args: CheckArgs, host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    let json = args.format.json();
    let path = args.game.as_str();
    let mut text = super::read_game(host, path)?;
    let mut applied = None;
    if args.fix {
        let fixed = crate::fix::fix_text(&text, args.unsafe_fixes);
        if fixed.text != text {
            host.write_file(path, &fixed.text)
                .map_err(|e| Fail::usage(format!("cannot write {path}: {e}")))?;
        }
        text = fixed.text;
        applied = Some(fixed.applied);
    }
    let diags = crate::check_text(&text);
    if json {
        let mut v = serde_json::json!({ "diagnostics": resolve(&diags, &text) });
        if let Some(a) = &applied {
            v["fixed"] = serde_json::json!(a);
        }
        out.stdout = format!(
            "{}\n",
            serde_json::to_string_pretty(&v).expect("serialisable")
        );
    } else {
        if let Some(a) = &applied {
            // Positions are those of the text each fix was applied to.
            for f in a {
                let _ = writeln!(
                    out.stdout,
                    "{path}:{}:{}: fixed {}: {}",
                    f.line, f.column, f.code, f.title
                );
            }
            let n = a.len();
            let _ = writeln!(out.stdout, "{path}: {n} fix{} applied", plural_es(n));
        }
        out.stdout
            .push_str(&render(&diags, path, &text, host.stdout_is_terminal()));
        let (e, w) = (
            diags.iter().filter(|d| d.is_error()).count(),
            diags.iter().filter(|d| !d.is_error()).count(),
        );
        let fixable = diags.iter().filter(|d| !d.fixes.is_empty()).count();
        out.stdout.push_str(&format!(
            "{path}: {e} error{}, {w} warning{}{}\n",
            plural(e),
            plural(w),
            match (fixable, applied.is_some()) {
                (0, _) => String::new(),
                (n, false) => format!(" ({n} fixable with --fix)"),
                (n, true) => format!(
                    " ({n} with a fix that --fix did not apply: a guess needs --unsafe-fixes)"
                ),
            }
        ));
    }
    Ok(if has_errors(&diags) {
        EXIT_DIAGNOSTICS
    } else {
        EXIT_OK
    })
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn plural_es(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "es"
    }
}
