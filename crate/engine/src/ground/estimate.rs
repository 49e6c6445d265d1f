//! A quick estimate of a grounding's size, before anything is instantiated,
//! so that a game far over the budget falls back to the interpreter at once
//! instead of after the whole time budget.
//!
//! The estimate is numeric: per relation an expected number of rows and per
//! argument position an expected number of distinct values, from the facts
//! (exact), then by rounds over the rules as the grounder splits them
//! (`rules::split_plain`, the first strategy's form) until the sizes settle.
//! A rule's instances are estimated as the grounder joins them: positive
//! literals (fewest expected rows first), each contributing its rows over
//! the product of the distinct values of its bound positions (independent,
//! uniform columns); negations and `distinct` are ignored, as the relaxed
//! fixpoint ignores dynamic negations. The game loop is closed as in the
//! relaxed fixpoint: `next` and `init` feed the `true` tables, `legal` feeds
//! `does`. Recursion that builds ever larger terms (lists, paths) grows
//! round after round and ends at the cap, far over any budget.

use super::rules::{self, GLit, GRule};
use super::Budget;
use crate::deps::RelId;
use crate::reasoner::compile::{Compiled, Pat};
use crate::terms::{kw, Sym, TermId, TermStore};
use gdlkit_lang::diagnostic::Span;
use gdlkit_lang::Program;
use rustc_hash::{FxHashMap, FxHashSet};

/// An estimate over this many times the budget's literals or atoms refuses
/// the game. On the corpus the games that ground are estimated at most
/// 10.4× (hitori), those that do not at 39× (chess, slaughter) and more
/// (docs/fast-engine.md, "The size estimate").
pub const REFUSE_FACTOR: f64 = 20.0;
/// Values stop growing here (recursion over growing terms).
const CAP: f64 = 1e30;
/// Rounds of the numeric fixpoint at most.
const MAX_ROUNDS: usize = 60;

/// The estimated size of a game's grounding.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Estimate {
    /// Ground atoms (every relation, auxiliaries included).
    pub atoms: f64,
    /// Literals in the rule instances of the network (heads included).
    pub literals: f64,
    /// The rule (of the program) with the most estimated literals in the
    /// network.
    pub worst: Option<RuleEstimate>,
    /// The rule whose instances add the most atoms, static rules included:
    /// the atoms' culprit (a static cross product adds no literals).
    pub largest: Option<RuleEstimate>,
    pub ms: f64,
}

/// One program rule's share of the estimate.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RuleEstimate {
    /// Index into the program's rules.
    pub rule: usize,
    pub span: Span,
    /// `name/arity` of its head.
    pub head: String,
    /// Instances of the rule and of its auxiliaries (after splitting).
    pub instances: f64,
    pub literals: f64,
    /// Atoms its instances add (each piece's instances, at most the rows of
    /// its head: a projection's many instances make few atoms).
    pub atoms: f64,
}

impl Estimate {
    /// Whether the estimate is so far over `budget` that grounding is not
    /// worth trying.
    pub fn refuses(&self, budget: &Budget) -> bool {
        self.literals > REFUSE_FACTOR * budget.max_literals as f64
            || self.atoms > REFUSE_FACTOR * budget.max_atoms as f64
    }

    /// The rule to blame for the measure furthest over `budget`: the one
    /// adding the most atoms when the atoms are (relative to their limit)
    /// further over than the literals, else the one with the most literals.
    pub fn culprit(&self, budget: &Budget) -> Option<&RuleEstimate> {
        let atoms = self.atoms / budget.max_atoms.max(1) as f64;
        let literals = self.literals / budget.max_literals.max(1) as f64;
        if atoms > literals {
            self.largest.as_ref().or(self.worst.as_ref())
        } else {
            self.worst.as_ref()
        }
    }

    /// Why the game is refused; `location` renders a span (a line and
    /// column when the text is at hand).
    pub fn reason(&self, budget: &Budget, location: &dyn Fn(Span) -> String) -> String {
        let mut s = format!(
            "grounding would need about {} literals in rule instances and {} ground atoms \
             (estimated before instantiating; the budget is {} and {})",
            short(self.literals),
            short(self.atoms),
            short(budget.max_literals as f64),
            short(budget.max_atoms as f64)
        );
        if let Some(w) = self.culprit(budget) {
            s += &format!(
                "; the rule for {} at {} alone makes about {} instances",
                w.head,
                location(w.span),
                short(w.instances)
            );
        }
        s
    }
}

