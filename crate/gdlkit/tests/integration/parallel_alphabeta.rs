//! Parallel alpha-beta (lazy SMP): with one thread it plays
//! exactly like the one-core player; with several, the move played is the
//! one the combination rule picks from the workers' results, every worker's
//! move is legal, and a proven result is followed (checked against plain
//! minimax on tic-tac-toe). The rule's cases are shared with the Node test
//! (`tests/fixtures/alphabeta_choose.json`).

use crate::common;

use gdlkit::search::alphabeta::{AlphaBeta, Config};
use gdlkit::search::alphabeta_parallel::{choose, decide, ParallelAlphaBeta, WorkerResult};
use gdlkit::search::heuristics::Mobility;
use gdlkit::search::minimax::Minimax;
use gdlkit::search::{build_player, Budget, Heuristic, Player, PlayerSpec, SearchResult};
use gdlkit::{Engine, StateMachine};

fn cfg(budget: Budget) -> Config {
    Config {
        budget,
        ..Config::default()
    }
}

fn mobility() -> Box<dyn Heuristic<Engine>> {
    Box::new(Mobility { inverse: false })
}

/// The state after playing moves given as text (`noop` for the others).
fn play(m: &mut Engine, moves: &[&str]) -> <Engine as StateMachine>::State {
    let mut s = m.initial_state().unwrap();
    for mv in moves {
        let mut joint = Vec::new();
        for r in 0..m.roles().len() {
            let legal = m.legal_moves(&s, r).unwrap();
            let pick = legal
                .iter()
                .copied()
                .find(|&l| m.terms().display(l) == *mv)
                .unwrap_or(legal[0]);
            joint.push(pick);
        }
        s = m.next_state(&s, &joint).unwrap();
    }
    s
}

#[test]
fn one_thread_plays_like_the_one_core_player() {
    for name in ["ticTacToe", "connectFour"] {
        let Some((_, mut m)) = common::game(
            name,
            "parallel_alphabeta: one_thread_plays_like_the_one_core_player",
        ) else {
            return;
        };
        let budget = Budget::nodes(3000);
        let h: Box<dyn Heuristic<Engine>> = Box::new(Mobility { inverse: false });
        let mut one = AlphaBeta::new(h, cfg(budget));
        let mut par = ParallelAlphaBeta::new(vec![mobility()], cfg(budget), true);
        let mut s = m.initial_state().unwrap();
        let mut moves = 0;
        while !m.is_terminal(&s).unwrap() && moves < 12 {
            let mut joint = Vec::new();
            for r in 0..m.roles().len() {
                let a = Player::<Engine>::select_move(&mut one, &mut m, &s, r).unwrap();
                let b = Player::<Engine>::select_move(&mut par, &mut m, &s, r).unwrap();
                assert_eq!(a, b, "{name}: move {moves}, role {r}");
                let (sa, sb) = (
                    Player::<Engine>::last_stats(&one),
                    Player::<Engine>::last_stats(&par),
                );
                assert_eq!(sa.nodes, sb.nodes, "{name}: move {moves}");
                assert_eq!(sa.depth, sb.depth, "{name}: move {moves}");
                joint.push(a);
            }
            s = m.next_state(&s, &joint).unwrap();
            moves += 1;
        }
        assert!(moves >= 5, "{name}: only {moves} moves");
    }
}

/// The rule written again, plainly: proven results first (highest value),
/// else the deepest, then the highest value, then the first worker.
fn brute_choice(rs: &[SearchResult]) -> usize {
    let with: Vec<usize> = (0..rs.len())
        .filter(|&i| rs[i].best_move.is_some())
        .collect();
    let proven: Vec<usize> = with.iter().copied().filter(|&i| rs[i].solved).collect();
    let pool = if proven.is_empty() {
        let d = with.iter().map(|&i| rs[i].stats.depth).max().unwrap();
        with.into_iter()
            .filter(|&i| rs[i].stats.depth == d)
            .collect()
    } else {
        proven
    };
    let best = pool.iter().map(|&i| rs[i].value).fold(f64::MIN, f64::max);
    pool.into_iter().find(|&i| rs[i].value == best).unwrap()
}

