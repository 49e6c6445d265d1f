//! `gdlkit replay GAME.kif MOVES.json`: the conformance format on stdout.

use super::{load_engine, Args, Fail, Host, Output, EXIT_OK};
use crate::replay::{parse_moves_json, replay};

pub fn run(raw: &[String], host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    let args = Args::parse(raw, &[])?;
    args.only(&["engine", "seconds"])?;
    let game = args.positional(0, "GAME.kif")?.to_string();
    let moves_path = args.positional(1, "MOVES.json")?.to_string();
    let moves_text = host
        .read_file(&moves_path)
        .map_err(|e| Fail::usage(format!("cannot read {moves_path}: {e}")))?;
    let moves =
        parse_moves_json(&moves_text).map_err(|e| Fail::usage(format!("{moves_path}: {e}")))?;
    let (_, mut m) = load_engine(host, &game, &args)?;
    let r = replay(&mut m, &moves).map_err(|e| Fail::game(e.to_string()))?;
    out.stdout = format!("{}\n", r.to_json());
    Ok(EXIT_OK)
}
