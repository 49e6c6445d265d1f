//! The semantic validator (`gdlkit::analysis`): exhaustive proofs and known
//! counts, every hand-made violation refuted with a counterexample that
//! really reaches the violation (replayed with the state machine), sampled
//! mode, the job API, diagnostics, and the corpus without false errors.

use gdlkit::analysis::{
    analyze, codes, to_diagnostics, AnalysisJob, Mode, Options, Phase, Property, Report,
};
use gdlkit::replay::{replay, Replay};
use gdlkit::{Interpreter, Severity, StateMachine};
use std::collections::{HashSet, VecDeque};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

use crate::common::corpus;

/// A corpus game, or the project's own copy of it on a plain clone.
pub(crate) fn corpus_game(rel: &str, own: &str) -> PathBuf {
    match corpus::shared_dir() {
        Some(d) => d.join(rel),
        None => game(own),
    }
}

fn load(path: &Path) -> Interpreter {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    gdlkit::load_game(&text).unwrap_or_else(|d| panic!("{}: {:?}", path.display(), d.first()))
}

pub(crate) fn game(name: &str) -> PathBuf {
    root().join("games").join(name)
}

pub(crate) fn fixture(name: &str) -> PathBuf {
    root()
        .join("crate/gdlkit/tests/fixtures/analysis")
        .join(name)
}

fn run(path: &Path, opts: Options) -> Report {
    analyze(load(path), opts)
}

fn moves(list: &[&[&str]]) -> Vec<Vec<String>> {
    list.iter()
        .map(|j| j.iter().map(|m| m.to_string()).collect())
        .collect()
}

fn proved(p: &Property) -> bool {
    p.holds == Some(true) && p.counterexample.is_none()
}

/// Replays a counterexample (each move must be legal) from the initial state.
fn replayed(m: &mut Interpreter, path: &Path, ce: &[Vec<String>]) -> Replay {
    replay(m, ce).unwrap_or_else(|e| {
        panic!(
            "{}: counterexample {ce:?} does not replay: {e}",
            path.display()
        )
    })
}

/// Checks that the counterexample of each refuted property really reaches
/// the violation it claims (and that every witness reaches goal 100);
/// returns how many counterexamples were checked.
fn verify_counterexamples(path: &Path, r: &Report) -> usize {
    verify_with(&mut load(path), path, r)
}

pub(crate) fn verify_with(m: &mut Interpreter, path: &Path, r: &Report) -> usize {
    let mut checked = 0;
    for (name, p) in r.properties() {
        if p.holds != Some(false) {
            continue;
        }
        let Some(ce) = &p.counterexample else {
            assert!(
                matches!(name, "weakly_winnable" | "strongly_winnable"),
                "{}: {name} refuted without counterexample",
                path.display()
            );
            assert_eq!(
                r.mode,
                Mode::Exhaustive,
                "{}: {name} refuted by sampling: {}",
                path.display(),
                p.detail
            );
            continue;
        };
        let rp = replayed(m, path, ce);
        let last = rp.steps.last().expect("initial step");
        let ctx = format!("{}: {name}: {} ({ce:?})", path.display(), p.detail);
        match name {
            "terminates" => {
                assert!(
                    rp.steps.iter().all(|s| !s.terminal),
                    "{ctx}: passes a terminal state"
                );
                let earlier = &rp.steps[..rp.steps.len() - 1];
                assert!(
                    earlier.iter().any(|s| s.state == last.state),
                    "{ctx}: the last state does not recur"
                );
            }
            "playable" => {
                assert!(!last.terminal, "{ctx}: terminal");
                assert!(
                    last.legal.iter().any(Vec::is_empty),
                    "{ctx}: every role has a move"
                );
            }
            "goals_defined" => {
                assert!(last.terminal, "{ctx}: not terminal");
                assert!(
                    last.goals.iter().any(|g| g.len() != 1),
                    "{ctx}: goals are fine"
                );
            }
            "monotone" => {
                let bad_count = last.goals.iter().any(|g| g.len() != 1);
                let dropped = rp.steps.len() >= 2 && {
                    let prev = &rp.steps[rp.steps.len() - 2];
                    prev.goals
                        .iter()
                        .zip(&last.goals)
                        .any(|(a, b)| a.len() == 1 && b.len() == 1 && b[0] < a[0])
                };
                assert!(
                    bad_count || dropped,
                    "{ctx}: no monotonicity violation at the end"
                );
            }
            other => panic!("{ctx}: {other} has a counterexample"),
        }
        checked += 1;
    }
    for (r_i, w) in r.witnesses.iter().enumerate() {
        if let Some(w) = w {
            let rp = replayed(m, path, w);
            let last = rp.steps.last().unwrap();
            assert!(
                last.terminal && last.goals[r_i].iter().max() == Some(&100),
                "{}: bad witness {w:?}",
                path.display()
            );
        }
    }
    checked
}

