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
///
/// Greedy, but incremental: a literal's cost and whether it is a filter
/// change only when one of its variables is bound, so after each scan only
/// the literals sharing a newly bound variable are looked at again (a
/// queue keeps the costs). A body of `n` literals costs about `n log n`,
/// not `n²` (a rule of 20,000 literals is planned in milliseconds).
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
    let uses = literals_of_vars(body, num_vars);
    let mut done = vec![false; body.len()];
    let mut ops = Vec::new();
    let mut queue = ScanQueue::new(body.len());
    if let Some(i) = delta {
        ops.push(scan(&body[i], &mut bound, c, true, indexes));
        done[i] = true;
    }
    // Every literal is looked at once; later only those a scan touched.
    let mut touched: Vec<usize> = (0..body.len()).collect();
    loop {
        for &i in &touched {
            if done[i] {
                continue;
            }
            if let Some(op) = filter(&body[i], &bound, c) {
                ops.push(op);
                done[i] = true;
            } else if let Some(cost) = scan_cost(&body[i], &bound, size, c) {
                queue.push(i, cost);
            }
        }
        let Some(i) = queue.pop_cheapest(&done) else {
            break;
        };
        let newly = unbound_vars(&body[i], &bound);
        ops.push(scan(&body[i], &mut bound, c, false, indexes));
        done[i] = true;
        touched = newly
            .iter()
            .flat_map(|&v| uses[v as usize].iter().copied())
            .collect();
        // Filters come out in body order, as a full pass would find them.
        touched.sort_unstable();
        touched.dedup();
    }
    match first_unbound(body, &done, &bound) {
        Some(unbound) => Err(unbound),
        None => Ok(ops),
    }
}

/// For each variable, the literals of `body` it occurs in.
fn literals_of_vars(body: &[Lit], num_vars: usize) -> Vec<Vec<usize>> {
    let mut uses: Vec<Vec<usize>> = vec![Vec::new(); num_vars];
    for (i, lit) in body.iter().enumerate() {
        lit_vars(lit, &mut |v| {
            if uses[v as usize].last() != Some(&i) {
                uses[v as usize].push(i);
            }
        });
    }
    uses
}

fn lit_vars(lit: &Lit, f: &mut impl FnMut(VarId)) {
    match lit {
        Lit::Pos { pats, .. } | Lit::Neg { pats, .. } => {
            pats.iter().for_each(|p| p.for_each_var(f))
        }
        Lit::Distinct(a, b, _) => {
            a.for_each_var(f);
            b.for_each_var(f);
        }
    }
}

/// The variables of `lit` not yet bound (each once).
fn unbound_vars(lit: &Lit, bound: &[bool]) -> Vec<VarId> {
    let mut out = Vec::new();
    lit_vars(lit, &mut |v| {
        if !bound[v as usize] && !out.contains(&v) {
            out.push(v);
        }
    });
    out
}

/// The positive literals' latest scan costs, cheapest first (the first
/// among equals); older costs of a literal are skipped when popped.
struct ScanQueue {
    heap: std::collections::BinaryHeap<QueuedScan>,
    version: Vec<u32>,
}

struct QueuedScan {
    cost: f64,
    lit: usize,
    version: u32,
}

impl Ord for QueuedScan {
    /// Reversed, for a min-heap on (cost, literal).
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other
            .cost
            .total_cmp(&self.cost)
            .then(other.lit.cmp(&self.lit))
    }
}

impl PartialOrd for QueuedScan {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for QueuedScan {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for QueuedScan {}

impl ScanQueue {
    fn new(n: usize) -> ScanQueue {
        ScanQueue {
            heap: std::collections::BinaryHeap::new(),
            version: vec![0; n],
        }
    }

    fn push(&mut self, lit: usize, cost: f64) {
        self.version[lit] += 1;
        let version = self.version[lit];
        self.heap.push(QueuedScan { cost, lit, version });
    }

