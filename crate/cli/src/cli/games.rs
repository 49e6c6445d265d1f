//! `gdlkit games [--format text|json]`: the game library
//! ([`crate::library`]); each name works wherever GAME.kif does.

use super::options::FormatArg;
use super::{Fail, Output, EXIT_OK};
use std::fmt::Write as _;

#[derive(clap::Args, Debug)]
pub struct GamesArgs {
    #[command(flatten)]
    format: FormatArg,
}

pub fn run(args: GamesArgs, out: &mut Output) -> Result<i32, Fail> {
    let games = crate::library::games();
    if args.format.json() {
        out.stdout = format!(
            "{}\n",
            serde_json::to_string_pretty(&games).expect("serialisable")
        );
        return Ok(EXIT_OK);
    }
    for g in &games {
        let category = g.header.category.as_deref().unwrap_or("");
        let _ = writeln!(
            out.stdout,
            "{:<24} {:<13} {}",
            g.name, category, g.header.title
        );
    }
    Ok(EXIT_OK)
}
