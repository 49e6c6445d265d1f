//! Debug helper: evaluate the initial state's terminal/legal and print sizes.
use gdlkit::StateMachine;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).unwrap();
    let mut m = gdlkit::load_game(&text).unwrap_or_else(|d| panic!("{d:?}"));
    let s = m.initial_state().unwrap();
    if args.get(2).map(String::as_str) == Some("legal-first") {
        let l = m.all_legal_moves(&s).unwrap();
        println!(
            "legal counts {:?}",
            l.iter().map(Vec::len).collect::<Vec<_>>()
        );
    }
    println!("terminal {}", m.is_terminal(&s).unwrap());
    let l = m.all_legal_moves(&s).unwrap();
    println!(
        "legal counts {:?}",
        l.iter().map(Vec::len).collect::<Vec<_>>()
    );
    for (name, class, rows, demand) in m.relation_sizes().iter().take(40) {
        println!(
            "{rows:>9} {class:?} {name}{}",
            if *demand { " (demand)" } else { "" }
        );
    }
    println!("{}", m.describe_plans());
}
