use crate::check_text;

fn codes(src: &str) -> Vec<&'static str> {
    check_text(src).iter().map(|d| d.code).collect()
}

#[test]
fn tictactoe_like_is_clean() {
    let src = "(role x) (init (c 1)) (<= (legal x (m ?a)) (true (c ?a))) (<= (next (c ?a)) (does x (m ?a))) (<= terminal (true (c 2))) (goal x 100)";
    assert_eq!(codes(src), Vec::<&str>::new());
}