/// A count in a short form: `27`, `4.2k`, `3.1M`, `2.0e12`.
pub fn short(x: f64) -> String {
    if x >= 1e10 {
        format!("{x:.1e}")
    } else if x >= 1e6 {
        format!("{:.1}M", x / 1e6)
    } else if x >= 1e4 {
        format!("{:.1}k", x / 1e3)
    } else {
        format!("{x:.0}")
    }
}

/// A rule to estimate and where the estimate writes its head: its own
/// relation, and for `next`/`init` the `true` tables, for `legal` `does`.
struct Piece {
    rule: GRule,
    /// Index of the program rule it comes from (`usize::MAX`: none).
    source: usize,
    targets: Vec<(RelId, Vec<Pat>)>,
    /// Counted in the network (its head is not static).
    dynamic: bool,
    /// Literals of an instance in the network: the head and the dynamic
    /// body literals.
    lits: f64,
}

/// Per relation: expected rows and distinct values per position; per
/// argument of a function term at a position (`(does ?p (move ?x ?y))`'s
/// `?x`), its distinct values too, so that a variable inside a term is not
/// given the values of the whole term (a move's coordinate would otherwise
/// range over every move, and the game loop feed that back).
struct Sizes {
    rows: Vec<f64>,
    dom: Vec<Vec<f64>>,
    nested: FxHashMap<Nested, f64>,
}

/// (relation, position, functor, arity, argument).
type Nested = (RelId, usize, Sym, usize, usize);

/// Estimates the grounding of a compiled program (`program` its source).
pub fn estimate(program: &Program, c: &Compiled, terms: &TermStore) -> Estimate {
    let t0 = crate::clock::now_ms();
    let mut arity = c.arity.clone();
    let mut is_static: Vec<bool> = (0..c.num_rels())
        .map(|r| c.class[r] == crate::reasoner::compile::Class::Static)
        .collect();
    let pieces = pieces(c, &mut arity, &mut is_static);
    let facts = fact_sizes(c, terms, &arity, &pieces);
    let mut sizes = Sizes {
        rows: facts.rows.clone(),
        dom: facts
            .consts
            .iter()
            .map(|ps| ps.iter().map(|s| s.len() as f64).collect())
            .collect(),
        nested: facts
            .nested
            .iter()
            .map(|(k, s)| (*k, s.len() as f64))
            .collect(),
    };
    let mut inst = vec![0.0; pieces.len()];
    for _ in 0..MAX_ROUNDS {
        let next = round(&pieces, &sizes, &facts, &mut inst);
        let close = |a: &f64, b: &f64| *a <= b * 1.001 + 0.5;
        let settled = next.rows.iter().zip(&sizes.rows).all(|(a, b)| close(a, b))
            && next
                .dom
                .iter()
                .flatten()
                .zip(sizes.dom.iter().flatten())
                .all(|(a, b)| close(a, b))
            && next
                .nested
                .iter()
                .all(|(k, a)| close(a, sizes.nested.get(k).unwrap_or(&0.0)));
        sizes = next;
        if settled {
            break;
        }
    }
    if std::env::var("GDLKIT_GROUND_PROFILE").is_ok_and(|v| v == "estimate") {
        print_pieces(c, terms, &pieces, &inst, &sizes);
    }
    let mut e = totals(program, terms, &pieces, &inst, &sizes);
    e.ms = crate::clock::now_ms() - t0;
    e
}

