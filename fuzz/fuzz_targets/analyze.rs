//! The semantic validator on any game that loads, with a small budget:
//! never a panic, and an exhaustive report only when it really finished.
#![no_main]
use gdlkit::analysis::{analyze, Mode, Options};
use gdlkit::EngineChoice;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    gdlkit::job::scope(1000.0, || {
        let Ok(m) = gdlkit::load_engine(text, EngineChoice::Auto) else {
            return;
        };
        let r = analyze(m, Options { playouts: 3, playout_depth: 50, ..Options::with_budget(200) });
        if r.mode == Mode::Exhaustive {
            assert!(r.states <= 200 + 1);
        }
    });
});
