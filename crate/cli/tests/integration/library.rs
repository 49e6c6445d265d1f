//! The game library (`games/`): every game has a complete header, checks
//! without errors, is well-formed as far as a bounded analysis can tell
//! (nothing refuted, every role reaches its best goal; a game whose header
//! says `Well-formed: no` is refuted), and draws the board its header
//! names. The embedded list (`gdlkit_cli::library`) is the directory.

use gdlkit::analysis::{analyze, Options};
use gdlkit::engine::{load_engine_with, GroundBudget};
use gdlkit::replay::{replay, Step};
use gdlkit::structure;
use gdlkit::{load_game, parse_program, Engine, EngineChoice, Severity};
use gdlkit_cli::library::{self, CATEGORIES};
use std::path::Path;

/// The floor the library promises.
const AT_LEAST: usize = 30;

fn files() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../games");
    let mut games: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("games/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "kif"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).expect("readable"))
        })
        .collect();
    games.sort();
    games
}

/// Whether the header (the leading comment lines) has a `Board:` line.
fn names_board(text: &str) -> bool {
    text.lines().take_while(|l| l.starts_with(';')).any(|l| {
        l.trim_start_matches(';')
            .trim_start()
            .starts_with("Board: ")
    })
}

#[test]
fn embedded_list_is_the_directory() {
    let files = files();
    assert!(
        files.len() >= AT_LEAST,
        "{} games, fewer than {AT_LEAST}",
        files.len()
    );
    let embedded: Vec<String> = library::games().into_iter().map(|g| g.name).collect();
    let names: Vec<String> = files.iter().map(|(n, _)| n.clone()).collect();
    assert_eq!(embedded, names);
    for (name, text) in &files {
        assert_eq!(library::text(name), Some(text.as_str()), "{name}");
    }
}

#[test]
fn every_header_is_complete() {
    for (name, text) in files() {
        let h = library::parse_header(&text);
        assert!(
            !h.title.is_empty() && h.title.len() <= 60,
            "{name}: title {:?}",
            h.title
        );
        let category = h
            .category
            .as_deref()
            .unwrap_or_else(|| panic!("{name}: no Category"));
        assert!(
            CATEGORIES.contains(&category),
            "{name}: category {category:?}"
        );
        assert!(h.credit.is_some_and(|c| !c.is_empty()), "{name}: no Credit");
        let description = h
            .description
            .unwrap_or_else(|| panic!("{name}: no Description"));
        assert!(
            description.len() >= 60,
            "{name}: a one-paragraph description, not {description:?}"
        );
        assert!(
            names_board(&text),
            "{name}: no `Board:` line (a fluent, or none)"
        );
    }
}

/// Grounding is given 5 s (the default is 20 s): a game that does not
/// ground by then runs on the interpreter, with a smaller analysis.
fn engine(text: &str) -> Engine {
    let budget = GroundBudget {
        max_ms: 5000.0,
        ..GroundBudget::default()
    };
    load_engine_with(text, EngineChoice::Auto, budget).expect("loads")
}

#[test]
fn every_game_checks_analyzes_and_draws_its_board() {
    let mut analysed = 0;
    for (name, text) in files() {
        let errors: Vec<_> = gdlkit::check_text(&text)
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
        let header = library::parse_header(&text);
        let mut m = engine(&text);
        let interpreted = m.fallback().is_some();

        if let Some(board) = &header.board {
            let o = structure::Options {
                seed: 1,
                max_states: 300,
                max_ms: 20_000.0,
            };
            let st = structure::find(&parse_program(&text), &mut m, o).expect("structure");
            let found: Vec<&str> = st.boards.iter().map(|b| b.fluent.as_str()).collect();
            assert!(
                found.contains(&board.as_str()),
                "{name}: board {board} not among {found:?}"
            );
        }

        let mut options = Options::with_budget(if interpreted { 2_000 } else { 20_000 });
        options.playouts = if interpreted { 1 } else { 30 };
        options.playout_depth = 500;
        let report = analyze(m, options);
        if !header.well_formed {
            assert!(
                report.ill_formed(),
                "{name}: said not to be well-formed, but nothing is refuted"
            );
        } else {
            assert!(!report.ill_formed(), "{name}: {:#}", report.to_json());
            // A random playout of chess rarely ends in a mate within its
            // 100 moves: its wins are replayed in its own tests below.
            if name != "chess" {
                assert_eq!(
                    report.weakly_winnable.holds,
                    Some(true),
                    "{name}: no role-by-role witness of the best goal: {}",
                    report.weakly_winnable.detail
                );
            }
        }
        analysed += 1;
    }
    assert!(analysed >= AT_LEAST, "only {analysed} games analysed");
}

