use crate::StateMachine;

#[test]
fn relations_with_more_than_32_arguments() {
    // 34 arguments: masks only track the first 32, checks must still
    // compare every argument.
    let args: Vec<String> = (0..34).map(|i| format!("a{i}")).collect();
    let vars: Vec<String> = (0..34).map(|i| format!("?v{i}")).collect();
    let mut other = args.clone();
    other[33] = "zz".into();
    let src = format!(
        "(role r) (init s) (big {a}) (<= (legal r go) (big {v}) (not (big {o}))) (<= (next s) (true s)) (<= terminal (not (true s))) (goal r 100)",
        a = args.join(" "),
        v = vars.join(" "),
        o = other.join(" "),
    );
    let mut m = crate::load_game(&src).unwrap();
    let s = m.initial_state().unwrap();
    assert_eq!(m.legal_moves(&s, 0).unwrap().len(), 1);
}
