//! Property test: the fast engine and the interpreter agree on random
//! reachable states of every corpus game that grounds within budget (state,
//! legal moves, terminal, goals, GDL-II percepts), walking both engines
//! side by side along random playouts. Games that do not ground are listed, not failed.
//!
//! `GDLKIT_GAME=name` restricts the run to games whose path contains `name`.

use gdlkit::engine::GroundBudget as Budget;
use gdlkit::engine::{Engine, EngineChoice};
use gdlkit::{Interpreter, StateMachine};
use std::path::{Path, PathBuf};

use crate::common::corpus;

/// The corpus games, or the project's own games on a plain clone.
fn games() -> Vec<PathBuf> {
    let folders: &[&str] = match corpus::shared_dir() {
        Some(_) => &["games/ggp-base-test", "games/repository"],
        None => &["games"],
    };
    let mut files = Vec::new();
    for folder in folders {
        files.extend(corpus::kif_files(folder, "fast_vs_interpreter"));
    }
    files.sort();
    if let Ok(only) = std::env::var("GDLKIT_GAME") {
        files.retain(|f| f.to_string_lossy().contains(&only));
    }
    files
}

fn texts<M: StateMachine>(m: &M, ts: &[gdlkit::terms::TermId]) -> Vec<String> {
    let mut v: Vec<String> = ts.iter().map(|&t| m.terms().display(t)).collect();
    v.sort();
    v
}

enum Outcome {
    Agree(usize),
    Skipped(String),
}

/// Walks both engines along random playouts; compares every state, for
/// 0.3 s but at least `min_states` states (when the game has them).
fn compare(path: &Path, budget: Budget, seed: u64, min_states: usize) -> Result<Outcome, String> {
    compare_text(
        &std::fs::read_to_string(path).unwrap(),
        budget,
        seed,
        min_states,
    )
}

fn compare_text(
    text: &str,
    budget: Budget,
    seed: u64,
    min_states: usize,
) -> Result<Outcome, String> {
    match engines(text, budget) {
        Ok((mut it, mut fast)) => walk(&mut it, &mut fast, seed, min_states).map(Outcome::Agree),
        Err(why) => Ok(Outcome::Skipped(why)),
    }
}

/// The interpreter and the fast engine of a game, or why the fast engine
/// is left out.
fn engines(text: &str, budget: Budget) -> Result<(Interpreter, impl StateMachine), String> {
    let program = gdlkit::parse_program(text);
    if gdlkit::diagnostic::has_errors(&program.diagnostics) {
        return Err("invalid".into());
    }
    let Ok(it) = Interpreter::new(&program) else {
        return Err("invalid".into());
    };
    // Games the size estimate refuses are the ones auto never grounds.
    if gdlkit::engine::ground_estimate(&program, &it).refuses(&budget) {
        return Err("refused by the size estimate".into());
    }
    // `Fast`: auto may pick the interpreter for a game that grounds.
    match Engine::from_program(&program, EngineChoice::Fast, budget) {
        Ok(Engine::Fast(f)) => Ok((it, *f)),
        Ok(e) => Err(e.name().to_string()),
        Err(d) => Err(d[0].message.clone()),
    }
}