/// Independent breadth-first enumeration through the state machine: reachable
/// states, terminal states, and for each role whether some terminal state
/// gives it 100.
pub(crate) fn brute_force(path: &Path, limit: usize) -> Option<(usize, usize, Vec<bool>)> {
    let mut m = load(path);
    let s0 = m.initial_state().unwrap();
    let roles = m.roles().len();
    // GDL-II's chance role has no goals: the analysis skips it.
    let chance = gdlkit::reasoner::chance_role(&m);
    let mut seen = HashSet::from([s0.clone()]);
    let mut queue = VecDeque::from([s0]);
    let (mut terminals, mut wins) = (0, vec![false; roles]);
    while let Some(s) = queue.pop_front() {
        if m.is_terminal(&s).unwrap() {
            terminals += 1;
            for (r, g) in m.goals(&s).unwrap().iter().enumerate() {
                wins[r] |= *g == Some(100);
            }
            continue;
        }
        for joint in m.legal_joint_moves(&s).unwrap() {
            let t = m.next_state(&s, &joint).unwrap();
            if seen.insert(t.clone()) {
                if seen.len() > limit {
                    return None;
                }
                queue.push_back(t);
            }
        }
    }
    if let Some(c) = chance {
        wins[c] = true;
    }
    Some((seen.len(), terminals, wins))
}

// ---- known figures ----------------------------------------------------------

#[test]
fn tictactoe_is_proved_with_known_counts() {
    let path = corpus_game("games/repository/ticTacToe.kif", "ticTacToe.kif");
    let r = run(&path, Options::default());
    assert_eq!(r.mode, Mode::Exhaustive);
    assert_eq!((r.states, r.terminal_states, r.max_depth), (5478, 958, 9));
    assert_eq!(r.longest_play, Some(9));
    assert!(
        proved(&r.terminates)
            && proved(&r.playable)
            && proved(&r.goals_defined)
            && proved(&r.weakly_winnable)
    );
    // The corpus version has no goal value before the end: not monotone,
    // shown in the initial state (the project's own defines goals earlier).
    if corpus::shared_dir().is_some() {
        assert_eq!(r.monotone.holds, Some(false));
        assert_eq!(r.monotone.counterexample, Some(vec![]));
    }
    // Tic-tac-toe is a draw: nobody can force a win.
    assert_eq!(r.strongly_winnable.holds, Some(false));
    assert!(r.forced_winners.is_empty());
    assert_eq!(r.well_formed(), Some(true));
    assert!(!r.ill_formed());
    verify_counterexamples(&path, &r);
    let json = r.to_json();
    let keys: Vec<&String> = json.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "mode",
            "states",
            "terminal_states",
            "max_depth",
            "properties"
        ]
    );
    let props: Vec<&String> = json["properties"].as_object().unwrap().keys().collect();
    assert_eq!(
        props,
        [
            "terminates",
            "playable",
            "goals_defined",
            "monotone",
            "weakly_winnable",
            "strongly_winnable"
        ]
    );
    assert_eq!(json["mode"], "exhaustive");
    assert_eq!(json["properties"]["strongly_winnable"]["holds"], false);
    assert_eq!(
        json["properties"]["terminates"]["counterexample"],
        serde_json::Value::Null
    );
}

