//! Which relations are evaluated on demand, and under which call patterns:
//! a greatest fixpoint over the rules, shared with the planner so a demand
//! relation is never called in a pattern that forces computing it in full.

use super::{bound_mask, Compiled, Lit, RuleBodies};
use crate::deps::RelId;
use crate::program::Program;
use crate::terms::kw;

/// Largest arity for which a relation may be evaluated on demand (its call
/// patterns are enumerated as bit masks).
const MAX_DEMAND_ARITY: u32 = 12;

/// Decides which relations are evaluated on demand (see [`Compiled::demand`])
/// and under which call patterns (`Compiled::safe`).
///
/// A call pattern (bound-argument mask) of a demand relation is *safe* when
/// every body of its rules can place all its literals starting from the
/// head variables the pattern binds, where a materialised literal can always
/// be placed and a demand literal only under one of its own safe patterns.
/// That is a greatest fixpoint (recursion is assumed safe until refuted;
/// tabling handles it). The planner obeys the same rule, so at run time a
/// demand relation is never called in a pattern that would force computing
/// it in full. A materialised relation's rule whose demand literal can never
/// be placed makes that literal's component materialised; then everything
/// is recomputed, until nothing changes.
pub(super) fn choose_demand(c: &mut Compiled, program: &Program) {
    let n = c.graph.rels.len();
    // GDL-II's `sees` is read whole after each joint move, like `next`.
    let sees = program.sees_sym();
    let candidate = |r: RelId| {
        let k = c.graph.rels[r];
        !kw::is_gdl_keyword(k.sym)
            && Some(k.sym) != sees
            && k.arity > 0
            && k.arity <= MAX_DEMAND_ARITY
            && c.graph.rules_of[r]
                .iter()
                .any(|&i| !program.rules[i].body.is_empty())
    };
    let mut demand: Vec<bool> = (0..c.class.len()).map(|r| r < n && candidate(r)).collect();
    let mut rules: Vec<Vec<RuleBodies>> = vec![Vec::new(); c.class.len()];
    for st in &c.strata {
        for r in &st.rules {
            rules[r.head_rel].push(r.clone());
        }
    }
    loop {
        let safe = safe_patterns(&rules, &demand, &c.arity);
        let mut stuck = Vec::new();
        for r in (0..n).filter(|&r| !demand[r]) {
            for rule in &rules[r] {
                for body in &rule.bodies {
                    stuck.extend(unplaceable(
                        body,
                        &vec![false; rule.num_vars],
                        &demand,
                        &safe,
                    ));
                }
            }
        }
        if stuck.is_empty() {
            c.demand = demand;
            c.safe = safe;
            break;
        }
        for r in stuck {
            for &m in &c.graph.sccs[c.graph.scc_of[r]] {
                demand[m] = false;
            }
        }
    }
    c.demand_rules = vec![Vec::new(); c.class.len()];
    for st in &mut c.strata {
        if st.heads.iter().all(|&h| c.demand[h]) {
            st.demand = true;
            for r in &st.rules {
                c.demand_rules[r.head_rel].push(r.clone());
            }
        }
    }
}

/// The greatest fixpoint of safe call patterns: `safe[rel][mask]`.
fn safe_patterns(rules: &[Vec<RuleBodies>], demand: &[bool], arity: &[usize]) -> Vec<Vec<bool>> {
    let mut safe: Vec<Vec<bool>> = (0..demand.len())
        .map(|r| {
            if demand[r] {
                (0..1usize << arity[r]).map(|m| m != 0).collect()
            } else {
                Vec::new()
            }
        })
        .collect();
    loop {
        let mut changed = false;
        for r in (0..demand.len()).filter(|&r| demand[r]) {
            for mask in 1..safe[r].len() {
                if !safe[r][mask] {
                    continue;
                }
                let ok = rules[r].iter().all(|rule| {
                    let mut pre = vec![false; rule.num_vars];
                    for (i, p) in rule.head.iter().enumerate() {
                        if mask >> i & 1 == 1 {
                            p.for_each_var(&mut |v| pre[v as usize] = true);
                        }
                    }
                    rule.bodies
                        .iter()
                        .all(|b| unplaceable(b, &pre, demand, &safe).is_empty())
                });
                if !ok {
                    safe[r][mask] = false;
                    changed = true;
                }
            }
        }
        if !changed {
            return safe;
        }
    }
}

/// Whether a demand literal may be called with the bound positions `mask`.
pub(super) fn eligible(safe: &[Vec<bool>], rel: RelId, mask: u32) -> bool {
    safe[rel].get(mask as usize).copied().unwrap_or(false)
}

/// The demand relations of positive literals in `body` that can never be
/// placed when the variables in `pre` are bound (order-independent: the
/// bound set only grows).
fn unplaceable(body: &[Lit], pre: &[bool], demand: &[bool], safe: &[Vec<bool>]) -> Vec<RelId> {
    let mut bound = pre.to_vec();
    let mut placed = vec![false; body.len()];
    loop {
        let mut progress = false;
        for (i, lit) in body.iter().enumerate() {
            let Lit::Pos { rel, pats, .. } = lit else {
                continue;
            };
            if placed[i] || (demand[*rel] && !eligible(safe, *rel, bound_mask(pats, &bound))) {
                continue;
            }
            placed[i] = true;
            progress = true;
            pats.iter()
                .for_each(|p| p.for_each_var(&mut |v| bound[v as usize] = true));
        }
        if !progress {
            break;
        }
    }
    body.iter()
        .enumerate()
        .filter_map(|(i, lit)| match lit {
            Lit::Pos { rel, .. } if !placed[i] => Some(*rel),
            _ => None,
        })
        .collect()
}
