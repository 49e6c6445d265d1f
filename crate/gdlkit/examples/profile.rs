//! Profiling helper: random playouts on a game, then relation sizes and plans.
//! `cargo run --release --example profile -- GAME.kif [playouts]`
use gdlkit::reasoner::random_playout;
use gdlkit::StateMachine;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).unwrap();
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10);
    let mut m = gdlkit::load_game(&text).unwrap_or_else(|d| panic!("{d:?}"));
    let init = m.initial_state().unwrap();
    let mut rng = fastrand::Rng::with_seed(1);
    let t = std::time::Instant::now();
    for _ in 0..n {
        if let Err(e) = random_playout(&mut m, &init, &mut rng, 1000) {
            println!("error: {e}");
            break;
        }
    }
    println!("{n} playouts in {:?}", t.elapsed());
    for (name, class, rows, demand) in m.relation_sizes().iter().take(25) {
        println!(
            "{rows:>9} {class:?} {name}{}",
            if *demand { " (demand)" } else { "" }
        );
    }
    if args.len() > 3 {
        println!("{}", m.describe_plans());
    }
}
