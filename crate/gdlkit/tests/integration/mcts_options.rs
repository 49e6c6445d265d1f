//! `mcts` options built for real games: the solver's material
//! (`eval=material`, where the game has boards whose pieces tell something
//! of the outcome), `tactics` and `transpositions` (`auto` follows the
//! material), the exploration constant, the choke (`auto` where the
//! material is counted), and clear errors for options and values that are
//! not ones.

use gdlkit::search::{build_player, PlayerSpec, SpecError};
use gdlkit::{load_engine, parse_program, EngineChoice};
use std::path::Path;

/// The player built from `spec` for the project's game `name`, or its error.
fn build(name: &str, spec: &str) -> Result<String, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../games/{name}.kif"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut m = load_engine(&text, EngineChoice::Auto).expect("the game loads");
    let spec: PlayerSpec = spec.parse().map_err(|e: SpecError| e.to_string())?;
    build_player(&spec, &parse_program(&text), &mut m, 1)
        .map(|p| p.name())
        .map_err(|e| e.to_string())
}

#[test]
fn a_bad_value_names_every_choice() {
    let err = build("ticTacToe", "mcts:solver=on,eval=pieces").unwrap_err();
    assert_eq!(
        err,
        "player option eval expects material or off, got `pieces`"
    );
    let err = build("ticTacToe", "mcts-solver:eval=on").unwrap_err();
    assert_eq!(err, "player option eval expects material or off, got `on`");
}

#[test]
fn an_unknown_option_names_the_valid_ones() {
    for key in ["rave", "mast", "minimax", "cutoff", "prior", "bogus"] {
        let err = build("ticTacToe", &format!("mcts-solver:{key}=1")).unwrap_err();
        assert_eq!(
            err,
            format!(
                "player `mcts` has no option `{key}` (options: ms, playouts, nodes, c, threads, cores, greedy, solver, ponder, eval, tactics, transpositions, choke, subgames)"
            )
        );
    }
}

#[test]
fn the_solvers_options_need_the_solver() {
    for key in ["ponder", "choke", "eval", "tactics", "transpositions"] {
        let err = build("connectFour", &format!("mcts:{key}=on")).unwrap_err();
        assert_eq!(err, format!("player option {key} needs solver=on"));
    }
    let plain = build("connectFour", "mcts:greedy=on,ms=50").unwrap();
    assert_eq!(plain, "mcts(50 ms, greedy)");
}

#[test]
fn tactics_and_transpositions_are_named_and_follow_the_material_with_the_solver() {
    let name = build("breakthrough", "mcts-solver:transpositions=on,ms=50").unwrap();
    assert!(
        name.contains("material, greedy, tactics, transpositions"),
        "{name}"
    );
    let name = build("connectFour", "mcts-solver:transpositions=off,ms=50").unwrap();
    assert!(!name.contains("transpositions"), "{name}");
    // The tactical check runs beside the solver's tree: the default
    // player's where the material is counted (tactics=auto), unless
    // turned on or off.
    let off = build("connectFour", "mcts-solver:tactics=off,ms=50").unwrap();
    assert!(!off.contains("tactics"), "{off}");
    for spec in [
        "mcts:solver=on,tactics=on,ms=50",
        "mcts-solver:tactics=on,ms=50",
        "mcts-solver:tactics=on,eval=off,ms=50",
    ] {
        let name = build("connectFour", spec).unwrap();
        assert!(
            name.starts_with("mcts(solver") && name.contains("tactics"),
            "{spec}: {name}"
        );
    }
    for game in ["connectFour", "breakthrough", "maze"] {
        for spec in [
            "mcts-solver:ms=50",
            "mcts-solver",
            "mcts:solver=on,eval=material,tactics=auto",
        ] {
            let name = build(game, spec).unwrap();
            assert_eq!(
                name.contains("tactics"),
                name.contains("material"),
                "{game}, {spec}: {name}"
            );
            // One node per state where no material is counted.
            assert_ne!(
                name.contains("transpositions"),
                name.contains("material"),
                "{game}, {spec}: {name}"
            );
        }
    }
    let name = build("breakthrough", "mcts-solver").unwrap();
    assert!(name.contains("material, greedy, tactics"), "{name}");
    let name = build("maze", "mcts-solver").unwrap();
    assert!(!name.contains("tactics"), "{name}");
    for (key, choices) in [
        ("tactics", "on, off or auto"),
        ("transpositions", "on, off or auto"),
    ] {
        let err = build("connectFour", &format!("mcts-solver:{key}=maybe")).unwrap_err();
        assert_eq!(
            err,
            format!("player option {key} expects {choices}, got `maybe`")
        );
    }
}

