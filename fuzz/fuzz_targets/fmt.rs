//! The formatter is idempotent and keeps the program: formatting a text
//! without errors twice gives the same text, and the same diagnostics codes.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(once) = gdlkit::format::format(&text) else {
        return;
    };
    let twice = gdlkit::format::format(&once).expect("formatted text formats again");
    assert_eq!(once, twice, "not idempotent");
    let codes = |t: &str| {
        let mut c: Vec<_> = gdlkit::check_text(t).into_iter().map(|d| d.code).collect();
        c.sort();
        c
    };
    assert_eq!(codes(&text), codes(&once), "formatting changed the diagnostics");
});
