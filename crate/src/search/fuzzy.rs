//! Goal distance by fuzzy evaluation of the goal and terminal formulas
//! (Schiffel & Thielscher 2007, lecture 004).
//!
//! **Building.** The `goal` and `terminal` relations are unrolled into
//! ground formulas over fluents: every derived relation they use is
//! replaced by the disjunction of its rule bodies, instantiated over the
//! atoms that can ever hold. Those atoms come from a *relaxed* version of
//! the game (negation of state-dependent literals dropped, `true` = any
//! `init` or `next` fluent, `does` = any `legal` move) evaluated to its
//! fixpoint by the interpreter as if it were static — the syntax-based
//! reachability analysis of thesis 4.3. Static relations are evaluated
//! exactly and become constants. Recursive derived relations are cut where
//! they would call themselves (the cut literal counts as false).
//!
//! **Evaluating** a state `z` (product t-norm with threshold):
//! - a fluent is worth `p` if true in `z`, `1 - p` otherwise — raised
//!   towards 0.5 when a fluent of the same kind is *near* (ordered boards
//!   and counters, lecture 004 "Von Strukturen zur Evaluationsfunktion"):
//!   arguments whose values all lie on one successor chain (a static binary
//!   relation that is functional, injective and acyclic, such as
//!   `(succ 1 2) (succ 2 3) ...`) are coordinates; a false fluent such as
//!   `(cellholds 3 8 white)` is worth `(1-p) + 0.9·(p - 0.5)·(1 - d)`, where
//!   `d` is the smallest mean normalised distance to a true fluent that
//!   agrees on the other arguments (a white pawn on `(4 6)`); so pushing a
//!   pawn forward, or a counter nearing its limit, changes the estimate;
//! - `not f` is `1 - eval(f)`;
//! - `and` is the product `a1·…·an`, `or` the dual `1 - (1-a1)·…·(1-an)`;
//!   the threshold then puts a satisfied formula into `[t, 1]` and an
//!   unsatisfied one into `[0, 1 - t]` (`t + (1-t)·x` resp. `(1-t)·x`), so
//!   satisfied formulas are worth at least `t > 0.5` and unsatisfied ones at
//!   most `1 - t`, as with the lecture's `T'`. Deviation: the lecture clamps
//!   (`max(T, t)`), we rescale. With clamping, every unsatisfied disjunction
//!   of many small values sits at exactly `1 - t` — connect four's goal, an
//!   `or` of 69 lines, would then be worth the same in every position and
//!   the heuristic would be flat; rescaling keeps the order;
//! - for each goal value `gv` of a role: `h(gv, z) = eval(goal(gv) ∨
//!   terminal)` if `goal(gv)` holds in `z` (then reaching the end is good),
//!   else `eval(goal(gv) ∧ ¬terminal)` (avoid ending before it holds);
//! - `h(z) = Σ gv·h(gv, z) / Σ gv`, in `[0, 1]`.
//!
//! With more than one role the estimate is relative, `(1 + h_us − max h_other)
//! / 2`, so that the opponents' progress (which a weight-0 goal such as
//! "lose" never shows) counts against us; the result is scaled to `[1, 99]`.

use super::heuristics::{scale, Heuristic};
use crate::deps::DepGraph;
use crate::program::{Atom, Literal, Program, Rule, Term, VarId};
use crate::reasoner::{EvalError, Interpreter, Limits, StateMachine};
use crate::terms::{kw, Sym, TermId, TermStore};
use rustc_hash::{FxHashMap, FxHashSet};
use std::rc::Rc;

/// Truth value of a true fluent.
pub const P: f64 = 0.6;
/// Threshold of the t-norm.
pub const T: f64 = 0.55;

/// Limits of the construction (the heuristic is refused beyond them).
const MAX_NODES: usize = 400_000;
const MAX_WORK: u64 = 50_000_000;
const MAX_BODIES: usize = 256;
const MAX_NESTING: usize = 200;

#[derive(Clone, Debug, PartialEq)]
enum Node {
    Leaf(u32),
    Const(bool),
    Not(u32),
    And(Vec<u32>),
    Or(Vec<u32>),
}

/// The fuzzy goal-distance heuristic of one game.
pub struct FuzzyHeuristic {
    nodes: Vec<Node>,
    leaf_of: FxHashMap<TermId, u32>,
    leaves: usize,
    /// Per role: (goal value, formula node).
    goals: Vec<Vec<(i64, u32)>>,
    terminal: u32,
    geo: Geometry,
    // Scratch and a one-state cache.
    truth: Vec<bool>,
    leaf_val: Vec<f64>,
    fz: Vec<f64>,
    crisp: Vec<bool>,
    cached: Option<(Vec<TermId>, Vec<f64>)>,
}