#[test]
fn the_move_played_is_the_rules_choice_among_the_workers() {
    for name in ["connectFour", "breakthrough", "rockPaperScissors"] {
        let Some((_, mut m)) = common::game(
            name,
            "parallel_alphabeta: the_move_played_is_the_rules_choice_among_the_workers",
        ) else {
            return;
        };
        let mut par = ParallelAlphaBeta::new(
            (0..3).map(|_| mobility()).collect(),
            cfg(Budget::nodes(4000)),
            true,
        );
        let mut s = m.initial_state().unwrap();
        let mut checked = 0;
        for ply in 0..6 {
            if m.is_terminal(&s).unwrap() {
                break;
            }
            let role = ply % m.roles().len();
            let results = par.search_all(&mut m, &s, role).unwrap();
            assert_eq!(results.len(), 3);
            let legal = m.legal_moves(&s, role).unwrap();
            for r in &results {
                assert!(legal.contains(&r.best_move.unwrap()), "{name}");
            }
            // Helper 1 starts one depth deeper (lazy SMP's depth offset).
            assert_eq!(results[0].iterations[0].depth, 1);
            assert_eq!(results[1].iterations[0].depth, 2);
            let expect = brute_choice(&results);
            let nodes: u64 = results.iter().map(|r| r.stats.nodes).sum();
            let chosen = decide(results.clone());
            assert_eq!(chosen.best_move, results[expect].best_move, "{name}");
            assert_eq!(chosen.stats.nodes, nodes);
            let joint: Vec<_> = (0..m.roles().len())
                .map(|r| m.legal_moves(&s, r).unwrap()[0])
                .collect();
            let mut joint = joint;
            joint[role] = chosen.best_move.unwrap();
            s = m.next_state(&s, &joint).unwrap();
            checked += 1;
        }
        assert!(checked >= 1, "{name}");
    }
}

#[test]
fn with_own_tables_each_worker_is_a_one_core_helper() {
    // What the workers in Node and the page are: helper `i` alone.
    let Some((_, mut m)) = common::game(
        "connectFour",
        "parallel_alphabeta: with_own_tables_each_worker_is_a_one_core_helper",
    ) else {
        return;
    };
    let budget = Budget::nodes(3000);
    let mut par = ParallelAlphaBeta::new(vec![mobility(), mobility()], cfg(budget), false);
    let s = play(&mut m, &["(drop 4)"]);
    let results = par.search_all(&mut m, &s, 1).unwrap();
    for (i, r) in results.iter().enumerate() {
        let mut alone = AlphaBeta::new(
            mobility(),
            Config {
                helper: i,
                ..cfg(budget)
            },
        );
        let a = alone.search(&mut m, &s, 1, None).unwrap();
        assert_eq!(a.best_move, r.best_move, "worker {i}");
        assert_eq!(a.stats.nodes, r.stats.nodes, "worker {i}");
        assert_eq!(a.stats.depth, r.stats.depth, "worker {i}");
    }
}

#[test]
fn a_proven_result_is_followed() {
    let Some((_, mut m)) = common::game(
        "ticTacToe",
        "parallel_alphabeta: a_proven_result_is_followed",
    ) else {
        return;
    };
    // X has two in the top row and O must block, but X also threatens the
    // diagonal: whatever O does, X wins (a proven loss for O); in the
    // state before, X's winning move is proven.
    let cases: [(&[&str], usize, f64); 3] = [
        (&[], 0, 50.0),
        (
            &["(mark 1 1)", "(mark 2 1)", "(mark 1 2)", "(mark 3 1)"],
            0,
            100.0,
        ),
        (&["(mark 1 1)", "(mark 2 1)", "(mark 2 2)"], 1, 0.0),
    ];
    for (moves, role, value) in cases {
        let s = play(&mut m, moves);
        let mut par = ParallelAlphaBeta::new(
            (0..2).map(|_| mobility()).collect(),
            cfg(Budget::nodes(400_000)),
            true,
        );
        let r = par.search(&mut m, &s, role).unwrap();
        assert!(r.solved, "{moves:?}: not proven");
        assert_eq!(r.value, value, "{moves:?}");
        // The move keeps the proven value (plain minimax after it).
        let mv = r.best_move.unwrap();
        let joint: Vec<_> = (0..2)
            .map(|q| {
                if q == role {
                    mv
                } else {
                    m.legal_moves(&s, q).unwrap()[0]
                }
            })
            .collect();
        let child = m.next_state(&s, &joint).unwrap();
        let mut h = Mobility { inverse: false };
        let v = Minimax::new(&mut m, &mut h, role, &Budget::default())
            .value(&child, 20)
            .unwrap();
        assert_eq!(v, value, "{moves:?}: the move played is worth {v}");
    }
}

