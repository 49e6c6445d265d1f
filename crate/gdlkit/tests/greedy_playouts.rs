//! `mcts:greedy=auto` on the project's games: greedy playouts where a
//! greedy step costs little (breakthrough, where only the steps onto the
//! last row end the game), not where every move may end it (connect four,
//! tic-tac-toe); and `greedy=on` and `off` as asked.

use gdlkit::search::{build_player, PlayerSpec};
use gdlkit::{load_engine, parse_program, EngineChoice};
use std::path::Path;

/// The name of the player built from `spec` for the project's game `name`.
fn player_name(name: &str, spec: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../games/{name}.kif"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut m = load_engine(&text, EngineChoice::Auto).expect("the game loads");
    let spec: PlayerSpec = spec.parse().unwrap();
    build_player(&spec, &parse_program(&text), &mut m, 1)
        .unwrap()
        .name()
}

#[test]
fn auto_takes_greedy_playouts_where_they_cost_little() {
    for (game, greedy) in [
        ("breakthrough", true),
        ("connectFour", false),
        ("ticTacToe", false),
    ] {
        let name = player_name(game, "mcts:greedy=auto,ms=100");
        assert_eq!(name.contains("greedy"), greedy, "{game}: {name}");
    }
}

#[test]
fn on_and_off_are_as_asked() {
    for game in ["breakthrough", "connectFour"] {
        assert!(player_name(game, "mcts:greedy=on").contains("greedy"));
        assert!(!player_name(game, "mcts:greedy=off").contains("greedy"));
        assert!(player_name(game, "mcts:solver=on,greedy=on").contains("greedy"));
    }
}

#[test]
fn a_bad_value_names_every_choice() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../games/ticTacToe.kif"),
    )
    .unwrap();
    let mut m = load_engine(&text, EngineChoice::Auto).expect("the game loads");
    let spec: PlayerSpec = "mcts:greedy=maybe".parse().unwrap();
    let err = build_player(&spec, &parse_program(&text), &mut m, 1)
        .err()
        .expect("greedy=maybe is refused");
    assert_eq!(
        err,
        "player option greedy expects on, off or auto, got `maybe`"
    );
}
