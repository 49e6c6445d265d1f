use gdlkit::search::fuzzy::FuzzyHeuristic;
use gdlkit::StateMachine;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let program = gdlkit::parse_program(&text);
    let mut m = gdlkit::load_game(&text).unwrap();
    let mut h = FuzzyHeuristic::build(&program, &mut m).unwrap();
    println!("size {:?}", h.size());
    let mut rng = fastrand::Rng::with_seed(3);
    let mut s = m.initial_state().unwrap();
    for step in 0..12 {
        let mut fl = m.fluents(&s);
        fl.sort();
        println!(
            "step {step}: abs {:?} rel {:?}",
            h.absolute(m.terms(), &fl),
            h.values(m.terms(), &fl)
        );
        if m.is_terminal(&s).unwrap() {
            break;
        }
        let legal = m.all_legal_moves(&s).unwrap();
        let joint: Vec<_> = legal.iter().map(|l| l[rng.usize(..l.len())]).collect();
        s = m.next_state(&s, &joint).unwrap();
    }
}
