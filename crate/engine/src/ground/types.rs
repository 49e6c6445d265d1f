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

/// The rules that decide which `true` and `does` atoms are reachable,
/// unsplit (each auxiliary literal replaced by its rule's body), each
/// without the positive literals that only filter (every variable bound
/// by another kept literal; the widest first, only wide or large ones),
/// then split again into `arity`/`is_static`. Dropping a
/// literal only adds atoms; it keeps chess's threat relations (read by
/// the discovered-check rules only as filters) out.
fn value_rules(
    rs: &RuleSet,
    computed: &[bool],
    static_rows: &[usize],
    g: &Roles,
    arity: &mut Vec<usize>,
    is_static: &mut Vec<bool>,
) -> Vec<GRule> {
    // Auxiliaries made by splitting: defined by one rule, read once with
    // the same variables as its head.
    let mut defs: Vec<Vec<usize>> = vec![Vec::new(); rs.arity.len()];
    let mut reads = vec![0usize; rs.arity.len()];
    for (i, rule) in rs.rules.iter().enumerate() {
        defs[rule.head_rel].push(i);
        for l in &rule.body {
            if let GLit::Pos(r, _) | GLit::Neg(r, _) = l {
                reads[*r] += 1;
            }
        }
    }
    let inline = |l: &GLit| match l {
        GLit::Pos(r, pats) if *r >= g.first_aux && defs[*r].len() == 1 && reads[*r] == 1 => {
            let d = &rs.rules[defs[*r][0]];
            (d.head == *pats).then_some(d)
        }
        _ => None,
    };
    // Dropped if covered: wide dynamic relations (chess's threats over an
    // ignored cell) and large static ones (its `different_cells`).
    let wide = |r: RelId| {
        if computed[r] {
            static_rows[r] > 4096
        } else {
            rs.arity[r] >= 7
        }
    };
    let mut wanted = vec![false; rs.arity.len()];
    let mut stack: Vec<RelId> = [g.legal, g.next].into_iter().flatten().collect();
    let mut out = Vec::new();
    while let Some(r) = stack.pop() {
        if std::mem::replace(&mut wanted[r], true) {
            continue;
        }
        for &i in &defs[r] {
            let mut rule = rs.rules[i].clone();
            // Unsplit (auxiliaries nest: a work list, bounded by the rules).
            let mut body = Vec::new();
            let mut work: Vec<GLit> = rule.body.drain(..).rev().collect();
            while let Some(l) = work.pop() {
                match inline(&l) {
                    Some(d) => work.extend(d.body.iter().rev().cloned()),
                    None => body.push(l),
                }
            }
            // The relaxed fixpoint ignores dynamic negations: without them
            // splitting projects away the variables only they read.
            body.retain(|l| !matches!(l, GLit::Neg(x, _) if !computed[*x]));
            let mut order: Vec<usize> = (0..body.len())
                .filter(|&i| matches!(&body[i], GLit::Pos(x, _) if wide(*x)))
                .collect();
            order.sort_by_key(|&i| match &body[i] {
                GLit::Pos(_, ps) => std::cmp::Reverse(ps.len()),
                _ => std::cmp::Reverse(0),
            });
            let mut dropped = vec![false; body.len()];
            for i in order {
                let mut mine = Vec::new();
                body[i].vars(&mut mine);
                let mut others = Vec::new();
                for (j, l) in body.iter().enumerate() {
                    if j != i && !dropped[j] && l.is_pos() {
                        l.vars(&mut others);
                    }
                }
                if mine.iter().all(|v| others.contains(v)) {
                    dropped[i] = true;
                }
            }
            let mut k = 0;
            body.retain(|_| {
                k += 1;
                !dropped[k - 1]
            });
            for l in &body {
                if let GLit::Pos(x, _) = l {
                    if !computed[*x] {
                        stack.push(*x);
                    }
                }
            }
            rule.body = body;
            super::rules::split_plain(rule, &mut out, arity, is_static);
        }
    }
    out
}

/// The filter relations added and their rows (one constant each).
#[derive(Default)]
pub struct Filters {
    pub rows: Vec<(RelId, TermId)>,
    /// Rules that got a filter literal.
    pub rules: usize,
}

/// Every relation's terms per position in `gr` (its rows' projections).
fn projections(gr: &Grounder<'_>, rels: &[bool]) -> Vec<Option<Vec<Dom>>> {
    let mut out = Vec::with_capacity(rels.len());
    for (r, &want) in rels.iter().enumerate() {
        if !want {
            out.push(None);
            continue;
        }
        let rel = &gr.rels[r];
        let mut doms = vec![Dom::default(); rel.arity];
        for &a in &rel.rows {
            for (d, &t) in doms.iter_mut().zip(gr.atoms.args(a)) {
                d.join(&Dom::of_term(gr.store, t, 0));
            }
        }
        out.push(Some(doms));
    }
    out
}

