//! The options several commands share (`--engine`, `--format`,
//! `--seconds`), below the grammar (`args.rs`) and the commands that read
//! them.

use crate::EngineChoice;
use clap::ValueEnum;

/// `--engine E`.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct EngineArg {
    /// auto (the fast engine when the game grounds, else the interpreter),
    /// interpreter, fast
    #[arg(long = "engine", value_name = "E", default_value = "auto", value_parser = engine_choice)]
    pub choice: EngineChoice,
}

fn engine_choice(text: &str) -> Result<EngineChoice, gdlkit_engine::error::OptionError> {
    text.parse()
}

/// `--format text|json`.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct FormatArg {
    /// The output's format
    #[arg(long = "format", value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
}

impl FormatArg {
    pub fn json(self) -> bool {
        self.format == Format::Json
    }
}

/// `--seconds S`: the job's time limit (its help, with the command's
/// default, is filled in by [`command`](super::command)).
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct SecondsArg {
    #[arg(long, value_name = "S", value_parser = crate::job::parse_seconds, allow_negative_numbers = true)]
    pub seconds: Option<f64>,
}
