//! Existential scans in the fixpoints: a positive literal whose newly bound
//! variables are read by nothing after it (no later literal, not the head)
//! only has to match once. Every further matching row would re-run the
//! same rest of the join with the same bindings and derive the same atoms.
//!
//! This matters in the relaxed fixpoint, where negations on dynamic
//! relations are ignored: chess's legal rules read `(true (cell ?kx ?ky
//! ?king))` only for `(not (threatened ... ?kx ?ky ...))`, so without the
//! negation every move was joined with every cell the king may stand on.
//! When recording instances every row is an instance of its own, so this
//! applies to the fixpoints only. The atoms derived, and the order in which
//! they are first derived, are unchanged: the first matching row is the same
//! and the rows skipped would only repeat its derivations.

use super::rules::{pat_vars, GLit, GRule};
use crate::program::VarId;

/// For the literals of `rule` in join order `order` (positive scans and the
/// filters the join evaluates; negations ignored by the join left out),
/// whether each one is existential: a positive literal none of whose newly
/// bound variables occurs in a later literal or in the head.
pub fn existential(rule: &GRule, order: &[usize]) -> Vec<bool> {
    let mut later_or_head = vec![0u32; rule.num_vars];
    let mut vs = Vec::new();
    rule.head.iter().for_each(|p| pat_vars(p, &mut vs));
    for &v in &vs {
        later_or_head[v as usize] += 1;
    }
    // Occurrences in the literals at positions after each one.
    let lit_vars: Vec<Vec<VarId>> = order
        .iter()
        .map(|&i| {
            let mut vs = Vec::new();
            rule.body[i].vars(&mut vs);
            vs
        })
        .collect();
    for vs in &lit_vars {
        for &v in vs {
            later_or_head[v as usize] += 1;
        }
    }
    let mut bound = vec![false; rule.num_vars];
    let mut out = Vec::with_capacity(order.len());
    for (k, &i) in order.iter().enumerate() {
        for &v in &lit_vars[k] {
            later_or_head[v as usize] -= 1;
        }
        let fresh: Vec<VarId> = lit_vars[k]
            .iter()
            .copied()
            .filter(|&v| !bound[v as usize])
            .collect();
        let pos = matches!(rule.body[i], GLit::Pos(..));
        out.push(pos && fresh.iter().all(|&v| later_or_head[v as usize] == 0));
        for &v in &fresh {
            bound[v as usize] = true;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reasoner::compile::Pat;

    fn lit(r: usize, vs: &[VarId]) -> GLit {
        GLit::Pos(r, vs.iter().map(|&v| Pat::Var(v)).collect())
    }

    #[test]
    fn a_literal_binding_only_unread_variables_is_existential() {
        // h(?0) :- a(?0), b(?0, ?1), c(?0, ?2), d(?2)
        let rule = GRule {
            head_rel: 9,
            head: vec![Pat::Var(0)],
            body: vec![lit(0, &[0]), lit(1, &[0, 1]), lit(2, &[0, 2]), lit(3, &[2])],
            num_vars: 3,
        };
        // a binds ?0 (head); b binds ?1 (read by nothing later);
        // c binds ?2 (read by d); d binds nothing new.
        assert_eq!(
            existential(&rule, &[0, 1, 2, 3]),
            vec![false, true, false, true]
        );
        // In another order, b comes last and still binds only ?1.
        assert_eq!(
            existential(&rule, &[3, 2, 0, 1]),
            vec![false, false, true, true]
        );
        // A negation is a filter, never a scan.
        let mut neg = rule.clone();
        neg.body[1] = GLit::Neg(1, vec![Pat::Var(0), Pat::Var(0)]);
        assert!(!existential(&neg, &[0, 1, 2, 3])[1]);
    }
}
