//! `gdlkit fmt GAME.kif [--write | --check]`: the canonical layout
//! (`crate::format`). Prints the formatted text, or rewrites the file, or
//! only tells whether it is formatted.

use super::{Fail, Host, Output, EXIT_DIAGNOSTICS, EXIT_OK};
use crate::diagnostic::render;

#[derive(clap::Args, Debug)]
pub struct FmtArgs {
    /// The game's rules
    #[arg(value_name = "GAME.kif")]
    game: String,
    /// Rewrite the file in place
    #[arg(long, conflicts_with = "check")]
    write: bool,
    /// Only tell whether the file is formatted (exit 1 when not)
    #[arg(long)]
    check: bool,
}

pub fn run(args: FmtArgs, host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    let path = args.game.as_str();
    let text = super::read_game(host, path)?;
    let formatted = match crate::format::format(&text) {
        Ok(f) => f,
        Err(diags) => {
            let rendered = render(&diags, path, &text, false);
            return Err(Fail::game(format!(
                "{path} has syntax errors; not formatted\n{rendered}"
            )));
        }
    };
    if args.check {
        if formatted == text {
            return Ok(EXIT_OK);
        }
        out.stderr = format!("{path} is not formatted\n");
        return Ok(EXIT_DIAGNOSTICS);
    }
    if args.write {
        if formatted != text {
            host.write_file(path, &formatted)
                .map_err(|e| Fail::usage(format!("cannot write {path}: {e}")))?;
        }
        return Ok(EXIT_OK);
    }
    out.stdout = formatted;
    Ok(EXIT_OK)
}
