use crate::check_text;

fn codes(src: &str) -> Vec<&'static str> {
    check_text(src).iter().map(|d| d.code).collect()
}

#[test]
fn tictactoe_like_is_clean() {
    let src = "(role x) (init (c 1)) (<= (legal x (m ?a)) (true (c ?a))) (<= (next (c ?a)) (does x (m ?a))) (<= terminal (true (c 2))) (goal x 100)";
    assert_eq!(codes(src), Vec::<&str>::new());
}

#[test]
fn edit_distance_counts_transpositions_and_stops_early() {
    use super::edit_distance;
    assert_eq!(edit_distance("succ", "succ", 2), 0);
    assert_eq!(edit_distance("suc", "succ", 2), 1);
    assert_eq!(
        edit_distance("sucс", "succ", 2),
        1,
        "non-ASCII counts as one char"
    );
    assert_eq!(
        edit_distance("nextrank", "nextrnak", 2),
        1,
        "a transposition is one edit"
    );
    assert_eq!(edit_distance("cell", "control", 2), 3, "capped at max + 1");
    assert_eq!(edit_distance("", "abc", 5), 3);
}

#[test]
fn check_alone_skips_the_source_level_spelling_check() {
    let src = "(role x) (init (c 1)) (<= (legal x (m ?a)) (true (c ?a))) (<= (next (c ?a)) (does x (m ?a))) (<= terminal (true (C 2))) (goal x 100)";
    let program = crate::parse_program(src);
    assert!(super::check(&program).is_empty());
    let with_source: Vec<_> = super::check_source(src, &program)
        .iter()
        .map(|d| d.code)
        .collect();
    assert_eq!(with_source, vec!["GDL105"]);
}