#[test]
fn the_rule_cases_shared_with_node() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/alphabeta_choose.json");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases = v["cases"].as_array().unwrap();
    assert!(cases.len() >= 5);
    for c in cases {
        let parts: Vec<WorkerResult<String>> = serde_json::from_value(c["parts"].clone()).unwrap();
        let want = c["worker"].as_u64().map(|w| w as usize);
        assert_eq!(choose(&parts), want, "{}", c["why"]);
    }
}

#[test]
fn thread_options() {
    let Some((text, mut m)) = common::game("ticTacToe", "parallel_alphabeta: thread_options")
    else {
        return;
    };
    let program = gdlkit::parse_program(&text);
    for ok in [
        "alphabeta:cores=auto,heuristic=mobility",
        "alphabeta:threads=2,ms=10,heuristic=none",
        "alphabeta:cores=1",
    ] {
        let spec: PlayerSpec = ok.parse().unwrap();
        assert!(build_player(&spec, &program, &mut m, 1).is_ok(), "{ok}");
    }
    let spec = "alphabeta:threads=2,ms=10,heuristic=mobility"
        .parse()
        .unwrap();
    let p = build_player(&spec, &program, &mut m, 1).unwrap();
    assert_eq!(p.name(), "alphabeta(mobility, 10 ms, 2 threads)");
    // Every heuristic is `Send`, the default (fuzzy) included.
    let spec = "alphabeta:threads=2,ms=10".parse().unwrap();
    let p = build_player(&spec, &program, &mut m, 1).unwrap();
    assert_eq!(p.name(), "alphabeta(fuzzy, 10 ms, 2 threads)");
    // The table is always shared: `table` is no option.
    let e = "alphabeta:threads=2,heuristic=none,table=own"
        .parse::<PlayerSpec>()
        .unwrap_err()
        .to_string();
    assert!(e.contains("has no option `table`"), "{e}");
    for bad in ["alphabeta:threads=0", "alphabeta:cores=many"] {
        let e = bad.parse::<PlayerSpec>().unwrap_err().to_string();
        assert!(e.contains("auto or a number from 1 to 256"), "{bad}: {e}");
    }
    let spec: PlayerSpec = "alphabeta:threads=2,heuristic=nonsense".parse().unwrap();
    let e = build_player(&spec, &program, &mut m, 1)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("unknown heuristic"), "{e}");
}

/// A game's engine on the interpreter (the local game, else the corpus's).
fn interpreter(name: &str, test: &str) -> Option<Engine> {
    let (text, _) = common::game(name, test)?;
    Some(gdlkit::load_engine(&text, gdlkit::EngineChoice::Interpreter).unwrap())
}

/// A heuristic that tells every state apart by its fluents' text (the
/// same in every copy of the game, whatever the term ids), so a table entry
/// of another state shows in the values. State-only, and it interns nothing.
struct ByText;

impl<M: StateMachine> Heuristic<M> for ByText {
    fn name(&self) -> String {
        "by-text".into()
    }
    fn evaluate(&mut self, m: &mut M, s: &M::State, role: usize) -> Result<f64, gdlkit::EvalError> {
        use std::hash::{Hash, Hasher};
        let mut text: Vec<String> = m.fluents(s).iter().map(|&f| m.terms().display(f)).collect();
        text.sort();
        let mut h = std::hash::DefaultHasher::new();
        (text, role).hash(&mut h);
        Ok(1.0 + (h.finish() % 98) as f64)
    }
}

