//! `mcts` options built for real games: `eval=material` (an evaluation
//! where the game has boards, none where it has not), `tactics` (with the
//! solver, `auto` follows the material) and
//! `transpositions` (named in the player; with the solver, `auto` where no
//! material is counted),
//! `minimax` (only with an evaluation; the solver's over its material),
//! the solver's material shift, its
//! playout rule (`mast`), its choke (with the solver, `auto` where the
//! material is counted), and clear errors for values that are not ones.

use gdlkit::search::{build_player, PlayerSpec};
use gdlkit::{load_engine, parse_program, EngineChoice};
use std::path::Path;

/// The player built from `spec` for the project's game `name`, or its error.
fn build(name: &str, spec: &str) -> Result<String, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../games/{name}.kif"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut m = load_engine(&text, EngineChoice::Auto).expect("the game loads");
    let spec: PlayerSpec = spec.parse().unwrap();
    build_player(&spec, &parse_program(&text), &mut m, 1).map(|p| p.name())
}

#[test]
fn a_game_with_boards_gets_a_material_evaluation() {
    let name = build("breakthrough", "mcts:eval=material,cutoff=0,prior=5").unwrap();
    assert!(
        name.contains("eval R²") && name.contains("prior 5"),
        "{name}"
    );
}

#[test]
fn a_game_without_boards_gets_none() {
    // maze's fluents are a position and a step count: no board.
    let name = build("maze", "mcts:eval=material").unwrap();
    assert!(!name.contains("eval"), "{name}");
    assert!(name.starts_with("mcts("), "{name}");
}

#[test]
fn a_bad_value_names_every_choice() {
    let err = build("ticTacToe", "mcts:eval=pieces").unwrap_err();
    assert_eq!(
        err,
        "player option eval must be on, auto, material or off, got `pieces`"
    );
}

#[test]
fn mast_takes_on_ppa_or_off_and_the_player_names_its_rule() {
    let mast = build("breakthrough", "mcts-solver:mast=on").unwrap();
    assert!(mast.contains("mast") && !mast.contains("ppa"), "{mast}");
    let ppa = build("breakthrough", "mcts-solver:mast=ppa").unwrap();
    assert!(ppa.contains("ppa") && !ppa.contains("mast"), "{ppa}");
    let off = build("breakthrough", "mcts-solver:mast=off").unwrap();
    assert!(!off.contains("mast") && !off.contains("ppa"), "{off}");
    let err = build("breakthrough", "mcts-solver:mast=nst").unwrap_err();
    assert_eq!(err, "player option mast must be on, ppa or off, got `nst`");
    let err = build("breakthrough", "mcts:mast=ppa").unwrap_err();
    assert_eq!(err, "player option mast needs solver=on");
}

#[test]
fn tactics_and_transpositions_are_named_and_follow_the_material_with_the_solver() {
    let name = build("connectFour", "mcts:tactics=on,transpositions=on,ms=50").unwrap();
    assert!(
        name.contains("tactics") && name.contains("transpositions"),
        "{name}"
    );
    let plain = build("connectFour", "mcts:ms=50").unwrap();
    assert!(
        !plain.contains("tactics") && !plain.contains("transpositions"),
        "{plain}"
    );
    let name = build("breakthrough", "mcts-solver:transpositions=on,ms=50").unwrap();
    assert!(
        name.contains("material, greedy, tactics, transpositions"),
        "{name}"
    );
    let name = build("connectFour", "mcts-solver:transpositions=off,ms=50").unwrap();
    assert!(!name.contains("transpositions"), "{name}");
    let err = build("connectFour", "mcts:transpositions=auto").unwrap_err();
    assert_eq!(err, "player option transpositions=auto needs solver=on");
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
    // Plain MCTS has no material to follow: auto checks.
    let name = build("connectFour", "mcts:tactics=auto,ms=50").unwrap();
    assert!(name.contains("tactics"), "{name}");
    for (key, choices) in [
        ("tactics", "on, off or auto"),
        ("transpositions", "on, off or auto"),
    ] {
        let err = build("connectFour", &format!("mcts:{key}=maybe")).unwrap_err();
        assert_eq!(
            err,
            format!("player option {key} expects {choices}, got `maybe`")
        );
    }
}

#[test]
fn rave_is_named_with_and_without_the_solver() {
    for spec in ["mcts:rave=30,ms=50", "mcts-solver:rave=30,ms=50"] {
        let name = build("breakthrough", spec).unwrap();
        assert!(name.contains("rave 30"), "{spec}: {name}");
    }
    let name = build("breakthrough", "mcts-solver:ms=50").unwrap();
    assert!(!name.contains("rave"), "{name}");
}

#[test]
fn minimax_needs_an_evaluation_and_a_weight() {
    let name = build(
        "breakthrough",
        "mcts:eval=material,cutoff=0,minimax=0.4,ms=50",
    )
    .unwrap();
    assert!(
        name.contains("minimax 0.4") && name.contains("eval R²"),
        "{name}"
    );
    let err = build("breakthrough", "mcts:minimax=0.4").unwrap_err();
    assert_eq!(
        err,
        "player option minimax needs an evaluation: eval=on, auto or material"
    );
    for bad in ["0", "1.5", "-1"] {
        let err = build("breakthrough", &format!("mcts:eval=on,minimax={bad}")).unwrap_err();
        assert!(err.contains("a weight above 0 and at most 1"), "{err}");
    }
    // The solver backs up over its material only.
    let err = build("breakthrough", "mcts:solver=on,eval=on,minimax=0.4").unwrap_err();
    assert!(err.contains("eval must be material or off"), "{err}");
}

#[test]
fn the_solver_backs_up_minimax_over_the_material_it_counts() {
    let name = build("breakthrough", "mcts-solver:minimax=0.25,ms=50").unwrap();
    assert!(
        name.contains("material") && name.contains("minimax 0.25"),
        "{name}"
    );
    // Not in the default, and nothing to back up where no material is
    // counted (connect four).
    for (game, spec) in [
        ("breakthrough", "mcts-solver:ms=50"),
        ("connectFour", "mcts-solver:minimax=0.4,ms=50"),
    ] {
        let name = build(game, spec).unwrap();
        assert!(!name.contains("minimax"), "{game}, {spec}: {name}");
    }
    let err = build("breakthrough", "mcts-solver:eval=off,minimax=0.4").unwrap_err();
    assert!(err.contains("minimax needs an evaluation"), "{err}");
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
    let err = build("breakthrough", "mcts:solver=on,eval=on").unwrap_err();
    assert_eq!(
        err,
        "player option eval must be material or off with solver=on, got `on`"
    );
    for key in ["cutoff", "prior"] {
        let err = build(
            "breakthrough",
            &format!("mcts:solver=on,eval=material,{key}=5"),
        )
        .unwrap_err();
        assert_eq!(err, format!("player option {key} is not for solver=on"));
    }
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
