//! Any bytes through the reader, the lowering, the validator and the
//! diagnostics' rendering: never a panic, spans inside the text.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let diags = gdlkit::check_text(&text);
    for d in &diags {
        let (s, e) = (d.span.start as usize, d.span.end as usize);
        assert!(s <= e && e <= text.len(), "span outside the text");
        assert!(text.is_char_boundary(s) && text.is_char_boundary(e));
    }
    let _ = gdlkit::diagnostic::render(&diags, "f.kif", &text, false);
    let _ = gdlkit::diagnostic::resolve(&diags, &text);
});
