use super::*;
use crate::program::parse_program;

/// Facts and rules come back in the program's order, although the
/// rules fall into different strata (`c` before the recursive `b`).
#[test]
fn rules_in_order_follows_the_program() {
    let p = parse_program(
        "(role r) (<= (b ?x) (c ?x) (a ?x)) (a 1) (<= (c ?x) (a ?x)) \
         (<= (b ?x) (b ?x)) (a 2) (<= (d) (or (true (f 1)) (true ?y)))",
    );
    let mut store = TermStore::new(p.symbols.clone());
    let c = compile_with(&p, &mut store, false).unwrap();
    let got: Vec<String> = c
        .rules_in_order(&p)
        .iter()
        .map(|r| {
            let (rel, n) = match r {
                ProgramRule::Fact(rel, row) => (*rel, format!("{} args", row.len())),
                ProgramRule::Rule(rb) => (rb.head_rel, format!("{} bodies", rb.bodies.len())),
            };
            format!("{} {n}", store.symbols.name(c.graph.rels[rel].sym))
        })
        .collect();
    assert_eq!(
        got,
        [
            "role 1 args",
            "b 1 bodies",
            "a 1 args",
            "c 1 bodies",
            "b 1 bodies",
            "a 1 args",
            "d 2 bodies"
        ]
    );
    // The first `b` rule is the one reading `c`, not the recursive one.
    let ProgramRule::Rule(first_b) = c.rules_in_order(&p)[1] else {
        panic!("a rule")
    };
    assert_eq!(first_b.bodies[0].len(), 2);
}