#[test]
fn buttons_and_lights_of_the_lecture_does_not_terminate() {
    let path = game("buttonsAndLights.kif");
    let r = run(&path, Options::default());
    assert_eq!(r.mode, Mode::Exhaustive);
    assert_eq!((r.states, r.terminal_states, r.max_depth), (4, 1, 3));
    assert_eq!(r.terminates.holds, Some(false));
    // Pressing b in the initial state loops.
    assert_eq!(r.terminates.counterexample, Some(moves(&[&["b"]])));
    assert!(r.ill_formed());
    assert!(proved(&r.playable) && proved(&r.goals_defined));
    assert_eq!(r.witnesses[0], Some(moves(&[&["a"], &["b"], &["a"]])));
    assert!(
        proved(&r.strongly_winnable),
        "solvable: {}",
        r.strongly_winnable.detail
    );
    assert_eq!(verify_counterexamples(&path, &r), 2);
}

/// The counter game by hand: lights (p, q) and the step, a toggles p, b swaps.
fn buttons_counter_model() -> (usize, usize) {
    let mut seen = HashSet::from([(false, false, 0)]);
    let mut queue = VecDeque::from([(false, false, 0)]);
    let mut terminals = 0;
    while let Some((p, q, step)) = queue.pop_front() {
        if (p && q) || step == 5 {
            terminals += 1;
            continue;
        }
        for next in [(!p, q, step + 1), (q, p, step + 1)] {
            if seen.insert(next) {
                queue.push_back(next);
            }
        }
    }
    (seen.len(), terminals)
}

#[test]
fn buttons_and_lights_with_a_step_counter_is_well_formed() {
    let path = game("buttonsAndLightsCounter.kif");
    let r = run(&path, Options::default());
    assert_eq!(
        (r.states as usize, r.terminal_states as usize),
        buttons_counter_model()
    );
    assert_eq!(r.max_depth, 5);
    for (name, p) in r.properties() {
        assert!(proved(p), "{name}: {p:?}");
    }
    assert_eq!(r.well_formed(), Some(true));
}

/// Maze by hand: robot cell 0..4 (a..d), gold cell or carried (4), step.
fn maze_model() -> (usize, usize) {
    let start = (0u8, 2u8, 0u8);
    let mut seen = HashSet::from([start]);
    let mut queue = VecDeque::from([start]);
    let mut terminals = 0;
    while let Some((cell, gold, step)) = queue.pop_front() {
        if gold == 0 || step == 10 {
            terminals += 1;
            continue;
        }
        let mut next = vec![((cell + 1) % 4, gold, step + 1)];
        if gold == cell {
            next.push((cell, 4, step + 1));
        }
        if gold == 4 {
            next.push((cell, cell, step + 1));
        }
        for n in next {
            if seen.insert(n) {
                queue.push_back(n);
            }
        }
    }
    (seen.len(), terminals)
}

#[test]
fn maze_of_the_thesis_is_solved() {
    let path = game("maze.kif");
    let r = run(&path, Options::default());
    assert_eq!(
        (r.states as usize, r.terminal_states as usize),
        maze_model()
    );
    for (name, p) in r.properties() {
        assert!(proved(p), "{name}: {p:?}");
    }
    // The thesis' solution (chapter 5.1).
    let solution = moves(&[
        &["move"],
        &["move"],
        &["grab"],
        &["move"],
        &["move"],
        &["drop"],
    ]);
    assert_eq!(r.witnesses[0], Some(solution));
    verify_counterexamples(&path, &r);
}

