//! No public function of the library crates returns `Result<_, String>`:
//! each crate reports failures with its own error types (`gdlkit::error`),
//! and only the command line and the bindings turn them into messages. A
//! textual scan of the sources: every `pub fn` (not `pub(crate)` or
//! `pub(super)`) whose return type holds a `Result` with `String` as its
//! error, and every `FromStr` with `type Err = String`.

use std::path::{Path, PathBuf};

/// The library crates' sources.
const ROOTS: [&str; 5] = [
    "lang/src",
    "engine/src",
    "play/src",
    "ggp/src",
    "gdlkit/src",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The index of the bracket that closes the one at `open` (`<>` or `()`).
fn closing(s: &[u8], open: usize) -> Option<usize> {
    let (o, c) = (s[open], if s[open] == b'<' { b'>' } else { b')' });
    let mut depth = 0usize;
    for (i, &b) in s.iter().enumerate().skip(open) {
        if b == o {
            depth += 1;
        } else if b == c && !(c == b'>' && i > 0 && s[i - 1] == b'-') {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// Whether a return type holds a `Result` whose error is `String`.
fn has_string_error(ret: &str) -> bool {
    let b = ret.as_bytes();
    let mut from = 0;
    while let Some(k) = ret[from..].find("Result<") {
        let open = from + k + "Result".len();
        let Some(close) = closing(b, open) else {
            return false;
        };
        // The arguments at the top level of `Result<…>`.
        let mut depth = 0i32;
        let mut last = open + 1;
        for (i, c) in b.iter().enumerate().take(close).skip(open + 1) {
            match c {
                b'<' | b'(' | b'[' => depth += 1,
                b'>' | b')' | b']' => depth -= 1,
                b',' if depth == 0 => last = i + 1,
                _ => {}
            }
        }
        let error = ret[last..close].trim();
        if last > open + 1 && matches!(error, "String" | "std::string::String") {
            return true;
        }
        from = open;
    }
    false
}

/// The `pub fn` signatures of `text` that return a `String` error, and its
/// `type Err = String`, as (line, text).
fn offenders(text: &str) -> Vec<(usize, String)> {
    // Comments (documentation examples among them) are not code.
    let code: String = text
        .lines()
        .map(|l| {
            if l.trim_start().starts_with("//") {
                ""
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let line_of = |i: usize| code[..i].matches('\n').count() + 1;
    let b = code.as_bytes();
    let mut out = Vec::new();
    for (i, _) in code.match_indices("pub ") {
        if i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_') {
            continue;
        }
        let rest = code[i + 4..].trim_start();
        let rest = ["const ", "async ", "unsafe "]
            .iter()
            .fold(rest, |r, q| r.strip_prefix(q).unwrap_or(r).trim_start());
        if !rest.starts_with("fn ") {
            continue;
        }
        let start = code.len() - rest.len();
        let Some(open) = code[start..].find('(').map(|k| start + k) else {
            continue;
        };
        let Some(close) = closing(b, open) else {
            continue;
        };
        let end = code[close..]
            .find(['{', ';'])
            .map_or(code.len(), |k| close + k);
        let tail = &code[close + 1..end];
        let Some(ret) = tail.trim_start().strip_prefix("->") else {
            continue;
        };
        let words: Vec<&str> = ret.split_whitespace().collect();
        let ret = words
            .iter()
            .take_while(|w| **w != "where")
            .copied()
            .collect::<Vec<_>>()
            .join(" ");
        if has_string_error(&ret) {
            let sig: Vec<&str> = code[i..end].split_whitespace().collect();
            out.push((line_of(i), sig.join(" ")));
        }
    }
    for (i, _) in code.match_indices("type Err = String") {
        out.push((line_of(i), "type Err = String".into()));
    }
    out
}

#[test]
fn the_scan_finds_string_errors() {
    let bad = "impl X {\n    pub fn a(&self) -> Result<u8, String> {\n        todo!()\n    }\n}\n\
               pub fn b<M: Clone>(\n    m: &mut M,\n) -> Option<Result<Vec<Vec<String>>, String>>\nwhere M: Send\n{}\n\
               impl FromStr for Y {\n    type Err = String;\n}\n";
    let found: Vec<usize> = offenders(bad).into_iter().map(|(l, _)| l).collect();
    assert_eq!(found, vec![2, 6, 12], "{:?}", offenders(bad));
    let good = "pub fn a() -> Result<String, E> {}\n\
                pub(crate) fn b() -> Result<u8, String> {}\n\
                fn c() -> Result<u8, String> {}\n\
                /// pub fn d() -> Result<u8, String>\n\
                pub fn e(f: impl Fn() -> Result<u8, String>) -> u8 {}\n\
                pub fn g() -> Result<Vec<String>, Error> {}\n";
    assert_eq!(offenders(good), Vec::new());
}

#[test]
fn no_public_function_of_the_libraries_returns_a_string_error() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for root in ROOTS {
        rust_files(&crates.join(root), &mut files);
    }
    assert!(files.len() > 100, "only {} source files found", files.len());
    let mut found = Vec::new();
    for path in &files {
        let rel = path
            .strip_prefix(&crates)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(path).unwrap();
        let hits = offenders(&text);
        found.extend(
            hits.into_iter()
                .map(|(line, sig)| format!("{rel}:{line}: {sig}")),
        );
    }
    assert!(
        found.is_empty(),
        "public functions with a String error (give them a typed error):\n{}",
        found.join("\n")
    );
}