/// Walks both engines along random playouts from `seed`: the states
/// compared.
fn walk<F: StateMachine>(
    it: &mut Interpreter,
    fast: &mut F,
    seed: u64,
    min_states: usize,
) -> Result<usize, String> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let start = std::time::Instant::now();
    let mut states = 0;
    let err = |e: gdlkit::EvalError| e.to_string();
    for playout in 0..4 {
        let (Ok(mut s), Ok(mut f)) = (it.initial_state(), fast.initial_state()) else {
            return Ok(states);
        };
        for step in 0..80 {
            // 0.3 s of comparisons, but never fewer than the states the
            // tests assert (a loaded machine is slow, not wrong); 120 s
            // only bounds a hang.
            let secs = start.elapsed().as_secs_f64();
            if (secs > 0.3 && states >= min_states) || secs > 120.0 {
                return Ok(states);
            }
            let at = format!("playout {playout} step {step}");
            let (fi, ff) = (texts(it, &it.fluents(&s)), texts(fast, &fast.fluents(&f)));
            if fi != ff {
                return Err(format!("{at}: state {ff:?}\ninterpreter {fi:?}"));
            }
            // The same state rebuilt from its fluents answers the same.
            let f2 = {
                let fl: Vec<_> = fast.fluents(&f);
                fast.state_from_fluents(&fl)
            };
            if f2 != f {
                return Err(format!("{at}: state_from_fluents(fluents(s)) != s"));
            }
            let ti = match it.is_terminal(&s) {
                Ok(t) => t,
                Err(_) => return Ok(states), // interpreter limit
            };
            let tf = fast.is_terminal(&f).map_err(err)?;
            if ti != tf {
                return Err(format!("{at}: terminal {tf}, interpreter {ti}"));
            }
            let gi = it.goal_values(&s).map_err(err)?;
            let gf = fast.goal_values(&f).map_err(err)?;
            if gi != gf {
                return Err(format!("{at}: goals {gf:?}, interpreter {gi:?}"));
            }
            let li = it.all_legal_moves(&s).map_err(err)?;
            let lf = fast.all_legal_moves(&f).map_err(err)?;
            let li: Vec<Vec<String>> = li.iter().map(|l| texts(it, l)).collect();
            let lf: Vec<Vec<String>> = lf.iter().map(|l| texts(fast, l)).collect();
            if li != lf {
                return Err(format!("{at}: legal {lf:?}\ninterpreter {li:?}"));
            }
            states += 1;
            if ti || li.iter().any(Vec::is_empty) {
                break;
            }
            // The same random joint move in both engines (by text).
            let pick: Vec<String> = li.iter().map(|l| l[rng.usize(..l.len())].clone()).collect();
            let ji: Vec<_> = pick
                .iter()
                .map(|m| gdlkit::program::parse_ground_term(it.terms_mut(), m).unwrap())
                .collect();
            let jf: Vec<_> = pick
                .iter()
                .map(|m| gdlkit::program::parse_ground_term(fast.terms_mut(), m).unwrap())
                .collect();
            // GDL-II: the same percepts (empty lists for GDL-I games).
            let pi = it.percepts(&s, &ji).map_err(err)?;
            let pf = fast.percepts(&f, &jf).map_err(err)?;
            let (pi, pf): (Vec<_>, Vec<_>) = (
                pi.iter().map(|l| texts(it, l)).collect(),
                pf.iter().map(|l| texts(fast, l)).collect(),
            );
            if pi != pf {
                return Err(format!("{at}: percepts {pf:?}\ninterpreter {pi:?}"));
            }
            s = match it.next_state(&s, &ji) {
                Ok(s) => s,
                Err(_) => return Ok(states),
            };
            f = fast.next_state(&f, &jf).map_err(err)?;
        }
    }
    Ok(states)
}