impl FuzzyHeuristic {
    /// Builds the formulas of `program` for machine `m` (fluents are
    /// interned into `m`'s term store).
    pub fn build<M: StateMachine>(program: &Program, m: &mut M) -> Result<FuzzyHeuristic, String> {
        let relaxed = relax(program);
        let limits = Limits {
            max_static_rows: 2_000_000,
            max_terms: 5_000_000,
            ..Limits::default()
        };
        let mut ri = Interpreter::with_limits(&relaxed.program, limits).map_err(|d| {
            format!(
                "fuzzy heuristic: the relaxed game does not load: {}",
                d.first().map(|d| d.message.as_str()).unwrap_or("?")
            )
        })?;
        let mut g = Grounder::new(program, &mut ri, relaxed.rtrue);
        // Goal values per role, from the relaxed goal relation.
        let mut goal_atoms: Vec<Vec<(i64, TermId, TermId)>> = vec![Vec::new(); m.roles().len()];
        let goal_rows = g.rows(Key::Rel(kw::GOAL, 2))?;
        for (r, &role) in m.roles().to_vec().iter().enumerate() {
            let role_t = copy_term(m.terms(), role, g.store_mut());
            for row in goal_rows.rows.iter().filter(|row| row[0] == role_t) {
                if let Some(v) = g.store().as_int(row[1]) {
                    goal_atoms[r].push((v, row[0], row[1]));
                }
            }
            goal_atoms[r].sort_by_key(|x| x.0);
            goal_atoms[r].dedup_by_key(|x| x.0);
        }
        let mut goals = Vec::new();
        for atoms in &goal_atoms {
            let mut gs = Vec::new();
            for &(v, role_t, val_t) in atoms {
                let node = g.atom(kw::GOAL, &[role_t, val_t], 0)?;
                gs.push((v, node));
            }
            goals.push(gs);
        }
        let terminal = g.atom(kw::TERMINAL, &[], 0)?;
        let layout = g.layouts()?;
        // Fluents into the machine's store.
        let mut leaf_of = FxHashMap::default();
        let mut leaf_terms = Vec::new();
        for (i, &f) in g.leaf_terms.iter().enumerate() {
            let t = copy_term(g.ri.terms(), f, m.terms_mut());
            leaf_of.insert(t, i as u32);
            leaf_terms.push(t);
        }
        let mut geo = Geometry::new(g.ri.terms(), &layout, m.terms_mut());
        geo.leaf_geo = leaf_terms.iter().map(|&t| geo.info(m.terms(), t)).collect();
        let n = g.nodes.len();
        Ok(FuzzyHeuristic {
            leaves: g.leaf_terms.len(),
            nodes: std::mem::take(&mut g.nodes),
            leaf_of,
            goals,
            terminal,
            geo,
            truth: Vec::new(),
            leaf_val: Vec::new(),
            fz: vec![0.0; n],
            crisp: vec![false; n],
            cached: None,
        })
    }

    /// Size of the ground formulas (nodes, fluent leaves).
    pub fn size(&self) -> (usize, usize) {
        (self.nodes.len(), self.leaves)
    }

    /// Puts a raw value into the band of its truth value.
    fn band(raw: f64, crisp: bool) -> f64 {
        if crisp {
            T + (1.0 - T) * raw
        } else {
            (1.0 - T) * raw
        }
    }

    fn product(vals: impl Iterator<Item = f64>) -> f64 {
        vals.fold(1.0, |a, v| a * v)
    }

    /// Evaluates every node for a set of true fluents.
    fn run(&mut self, store: &TermStore, fluents: &[TermId]) {
        self.truth.clear();
        self.truth.resize(self.leaves, false);
        for f in fluents {
            if let Some(&l) = self.leaf_of.get(f) {
                self.truth[l as usize] = true;
            }
        }
        self.geo
            .leaf_values(store, fluents, &self.truth, &mut self.leaf_val);
        for i in 0..self.nodes.len() {
            let (fz, crisp) = match &self.nodes[i] {
                Node::Leaf(l) => (self.leaf_val[*l as usize], self.truth[*l as usize]),
                Node::Const(b) => (if *b { 1.0 } else { 0.0 }, *b),
                Node::Not(c) => (1.0 - self.fz[*c as usize], !self.crisp[*c as usize]),
                Node::And(cs) => {
                    let b = cs.iter().all(|&c| self.crisp[c as usize]);
                    (
                        Self::band(Self::product(cs.iter().map(|&c| self.fz[c as usize])), b),
                        b,
                    )
                }
                Node::Or(cs) => {
                    let b = cs.iter().any(|&c| self.crisp[c as usize]);
                    (
                        Self::band(
                            1.0 - Self::product(cs.iter().map(|&c| 1.0 - self.fz[c as usize])),
                            b,
                        ),
                        b,
                    )
                }
            };
            self.fz[i] = fz;
            self.crisp[i] = crisp;
        }
    }

