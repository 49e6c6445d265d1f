//! Seeded games stay the same games: every player with a node, playout or
//! depth budget (no clock) and the seeded random playouts play exactly the
//! moves of the snapshot. A refactoring of the players or of the playout
//! code (one `select_move`, one random playout) must not change a
//! single move; a deliberate change of play updates the snapshot
//! (`cargo insta review`).

use gdlkit::playouts;
use gdlkit::search::matches::{run_match, MatchConfig};
use gdlkit::search::PlayerSpec;
use gdlkit::{load_engine, parse_program, EngineChoice, StateMachine};
use std::fmt::Write;
use std::path::Path;

/// The project's own game (`games/NAME.kif`, shipped with the tree).
fn game_text(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../games/{name}.kif"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Each game of a seeded match: seats, steps, goals and the final state
/// (sorted: the engines list fluents in different orders).
fn match_games(game: &str, choice: EngineChoice, specs: &[&str], cfg: MatchConfig) -> String {
    let text = game_text(game);
    let program = parse_program(&text);
    let mut m = load_engine(&text, choice).expect("the game loads");
    let specs: Vec<PlayerSpec> = specs.iter().map(|s| s.parse().unwrap()).collect();
    let r = run_match(&program, &mut m, &specs, &cfg, &mut |_| {}).expect("the match runs");
    assert_eq!(r.games.len(), cfg.games, "every game was played");
    let mut out = String::new();
    for g in &r.games {
        let mut last = g.final_fluents.clone();
        last.sort();
        writeln!(
            out,
            "game {} seats {:?} steps {} goals {:?} terminal {}\n  {}",
            g.game,
            g.seats,
            g.steps,
            g.goals,
            g.terminal,
            last.join(" ")
        )
        .unwrap();
    }
    out
}

fn cfg(games: usize, seed: u64, max_steps: usize) -> MatchConfig {
    MatchConfig {
        games,
        seed,
        max_steps,
    }
}

/// Every seeded match, on one engine.
fn matches(choice: EngineChoice) -> String {
    let runs: [(&str, &[&str], MatchConfig); 5] = [
        (
            "ticTacToe",
            &["alphabeta:nodes=3000", "mcts:playouts=300"],
            cfg(2, 7, 20),
        ),
        (
            "ticTacToe",
            &["minimax:depth=2,heuristic=mobility", "random"],
            cfg(2, 8, 20),
        ),
        (
            "connectFour",
            &["mcts:playouts=200", "alphabeta:depth=2,heuristic=fuzzy"],
            cfg(2, 9, 12),
        ),
        ("buttonsAndLights", &["bestfirst:nodes=300"], cfg(1, 4, 30)),
        ("nim", &["mcts:playouts=100", "legal"], cfg(2, 5, 40)),
    ];
    let mut out = String::new();
    for (game, specs, cfg) in runs {
        writeln!(out, "{game} {specs:?} seed {}", cfg.seed).unwrap();
        out += &match_games(game, choice, specs, cfg);
    }
    out
}

#[test]
fn seeded_matches_on_the_interpreter_play_the_snapshot_moves() {
    insta::assert_snapshot!(matches(EngineChoice::Interpreter));
}

#[test]
fn seeded_matches_on_the_fast_engine_play_the_snapshot_moves() {
    insta::assert_snapshot!(matches(EngineChoice::Fast));
}

#[test]
fn seeded_playouts_play_the_snapshot_games() {
    let mut out = String::new();
    for game in ["ticTacToe", "connectFour"] {
        let mut m = load_engine(&game_text(game), EngineChoice::Auto).unwrap();
        let init = m.initial_state().unwrap();
        for seed in 0..3 {
            let p = playouts::play(&mut m, &init, seed, playouts::DEFAULT_MAX_STEPS).unwrap();
            assert!(p.terminal && !p.stuck, "{game} seed {seed}");
            let moves: Vec<String> = p.joint_moves.iter().map(|j| j.join(" ")).collect();
            writeln!(
                out,
                "{game} seed {seed} goals {:?}\n  {}",
                p.goals,
                moves.join(", ")
            )
            .unwrap();
        }
    }
    insta::assert_snapshot!(out);
}

#[test]
fn a_seeded_playout_ends_where_the_engines_random_playout_ends() {
    // `playouts::play` (the CLI's `play --seed`, JS `game.playouts`) and the
    // playouts MCTS runs (in the fast engine's network, or the generic loop
    // on the interpreter) draw the same moves from the same seed.
    for game in ["ticTacToe", "connectFour", "nim"] {
        for choice in [EngineChoice::Interpreter, EngineChoice::Fast] {
            let mut m = load_engine(&game_text(game), choice).unwrap();
            let init = m.initial_state().unwrap();
            for seed in 0..5 {
                let played = playouts::play(&mut m, &init, seed, 200).unwrap();
                let mut rng = fastrand::Rng::with_seed(seed);
                let p = m.random_playout(&init, &mut rng, 200).unwrap();
                assert_eq!(
                    p.steps,
                    played.joint_moves.len(),
                    "{game} {choice:?} {seed}"
                );
                assert_eq!(p.terminal, played.terminal, "{game} {choice:?} {seed}");
                let mut last = m.fluents(&p.state);
                last.sort_unstable();
                let mut want = played.last.clone();
                want.sort_unstable();
                assert_eq!(last, want, "{game} {choice:?} seed {seed}");
            }
        }
    }
}
