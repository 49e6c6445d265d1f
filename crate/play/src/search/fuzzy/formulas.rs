//! Building the fuzzy heuristic's ground formulas (see [`super`]): the
//! relaxed game, and the `goal` and `terminal` relations unrolled into
//! formulas over the fluents that can hold (rule bodies are instantiated
//! against the relaxed game's rows, so the formulas stay as small as the
//! rows allow).
//!
//! Nothing here is a reasoner of its own: the rows (which atoms can ever
//! hold) are the interpreter's fixpoint of the relaxed game, the rules are
//! the interpreter's compiled rules (`reasoner::compile`: `or` expanded,
//! patterns, `true` tables) and matching a row is its `unify`. What remains
//! is the unrolling: which rule instances make a ground atom, as a formula.

use super::Node;
use crate::deps::DepGraph;
use crate::program::{Atom, Literal, Program, Rule};
use crate::reasoner::compile::{compile_with, instantiate, unify, Compiled, Lit, Pat, ProgramRule};
use crate::reasoner::{Interpreter, StateMachine};
use crate::structure::geometry::{self, Layout};
use crate::terms::{kw, Sym, TermId, TermStore};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// Limits of the construction (the heuristic is refused beyond them).
const MAX_NODES: usize = 400_000;
const MAX_WORK: u64 = 50_000_000;
/// Bodies of one rule unrolled (its first ones; the relaxed game's rows
/// use all the bodies the interpreter expands `or` into).
const MAX_BODIES: usize = 256;
const MAX_NESTING: usize = 200;

pub(super) struct Relaxed {
    pub(super) program: Program,
    pub(super) rtrue: Sym,
}

/// A body literal of the relaxed game (`None` if dropped): negations of
/// state-dependent literals go, also inside `or` (which the interpreter
/// expands when it compiles the relaxed game).
fn relax_literal(
    lit: &Literal,
    rename: &impl Fn(&Atom) -> Atom,
    is_static: &impl Fn(&Atom) -> bool,
) -> Option<Literal> {
    match lit {
        Literal::Pos(a) => Some(Literal::Pos(rename(a))),
        Literal::Not(inner, span) => match &**inner {
            Literal::Pos(a) if is_static(a) && !matches!(a.rel, kw::TRUE | kw::DOES) => {
                Some(Literal::Not(Box::new(Literal::Pos(a.clone())), *span))
            }
            _ => None,
        },
        d @ Literal::Distinct(..) => Some(d.clone()),
        Literal::Or(ds, span) => Some(Literal::Or(
            ds.iter()
                .map(|d| {
                    d.iter()
                        .filter_map(|l| relax_literal(l, rename, is_static))
                        .collect()
                })
                .collect(),
            *span,
        )),
    }
}

