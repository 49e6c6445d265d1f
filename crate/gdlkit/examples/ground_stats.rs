//! Grounds games and prints the figures, one JSON line per game:
//! `cargo run --release --example ground_stats -- GAME.kif...`
//! (`GDLKIT_GROUND_MS` sets the time budget, `GDLKIT_GROUND_ATOMS` the
//! atoms; `GDLKIT_GROUND_PROFILE=1` prints where the time went;
//! `GDLKIT_PLAYOUT_SECS=S` then runs random playouts for S seconds on the
//! grounded engine and S seconds on the interpreter, in the same run, and
//! what `--engine auto` would choose; `GDLKIT_TRIALS=N` runs only that
//! choice's trial, N times, each followed by a second trial's ratio).

use gdlkit::engine::{Engine, EngineChoice, GroundBudget as Budget};

fn main() {
    let mut budget = Budget::default();
    if let Ok(ms) = std::env::var("GDLKIT_GROUND_MS") {
        budget.max_ms = ms.parse().expect("milliseconds");
    }
    if let Ok(n) = std::env::var("GDLKIT_GROUND_ATOMS") {
        budget.max_atoms = n.parse().expect("atoms");
        budget.max_literals = 8 * budget.max_atoms;
        budget.max_bytes = 2_000_000_000;
    }
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).expect("readable game");
        let program = gdlkit::parse_program(&text);
        let t = std::time::Instant::now();
        let Ok(it) = gdlkit::Interpreter::new(&program) else {
            println!("{{\"game\":{path:?},\"error\":\"invalid\"}}");
            continue;
        };
        // `GDLKIT_ESTIMATE=1`: only the size estimate (`--engine auto`'s refusal).
        if std::env::var_os("GDLKIT_ESTIMATE").is_some() {
            let e = gdlkit::engine::ground_estimate(&program, &it);
            println!(
                "{{\"game\":{path:?},\"estimate_ms\":{:.1},\"atoms\":{:.3e},\"literals\":{:.3e},\"refused\":{},\"worst\":{:?}}}",
                e.ms, e.atoms, e.literals, e.refuses(&budget),
                e.worst.as_ref().map(|w| format!("{} {:.3e}", w.head, w.literals)).unwrap_or_default()
            );
            continue;
        }
        match Engine::from_program(&program, EngineChoice::Fast, budget) {
            Ok(mut f) => {
                // `GDLKIT_TRIALS=N`: only `--engine auto`'s trial, N times.
                if let Ok(n) = std::env::var("GDLKIT_TRIALS") {
                    let mut it = Engine::from_program(&program, EngineChoice::Interpreter, budget)
                        .expect("valid");
                    for _ in 0..n.parse::<usize>().expect("a count") {
                        let why = gdlkit::engine::choice::interpreter_is_faster(&mut f, &mut it);
                        let t = gdlkit::engine::choice::trial(&mut f, &mut it).unwrap_or_default();
                        println!(
                            "{{\"game\":{path:?},\"auto\":{:?},\"then\":{{\"steps\":{},\"interpreter_over_fast\":{:.3},\"walks\":{}}}}}",
                            if why.is_some() { "interpreter" } else { "fast" },
                            t.steps,
                            t.ratio(),
                            t.fast.len()
                        );
                    }
                    continue;
                }
                if let Ok(secs) = std::env::var("GDLKIT_PLAYOUT_SECS") {
                    let secs: f64 = secs.parse().expect("seconds");
                    let mut it = Engine::from_program(&program, EngineChoice::Interpreter, budget)
                        .expect("valid");
                    let fast = playouts(&mut f, secs);
                    let slow = playouts(&mut it, secs);
                    // What `--engine auto` would choose (a trial after the above).
                    let why = gdlkit::engine::choice::interpreter_is_faster(&mut f, &mut it);
                    println!(
                        "{{\"game\":{path:?},\"auto\":{:?},\"trial\":{},\"why\":{:?}}}",
                        if why.is_some() { "interpreter" } else { "fast" },
                        gdlkit::engine::choice::needs_trial(f.ground_stats().expect("fast")),
                        why.unwrap_or_default()
                    );
                    println!(
                        "{{\"game\":{path:?},\"fast_playouts_per_s\":{fast:.1},\"interpreter_playouts_per_s\":{slow:.1},\"ratio\":{:.2}}}",
                        fast / slow
                    );
                }
                let g = f.ground_stats().expect("the fast engine");
                if let Engine::Fast(fe) = &f {
                    let s = gdlkit::engine::choice::Shape::of(fe);
                    println!(
                        "{{\"game\":{path:?},\"shape\":{{\"nodes\":{},\"edges\":{},\"base\":{},\"cyclic\":{},\"cyclic_nodes\":{},\"largest\":{},\"depth\":{}}}}}",
                        s.nodes, s.edges, s.base, s.cyclic_components, s.cyclic_nodes, s.largest_component, s.depth
                    );
                }
                println!(
                    "{{\"game\":{path:?},\"ms\":{:.1},\"peak_mb\":{:.1},\"net_mb\":{:.2},\"atoms\":{},\"rules\":{},\"aux\":{},\"exclusions\":{},\"instances\":{},\"literals\":{},\"base\":{},\"inputs\":{},\"legals\":{},\"nodes\":{},\"edges\":{},\"cyclic\":{},\"rounds\":{},\"subgames\":{}}}",
                    g.ms, g.peak_bytes as f64 / 1e6, g.network_bytes as f64 / 1e6, g.atoms, g.rules, g.aux_rules, g.exclusions, g.instances,
                    g.literals, g.base, g.inputs, g.legals, g.nodes, g.edges, g.cyclic_components, g.rounds, g.subgames
                );
            }
            Err(e) => println!(
                "{{\"game\":{path:?},\"ms\":{:.1},\"fallback\":{:?}}}",
                t.elapsed().as_secs_f64() * 1000.0,
                // The grounder's reason, as before the engine's wording.
                e[0].message
                    .trim_start_matches("the fast engine cannot run this game: ")
            ),
        }
    }
}

/// Random playouts per second (at most 500 steps each, the goals asked at
/// the end) for `secs` seconds.
fn playouts(m: &mut Engine, secs: f64) -> f64 {
    use gdlkit::StateMachine;
    let s0 = m.initial_state().expect("initial state");
    let mut rng = fastrand::Rng::with_seed(1);
    let t = std::time::Instant::now();
    let mut n = 0u64;
    while t.elapsed().as_secs_f64() < secs || n == 0 {
        m.scored_playout(&s0, &mut rng, 500).expect("playout");
        n += 1;
    }
    n as f64 / t.elapsed().as_secs_f64()
}
