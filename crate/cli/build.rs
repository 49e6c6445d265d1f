//! Embeds the game library (`games/*.kif` at the top of the repository) for
//! `gdlkit_cli::library`: writes `$OUT_DIR/library.rs`, a sorted list of
//! `(name, include_str!(path))`. The native binary and the npm package
//! carry it; the page's wasm, without the command line, fetches the games
//! as files.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../games");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<(String, String)> = Vec::new();
    if let Ok(entries) = std::fs::read_dir(&dir) {
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "kif") {
                let name = path.file_stem().unwrap().to_string_lossy().into_owned();
                println!("cargo:rerun-if-changed={}", path.display());
                names.push((name, path.display().to_string()));
            }
        }
    }
    names.sort();
    let mut out = String::from("/// The library's games: (name, KIF text), sorted by name.\n");
    out.push_str("pub(crate) static EMBEDDED: &[(&str, &str)] = &[\n");
    for (name, path) in &names {
        writeln!(out, "    ({name:?}, include_str!({path:?})),").unwrap();
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("library.rs");
    std::fs::write(dest, out).unwrap();
}
