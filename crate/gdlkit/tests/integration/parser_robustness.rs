//! The parser never panics and never hangs: random text and mutated corpus
//! files go through syntax, lowering and the interpreter's compile step, and
//! every diagnostic span must lie inside the text on character boundaries.

use proptest::prelude::*;

use crate::common::corpus;

fn corpus() -> Vec<String> {
    let files = corpus::kif_files("games/repository", "parser_robustness");
    // A spread of sizes is enough; all files would make each case slow.
    files
        .iter()
        .step_by(17)
        .map(|p| String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned())
        .collect()
}

fn check_spans(text: &str) {
    let program = gdlkit::parse_program(text);
    for d in &program.diagnostics {
        let (s, e) = (d.span.start as usize, d.span.end as usize);
        assert!(
            s <= e && e <= text.len(),
            "span {s}..{e} outside text of {} bytes",
            text.len()
        );
        assert!(
            text.is_char_boundary(s) && text.is_char_boundary(e),
            "span not on char boundary"
        );
        assert!(!d.message.is_empty());
    }
    // Rendering and position conversion must cope with every span too.
    let _ = gdlkit::diagnostic::render(&program.diagnostics, "f.kif", text, false);
    let _ = gdlkit::diagnostic::resolve(&program.diagnostics, text);
    let _ = gdlkit::check_text(text);
}

/// Applies byte-level edits, keeping the text valid UTF-8.
fn mutate(text: &str, edits: &[(usize, u8, u8)]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    const ALPHABET: &[u8] = b"()?;<=\n\t x1(?)";
    for &(pos, kind, ch) in edits {
        if bytes.is_empty() {
            bytes.push(b'(');
            continue;
        }
        let i = pos % bytes.len();
        let c = ALPHABET[ch as usize % ALPHABET.len()];
        match kind % 3 {
            0 => {
                bytes.remove(i);
            }
            1 => bytes.insert(i, c),
            _ => bytes[i] = c,
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_text_never_panics(text in "[()?;<=a-zA-Z0-9 \\t\\r\\n\u{e9}\u{1F600}\"|-]{0,400}") {
        check_spans(&text);
    }

    #[test]
    fn mutated_corpus_never_panics(file in 0usize..1000, edits in prop::collection::vec((0usize..100_000, 0u8..3, 0u8..16), 1..12)) {
        let games = corpus();
        let text = mutate(&games[file % games.len()], &edits);
        check_spans(&text);
    }
}

#[test]
fn pathological_inputs_finish() {
    let deep = format!("(<= p {}q{})", "(f ".repeat(50_000), ")".repeat(50_000));
    check_spans(&deep);
    let unclosed = "(".repeat(100_000);
    check_spans(&unclosed);
    let closers = ")".repeat(100_000);
    let p = gdlkit::parse_program(&closers);
    assert_eq!(p.diagnostics.len(), 100_000, "every stray `)` is reported");
    check_spans(&"?".repeat(10_000));
    check_spans("\u{feff}(role x)\r\n(init (c))\r");
}
