//! Argument types: which ground terms can be *needed* at each argument
//! position of each relation, used to drop the atoms no rule instance that
//! matters can ever read.
//!
//! Two fixpoints over argument positions (like the type inference of
//! Koriche et al. or ggp-base's domain analysis, with function terms as
//! nested positions):
//! - *supply*: the terms that can be derived at a position (facts, rule
//!   heads with each variable ranging over the intersection of the
//!   positions it is read at, `next`/`init` into the `true` tables, `legal`
//!   into `does`);
//! - *need*: the terms a rule instance can ask for at a position, from
//!   `legal`, `next`, `goal`, `terminal`, `init` and `role` (all terms)
//!   down through the bodies, a head variable ranging only over what its
//!   head position needs.
//!
//! Chess has one `coordinate` relation for files and ranks, so its
//! `clear_row_ig ?u ?y ?x ?y ?ignorex ?ignorey` base rule derives every
//! coordinate as an ignored rank; only ranks are ever asked for there. A
//! head variable whose needed terms are fewer than its supplied ones gets a
//! filter: a literal on a new static relation holding the needed terms.
//! Static literals are never literals of the network, so the filter only
//! drops atoms and instances nothing reads.

use super::instantiate::Grounder;
use super::rules::{GLit, GRule, RuleSet};
use super::Budget;
use crate::deps::RelId;
use crate::program::VarId;
use crate::reasoner::compile::Pat;
use crate::terms::{Sym, TermId, TermStore};
use std::collections::{BTreeMap, BTreeSet};
use values::{projections, reachable_values, value_rules};

mod values;

/// Nesting levels tracked; deeper terms are "any term" (keeps the lattice
/// finite for games that build growing terms).
const MAX_DEPTH: usize = 4;

/// A set of terms: any term (`top`), or constants plus, per functor, a
/// product of argument sets (an over-approximation of the terms' union).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dom {
    top: bool,
    consts: BTreeSet<TermId>,
    apps: BTreeMap<(Sym, usize), Vec<Dom>>,
}

impl Dom {
    fn top() -> Dom {
        Dom {
            top: true,
            ..Dom::default()
        }
    }

    fn is_empty(&self) -> bool {
        !self.top && self.consts.is_empty() && self.apps.is_empty()
    }

    /// The set `{t}` (up to the tracked depth).
    fn of_term(store: &TermStore, t: TermId, depth: usize) -> Dom {
        if depth >= MAX_DEPTH {
            return Dom::top();
        }
        let args = store.args_of(t);
        let mut d = Dom::default();
        if args.is_empty() {
            d.consts.insert(t);
        } else {
            let kids = args
                .iter()
                .map(|&a| Dom::of_term(store, a, depth + 1))
                .collect();
            d.apps.insert((store.functor(t), args.len()), kids);
        }
        d
    }

    fn contains(&self, store: &TermStore, t: TermId, depth: usize) -> bool {
        if self.top || depth >= MAX_DEPTH {
            return true;
        }
        let args = store.args_of(t);
        if args.is_empty() {
            return self.consts.contains(&t);
        }
        self.apps
            .get(&(store.functor(t), args.len()))
            .is_some_and(|kids| {
                kids.iter()
                    .zip(args)
                    .all(|(k, &a)| k.contains(store, a, depth + 1))
            })
    }

    fn meet(&self, o: &Dom) -> Dom {
        if self.top {
            return o.clone();
        }
        if o.top {
            return self.clone();
        }
        let mut d = Dom {
            top: false,
            consts: self.consts.intersection(&o.consts).copied().collect(),
            apps: BTreeMap::new(),
        };
        for (key, a) in &self.apps {
            if let Some(b) = o.apps.get(key) {
                let kids: Vec<Dom> = a.iter().zip(b).map(|(x, y)| x.meet(y)).collect();
                if kids.iter().all(|k| !k.is_empty()) {
                    d.apps.insert(*key, kids);
                }
            }
        }
        d
    }