/// The rules of the relations the game needs, split as the grounder
/// splits them, each with the program rule it comes from.
fn pieces(c: &Compiled, arity: &mut Vec<usize>, is_static: &mut Vec<bool>) -> Vec<Piece> {
    let g = &c.graph;
    let roots = rules::game_roots(c, &[(kw::INIT, 1), (kw::ROLE, 1)]);
    let needed = g.closure(&roots);
    let next = g.id_of(kw::NEXT, 1);
    let init = g.id_of(kw::INIT, 1);
    let legal = g.id_of(kw::LEGAL, 2);
    let does = g.id_of(kw::DOES, 2);
    let mut out = Vec::new();
    for (s, st) in c.strata.iter().enumerate() {
        for (i, rb) in st.rules.iter().enumerate() {
            let h = rb.head_rel;
            if h >= g.rels.len() || !needed[h] {
                continue;
            }
            let source = c
                .rule_graph
                .sccs
                .get(s)
                .and_then(|comp| comp.get(i))
                .and_then(|&node| c.rule_graph.rules.get(node))
                .copied()
                .unwrap_or(usize::MAX);
            for body in &rb.bodies {
                let rule = GRule {
                    head_rel: h,
                    head: rb.head.to_vec(),
                    body: rules::lits_of(body),
                    num_vars: rb.num_vars,
                };
                let mut split = Vec::new();
                rules::split_plain(rule, &mut split, arity, is_static);
                for r in split {
                    let mut targets = vec![(r.head_rel, r.head.clone())];
                    if Some(r.head_rel) == next || Some(r.head_rel) == init {
                        targets.extend(fluent_targets(c, &r.head[0]));
                    }
                    if Some(r.head_rel) == legal {
                        targets.extend(does.map(|d| (d, r.head.clone())));
                    }
                    let lits = 1 + r
                        .body
                        .iter()
                        .filter(
                            |l| matches!(l, GLit::Pos(x, _) | GLit::Neg(x, _) if !is_static[*x]),
                        )
                        .count();
                    out.push(Piece {
                        dynamic: !is_static[r.head_rel],
                        lits: lits as f64,
                        rule: r,
                        source,
                        targets,
                    });
                }
            }
        }
    }
    out
}

/// The `true` tables a fluent pattern (a `next` or `init` head) feeds.
fn fluent_targets(c: &Compiled, f: &Pat) -> Vec<(RelId, Vec<Pat>)> {
    let mut out = Vec::new();
    match f {
        Pat::App(sym, args) => {
            if let Some(&t) = c.true_tables.get(&(*sym, args.len() as u32)) {
                out.push((t, args.to_vec()));
            }
        }
        Pat::Const(_) => {}
        Pat::Var(_) => {}
    }
    out.extend(c.true_all.map(|t| (t, vec![f.clone()])));
    out
}

/// The facts' rows per relation, and per position the constants that
/// facts and rule heads put there (the `init` facts also as rows of the
/// `true` tables).
struct Facts {
    rows: Vec<f64>,
    consts: Vec<Vec<FxHashSet<TermId>>>,
    nested: FxHashMap<Nested, FxHashSet<TermId>>,
}

fn fact_sizes(c: &Compiled, terms: &TermStore, arity: &[usize], pieces: &[Piece]) -> Facts {
    let n = arity.len();
    let mut consts: Vec<Vec<FxHashSet<TermId>>> = arity
        .iter()
        .map(|&a| vec![FxHashSet::default(); a])
        .collect();
    let mut rows = vec![0.0; n];
    let mut nested: FxHashMap<Nested, FxHashSet<TermId>> = FxHashMap::default();
    let init = c.graph.id_of(kw::INIT, 1);
    let mut add = |r: RelId, args: &[TermId]| {
        rows[r] += 1.0;
        for (p, a) in args.iter().enumerate() {
            if let Some(s) = consts[r].get_mut(p) {
                s.insert(*a);
            }
            let (f, sub) = (terms.functor(*a), terms.args_of(*a));
            for (i, t) in sub.iter().enumerate() {
                nested
                    .entry((r, p, f, sub.len(), i))
                    .or_default()
                    .insert(*t);
            }
        }
    };
    for (r, args) in &c.facts {
        add(*r, args);
        if Some(*r) == init {
            let f = args[0];
            let key = (terms.functor(f), terms.arity(f) as u32);
            if let Some(&t) = c.true_tables.get(&key) {
                add(t, terms.args_of(f));
            }
            if let Some(t) = c.true_all {
                add(t, &[f]);
            }
        }
    }
    for p in pieces {
        for (rel, pats) in &p.targets {
            for (pos, pat) in pats.iter().enumerate() {
                if let (Pat::Const(t), Some(s)) = (pat, consts[*rel].get_mut(pos)) {
                    s.insert(*t);
                }
                if let Pat::App(f, args) = pat {
                    for (i, a) in args.iter().enumerate() {
                        let set = nested.entry((*rel, pos, *f, args.len(), i)).or_default();
                        if let Pat::Const(t) = a {
                            set.insert(*t);
                        }
                    }
                }
            }
        }
    }
    Facts {
        rows,
        consts,
        nested,
    }
}

