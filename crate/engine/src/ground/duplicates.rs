//! Rules that repeat an earlier rule of the same fixpoint (same head and
//! body after splitting): alexChess writes its `between ... WtoE` rule
//! twice, and the copy re-joined 7.8M rows in the relaxed fixpoint for no
//! new atom. A copy reads the same row ranges as the original in the same
//! round, so it can only derive atoms the original derived just before it;
//! the fixpoints skip it. Instantiation keeps it (its instances are gates
//! of the network, which stays as it was).

use super::rules::{GLit, GRule};

/// For each rule, whether an earlier rule of `rules` is identical to it.
pub fn of(rules: &[GRule]) -> Vec<bool> {
    let mut seen = rustc_hash::FxHashSet::default();
    rules.iter().map(|r| !seen.insert(key(r))).collect()
}

/// The rule's head and body, structurally (variables are numbered in the
/// order of the rule's text, so copies number them alike).
fn key(r: &GRule) -> String {
    let body: Vec<String> = r
        .body
        .iter()
        .map(|l| match l {
            GLit::Pos(rel, ps) => format!("+{rel}{ps:?}"),
            GLit::Neg(rel, ps) => format!("-{rel}{ps:?}"),
            GLit::Distinct(a, b) => format!("!{a:?}{b:?}"),
        })
        .collect();
    format!("{}{:?}:{}", r.head_rel, r.head, body.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reasoner::compile::Pat;

    #[test]
    fn only_later_copies_are_duplicates() {
        let rule = |head_rel, v| GRule {
            head_rel,
            head: vec![Pat::Var(0)],
            body: vec![GLit::Pos(1, vec![Pat::Var(0), Pat::Var(v)])],
            num_vars: 2,
        };
        let rules = [rule(5, 1), rule(6, 1), rule(5, 1), rule(5, 0)];
        assert_eq!(of(&rules), vec![false, false, true, false]);
    }
}
