//! `gdlkit bench GAME.kif`: random playouts for a fixed time, as JSON.

use super::{load_engine, Args, Fail, Host, Output, EXIT_OK};
use crate::clock::now_ms;
use crate::reasoner::StateMachine;
use serde_json::json;

pub fn run(raw: &[String], host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    let args = Args::parse(raw, &[])?;
    args.only(&["seconds", "seed", "engine", "playouts"])?;
    let seconds = args.seconds(default_seconds(&args))?;
    let seed: u64 = args.number("seed", 1)?;
    // A fixed number of playouts instead of a time (for profiling).
    let fixed: u64 = args.number("playouts", 0)?;
    let path = args.positional(0, "GAME.kif")?.to_string();
    let t0 = now_ms();
    let (_, mut m) = load_engine(host, &path, &args)?;
    let load_ms = now_ms() - t0;
    let err = |e: crate::EvalError| Fail::game(e.to_string());
    let mut rng = fastrand::Rng::with_seed(seed);
    let init = m.initial_state().map_err(err)?;
    let (mut playouts, mut states) = (0u64, 0u64);
    let start = now_ms();
    let budget = seconds * 1000.0;
    let mut elapsed = 0.0;
    // `--playouts N` plays N playouts, still within the time limit.
    while (elapsed < budget || playouts == 0)
        && (fixed == 0 || playouts < fixed)
        && (playouts == 0 || !crate::job::soft_passed())
    {
        crate::job::progress("bench: playouts", || format!("{playouts} playouts"));
        let (steps, _) = m.playout_length(&init, &mut rng, 10_000).map_err(err)?;
        playouts += 1;
        states += steps as u64 + 1;
        elapsed = now_ms() - start;
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
    if let Some(why) = m.fallback() {
        obj.insert("fallback".into(), json!(why));
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
            }),
        );
    }
    if let Some(rss) = peak_rss_bytes() {
        obj.insert("peak_rss_bytes".into(), json!(rss));
    }
    out.stdout = format!("{report}\n");
    Ok(EXIT_OK)
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

/// 5 seconds of playouts, or 10 minutes for `--playouts N`.
pub(super) fn default_seconds(args: &Args) -> f64 {
    match args.get("playouts") {
        Some(_) => 600.0,
        None => super::default_seconds("bench"),
    }
}
