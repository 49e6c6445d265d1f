//! `gdlkit check GAME.kif`: diagnostics like a compiler, or JSON.

use super::{Args, Fail, Host, Output, EXIT_DIAGNOSTICS, EXIT_OK};
use crate::diagnostic::{has_errors, render, resolve};

pub fn run(raw: &[String], host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    let args = Args::parse(raw, &[])?;
    args.only(&["format"])?;
    let json = args.json()?;
    let path = args.positional(0, "GAME.kif")?;
    let text = host
        .read_file(path)
        .map_err(|e| Fail::usage(format!("cannot read {path}: {e}")))?;
    let diags = crate::check_text(&text);
    if json {
        let v = serde_json::json!({ "diagnostics": resolve(&diags, &text) });
        out.stdout = format!(
            "{}\n",
            serde_json::to_string_pretty(&v).expect("serialisable")
        );
    } else {
        out.stdout = render(&diags, path, &text, host.stdout_is_terminal());
        let (e, w) = (
            diags.iter().filter(|d| d.is_error()).count(),
            diags.iter().filter(|d| !d.is_error()).count(),
        );
        out.stdout.push_str(&format!(
            "{path}: {e} error{}, {w} warning{}\n",
            plural(e),
            plural(w)
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
