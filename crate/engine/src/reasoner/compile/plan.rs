//! Planning: orders each rule body into join operations by estimated cost,
//! for a stratum bottom-up (with semi-naive delta variants) or for one call
//! pattern of a demand relation.

use super::demand::eligible;
use super::{bound_mask, Class, Compiled, Cost, Lit, Op, Pat, Plan, StratumPlans};
use crate::deps::RelId;
use crate::diagnostic::Span;
use crate::program::VarId;

/// Wraps a size function so that the sizes it reports are recorded.
fn recording<'a>(
    size: &'a dyn Fn(RelId) -> usize,
    seen: &'a std::cell::RefCell<Vec<(RelId, usize)>>,
) -> impl Fn(RelId) -> usize + 'a {
    move |r| {
        let n = size(r);
        let mut seen = seen.borrow_mut();
        if !seen.iter().any(|&(x, _)| x == r) {
            seen.push((r, n));
        }
        n
    }
}

impl Compiled {
    pub fn num_rels(&self) -> usize {
        self.class.len()
    }

    /// Strata needed to compute `rels`, in evaluation order.
    pub fn strata_for(&self, rels: &[RelId]) -> Vec<usize> {
        let rg = &self.rule_graph;
        let mut seen = vec![false; rg.rules.len()];
        let mut stack: Vec<usize> = Vec::new();
        for &rel in rels {
            for &ri in &self.graph.rules_of[rel] {
                if let Ok(node) = rg.rules.binary_search(&ri) {
                    stack.push(node);
                }
            }
        }
        while let Some(n) = stack.pop() {
            if !std::mem::replace(&mut seen[n], true) {
                stack.extend(rg.edges[n].iter().map(|e| e.to));
            }
        }
        let mut out: Vec<usize> = (0..seen.len())
            .filter(|&n| seen[n])
            .map(|n| self.stratum_of_node[n])
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Orders every rule body of stratum `s` for evaluation, with `size`
    /// giving the current number of rows of each relation.
    pub fn plan(&self, s: usize, size: &dyn Fn(RelId) -> usize) -> StratumPlans {
        let st = &self.strata[s];
        let mut out = StratumPlans::default();
        let seen = std::cell::RefCell::new(Vec::new());
        let size = &recording(size, &seen);
        for rule in &st.rules {
            for body in &rule.bodies {
                let mut make = |delta: Option<usize>| {
                    let ops = order(
                        body,
                        rule.num_vars,
                        &[],
                        delta,
                        size,
                        self,
                        &mut out.indexes,
                    )
                    .expect("bodies were checked for safety at compile time");
                    let delta_rel = delta.map(|i| match &body[i] {
                        Lit::Pos { rel, .. } => *rel,
                        _ => unreachable!("delta literals are positive"),
                    });
                    Plan {
                        head_rel: rule.head_rel,
                        head: rule.head.clone(),
                        ops,
                        num_vars: rule.num_vars,
                        delta_rel,
                        cost: Cost::default(),
                    }
                };
                let full = make(None);
                let mut deltas = Vec::new();
                if st.recursive {
                    for (i, lit) in body.iter().enumerate() {
                        if matches!(lit, Lit::Pos { rel, .. } if st.heads.contains(rel)) {
                            deltas.push(make(Some(i)));
                        }
                    }
                }
                out.plans.push(full);
                out.delta_plans.extend(deltas);
            }
        }
        out.indexes.sort_unstable();
        out.indexes.dedup();
        out.sizes = seen.borrow().clone();
        out
    }

    /// Switches demand relations to materialised evaluation (their strata
    /// run bottom-up again). Only valid before any plan was built for a
    /// stratum that uses them as demand relations.
    pub fn materialise(&mut self, rels: &[RelId]) {
        for &r in rels {
            self.demand[r] = false;
            self.demand_rules[r].clear();
        }
        for st in &mut self.strata {
            if st.heads.iter().any(|h| rels.contains(h)) {
                st.demand = false;
            }
        }
    }

    /// Undoes [`Compiled::materialise`].
    pub fn dematerialise(&mut self, rels: &[RelId]) {
        for &r in rels {
            self.demand[r] = true;
        }
        for st in &mut self.strata {
            if st.heads.iter().any(|h| rels.contains(h)) {
                st.demand = true;
                for rule in &st.rules {
                    self.demand_rules[rule.head_rel].push(rule.clone());
                }
            }
        }
    }

    /// Plans to answer a call of demand relation `rel` with the argument
    /// positions in `mask` bound: one plan per rule body, with the head
    /// variables at those positions bound before the body runs.
    pub fn plan_demand(
        &self,
        rel: RelId,
        mask: u32,
        size: &dyn Fn(RelId) -> usize,
    ) -> StratumPlans {
        let mut out = StratumPlans::default();
        let seen = std::cell::RefCell::new(Vec::new());
        let size = &recording(size, &seen);
        for rule in &self.demand_rules[rel] {
            let mut pre = vec![false; rule.num_vars];
            for (i, p) in rule.head.iter().enumerate().take(32) {
                if mask >> i & 1 == 1 {
                    p.for_each_var(&mut |v| pre[v as usize] = true);
                }
            }
            for body in &rule.bodies {
                let ops = order(
                    body,
                    rule.num_vars,
                    &pre,
                    None,
                    size,
                    self,
                    &mut out.indexes,
                )
                .expect("bodies were checked for safety at compile time");
                out.plans.push(Plan {
                    head_rel: rel,
                    head: rule.head.clone(),
                    ops,
                    num_vars: rule.num_vars,
                    delta_rel: None,
                    cost: Cost::default(),
                });
            }
        }
        out.indexes.sort_unstable();
        out.indexes.dedup();
        out.sizes = seen.borrow().clone();
        out
    }
}

/// Estimated rows a scan yields: `size^(unbound/arity)` (uniform spread).
///
/// A demand relation has no size until it is called, so it is estimated as
/// a relation of at least [`DEMAND_PRIOR`] rows; it is only ever called in a
/// safe pattern (see [`choose_demand`](super::demand::choose_demand)).
fn estimate(size: usize, bound: usize, arity: usize, demand: bool) -> f64 {
    if arity == 0 || bound == arity {
        return 0.0;
    }
    let size = if demand {
        size.max(DEMAND_PRIOR)
    } else {
        size.max(1)
    };
    (size as f64).powf((arity - bound) as f64 / arity as f64)
}

/// Assumed size of a demand relation when planning.
const DEMAND_PRIOR: usize = 10_000;

/// Relations that change with the state are planned with at least this many
/// rows: the state the plan is made on may be unusually small.
const DYNAMIC_FLOOR: usize = 8;

/// Orders a body into operations: filters (`not`, `distinct`, fully bound
/// literals) as soon as their variables are bound, otherwise the scan with
/// the fewest estimated rows. `delta` puts that literal first as a
/// semi-naive delta scan. Fails with an unbound variable if the body is
/// unsafe. Index lookups are appended to `indexes`.
pub(super) fn order(
    body: &[Lit],
    num_vars: usize,
    pre_bound: &[bool],
    delta: Option<usize>,
    size: &dyn Fn(RelId) -> usize,
    c: &Compiled,
    indexes: &mut Vec<(RelId, u32)>,
) -> Result<Vec<Op>, (VarId, Span)> {
    let mut bound = vec![false; num_vars];
    for (v, &b) in pre_bound.iter().enumerate() {
        bound[v] |= b;
    }
    let mut done = vec![false; body.len()];
    let mut ops = Vec::new();
    if let Some(i) = delta {
        ops.push(scan(&body[i], &mut bound, c, true, indexes));
        done[i] = true;
    }
    loop {
        for (i, lit) in body.iter().enumerate() {
            if done[i] {
                continue;
            }
            if let Some(op) = filter(lit, &bound, c) {
                ops.push(op);
                done[i] = true;
            }
        }
        match cheapest_scan(body, &done, &bound, size, c) {
            Some(i) => {
                ops.push(scan(&body[i], &mut bound, c, false, indexes));
                done[i] = true;
            }
            None => break,
        }
    }
    match first_unbound(body, &done, &bound) {
        Some(unbound) => Err(unbound),
        None => Ok(ops),
    }
}

/// The scan of a positive literal; binds its variables and notes the index
/// it looks up.
fn scan(
    lit: &Lit,
    bound: &mut [bool],
    c: &Compiled,
    is_delta: bool,
    indexes: &mut Vec<(RelId, u32)>,
) -> Op {
    let Lit::Pos { rel, pats, .. } = lit else {
        unreachable!("only positive literals are scanned")
    };
    let mask = bound_mask(pats, bound);
    if mask != 0 {
        indexes.push((*rel, mask));
    }
    pats.iter()
        .for_each(|p| p.for_each_var(&mut |v| bound[v as usize] = true));
    let demand = c.demand[*rel];
    Op::Scan {
        rel: *rel,
        class: c.class[*rel],
        pats: pats.clone().into(),
        mask,
        delta: is_delta,
        demand,
    }
}

/// The test a literal becomes once all its variables are bound, if they are.
fn filter(lit: &Lit, bound: &[bool], c: &Compiled) -> Option<Op> {
    let (class, demand) = (&c.class, &c.demand);
    match lit {
        Lit::Pos { rel, pats, .. } if pats.iter().all(|p| p.is_bound(bound)) => Some(Op::Check {
            rel: *rel,
            class: class[*rel],
            pats: pats.clone().into(),
            negated: false,
            demand: demand[*rel],
        }),
        Lit::Neg { rel, pats, .. } if pats.iter().all(|p| p.is_bound(bound)) => Some(Op::Check {
            rel: *rel,
            class: class[*rel],
            pats: pats.clone().into(),
            negated: true,
            demand: demand[*rel],
        }),
        Lit::Distinct(a, b, _) if a.is_bound(bound) && b.is_bound(bound) => {
            Some(Op::Distinct(a.clone(), b.clone()))
        }
        _ => None,
    }
}

/// The positive literal not yet placed with the fewest estimated rows (the
/// first among equals).
fn cheapest_scan(
    body: &[Lit],
    done: &[bool],
    bound: &[bool],
    size: &dyn Fn(RelId) -> usize,
    c: &Compiled,
) -> Option<usize> {
    let (class, demand) = (&c.class, &c.demand);
    body.iter()
        .enumerate()
        .filter(|(i, l)| !done[*i] && matches!(l, Lit::Pos { .. }))
        .map(|(i, l)| {
            let Lit::Pos { rel, pats, .. } = l else {
                unreachable!()
            };
            let b = pats.iter().filter(|p| p.is_bound(bound)).count();
            let n = if class[*rel] == Class::Static {
                size(*rel)
            } else {
                size(*rel).max(DYNAMIC_FLOOR)
            };
            let mut cost = estimate(n, b, pats.len(), demand[*rel]);
            if demand[*rel]
                && !c.safe.is_empty()
                && !eligible(&c.safe, *rel, bound_mask(pats, bound))
            {
                // Not callable yet in this pattern: last resort only.
                cost = f64::INFINITY;
            }
            (cost, i)
        })
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
        .map(|(_, i)| i)
}

/// Anything left is a `not` or `distinct` with a variable that no positive
/// literal binds: the first such variable, and its literal's span.
fn first_unbound(body: &[Lit], done: &[bool], bound: &[bool]) -> Option<(VarId, Span)> {
    for (i, lit) in body.iter().enumerate() {
        if done[i] {
            continue;
        }
        let (pats, span): (Vec<&Pat>, Span) = match lit {
            Lit::Neg { pats, span, .. } | Lit::Pos { pats, span, .. } => {
                (pats.iter().collect(), *span)
            }
            Lit::Distinct(a, b, span) => (vec![a, b], *span),
        };
        for p in pats {
            let mut unbound = None;
            p.for_each_var(&mut |v| {
                if !bound[v as usize] {
                    unbound.get_or_insert(v);
                }
            });
            if let Some(v) = unbound {
                return Some((v, span));
            }
        }
    }
    None
}

pub(super) fn first_var(pats: &[Pat]) -> Option<VarId> {
    let mut out = None;
    for p in pats {
        p.for_each_var(&mut |v| {
            out.get_or_insert(v);
        });
    }
    out
}