    /// `h(z)` in `[0, 1]` for every role.
    pub fn absolute(&mut self, store: &TermStore, fluents: &[TermId]) -> Vec<f64> {
        self.run(store, fluents);
        let term = self.fz[self.terminal as usize];
        self.goals
            .iter()
            .map(|gs| {
                let (mut num, mut den) = (0.0, 0.0);
                for &(gv, node) in gs {
                    let g = self.fz[node as usize];
                    // goal ∨ terminal if the goal holds, else goal ∧ ¬terminal.
                    let h = if self.crisp[node as usize] {
                        Self::band(1.0 - (1.0 - g) * (1.0 - term), true)
                    } else {
                        Self::band(g * (1.0 - term), false)
                    };
                    num += gv as f64 * h;
                    den += gv as f64;
                }
                if den > 0.0 {
                    num / den
                } else {
                    0.5
                }
            })
            .collect()
    }

    /// The heuristic value of every role, in `[1, 99]`.
    pub fn values(&mut self, store: &TermStore, fluents: &[TermId]) -> Vec<f64> {
        let h = self.absolute(store, fluents);
        if h.len() < 2 {
            return h.into_iter().map(scale).collect();
        }
        (0..h.len())
            .map(|r| {
                let other = (0..h.len())
                    .filter(|&o| o != r)
                    .map(|o| h[o])
                    .fold(0.0, f64::max);
                scale((1.0 + h[r] - other) / 2.0)
            })
            .collect()
    }
}

impl<M: StateMachine> Heuristic<M> for FuzzyHeuristic {
    fn name(&self) -> String {
        "fuzzy".into()
    }
    fn evaluate(&mut self, m: &mut M, s: &M::State, role: usize) -> Result<f64, EvalError> {
        let mut fl = m.fluents(s);
        fl.sort_unstable();
        if let Some((f, v)) = &self.cached {
            if *f == fl {
                return Ok(v.get(role).copied().unwrap_or(50.0));
            }
        }
        let v = self.values(m.terms(), &fl);
        let out = v.get(role).copied().unwrap_or(50.0);
        self.cached = Some((fl, v));
        Ok(out)
    }
}

/// Copies a ground term between stores (symbols matched by name).
pub fn copy_term(from: &TermStore, t: TermId, to: &mut TermStore) -> TermId {
    let mut out: Vec<TermId> = Vec::new();
    let mut stack: Vec<(TermId, bool)> = vec![(t, false)];
    while let Some((t, done)) = stack.pop() {
        let args = from.args_of(t);
        if done || args.is_empty() {
            let sym = to.symbols.intern(from.symbols.name(from.functor(t)));
            let kids = out.split_off(out.len() - args.len());
            out.push(to.app(sym, &kids));
        } else {
            stack.push((t, true));
            for &a in args.iter().rev() {
                stack.push((a, false));
            }
        }
    }
    out.pop().expect("one term")
}

struct Relaxed {
    program: Program,
    rtrue: Sym,
}

/// Expands `or` into alternative bodies (at most [`MAX_BODIES`]).
fn expand(body: &[Literal]) -> Vec<Vec<Literal>> {
    let mut out: Vec<Vec<Literal>> = vec![Vec::new()];
    for lit in body {
        match lit {
            Literal::Or(ds, _) => {
                let mut alts = Vec::new();
                for d in ds {
                    alts.extend(expand(d));
                }
                let mut next = Vec::new();
                for prefix in &out {
                    for a in &alts {
                        if next.len() >= MAX_BODIES {
                            break;
                        }
                        let mut b = prefix.clone();
                        b.extend(a.iter().cloned());
                        next.push(b);
                    }
                }
                out = next;
            }
            other => out.iter_mut().for_each(|b| b.push(other.clone())),
        }
    }
    out
}

