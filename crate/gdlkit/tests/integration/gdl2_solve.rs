//! Solving GDL-II games over information sets (`docs/solve.md`):
//! Monty Hall's 2/3 by switching; Kuhn poker's −1/18 of a chip for the
//! first player by CFR+ with its exploitability measured; a game written
//! here whose value is brute-forced over every policy of the player; and
//! the games that are refused, each with its reason.

use gdlkit::engine::{Engine, EngineChoice, GroundBudget};
use gdlkit::solve::{solve_chance, ChanceLimits, ChanceSolution};
use gdlkit::{parse_program, Interpreter};
use std::path::{Path, PathBuf};

fn game_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../games")
        .join(name)
}

fn engine(text: &str) -> Engine {
    let program = parse_program(text);
    Engine::from_program(&program, EngineChoice::Auto, GroundBudget::default())
        .unwrap_or_else(|d| panic!("{}", d[0].message))
}

fn solve_text(text: &str, limits: &ChanceLimits) -> Result<ChanceSolution, String> {
    let program = parse_program(text);
    let mut m = Interpreter::new(&program).map_err(|d| d[0].message.clone())?;
    solve_chance(&mut m, limits).map_err(|r| r.to_string())
}

fn library(name: &str) -> String {
    std::fs::read_to_string(game_path(name)).unwrap()
}

