//! Where the tests find games: the shared corpus beside the repository
//! (`../shared`, or `GDLKIT_SHARED`), which a plain clone does not have.
//! Every test that reads the corpus goes through this file. Tests that need
//! it skip with a notice (printed, and listed in
//! `target/tmp/skipped-corpus-tests.txt` for `npm test`'s summary); tests
//! that only need some games fall back to the project's own `games/`. A
//! corpus that is there but lacks a game, or has too few, fails the test:
//! nothing here lets a test pass without running.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The shared corpus, if it is there.
pub fn shared_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("GDLKIT_SHARED") {
        Some(d) => PathBuf::from(d),
        None => root().join("../shared"),
    };
    dir.join("games").is_dir().then_some(dir)
}

/// The shared corpus, or `None` after recording that `test` was skipped.
pub fn shared_or_skip(test: &str) -> Option<PathBuf> {
    let dir = shared_dir();
    if dir.is_none() {
        skipped(test);
    }
    dir
}

/// Records a test skipped for want of the corpus.
pub fn skipped(test: &str) {
    eprintln!("skipped (no ../shared corpus): {test}");
    let list = Path::new(env!("CARGO_TARGET_TMPDIR")).join("skipped-corpus-tests.txt");
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(list)
    {
        let _ = writeln!(f, "{test}");
    }
}

/// A folder of corpus games (e.g. `games/repository`), or the project's own
/// `games/` when the corpus is missing (with a notice).
pub fn games_dir(sub: &str, test: &str) -> PathBuf {
    match shared_dir() {
        Some(d) => d.join(sub),
        None => {
            eprintln!("{test}: no ../shared corpus, using the project's games/");
            root().join("games")
        }
    }
}

/// The text of the corpus game `games/repository/NAME`, or `None` after
/// recording that `test` was skipped (no corpus). A corpus without that
/// game is an error, not a skip.
pub fn game_or_skip(name: &str, test: &str) -> Option<String> {
    let path = shared_or_skip(test)?.join("games/repository").join(name);
    Some(std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// The text of a game: the corpus's `games/repository/NAME.kif`, else the
/// project's `games/NAME.kif`, else `None` after recording that `test` was
/// skipped (a game only the corpus has, and no corpus).
pub fn game_anywhere_or_skip(name: &str, test: &str) -> Option<String> {
    let file = format!("{name}.kif");
    let corpus = shared_dir().map(|d| d.join("games/repository").join(&file));
    let project = root().join("games").join(&file);
    if let Some(text) = corpus
        .iter()
        .chain([&project])
        .find_map(|p| std::fs::read_to_string(p).ok())
    {
        return Some(text);
    }
    assert!(
        corpus.is_none(),
        "{test}: {name} is in neither the corpus nor games/"
    );
    skipped(test);
    None
}

/// The `.kif` files of a corpus folder (`games/repository`,
/// `games/ggp-base-test`), sorted, or the project's own `games/` when the
/// corpus is missing; at least as many as such a folder has, so that a
/// test iterating them cannot pass over an empty or mistyped folder.
pub fn kif_files(sub: &str, test: &str) -> Vec<PathBuf> {
    let dir = games_dir(sub, test);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "kif"))
        .collect();
    files.sort();
    let floor = match (shared_dir(), sub) {
        (None, _) => 10,
        (Some(_), "games/repository") => 300,
        (Some(_), _) => 20,
    };
    assert!(
        files.len() >= floor,
        "{test}: only {} games in {} (at least {floor} expected)",
        files.len(),
        dir.display()
    );
    files
}
