//! `gdlkit fmt GAME.kif [--write | --check]`: the canonical layout
//! (`crate::format`). Prints the formatted text, or rewrites the file, or
//! only tells whether it is formatted.

use super::{Args, Fail, Host, Output, EXIT_DIAGNOSTICS, EXIT_OK};
use crate::diagnostic::render;

pub fn run(raw: &[String], host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    let args = Args::parse(raw, &["write", "check"])?;
    args.only(&["write", "check"])?;
    let path = args.positional(0, "GAME.kif")?;
    if args.flag("write") && args.flag("check") {
        return Err(Fail::usage("--write and --check exclude each other"));
    }
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
    if args.flag("check") {
        if formatted == text {
            return Ok(EXIT_OK);
        }
        out.stderr = format!("{path} is not formatted\n");
        return Ok(EXIT_DIAGNOSTICS);
    }
    if args.flag("write") {
        if formatted != text {
            host.write_file(path, &formatted)
                .map_err(|e| Fail::usage(format!("cannot write {path}: {e}")))?;
        }
        return Ok(EXIT_OK);
    }
    out.stdout = formatted;
    Ok(EXIT_OK)
}