/// Lazy SMP on interpreter copies: each copy interns the fluents it meets
/// in its own order, so one term id can name different fluents in two
/// copies; the shared table must still give every worker the value of its
/// own state. With a depth budget only, every worker completes the last
/// iteration, and its root value is the depth-limited minimax value, in
/// games whose states cannot recur at another depth (as here).
#[test]
fn shared_table_on_interpreter_copies_gives_minimax_values() {
    let games: [(&str, u32, usize); 4] = [
        ("ticTacToe", 5, 4),
        ("connectFour", 4, 3),
        ("breakthrough", 3, 2),
        ("threePlayerTicTacToe", 3, 3),
    ];
    let mut compared = 0;
    for (name, depth, positions) in games {
        let Some(mut m) = interpreter(
            name,
            "parallel_alphabeta: shared_table_on_interpreter_copies_gives_minimax_values",
        ) else {
            continue;
        };
        assert_eq!(m.name(), "interpreter");
        let mut rng = fastrand::Rng::with_seed(7);
        let mut s = m.initial_state().unwrap();
        for _ in 0..positions {
            if m.is_terminal(&s).unwrap() {
                break;
            }
            let legal = m.all_legal_moves(&s).unwrap();
            let role = legal.iter().position(|l| l.len() > 1).unwrap_or(0);
            // The oracle on a copy: run on `m` it would intern every fluent
            // in reach before the workers' copies are made.
            let mut h = ByText;
            let mut alone = m.clone();
            let (want, _) = Minimax::new(&mut alone, &mut h, role, &Budget::default())
                .search(&s, depth)
                .unwrap();
            // A fresh player each time: the table starts empty, and the
            // copies are made from `m` as it is now.
            // Paranoid: the automatic mode's sample of random playouts
            // would intern most fluents before the copies are made.
            let c = Config {
                mode: gdlkit::search::alphabeta::Mode::Paranoid,
                ..cfg(Budget::depth(depth))
            };
            let hs = (0..3).map(|_| Box::new(ByText) as Box<dyn Heuristic<Engine>>);
            let mut par = ParallelAlphaBeta::new(hs.collect(), c, true);
            for (i, r) in par.search_all(&mut m, &s, role).unwrap().iter().enumerate() {
                assert_eq!(r.stats.depth, depth, "{name}: worker {i} did not finish");
                assert_eq!(
                    r.value, want,
                    "{name}: worker {i}, role {role}, depth {depth}"
                );
                let mv = r.best_move.unwrap();
                assert!(
                    m.legal_moves(&s, role).unwrap().contains(&mv),
                    "{name}: worker {i}"
                );
            }
            compared += 1;
            let joint: Vec<_> = legal.iter().map(|l| l[rng.usize(..l.len())]).collect();
            s = m.next_state(&s, &joint).unwrap();
        }
    }
    assert!(compared >= 8, "only {compared} positions compared");
}

/// The keys themselves: two copies of the interpreter that met the
/// fluents in another order give one id to different fluents (so states
/// compare equal across copies while their contents differ), yet their
/// content keys tell the states apart and agree on equal ones. The game is
/// written here so that a move only adds a fluent no copy has met yet (a
/// game whose moves also remove a fluent of the initial state, such as the
/// project's connectFour with its blank cells, keeps the states apart by
/// id); the test still looks for the colliding pair and asserts it found one.
const PUT: &str = "(role p) (init (step 0))
    (legal p (put 1)) (legal p (put 2)) (legal p (put 3))
    (<= (next (mark ?x)) (does p (put ?x)))
    (<= (next (step 1)) (true (step 0)))
    (<= terminal (true (step 1)))
    (goal p 100)";

#[test]
fn interpreter_copies_key_states_by_content() {
    let mut m = gdlkit::load_engine(PUT, gdlkit::EngineChoice::Interpreter).unwrap();
    let s = m.initial_state().unwrap();
    let moves = m.all_legal_moves(&s).unwrap();
    let joint = |k: usize| -> Vec<_> { moves.iter().map(|l| l[k.min(l.len() - 1)]).collect() };
    let text = |m: &Engine, st: &<Engine as StateMachine>::State| {
        let mut t: Vec<String> = m
            .fluents(st)
            .iter()
            .map(|&f| m.terms().display(f))
            .collect();
        t.sort();
        t
    };
    let widest = moves.iter().map(Vec::len).max().unwrap();
    let mut hazards = 0;
    for i in 0..widest {
        for j in 0..widest {
            let (first, other) = (joint(i), joint(j));
            let (mut a, mut b) = (m.clone(), m.clone());
            let a1 = a.next_state(&s, &first).unwrap();
            let b2 = b.next_state(&s, &other).unwrap();
            let b1 = b.next_state(&s, &first).unwrap();
            let a2 = a.next_state(&s, &other).unwrap();
            assert_eq!(text(&a, &a1), text(&b, &b1));
            // The hazard: by id, a's child is b's other child.
            if a1 != b2 || text(&a, &a1) == text(&b, &b2) {
                continue;
            }
            hazards += 1;
            assert_ne!(a.state_key(&a1), b.state_key(&b2));
            assert_eq!(a.state_key(&a1), b.state_key(&b1));
            assert_eq!(a.state_key(&a2), b.state_key(&b2));
            for &mv in &first {
                assert_eq!(a.term_key(mv), b.term_key(mv));
            }
        }
    }
    assert!(
        hazards > 0,
        "no pair of first moves gave two copies one id for different fluents"
    );
}