fn game(name: &str) -> String {
    library::text(name)
        .unwrap_or_else(|| panic!("{name} is in the library"))
        .to_string()
}

/// Plays alternating moves (white first; the other role plays noop) and
/// returns the last step.
fn play(name: &str, moves: &[&str]) -> Step {
    let mut m = load_game(&game(name)).expect("loads");
    let joint: Vec<Vec<String>> = moves
        .iter()
        .enumerate()
        .map(|(i, mv)| {
            let (a, b) = if i % 2 == 0 {
                (*mv, "noop")
            } else {
                ("noop", *mv)
            };
            vec![a.to_string(), b.to_string()]
        })
        .collect();
    let r = replay(&mut m, &joint).unwrap_or_else(|e| panic!("{name}: {e}"));
    r.steps.last().expect("a step").clone()
}

fn has(step: &Step, fluent: &str) -> bool {
    step.state.iter().any(|f| f == fluent)
}

#[test]
fn chess_fools_mate_wins_for_black() {
    // 1. f3 e5 2. g4 Qh4#
    let s = play(
        "chess",
        &[
            "(move 6 2 6 3)",
            "(move 5 7 5 5)",
            "(move 7 2 7 4)",
            "(move 4 8 8 4)",
        ],
    );
    assert!(s.terminal);
    assert_eq!(s.goals, vec![vec![0], vec![100]]);
}

#[test]
fn chess_check_must_be_answered_and_pins_hold() {
    // 1. e4 d6 2. Bb5+: a6 does not answer the check, c6 and Nd7 do.
    let s = play(
        "chess",
        &["(move 5 2 5 4)", "(move 4 7 4 6)", "(move 6 1 2 5)"],
    );
    let black = &s.legal[1];
    assert!(!black.contains(&"(move 1 7 1 6)".to_string()), "{black:?}");
    assert!(black.contains(&"(move 3 7 3 6)".to_string()));
    assert!(black.contains(&"(move 2 8 4 7)".to_string()));
    // 2... Nd7 3. a3: the knight on d7 is pinned to the king.
    let s = play(
        "chess",
        &[
            "(move 5 2 5 4)",
            "(move 4 7 4 6)",
            "(move 6 1 2 5)",
            "(move 2 8 4 7)",
            "(move 1 2 1 3)",
        ],
    );
    assert!(
        !s.legal[1].iter().any(|m| m.starts_with("(move 4 7 ")),
        "{:?}",
        s.legal[1]
    );
}

#[test]
fn chess_castling_en_passant_and_promotion() {
    // 1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O
    let before = [
        "(move 5 2 5 4)",
        "(move 5 7 5 5)",
        "(move 7 1 6 3)",
        "(move 2 8 3 6)",
        "(move 6 1 3 4)",
        "(move 6 8 3 5)",
    ];
    let s = play("chess", &before);
    assert!(
        s.legal[0].contains(&"(move 5 1 7 1)".to_string()),
        "{:?}",
        s.legal[0]
    );
    let mut castle = before.to_vec();
    castle.push("(move 5 1 7 1)");
    let s = play("chess", &castle);
    assert!(has(&s, "(cell 7 1 wk)") && has(&s, "(cell 6 1 wr)") && has(&s, "(cell 8 1 b)"));
    assert!(!has(&s, "(castling white king)") && has(&s, "(castling black king)"));
    // 1. e4 a6 2. e5 d5 3. exd6 e.p. removes the pawn on d5.
    let s = play(
        "chess",
        &[
            "(move 5 2 5 4)",
            "(move 1 7 1 6)",
            "(move 5 4 5 5)",
            "(move 4 7 4 5)",
            "(move 5 5 4 6)",
        ],
    );
    assert!(
        has(&s, "(cell 4 6 wp)") && has(&s, "(cell 4 5 b)"),
        "{:?}",
        s.state
    );
    // 1. h4 g5 2. hxg5 h6 3. gxh6 Bg7 4. hxg7 Nf6 5. gxh8=Q
    let s = play(
        "chess",
        &[
            "(move 8 2 8 4)",
            "(move 7 7 7 5)",
            "(move 8 4 7 5)",
            "(move 8 7 8 6)",
            "(move 7 5 8 6)",
            "(move 6 8 7 7)",
            "(move 8 6 7 7)",
            "(move 7 8 6 6)",
            "(promote 7 7 8 8 queen)",
        ],
    );
    assert!(
        has(&s, "(cell 8 8 wq)") && has(&s, "(cell 7 7 b)"),
        "{:?}",
        s.state
    );
}