/// One round: every piece's instances from the current sizes, and the new
/// sizes (never smaller than before) from the facts and those instances.
/// A position's distinct values are the most of its constants (facts and
/// constant head arguments, counted exactly) and of what any one rule puts
/// there: a sum would count a frame rule's values again every round.
fn round(pieces: &[Piece], cur: &Sizes, facts: &Facts, inst: &mut [f64]) -> Sizes {
    let mut next = Sizes {
        rows: facts.rows.clone(),
        dom: facts.consts.iter().map(|ps| vec![0.0; ps.len()]).collect(),
        nested: facts
            .nested
            .iter()
            .map(|(k, s)| (*k, s.len() as f64))
            .collect(),
    };
    for (k, p) in pieces.iter().enumerate() {
        let (n, d) = instances(&p.rule, cur);
        inst[k] = n;
        for (rel, pats) in &p.targets {
            // The most any one rule derives: a sum would add a frame rule's
            // rows again every round (the game loop feeds them back).
            next.rows[*rel] = next.rows[*rel].max(n).min(CAP);
            for (pos, pat) in pats.iter().enumerate() {
                if matches!(pat, Pat::Const(_)) || n == 0.0 {
                    continue;
                }
                if let Some(v) = next.dom[*rel].get_mut(pos) {
                    *v = v.max(value_count(pat, &d).min(n.max(1.0)));
                }
                if let Pat::App(f, args) = pat {
                    for (i, a) in args.iter().enumerate() {
                        let v = value_count(a, &d).min(n.max(1.0));
                        let e = next
                            .nested
                            .entry((*rel, pos, *f, args.len(), i))
                            .or_default();
                        *e = e.max(v);
                    }
                }
            }
        }
    }
    for r in 0..next.rows.len() {
        for (p, v) in next.dom[r].iter_mut().enumerate() {
            *v = v.max(facts.consts[r][p].len() as f64).max(cur.dom[r][p]);
        }
        // A relation has no more rows than value combinations.
        let combos = next.dom[r].iter().product::<f64>().max(1.0);
        next.rows[r] = next.rows[r].min(combos).max(cur.rows[r]);
    }
    for (k, v) in next.nested.iter_mut() {
        *v = v.max(cur.nested.get(k).copied().unwrap_or(0.0));
    }
    next
}

/// Distinct values of a head pattern given its variables' values.
fn value_count(p: &Pat, d: &[f64]) -> f64 {
    let mut vs = Vec::new();
    rules::pat_vars(p, &mut vs);
    vs.iter().map(|&v| d[v as usize]).product::<f64>().min(CAP)
}

/// Expected instances of a rule, and each variable's distinct values, by
/// joining its positive literals fewest expected rows first.
fn instances(rule: &GRule, s: &Sizes) -> (f64, Vec<f64>) {
    let mut d = vec![CAP; rule.num_vars];
    // A variable has no more values than any position it occupies.
    for l in &rule.body {
        if let GLit::Pos(r, pats) = l {
            for (p, pat) in pats.iter().enumerate() {
                let mut vs = Vec::new();
                rules::pat_vars(pat, &mut vs);
                let dom = s.dom[*r].get(p).copied().unwrap_or(1.0);
                for v in vs {
                    d[v as usize] = d[v as usize].min(dom);
                }
                if let Pat::App(f, args) = pat {
                    for (i, a) in args.iter().enumerate() {
                        if let (Pat::Var(v), Some(n)) =
                            (a, s.nested.get(&(*r, p, *f, args.len(), i)))
                        {
                            d[*v as usize] = d[*v as usize].min(*n);
                        }
                    }
                }
            }
        }
    }
    let mut bound = vec![false; rule.num_vars];
    let mut done = vec![false; rule.body.len()];
    let mut n = 1.0f64;
    loop {
        let mut best: Option<(f64, usize)> = None;
        for (i, l) in rule.body.iter().enumerate() {
            let GLit::Pos(r, pats) = l else { continue };
            if done[i] {
                continue;
            }
            let rows = matches(*r, pats, &bound, s);
            if best.is_none_or(|(b, _)| rows < b) {
                best = Some((rows, i));
            }
        }
        let Some((rows, i)) = best else { break };
        done[i] = true;
        n = (n * rows).min(CAP);
        if let GLit::Pos(_, pats) = &rule.body[i] {
            let mut vs = Vec::new();
            pats.iter().for_each(|p| rules::pat_vars(p, &mut vs));
            vs.iter().for_each(|&v| bound[v as usize] = true);
        }
    }
    // No more instances than combinations of the variables' values.
    let combos: f64 = (0..rule.num_vars)
        .filter(|&v| bound[v])
        .map(|v| d[v])
        .product();
    (n.min(combos).min(CAP), d)
}

