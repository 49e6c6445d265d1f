//! Search invariants and corpus results: alpha-beta == minimax on
//! random trees and ticTacToe positions, the table and ordering change node
//! counts only, traces replay to their value, the classic lecture tree,
//! ticTacToe never lost, minichess proved, maze and blocksWorld planned;
//! the fast engine gives the interpreter's values.

use gdlkit::search::alphabeta::{AlphaBeta, Config, Mode};
use gdlkit::search::bestfirst::BestFirst;
use gdlkit::search::fuzzy::FuzzyHeuristic;
use gdlkit::search::heuristics::{self, Constant, Heuristic};
use gdlkit::search::matches::{run_match, MatchConfig};
use gdlkit::search::mcts::{self, SolverMcts};
use gdlkit::search::minimax::Minimax;
use gdlkit::search::{Budget, GameInfo, Player, PlayerSpec};
use gdlkit::trace::{principal_variation, replay, Event, Trace, Tree, TreeGame};
use gdlkit::{Engine, EngineChoice, Interpreter, StateMachine};
use proptest::prelude::*;
use std::path::Path;

use crate::common::corpus;

/// A corpus game, or the project's own game of that name on a plain clone.
pub(crate) fn game_text(name: &str) -> String {
    // The project has rock-paper-scissors where the corpus has roshambo2.
    let name = match (corpus::shared_dir(), name) {
        (None, "roshambo2") => "rockPaperScissors",
        _ => name,
    };
    let p = corpus::games_dir("games/repository", "search tests").join(format!("{name}.kif"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The path of the project's own game (`games/NAME.kif`, shipped with the tree).
pub(crate) fn project_game(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../games/{name}.kif"));
    p.to_string_lossy().into_owned()
}

fn game(name: &str) -> (gdlkit::Program, Interpreter) {
    let text = game_text(name);
    (
        gdlkit::parse_program(&text),
        gdlkit::load_game(&text).unwrap(),
    )
}

fn engine(name: &str, choice: EngineChoice) -> (gdlkit::Program, Engine) {
    let text = game_text(name);
    (
        gdlkit::parse_program(&text),
        gdlkit::load_engine(&text, choice).unwrap(),
    )
}

/// Plain minimax value and node count.
fn minimax<M: StateMachine>(
    m: &mut M,
    h: &mut dyn Heuristic<M>,
    root: &M::State,
    role: usize,
    depth: u32,
) -> (f64, u64) {
    let mut mm = Minimax::new(m, h, role, &Budget::default());
    let (v, _) = mm.search(root, depth).map_err(|_| "stopped").unwrap();
    (v, mm.stats.nodes)
}

fn ab_config(depth: u32, tt: bool, ordering: bool, iterative: bool) -> Config {
    Config {
        budget: Budget::depth(depth),
        tt,
        ordering,
        iterative,
        mode: Mode::Paranoid,
        ..Config::default()
    }
}

/// Alpha-beta value, node count and (if traced) the trace.
fn alphabeta<M: StateMachine>(
    m: &mut M,
    h: Box<dyn Heuristic<M>>,
    root: &M::State,
    role: usize,
    cfg: Config,
    trace: bool,
) -> (f64, u64, Option<Trace>) {
    let mut ab = AlphaBeta::new(h, cfg);
    let mut t = trace.then(|| Trace::new(1_000_000));
    let r = ab.search(m, root, role, t.as_mut()).unwrap();
    (r.value, r.stats.nodes, t)
}

#[test]
fn classic_tree_root_3_leaves_4_and_6_pruned_first_move() {
    let text = "((3 12 8) (2 4 6) (14 5 2))";
    let tree = Tree::parse(text).unwrap();
    let mut g = TreeGame::new(&tree);
    let root = g.initial_state().unwrap();
    let (v, _, t) = alphabeta(
        &mut g,
        Box::new(Constant),
        &root,
        0,
        ab_config(2, false, false, false),
        true,
    );
    assert_eq!(v, 3.0);
    let t = t.unwrap();
    assert_eq!(replay(&t.events).unwrap(), 3.0);
    // The principal variation: the root, its first MIN node, the leaf 3.
    let pv: Vec<Option<String>> = principal_variation(&t.events)
        .iter()
        .map(|&id| {
            t.events.iter().find_map(|e| match e {
                Event::Enter { node, mv, .. } if *node == id => Some(mv.clone()),
                _ => None,
            })
        })
        .map(Option::flatten)
        .collect();
    assert_eq!(pv, [None, Some("1".into()), Some("1".into())]);
    let best: Vec<&Event> = t
        .events
        .iter()
        .filter(|e| matches!(e, Event::BestMove { .. }))
        .collect();
    assert!(
        matches!(best.as_slice(), [Event::BestMove { mv, value, .. }] if mv == "1" && *value == 3.0),
        "{best:?}"
    );
    // Exactly one cut-off, in the second MIN node after its first leaf (2),
    // pruning the leaves 4 and 6.
    let cutoffs: Vec<&Event> = t
        .events
        .iter()
        .filter(|e| matches!(e, Event::Cutoff { .. }))
        .collect();
    assert_eq!(cutoffs.len(), 1, "{cutoffs:?}");
    let Event::Cutoff {
        node,
        alpha,
        value,
        pruned,
        ..
    } = cutoffs[0]
    else {
        unreachable!()
    };
    assert_eq!((*alpha, *value), (3.0, 2.0));
    let pruned: Vec<usize> = pruned.iter().map(|p| p.mv.parse().unwrap()).collect();
    assert_eq!(pruned, vec![2, 3]);
    let state_of_node = t.events.iter().find_map(|e| match e {
        Event::Enter { node: n, state, .. } if n == node => Some(*state),
        _ => None,
    });
    assert_eq!(
        t.states[state_of_node.unwrap()],
        vec!["(node 2)".to_string()]
    );
    let leaves: Vec<i64> = pruned
        .iter()
        .map(|&c| g.leaf_at(&[2, c]).unwrap())
        .collect();
    assert_eq!(leaves, vec![4, 6]);
    // Minimax agrees and visits every node.
    let (mv, nodes) = minimax(&mut g, &mut Constant, &root, 0, 2);
    assert_eq!((mv, nodes), (3.0, 13));
    // JSON of the trace.
    let json = serde_json::to_value(&t.events).unwrap();
    assert_eq!(json[0]["type"], "enter");
    assert_eq!(json[0]["alpha"], "-inf");
}

/// Random abstract trees as nested-list text.
fn arb_tree() -> impl Strategy<Value = String> {
    let leaf = (-20i64..=20).prop_map(|v| v.to_string());
    leaf.prop_recursive(4, 64, 4, |inner| {
        prop::collection::vec(inner, 1..=4).prop_map(|kids| format!("({})", kids.join(" ")))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

    #[test]
    fn alphabeta_equals_minimax_on_random_trees(text in arb_tree()) {
        let tree = Tree::parse(&text).unwrap();
        let d = tree.height().max(1);
        let mut g = TreeGame::new(&tree);
        let root = g.initial_state().unwrap();
        let (mm, mm_nodes) = minimax(&mut g, &mut Constant, &root, 0, d);
        for (tt, ordering, iterative) in [(false, false, false), (true, false, true), (false, true, true), (true, true, true)] {
            let (v, nodes, t) = alphabeta(&mut g, Box::new(Constant), &root, 0, ab_config(d, tt, ordering, iterative), !iterative);
            prop_assert_eq!(v, mm, "tt {} ordering {} on {}", tt, ordering, &text);
            if !iterative {
                prop_assert!(nodes <= mm_nodes);
                prop_assert_eq!(replay(&t.unwrap().events).unwrap(), mm);
            }
        }
        // The minimax trace replays too.
        let mut tr = Trace::new(1_000_000);
        let mut c = Constant;
        let mut mmx = Minimax::new(&mut g, &mut c, 0, &Budget::default());
        mmx.trace = Some(&mut tr);
        let (v, _) = mmx.search(&root, d).map_err(|_| "stopped").unwrap();
        prop_assert_eq!(replay(&tr.events).unwrap(), v);
    }
}

/// Random abstract trees with chance nodes (`(chance ...)`) as text.
fn arb_chance_tree() -> impl Strategy<Value = String> {
    let leaf = (-20i64..=20).prop_map(|v| v.to_string());
    leaf.prop_recursive(4, 64, 4, |inner| {
        (prop::collection::vec(inner, 1..=4), any::<bool>()).prop_map(|(kids, chance)| {
            format!(
                "({}{})",
                if chance { "chance " } else { "" },
                kids.join(" ")
            )
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

    /// Expectimax: minimax and alpha-beta (every configuration) give the
    /// tree's value computed directly (chance: the mean of its children;
    /// MAX and MIN alternate over the other nodes), and their traces
    /// replay to it.
    #[test]
    fn searches_give_the_expectimax_value_of_chance_trees(text in arb_chance_tree()) {
        let tree = Tree::parse(&text).unwrap();
        let want = tree.value(true);
        let d = tree.height().max(1);
        let mut g = TreeGame::new(&tree);
        let root = g.initial_state().unwrap();
        let (mm, _) = minimax(&mut g, &mut Constant, &root, 0, d);
        prop_assert!((mm - want).abs() < 1e-9, "minimax {} against {} on {}", mm, want, &text);
        for (tt, ordering, iterative) in [(false, false, false), (true, false, true), (false, true, true), (true, true, true)] {
            let (v, _, t) = alphabeta(&mut g, Box::new(Constant), &root, 0, ab_config(d, tt, ordering, iterative), !iterative);
            prop_assert!((v - want).abs() < 1e-9, "alphabeta {} against {} (tt {} ordering {}) on {}", v, want, tt, ordering, &text);
            if let Some(t) = t {
                prop_assert!((replay(&t.events).unwrap() - want).abs() < 1e-9);
            }
        }
        let mut tr = Trace::new(1_000_000);
        let mut c = Constant;
        let mut mmx = Minimax::new(&mut g, &mut c, 0, &Budget::default());
        mmx.trace = Some(&mut tr);
        let (v, _) = mmx.search(&root, d).map_err(|_| "stopped").unwrap();
        prop_assert!((replay(&tr.events).unwrap() - v).abs() < 1e-9);
        prop_assert_eq!(Tree::parse(&tree.text()).unwrap(), tree);
    }
}

/// A ticTacToe position after `moves` pseudo-random joint moves (not terminal).
fn ttt_position<M: StateMachine>(m: &mut M, seed: u64, moves: usize) -> M::State {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut s = m.initial_state().unwrap();
    for _ in 0..moves {
        let legal = m.all_legal_moves(&s).unwrap();
        let joint: Vec<_> = legal.iter().map(|l| l[rng.usize(..l.len())]).collect();
        let next = m.next_state(&s, &joint).unwrap();
        if m.is_terminal(&next).unwrap() {
            break;
        }
        s = next;
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, .. ProptestConfig::default() })]

    #[test]
    fn alphabeta_equals_minimax_on_tictactoe_positions(seed in 0u64..1000, moves in 0usize..7, role in 0usize..2) {
        let (program, mut m) = game("ticTacToe");
        let s = ttt_position(&mut m, seed, moves);
        let mut fz = FuzzyHeuristic::build(&program, &mut m).unwrap();
        let empty = 9 - moves.min(9) as u32;
        // Depth 2 with the fuzzy heuristic, and the whole game when small.
        let mut depths = vec![2];
        if empty <= 6 {
            depths.push(empty);
        }
        for d in depths {
            let (mm, mm_nodes) = minimax(&mut m, &mut fz, &s, role, d);
            for (tt, ordering, iterative) in [(false, false, false), (true, false, true), (false, true, true), (true, true, true)] {
                let h = Box::new(FuzzyHeuristic::build(&program, &mut m).unwrap());
                let (v, nodes, t) = alphabeta(&mut m, h, &s, role, ab_config(d, tt, ordering, iterative), !iterative);
                prop_assert!((v - mm).abs() < 1e-9, "depth {} tt {} ordering {}: {} vs minimax {}", d, tt, ordering, v, mm);
                if let Some(t) = t {
                    prop_assert!((replay(&t.events).unwrap() - mm).abs() < 1e-9);
                    prop_assert!(nodes <= mm_nodes);
                }
            }
        }
    }
}

#[test]
fn table_and_ordering_change_node_counts_not_values() {
    let (program, mut m) = game("ticTacToe");
    let s = ttt_position(&mut m, 7, 2);
    let mut results = Vec::new();
    for (tt, ordering) in [(false, false), (true, false), (false, true), (true, true)] {
        let h = Box::new(FuzzyHeuristic::build(&program, &mut m).unwrap());
        let (v, nodes, _) = alphabeta(&mut m, h, &s, 0, ab_config(7, tt, ordering, true), false);
        results.push((v, nodes));
    }
    let v0 = results[0].0;
    assert!(results.iter().all(|r| r.0 == v0), "{results:?}");
    assert!(
        results[1].1 < results[0].1,
        "the table saves nodes: {results:?}"
    );
    // Ordering takes the best move from the table, so it acts with the table.
    assert!(
        results[3].1 < results[1].1,
        "ordering saves nodes on top of the table: {results:?}"
    );
    assert!(
        results[3].1 < results[0].1,
        "table and ordering save nodes: {results:?}"
    );
}

#[test]
fn tictactoe_trace_replays_and_has_boards() {
    // Pins the corpus version's names and values.
    if corpus::shared_or_skip("search: tictactoe_trace_replays_and_has_boards").is_none() {
        return;
    }
    let (program, mut m) = game("ticTacToe");
    let s = m.initial_state().unwrap();
    let h = Box::new(FuzzyHeuristic::build(&program, &mut m).unwrap());
    let (v, _, t) = alphabeta(&mut m, h, &s, 0, ab_config(3, false, false, false), true);
    let t = t.unwrap();
    assert!(!t.truncated);
    assert!((replay(&t.events).unwrap() - v).abs() < 1e-9);
    assert!(
        t.states[0].iter().any(|f| f == "(cell 1 1 b)"),
        "{:?}",
        t.states[0]
    );
    // A small cap truncates with a marker and replay refuses.
    let h = Box::new(FuzzyHeuristic::build(&program, &mut m).unwrap());
    let mut ab = AlphaBeta::new(h, ab_config(3, false, false, false));
    let mut small = Trace::new(10);
    let r = ab.search(&mut m, &s, 0, Some(&mut small)).unwrap();
    assert!(
        (r.value - v).abs() < 1e-9,
        "truncation does not change the search"
    );
    assert!(small.truncated);
    assert!(matches!(
        small.events.last(),
        Some(Event::Truncated { nodes: 10 }) | Some(Event::BestMove { .. })
    ));
    assert!(replay(&small.events).is_err());
    // Deterministic: the same search gives the same events.
    let h = Box::new(FuzzyHeuristic::build(&program, &mut m).unwrap());
    let (_, _, t2) = alphabeta(&mut m, h, &s, 0, ab_config(3, false, false, false), true);
    assert_eq!(t.events, t2.unwrap().events);
}

#[test]
fn tictactoe_full_depth_never_loses_and_self_play_draws() {
    // The fast engine keeps this quick; it gives the interpreter's values
    // (fast_engine_gives_the_interpreter_values).
    let (program, mut m) = engine("ticTacToe", EngineChoice::Fast);
    // Depth 9 is the whole game, with no time budget: a full-depth search
    // whatever the machine's load.
    let ab: PlayerSpec = "alphabeta:heuristic=none,depth=9".parse().unwrap();
    let random: PlayerSpec = "random".parse().unwrap();
    // 400 games, roles rotated: 200 as each role.
    let cfg = MatchConfig {
        games: 400,
        seed: 5,
        max_steps: 20,
    };
    let r = run_match(&program, &mut m, &[ab.clone(), random], &cfg, &mut |_| {}).unwrap();
    let p = &r.players[0];
    assert_eq!(p.games, 400);
    assert_eq!(p.losses, 0, "{p:?}");
    assert!(p.wins > 300, "{p:?}");
    for role in 0..2 {
        assert_eq!(r.games.iter().filter(|g| g.seats[role] == 0).count(), 200);
    }
    let cfg = MatchConfig {
        games: 2,
        seed: 1,
        max_steps: 20,
    };
    let r = run_match(&program, &mut m, &[ab.clone(), ab], &cfg, &mut |_| {}).unwrap();
    assert_eq!(r.games.len(), 2);
    assert!(
        r.games
            .iter()
            .all(|g| g.terminal && g.goals == vec![50, 50]),
        "{:?}",
        r.games
    );
}

/// Full-depth alpha-beta value, solved flag and nodes on one engine.
fn solve<M: StateMachine>(m: &mut M, s: &M::State, role: usize) -> (f64, bool, u64) {
    let mut ab = AlphaBeta::new(
        Box::new(Constant),
        Config {
            budget: Budget::depth(9),
            ..Config::default()
        },
    );
    let r = ab.search(m, s, role, None).unwrap();
    (r.value, r.solved, r.stats.nodes)
}

#[test]
fn fast_engine_gives_the_interpreter_values() {
    let (_, mut interp) = engine("ticTacToe", EngineChoice::Interpreter);
    let (_, mut fast) = engine("ticTacToe", EngineChoice::Fast);
    assert_eq!((interp.name(), fast.name()), ("interpreter", "fast"));
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..12u64 {
        let moves = 1 + seed as usize % 6;
        let a = ttt_position(&mut interp, seed, moves);
        let b = ttt_position(&mut fast, seed, moves);
        for role in 0..2 {
            let vi = solve(&mut interp, &a, role);
            let vf = solve(&mut fast, &b, role);
            assert!(vi.1 && vf.1, "full depth is solved");
            assert_eq!(
                vi.0, vf.0,
                "seed {seed} role {role}: interpreter {vi:?} fast {vf:?}"
            );
            seen.insert(vi.0 as i64);
        }
    }
    // The fuzzy heuristic (its own relaxed interpreter, reading states
    // through `fluents`) estimates the same on both engines.
    let (program, _) = engine("ticTacToe", EngineChoice::Interpreter);
    let mut estimates = Vec::new();
    for seed in 0..6u64 {
        let a = ttt_position(&mut interp, seed, 1 + seed as usize % 4);
        let b = ttt_position(&mut fast, seed, 1 + seed as usize % 4);
        let mut hi = FuzzyHeuristic::build(&program, &mut interp).unwrap();
        let mut hf = FuzzyHeuristic::build(&program, &mut fast).unwrap();
        let vi = Heuristic::<Engine>::evaluate(&mut hi, &mut interp, &a, 0).unwrap();
        let vf = Heuristic::<Engine>::evaluate(&mut hf, &mut fast, &b, 0).unwrap();
        assert!(
            (vi - vf).abs() < 1e-9,
            "seed {seed}: interpreter {vi} fast {vf}"
        );
        let (di, df) = (
            minimax(&mut interp, &mut hi, &a, 0, 2).0,
            minimax(&mut fast, &mut hf, &b, 0, 2).0,
        );
        assert!(
            (di - df).abs() < 1e-9,
            "seed {seed}, depth 2: interpreter {di} fast {df}"
        );
        estimates.push(vi);
    }
    assert!(
        estimates.iter().any(|&v| (v - estimates[0]).abs() > 1e-6),
        "the estimates differ between positions: {estimates:?}"
    );
    // The positions are not all alike: some are won, some drawn or lost.
    assert!(seen.len() >= 2, "{seen:?}");
    // The initial position is a draw on both.
    let s = fast.initial_state().unwrap();
    assert_eq!(solve(&mut fast, &s, 1).0, 50.0);
    // minichess and the maze plan on the fast engine too.
    let (program, mut m) = engine("minichess", EngineChoice::Fast);
    let s = m.initial_state().unwrap();
    let h = heuristics::build("fuzzy", &program, &mut m).unwrap();
    let r = AlphaBeta::new(h, Config::default())
        .search(&mut m, &s, 0, None)
        .unwrap();
    assert_eq!((r.value, r.solved), (100.0, true));
    let (program, mut m) = engine("maze", EngineChoice::Fast);
    assert_eq!(best_first_game(&program, &mut m), (vec![100], 6));
}

/// Goals and length of one game of the best-first player.
fn best_first_game<M: StateMachine + Clone + Send + 'static>(
    program: &gdlkit::Program,
    m: &mut M,
) -> (Vec<i64>, usize)
where
    M::State: Send + Sync,
{
    let spec: PlayerSpec = "bestfirst".parse().unwrap();
    let cfg = MatchConfig {
        games: 1,
        seed: 1,
        max_steps: 20,
    };
    let r = run_match(program, m, &[spec], &cfg, &mut |_| {}).unwrap();
    (r.games[0].goals.clone(), r.games[0].steps)
}

#[test]
fn a_match_runs_on_either_engine_and_full_depth_never_loses() {
    // The engines may order legal moves differently, so the games can
    // differ; the outcome for the full-depth player cannot.
    let specs: Vec<PlayerSpec> = vec![
        "alphabeta:heuristic=none,depth=9".parse().unwrap(),
        "random".parse().unwrap(),
    ];
    let cfg = MatchConfig {
        games: 6,
        seed: 3,
        max_steps: 20,
    };
    let mut outcomes = Vec::new();
    for choice in [EngineChoice::Interpreter, EngineChoice::Fast] {
        let (program, mut m) = engine("ticTacToe", choice);
        let r = run_match(&program, &mut m, &specs, &cfg, &mut |_| {}).unwrap();
        assert_eq!(r.players[0].losses, 0, "{choice:?}: {:?}", r.players[0]);
        outcomes.push(r.players[0].wins + r.players[0].draws);
    }
    assert_eq!(outcomes, vec![6, 6]);
}

#[test]
fn minichess_white_forced_win_is_proved() {
    let (program, mut m) = game("minichess");
    let s = m.initial_state().unwrap();
    let h = heuristics::build("fuzzy", &program, &mut m).unwrap();
    let mut ab = AlphaBeta::new(
        h,
        Config {
            budget: Budget::default(),
            ..Config::default()
        },
    );
    let r = ab.search(&mut m, &s, 0, None).unwrap();
    assert_eq!(r.value, 100.0);
    assert!(r.solved);
    assert_eq!(m.terms().display(r.best_move.unwrap()), "(move wk c 1 b 2)");
}

fn plan_of(name: &str) -> (Vec<String>, f64) {
    let (program, mut m) = game(name);
    let s = m.initial_state().unwrap();
    let h = heuristics::build("fuzzy", &program, &mut m).unwrap();
    let plan = BestFirst::new(h, Budget::default())
        .search(&mut m, &s, 0)
        .unwrap();
    assert!(plan.exhausted && plan.complete);
    (
        plan.moves.iter().map(|&t| m.terms().display(t)).collect(),
        plan.result.value,
    )
}

#[test]
fn best_first_finds_the_shortest_plans() {
    // Pins the corpus version's names and values.
    if corpus::shared_or_skip("search: best_first_finds_the_shortest_plans").is_none() {
        return;
    }
    assert_eq!(
        plan_of("maze"),
        (
            vec!["move", "move", "grab", "move", "move", "drop"]
                .into_iter()
                .map(String::from)
                .collect(),
            100.0
        )
    );
    assert_eq!(
        plan_of("blocksWorld"),
        (
            vec!["(u c a)", "(s b c)", "(s a b)"]
                .into_iter()
                .map(String::from)
                .collect(),
            100.0
        )
    );
    // Played move by move, the player follows the same plan.
    let (program, mut m) = game("maze");
    assert_eq!(best_first_game(&program, &mut m), (vec![100], 6));
}

#[test]
fn fuzzy_prefers_the_centre_then_corners_in_tictactoe() {
    let (program, mut m) = game("ticTacToe");
    let mut h = FuzzyHeuristic::build(&program, &mut m).unwrap();
    let s0 = m.initial_state().unwrap();
    let legal = m.all_legal_moves(&s0).unwrap();
    let mut value = |mv: &str| {
        let t = legal[0]
            .iter()
            .copied()
            .find(|&t| m.terms().display(t) == mv)
            .unwrap();
        let s = m.next_state(&s0, &[t, legal[1][0]]).unwrap();
        Heuristic::<Interpreter>::evaluate(&mut h, &mut m, &s, 0).unwrap()
    };
    let (centre, corner, edge) = (
        value("(mark 2 2)"),
        value("(mark 1 1)"),
        value("(mark 1 2)"),
    );
    assert!(
        centre > corner && corner > edge,
        "centre {centre} corner {corner} edge {edge}"
    );
    assert!((1.0..=99.0).contains(&edge) && centre > 50.0);
}

#[test]
fn mcts_and_paranoid_alphabeta_play_simultaneous_games() {
    let (program, mut m) = game("roshambo2");
    let s = m.initial_state().unwrap();
    let info = GameInfo::sample(&mut m, &s, 10, 1).unwrap();
    assert!(!info.turn_taking);
    let mut mc = SolverMcts::new(
        mcts::Config {
            budget: Budget::nodes(200),
            ..mcts::Config::plain()
        },
        3,
        1,
    );
    let r = mc.search(&mut m, &s, 0).unwrap();
    assert!(m
        .legal_moves(&s, 0)
        .unwrap()
        .contains(&r.best_move.unwrap()));
    assert_eq!(r.stats.playouts, 200);
    let specs: Vec<PlayerSpec> = vec![
        "alphabeta:depth=2".parse().unwrap(),
        "mcts:playouts=50".parse().unwrap(),
    ];
    let res = run_match(
        &program,
        &mut m,
        &specs,
        &MatchConfig {
            games: 2,
            seed: 1,
            max_steps: 50,
        },
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(res.players.len(), 2);
    assert!(res.games.iter().all(|g| g.terminal));
}

fn mcts_move_in_won_position<M: StateMachine + Clone + Send>(m: &mut M) -> String
where
    M::State: Send + Sync + 'static,
{
    // x: (1 1) (1 2); o: (2 1) (2 2); x to move wins with (mark 1 3).
    let mut s = m.initial_state().unwrap();
    for (x, o) in [
        ("(mark 1 1)", "noop"),
        ("noop", "(mark 2 1)"),
        ("(mark 1 2)", "noop"),
        ("noop", "(mark 2 2)"),
    ] {
        let x = gdlkit::program::parse_ground_term(m.terms_mut(), x).unwrap();
        let o = gdlkit::program::parse_ground_term(m.terms_mut(), o).unwrap();
        s = m.next_state(&s, &[x, o]).unwrap();
    }
    let mut mc = SolverMcts::new(
        mcts::Config {
            budget: Budget::nodes(1000),
            ..mcts::Config::plain()
        },
        1,
        1,
    );
    let mv = mc.select_move(m, &s, 0).unwrap();
    m.terms().display(mv)
}

#[test]
fn mcts_takes_an_immediate_win() {
    let (_, mut m) = game("ticTacToe");
    assert_eq!(mcts_move_in_won_position(&mut m), "(mark 1 3)");
    // On the fast engine, playouts run inside the network.
    let (_, mut f) = engine("ticTacToe", EngineChoice::Fast);
    assert_eq!(mcts_move_in_won_position(&mut f), "(mark 1 3)");
}

#[test]
fn player_specs_parse_and_reject_mistakes() {
    let s: PlayerSpec = "alphabeta:heuristic=fuzzy,ms=200".parse().unwrap();
    assert_eq!(s.name(), "alphabeta");
    assert_eq!(s.get("ms"), Some("200"));
    let PlayerSpec::AlphaBeta(ab) = &s else {
        panic!("{s:?}")
    };
    assert_eq!(
        ab.budget,
        Budget {
            ms: Some(200.0),
            nodes: None,
            depth: None
        }
    );
    assert!("bogus".parse::<PlayerSpec>().is_err());
    assert!("mcts:ms".parse::<PlayerSpec>().is_err());
    assert!("mcts:depth=3".parse::<PlayerSpec>().is_err());
    let (program, mut m) = game("ticTacToe");
    let bf: PlayerSpec = "bestfirst".parse().unwrap();
    assert!(
        gdlkit::search::build_player(&bf, &program, &mut m, 1).is_err(),
        "best-first is for one-player games"
    );
    let h: PlayerSpec = "alphabeta:heuristic=nope".parse().unwrap();
    assert!(gdlkit::search::build_player(&h, &program, &mut m, 1).is_err());
}

/// A GDL-II game against chance: the player bets `safe` (40) or `risky`
/// (90 when the die shows 1 of 3, else 0), the die thrown either with the
/// bet (`simultaneous`) or after it. Either way minimax and alpha-beta
/// value `risky` at 30 and play `safe` for 40: chance is averaged, not
/// played as an adversary (which would value `risky` at 0) nor as an ally.
#[test]
fn chance_is_averaged_in_games_with_the_bet_before_or_with_the_throw() {
    let game = |simultaneous: bool| {
        let throw_step = if simultaneous { 0 } else { 1 };
        format!(
            "(role player) (role random)
             (init (step 0))
             (succ 0 1) (succ 1 2) (face 1) (face 2) (face 3)
             (<= (legal player safe) (true (step 0)))
             (<= (legal player risky) (true (step 0)))
             (<= (legal player noop) (not (true (step 0))))
             (<= (legal random (throw ?f)) (true (step {throw_step})) (face ?f))
             (<= (legal random noop) (not (true (step {throw_step}))))
             (<= (next (bet ?b)) (does player ?b) (distinct ?b noop))
             (<= (next (bet ?b)) (true (bet ?b)))
             (<= (next (shown ?f)) (does random (throw ?f)))
             (<= (next (shown ?f)) (true (shown ?f)))
             (<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
             (<= terminal (true (step {end})))
             (<= (goal player 40) (true (bet safe)))
             (<= (goal player 90) (true (bet risky)) (true (shown 1)))
             (<= (goal player 0) (true (bet risky)) (not (true (shown 1))))",
            end = throw_step + 1
        )
    };
    for simultaneous in [true, false] {
        let text = game(simultaneous);
        let mut m = gdlkit::load_game(&text).unwrap();
        let root = m.initial_state().unwrap();
        let (v, _) = minimax(&mut m, &mut Constant, &root, 0, 4);
        assert_eq!(v, 40.0, "minimax, simultaneous {simultaneous}");
        let (v, _, t) = alphabeta(
            &mut m,
            Box::new(Constant),
            &root,
            0,
            ab_config(4, false, false, false),
            true,
        );
        assert_eq!(v, 40.0, "alphabeta, simultaneous {simultaneous}");
        let events = t.unwrap().events;
        assert_eq!(replay(&events).unwrap(), 40.0);
        let means: Vec<f64> = events
            .iter()
            .filter_map(|e| match e {
                Event::Enter {
                    node,
                    kind: gdlkit::trace::NodeKind::Chance,
                    ..
                } => Some(*node),
                _ => None,
            })
            .filter_map(|id| {
                events.iter().find_map(|e| match e {
                    Event::Return { node, value } if *node == id => Some(*value),
                    _ => None,
                })
            })
            .collect();
        assert!(
            means.contains(&30.0),
            "risky's mean among {means:?}, simultaneous {simultaneous}"
        );
    }
}