/// Blocksworld by hand: the support of a, b, c (3 = table) and the step.
fn blocks_model() -> (usize, usize) {
    type S = ([u8; 3], u8);
    let start: S = ([3, 3, 0], 0); // a on table, b on table, c on a
    let clear = |on: &[u8; 3], x: u8| !on.contains(&x);
    let mut seen = HashSet::from([start]);
    let mut queue = VecDeque::from([start]);
    let mut terminals = 0;
    while let Some((on, step)) = queue.pop_front() {
        if (on[0] == 1 && on[1] == 2) || step == 4 {
            terminals += 1;
            continue;
        }
        for x in 0..3u8 {
            if !clear(&on, x) {
                continue;
            }
            let mut targets: Vec<u8> = Vec::new();
            if on[x as usize] == 3 {
                targets.extend((0..3).filter(|&y| y != x && clear(&on, y)));
            } else {
                targets.push(3);
            }
            for y in targets {
                let mut n = on;
                n[x as usize] = y;
                if seen.insert((n, step + 1)) {
                    queue.push_back((n, step + 1));
                }
            }
        }
    }
    (seen.len(), terminals)
}

#[test]
fn blocksworld_of_the_thesis_is_solved() {
    let path = game("blocksWorld.kif");
    let r = run(&path, Options::default());
    assert_eq!(
        (r.states as usize, r.terminal_states as usize),
        blocks_model()
    );
    for (name, p) in r.properties() {
        assert!(proved(p), "{name}: {p:?}");
    }
    let solution = moves(&[&["(unstack c a)"], &["(stack b c)"], &["(stack a b)"]]);
    assert_eq!(r.witnesses[0], Some(solution));
}

// ---- one violation each -------------------------------------------------------

/// Analyses a fixture and checks which properties are refuted and that their
/// counterexamples replay to the violation.
fn refutes(name: &str, refuted: &[&str]) -> Report {
    let path = fixture(name);
    let r = run(&path, Options::default());
    assert_eq!(r.mode, Mode::Exhaustive, "{name}");
    for (prop, p) in r.properties() {
        if refuted.contains(&prop) {
            assert_eq!(
                p.holds,
                Some(false),
                "{name}: {prop} should be refuted: {p:?}"
            );
        } else {
            assert!(proved(p), "{name}: {prop} should hold: {p:?}");
        }
    }
    verify_counterexamples(&path, &r);
    let oracle = brute_force(&path, 1000).expect("small");
    assert_eq!(
        (r.states as usize, r.terminal_states as usize),
        (oracle.0, oracle.1),
        "{name}"
    );
    r
}

#[test]
fn cycle_refutes_termination() {
    let r = refutes("cycle.kif", &["terminates"]);
    let ce = moves(&[
        &["forward", "noop"],
        &["forward", "noop"],
        &["back", "noop"],
    ]);
    assert_eq!(r.terminates.counterexample, Some(ce));
    assert!(r.ill_formed());
}

#[test]
fn unplayable_refutes_playability() {
    let r = refutes("unplayable.kif", &["playable"]);
    assert_eq!(
        r.playable.counterexample,
        Some(moves(&[&["left"], &["left"]]))
    );
    assert!(
        r.playable.detail.contains("role player has no legal move"),
        "{}",
        r.playable.detail
    );
}

#[test]
fn goalless_terminal_refutes_goals() {
    let r = refutes("goalless.kif", &["goals_defined", "monotone"]);
    assert_eq!(
        r.goals_defined.counterexample,
        Some(moves(&[&["(pick 2)", "noop"]]))
    );
    assert!(
        r.goals_defined
            .detail
            .contains("role other has no goal value"),
        "{}",
        r.goals_defined.detail
    );
}

#[test]
fn two_goal_values_refute_goals() {
    let r = refutes("twoGoals.kif", &["goals_defined", "monotone"]);
    assert_eq!(
        r.goals_defined.counterexample,
        Some(moves(&[&["a"], &["b"]]))
    );
    assert!(
        r.goals_defined.detail.contains("2 goal values (50, 100)"),
        "{}",
        r.goals_defined.detail
    );
}

#[test]
fn lowered_goal_refutes_monotonicity_only() {
    let r = refutes("nonMonotone.kif", &["monotone"]);
    assert_eq!(r.monotone.counterexample, Some(moves(&[&["gamble"]])));
    assert!(
        r.monotone.detail.contains("drops from 50 to 0"),
        "{}",
        r.monotone.detail
    );
    // Monotonicity is a warning: the game is still well-formed.
    assert!(!r.ill_formed());
    assert_eq!(r.well_formed(), Some(true));
}

