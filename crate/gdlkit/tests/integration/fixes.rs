//! Quick fixes: every fixable diagnostic carries edits that, applied, make
//! it disappear (one sample per code, and every fix found in the shared
//! corpus when `../shared` is present); `gdlkit check --fix` rewrites the
//! file and says what it did.

use gdlkit::diagnostic::Diagnostic;
use gdlkit::fix::{apply_edits, fix_text};
use std::collections::HashMap;

use crate::common::corpus;

const GAME: &str = "(role x)\n(init (p 1))\n(<= (legal x noop) (true (p 1)))\n(<= (next (p 1)) (true (p 1)))\n(<= (goal x 100) (true (p 1)))\n";

/// One text per fixable code that has that diagnostic.
const SAMPLES: &[(&str, &str)] = &[
    ("GDL001", "(<= terminal (true (p 1))))\n"),
    (
        "GDL002",
        "(<= terminal (true (p 1))\n\n(<= (goal x 0) (true (p 2)))\n",
    ),
    ("GDL003", "(<= terminal (true (p ?)))\n"),
    ("GDL011", "(:- terminal (true (p 1)))\n"),
    (
        "GDL103",
        "(<= terminal (lne 1))\n(<= (line ?x) (true (p ?x)))\n",
    ),
    ("GDL107", "(<= (terminal) (true (p 1)))\n"),
    ("GDL107", "(<= terminal (true (p 1)) (true (q)))\n"),
    (
        "GDL109",
        "(<= terminal (true (p 1)))\n(<= terminal (true (p 1)))\n",
    ),
    ("GDL111", "(<= terminal)\n"),
];

fn count(diags: &[Diagnostic], code: &str) -> usize {
    diags.iter().filter(|d| d.code == code).count()
}

/// Applies the first fix of the first diagnostic with `code`; returns the
/// text after it.
fn apply_first(text: &str, code: &str) -> Option<String> {
    let diags = gdlkit::check_text(text);
    let d = diags.iter().find(|d| d.code == code)?;
    let fix = d.fixes.first()?;
    Some(apply_edits(text, &fix.edits))
}

#[test]
fn each_fix_removes_its_diagnostic() {
    let mut codes = Vec::new();
    for (code, extra) in SAMPLES {
        let text = format!("{GAME}{extra}");
        let before = count(&gdlkit::check_text(&text), code);
        assert!(before > 0, "{code}: the sample has no {code}:\n{text}");
        let after_text = apply_first(&text, code).unwrap_or_else(|| panic!("{code} has no fix"));
        let after = gdlkit::check_text(&after_text);
        assert_eq!(
            count(&after, code),
            before - 1,
            "{code}: the fix did not remove it:\n{after_text}"
        );
        assert!(
            !gdlkit::diagnostic::has_errors(&after),
            "{code}: the fixed text has errors: {after:?}\n{after_text}"
        );
        codes.push(*code);
    }
    codes.dedup();
    assert_eq!(codes.len(), 8, "every fixable code has a sample");
}

#[test]
fn fix_text_fixes_everything_and_reports_it() {
    let text: String = std::iter::once(GAME)
        .chain(
            SAMPLES
                .iter()
                .filter(|(c, _)| *c != "GDL002")
                .map(|(_, t)| *t),
        )
        .collect();
    let safe = fix_text(&text, false);
    let left = gdlkit::check_text(&safe.text);
    assert!(!gdlkit::diagnostic::has_errors(&left), "{}", safe.text);
    assert!(
        left.iter().all(|d| d.fixes.iter().all(|f| !f.safe)),
        "{left:?}"
    );
    assert_eq!(
        count(&left, "GDL103"),
        1,
        "a guess waits for --unsafe-fixes"
    );
    let all = fix_text(&text, true);
    let left = gdlkit::check_text(&all.text);
    assert!(
        left.iter().all(|d| d.fixes.is_empty()),
        "{left:?}\n{}",
        all.text
    );
    assert!(all.applied.len() >= 8, "{:?}", all.applied);
    assert!(all.text.contains("(line 1)"), "{}", all.text);
}

/// Every fix offered on the shared corpus removes its diagnostic (as many
/// as the corpus has; the floor is that the corpus has some).
#[test]
fn corpus_fixes_remove_their_diagnostics() {
    let Some(shared) = corpus::shared_or_skip("fixes: corpus_fixes_remove_their_diagnostics")
    else {
        return;
    };
    let dir = shared.join("games");
    let mut files = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "kif") {
                files.push(p);
            }
        }
    }
    let mut tried: HashMap<&'static str, usize> = HashMap::new();
    for path in &files {
        let text = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
        let diags = gdlkit::check_text(&text);
        for d in diags.iter().filter(|d| !d.fixes.is_empty()).take(3) {
            let after = gdlkit::check_text(&apply_edits(&text, &d.fixes[0].edits));
            let same = |x: &&Diagnostic| x.code == d.code && x.message == d.message;
            assert!(
                after.iter().filter(same).count() < diags.iter().filter(same).count(),
                "{}: {} `{}` is still there after `{}`",
                path.display(),
                d.code,
                d.message,
                d.fixes[0].title
            );
            *tried.entry(d.code).or_default() += 1;
        }
    }
    eprintln!("fixes tried on the corpus: {tried:?}");
    assert!(files.len() >= 300, "only {} corpus games", files.len());
    assert!(tried.values().sum::<usize>() >= 5, "{tried:?}");
}

struct Files(HashMap<String, String>);
impl gdlkit_cli::cli::Host for Files {
    fn read_file(&mut self, path: &str) -> Result<String, String> {
        self.0.get(path).cloned().ok_or_else(|| "missing".into())
    }
    fn write_file(&mut self, path: &str, text: &str) -> Result<(), String> {
        self.0.insert(path.into(), text.into());
        Ok(())
    }
    fn stdout_is_terminal(&self) -> bool {
        false
    }
}

#[test]
fn check_fix_rewrites_the_file_and_says_what_it_did() {
    for (code, extra) in SAMPLES {
        let text = format!("{GAME}{extra}");
        let mut host = Files(HashMap::from([("g.kif".to_string(), text.clone())]));
        let args: Vec<String> = [
            "check",
            "g.kif",
            "--fix",
            "--unsafe-fixes",
            "--format",
            "json",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let out = gdlkit_cli::cli::run(&args, &mut host);
        assert_eq!(out.code, 0, "{code}: {}{}", out.stdout, out.stderr);
        let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        assert!(
            v["fixed"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f["code"] == *code),
            "{code}: {v}"
        );
        let written = &host.0["g.kif"];
        assert_eq!(
            count(&gdlkit::check_text(written), code),
            0,
            "{code}: {written}"
        );
        assert!(v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["code"] != *code));
    }
    // Without --fix the text output counts the fixable problems.
    let mut host = Files(HashMap::from([(
        "g.kif".to_string(),
        format!("{GAME}(<= terminal)\n"),
    )]));
    let out = gdlkit_cli::cli::run(&["check".to_string(), "g.kif".to_string()], &mut host);
    assert!(
        out.stdout.contains("(1 fixable with --fix)"),
        "{}",
        out.stdout
    );
}
