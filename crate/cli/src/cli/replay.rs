//! `gdlkit replay GAME.kif MOVES.json`: the conformance format on stdout.

use super::options::{EngineArg, SecondsArg};
use super::{load_game, Fail, Host, Output, EXIT_OK};
use crate::replay::{parse_moves_json, replay};

#[derive(clap::Args, Debug)]
pub struct ReplayArgs {
    /// The game's rules
    #[arg(value_name = "GAME.kif")]
    game: String,
    /// The joint moves (conformance format: an array of joint moves, or
    /// {"joint_moves": ...})
    #[arg(value_name = "MOVES.json")]
    moves: String,
    #[command(flatten)]
    engine: EngineArg,
    #[command(flatten)]
    pub seconds: SecondsArg,
}

pub fn run(args: ReplayArgs, host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    let (game, moves_path) = (args.game, args.moves);
    let moves_text = host
        .read_file(&moves_path)
        .map_err(|e| Fail::usage(format!("cannot read {moves_path}: {e}")))?;
    let moves =
        parse_moves_json(&moves_text).map_err(|e| Fail::usage(format!("{moves_path}: {e}")))?;
    let mut m = load_game(host, &game, args.engine.choice)?.1.engine;
    let r = replay(&mut m, &moves).map_err(|e| Fail::game(e.to_string()))?;
    out.stdout = format!("{}\n", r.to_json());
    Ok(EXIT_OK)
}