    /// Adds `o` to `self`; whether `self` grew.
    fn join(&mut self, o: &Dom) -> bool {
        if self.top || o.is_empty() {
            return false;
        }
        if o.top {
            *self = Dom::top();
            return true;
        }
        let mut grew = false;
        for &c in &o.consts {
            grew |= self.consts.insert(c);
        }
        for (key, b) in &o.apps {
            match self.apps.get_mut(key) {
                Some(a) => {
                    for (x, y) in a.iter_mut().zip(b) {
                        grew |= x.join(y);
                    }
                }
                None => {
                    self.apps.insert(*key, b.clone());
                    grew = true;
                }
            }
        }
        grew
    }

    /// The same set with terms below `levels` nesting levels made "any".
    fn truncate(&self, levels: usize) -> Dom {
        if self.top || self.is_empty() {
            return self.clone();
        }
        if levels == 0 {
            return Dom::top();
        }
        Dom {
            top: false,
            consts: self.consts.clone(),
            apps: self
                .apps
                .iter()
                .map(|(k, kids)| (*k, kids.iter().map(|d| d.truncate(levels - 1)).collect()))
                .collect(),
        }
    }
}

/// Narrows `vars` by the pattern `p` read at a position holding `dom`;
/// false if no term of `dom` can match (the rule never fires).
fn constrain(store: &TermStore, p: &Pat, dom: &Dom, vars: &mut [Dom], depth: usize) -> bool {
    if dom.top || depth >= MAX_DEPTH {
        return true;
    }
    match p {
        Pat::Var(v) => {
            let d = vars[*v as usize].meet(dom);
            let ok = !d.is_empty();
            vars[*v as usize] = d;
            ok
        }
        Pat::Const(c) => dom.contains(store, *c, depth),
        Pat::App(f, args) => {
            let Some(kids) = dom.apps.get(&(*f, args.len())) else {
                return false;
            };
            args.iter()
                .zip(kids)
                .all(|(a, k)| constrain(store, a, k, vars, depth + 1))
        }
    }
}

/// The terms the pattern `p` (at nesting `depth`) can build from `vars`.
fn build(store: &TermStore, p: &Pat, vars: &[Dom], depth: usize) -> Dom {
    if depth >= MAX_DEPTH {
        return Dom::top();
    }
    match p {
        Pat::Var(v) => vars[*v as usize].truncate(MAX_DEPTH - depth),
        Pat::Const(c) => Dom::of_term(store, *c, depth),
        Pat::App(f, args) => {
            let kids: Vec<Dom> = args
                .iter()
                .map(|a| build(store, a, vars, depth + 1))
                .collect();
            let mut d = Dom::default();
            if kids.iter().all(|k| !k.is_empty()) {
                d.apps.insert((*f, args.len()), kids);
            }
            d
        }
    }
}

/// The relations the game itself reads or fills (outside the rules).
pub struct Roles {
    pub init: Option<RelId>,
    pub next: Option<RelId>,
    pub legal: Option<RelId>,
    pub does: Option<RelId>,
    /// legal, next, goal, terminal, init, role: every atom matters.
    pub roots: Vec<RelId>,
    pub true_tables: Vec<((Sym, u32), RelId)>,
    pub true_all: Option<RelId>,
    /// The first relation made by splitting (auxiliaries from here on).
    pub first_aux: RelId,
}

/// A domain per argument position of every relation.
type Table = Vec<Vec<Dom>>;

/// The variables' domains in `rule` from its positive literals (and, with
/// `need`, its head's needed terms); `None` if the rule can never fire.
fn rule_vars(
    store: &TermStore,
    rule: &GRule,
    supply: &Table,
    need: Option<&Table>,
) -> Option<Vec<Dom>> {
    let mut vars = vec![Dom::top(); rule.num_vars];
    for l in &rule.body {
        if let GLit::Pos(r, pats) = l {
            for (p, d) in pats.iter().zip(&supply[*r]) {
                if !constrain(store, p, d, &mut vars, 0) {
                    return None;
                }
            }
        }
    }
    if let Some(need) = need {
        for (p, d) in rule.head.iter().zip(&need[rule.head_rel]) {
            if !constrain(store, p, d, &mut vars, 0) {
                return None;
            }
        }
    }
    Some(vars)
}