/// Expected rows of literal `r(pats)` matching one binding of `bound`.
fn matches(r: RelId, pats: &[Pat], bound: &[bool], s: &Sizes) -> f64 {
    let mut rows = s.rows[r];
    for (p, pat) in pats.iter().enumerate() {
        let mut vs = Vec::new();
        rules::pat_vars(pat, &mut vs);
        if vs.iter().all(|&v| bound[v as usize]) {
            rows /= s.dom[r].get(p).copied().unwrap_or(1.0).max(1.0);
        }
    }
    rows
}

/// Atoms, literals and the costliest program rule.
fn totals(
    program: &Program,
    terms: &TermStore,
    pieces: &[Piece],
    inst: &[f64],
    s: &Sizes,
) -> Estimate {
    let atoms: f64 = s.rows.iter().sum::<f64>().min(CAP);
    // Per program rule: instances of all its pieces, literals of the
    // dynamic ones (static rules are not in the network), atoms added.
    let mut per_rule: FxHashMap<usize, [f64; 3]> = Default::default();
    let mut literals = 0.0;
    for (p, &n) in pieces.iter().zip(inst) {
        let lits = if p.dynamic { n * p.lits } else { 0.0 };
        literals = (literals + lits).min(CAP);
        let e = per_rule.entry(p.source).or_default();
        e[0] = (e[0] + n).min(CAP);
        e[1] = (e[1] + lits).min(CAP);
        e[2] = (e[2] + n.min(s.rows[p.rule.head_rel])).min(CAP);
    }
    let rule_estimate = |(src, [instances, literals, atoms]): (usize, [f64; 3])| {
        let rule = &program.rules[src];
        RuleEstimate {
            rule: src,
            span: rule.span,
            head: format!(
                "{}/{}",
                terms.symbols.name(rule.head.rel),
                rule.head.arity()
            ),
            instances,
            literals,
            atoms,
        }
    };
    // Ties go to the earlier rule, so the report does not depend on the
    // map's order.
    let by = |key: fn(&[f64; 3]) -> f64| {
        (per_rule.iter())
            .filter(|(&src, r)| src < program.rules.len() && key(r) > 0.0)
            .max_by(|a, b| key(a.1).total_cmp(&key(b.1)).then(b.0.cmp(a.0)))
            .map(|(&src, &r)| rule_estimate((src, r)))
    };
    Estimate {
        atoms,
        literals,
        worst: by(|r| r[1]),
        largest: by(|r| r[2]),
        ms: 0.0,
    }
}

/// The pieces with the most estimated literals, and the largest relations
/// (`GDLKIT_GROUND_PROFILE=estimate`, native: a diagnostic).
fn print_pieces(c: &Compiled, terms: &TermStore, pieces: &[Piece], inst: &[f64], s: &Sizes) {
    let name = |r: RelId| {
        c.graph.rels.get(r).map_or(format!("aux{r}"), |k| {
            format!("{}/{}", terms.symbols.name(k.sym), k.arity)
        })
    };
    let mut order: Vec<usize> = (0..pieces.len()).collect();
    order.sort_by(|&a, &b| (inst[b] * pieces[b].lits).total_cmp(&(inst[a] * pieces[a].lits)));
    for &k in order.iter().take(15) {
        let p = &pieces[k];
        let body: Vec<String> = p
            .rule
            .body
            .iter()
            .map(|l| match l {
                GLit::Pos(r, _) => format!("{}[{}]", name(*r), short(s.rows[*r])),
                GLit::Neg(r, _) => format!("~{}", name(*r)),
                GLit::Distinct(..) => "distinct".into(),
            })
            .collect();
        eprintln!(
            "  {:>8} inst {} rule {}: {} :- {}",
            short(inst[k]),
            if p.dynamic { "dyn" } else { "static" },
            p.source,
            name(p.rule.head_rel),
            body.join(", ")
        );
    }
}
