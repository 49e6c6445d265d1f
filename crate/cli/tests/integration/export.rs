//! `gdlkit export` through the native binary: where it finds the standalone
//! template when `--template` is not given (beside itself first, then the
//! source tree's `pkg/`), and that it says so when there is none.

use std::path::{Path, PathBuf};
use std::process::Command;

const TREE: &str = "((3 12 8) (2 4 6) (14 5 2))";

/// A fresh scratch folder for this test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gdlkit-export-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

fn template(tag: &str) -> String {
    format!("<title><!--gdlkit:title--></title>\n<!--gdlkit:content-->\n<!--{tag}-->\n")
}

fn export(binary: &Path, dir: &Path, extra: &[&str]) -> std::process::Output {
    let mut tries = 0;
    loop {
        let out = Command::new(binary)
            .current_dir(dir)
            .args(["export", "--tree", TREE, "--out", "o.html"])
            .args(extra)
            .output();
        match out {
            // A binary just copied can be "busy" for a moment: another test
            // thread's child, forked while the copy was open for writing,
            // holds it until its own exec.
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 100 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            out => return out.expect("the gdlkit binary runs"),
        }
    }
}

#[test]
fn an_explicit_template_is_filled_in() {
    let dir = scratch("explicit");
    std::fs::write(dir.join("t.html"), template("explicit")).unwrap();
    let out = export(
        Path::new(env!("CARGO_BIN_EXE_gdlkit")),
        &dir,
        &["--template", "t.html"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(dir.join("o.html")).unwrap();
    assert!(
        html.contains(&format!("<gdl-tree tree=\"{TREE}\"></gdl-tree>")),
        "{html}"
    );
    assert!(html.contains("<!--explicit-->"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_template_beside_the_binary_comes_first() {
    let dir = scratch("beside");
    let binary = dir.join(if cfg!(windows) {
        "gdlkit.exe"
    } else {
        "gdlkit"
    });
    std::fs::copy(env!("CARGO_BIN_EXE_gdlkit"), &binary).expect("copy the binary");
    std::fs::write(dir.join("gdlkit-standalone.html"), template("beside")).unwrap();
    let out = export(&binary, &dir, &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(std::fs::read_to_string(dir.join("o.html"))
        .unwrap()
        .contains("<!--beside-->"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn without_a_template_beside_it_the_source_tree_build_or_a_clear_error() {
    let dir = scratch("default");
    let out = export(Path::new(env!("CARGO_BIN_EXE_gdlkit")), &dir, &[]);
    let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../pkg/gdlkit-standalone.html");
    if built.is_file() {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let html = std::fs::read_to_string(dir.join("o.html")).unwrap();
        assert!(html.contains("id=\"gdlkit-wasm\""), "the engine is inlined");
    } else {
        eprintln!(
            "note: {} is missing (no `npm run build`): checking the error",
            built.display()
        );
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("no standalone template"), "{stderr}");
        assert!(!dir.join("o.html").exists(), "nothing written");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