#[test]
fn fast_engine_agrees_with_interpreter_on_random_states() {
    // The corpus, else the project's own games (all of which ground).
    let floor = match (std::env::var_os("GDLKIT_GAME"), corpus::shared_dir()) {
        (Some(_), _) => 1,
        (None, Some(_)) => MIN_GAMES,
        (None, None) => 10,
    };
    // A smaller time budget than the default keeps the test quick; the games
    // it leaves out are the ones listed as falling back.
    let budget = Budget {
        max_ms: 5_000.0,
        ..Budget::default()
    };
    let files = games();
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(4);
    let chunks: Vec<Vec<PathBuf>> = (0..threads)
        .map(|t| files.iter().skip(t).step_by(threads).cloned().collect())
        .collect();
    let results: Vec<(PathBuf, Result<Outcome, String>)> = std::thread::scope(|s| {
        let hs: Vec<_> = chunks
            .iter()
            .map(|c| {
                s.spawn(move || {
                    c.iter()
                        .map(|f| (f.clone(), compare(f, budget, 7, 0)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        hs.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    let (mut agree, mut states, mut skipped, mut failures) = (0, 0, Vec::new(), Vec::new());
    for (f, r) in &results {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        match r {
            Ok(Outcome::Agree(n)) => {
                agree += 1;
                states += n;
            }
            Ok(Outcome::Skipped(why)) => skipped.push(format!("{name}: {why}")),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    eprintln!(
        "{agree} games agree on {states} random states; {} skipped; {} differ",
        skipped.len(),
        failures.len()
    );
    for s in &skipped {
        eprintln!("skipped: {s}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        agree >= floor,
        "only {agree} games ran through both engines (at least {floor} expected)"
    );
}

/// Games that must ground and agree (the floor against a vacuous pass).
const MIN_GAMES: usize = 300;

/// States compared before the time cap may end a game's comparison.
const MIN_STATES: usize = 20;

/// Corpus games that only the second grounding strategy grounds
/// (`ground/demand.rs`: the amazons over the literal budget): they must
/// ground and agree. The time budget is generous so the test does not
/// depend on the load.
pub const GROUNDED_BY_DEMAND: &[&str] = &[
    "amazons",
    "amazonsSuicide",
    "amazonsTorus",
    // mummymaze1p through constant walls (`ground/constant.rs`); for
    // alexChess the first strategy stops at its literal cap and the demand
    // strategy grounds it.
    "mummymaze1p",
    "alexChess",
];

/// The library's GDL-II games (`sees`, the `random` role), which the
/// corpus lacks: both engines agree, percepts included.
#[test]
fn gdl2_library_games_agree_percepts_included() {
    let dir = corpus::root().join("games");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "kif"))
        .collect();
    files.sort();
    let mut compared = 0;
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        if !gdlkit::parse_program(&text).is_gdl2() {
            continue;
        }
        // Four whole playouts: Monty Hall's have four states each.
        match compare_text(&text, Budget::default(), 3, 16) {
            Ok(Outcome::Agree(n)) => assert!(n >= 16, "{f:?}: {n} states"),
            Ok(Outcome::Skipped(why)) => panic!("{f:?} skipped: {why}"),
            Err(e) => panic!("{f:?}: {e}"),
        }
        compared += 1;
    }
    assert!(compared >= 4, "only {compared} GDL-II games");
}

/// Grounded once each (the slowest games to ground): random states against
/// the interpreter, and their conformance traces, which
/// `fast_conformance` leaves to this test.
#[test]
fn games_grounded_by_demand_agree_with_interpreter() {
    let Some(shared) = corpus::shared_or_skip(
        "fast_vs_interpreter: games_grounded_by_demand_agree_with_interpreter",
    ) else {
        return;
    };
    let budget = Budget {
        max_ms: 600_000.0,
        ..Budget::default()
    };
    for name in GROUNDED_BY_DEMAND {
        let path = shared.join(format!("games/repository/{name}.kif"));
        let text = std::fs::read_to_string(&path).unwrap();
        let (mut it, mut fast) =
            engines(&text, budget).unwrap_or_else(|why| panic!("{name} did not ground: {why}"));
        // Games with short playouts (mummymaze1p: the mummy is quick) take
        // more seeds to reach the floor.
        let mut n = 0;
        for seed in 11..19 {
            n += walk(&mut it, &mut fast, seed, MIN_STATES)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            if n >= MIN_STATES {
                break;
            }
        }
        assert!(n >= MIN_STATES, "{name}: only {n} states compared");
        let trace_file = shared.join(format!("conformance/traces/repository/{name}.json"));
        let (trace, trace_game) = crate::common::read_trace(&trace_file);
        assert_eq!(trace_game, text, "{name}: the trace is of another text");
        let steps = crate::common::replay_trace(&mut fast, &trace)
            .unwrap_or_else(|e| panic!("{name}'s trace: {e}"));
        assert!(steps > 0, "{name}: an empty trace");
    }
}

/// A game whose static `triple` (20^3 rows) and dynamic `block` are read
/// only with bound arguments, `block` only negated: over a budget of 2,000
/// atoms the first strategy fails, the demand-driven one grounds it (the
/// negated atoms it never derives are false), and both engines agree.
const DEMAND_GAME: &str = include_str!("../../../engine/testdata/demand_game.kif");

#[test]
fn demand_strategy_grounds_what_the_first_cannot_and_agrees() {
    let small = Budget {
        max_atoms: 2_000,
        max_ms: 600_000.0,
        ..Budget::default()
    };
    let program = gdlkit::parse_program(DEMAND_GAME);
    // The first strategy alone is over the budget (a unit test of
    // `ground` asserts it); the engine grounds it by the second.
    let engine =
        Engine::from_program(&program, EngineChoice::Fast, small).expect("demand grounds it");
    assert!(engine.ground_stats().expect("fast").atoms < 2_000);
    for seed in 0..8 {
        match compare_text(DEMAND_GAME, small, seed, 2) {
            Ok(Outcome::Agree(n)) => assert!(n >= 2, "only {n} states"),
            Ok(Outcome::Skipped(why)) => panic!("skipped: {why}"),
            Err(e) => panic!("{e}"),
        }
    }
}

/// A corridor whose walls are constant fluents (`ground/constant.rs`): the
/// second strategy reads their `true` table as static, so the negated walls
/// are exact in the relaxed fixpoint; both engines agree along playouts.
const CONSTANT_FLUENT_GAME: &str =
    include_str!("../../../engine/testdata/constant_fluent_game.kif");

#[test]
fn constant_fluents_ground_exactly_and_agree() {
    let small = Budget {
        max_atoms: 2_000,
        max_ms: 600_000.0,
        ..Budget::default()
    };
    let program = gdlkit::parse_program(CONSTANT_FLUENT_GAME);
    let engine = Engine::from_program(&program, EngineChoice::Fast, small)
        .expect("the second strategy grounds it");
    // (at 1..3), (step 1..20) and the two walls.
    assert_eq!(engine.ground_stats().expect("fast").base, 25);
    for seed in 0..8 {
        match compare_text(CONSTANT_FLUENT_GAME, small, seed, 2) {
            Ok(Outcome::Agree(n)) => assert!(n >= 2, "only {n} states"),
            Ok(Outcome::Skipped(why)) => panic!("skipped: {why}"),
            Err(e) => panic!("{e}"),
        }
    }
}

/// Pancakes whose flips guard their ANDs (`ground/guards.rs`): a guard's
/// flip turns its armed ANDs on or off, the rest of the network counts as
/// usual; both engines agree along playouts.
const GUARDED_GAME: &str = include_str!("../../../engine/testdata/guarded_game.kif");

#[test]
fn guarded_ands_agree_with_the_interpreter() {
    let mut states = 0;
    for seed in 0..16 {
        match compare_text(GUARDED_GAME, Budget::default(), seed, 8) {
            Ok(Outcome::Agree(n)) => states += n,
            Ok(Outcome::Skipped(why)) => panic!("skipped: {why}"),
            Err(e) => panic!("{e}"),
        }
    }
    assert!(states >= 16 * 8, "only {states} states compared");
    // The playouts inside the network (which step by the successor the
    // hooks hold) end where the step-by-step loop ends with the same seed.
    let program = gdlkit::parse_program(GUARDED_GAME);
    let mut m =
        Engine::from_program(&program, EngineChoice::Fast, Budget::default()).expect("grounds");
    let init = m.initial_state().unwrap();
    let mut steps = 0;
    for seed in 0..16 {
        let mut rng = fastrand::Rng::with_seed(seed);
        let inside = m.random_playout(&init, &mut rng, 40).unwrap();
        let mut rng = fastrand::Rng::with_seed(seed);
        let stepped = gdlkit::reasoner::random_playout(&mut m, &init, &mut rng, 40).unwrap();
        assert_eq!(inside.steps, stepped.steps, "seed {seed}");
        assert_eq!(inside.terminal, stepped.terminal, "seed {seed}");
        assert_eq!(
            texts(&m, &m.fluents(&inside.state)),
            texts(&m, &m.fluents(&stepped.state)),
            "seed {seed}"
        );
        steps += inside.steps;
    }
    assert!(steps >= 16, "only {steps} steps played");
}

/// A puzzle whose goal rule would not ground under a small budget
/// (`engine/hybrid.rs`): `auto` builds the hybrid engine, and it agrees
/// with the interpreter along playouts, with `goal` alone and with
/// `terminal` and `goal` left to the interpreter.
const HYBRID_GAME: &str = include_str!("../../../engine/testdata/hybrid_game.kif");

fn hybrid_budget() -> Budget {
    Budget {
        max_literals: 5_000,
        max_atoms: 2_000,
        max_ms: 600_000.0,
        ..Budget::default()
    }
}

#[test]
fn the_hybrid_engine_agrees_with_the_interpreter() {
    let program = gdlkit::parse_program(HYBRID_GAME);
    let budget = hybrid_budget();
    let it = Interpreter::new(&program).expect("valid");
    assert!(gdlkit::engine::ground_estimate(&program, &it).refuses(&budget));
    assert!(Engine::from_program(&program, EngineChoice::Fast, budget).is_err());
    for terminal in [false, true] {
        let h = gdlkit::engine::hybrid::ground_hybrid(&program, budget, terminal).expect("grounds");
        assert!(h.fast().stats().atoms < 200, "{terminal}");
        let mut engine = Engine::Hybrid(Box::new(h));
        let mut states = 0;
        for seed in 0..8 {
            let mut it = Interpreter::new(&program).expect("valid");
            states += walk(&mut it, &mut engine, seed, 7).unwrap_or_else(|e| panic!("{e}"));
        }
        // Four playouts of seven states per seed.
        assert!(states >= 8 * 4 * 7, "only {states} states");
    }
}

/// `auto` on the puzzle: the hybrid when its walks beat the interpreter's,
/// else the interpreter with the estimate's reason; either way it plays.
#[test]
fn auto_builds_the_hybrid_or_says_why_not() {
    let engine = gdlkit::engine::load_engine_with(HYBRID_GAME, EngineChoice::Auto, hybrid_budget())
        .expect("valid");
    match engine.name() {
        "hybrid" => {
            let note = engine.hybrid_note().expect("a note");
            assert!(note.contains("goal is asked of the interpreter"), "{note}");
            assert!(
                note.contains("allDifferent") || note.contains("alldifferent"),
                "{note}"
            );
        }
        "interpreter" => {
            let why = engine.fallback().expect("a reason");
            assert!(why.contains("estimated before instantiating"), "{why}");
        }
        other => panic!("{other}"),
    }
}

/// The corpus games whose end tests do not ground run on the hybrid:
/// sudoku (`goal`) and laikLee_hex (`terminal` and `goal`).
#[test]
fn corpus_games_whose_end_tests_do_not_ground_run_on_the_hybrid() {
    let test = "corpus_games_whose_end_tests_do_not_ground_run_on_the_hybrid";
    let mut ran = 0;
    for (name, what) in [
        ("sudoku", "goal is"),
        ("laikLee_hex", "terminal and goal are"),
    ] {
        let Some(text) = corpus::game_or_skip(&format!("{name}.kif"), test) else {
            return;
        };
        let program = gdlkit::parse_program(&text);
        let terminal = what.starts_with("terminal");
        let h = gdlkit::engine::hybrid::ground_hybrid(&program, Budget::default(), terminal)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut engine = Engine::Hybrid(Box::new(h));
        let mut it = Interpreter::new(&program).expect("valid");
        let states = walk(&mut it, &mut engine, 1, 20).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(states >= 20, "{name}: only {states} states");
        ran += 1;
    }
    assert_eq!(ran, 2);
}
