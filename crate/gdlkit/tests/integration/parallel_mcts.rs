//! MCTS on threads and across workers: `threads=N` grows one tree with N
//! walkers (the budget per walker); the root statistics of workers with a
//! tree each (the page's Web Workers) merge into their sum; a seed gives
//! one game; the threaded player only plays legal moves (turn-taking and
//! simultaneous games).

use crate::common;

use gdlkit::search::mcts::{self, merge_roots, SolverMcts};
use gdlkit::search::parallel::worker_seed;
use gdlkit::search::{build_player, Budget, Player, PlayerSpec};
use gdlkit::{Engine, EngineState, StateMachine};

fn load(name: &str, test: &str) -> Option<(String, Engine)> {
    common::game(name, &format!("parallel_mcts: {test}"))
}

/// Plain MCTS with a playout budget.
fn cfg(playouts: u64) -> mcts::Config {
    mcts::Config {
        budget: Budget::nodes(playouts),
        ..mcts::Config::plain()
    }
}

#[test]
fn merged_statistics_are_the_sum_of_the_workers() {
    let Some((_, mut m)) = load("ticTacToe", "merged_statistics_are_the_sum_of_the_workers") else {
        return;
    };
    let root = m.initial_state().unwrap();
    // Three workers as in the page: a tree each, seeded as the threads are.
    let search = |m: &mut Engine, i: usize| {
        let mut w = SolverMcts::<EngineState>::new(cfg(300), worker_seed(7, i), 1);
        w.search_view(m, &root, 0).unwrap().0
    };
    let roots: Vec<_> = (0..3).map(|i| search(&mut m, i)).collect();
    let merged = merge_roots(&roots).unwrap();
    assert_eq!(merged.moves.len(), 9);
    for i in 0..merged.moves.len() {
        assert_eq!(
            merged.visits[i],
            roots.iter().map(|r| r.visits[i]).sum::<u64>()
        );
        let total: f64 = roots.iter().map(|r| r.totals[i]).sum();
        assert!((merged.totals[i] - total).abs() < 1e-9);
    }
    assert_eq!(merged.playouts, 900);
    // Every iteration passes through exactly one of our root moves.
    assert_eq!(merged.visits.iter().sum::<u64>(), merged.playouts);
    // Plain MCTS proves nothing: the statistics alone choose.
    assert!(roots.iter().all(|r| r.proven.is_empty()));
    // A worker's seed gives its statistics again.
    assert_eq!(search(&mut m, 1), roots[1]);
    // The workers differ (different seeds), so merging adds information.
    assert_ne!(roots[0].visits, roots[1].visits);
    // Parts of different roots cannot be merged.
    let mut other = roots[1].clone();
    other.moves.swap(0, 1);
    assert!(merge_roots(&[roots[0].clone(), other]).is_err());
}

#[test]
fn threads_grow_one_tree() {
    let Some((_, mut m)) = load("connectFour", "threads_grow_one_tree") else {
        return;
    };
    let root = m.initial_state().unwrap();
    let mut p = SolverMcts::<EngineState>::new(cfg(200), 5, 2);
    let (view, stats) = p.search_view(&mut m, &root, 0).unwrap();
    // Each walker spends its own budget on the one tree (on an engine whose
    // clones name terms apart, one walker grows it).
    let walkers = if m.clones_share_terms() { 2 } else { 1 };
    assert_eq!(stats.playouts, 200 * walkers);
    assert_eq!(view.visits.iter().sum::<u64>(), stats.playouts);
    assert!(stats.nodes > 1 && stats.nodes <= stats.playouts + 1);
}

/// Plays whole games with the parallel player in every role against random
/// moves and checks each of its moves against the legal moves.
fn parallel_moves_are_legal(name: &str, test: &str) {
    let Some((text, mut m)) = load(name, test) else {
        return;
    };
    let program = gdlkit::parse_program(&text);
    let n = m.roles().len();
    let mut checked = 0;
    for game in 0..2u64 {
        let mut players: Vec<Box<dyn Player<Engine>>> = (0..n)
            .map(|r| {
                let spec: PlayerSpec = if r as u64 == game % n as u64 {
                    "mcts:playouts=60,threads=2".parse().unwrap()
                } else {
                    "random".parse().unwrap()
                };
                build_player(&spec, &program, &mut m, game * 10 + r as u64).unwrap()
            })
            .collect();
        let mut s = m.initial_state().unwrap();
        for _ in 0..200 {
            if m.is_terminal(&s).unwrap() {
                break;
            }
            let mut joint = Vec::new();
            for (r, p) in players.iter_mut().enumerate() {
                let mv = p.select_move(&mut m, &s, r).unwrap();
                if r as u64 == game % n as u64 {
                    assert!(m.legal_moves(&s, r).unwrap().contains(&mv));
                    checked += 1;
                }
                joint.push(mv);
            }
            s = m.next_state(&s, &joint).unwrap();
        }
    }
    assert!(checked >= 4, "only {checked} moves checked");
}

#[test]
fn parallel_moves_are_legal_turn_taking() {
    parallel_moves_are_legal("connectFour", "parallel_moves_are_legal_turn_taking");
}

#[test]
fn parallel_moves_are_legal_simultaneous() {
    parallel_moves_are_legal("ticTacToeParallel", "parallel_moves_are_legal_simultaneous");
}

#[test]
fn a_seed_gives_one_game() {
    let Some((_, mut m)) = load("ticTacToe", "a_seed_gives_one_game") else {
        return;
    };
    let mut one = SolverMcts::<EngineState>::new(cfg(150), 11, 1);
    let mut again = SolverMcts::<EngineState>::new(cfg(150), 11, 1);
    let mut s = m.initial_state().unwrap();
    let mut moves = 0;
    while !m.is_terminal(&s).unwrap() {
        let mut joint = Vec::new();
        for r in 0..m.roles().len() {
            let a = Player::<Engine>::select_move(&mut one, &mut m, &s, r).unwrap();
            let b = Player::<Engine>::select_move(&mut again, &mut m, &s, r).unwrap();
            assert_eq!(a, b, "move {moves}, role {r}");
            joint.push(a);
        }
        s = m.next_state(&s, &joint).unwrap();
        moves += 1;
    }
    assert!(moves >= 5);
}

#[test]
fn thread_options() {
    let Some((text, mut m)) = load("ticTacToe", "thread_options") else {
        return;
    };
    let program = gdlkit::parse_program(&text);
    for ok in ["mcts:cores=auto", "mcts:threads=2,ms=10", "mcts:cores=1"] {
        let spec: PlayerSpec = ok.parse().unwrap();
        assert!(build_player(&spec, &program, &mut m, 1).is_ok(), "{ok}");
    }
    let p = build_player(
        &"mcts:threads=2,ms=10".parse().unwrap(),
        &program,
        &mut m,
        1,
    )
    .unwrap();
    assert_eq!(p.name(), "mcts(10 ms, 2 threads)");
    for bad in ["mcts:threads=0", "mcts:cores=many", "mcts:threads=-1"] {
        let e = bad.parse::<PlayerSpec>().unwrap_err().to_string();
        assert!(
            e.contains("player option threads expects auto or a number from 1 to 256"),
            "{bad}: {e}"
        );
    }
}
