//! `gdlkit bench GAME.kif`: random playouts for a fixed time, as JSON.

use super::options::{EngineArg, SecondsArg};
use super::{load_game, Fail, Host, Output, EXIT_OK};
use crate::clock::now_ms;
use crate::reasoner::StateMachine;
use serde_json::json;

/// The time limit of `bench --playouts N` without `--seconds`.
pub const SECONDS_FOR_A_COUNT: f64 = 600.0;

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// The game's rules
    #[arg(value_name = "GAME.kif")]
    game: String,
    /// Play this many playouts instead of playing for a time (for
    /// profiling; still within the time limit)
    #[arg(long, value_name = "N")]
    playouts: Option<u64>,
    /// The random moves' seed
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,
    /// Time a heuristic's evaluations instead of playouts
    #[arg(long, value_name = "H")]
    heuristic: Option<String>,
    /// Greedy playouts, as the default player plays them (a lone mover
    /// takes a move known to win), instead of random ones
    #[arg(long)]
    greedy: bool,
    #[command(flatten)]
    engine: EngineArg,
    #[command(flatten)]
    seconds: SecondsArg,
}

pub fn run(args: BenchArgs, host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    let seconds = args.seconds.seconds.unwrap_or(match args.playouts {
        Some(_) => SECONDS_FOR_A_COUNT,
        None => super::default_seconds("bench"),
    });
    let seed = args.seed;
    // A fixed number of playouts instead of a time (for profiling).
    let fixed: u64 = args.playouts.unwrap_or(0);
    let path = args.game;
    let t0 = now_ms();
    let (
        _,
        crate::Game {
            program,
            engine: mut m,
        },
    ) = load_game(host, &path, args.engine.choice)?;
    let load_ms = now_ms() - t0;
    if let Some(h) = &args.heuristic {
        let report = heuristic_bench(&program, &mut m, h, seconds, seed)?;
        out.stdout = format!("{report}\n");
        return Ok(EXIT_OK);
    }
    let err = |e: crate::EvalError| Fail::game(e.to_string());
    let mut rng = fastrand::Rng::with_seed(seed);
    let init = m.initial_state().map_err(err)?;
    let (mut playouts, mut states) = (0u64, 0u64);
    let mut enders = args.greedy.then(crate::reasoner::greedy::Enders::default);
    let start = now_ms();
    let budget = seconds * 1000.0;
    let mut elapsed = 0.0;
    // The clock, the progress report and the job's soft end are read once
    // per batch of playouts, not per playout: a clock read costs 60-70 ns
    // natively here (more through JS in wasm), 2-5% of a ticTacToe playout
    // when it was read three times per playout. The batch doubles while it
    // takes under a millisecond, so the time limit is overrun by at most ~2 ms.
    let mut batch = 1u64;
    // `--playouts N` plays N playouts, still within the time limit.
    while (elapsed < budget || playouts == 0)
        && (fixed == 0 || playouts < fixed)
        && (playouts == 0 || !crate::job::soft_passed())
    {
        crate::job::progress("bench: playouts", || format!("{playouts} playouts"));
        let n = if fixed == 0 {
            batch
        } else {
            batch.min(fixed - playouts)
        };
        let batch_start = elapsed;
        for _ in 0..n {
            // The goals at the end, as a player (and gdl-perf) asks them.
            let played = match &mut enders {
                None => m.scored_playout(&init, &mut rng, 10_000),
                Some(enders) => m.greedy_scored_playout(&init, &mut rng, 10_000, enders),
            };
            let steps = played.map_err(err)?.0.steps;
            states += steps as u64 + 1;
        }
        playouts += n;
        elapsed = now_ms() - start;
        if elapsed - batch_start < 1.0 && batch < 1 << 16 {
            batch *= 2;
        }
    }
    let secs = elapsed / 1000.0;
    let mut report = json!({
        "game": path,
        "engine": m.name(),
        "seconds": secs,
        "playouts": playouts,
        "playouts_per_second": playouts as f64 / secs,
        "states_per_second": states as f64 / secs,
        "load_ms": load_ms,
    });
    let obj = report.as_object_mut().expect("object");
    if let Some(enders) = &enders {
        // Successor states a greedy step computed besides the playout's own.
        obj.insert("greedy_tries".into(), json!(enders.tries));
    }
    if let Some(why) = m.fallback() {
        obj.insert("fallback".into(), json!(why));
    }
    if let Some(note) = m.hybrid_note() {
        obj.insert("hybrid".into(), json!(note));
    }
    if let Some(g) = m.ground_stats() {
        obj.insert("grounding_ms".into(), json!(g.ms));
        obj.insert("grounding_peak_bytes".into(), json!(g.peak_bytes));
        obj.insert("network_bytes".into(), json!(g.network_bytes));
        obj.insert(
            "network".into(),
            json!({
                "atoms": g.atoms,
                "rules": g.rules,
                "aux_rules": g.aux_rules,
                "instances": g.instances,
                "base": g.base,
                "inputs": g.inputs,
                "legals": g.legals,
                "nodes": g.nodes,
                "edges": g.edges,
                "cyclic_components": g.cyclic_components,
                "guard_candidates": g.guard_candidates,
                "guards": g.guards,
                "guarded_ands": g.guarded_ands,
            }),
        );
    }
    if let Some(rss) = peak_rss_bytes() {
        obj.insert("peak_rss_bytes".into(), json!(rss));
    }
    out.stdout = format!("{report}\n");
    Ok(EXIT_OK)
}

