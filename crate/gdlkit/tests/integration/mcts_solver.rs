//! MCTS-Solver with kept trees (`mcts:solver=on`) on the project's games:
//! it only plays legal moves from random positions (turn-taking,
//! simultaneous and three-player games), across whole games where its tree
//! is kept from move to move, and a seeded player with a playout budget
//! plays the same game every time.

use gdlkit::search::{build_player, Player, PlayerSpec};
use gdlkit::{load_engine, parse_program, Engine, EngineChoice, StateMachine};
use std::path::Path;

/// The project's own game (`games/NAME.kif`, shipped with the tree).
fn game(name: &str) -> (gdlkit::Program, Engine) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../games/{name}.kif"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let m = load_engine(&text, EngineChoice::Auto).expect("the game loads");
    (parse_program(&text), m)
}

fn player(
    spec: &str,
    program: &gdlkit::Program,
    m: &mut Engine,
    seed: u64,
) -> Box<dyn Player<Engine>> {
    let spec: PlayerSpec = spec.parse().unwrap();
    build_player(&spec, program, m, seed).unwrap()
}

const GAMES: &[&str] = &[
    "ticTacToe",
    "connectFour",
    "breakthrough",
    "rockPaperScissors",
    "threePlayerTicTacToe",
    "nim",
];

#[test]
fn plays_legal_moves_from_random_positions() {
    let mut rng = fastrand::Rng::with_seed(11);
    let mut checked = 0;
    for name in GAMES {
        let (program, mut m) = game(name);
        let roles = m.roles().len();
        for trial in 0..6 {
            // A random position: a random number of random joint moves.
            let mut s = m.initial_state().unwrap();
            for _ in 0..rng.usize(0..12) {
                if m.is_terminal(&s).unwrap() {
                    break;
                }
                let joint: Vec<_> = m
                    .all_legal_moves(&s)
                    .unwrap()
                    .iter()
                    .map(|l| l[rng.usize(0..l.len())])
                    .collect();
                s = m.next_state(&s, &joint).unwrap();
            }
            if m.is_terminal(&s).unwrap() {
                continue;
            }
            let threads = 1 + trial % 2;
            let mut p = player(
                &format!("mcts:solver=on,playouts=200,threads={threads}"),
                &program,
                &mut m,
                trial as u64,
            );
            for role in 0..roles {
                let legal = m.legal_moves(&s, role).unwrap();
                let mv = p.select_move(&mut m, &s, role).unwrap();
                assert!(legal.contains(&mv), "{name}: illegal move for role {role}");
                checked += 1;
            }
        }
    }
    assert!(checked >= 40, "only {checked} positions checked");
}

/// Plays one game of `specs` (one player per role); the moves in order.
fn play(name: &str, specs: &[&str], seed: u64) -> Vec<Vec<String>> {
    let (program, mut m) = game(name);
    let mut players: Vec<_> = specs
        .iter()
        .enumerate()
        .map(|(i, s)| player(s, &program, &mut m, seed + i as u64))
        .collect();
    let mut s = m.initial_state().unwrap();
    let mut moves = Vec::new();
    while !m.is_terminal(&s).unwrap() && moves.len() < 200 {
        let mut joint = Vec::new();
        for (r, p) in players.iter_mut().enumerate() {
            let legal = m.legal_moves(&s, r).unwrap();
            let mv = if legal.len() == 1 {
                legal[0]
            } else {
                p.select_move(&mut m, &s, r).unwrap()
            };
            assert!(legal.contains(&mv), "{name}: illegal move");
            joint.push(mv);
        }
        moves.push(
            joint
                .iter()
                .map(|&t| m.terms().display(t).to_string())
                .collect(),
        );
        s = m.next_state(&s, &joint).unwrap();
    }
    assert!(m.is_terminal(&s).unwrap(), "{name}: the game ends");
    moves
}

#[test]
fn whole_games_with_kept_trees_are_legal_and_seeded() {
    for name in ["ticTacToe", "connectFour", "rockPaperScissors"] {
        let n = game(name).1.roles().len();
        let mut specs = vec!["mcts:solver=on,playouts=300"; n];
        specs[n - 1] = "random";
        let a = play(name, &specs, 5);
        assert!(!a.is_empty());
        assert_eq!(a, play(name, &specs, 5), "{name}: same seed, same game");
    }
}

#[test]
fn the_solver_wins_tic_tac_toe_against_random() {
    // With proven wins played at once and proven losses avoided, 2000
    // playouts a move never lose ticTacToe to random moves.
    let mut losses = 0;
    for seed in 0..4 {
        let (x, o) = if seed % 2 == 0 {
            ("mcts:solver=on,playouts=2000", "random")
        } else {
            ("random", "mcts:solver=on,playouts=2000")
        };
        let moves = play("ticTacToe", &[x, o], seed);
        let (_, mut m) = game("ticTacToe");
        let mut s = m.initial_state().unwrap();
        for joint in &moves {
            let j: Vec<_> = joint
                .iter()
                .map(|t| gdlkit::program::parse_ground_term(m.terms_mut(), t).unwrap())
                .collect();
            s = m.next_state(&s, &j).unwrap();
        }
        let goals = m.goals(&s).unwrap();
        let ours = seed as usize % 2;
        if goals[ours] < goals[1 - ours] {
            losses += 1;
        }
    }
    assert_eq!(losses, 0);
}
