//! `js/types.d.ts` is what the Rust types generate (`crate::typescript`).
//! `UPDATE_TYPES=1` rewrites it (what `node scripts/types.mjs` does).
#![cfg(feature = "typescript")]

use std::path::PathBuf;

#[test]
fn generated_types_are_current() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../js/types.d.ts");
    let want = gdlkit_wasm::typescript::declarations();
    if std::env::var_os("UPDATE_TYPES").is_some() {
        std::fs::write(&path, &want).expect("write js/types.d.ts");
        return;
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "js/types.d.ts is not what the Rust types generate: run `node scripts/types.mjs`"
    );
    // Not vacuous: the file declares the bindings' main types.
    for t in [
        "SearchOptions",
        "SearchResult",
        "Diagnostic",
        "MatchResult",
        "Explanation",
    ] {
        assert!(want.contains(&format!("export type {t} ")), "{t} missing");
    }
}
