//! The fuzzy heuristic's values, pinned: for each game below, the states of
//! two seeded random playouts are evaluated and every value (all roles, to
//! the last bit) must equal the fixture `fixtures/fuzzy-values.txt`, written
//! by the heuristic before its formulas were built through the interpreter's
//! compiled rules. A game whose heuristic cannot be built pins its error.
//! `GDLKIT_UPDATE_FUZZY=1` rewrites the fixture (only after a deliberate
//! change of the heuristic).
//!
//! Corpus games skip with a notice when `../shared` is missing.

use crate::common;

use gdlkit::reasoner::random_index;
use gdlkit::search::fuzzy::FuzzyHeuristic;
use gdlkit::{Interpreter, StateMachine};
use std::fmt::Write;
use std::path::Path;

/// Boards, counters, recursion (hanoi, ruleDepthLinear), three roles,
/// simultaneous moves, and games whose relaxed grounding is large.
const GAMES: &[&str] = &[
    "ticTacToe",
    "connectFour",
    "3pConnectFour",
    "breakthroughSmall",
    "checkersTiny",
    "knightThrough",
    "sheepAndWolf",
    "pentago",
    "hanoi",
    "eightPuzzle",
    "nim1",
    "blocksWorld",
    "dotsAndBoxes",
    "chineseCheckers3",
    "ruleDepthLinear",
    "ticTacToeParallel",
    "racetrackcorridor",
    "mummymaze1p",
    "sudoku",
    "maze",
    "othello-comp2007",
    "checkers",
    "pacman3p",
    "kalaha_2009",
    "tictactoe_3d_small_2player",
    "firefighter",
    "amazons_8x8",
    "pancakes",
    "lightsOn",
];
const SEEDS: [u64; 2] = [1, 7];
const MAX_STEPS: usize = 25;

fn fixture() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fuzzy-values.txt")
}

/// The lines of one game: `game seed step v1 v2 …` (values in `{:?}`, which
/// round-trips an f64 exactly), or `game error MESSAGE`.
fn record(name: &str, text: &str) -> Vec<String> {
    let program = gdlkit::parse_program(text);
    let mut m = Interpreter::new(&program).unwrap();
    let mut h = match FuzzyHeuristic::build(&program, &mut m) {
        Ok(h) => h,
        Err(e) => return vec![format!("{name} error {e}")],
    };
    let mut out = Vec::new();
    for seed in SEEDS {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut s = m.initial_state().unwrap();
        for step in 0..MAX_STEPS {
            let mut fl = m.fluents(&s);
            fl.sort_unstable();
            let mut line = format!("{name} {seed} {step}");
            for v in h.values(m.terms(), &fl) {
                write!(line, " {v:?}").unwrap();
            }
            out.push(line);
            if m.is_terminal(&s).unwrap() {
                break;
            }
            let moves = m.all_legal_moves(&s).unwrap();
            let joint: Vec<_> = moves
                .iter()
                .map(|l| l[random_index(&mut rng, l.len())])
                .collect();
            s = m.next_state(&s, &joint).unwrap();
        }
    }
    out
}

#[test]
fn fuzzy_values_match_the_fixture() {
    let update = std::env::var_os("GDLKIT_UPDATE_FUZZY").is_some();
    let expected = std::fs::read_to_string(fixture()).unwrap_or_default();
    let mut got = Vec::new();
    for name in GAMES {
        let test = "fuzzy_values: fuzzy_values_match_the_fixture";
        let Some(text) = common::corpus::game_or_skip(&format!("{name}.kif"), test) else {
            return; // no corpus: listed in `npm test`'s summary
        };
        got.extend(record(name, &text));
    }
    if update {
        std::fs::write(fixture(), got.join("\n") + "\n").unwrap();
        return;
    }
    let want: Vec<&str> = expected.lines().collect();
    // Floors: the fixture covers the games and many states.
    assert!(want.len() >= 300, "fixture has only {} lines", want.len());
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "line {} of fuzzy-values.txt", i + 1);
    }
    assert_eq!(got.len(), want.len(), "number of evaluated states");
}
