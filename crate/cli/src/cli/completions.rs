//! `gdlkit completions SHELL`: a completion script for the shell, made by
//! clap_complete from the command line's grammar ([`super::command`]).

use super::{Fail, Output, EXIT_OK};
use clap_complete::Shell;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "e.g. gdlkit completions bash > ~/.local/share/bash-completion/completions/gdlkit"
)]
pub struct CompletionsArgs {
    /// The shell
    #[arg(value_enum)]
    shell: Shell,
}

pub fn run(args: CompletionsArgs, out: &mut Output) -> Result<i32, Fail> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut super::command(), "gdlkit", &mut script);
    out.stdout = String::from_utf8(script).map_err(|e| Fail::usage(e.to_string()))?;
    Ok(EXIT_OK)
}
