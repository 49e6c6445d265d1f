//! `gdlkit bench GAME.kif`: random playouts for a fixed time, as JSON.

use super::{load, Args, Fail, Host, Output, EXIT_OK};
use crate::clock::now_ms;
use crate::reasoner::{random_playout, StateMachine};
use serde_json::json;

pub fn run(raw: &[String], host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    let args = Args::parse(raw, &[])?;
    args.only(&["seconds", "seed"])?;
    let seconds: f64 = args.number("seconds", 5.0)?;
    let seed: u64 = args.number("seed", 1)?;
    let path = args.positional(0, "GAME.kif")?.to_string();
    let t0 = now_ms();
    let (_, mut m) = load(host, &path)?;
    let load_ms = now_ms() - t0;
    let err = |e: crate::EvalError| Fail::game(e.to_string());
    let mut rng = fastrand::Rng::with_seed(seed);
    let init = m.initial_state().map_err(err)?;
    let (mut playouts, mut states) = (0u64, 0u64);
    let start = now_ms();
    let budget = seconds * 1000.0;
    let mut elapsed = 0.0;
    while elapsed < budget || playouts == 0 {
        let p = random_playout(&mut m, &init, &mut rng, 10_000).map_err(err)?;
        playouts += 1;
        states += p.steps as u64 + 1;
        elapsed = now_ms() - start;
    }
    let secs = elapsed / 1000.0;
    out.stdout = format!(
        "{}\n",
        json!({
            "game": path,
            "engine": "interpreter",
            "seconds": secs,
            "playouts": playouts,
            "playouts_per_second": playouts as f64 / secs,
            "states_per_second": states as f64 / secs,
            "load_ms": load_ms,
        })
    );
    let _ = m.roles();
    Ok(EXIT_OK)
}
