//! Where the tests find games: the shared corpus beside the repository
//! (`../shared`, or `GDLKIT_SHARED`), which a plain clone does not have.
//! Tests that need it skip with a notice (printed, and listed in
//! `target/tmp/skipped-corpus-tests.txt` for `npm test`'s summary); tests
//! that only need some games fall back to the project's own `games/`.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
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
