use crate::ground::{ground_program_with_strategy, rules::Strategy, Budget};
use std::path::PathBuf;

const GAME: &str = include_str!("../../../testdata/typed_game.kif");

/// The atoms of legal, next, goal and terminal, as text, sorted, and
/// the number of rule instances.
fn roots(text: &str, untyped: bool) -> (Vec<String>, usize) {
    try_roots(text, untyped).expect("grounds")
}

/// [`roots`], or `None` when the game does not ground within the
/// default budget (full chess).
fn try_roots(text: &str, untyped: bool) -> Option<(Vec<String>, usize)> {
    let program = crate::parse_program(text);
    let strategy = Strategy {
        untyped,
        ..Strategy::default()
    };
    let gp = ground_program_with_strategy(&program, Budget::default(), strategy).ok()?;
    let mut out = Vec::new();
    for r in [gp.rel_legal, gp.rel_next, gp.rel_goal, gp.rel_terminal]
        .into_iter()
        .flatten()
    {
        for &a in &gp.rels[r].rows {
            let args: Vec<String> = gp
                .atoms
                .args(a)
                .iter()
                .map(|&t| gp.store.display(t))
                .collect();
            out.push(format!("{r} {}", args.join(" ")));
        }
    }
    out.sort();
    // Instances, not atoms: the filters' own rows are atoms.
    Some((out, gp.inst.len()))
}

/// Typing drops the mixed file/rank instances and keeps every atom of the
/// game's outputs.
#[test]
fn typed_grounding_drops_atoms_but_keeps_the_outputs() {
    let (typed, n_typed) = roots(GAME, false);
    let (plain, n_plain) = roots(GAME, true);
    assert!(typed.len() > 10, "too few outputs: {typed:?}");
    assert_eq!(typed, plain);
    // watched: 9 marks x 6 x 6 ignored cells untyped, 9 x 3 x 3 typed.
    assert!(
        n_typed + 200 <= n_plain,
        "typed {n_typed} instances, untyped {n_plain}"
    );
}

/// Every reachable state of the test game: the typed network answers
/// as the interpreter (legal moves, terminal, goals, next states).
#[test]
fn typed_network_agrees_with_the_interpreter_on_every_state() {
    let seen = crate::ground::agreement::agrees_on_every_state(GAME, Strategy::default());
    assert!(seen.states >= 30, "only {} states", seen.states);
}

fn shared_games() -> Option<PathBuf> {
    let dir = std::env::var_os("GDLKIT_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"))
        .join("games/repository");
    dir.is_dir().then_some(dir)
}

/// The project's games and corpus games with typed positions: the same
/// outputs typed and untyped, never more rule instances.
#[test]
fn typed_and_untyped_groundings_have_the_same_outputs() {
    let mut texts: Vec<(String, String)> = Vec::new();
    let games = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../games");
    for e in std::fs::read_dir(&games).expect("games/") {
        let p = e.expect("entry").path();
        if p.extension().is_some_and(|x| x == "kif") {
            texts.push((
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            ));
        }
    }
    match shared_games() {
        Some(dir) => {
            for name in CORPUS {
                let p = dir.join(format!("{name}.kif"));
                texts.push((name.to_string(), std::fs::read_to_string(&p).unwrap()));
            }
        }
        None => eprintln!("skipped: the corpus games (../shared is missing)"),
    }
    let (mut smaller, mut compared) = (0, 0);
    for (name, text) in &texts {
        // Untyped grounding is the larger: a game it cannot ground
        // within the budget is left out.
        let Some((plain, n_plain)) = try_roots(text, true) else {
            eprintln!("skipped: {name} does not ground untyped");
            continue;
        };
        let (typed, n_typed) = roots(text, false);
        compared += 1;
        assert_eq!(typed, plain, "{name}");
        assert!(
            n_typed <= n_plain,
            "{name}: {n_typed} > {n_plain} instances"
        );
        smaller += usize::from(n_typed < n_plain);
    }
    assert!(compared >= 8, "only {compared} games compared");
    assert!(smaller >= 1, "typing dropped no instance in any game");
}

/// Corpus games whose typing drops atoms (and two where it does not).
const CORPUS: &[&str] = &["ticTacToe", "connectFour"];
