//! Debug helper: load a state from fluent strings (JSON list) and evaluate it.
use gdlkit::StateMachine;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).unwrap();
    let fl: Vec<String> =
        serde_json::from_str(&std::fs::read_to_string(&args[2]).unwrap()).unwrap();
    let t = std::time::Instant::now();
    let mut m = gdlkit::load_game(&text).unwrap_or_else(|d| panic!("{d:?}"));
    println!("load {:?}", t.elapsed());
    let ids: Vec<_> = fl
        .iter()
        .map(|f| gdlkit::program::parse_ground_term(m.terms_mut(), f).unwrap())
        .collect();
    let s = m.state_from_fluents(&ids);
    let t = std::time::Instant::now();
    let term = m.is_terminal(&s);
    println!("terminal {:?}", t.elapsed());
    let t = std::time::Instant::now();
    let goals = m.goal_values(&s);
    println!("goals {:?}", t.elapsed());
    match (term, goals) {
        (Ok(t), Ok(g)) => println!("terminal {t} goals {g:?}"),
        (a, b) => println!("error {a:?} {b:?}"),
    }
    for (name, class, rows, demand) in m.relation_sizes().iter().take(30) {
        println!(
            "{rows:>9} {class:?} {name}{}",
            if *demand { " (demand)" } else { "" }
        );
    }
    println!("{}", m.describe_plans());
}