/// The relaxed game: `init`/`next` heads become `gdlkit__true`, `legal`
/// heads `gdlkit__does`, `true`/`does` in bodies likewise, and negated
/// state-dependent literals are dropped. Everything is then static.
fn relax(p: &Program) -> Relaxed {
    let graph = DepGraph::build(p);
    let mut symbols = p.symbols.clone();
    let rtrue = symbols.intern("gdlkit__true");
    let rdoes = symbols.intern("gdlkit__does");
    let rename = |a: &Atom| -> Atom {
        let mut a = a.clone();
        a.rel = match a.rel {
            kw::TRUE | kw::INIT | kw::NEXT => rtrue,
            kw::DOES | kw::LEGAL => rdoes,
            other => other,
        };
        a
    };
    let is_static = |a: &Atom| {
        graph
            .id_of(a.rel, a.arity())
            .is_none_or(|r| graph.is_static(r))
    };
    let mut rules = Vec::new();
    for rule in &p.rules {
        if matches!(rule.head.rel, kw::BASE | kw::INPUT) {
            continue;
        }
        for body in expand(&rule.body) {
            let mut nb = Vec::new();
            for lit in body {
                match lit {
                    Literal::Pos(a) => nb.push(Literal::Pos(rename(&a))),
                    Literal::Not(inner, span) => {
                        if let Literal::Pos(a) = &*inner {
                            if is_static(a) && !matches!(a.rel, kw::TRUE | kw::DOES) {
                                nb.push(Literal::Not(Box::new(Literal::Pos(a.clone())), span));
                            }
                        }
                    }
                    d @ Literal::Distinct(..) => nb.push(d),
                    Literal::Or(..) => {}
                }
            }
            rules.push(Rule {
                head: rename(&rule.head),
                body: nb,
                span: rule.span,
                vars: rule.vars.clone(),
                is_rule_form: rule.is_rule_form,
            });
        }
    }
    Relaxed {
        program: Program {
            symbols,
            rules,
            diagnostics: Vec::new(),
            dropped: Vec::new(),
        },
        rtrue,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Key {
    Rel(Sym, u32),
    /// Fluents with this functor and arity (rows are their arguments).
    True(Sym, u32),
    /// All fluents (rows of one element).
    TrueAll,
}

/// Possible rows of a relation with an index per argument position.
struct RowSet {
    rows: Vec<Vec<TermId>>,
    index: Vec<FxHashMap<TermId, Vec<u32>>>,
    set: FxHashSet<Vec<TermId>>,
}

impl RowSet {
    fn new(rows: Vec<Vec<TermId>>, arity: usize) -> RowSet {
        let mut index = vec![FxHashMap::<TermId, Vec<u32>>::default(); arity];
        for (i, r) in rows.iter().enumerate() {
            for (k, &a) in r.iter().enumerate().take(arity) {
                index[k].entry(a).or_default().push(i as u32);
            }
        }
        let set = rows.iter().cloned().collect();
        RowSet { rows, index, set }
    }
}

/// Rules of one relation, with `or` expanded.
struct RelRules {
    rules: Vec<(Vec<Term>, Vec<Vec<Literal>>, usize)>,
}

struct Grounder<'a> {
    ri: &'a mut Interpreter,
    rtrue: Sym,
    graph: DepGraph,
    by_head: FxHashMap<(Sym, u32), Rc<RelRules>>,
    rowsets: FxHashMap<Key, Rc<RowSet>>,
    memo: FxHashMap<(Sym, Vec<TermId>), u32>,
    in_progress: FxHashSet<(Sym, Vec<TermId>)>,
    nodes: Vec<Node>,
    leaf_terms: Vec<TermId>,
    leaf_node: FxHashMap<TermId, u32>,
    consts: [u32; 2],
    work: u64,
}

impl<'a> Grounder<'a> {
    fn new(p: &Program, ri: &'a mut Interpreter, rtrue: Sym) -> Grounder<'a> {
        let graph = DepGraph::build(p);
        let mut by_head: FxHashMap<(Sym, u32), RelRules> = FxHashMap::default();
        for rule in &p.rules {
            let key = (rule.head.rel, rule.head.arity() as u32);
            by_head
                .entry(key)
                .or_insert_with(|| RelRules { rules: Vec::new() })
                .rules
                .push((rule.head.args.clone(), expand(&rule.body), rule.vars.len()));
        }
        Grounder {
            ri,
            rtrue,
            graph,
            by_head: by_head.into_iter().map(|(k, v)| (k, Rc::new(v))).collect(),
            rowsets: FxHashMap::default(),
            memo: FxHashMap::default(),
            in_progress: FxHashSet::default(),
            nodes: vec![Node::Const(false), Node::Const(true)],
            leaf_terms: Vec::new(),
            leaf_node: FxHashMap::default(),
            consts: [0, 1],
            work: 0,
        }
    }

    fn store(&self) -> &TermStore {
        self.ri.terms()
    }
    fn store_mut(&mut self) -> &mut TermStore {
        self.ri.terms_mut()
    }

    fn push(&mut self, n: Node) -> Result<u32, String> {
        if self.nodes.len() >= MAX_NODES {
            return Err(format!(
                "fuzzy heuristic: the goal and terminal formulas exceed {MAX_NODES} nodes"
            ));
        }
        self.nodes.push(n);
        Ok(self.nodes.len() as u32 - 1)
    }

    fn tick(&mut self) -> Result<(), String> {
        self.work += 1;
        if self.work > MAX_WORK {
            return Err(
                "fuzzy heuristic: grounding the goal and terminal formulas takes too long".into(),
            );
        }
        Ok(())
    }

    fn is_const(&self, n: u32) -> Option<bool> {
        match self.nodes[n as usize] {
            Node::Const(b) => Some(b),
            _ => None,
        }
    }

    fn rows(&mut self, key: Key) -> Result<Rc<RowSet>, String> {
        if let Some(r) = self.rowsets.get(&key) {
            return Ok(Rc::clone(r));
        }
        let fetch =
            |ri: &mut Interpreter, sym: Sym, arity: usize| -> Result<Vec<Vec<TermId>>, String> {
                match ri.compiled().graph.id_of(sym, arity) {
                    Some(rel) => ri
                        .static_rows(rel)
                        .map_err(|e| format!("fuzzy heuristic: {e}")),
                    None => Ok(Vec::new()),
                }
            };
        let set = match key {
            Key::Rel(sym, arity) => {
                RowSet::new(fetch(self.ri, sym, arity as usize)?, arity as usize)
            }
            Key::TrueAll => RowSet::new(fetch(self.ri, self.rtrue, 1)?, 1),
            Key::True(f, arity) => {
                let all = self.rows(Key::TrueAll)?;
                let store = self.ri.terms();
                let rows: Vec<Vec<TermId>> = all
                    .rows
                    .iter()
                    .map(|r| r[0])
                    .filter(|&t| store.functor(t) == f && store.arity(t) == arity as usize)
                    .map(|t| store.args_of(t).to_vec())
                    .collect();
                RowSet::new(rows, arity as usize)
            }
        };
        let rc = Rc::new(set);
        self.rowsets.insert(key, Rc::clone(&rc));
        Ok(rc)
    }

    fn leaf(&mut self, fluent: TermId) -> Result<u32, String> {
        if let Some(&n) = self.leaf_node.get(&fluent) {
            return Ok(n);
        }
        let all = self.rows(Key::TrueAll)?;
        if !all.set.contains(&vec![fluent]) {
            return Ok(self.consts[0]); // can never hold
        }
        let l = self.leaf_terms.len() as u32;
        self.leaf_terms.push(fluent);
        let n = self.push(Node::Leaf(l))?;
        self.leaf_node.insert(fluent, n);
        Ok(n)
    }

    fn static_rel(&self, sym: Sym, arity: usize) -> bool {
        self.graph
            .id_of(sym, arity)
            .is_none_or(|r| self.graph.is_static(r))
    }

    /// The formula of a ground atom.
    fn atom(&mut self, rel: Sym, args: &[TermId], nesting: usize) -> Result<u32, String> {
        self.tick()?;
        if rel == kw::TRUE {
            return match args {
                [f] => self.leaf(*f),
                _ => Ok(self.consts[0]),
            };
        }
        if rel == kw::DOES {
            return Ok(self.consts[0]);
        }
        if self.static_rel(rel, args.len()) {
            let rows = self.rows(Key::Rel(rel, args.len() as u32))?;
            return Ok(self.consts[rows.set.contains(args) as usize]);
        }
        let key = (rel, args.to_vec());
        if let Some(&n) = self.memo.get(&key) {
            return Ok(n);
        }
        if nesting > MAX_NESTING || self.in_progress.contains(&key) {
            return Ok(self.consts[0]); // recursion cut
        }
        // Impossible atoms are false without looking at the rules.
        let possible = self.rows(Key::Rel(rel, args.len() as u32))?;
        if !possible.set.contains(args) {
            self.memo.insert(key, self.consts[0]);
            return Ok(self.consts[0]);
        }
        self.in_progress.insert(key.clone());
        let mut disjuncts = Vec::new();
        let rules = self.by_head.get(&(rel, args.len() as u32)).cloned();
        if let Some(rules) = rules {
            for (head, bodies, nvars) in &rules.rules {
                let mut env: Vec<Option<TermId>> = vec![None; *nvars];
                let mut trail = Vec::new();
                let store = self.ri.terms();
                if !head
                    .iter()
                    .zip(args)
                    .all(|(p, &t)| unify(store, p, t, &mut env, &mut trail))
                {
                    continue;
                }
                for body in bodies {
                    let mut done = vec![false; body.len()];
                    let mut acc = Vec::new();
                    self.join(
                        body,
                        &mut done,
                        &mut env.clone(),
                        &mut acc,
                        &mut disjuncts,
                        nesting,
                    )?;
                    if disjuncts.iter().any(|&d| self.is_const(d) == Some(true)) {
                        break;
                    }
                }
            }
        }
        self.in_progress.remove(&key);
        let n = self.or(disjuncts)?;
        self.memo.insert(key, n);
        Ok(n)
    }

    fn or(&mut self, mut ds: Vec<u32>) -> Result<u32, String> {
        if ds.iter().any(|&d| self.is_const(d) == Some(true)) {
            return Ok(self.consts[1]);
        }
        ds.retain(|&d| self.is_const(d) != Some(false));
        ds.sort_unstable();
        ds.dedup();
        match ds.len() {
            0 => Ok(self.consts[0]),
            1 => Ok(ds[0]),
            _ => self.push(Node::Or(ds)),
        }
    }

    fn and(&mut self, mut cs: Vec<u32>) -> Result<u32, String> {
        if cs.iter().any(|&d| self.is_const(d) == Some(false)) {
            return Ok(self.consts[0]);
        }
        cs.retain(|&d| self.is_const(d) != Some(true));
        cs.sort_unstable();
        cs.dedup();
        match cs.len() {
            0 => Ok(self.consts[1]),
            1 => Ok(cs[0]),
            _ => self.push(Node::And(cs)),
        }
    }

    fn not(&mut self, n: u32) -> Result<u32, String> {
        match self.is_const(n) {
            Some(b) => Ok(self.consts[!b as usize]),
            None => self.push(Node::Not(n)),
        }
    }

    /// Enumerates the groundings of `body` (literals not yet `done`),
    /// pushing one conjunction per grounding onto `out`.
    #[allow(clippy::too_many_arguments)]
    fn join(
        &mut self,
        body: &[Literal],
        done: &mut Vec<bool>,
        env: &mut Vec<Option<TermId>>,
        acc: &mut Vec<u32>,
        out: &mut Vec<u32>,
        nesting: usize,
    ) -> Result<(), String> {
        self.tick()?;
        // Filters whose variables are all bound: distinct and negations.
        let mut filtered = Vec::new();
        let acc_len = acc.len();
        for i in 0..body.len() {
            if done[i] {
                continue;
            }
            match &body[i] {
                Literal::Distinct(a, b, _) => {
                    let store = self.ri.terms_mut();
                    if let (Some(x), Some(y)) = (inst(store, a, env), inst(store, b, env)) {
                        done[i] = true;
                        filtered.push(i);
                        if x == y {
                            return self.undo(done, &filtered, acc, acc_len);
                        }
                    }
                }
                Literal::Not(inner, _) => {
                    let Literal::Pos(a) = &**inner else {
                        return Err("fuzzy heuristic: `not` around a non-atom in the goal or terminal rules".into());
                    };
                    let store = self.ri.terms_mut();
                    let ground: Option<Vec<TermId>> =
                        a.args.iter().map(|t| inst(store, t, env)).collect();
                    if let Some(ground) = ground {
                        done[i] = true;
                        filtered.push(i);
                        let n = self.atom(a.rel, &ground, nesting + 1)?;
                        let n = self.not(n)?;
                        if self.is_const(n) == Some(false) {
                            return self.undo(done, &filtered, acc, acc_len);
                        }
                        acc.push(n);
                    }
                }
                _ => {}
            }
        }
        // The next positive literal: the one with the most bound arguments.
        let mut pick: Option<(usize, i64)> = None;
        for (i, lit) in body.iter().enumerate() {
            if done[i] {
                continue;
            }
            if let Literal::Pos(a) = lit {
                let bound = a.args.iter().filter(|t| is_bound(t, env)).count() as i64;
                let score = bound * 4
                    + if self.static_rel(a.rel, a.arity()) {
                        2
                    } else {
                        0
                    }
                    - a.arity() as i64;
                if pick.is_none_or(|(_, s)| score > s) {
                    pick = Some((i, score));
                }
            }
        }
        let Some((i, _)) = pick else {
            if body.iter().zip(done.iter()).any(|(_, d)| !d) {
                // A filter with unbound variables: the rule is unsafe.
                self.undo(done, &filtered, acc, acc_len)?;
                return Err("fuzzy heuristic: unsafe rule in the goal or terminal rules".into());
            }
            let n = self.and(acc.clone())?;
            if self.is_const(n) != Some(false) {
                out.push(n);
            }
            return self.undo(done, &filtered, acc, acc_len);
        };
        let Literal::Pos(a) = &body[i] else {
            unreachable!("picked a positive literal")
        };
        // Candidate rows.
        let (key, pats): (Key, Vec<Term>) = if a.rel == kw::TRUE {
            match a.args.first() {
                Some(Term::App { functor, args, .. }) => {
                    (Key::True(*functor, args.len() as u32), args.clone())
                }
                Some(t @ Term::Const(s, _)) => (Key::True(*s, 0), {
                    let _ = t;
                    Vec::new()
                }),
                Some(v) => (Key::TrueAll, vec![v.clone()]),
                None => (Key::TrueAll, Vec::new()),
            }
        } else {
            (Key::Rel(a.rel, a.arity() as u32), a.args.clone())
        };
        let rows = self.rows(key)?;
        let candidates: Vec<u32> = {
            let store = self.ri.terms_mut();
            let mut by_index = None;
            for (k, p) in pats.iter().enumerate() {
                if let Some(t) = inst(store, p, env) {
                    by_index = Some(
                        rows.index
                            .get(k)
                            .and_then(|ix| ix.get(&t))
                            .cloned()
                            .unwrap_or_default(),
                    );
                    break;
                }
            }
            by_index.unwrap_or_else(|| (0..rows.rows.len() as u32).collect())
        };
        done[i] = true;
        let is_static = a.rel != kw::TRUE && self.static_rel(a.rel, a.arity());
        for c in candidates {
            self.tick()?;
            let row = &rows.rows[c as usize];
            let mut trail = Vec::new();
            let store = self.ri.terms();
            if row.len() != pats.len()
                || !pats
                    .iter()
                    .zip(row)
                    .all(|(p, &t)| unify(store, p, t, env, &mut trail))
            {
                for v in trail {
                    env[v as usize] = None;
                }
                continue;
            }
            let lit_node = if a.rel == kw::TRUE {
                let f = match key {
                    Key::True(fsym, _) => self.ri.terms_mut().app(fsym, row),
                    _ => row[0],
                };
                Some(self.leaf(f)?)
            } else if is_static {
                None
            } else {
                Some(self.atom(a.rel, row, nesting + 1)?)
            };
            if lit_node.is_none_or(|n| self.is_const(n) != Some(false)) {
                let before = acc.len();
                if let Some(n) = lit_node {
                    acc.push(n);
                }
                self.join(body, done, env, acc, out, nesting)?;
                acc.truncate(before);
            }
            for v in trail {
                env[v as usize] = None;
            }
            if out.iter().any(|&d| self.is_const(d) == Some(true)) {
                break; // the disjunction is already true
            }
        }
        done[i] = false;
        self.undo(done, &filtered, acc, acc_len)
    }

    fn undo(
        &mut self,
        done: &mut [bool],
        filtered: &[usize],
        acc: &mut Vec<u32>,
        len: usize,
    ) -> Result<(), String> {
        for &i in filtered {
            done[i] = false;
        }
        acc.truncate(len);
        Ok(())
    }
}

fn is_bound(t: &Term, env: &[Option<TermId>]) -> bool {
    match t {
        Term::Var(v, _) => env.get(*v as usize).is_some_and(Option::is_some),
        Term::Const(..) => true,
        Term::App { args, .. } => args.iter().all(|a| is_bound(a, env)),
    }
}

/// Matches a rule term against a ground term, binding variables (recorded
/// on `trail`). Rule terms are shallow (bounded by the reader's depth).
fn unify(
    store: &TermStore,
    p: &Term,
    t: TermId,
    env: &mut [Option<TermId>],
    trail: &mut Vec<VarId>,
) -> bool {
    match p {
        Term::Var(v, _) => match env.get(*v as usize).copied().flatten() {
            Some(b) => b == t,
            None => {
                if let Some(slot) = env.get_mut(*v as usize) {
                    *slot = Some(t);
                    trail.push(*v);
                    true
                } else {
                    false
                }
            }
        },
        Term::Const(s, _) => store.functor(t) == *s && store.arity(t) == 0,
        Term::App { functor, args, .. } => {
            if args.is_empty() {
                return store.functor(t) == *functor && store.arity(t) == 0;
            }
            store.functor(t) == *functor
                && store.arity(t) == args.len()
                && args
                    .iter()
                    .zip(store.args_of(t).to_vec())
                    .all(|(a, u)| unify(store, a, u, env, trail))
        }
    }
}

/// The ground term of a rule term under `env` (`None` if a variable is
/// unbound).
fn inst(store: &mut TermStore, p: &Term, env: &[Option<TermId>]) -> Option<TermId> {
    match p {
        Term::Var(v, _) => env.get(*v as usize).copied().flatten(),
        Term::Const(s, _) => Some(store.constant(*s)),
        Term::App { functor, args, .. } => {
            let mut a = Vec::with_capacity(args.len());
            for x in args {
                a.push(inst(store, x, env)?);
            }
            Some(store.app(*functor, &a))
        }
    }
}

/// Ordered arguments of fluents (coordinates on successor chains).
struct Geometry {
    /// Per fluent functor and arity: the chain of each argument, if ordered.
    layouts: FxHashMap<(Sym, u32), Vec<Option<u16>>>,
    /// Per chain: the position of each element, and the chain's length.
    chains: Vec<(FxHashMap<TermId, u16>, u16)>,
    groups: FxHashMap<(Sym, u32, Vec<TermId>), u32>,
    cache: FxHashMap<TermId, Option<Geo>>,
    leaf_geo: Vec<Option<Geo>>,
    /// Scratch: coordinates of the true fluents of each group.
    members: Vec<Vec<Vec<(u16, u16)>>>,
}

/// A fluent's group (functor and unordered arguments) and coordinates
/// (chain, position).
type Geo = (u32, Vec<(u16, u16)>);

/// Chains and layouts found in the relaxed game (terms of its store).
struct Layout {
    chains: Vec<Vec<TermId>>,
    /// (functor, arity, chain per argument)
    fluents: Vec<(Sym, u32, Vec<Option<u16>>)>,
}

impl Geometry {
    fn new(from: &TermStore, l: &Layout, to: &mut TermStore) -> Geometry {
        let chains = l
            .chains
            .iter()
            .map(|c| {
                (
                    c.iter()
                        .enumerate()
                        .map(|(i, &t)| (copy_term(from, t, to), i as u16))
                        .collect(),
                    c.len() as u16,
                )
            })
            .collect();
        let layouts = l
            .fluents
            .iter()
            .map(|(f, a, ch)| ((to.symbols.intern(from.symbols.name(*f)), *a), ch.clone()))
            .collect();
        Geometry {
            layouts,
            chains,
            groups: FxHashMap::default(),
            cache: FxHashMap::default(),
            leaf_geo: Vec::new(),
            members: Vec::new(),
        }
    }

    fn info(&mut self, store: &TermStore, f: TermId) -> Option<Geo> {
        if let Some(g) = self.cache.get(&f) {
            return g.clone();
        }
        let key = (store.functor(f), store.arity(f) as u32);
        let out = self.layouts.get(&key).and_then(|layout| {
            let mut rest = Vec::new();
            let mut coords = Vec::new();
            for (k, &a) in store.args_of(f).iter().enumerate() {
                match layout.get(k).copied().flatten() {
                    Some(c) => coords.push((c, *self.chains[c as usize].0.get(&a)?)),
                    None => rest.push(a),
                }
            }
            let n = self.groups.len() as u32;
            let g = *self.groups.entry((key.0, key.1, rest)).or_insert(n);
            Some((g, coords))
        });
        if self.cache.len() < 1_000_000 {
            self.cache.insert(f, out.clone());
        }
        out
    }

    /// Fuzzy values of the leaves for a state.
    fn leaf_values(
        &mut self,
        store: &TermStore,
        fluents: &[TermId],
        truth: &[bool],
        out: &mut Vec<f64>,
    ) {
        out.clear();
        out.extend(truth.iter().map(|&b| if b { P } else { 1.0 - P }));
        if self.layouts.is_empty() {
            return;
        }
        for &f in fluents {
            if let Some((g, coords)) = self.info(store, f) {
                let g = g as usize;
                if self.members.len() <= g {
                    self.members.resize(g + 1, Vec::new());
                }
                self.members[g].push(coords);
            }
        }
        for (l, geo) in self.leaf_geo.iter().enumerate() {
            let Some((g, coords)) = geo else { continue };
            if truth[l] || coords.is_empty() {
                continue;
            }
            let Some(ms) = self.members.get(*g as usize).filter(|m| !m.is_empty()) else {
                continue;
            };
            let mut dmin = f64::INFINITY;
            for m in ms {
                let mut d = 0.0;
                for (&(c, p), &(_, q)) in coords.iter().zip(m) {
                    let len = self.chains[c as usize].1.max(2) as f64;
                    d += (p as f64 - q as f64).abs() / (len - 1.0);
                }
                dmin = dmin.min(d / coords.len() as f64);
            }
            let near = (1.0 - dmin).clamp(0.0, 1.0);
            out[l] = (1.0 - P) + 0.9 * (P - 0.5) * near;
        }
        for m in &mut self.members {
            m.clear();
        }
    }
}

impl Grounder<'_> {
    /// Successor chains among the static binary relations, and the fluent
    /// arguments whose values all lie on one chain.
    fn layouts(&mut self) -> Result<Layout, String> {
        let mut chains: Vec<Vec<TermId>> = Vec::new();
        let rels: Vec<(Sym, usize)> = (0..self.graph.rels.len())
            .filter(|&r| self.graph.rels[r].arity == 2 && self.graph.is_static(r))
            .map(|r| (self.graph.rels[r].sym, r))
            .collect();
        for (sym, _) in rels {
            let rows = self.rows(Key::Rel(sym, 2))?;
            if let Some(c) = chain(&rows.rows) {
                if !chains.contains(&c) {
                    chains.push(c);
                }
            }
        }
        let mut fluents = Vec::new();
        if !chains.is_empty() {
            let all = self.rows(Key::TrueAll)?;
            let store = self.ri.terms();
            let mut values: FxHashMap<(Sym, u32), Vec<FxHashSet<TermId>>> = FxHashMap::default();
            for row in &all.rows {
                let f = row[0];
                let args = store.args_of(f);
                let e = values
                    .entry((store.functor(f), args.len() as u32))
                    .or_insert_with(|| vec![FxHashSet::default(); args.len()]);
                for (k, &a) in args.iter().enumerate() {
                    e[k].insert(a);
                }
            }
            let sets: Vec<FxHashSet<TermId>> =
                chains.iter().map(|c| c.iter().copied().collect()).collect();
            for ((f, arity), vals) in values {
                let per_arg: Vec<Option<u16>> = vals
                    .iter()
                    .map(|vs| {
                        if vs.len() < 2 {
                            return None;
                        }
                        sets.iter()
                            .position(|set| vs.iter().all(|v| set.contains(v)))
                            .map(|c| c as u16)
                    })
                    .collect();
                if per_arg.iter().any(Option::is_some) {
                    fluents.push((f, arity, per_arg));
                }
            }
        }
        Ok(Layout { chains, fluents })
    }
}

/// The elements of a successor chain in order, if `rows` (pairs) form one
/// (the structure module's test: functional, injective, acyclic, one path).
fn chain(rows: &[Vec<TermId>]) -> Option<Vec<TermId>> {
    let pairs: Vec<(TermId, TermId)> = rows.iter().map(|r| (r[0], r[1])).collect();
    crate::structure::statics::successor_chain(&pairs)
}