/// The relaxed game: `init`/`next` heads become `gdlkit__true`, `legal`
/// heads `gdlkit__does`, `true`/`does` in bodies likewise, and negated
/// state-dependent literals are dropped. Everything is then static.
pub(super) fn relax(p: &Program) -> Relaxed {
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
        let body = rule
            .body
            .iter()
            .filter_map(|l| relax_literal(l, &rename, &is_static))
            .collect();
        rules.push(Rule {
            head: rename(&rule.head),
            body,
            span: rule.span,
            vars: rule.vars.clone(),
            is_rule_form: rule.is_rule_form,
        });
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
pub(super) enum Key {
    Rel(Sym, u32),
    /// Fluents with this functor and arity (rows are their arguments).
    True(Sym, u32),
    /// All fluents (rows of one element).
    TrueAll,
}

/// Possible rows of a relation with an index per argument position.
pub(super) struct RowSet {
    pub(super) rows: Vec<Vec<TermId>>,
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

/// A body literal of a compiled rule as the unrolling reads it.
#[derive(Clone)]
enum BodyLit {
    Pos(Access),
    Neg(Access),
    Distinct(Pat, Pat),
}

/// The atom of a literal: its relation (`true` for the state tables), the
/// arity of that atom, the rows it matches and the patterns matched against
/// a row (a fluent's arguments for `Key::True`).
#[derive(Clone)]
struct Access {
    rel: Sym,
    arity: usize,
    key: Key,
    pats: Vec<Pat>,
}

/// Rules of one relation in program order: head, bodies (`or` expanded,
/// at most [`MAX_BODIES`]), number of variables.
struct RelRules {
    rules: Vec<(Vec<Pat>, Vec<Vec<BodyLit>>, usize)>,
}

pub(super) struct Grounder<'a> {
    pub(super) ri: &'a mut Interpreter,
    rtrue: Sym,
    graph: DepGraph,
    by_head: FxHashMap<(Sym, u32), Arc<RelRules>>,
    rowsets: FxHashMap<Key, Arc<RowSet>>,
    memo: FxHashMap<(Sym, Vec<TermId>), u32>,
    in_progress: FxHashSet<(Sym, Vec<TermId>)>,
    pub(super) nodes: Vec<Node>,
    pub(super) leaf_terms: Vec<TermId>,
    leaf_node: FxHashMap<TermId, u32>,
    consts: [u32; 2],
    work: u64,
}

/// The compiled rules of `p` per head relation, in program order, with
/// their literals resolved to the rows they read.
fn rules_by_head(compiled: &Compiled, p: &Program) -> FxHashMap<(Sym, u32), Arc<RelRules>> {
    let mut tables: FxHashMap<usize, Key> = compiled
        .true_tables
        .iter()
        .map(|(&(f, n), &rel)| (rel, Key::True(f, n)))
        .collect();
    if let Some(rel) = compiled.true_all {
        tables.insert(rel, Key::TrueAll);
    }
    let graph = &compiled.graph;
    let access = |rel: usize, pats: &[Pat]| match tables.get(&rel) {
        Some(&key) => Access {
            rel: kw::TRUE,
            arity: 1,
            key,
            pats: pats.to_vec(),
        },
        None => {
            let (sym, arity) = (graph.rels[rel].sym, graph.rels[rel].arity);
            Access {
                rel: sym,
                arity: arity as usize,
                key: Key::Rel(sym, arity),
                pats: pats.to_vec(),
            }
        }
    };
    let body_lit = |l: &Lit| match l {
        Lit::Pos { rel, pats, .. } => BodyLit::Pos(access(*rel, pats)),
        Lit::Neg { rel, pats, .. } => BodyLit::Neg(access(*rel, pats)),
        Lit::Distinct(a, b, _) => BodyLit::Distinct(a.clone(), b.clone()),
    };
    let mut by_head: FxHashMap<(Sym, u32), RelRules> = FxHashMap::default();
    for rule in compiled.rules_in_order(p) {
        let (rel, head, bodies, nvars) = match rule {
            ProgramRule::Fact(rel, row) => (
                rel,
                row.iter().map(|&t| Pat::Const(t)).collect(),
                vec![Vec::new()],
                0,
            ),
            ProgramRule::Rule(r) => (
                r.head_rel,
                r.head.to_vec(),
                r.bodies
                    .iter()
                    .take(MAX_BODIES)
                    .map(|b| b.iter().map(body_lit).collect())
                    .collect(),
                r.num_vars,
            ),
        };
        let key = (graph.rels[rel].sym, graph.rels[rel].arity);
        by_head
            .entry(key)
            .or_insert_with(|| RelRules { rules: Vec::new() })
            .rules
            .push((head, bodies, nvars));
    }
    by_head.into_iter().map(|(k, v)| (k, Arc::new(v))).collect()
}

impl<'a> Grounder<'a> {
    /// The unrolling of `p`'s rules against the rows of `ri`, the relaxed
    /// game's interpreter (`p` is compiled into its term store).
    pub(super) fn new(
        p: &Program,
        ri: &'a mut Interpreter,
        rtrue: Sym,
    ) -> Result<Grounder<'a>, String> {
        let compiled = compile_with(p, ri.terms_mut(), false).map_err(|d| {
            format!(
                "fuzzy heuristic: the rules do not compile: {}",
                d.first().map(|d| d.message.as_str()).unwrap_or("?")
            )
        })?;
        let by_head = rules_by_head(&compiled, p);
        let graph = compiled.graph;
        Ok(Grounder {
            ri,
            rtrue,
            graph,
            by_head,
            rowsets: FxHashMap::default(),
            memo: FxHashMap::default(),
            in_progress: FxHashSet::default(),
            nodes: vec![Node::Const(false), Node::Const(true)],
            leaf_terms: Vec::new(),
            leaf_node: FxHashMap::default(),
            consts: [0, 1],
            work: 0,
        })
    }

    pub(super) fn store(&self) -> &TermStore {
        self.ri.terms()
    }
    pub(super) fn store_mut(&mut self) -> &mut TermStore {
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
        // The job's time limit, cancellation and memory budget: a unit of
        // work can take microseconds, so MAX_WORK alone may take minutes.
        if self.work.is_multiple_of(4096) {
            crate::job::check().map_err(|e| {
                format!("fuzzy heuristic: grounding the goal and terminal formulas stopped: {e}")
            })?;
        }
        Ok(())
    }

    fn is_const(&self, n: u32) -> Option<bool> {
        match self.nodes[n as usize] {
            Node::Const(b) => Some(b),
            _ => None,
        }
    }

    pub(super) fn rows(&mut self, key: Key) -> Result<Arc<RowSet>, String> {
        if let Some(r) = self.rowsets.get(&key) {
            return Ok(Arc::clone(r));
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
        let rc = Arc::new(set);
        self.rowsets.insert(key, Arc::clone(&rc));
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
    pub(super) fn atom(
        &mut self,
        rel: Sym,
        args: &[TermId],
        nesting: usize,
    ) -> Result<u32, String> {
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
                let mut env = vec![TermId::NONE; *nvars];
                let mut trail = Vec::new();
                let store = self.ri.terms();
                if head.len() != args.len()
                    || !head
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
        body: &[BodyLit],
        done: &mut Vec<bool>,
        env: &mut Vec<TermId>,
        acc: &mut Vec<u32>,
        out: &mut Vec<u32>,
        nesting: usize,
    ) -> Result<(), String> {
        self.tick()?;
        let mut filtered = Vec::new();
        let acc_len = acc.len();
        if !self.apply_filters(body, done, env, acc, &mut filtered, nesting)? {
            return self.undo(done, &filtered, acc, acc_len);
        }
        let Some(i) = self.pick_positive(body, done, env) else {
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
        let BodyLit::Pos(a) = &body[i] else {
            unreachable!("picked a positive literal")
        };
        let rows = self.rows(a.key)?;
        let candidates = self.candidates(&rows, &a.pats, env);
        done[i] = true;
        let is_static = a.rel != kw::TRUE && self.static_rel(a.rel, a.arity);
        for c in candidates {
            self.tick()?;
            let row = &rows.rows[c as usize];
            let mut trail = Vec::new();
            let store = self.ri.terms();
            if row.len() != a.pats.len()
                || !a
                    .pats
                    .iter()
                    .zip(row)
                    .all(|(p, &t)| unify(store, p, t, env, &mut trail))
            {
                for v in trail {
                    env[v as usize] = TermId::NONE;
                }
                continue;
            }
            let lit_node = self.row_node(a, row, is_static, nesting)?;
            if lit_node.is_none_or(|n| self.is_const(n) != Some(false)) {
                let before = acc.len();
                if let Some(n) = lit_node {
                    acc.push(n);
                }
                self.join(body, done, env, acc, out, nesting)?;
                acc.truncate(before);
            }
            for v in trail {
                env[v as usize] = TermId::NONE;
            }
            if out.iter().any(|&d| self.is_const(d) == Some(true)) {
                break; // the disjunction is already true
            }
        }
        done[i] = false;
        self.undo(done, &filtered, acc, acc_len)
    }

    /// Applies the filters of `body` whose variables are all bound
    /// (distinct and negations): marks them done and lists them in
    /// `filtered`, pushes the negations onto `acc`. `false` when one fails.
    fn apply_filters(
        &mut self,
        body: &[BodyLit],
        done: &mut [bool],
        env: &[TermId],
        acc: &mut Vec<u32>,
        filtered: &mut Vec<usize>,
        nesting: usize,
    ) -> Result<bool, String> {
        for i in 0..body.len() {
            if done[i] {
                continue;
            }
            match &body[i] {
                BodyLit::Distinct(a, b) => {
                    let store = self.ri.terms_mut();
                    if let (Some(x), Some(y)) =
                        (instantiate(store, a, env), instantiate(store, b, env))
                    {
                        done[i] = true;
                        filtered.push(i);
                        if x == y {
                            return Ok(false);
                        }
                    }
                }
                BodyLit::Neg(a) => {
                    if let Some(ground) = self.ground_args(a, env) {
                        done[i] = true;
                        filtered.push(i);
                        let n = self.atom(a.rel, &ground, nesting + 1)?;
                        let n = self.not(n)?;
                        if self.is_const(n) == Some(false) {
                            return Ok(false);
                        }
                        acc.push(n);
                    }
                }
                BodyLit::Pos(_) => {}
            }
        }
        Ok(true)
    }

    /// The next positive literal to join: the one with the most bound
    /// arguments (static relations and small arities first among equals).
    fn pick_positive(&self, body: &[BodyLit], done: &[bool], env: &[TermId]) -> Option<usize> {
        let mut pick: Option<(usize, i64)> = None;
        for (i, lit) in body.iter().enumerate() {
            if done[i] {
                continue;
            }
            if let BodyLit::Pos(a) = lit {
                let bound = if a.rel == kw::TRUE {
                    a.pats.iter().all(|p| p.is_bound_in(env)) as i64
                } else {
                    a.pats.iter().filter(|p| p.is_bound_in(env)).count() as i64
                };
                let score = bound * 4
                    + if self.static_rel(a.rel, a.arity) {
                        2
                    } else {
                        0
                    }
                    - a.arity as i64;
                if pick.is_none_or(|(_, s)| score > s) {
                    pick = Some((i, score));
                }
            }
        }
        pick.map(|(i, _)| i)
    }

    /// The rows that can match `pats` under `env`: those the index gives
    /// for the first bound argument, else all.
    fn candidates(&mut self, rows: &RowSet, pats: &[Pat], env: &[TermId]) -> Vec<u32> {
        let store = self.ri.terms_mut();
        let mut by_index = None;
        for (k, p) in pats.iter().enumerate() {
            if let Some(t) = instantiate(store, p, env) {
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
    }

    /// The formula of the literal `a` matched to `row`: a leaf for `true`,
    /// none for a static relation (its rows always hold), else the atom's.
    fn row_node(
        &mut self,
        a: &Access,
        row: &[TermId],
        is_static: bool,
        nesting: usize,
    ) -> Result<Option<u32>, String> {
        Ok(if a.rel == kw::TRUE {
            let f = self.fluent(a.key, row);
            Some(self.leaf(f)?)
        } else if is_static {
            None
        } else {
            Some(self.atom(a.rel, row, nesting + 1)?)
        })
    }

    /// The arguments of a literal's atom under `env` (`None` while a
    /// variable is unbound): for `(true f)` the fluent `f`.
    fn ground_args(&mut self, a: &Access, env: &[TermId]) -> Option<Vec<TermId>> {
        let store = self.ri.terms_mut();
        let args: Option<Vec<TermId>> = a.pats.iter().map(|p| instantiate(store, p, env)).collect();
        let args = args?;
        Some(if a.rel == kw::TRUE {
            vec![self.fluent(a.key, &args)]
        } else {
            args
        })
    }

    /// The fluent of a `true` row: a whole fluent, or a functor's arguments.
    fn fluent(&mut self, key: Key, row: &[TermId]) -> TermId {
        match key {
            Key::True(f, _) => self.ri.terms_mut().app(f, row),
            _ => row[0],
        }
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

impl Grounder<'_> {
    /// The geometry's layout ([`geometry::layout`]) from the relaxed
    /// game: its static binary relations' rows and its reachable fluents.
    pub(super) fn layouts(&mut self) -> Result<Layout, String> {
        let rels: Vec<Sym> = (0..self.graph.rels.len())
            .filter(|&r| self.graph.rels[r].arity == 2 && self.graph.is_static(r))
            .map(|r| self.graph.rels[r].sym)
            .collect();
        let mut binary = Vec::new();
        for sym in rels {
            binary.push(self.rows(Key::Rel(sym, 2))?.rows.clone());
        }
        let all: Vec<TermId> = self.rows(Key::TrueAll)?.rows.iter().map(|r| r[0]).collect();
        Ok(geometry::layout(self.ri.terms(), &binary, &all))
    }
}
