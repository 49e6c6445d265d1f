//! Benchmark of the semantic validator: states explored per second.
//!
//! ```sh
//! cargo run --release -p gdlkit --example analysis_bench            # the figures of BENCHMARKS.md
//! cargo run --release -p gdlkit --example analysis_bench -- GAME.kif BUDGET [RUNS]
//! ```
//!
//! Each case runs on both engines (the grounded fast engine and the
//! interpreter), side by side.
//!
//! Default: ticTacToe exhaustively (5,478 states) and connectFour until a
//! budget of 200,000 states (exploration only: the report's sampling phase
//! is not timed, `playouts = 0`). Prints one JSON line per run and the best.

use gdlkit::analysis::{AnalysisJob, Options, Phase};
use gdlkit::EngineChoice;
use std::path::{Path, PathBuf};
use std::time::Instant;

fn shared(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/games")
        .join(rel)
}

/// Explores until the budget (or the whole graph); returns (states, seconds
/// exploring, seconds checking, mode).
fn run(path: &Path, budget: usize, engine: EngineChoice) -> (u64, u64, f64, f64, String) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let m = gdlkit::load_engine(&text, engine).expect("a valid game that grounds");
    let mut job = AnalysisJob::new(
        m,
        Options {
            playouts: 0,
            ..Options::with_budget(budget)
        },
    );
    let t0 = Instant::now();
    let mut p = job.step(1 << 14);
    while p.phase == Phase::Exploring {
        p = job.step(1 << 14);
    }
    let explore = t0.elapsed().as_secs_f64();
    let expanded = p.expanded;
    let t1 = Instant::now();
    while !job.step(1 << 14).done {}
    let check = t1.elapsed().as_secs_f64();
    let r = job.report().expect("done");
    (
        r.states,
        expanded,
        explore,
        check,
        r.mode.name().to_string(),
    )
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let cases: Vec<(PathBuf, usize, usize)> = if args.is_empty() {
        vec![
            (shared("ggp-base-test/ticTacToe.kif"), 2_000_000, 10),
            (shared("ggp-base-test/connectFour.kif"), 200_000, 3),
        ]
    } else {
        let budget = args
            .get(1)
            .and_then(|b| b.parse().ok())
            .unwrap_or(2_000_000);
        let runs = args.get(2).and_then(|b| b.parse().ok()).unwrap_or(3);
        vec![(PathBuf::from(&args[0]), budget, runs)]
    };
    let engines = [
        ("fast", EngineChoice::Fast),
        ("interpreter", EngineChoice::Interpreter),
    ];
    for ((path, budget, runs), (engine, choice)) in cases
        .iter()
        .flat_map(|c| engines.iter().map(move |e| (c, e)))
    {
        let (budget, runs) = (*budget, *runs);
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let mut best = f64::MAX;
        let mut states = 0;
        for _ in 0..runs {
            let (s, expanded, explore, check, mode) = run(path, budget, *choice);
            println!(
                "{{\"game\":\"{name}\",\"engine\":\"{engine}\",\"mode\":\"{mode}\",\"budget\":{budget},\"states\":{s},\"expanded\":{expanded},\
                 \"explore_s\":{explore:.3},\"check_s\":{check:.3},\"states_per_s\":{:.0},\"expanded_per_s\":{:.0}}}",
                s as f64 / explore,
                expanded as f64 / explore
            );
            best = best.min(explore);
            states = s;
        }
        println!(
            "best {name} ({engine}): {states} states in {best:.3} s exploring = {:.0} states/s",
            states as f64 / best
        );
    }
}
