//! Benchmark of the static check: parse + lower + every validator check, as
//! `gdlkit::check_text` runs it on each keystroke in the editor.
//!
//! `cargo run --release --example check_bench [GAME.kif] [iterations]`
//! (default: the largest corpus game, `duplicateStateLarge.kif`).
//! Prints the median and the minimum time per run, per phase.

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).cloned().unwrap_or_else(|| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../shared/games/repository/duplicateStateLarge.kif"
        )
        .to_string()
    });
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(200);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let diags = gdlkit::check_text(&text);
    println!("{path}: {} bytes, {} diagnostics", text.len(), diags.len());
    let mut parse = Vec::new();
    let mut lower = Vec::new();
    let mut check = Vec::new();
    let mut total = Vec::new();
    let mut format = Vec::new();
    let mut drops = Vec::new();
    for _ in 0..n {
        let t0 = Instant::now();
        let tree = gdlkit::syntax::parse(&text);
        let t1 = Instant::now();
        let program = gdlkit::program::lower(&text, &tree);
        let t2 = Instant::now();
        let d = gdlkit::check::check_source(&text, &program);
        let t3 = Instant::now();
        std::hint::black_box(d);
        let all = gdlkit::check_text(&text);
        let t4 = Instant::now();
        std::hint::black_box(all);
        let f = gdlkit::format::format(&text);
        let t5 = Instant::now();
        std::hint::black_box(f.ok());
        let t6 = Instant::now();
        drop(program);
        drop(tree);
        drops.push(t6.elapsed());
        parse.push(t1 - t0);
        lower.push(t2 - t1);
        check.push(t3 - t2);
        total.push(t4 - t3);
        format.push(t5 - t4);
    }
    // check_text alone, as the editor calls it.
    let mut alone = Vec::new();
    for _ in 0..n {
        let t = Instant::now();
        let d = gdlkit::check_text(&text);
        alone.push(t.elapsed());
        drop(d);
    }
    for (name, v) in [
        ("check_text alone", &mut alone),
        ("parse", &mut parse),
        ("lower", &mut lower),
        ("check", &mut check),
        ("check_text (all)", &mut total),
        ("format", &mut format),
        ("drop tree+program", &mut drops),
    ] {
        v.sort();
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
        println!(
            "{name:>17}: median {:.3} ms, min {:.3} ms",
            ms(v[v.len() / 2]),
            ms(v[0])
        );
    }
}