#[test]
fn unreachable_win_refutes_weak_winnability() {
    let r = refutes("unwinnable.kif", &["weakly_winnable"]);
    assert_eq!(r.weakly_winnable.counterexample, None);
    assert!(
        r.weakly_winnable
            .detail
            .contains("role second reaches goal 100 in none"),
        "{}",
        r.weakly_winnable.detail
    );
    assert_eq!(r.forced_winners, ["first"]);
    assert!(r.ill_formed());
}

#[test]
fn matching_pennies_is_not_strongly_winnable() {
    let r = refutes("matchingPennies.kif", &["strongly_winnable"]);
    assert!(r.forced_winners.is_empty());
    assert_eq!(r.well_formed(), Some(true));
}

#[test]
fn forced_wins_are_strategies() {
    // cycle.kif: the mover can force the end; the watcher, who only waits,
    // cannot: the mover may go round the cycle forever.
    let r = run(&fixture("cycle.kif"), Options::default());
    assert_eq!(r.forced_winners, ["mover"]);
    // unwinnable.kif: first chooses its 100.
    let r = run(&fixture("unwinnable.kif"), Options::default());
    assert_eq!(r.forced_winners, ["first"]);
}

// ---- sampled mode -----------------------------------------------------------------

#[test]
fn sampled_mode_refutes_with_real_counterexamples_only() {
    // The lecture's game with a budget of 1 state: the cycle is still found.
    let path = game("buttonsAndLights.kif");
    let r = run(
        &path,
        Options {
            playouts: 10,
            ..Options::with_budget(1)
        },
    );
    assert_eq!(r.mode, Mode::Sampled);
    assert_eq!(r.terminates.holds, Some(false));
    verify_counterexamples(&path, &r);
    for p in [&r.playable, &r.goals_defined] {
        assert_eq!(p.holds, None, "{p:?}");
    }
    // Goals missing in a terminal state, found by playouts.
    let path = fixture("goalless.kif");
    let r = run(
        &path,
        Options {
            playouts: 20,
            ..Options::with_budget(1)
        },
    );
    assert_eq!(r.mode, Mode::Sampled);
    assert_eq!(
        r.goals_defined.counterexample,
        Some(moves(&[&["(pick 2)", "noop"]]))
    );
    verify_counterexamples(&path, &r);
}

#[test]
fn sampled_mode_never_claims_universal_properties() {
    let path = corpus_game("games/repository/ticTacToe.kif", "ticTacToe.kif");
    let r = run(
        &path,
        Options {
            playouts: 20,
            playout_depth: 50,
            ..Options::with_budget(100)
        },
    );
    assert_eq!(r.mode, Mode::Sampled);
    for p in [&r.terminates, &r.playable, &r.goals_defined] {
        assert_eq!(p.holds, None, "{p:?}");
        assert!(
            p.detail
                .contains("no counterexample in 20 playouts of depth ≤ 50"),
            "{}",
            p.detail
        );
    }
    // Not monotone: refuted in the initial state, a real counterexample.
    assert_eq!(r.monotone.holds, Some(false));
    // Weak winnability has witnesses, a proof in any mode.
    assert_eq!(r.weakly_winnable.holds, Some(true));
    assert_eq!(r.strongly_winnable.holds, None);
    assert_eq!(r.well_formed(), None);
    assert!(r.states > 100);
    verify_counterexamples(&path, &r);
    let diags = to_diagnostics(&r);
    assert!(diags
        .iter()
        .any(|d| d.code == codes::SAMPLED && d.severity == Severity::Info));
}

// ---- the job API ------------------------------------------------------------------

