//! `gdlkit explain GAME.kif [--moves MOVES.json] [--role R] [--heuristic H]`:
//! every legal move's value in a position (see [`crate::search::explain`]).

use super::options::{EngineArg, FormatArg, SecondsArg};
use super::{Fail, Host, Output, EXIT_OK};
use crate::replay::parse_moves_json;
use crate::search::explain::{explain_text, to_text, ExplainOptions};

#[derive(clap::Args, Debug)]
#[command(
    long_about = "Every legal move's value in a position; for the planning heuristics \
                  (thesis f_JO) the relaxed-plan distances and plans to each goal value."
)]
pub struct ExplainArgs {
    /// The game's rules
    #[arg(value_name = "GAME.kif")]
    game: String,
    /// Joint moves from the initial state to the position (conformance format)
    #[arg(long, value_name = "MOVES.json")]
    moves: Option<String>,
    /// The role whose moves are explained (default: the one to move)
    #[arg(long, value_name = "ROLE")]
    role: Option<String>,
    /// fjo (default), hff, hadd, hmax, fuzzy, mobility, ...
    #[arg(long, value_name = "H")]
    heuristic: Option<String>,
    /// The planning heuristics' action costs: default (thesis 4.5) or
    /// thesis (turn passing free: the thesis's tic-tac-toe table)
    #[arg(long, value_name = "C")]
    costs: Option<String>,
    #[command(flatten)]
    format: FormatArg,
    #[command(flatten)]
    engine: EngineArg,
    #[command(flatten)]
    pub seconds: SecondsArg,
}

pub fn run(args: ExplainArgs, host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    let json = args.format.json();
    let game = args.game;
    let text = super::read_game(host, &game)?;
    let mut o = ExplainOptions::default();
    if let Some(path) = &args.moves {
        let t = host
            .read_file(path)
            .map_err(|e| Fail::usage(format!("cannot read {path}: {e}")))?;
        o.moves = parse_moves_json(&t).map_err(|e| Fail::usage(format!("{path}: {e}")))?;
    }
    o.role = args.role;
    if let Some(h) = args.heuristic {
        o.heuristic = h;
    }
    o.costs = args.costs;
    o.engine = args.engine.choice.name().to_string();
    let e = explain_text(&text, &o)
        .map_err(|e| Fail::game(e.to_string().replace("game:", &format!("{game}:"))))?;
    out.stdout = if json {
        format!(
            "{}\n",
            serde_json::to_string(&e).map_err(|e| Fail::game(e.to_string()))?
        )
    } else {
        to_text(&e)
    };
    Ok(EXIT_OK)
}