/// Unions the terms of `pats` (built from `vars`) into `table[rel]`.
fn add_row(store: &TermStore, table: &mut Table, rel: RelId, pats: &[Pat], vars: &[Dom]) -> bool {
    let mut grew = false;
    for (k, p) in pats.iter().enumerate() {
        let d = build(store, p, vars, 0);
        grew |= table[rel][k].join(&d);
    }
    grew
}

/// The supplied terms per position: `exact` relations are given; the
/// others from their rules, to a fixpoint.
fn supply(
    store: &TermStore,
    rs: &RuleSet,
    exact: &[Option<Vec<Dom>>],
    facts: &[(RelId, Box<[TermId]>)],
) -> Table {
    let mut t: Table = rs
        .arity
        .iter()
        .zip(exact)
        .map(|(&a, e)| e.clone().unwrap_or_else(|| vec![Dom::default(); a]))
        .collect();
    for (r, row) in facts {
        if exact[*r].is_none() {
            for (k, &a) in row.iter().enumerate() {
                t[*r][k].join(&Dom::of_term(store, a, 0));
            }
        }
    }
    loop {
        let mut grew = false;
        for rule in &rs.rules {
            if exact[rule.head_rel].is_some() {
                continue;
            }
            if let Some(vars) = rule_vars(store, rule, &t, None) {
                grew |= add_row(store, &mut t, rule.head_rel, &rule.head, &vars);
            }
        }
        if !grew {
            return t;
        }
    }
}

/// The needed terms per position, from the roots down through the bodies.
fn need(store: &TermStore, rs: &RuleSet, supply: &Table, roots: &[RelId]) -> Table {
    let mut t: Table = rs.arity.iter().map(|&a| vec![Dom::default(); a]).collect();
    for &r in roots {
        t[r].iter_mut().for_each(|d| *d = Dom::top());
    }
    loop {
        let mut grew = false;
        for rule in &rs.rules {
            let Some(vars) = rule_vars(store, rule, supply, Some(&t)) else {
                continue;
            };
            for l in &rule.body {
                if let GLit::Pos(r, pats) | GLit::Neg(r, pats) = l {
                    grew |= add_row(store, &mut t, *r, pats, &vars);
                }
            }
        }
        if !grew {
            return t;
        }
    }
}

/// The filter relations added and their rows (one constant each).
#[derive(Default)]
pub struct Filters {
    pub rows: Vec<(RelId, TermId)>,
    /// Rules that got a filter literal.
    pub rules: usize,
}

/// Adds to each dynamic rule a filter literal per head variable whose
/// needed constants are fewer than those its body can supply. The rules
/// keep their meaning for every needed atom. `gr` holds the static
/// relations (computed) and nothing else yet.
pub fn restrict(
    gr: &Grounder<'_>,
    rs: &mut RuleSet,
    facts: &[(RelId, Box<[TermId]>)],
    g: &Roles,
    budget: Budget,
    name: &dyn Fn(RelId) -> String,
) -> Filters {
    let mut computed = computed_relations(rs, g);
    let (mut arity, mut is_static) = (rs.arity.clone(), rs.is_static.clone());
    let static_rows: Vec<usize> = gr.rels.iter().map(|r| r.rows.len()).collect();
    let rules = value_rules(rs, &computed, &static_rows, g, &mut arity, &mut is_static);
    computed.resize(arity.len(), false);
    let values = reachable_values(
        gr, &arity, is_static, &rules, &computed, facts, g, budget, name,
    );
    computed.truncate(rs.arity.len());
    let Some(mut exact) = values else {
        return Filters::default();
    };
    exact.truncate(rs.arity.len());
    // (The value rules dropped literals: their rows are supersets of the
    // relaxed fixpoint's, so their projections are sound supplies.)
    let statics = projections(gr, &computed);
    for (e, s) in exact.iter_mut().zip(statics) {
        if s.is_some() {
            *e = s;
        }
    }
    let store: &TermStore = gr.store;
    let sup = supply(store, rs, &exact, facts);
    let nd = need(store, rs, &sup, &g.roots);
    if std::env::var_os("GDLKIT_GROUND_TYPES").is_some() {
        print_types(store, &sup, &nd, name);
    }
    add_filters(store, rs, g, &sup, &nd)
}