    fn pop_cheapest(&mut self, done: &[bool]) -> Option<usize> {
        while let Some(q) = self.heap.pop() {
            if !done[q.lit] && q.version == self.version[q.lit] {
                return Some(q.lit);
            }
        }
        None
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

/// The estimated rows of scanning a positive literal (`None` for other
/// literals); infinite for a demand relation not callable yet in this
/// pattern (a last resort).
fn scan_cost(
    lit: &Lit,
    bound: &[bool],
    size: &dyn Fn(RelId) -> usize,
    c: &Compiled,
) -> Option<f64> {
    let Lit::Pos { rel, pats, .. } = lit else {
        return None;
    };
    let (class, demand) = (&c.class, &c.demand);
    let b = pats.iter().filter(|p| p.is_bound(bound)).count();
    let n = if class[*rel] == Class::Static {
        size(*rel)
    } else {
        size(*rel).max(DYNAMIC_FLOOR)
    };
    let mut cost = estimate(n, b, pats.len(), demand[*rel]);
    if demand[*rel] && !c.safe.is_empty() && !eligible(&c.safe, *rel, bound_mask(pats, bound)) {
        cost = f64::INFINITY;
    }
    Some(cost)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::parse_program;
    use crate::reasoner::compile::compile_with;
    use crate::terms::TermStore;

    /// The greedy order by full passes (every literal looked at again
    /// after each scan): the oracle of the incremental [`order`].
    fn order_by_full_passes(
        body: &[Lit],
        num_vars: usize,
        delta: Option<usize>,
        size: &dyn Fn(RelId) -> usize,
        c: &Compiled,
        indexes: &mut Vec<(RelId, u32)>,
    ) -> Result<Vec<Op>, (VarId, Span)> {
        let mut bound = vec![false; num_vars];
        let mut done = vec![false; body.len()];
        let mut ops = Vec::new();
        if let Some(i) = delta {
            ops.push(scan(&body[i], &mut bound, c, true, indexes));
            done[i] = true;
        }
        loop {
            for (i, lit) in body.iter().enumerate() {
                if !done[i] {
                    if let Some(op) = filter(lit, &bound, c) {
                        ops.push(op);
                        done[i] = true;
                    }
                }
            }
            let cheapest = (0..body.len())
                .filter(|&i| !done[i])
                .filter_map(|i| scan_cost(&body[i], &bound, size, c).map(|cost| (cost, i)))
                .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            match cheapest {
                Some((_, i)) => {
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

    /// Both orders of every body (and every delta variant) of `text`'s
    /// rules, under sizes that vary by relation; returns the bodies compared.
    fn compare(text: &str, use_demand: bool) -> usize {
        let p = parse_program(text);
        let mut store = TermStore::new(p.symbols.clone());
        let c = compile_with(&p, &mut store, use_demand).expect("compiles");
        let mut compared = 0;
        for salt in [1usize, 7, 1_000_003] {
            let size = |r: RelId| (r * 2_654_435_761 + salt) % 97;
            for rule in c
                .strata
                .iter()
                .flat_map(|s| &s.rules)
                .chain(c.demand_rules.iter().flatten())
            {
                for body in &rule.bodies {
                    let deltas = (0..body.len()).filter(|&i| matches!(body[i], Lit::Pos { .. }));
                    for delta in std::iter::once(None).chain(deltas.map(Some)) {
                        let (mut a, mut b) = (Vec::new(), Vec::new());
                        let fast = order(body, rule.num_vars, &[], delta, &size, &c, &mut a);
                        let slow =
                            order_by_full_passes(body, rule.num_vars, delta, &size, &c, &mut b);
                        assert_eq!(
                            format!("{fast:?}"),
                            format!("{slow:?}"),
                            "a body of {text:.80}"
                        );
                        assert_eq!(a, b);
                        compared += 1;
                    }
                }
            }
        }
        compared
    }

    #[test]
    fn incremental_order_equals_full_passes_on_the_library() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games");
        let mut bodies = 0;
        let mut games = 0;
        for entry in std::fs::read_dir(dir).expect("games/") {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "kif") {
                let text = std::fs::read_to_string(&path).unwrap();
                bodies += compare(&text, false) + compare(&text, true);
                games += 1;
            }
        }
        assert!(games >= 30, "only {games} games");
        assert!(bodies >= 5_000, "only {bodies} bodies compared");
    }

    /// Random bodies with filters, shared variables, constants and
    /// function terms (the unsafe ones are refused before planning).
    #[test]
    fn incremental_order_equals_full_passes_on_generated_bodies() {
        let mut rng = fastrand::Rng::with_seed(7);
        let (mut compared, mut safe) = (0, 0);
        for _ in 0..300 {
            let vars = rng.usize(1..8);
            let var = |rng: &mut fastrand::Rng| format!("?v{}", rng.usize(0..vars));
            let mut body = String::new();
            for _ in 0..rng.usize(1..12) {
                let (x, y) = (var(&mut rng), var(&mut rng));
                body += &match rng.usize(0..6) {
                    0 => format!(" (a {x} {y})"),
                    1 => format!(" (b {x})"),
                    2 => format!(" (c {x} 1)"),
                    3 => format!(" (not (b {x}))"),
                    4 => format!(" (distinct {x} {y})"),
                    _ => format!(" (d (f {x}) {y})"),
                };
            }
            let text = format!(
                "(role r) (a 1 2) (a 2 3) (b 1) (c 2 1) (d (f 1) 2) (<= (h{}) {body})",
                (0..vars).map(|v| format!(" ?v{v}")).collect::<String>()
            );
            let p = parse_program(&text);
            let mut store = TermStore::new(p.symbols.clone());
            if compile_with(&p, &mut store, false).is_ok() {
                compared += compare(&text, false);
                safe += 1;
            }
        }
        assert!(
            safe >= 100 && compared >= 1_000,
            "{safe} safe rules, {compared} bodies"
        );
    }
}