/// The relaxed fixpoint of the value rules in a scratch grounder: the
/// reachable `true` and `does` atoms (over-approximated), or `None` over
/// its small budget (then no filters).
#[allow(clippy::too_many_arguments)]
fn reachable_values(
    gr: &Grounder<'_>,
    arity: &[usize],
    is_static: Vec<bool>,
    rules: &[GRule],
    computed: &[bool],
    facts: &[(RelId, Box<[TermId]>)],
    g: &Roles,
    budget: Budget,
    name: &dyn Fn(RelId) -> String,
) -> Option<Vec<Option<Vec<Dom>>>> {
    let mut store = gr.store.clone();
    let small = Budget {
        max_atoms: budget.max_atoms / 4,
        max_ms: budget.max_ms / 10.0,
        max_bytes: budget.max_bytes / 4,
        ..budget
    };
    let mut sc = Grounder::new(&mut store, arity, is_static, small);
    for (r, &c) in computed.iter().enumerate() {
        if c {
            for &a in &gr.rels[r].rows {
                sc.add(r, gr.atoms.args(a));
            }
        }
    }
    for (r, row) in facts {
        if !computed[*r] {
            sc.add(*r, row);
        }
    }
    let fluent = |sc: &mut Grounder<'_>, f: TermId| {
        let key = (sc.store.functor(f), sc.store.arity(f) as u32);
        if let Some(&(_, t)) = g.true_tables.iter().find(|(k, _)| *k == key) {
            let args: Vec<TermId> = sc.store.args_of(f).to_vec();
            sc.add(t, &args);
        }
        if let Some(t) = g.true_all {
            sc.add(t, &[f]);
        }
    };
    if let Some(ri) = g.init {
        for a in gr.rels[ri].rows.clone() {
            fluent(&mut sc, gr.atoms.args(a)[0]);
        }
    }
    let (mut next_seen, mut legal_seen) = (0usize, 0usize);
    let mut prof = super::profile::Profile::from_env(|| (0..arity.len()).map(name).collect());
    let done = super::fixpoint(&mut sc, rules, &mut prof, "types", |sc| {
        if let Some(rn) = g.next {
            while next_seen < sc.rels[rn].rows.len() {
                let f = sc.atoms.args(sc.rels[rn].rows[next_seen])[0];
                fluent(sc, f);
                next_seen += 1;
            }
        }
        if let (Some(rl), Some(rd)) = (g.legal, g.does) {
            while legal_seen < sc.rels[rl].rows.len() {
                let args: Vec<TermId> = sc.atoms.args(sc.rels[rl].rows[legal_seen]).to_vec();
                sc.add(rd, &args);
                legal_seen += 1;
            }
        }
    });
    prof.print("types: the value rules");
    if let Err(e) = done {
        if std::env::var_os("GDLKIT_GROUND_TYPES").is_some() {
            eprintln!("types: no filters, the value rules' fixpoint stopped: {e}");
            let mut sizes: Vec<(usize, RelId)> = sc
                .rels
                .iter()
                .enumerate()
                .map(|(r, x)| (x.rows.len(), r))
                .collect();
            sizes.sort_unstable_by(|a, b| b.cmp(a));
            for &(n, r) in sizes.iter().take(8) {
                eprintln!("types:   {} {n}", name(r));
            }
        }
        return None;
    }
    let mut filled = computed.to_vec();
    for rule in rules {
        filled[rule.head_rel] = true;
    }
    for r in g
        .true_tables
        .iter()
        .map(|x| x.1)
        .chain(g.true_all)
        .chain(g.does)
    {
        filled[r] = true;
    }
    Some(projections(&sc, &filled))
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
    // Static relations already computed: not those with rules in the
    // dynamic fixpoint (demand strategy), nor the `true` tables and `does`
    // (filled from `init`, `next` and `legal`, even when marked static).
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
    let mut filters = Filters::default();
    let mut by_set: BTreeMap<Vec<TermId>, RelId> = BTreeMap::new();
    let (arity, is_static) = (&mut rs.arity, &mut rs.is_static);
    for rule in rs.rules.iter_mut() {
        if g.roots.contains(&rule.head_rel) {
            continue;
        }
        let Some(have) = rule_vars(store, rule, &sup, None) else {
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
mod tests {
    use crate::ground::{
        ground_program_with_strategy, ground_with_strategy_for_tests, rules::Strategy, Budget,
    };
    use crate::reasoner::{Interpreter, StateMachine};
    use std::path::PathBuf;

    const GAME: &str = include_str!("../../testdata/typed_game.kif");

    /// The atoms of legal, next, goal and terminal, as text, sorted, and
    /// the number of rule instances.
    fn roots(text: &str, untyped: bool) -> (Vec<String>, usize) {
        try_roots(text, untyped).expect("grounds")
    }

    /// [`roots`], or `None` when the game does not ground within the
    /// default budget (full chess).
    fn try_roots(text: &str, untyped: bool) -> Option<(Vec<String>, usize)> {
        let program = crate::parse_program(text);
        let strategy = Strategy {
            untyped,
            ..Strategy::default()
        };
        let gp = ground_program_with_strategy(&program, Budget::default(), strategy).ok()?;
        let mut out = Vec::new();
        for r in [gp.rel_legal, gp.rel_next, gp.rel_goal, gp.rel_terminal]
            .into_iter()
            .flatten()
        {
            for &a in &gp.rels[r].rows {
                let args: Vec<String> = gp
                    .atoms
                    .args(a)
                    .iter()
                    .map(|&t| gp.store.display(t))
                    .collect();
                out.push(format!("{r} {}", args.join(" ")));
            }
        }
        out.sort();
        // Instances, not atoms: the filters' own rows are atoms.
        Some((out, gp.inst.len()))
    }

    /// Typing drops the mixed file/rank instances and keeps every atom of the
    /// game's outputs.
    #[test]
    fn typed_grounding_drops_atoms_but_keeps_the_outputs() {
        let (typed, n_typed) = roots(GAME, false);
        let (plain, n_plain) = roots(GAME, true);
        assert!(typed.len() > 10, "too few outputs: {typed:?}");
        assert_eq!(typed, plain);
        // watched: 9 marks x 6 x 6 ignored cells untyped, 9 x 3 x 3 typed.
        assert!(
            n_typed + 200 <= n_plain,
            "typed {n_typed} instances, untyped {n_plain}"
        );
    }

    /// Every reachable state of the test game: the typed network answers
    /// as the interpreter (legal moves, terminal, goals, next states).
    #[test]
    fn typed_network_agrees_with_the_interpreter_on_every_state() {
        let program = crate::parse_program(GAME);
        let typed = Strategy::default();
        let mut fast =
            ground_with_strategy_for_tests(&program, Budget::default(), typed).expect("grounds");
        let mut it = Interpreter::new(&program).expect("valid");
        let show = |ts: &[crate::terms::TermId], store: &crate::terms::TermStore| {
            let mut v: Vec<String> = ts.iter().map(|&t| store.display(t)).collect();
            v.sort();
            v
        };
        let mut queue = vec![(it.initial_state().unwrap(), fast.initial_state().unwrap())];
        let mut seen = std::collections::BTreeSet::new();
        while let Some((s, f)) = queue.pop() {
            let fs = show(&it.fluents(&s), it.terms());
            assert_eq!(fs, show(&fast.fluents(&f), fast.terms()));
            if !seen.insert(fs.clone()) {
                continue;
            }
            let term = it.is_terminal(&s).unwrap();
            assert_eq!(term, fast.is_terminal(&f).unwrap(), "{fs:?}");
            assert_eq!(it.goal_values(&s).unwrap(), fast.goal_values(&f).unwrap());
            let li = it.all_legal_moves(&s).unwrap();
            let lf = fast.all_legal_moves(&f).unwrap();
            assert_eq!(
                show(&li[0], it.terms()),
                show(&lf[0], fast.terms()),
                "{fs:?}"
            );
            if term {
                continue;
            }
            for m in show(&li[0], it.terms()) {
                let mi = crate::program::parse_ground_term(it.terms_mut(), &m).unwrap();
                let mf = crate::program::parse_ground_term(fast.terms_mut(), &m).unwrap();
                let s2 = it.next_state(&s, &[mi]).unwrap();
                let f2 = fast.next_state(&f, &[mf]).unwrap();
                queue.push((s2, f2));
            }
        }
        assert!(seen.len() >= 30, "only {} states", seen.len());
    }

    fn shared_games() -> Option<PathBuf> {
        let dir = std::env::var_os("GDLKIT_SHARED")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"))
            .join("games/repository");
        dir.is_dir().then_some(dir)
    }

    /// The project's games and corpus games with typed positions: the same
    /// outputs typed and untyped, never more rule instances.
    #[test]
    fn typed_and_untyped_groundings_have_the_same_outputs() {
        let mut texts: Vec<(String, String)> = Vec::new();
        let games = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../games");
        for e in std::fs::read_dir(&games).expect("games/") {
            let p = e.expect("entry").path();
            if p.extension().is_some_and(|x| x == "kif") {
                texts.push((
                    p.display().to_string(),
                    std::fs::read_to_string(&p).unwrap(),
                ));
            }
        }
        match shared_games() {
            Some(dir) => {
                for name in CORPUS {
                    let p = dir.join(format!("{name}.kif"));
                    texts.push((name.to_string(), std::fs::read_to_string(&p).unwrap()));
                }
            }
            None => eprintln!("skipped: the corpus games (../shared is missing)"),
        }
        let (mut smaller, mut compared) = (0, 0);
        for (name, text) in &texts {
            // Untyped grounding is the larger: a game it cannot ground
            // within the budget is left out.
            let Some((plain, n_plain)) = try_roots(text, true) else {
                eprintln!("skipped: {name} does not ground untyped");
                continue;
            };
            let (typed, n_typed) = roots(text, false);
            compared += 1;
            assert_eq!(typed, plain, "{name}");
            assert!(
                n_typed <= n_plain,
                "{name}: {n_typed} > {n_plain} instances"
            );
            smaller += usize::from(n_typed < n_plain);
        }
        assert!(compared >= 8, "only {compared} games compared");
        assert!(smaller >= 1, "typing dropped no instance in any game");
    }

    /// Corpus games whose typing drops atoms (and two where it does not).
    const CORPUS: &[&str] = &["ticTacToe", "connectFour"];
}