/// Static relations already computed: not those with rules in the dynamic
/// fixpoint (demand strategy), nor the `true` tables and `does` (filled
/// from `init`, `next` and `legal`, even when marked static).
fn computed_relations(rs: &RuleSet, g: &Roles) -> Vec<bool> {
    let mut computed: Vec<bool> = rs.is_static.clone();
    for rule in &rs.rules {
        computed[rule.head_rel] = false;
    }
    for r in g
        .true_tables
        .iter()
        .map(|x| x.1)
        .chain(g.true_all)
        .chain(g.does)
    {
        computed[r] = false;
    }
    computed
}

/// Adds the filter literals to the dynamic rules (not the roots'), one
/// static relation per set of needed constants.
fn add_filters(store: &TermStore, rs: &mut RuleSet, g: &Roles, sup: &Table, nd: &Table) -> Filters {
    let mut filters = Filters::default();
    let mut by_set: BTreeMap<Vec<TermId>, RelId> = BTreeMap::new();
    let (arity, is_static) = (&mut rs.arity, &mut rs.is_static);
    for rule in rs.rules.iter_mut() {
        if g.roots.contains(&rule.head_rel) {
            continue;
        }
        let Some(have) = rule_vars(store, rule, sup, None) else {
            continue;
        };
        let mut asked = vec![Dom::top(); rule.num_vars];
        let mut head_ok = true;
        for (p, d) in rule.head.iter().zip(&nd[rule.head_rel]) {
            head_ok &= constrain(store, p, d, &mut asked, 0);
        }
        if !head_ok {
            // Nothing asks for this rule's atoms: it keeps them all (rare;
            // a filter on every variable would need an empty relation).
            continue;
        }
        let mut added = false;
        for v in 0..rule.num_vars {
            let a = &asked[v];
            if a.top || !a.apps.is_empty() {
                continue;
            }
            let h = &have[v];
            if !h.top && h.apps.is_empty() && h.consts.is_subset(&a.consts) {
                continue;
            }
            let set: Vec<TermId> = if h.top || !h.apps.is_empty() {
                a.consts.iter().copied().collect()
            } else {
                a.consts.intersection(&h.consts).copied().collect()
            };
            let rel = *by_set.entry(set.clone()).or_insert_with(|| {
                let r = arity.len();
                arity.push(1);
                is_static.push(true);
                filters.rows.extend(set.iter().map(|&c| (r, c)));
                r
            });
            rule.body.push(GLit::Pos(rel, vec![Pat::Var(v as VarId)]));
            added = true;
        }
        filters.rules += usize::from(added);
    }
    filters
}

/// A diagnostic (`GDLKIT_GROUND_TYPES`): per relation and position, the
/// number of supplied and needed terms (`*` any, `+f` function terms).
fn print_types(store: &TermStore, sup: &Table, nd: &Table, name: &dyn Fn(RelId) -> String) {
    let show = |d: &Dom| {
        if d.top {
            return "*".to_string();
        }
        let mut s = d.consts.len().to_string();
        if d.consts.len() <= 10 {
            let c: Vec<String> = d.consts.iter().map(|&t| store.display(t)).collect();
            s = format!("{{{}}}", c.join(" "));
        }
        for (f, _) in d.apps.keys() {
            s.push_str(&format!("+{}", store.symbols.name(*f)));
        }
        s
    };
    for r in 0..sup.len() {
        let cols: Vec<String> = (0..sup[r].len())
            .map(|k| format!("{} / {}", show(&sup[r][k]), show(&nd[r][k])))
            .collect();
        eprintln!("types {}: {}", name(r), cols.join(", "));
    }
}

#[cfg(test)]
mod tests;