#[test]
fn the_solver_counts_material_in_two_role_games_with_pieces() {
    let name = build("breakthrough", "mcts:solver=on,eval=material,ms=50").unwrap();
    assert!(name.contains("material"), "{name}");
    let plain = build("breakthrough", "mcts:solver=on,ms=50").unwrap();
    assert!(!plain.contains("material"), "{plain}");
    // Every drop adds a piece in connect four: the count says nothing.
    let name = build("connectFour", "mcts:solver=on,eval=material").unwrap();
    assert!(!name.contains("material"), "{name}");
    // maze has one role and no board: nothing to count.
    let name = build("maze", "mcts:solver=on,eval=material").unwrap();
    assert!(!name.contains("material"), "{name}");
}

/// The exploration constant named in a solver player's name.
fn named_c(name: &str) -> f64 {
    let at = name.find("c=").unwrap_or_else(|| panic!("no c in {name}"));
    let digits: String = name[at + 2..]
        .chars()
        .take_while(|ch| ch.is_ascii_digit() || *ch == '.')
        .collect();
    digits.parse().unwrap()
}

#[test]
fn the_solver_explores_less_in_long_piece_games() {
    // Sancho's rule from the playouts' length: breakthrough (long, with
    // pieces) below connect four (short), both within the rule's range.
    let long = named_c(&build("breakthrough", "mcts:solver=on,eval=material").unwrap());
    let short = named_c(&build("connectFour", "mcts:solver=on").unwrap());
    let range = 0.5 * 0.7 / 2f64.sqrt()..=1.2 / 2f64.sqrt();
    assert!(long < short, "breakthrough {long}, connect four {short}");
    assert!(
        range.contains(&long) && range.contains(&short),
        "{long} {short}"
    );
    // The same game without material explores more.
    let plain = named_c(&build("breakthrough", "mcts:solver=on").unwrap());
    assert!(plain > long, "{plain} {long}");
    // A number is kept as given; auto is only for the solver.
    let given = build("breakthrough", "mcts:solver=on,c=0.7").unwrap();
    assert!(!given.contains("c="), "{given}");
    let err = build("breakthrough", "mcts:c=auto").unwrap_err();
    assert_eq!(err, "player option c=auto needs solver=on");
}

#[test]
fn moves_into_proven_losses_are_choked_off_where_the_material_is_counted() {
    // auto: on in breakthrough (pieces counted), off in connect four.
    let name = build("breakthrough", "mcts-solver:ms=50").unwrap();
    assert!(
        name.contains("material") && !name.contains("no choke"),
        "{name}"
    );
    let name = build("connectFour", "mcts-solver:ms=50").unwrap();
    assert!(name.contains("no choke"), "{name}");
    let name = build("connectFour", "mcts-solver:choke=on,ms=50").unwrap();
    assert!(!name.contains("no choke"), "{name}");
    let name = build("breakthrough", "mcts-solver:choke=off,ms=50").unwrap();
    assert!(name.contains("no choke"), "{name}");
    let err = build("ticTacToe", "mcts:choke=off").unwrap_err();
    assert_eq!(err, "player option choke needs solver=on");
    let err = build("ticTacToe", "mcts-solver:choke=maybe").unwrap_err();
    assert!(err.contains("choke"), "{err}");
}

#[test]
fn greedy_auto_drops_greedy_playouts_where_most_moves_can_end_the_game() {
    // Connect four and breakthrough keep them (measured winning against
    // Sancho, BENCHMARKS.md); in gomoku nearly every empty cell can
    // complete a line late in a game, so a greedy step tries most moves.
    for (game, greedy) in [
        ("connectFour", true),
        ("breakthrough", true),
        ("gomoku", false),
    ] {
        let name = build(game, "mcts-solver:ms=50").unwrap();
        assert_eq!(name.contains("greedy"), greedy, "{game}: {name}");
        let on = build(game, "mcts-solver:greedy=on,ms=50").unwrap();
        assert!(on.contains("greedy"), "{game}: {on}");
    }
}

#[test]
fn a_game_of_a_set_length_drops_greedy_playouts_and_the_check() {
    // Reversi ends when the board is full: no playout ends before the
    // last plies, so greedy steps and the tactical check find nothing
    // until then. Breakthrough ends anywhere and keeps both.
    for (game, kept) in [("reversi", false), ("breakthrough", true)] {
        let name = build(game, "mcts-solver:ms=50").unwrap();
        assert!(name.contains("material"), "{game}: {name}");
        for option in ["greedy", "tactics"] {
            assert_eq!(name.contains(option), kept, "{game}: {name}");
        }
        let on = build(game, "mcts-solver:greedy=on,tactics=on,ms=50").unwrap();
        assert!(
            on.contains("greedy") && on.contains("tactics"),
            "{game}: {on}"
        );
    }
}