#[test]
fn monty_hall_is_two_thirds_by_switching() {
    let text = library("montyHall.kif");
    let s = solve_chance(&mut engine(&text), &ChanceLimits::default()).unwrap();
    assert_eq!(s.method, "expectimax");
    assert!((s.values[0] - 200.0 / 3.0).abs() < 1e-9, "{:?}", s.values);
    // The last decisions, after the host opened a door, all switch.
    let last: Vec<_> = s.policy.iter().filter(|e| e.step == 3).collect();
    assert!(last.len() >= 2, "{:?}", s.policy);
    for e in last {
        assert!(e.history.contains("opened"), "{}", e.history);
        assert_eq!(e.moves.len(), 1);
        assert_eq!(e.moves[0].r#move, "switch", "{}", e.history);
    }
    // The interpreter agrees with the engine the game loads with.
    let i = solve_text(&text, &ChanceLimits::default()).unwrap();
    assert!((i.values[0] - s.values[0]).abs() < 1e-12);
}

/// Kuhn poker's goals are 50 plus 25 per chip won (kuhnPoker.kif).
fn chips(goal: f64) -> f64 {
    (goal - 50.0) / 25.0
}

#[test]
fn kuhn_poker_by_cfr_is_minus_one_eighteenth_of_a_chip() {
    let text = library("kuhnPoker.kif");
    let limits = ChanceLimits {
        iterations: Some(3000),
        ..ChanceLimits::default()
    };
    let s = solve_chance(&mut engine(&text), &limits).unwrap();
    assert_eq!(s.method, "cfr+");
    assert_eq!(s.iterations, 3000);
    assert_eq!(s.roles, ["first", "second"]);
    assert_eq!(s.information_sets, 12, "2 per card and role");
    assert!((s.values[0] + s.values[1] - 100.0).abs() < 1e-9);
    let v = chips(s.values[0]);
    assert!(
        (v + 1.0 / 18.0).abs() < 0.002,
        "first player's value {v} chips"
    );
    assert!(
        s.exploitability < 0.01,
        "exploitability {}",
        s.exploitability
    );
    // A best response never does worse than the strategy it answers.
    let br = s.best_responses.as_ref().unwrap();
    for (b, v) in br.iter().zip(&s.values) {
        assert!(*b >= v - 1e-9, "{br:?} {:?}", s.values);
    }
    assert!(
        (s.exploitability - ((br[0] - s.values[0]) + (br[1] - s.values[1])) / 2.0).abs() < 1e-9
    );
}

#[test]
fn few_cfr_iterations_are_measured_as_exploitable() {
    let text = library("kuhnPoker.kif");
    let limits = ChanceLimits {
        iterations: Some(1),
        ..ChanceLimits::default()
    };
    let s = solve_chance(&mut engine(&text), &limits).unwrap();
    assert!(
        s.exploitability > 0.5,
        "one iteration: {}",
        s.exploitability
    );
}

#[test]
fn meier_is_solved_to_a_small_exploitability() {
    let s = solve_chance(&mut engine(&library("meier.kif")), &ChanceLimits::default()).unwrap();
    assert!(s.complete, "{:?}", s.stopped);
    assert!(s.exploitability <= 0.001, "{}", s.exploitability);
    assert!((s.values[0] + s.values[1] - 100.0).abs() < 1e-9);
    // The first announcement knows the roll only: three information sets.
    let first: Vec<_> = s.policy.iter().filter(|e| e.step == 2).collect();
    assert_eq!(first.len(), 3, "one announcement per roll");
}

/// The guessing game's payoff: a call of the card's half (`lo`: 1–2,
/// `hi`: 3–4) made while chance draws it, then a guess after seeing
/// `(high)` when the card is 3 or 4.
fn payoff(call: &str, card: u32, guess: u32) -> u32 {
    let half = if card >= 3 { "hi" } else { "lo" };
    let called = if call == half { 40 } else { 0 };
    let guessed = if guess == card {
        60
    } else if guess == card + 1 {
        40
    } else {
        0
    };
    called + guessed
}

fn guessing_game() -> String {
    let mut t = String::from(
        "(role player) (role random)
         (init (step 1))
         (card 1) (card 2) (card 3) (card 4) (call lo) (call hi)
         (<= (legal random (draw ?c)) (true (step 1)) (card ?c))
         (<= (legal player (call ?h)) (true (step 1)) (call ?h))
         (<= (legal random noop) (true (step 2)))
         (<= (legal player (guess ?c)) (true (step 2)) (card ?c))
         (<= (sees player high) (does random (draw 3)))
         (<= (sees player high) (does random (draw 4)))
         (<= (next (card_is ?c)) (does random (draw ?c)))
         (<= (next (card_is ?c)) (true (card_is ?c)))
         (<= (next (called ?h)) (does player (call ?h)))
         (<= (next (called ?h)) (true (called ?h)))
         (<= (next (guessed ?g)) (does player (guess ?g)))
         (<= (next (step 2)) (true (step 1)))
         (<= (next (step 3)) (true (step 2)))
         (<= terminal (true (step 3)))
         (<= (goal player ?v) (true (called ?h)) (true (card_is ?c)) (true (guessed ?g))
             (pay ?h ?c ?g ?v))\n",
    );
    for call in ["lo", "hi"] {
        for c in 1..=4 {
            for g in 1..=4 {
                t.push_str(&format!("(pay {call} {c} {g} {})\n", payoff(call, c, g)));
            }
        }
    }
    t
}

#[test]
fn a_guessing_game_has_the_value_of_its_best_policy() {
    // Brute force: every policy is a call and one guess per percept (seen
    // `high` or not); its value is the mean payoff over the four cards.
    let mut best = 0.0f64;
    for call in ["lo", "hi"] {
        for low_guess in 1..=4 {
            for high_guess in 1..=4 {
                let total: u32 = (1..=4)
                    .map(|c| payoff(call, c, if c >= 3 { high_guess } else { low_guess }))
                    .sum();
                best = best.max(f64::from(total) / 4.0);
            }
        }
    }
    // Knowing the card would be worth more: the percepts matter.
    let informed: f64 = (1..=4)
        .map(|c| {
            ["lo", "hi"]
                .iter()
                .flat_map(|h| (1..=4).map(move |g| payoff(h, c, g)))
                .max()
                .unwrap()
        })
        .map(f64::from)
        .sum::<f64>()
        / 4.0;
    assert!(informed > best + 1.0, "{informed} {best}");
    let s = solve_text(&guessing_game(), &ChanceLimits::default()).unwrap();
    assert!(
        (s.values[0] - best).abs() < 1e-9,
        "{} vs {best}",
        s.values[0]
    );
    assert_eq!(
        s.information_sets, 5,
        "the call, a guess per call and percept"
    );
}

fn refusal(text: &str, limits: &ChanceLimits) -> String {
    match solve_text(text, limits) {
        Ok(s) => panic!("solved: {:?}", s.values),
        Err(e) => e,
    }
}

#[test]
fn what_cannot_be_solved_is_refused_with_the_reason() {
    let three = "(role a) (role b) (role c) (role random) (init (s 1))
        (<= (legal ?r go) (role ?r) (distinct ?r random)) (<= (legal random noop))
        (<= (sees a x) (does b go)) (<= (next (s 2)) (true (s 1)))
        (<= terminal (true (s 2))) (<= (goal ?r 50) (role ?r) (distinct ?r random))";
    let e = refusal(three, &ChanceLimits::default());
    assert!(e.contains("3 roles besides random"), "{e}");

    let both_win = "(role a) (role b) (role random) (init (s 1))
        (<= (legal random (coin ?x)) (true (s 1)) (side ?x)) (side h) (side t)
        (<= (legal a noop)) (<= (legal b noop))
        (<= (sees a ?x) (does random (coin ?x)))
        (<= (next (c ?x)) (does random (coin ?x))) (<= (next (s 2)) (true (s 1)))
        (<= terminal (true (s 2)))
        (<= (goal a 100) (true (c h))) (<= (goal b 100) (true (c h)))
        (<= (goal a 0) (true (c t))) (<= (goal b 100) (true (c t)))";
    let e = refusal(both_win, &ChanceLimits::default());
    assert!(e.contains("do not sum to one constant"), "{e}");

    let kuhn = library("kuhnPoker.kif");
    let small = ChanceLimits {
        max_nodes: 20,
        ..ChanceLimits::default()
    };
    let e = refusal(&kuhn, &small);
    assert!(e.contains("more than 20 nodes"), "{e}");

    // The legal moves would tell the player the hidden coin.
    let revealing = "(role p) (role random) (init (s 1)) (side h) (side t)
        (<= (legal random (coin ?x)) (true (s 1)) (side ?x)) (<= (legal random noop) (true (s 2)))
        (<= (legal p noop) (true (s 1)))
        (<= (legal p a) (true (s 2))) (<= (legal p b) (true (s 2)) (true (c h)))
        (<= (next (c ?x)) (does random (coin ?x))) (<= (next (c ?x)) (true (c ?x)))
        (<= (next (s 2)) (true (s 1))) (<= (next (s 3)) (true (s 2)))
        (<= (next (picked ?m)) (does p ?m)) (<= terminal (true (s 3)))
        (<= (goal p 100) (true (picked b))) (<= (goal p 0) (true (picked a)))";
    let e = refusal(revealing, &ChanceLimits::default());
    assert!(e.contains("cannot tell apart"), "{e}");
}

// ---- the CLI -----------------------------------------------------------------------

use crate::common::cli::run as cli;

#[test]
fn cli_solve_dispatches_gdl2_games() {
    let monty = game_path("montyHall.kif");
    let out = cli(&["solve", monty.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("candidate 66.667"), "{}", out.stdout);
    assert!(out.stdout.contains(": switch"), "{}", out.stdout);

    let kuhn = game_path("kuhnPoker.kif");
    let out = cli(&[
        "solve",
        kuhn.to_str().unwrap(),
        "--format",
        "json",
        "--iterations",
        "500",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["iterations"], 500);
    assert_eq!(v["method"], "cfr+");
    let first = v["values"][0].as_f64().unwrap();
    assert!((chips(first) + 1.0 / 18.0).abs() < 0.05, "{first}");
    assert!(v["exploitability"].as_f64().unwrap() >= 0.0);

    let out = cli(&["solve", kuhn.to_str().unwrap(), "--max-nodes", "10"]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("node limit"), "{}", out.stderr);
    let out = cli(&["solve", kuhn.to_str().unwrap(), "--symbolic"]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("GDL-II"), "{}", out.stderr);
}