/// `--heuristic H`: evaluations per second of a heuristic on the
/// non-terminal states of random playouts (up to 2,000 states, evaluated
/// round-robin for `seconds`; building the heuristic is timed apart).
fn heuristic_bench(
    program: &crate::Program,
    m: &mut crate::Engine,
    name: &str,
    seconds: f64,
    seed: u64,
) -> Result<serde_json::Value, Fail> {
    let err = |e: crate::EvalError| Fail::game(e.to_string());
    let t0 = now_ms();
    let mut h = crate::search::heuristics::build(name, program, m).map_err(Fail::game)?;
    let build_ms = now_ms() - t0;
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut states = Vec::new();
    let init = m.initial_state().map_err(err)?;
    // Up to 2,000 states of random walks (the one random walk).
    for _ in 0..1000 {
        crate::reasoner::random_walk(m, &init, &mut rng, 1000, |_, s, _, _| {
            states.push(s.clone());
            Ok(states.len() < 2000)
        })
        .map_err(err)?;
        if states.len() >= 2000 {
            break;
        }
    }
    if states.is_empty() {
        return Err(Fail::game("no non-terminal state to evaluate"));
    }
    h.set_root(m, &init).map_err(err)?;
    let (mut evals, mut sum) = (0u64, 0.0);
    let start = now_ms();
    let mut elapsed = 0.0;
    while elapsed < seconds * 1000.0 || evals == 0 {
        let s = &states[evals as usize % states.len()];
        sum += h
            .evaluate(m, s, (evals as usize) % m.roles().len())
            .map_err(err)?;
        evals += 1;
        elapsed = now_ms() - start;
    }
    Ok(json!({
        "engine": m.name(),
        "heuristic": h.name(),
        "build_ms": build_ms,
        "states": states.len(),
        "evaluations": evals,
        "seconds": elapsed / 1000.0,
        "evaluations_per_second": evals as f64 / (elapsed / 1000.0),
        "mean_value": sum / evals as f64,
    }))
}

/// The process's peak resident memory, where the platform tells it (Linux).
fn peak_rss_bytes() -> Option<u64> {
    #[cfg(all(target_os = "linux", not(target_arch = "wasm32")))]
    {
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    }
    #[cfg(not(all(target_os = "linux", not(target_arch = "wasm32"))))]
    {
        None
    }
}