#[test]
fn job_steps_with_progress_to_the_same_report() {
    let path = corpus_game("games/repository/ticTacToe.kif", "ticTacToe.kif");
    let mut job = AnalysisJob::new(load(&path), Options::default());
    let mut last = job.progress();
    assert_eq!(
        (last.phase, last.done, last.states),
        (Phase::Exploring, false, 0)
    );
    let mut steps = 0;
    let mut phases = vec![last.phase];
    while !last.done {
        let p = job.step(500);
        assert!(p.work >= last.work && p.states >= last.states);
        if *phases.last().unwrap() != p.phase {
            phases.push(p.phase);
        }
        last = p;
        steps += 1;
    }
    assert!(steps > 10, "{steps} steps");
    assert_eq!(phases, [Phase::Exploring, Phase::Checking, Phase::Done]);
    assert_eq!(last.states, 5478);
    let report = job.report().unwrap().clone();
    assert_eq!(report, run(&path, Options::default()));
    // Stepping a finished job is harmless.
    assert!(job.step(10).done);

    // Sampled mode goes through the sampling phase.
    let mut job = AnalysisJob::new(
        load(&path),
        Options {
            playouts: 5,
            ..Options::with_budget(50)
        },
    );
    let mut phases = vec![];
    loop {
        let p = job.step(7);
        if phases.last() != Some(&p.phase) {
            phases.push(p.phase);
        }
        if p.done {
            assert_eq!((p.mode, p.playouts, p.max_playouts), (Mode::Sampled, 5, 5));
            break;
        }
    }
    assert_eq!(
        phases,
        [
            Phase::Exploring,
            Phase::Checking,
            Phase::Sampling,
            Phase::Done
        ]
    );
}

#[test]
fn reports_are_reproducible_for_a_seed() {
    let path = corpus_game("games/ggp-base-test/connectFour.kif", "connectFour.kif");
    let opts = Options {
        playouts: 5,
        ..Options::with_budget(300)
    };
    let a = run(&path, opts.clone());
    let b = run(&path, opts);
    assert_eq!(a, b);
    assert_eq!(a.mode, Mode::Sampled);
}

// ---- diagnostics -------------------------------------------------------------------

#[test]
fn reports_become_diagnostics() {
    let codes_of = |name: &str| -> Vec<(&'static str, Severity)> {
        let path = if name.starts_with("games/") {
            root().join(name)
        } else {
            fixture(name)
        };
        let r = run(&path, Options::default());
        to_diagnostics(&r)
            .iter()
            .map(|d| (d.code, d.severity))
            .collect()
    };
    assert_eq!(
        codes_of("cycle.kif"),
        [(codes::NOT_TERMINATING, Severity::Error)]
    );
    assert_eq!(
        codes_of("unplayable.kif"),
        [(codes::NOT_PLAYABLE, Severity::Error)]
    );
    assert_eq!(
        codes_of("goalless.kif"),
        [
            (codes::GOALS_UNDEFINED, Severity::Error),
            (codes::NOT_MONOTONE, Severity::Warning)
        ]
    );
    assert_eq!(
        codes_of("nonMonotone.kif"),
        [(codes::NOT_MONOTONE, Severity::Warning)]
    );
    assert_eq!(
        codes_of("unwinnable.kif"),
        [(codes::NOT_WEAKLY_WINNABLE, Severity::Error)]
    );
    assert_eq!(
        codes_of("matchingPennies.kif"),
        [(codes::NOT_STRONGLY_WINNABLE, Severity::Info)]
    );
    assert!(codes_of("games/maze.kif").is_empty());

    let path = game("buttonsAndLights.kif");
    let text = std::fs::read_to_string(&path).unwrap();
    let r = run(&path, Options::default());
    let program = gdlkit::parse_program(&text);
    let diags = gdlkit::analysis::to_diagnostics_located(&r, &program);
    let d = diags
        .iter()
        .find(|d| d.code == codes::NOT_TERMINATING)
        .unwrap();
    assert!(d.is_error());
    assert_eq!(&text[d.span.range()], "terminal");
    assert_eq!(d.related.len(), 1);
    assert!(
        d.related[0]
            .message
            .contains("counterexample (1 joint move from the initial state): b"),
        "{:?}",
        d.related
    );
    let rendered = gdlkit::diagnostic::render(&diags, "buttonsAndLights.kif", &text, false);
    assert!(
        rendered.contains("error[GDL201]: the game does not terminate"),
        "{rendered}"
    );
}

// ---- the corpus: no false errors ------------------------------------------------
