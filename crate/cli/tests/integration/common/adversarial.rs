//! Generated adversarial games, written to break engines: each family is a
//! function of its size, so tests use small instances and the fuzz seeds
//! (`fuzz/`) larger ones. The same families exist in JavaScript
//! (`tests/adversarial.mjs`) for the npm API tests.

/// The transitive closure `reach` of an `n`-long successor chain; the game
/// ends (goal 100) once the chain's end is reachable, which it is at once.
pub fn chain(n: usize) -> String {
    let mut s = format!(
        "(role you)\n(init (at n0))\n(<= (legal you go) (true (at ?x)))\n\
         (<= (next (at ?y)) (true (at ?x)) (succ ?x ?y))\n\
         (<= terminal (true (at ?x)) (reach ?x n{n}))\n\
         (<= (goal you 100) (true (at ?x)) (reach ?x n{n}))\n\
         (<= (goal you 0) (not terminal))\n\
         (<= (reach ?x ?y) (succ ?x ?y))\n\
         (<= (reach ?x ?z) (succ ?x ?y) (reach ?y ?z))\n"
    );
    for i in 0..n {
        s += &format!("(succ n{i} n{})\n", i + 1);
    }
    s
}

/// A minimal one-role game plus `extra` rules.
fn with(extra: &str) -> String {
    format!(
        "(role you)\n(init (step 0))\n(<= (legal you go) (true (step 0)))\n\
         (<= (next (step 1)) (true (step 0)))\n(<= terminal (true (step 1)))\n\
         (goal you 50)\n{extra}\n"
    )
}

/// A fact holding a term nested `n` deep.
pub fn deep_term(n: usize) -> String {
    with(&format!("(deep {}a{})", "(f ".repeat(n), ")".repeat(n)))
}

/// A rule whose body has `n` literals over `n` variables.
pub fn wide_rule(n: usize) -> String {
    let body: String = (0..n).map(|i| format!(" (v ?x{i})")).collect();
    with(&format!(
        "(v 1) (v 2)\n(<= (wide ?x0){body})\n(<= (goal you 60) (wide 1))"
    ))
}

/// A relation with `n` arguments.
pub fn huge_arity(n: usize) -> String {
    let args: String = (0..n).map(|i| format!(" a{i}")).collect();
    let vars: String = (0..n).map(|i| format!(" ?x{i}")).collect();
    with(&format!("(big{args})\n(<= (goal you 70) (big{vars}))"))
}

/// A join of `n` copies of a 10-row relation: 10^n candidate rows.
pub fn exponential_join(n: usize) -> String {
    let facts: String = (0..10).map(|i| format!("(d {i}) ")).collect();
    let body: String = (0..n).map(|i| format!(" (d ?x{i})")).collect();
    let head: String = (0..n).map(|i| format!(" ?x{i}")).collect();
    with(&format!(
        "{facts}\n(<= (tuple{head}){body})\n(<= (goal you 80) (tuple{}))",
        " 0".repeat(n)
    ))
}

/// A game that never ends and whose state term grows by one level each step.
pub fn term_growth() -> String {
    "(role you)\n(init (count z))\n(<= (legal you go) (true (count ?x)))\n\
     (<= (next (count (s ?x))) (true (count ?x)))\n\
     (<= terminal (true (count (s (s (s (s (s (s (s (s z)))))))))) (true (never)))\n\
     (goal you 0)\n"
        .to_string()
}

/// `roles` roles with `moves` moves each, all simultaneous: moves^roles
/// joint moves.
pub fn joint_moves(roles: usize, moves: usize) -> String {
    let mut s = String::new();
    for r in 0..roles {
        s += &format!("(role r{r})\n(goal r{r} 50)\n");
    }
    for m in 0..moves {
        s += &format!("(move m{m})\n");
    }
    s += "(init (step 0))\n(<= (legal ?r ?m) (role ?r) (move ?m) (true (step 0)))\n\
          (<= (next (step 1)) (true (step 0)))\n(<= terminal (true (step 1)))\n";
    s
}

/// Byte-level oddities: (label, bytes).
pub fn odd_texts() -> Vec<(&'static str, Vec<u8>)> {
    let ttt = with("");
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(ttt.as_bytes());
    vec![
        ("bom", bom),
        (
            "nul",
            ttt.replacen("(role you)", "(role y\0ou)", 1).into_bytes(),
        ),
        ("cr-only", ttt.replace('\n', "\r").into_bytes()),
        ("invalid-utf8", {
            let mut b = ttt.clone().into_bytes();
            b.extend_from_slice(b"(bad \xFF\xFE)\n");
            b
        }),
        ("unclosed", "(".repeat(100_000).into_bytes()),
    ]
}
