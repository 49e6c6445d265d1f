//! Instantiation: the reachable ground atoms of every relation by a relaxed
//! fixpoint, then every ground instance of every rule over them.
//!
//! The relaxed program ignores negative literals on dynamic relations (a
//! negation can only remove derivations, so ignoring it over-approximates),
//! evaluates static relations exactly (rows from the interpreter, negations on
//! them exact, `distinct` exact), and closes the loop of the game: every
//! `next` atom is a possible `true` atom, every `legal` atom a possible `does`
//! atom, starting from `init`. Its least fixpoint contains every atom true in
//! any reachable state (the thesis' pitfall: it may contain many more, and
//! can be infinite with growing function terms — the budget catches that).
//!
//! Evaluation is semi-naive: after the first round, each rule runs once per
//! positive literal whose relation grew, with that literal reading only the
//! new rows. Joins take literals in the order of the fewest estimated rows,
//! with filters as soon as their variables are bound, like the interpreter.

use super::rules::{GLit, GRule};
use super::{Budget, GroundError};
use crate::clock::Deadline;
use crate::deps::RelId;
use crate::reasoner::compile::{unify, value, Pat};
use crate::terms::{TermId, TermStore};
use hashbrown::HashTable;
use rustc_hash::{FxHashMap, FxHasher};
use smallvec::SmallVec;
use std::hash::{Hash, Hasher};

pub type AtomId = u32;
const NO_ROW: u32 = u32::MAX;

/// A chained hash index of a relation on the argument positions in `mask`.
#[derive(Default)]
struct Index {
    covered: usize,
    heads: FxHashMap<u64, u32>,
    chain: Vec<u32>,
}

#[derive(Default)]
pub struct Relation {
    pub arity: usize,
    /// Atom ids in order of derivation (row `i` is `rows[i]`).
    pub rows: Vec<AtomId>,
    indexes: Vec<(u32, Index)>,
}

/// All ground atoms: relation and arguments, interned.
#[derive(Default)]
pub struct Atoms {
    pub rel: Vec<u32>,
    start: Vec<u32>,
    args: Vec<TermId>,
    table: HashTable<AtomId>,
}

fn hash_atom(rel: u32, args: &[TermId]) -> u64 {
    let mut h = FxHasher::default();
    rel.hash(&mut h);
    for a in args {
        h.write_u32(a.0);
    }
    h.finish()
}

impl Atoms {
    pub fn len(&self) -> usize {
        self.rel.len()
    }
    pub fn is_empty(&self) -> bool {
        self.rel.is_empty()
    }
    pub fn args(&self, a: AtomId) -> &[TermId] {
        let s = self.start[a as usize] as usize;
        let e = self
            .start
            .get(a as usize + 1)
            .map_or(self.args.len(), |&e| e as usize);
        &self.args[s..e]
    }
    pub fn find(&self, rel: u32, args: &[TermId]) -> Option<AtomId> {
        let h = hash_atom(rel, args);
        self.table
            .find(h, |&a| self.rel[a as usize] == rel && self.args(a) == args)
            .copied()
    }
    /// Interns an atom; returns it and whether it is new.
    fn intern(&mut self, rel: u32, args: &[TermId]) -> (AtomId, bool) {
        if let Some(a) = self.find(rel, args) {
            return (a, false);
        }
        let id = self.rel.len() as AtomId;
        self.rel.push(rel);
        self.start.push(self.args.len() as u32);
        self.args.extend_from_slice(args);
        let h = hash_atom(rel, args);
        let (rels, starts, argv) = (&self.rel, &self.start, &self.args);
        self.table.insert_unique(h, id, |&a| {
            let s = starts[a as usize] as usize;
            let e = starts
                .get(a as usize + 1)
                .map_or(argv.len(), |&e| e as usize);
            hash_atom(rels[a as usize], &argv[s..e])
        });
        (id, true)
    }
    fn bytes(&self) -> usize {
        self.rel.capacity() * 8 + self.args.capacity() * 4 + self.table.capacity() * 5
    }
}

/// One instance of a rule: the head atom and its dynamic body literals
/// (`atom << 1 | negated`); static literals and `distinct` are resolved.
/// An instance holds when all its literals do, or, for a counting rule's
/// (`count.rs`), when at least its `k` do.
pub struct Instances {
    pub head: Vec<AtomId>,
    /// `lits[start[i]..start[i + 1]]` are the literals of instance `i`.
    pub start: Vec<u32>,
    pub lits: Vec<u32>,
    /// `(instance, k)` of the counting instances, by instance.
    pub at_least: Vec<(u32, u32)>,
}

impl Instances {
    /// No instances yet.
    pub fn empty() -> Instances {
        Instances {
            head: Vec::new(),
            start: vec![0],
            lits: Vec::new(),
            at_least: Vec::new(),
        }
    }
    pub fn len(&self) -> usize {
        self.head.len()
    }
    pub fn is_empty(&self) -> bool {
        self.head.is_empty()
    }
    pub fn lits(&self, i: usize) -> &[u32] {
        &self.lits[self.start[i] as usize..self.start[i + 1] as usize]
    }
    /// How many of instance `i`'s literals must hold: `k` for a counting
    /// instance, `None` for all of them.
    pub fn at_least(&self, i: usize) -> Option<u32> {
        let i = i as u32;
        self.at_least
            .binary_search_by_key(&i, |&(j, _)| j)
            .ok()
            .map(|p| self.at_least[p].1)
    }
}

/// The grounder's database.
pub struct Grounder<'a> {
    pub store: &'a mut TermStore,
    pub atoms: Atoms,
    pub rels: Vec<Relation>,
    pub is_static: Vec<bool>,
    budget: Budget,
    deadline: Deadline,
    steps: u64,
    pub error: Option<GroundError>,
    /// Instances recorded in instantiation mode.
    pub inst: Instances,
}

/// Per-literal operation of an ordered body.
#[derive(Clone, Debug)]
enum Op {
    /// Iterate rows of `lit` (positive) with the bound positions in `mask`.
    Scan {
        lit: usize,
        mask: u32,
        delta: bool,
        /// One matching row suffices (`semijoin.rs`; fixpoints only).
        exists: bool,
    },
    /// Every argument bound: membership (or absence) test.
    Check {
        lit: usize,
    },
    Distinct {
        lit: usize,
    },
}

pub type Args = SmallVec<[TermId; 8]>;

impl<'a> Grounder<'a> {
    pub fn new(
        store: &'a mut TermStore,
        arity: &[usize],
        is_static: Vec<bool>,
        budget: Budget,
    ) -> Grounder<'a> {
        Grounder {
            store,
            atoms: Atoms::default(),
            rels: arity
                .iter()
                .map(|&a| Relation {
                    arity: a,
                    ..Relation::default()
                })
                .collect(),
            is_static,
            deadline: Deadline::after_ms(budget.max_ms),
            budget,
            steps: 0,
            error: None,
            inst: Instances::empty(),
        }
    }

    /// Memory held by the grounder's tables (an estimate in bytes).
    pub fn bytes(&self) -> usize {
        let rels: usize = self
            .rels
            .iter()
            .map(|r| {
                r.rows.capacity() * 4
                    + r.indexes
                        .iter()
                        .map(|(_, ix)| ix.chain.capacity() * 4 + ix.heads.capacity() * 13)
                        .sum::<usize>()
            })
            .sum();
        self.atoms.bytes()
            + rels
            + self.inst.head.capacity() * 4
            + self.inst.start.capacity() * 4
            + self.inst.lits.capacity() * 4
            + self.store.len() * 24
    }

    /// Join steps taken so far (for the profile).
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Adds a row; returns its atom id and whether it is new to the relation.
    pub fn add(&mut self, rel: RelId, args: &[TermId]) -> (AtomId, bool) {
        let (a, new) = self.atoms.intern(rel as u32, args);
        if new {
            self.rels[rel].rows.push(a);
            if self.atoms.len() > self.budget.max_atoms {
                self.fail(GroundError::Budget {
                    what: "ground atoms",
                    limit: self.budget.max_atoms as u64,
                });
            }
        }
        (a, new)
    }

    fn fail(&mut self, e: GroundError) {
        if self.error.is_none() {
            self.error = Some(e);
        }
    }

    /// Counts a join step; checks time and memory every few thousand.
    fn step(&mut self) -> bool {
        self.steps += 1;
        if self.steps & 0xfff == 0 {
            let steps = self.steps;
            crate::job::progress("grounding", || format!("{steps} join steps"));
            if self.deadline.passed() {
                self.fail(GroundError::Budget {
                    what: "milliseconds",
                    limit: self.budget.max_ms as u64,
                });
            } else if let Err(e) = crate::job::check() {
                self.fail(GroundError::Eval(e));
            } else if self.steps & 0xfffff == 0 && self.bytes() > self.budget.max_bytes {
                self.fail(GroundError::Budget {
                    what: "bytes of memory",
                    limit: self.budget.max_bytes as u64,
                });
            }
        }
        self.error.is_none()
    }

    pub fn check_memory(&mut self) {
        if self.bytes() > self.budget.max_bytes {
            self.fail(GroundError::Budget {
                what: "bytes of memory",
                limit: self.budget.max_bytes as u64,
            });
        }
        if self.deadline.passed() {
            self.fail(GroundError::Budget {
                what: "milliseconds",
                limit: self.budget.max_ms as u64,
            });
        }
    }

    /// Orders a body: `delta` first (as a delta scan), then filters as soon
    /// as bound and the scan with the fewest estimated rows.
    fn order(&self, rule: &GRule, delta: Option<usize>, relaxed: bool) -> Vec<Op> {
        let body = &rule.body;
        let mut bound = vec![false; rule.num_vars];
        let mut done = vec![false; body.len()];
        let mut ops = Vec::with_capacity(body.len());
        if let Some(i) = delta {
            if let GLit::Pos(_, pats) = &body[i] {
                ops.push(Op::Scan {
                    lit: i,
                    mask: 0,
                    delta: true,
                    exists: false,
                });
                bind(pats, &mut bound);
                done[i] = true;
            }
        }
        loop {
            self.place_tests(body, &bound, &mut done, &mut ops, relaxed);
            let Some(i) = self.cheapest_scan(body, &done, &bound) else {
                break;
            };
            let GLit::Pos(_, pats) = &body[i] else {
                unreachable!()
            };
            ops.push(Op::Scan {
                lit: i,
                mask: mask_of(pats, &bound),
                delta: false,
                exists: false,
            });
            bind(pats, &mut bound);
            done[i] = true;
        }
        if relaxed {
            mark_existential(rule, &mut ops);
        }
        ops
    }

    /// Places every literal not yet done whose variables are all bound, as
    /// a test (negations on dynamic relations are left out when `relaxed`).
    fn place_tests(
        &self,
        body: &[GLit],
        bound: &[bool],
        done: &mut [bool],
        ops: &mut Vec<Op>,
        relaxed: bool,
    ) {
        for (i, l) in body.iter().enumerate() {
            if done[i] {
                continue;
            }
            let ready = match l {
                GLit::Pos(_, ps) | GLit::Neg(_, ps) => ps.iter().all(|p| pat_bound(p, bound)),
                GLit::Distinct(a, b) => pat_bound(a, bound) && pat_bound(b, bound),
            };
            if ready {
                done[i] = true;
                match l {
                    GLit::Distinct(..) => ops.push(Op::Distinct { lit: i }),
                    GLit::Neg(r, _) if relaxed && !self.is_static[*r] => {}
                    _ => ops.push(Op::Check { lit: i }),
                }
            }
        }
    }

    /// The positive literal not yet done with the fewest estimated rows
    /// (the first among equals).
    fn cheapest_scan(&self, body: &[GLit], done: &[bool], bound: &[bool]) -> Option<usize> {
        let mut best: Option<(f64, usize)> = None;
        for (i, l) in body.iter().enumerate() {
            if done[i] {
                continue;
            }
            if let GLit::Pos(r, pats) = l {
                let a = pats.len();
                let b = pats.iter().filter(|p| pat_bound(p, bound)).count();
                let size = self.rels[*r].rows.len().max(1) as f64;
                let est = if a == 0 {
                    0.0
                } else {
                    size.powf((a - b) as f64 / a as f64)
                };
                if best.is_none_or(|(e, _)| est < e) {
                    best = Some((est, i));
                }
            }
        }
        best.map(|(_, i)| i)
    }

    fn ensure_index(&mut self, rel: RelId, mask: u32) -> usize {
        let r = &mut self.rels[rel];
        let pos = match r.indexes.iter().position(|(m, _)| *m == mask) {
            Some(p) => p,
            None => {
                r.indexes.push((mask, Index::default()));
                r.indexes.len() - 1
            }
        };
        let (rows, ix) = (&r.rows, &mut r.indexes[pos].1);
        while ix.covered < rows.len() {
            let row = ix.covered as u32;
            let args = self.atoms.args(rows[ix.covered]);
            let key = key_hash(args, mask);
            let prev = ix.heads.insert(key, row).unwrap_or(NO_ROW);
            ix.chain.push(prev);
            ix.covered += 1;
        }
        pos
    }

    /// Runs one rule. In relaxed mode, new head atoms are added to their
    /// relation (returns how many); otherwise instances are recorded.
    /// `ranges[r]` limits the rows of relation `r` read (a snapshot), and
    /// `delta` reads literal `i` only in `[lo, hi)`.
    pub fn run_rule(
        &mut self,
        rule: &GRule,
        delta: Option<(usize, u32, u32)>,
        limit: &[u32],
        relaxed: bool,
    ) -> usize {
        // Ordering a wide rule costs time of its own (quadratic in its
        // body): check the job before, and do nothing once grounding failed.
        if self.error.is_none() {
            if let Err(e) = crate::job::check() {
                self.fail(GroundError::Eval(e));
            }
        }
        if self.error.is_some() {
            return 0;
        }
        let ops = self.order(rule, delta.map(|d| d.0), relaxed);
        for op in &ops {
            if let Op::Scan { lit, mask, .. } = op {
                if *mask != 0 {
                    if let GLit::Pos(r, _) = &rule.body[*lit] {
                        self.ensure_index(*r, *mask);
                    }
                }
            }
        }
        let mut env = vec![TermId::NONE; rule.num_vars];
        let mut trail: Vec<u16> = Vec::new();
        let mut lits: Vec<u32> = Vec::new();
        let mut head: Args = Args::new();
        let mut ctx = JoinCtx {
            rule,
            ops: &ops,
            delta: delta.map_or((0, 0), |d| (d.1, d.2)),
            limit,
            relaxed,
            head: &mut head,
            added: 0,
        };
        // Derived atoms are added as they are found: scans read row ranges
        // fixed before the join, so new rows are seen only in a later round.
        self.join(&mut ctx, 0, &mut env, &mut trail, &mut lits);
        ctx.added
    }

    fn join(
        &mut self,
        cx: &mut JoinCtx<'_>,
        i: usize,
        env: &mut [TermId],
        trail: &mut Vec<u16>,
        lits: &mut Vec<u32>,
    ) {
        if self.error.is_some() {
            return;
        }
        let Some(op) = cx.ops.get(i) else {
            self.emit(cx, env, lits);
            return;
        };
        match *op {
            Op::Scan { .. } => self.join_scan(cx, i, env, trail, lits),
            Op::Check { .. } => self.join_check(cx, i, env, trail, lits),
            Op::Distinct { lit } => {
                let GLit::Distinct(a, b) = &cx.rule.body[lit] else {
                    unreachable!()
                };
                let x = self.build(a, env);
                let y = self.build(b, env);
                if let (Some(x), Some(y)) = (x, y) {
                    if x != y {
                        self.join(cx, i + 1, env, trail, lits);
                    }
                }
            }
        }
    }

    /// A scan: every visible row of the literal that matches its bound
    /// arguments (by index when some are bound) continues the join.
    fn join_scan(
        &mut self,
        cx: &mut JoinCtx<'_>,
        i: usize,
        env: &mut [TermId],
        trail: &mut Vec<u16>,
        lits: &mut Vec<u32>,
    ) {
        let Op::Scan {
            lit,
            mask,
            delta,
            exists,
        } = cx.ops[i]
        else {
            unreachable!("a scan")
        };
        let GLit::Pos(rel, pats) = &cx.rule.body[lit] else {
            unreachable!()
        };
        let rel = *rel;
        let record = !cx.relaxed && !self.is_static[rel];
        let hi = cx.limit[rel];
        let lo = if delta { cx.delta.0 } else { 0 };
        let hi = if delta { cx.delta.1 } else { hi };
        if mask == 0 {
            for row in lo..hi {
                if !self.step() {
                    return;
                }
                let a = self.rels[rel].rows[row as usize];
                if self.try_row(cx, i, pats, a, record, env, trail, lits) && exists {
                    return;
                }
            }
        } else {
            let mut vals: Args = Args::new();
            for (k, p) in pats.iter().enumerate() {
                if k < 32 && mask >> k & 1 == 1 {
                    match value(self.store, p, env) {
                        Some(v) => vals.push(v),
                        None => return,
                    }
                }
            }
            let key = hash_vals(&vals);
            let pos = self.rels[rel]
                .indexes
                .iter()
                .position(|(m, _)| *m == mask)
                .expect("index registered");
            let mut row = self.rels[rel].indexes[pos]
                .1
                .heads
                .get(&key)
                .copied()
                .unwrap_or(NO_ROW);
            while row != NO_ROW {
                if !self.step() {
                    return;
                }
                let next = self.rels[rel].indexes[pos].1.chain[row as usize];
                if row >= lo && row < hi {
                    let a = self.rels[rel].rows[row as usize];
                    if self.try_row(cx, i, pats, a, record, env, trail, lits) && exists {
                        return;
                    }
                }
                row = next;
            }
        }
    }

    /// A test of a fully bound literal; a dynamic one is recorded in the
    /// instance (when instantiating).
    fn join_check(
        &mut self,
        cx: &mut JoinCtx<'_>,
        i: usize,
        env: &mut [TermId],
        trail: &mut Vec<u16>,
        lits: &mut Vec<u32>,
    ) {
        let Op::Check { lit } = cx.ops[i] else {
            unreachable!("a check")
        };
        let (rel, pats, neg) = match &cx.rule.body[lit] {
            GLit::Pos(r, p) => (*r, p, false),
            GLit::Neg(r, p) => (*r, p, true),
            GLit::Distinct(..) => unreachable!(),
        };
        let mut vals: Args = Args::new();
        let mut exists = true;
        for p in pats.iter() {
            match value(self.store, p, env) {
                Some(v) => vals.push(v),
                None => {
                    exists = false;
                    break;
                }
            }
        }
        let atom = if exists {
            self.atoms.find(rel as u32, &vals)
        } else {
            None
        };
        // Rows beyond the snapshot are not visible yet.
        let atom = atom.filter(|&a| self.visible(rel, a, cx.limit[rel]));
        let stat = self.is_static[rel];
        match (atom, neg) {
            (None, false) => {}
            (Some(a), false) => {
                if !cx.relaxed && !stat {
                    lits.push(a << 1);
                    self.join(cx, i + 1, env, trail, lits);
                    lits.pop();
                } else {
                    self.join(cx, i + 1, env, trail, lits);
                }
            }
            (None, true) => self.join(cx, i + 1, env, trail, lits),
            (Some(a), true) => {
                if !stat {
                    // Only reached when instantiating.
                    lits.push(a << 1 | 1);
                    self.join(cx, i + 1, env, trail, lits);
                    lits.pop();
                }
            }
        }
    }

    /// Whether atom `a` of `rel` is among the first `limit` rows.
    fn visible(&self, rel: RelId, a: AtomId, limit: u32) -> bool {
        let rows = &self.rels[rel].rows;
        if limit as usize >= rows.len() {
            return true;
        }
        // Rows are appended in atom-id order within a relation.
        rows[..limit as usize].last().is_some_and(|&last| a <= last)
    }

    #[allow(clippy::too_many_arguments)]
    fn try_row(
        &mut self,
        cx: &mut JoinCtx<'_>,
        i: usize,
        pats: &[Pat],
        a: AtomId,
        record: bool,
        env: &mut [TermId],
        trail: &mut Vec<u16>,
        lits: &mut Vec<u32>,
    ) -> bool {
        let mark = trail.len();
        let ok = {
            let args = self.atoms.args(a);
            pats.iter()
                .zip(args)
                .all(|(p, &t)| unify(self.store, p, t, env, trail))
        };
        if ok {
            if record {
                lits.push(a << 1);
            }
            self.join(cx, i + 1, env, trail, lits);
            if record {
                lits.pop();
            }
        }
        for v in trail.drain(mark..) {
            env[v as usize] = TermId::NONE;
        }
        ok
    }

    fn emit(&mut self, cx: &mut JoinCtx<'_>, env: &[TermId], lits: &[u32]) {
        cx.head.clear();
        for p in &cx.rule.head {
            match self.build(p, env) {
                Some(t) => cx.head.push(t),
                None => return,
            }
        }
        let (a, new) = self.add(cx.rule.head_rel, cx.head);
        cx.added += usize::from(new);
        if !cx.relaxed {
            self.push_instance(a, lits);
        }
    }

    /// Records a counting rule's instances (`count.rs`): per `Y`, one
    /// instance of `N(Y)` over its members `M(b, Y)` that holds when `k` of
    /// them do.
    pub fn run_count(&mut self, rule: &GRule, k: u32) {
        let GLit::Pos(m_rel, _) = &rule.body[0] else {
            return;
        };
        let mut index: FxHashMap<Box<[TermId]>, usize> = FxHashMap::default();
        let mut groups: Vec<(Box<[TermId]>, Vec<u32>)> = Vec::new();
        for &a in &self.rels[*m_rel].rows {
            let y: Box<[TermId]> = self.atoms.args(a)[1..].into();
            let g = *index.entry(y.clone()).or_insert_with(|| {
                groups.push((y, Vec::new()));
                groups.len() - 1
            });
            groups[g].1.push(a << 1);
        }
        for (y, members) in &groups {
            let head: Option<AtomId> = self.atoms.find(rule.head_rel as u32, y);
            if let Some(h) = head.filter(|_| members.len() >= k as usize) {
                self.push_instance_at_least(h, members, k);
            }
            if self.error.is_some() {
                return;
            }
        }
    }

    /// Records an instance that holds when at least `k` of `lits` do.
    pub fn push_instance_at_least(&mut self, head: AtomId, lits: &[u32], k: u32) {
        let i = self.inst.head.len() as u32;
        self.inst.at_least.push((i, k));
        self.push_instance(head, lits);
    }

    /// Records an instance: `head` holds if every literal does.
    pub fn push_instance(&mut self, head: AtomId, lits: &[u32]) {
        self.inst.head.push(head);
        self.inst.lits.extend_from_slice(lits);
        self.inst.start.push(self.inst.lits.len() as u32);
        if self.inst.lits.len() + self.inst.head.len() > self.budget.max_literals {
            self.fail(GroundError::Budget {
                what: "literals in rule instances",
                limit: self.budget.max_literals as u64,
            });
        }
    }

    /// A new, empty relation.
    pub fn push_relation(&mut self, arity: usize, is_static: bool) {
        self.rels.push(Relation {
            arity,
            ..Relation::default()
        });
        self.is_static.push(is_static);
    }

    /// Whether the atom of `rel` over `pats` under `env` was derived.
    pub fn holds(&self, rel: RelId, pats: &[Pat], env: &[TermId]) -> bool {
        let vals: Option<Args> = pats.iter().map(|p| value(self.store, p, env)).collect();
        vals.is_some_and(|v| self.atoms.find(rel as u32, &v).is_some())
    }

    /// The terms of `pats` under `env` (interned).
    pub fn build_args(&mut self, pats: &[Pat], env: &[TermId]) -> Option<Args> {
        pats.iter().map(|p| self.build(p, env)).collect()
    }

    /// A join step taken outside [`Self::run_rule`]; false once grounding failed.
    pub fn tick(&mut self) -> bool {
        self.step()
    }

    fn build(&mut self, p: &Pat, env: &[TermId]) -> Option<TermId> {
        match p {
            Pat::Var(v) => Some(env[*v as usize]),
            Pat::Const(t) => Some(*t),
            Pat::App(f, args) => {
                let mut vals = Args::new();
                for a in args.iter() {
                    vals.push(self.build(a, env)?);
                }
                let t = self.store.app(*f, &vals);
                if self.store.depth(t) > self.budget.max_term_depth {
                    self.fail(GroundError::Budget {
                        what: "levels of term nesting",
                        limit: self.budget.max_term_depth as u64,
                    });
                    return None;
                }
                Some(t)
            }
        }
    }
}
/// Whether every variable of `p` is bound.
fn pat_bound(p: &Pat, bound: &[bool]) -> bool {
    let mut vs = Vec::new();
    super::rules::pat_vars(p, &mut vs);
    vs.iter().all(|&v| bound[v as usize])
}

/// Binds every variable of `pats`.
fn bind(pats: &[Pat], bound: &mut [bool]) {
    let mut vs = Vec::new();
    pats.iter().for_each(|p| super::rules::pat_vars(p, &mut vs));
    vs.iter().for_each(|&v| bound[v as usize] = true);
}

/// The positions (of the first 32) of `pats` that are bound.
fn mask_of(pats: &[Pat], bound: &[bool]) -> u32 {
    let mut m = 0u32;
    for (i, p) in pats.iter().enumerate().take(32) {
        if pat_bound(p, bound) {
            m |= 1 << i;
        }
    }
    m
}

/// Marks the scans after which one matching row suffices (`semijoin.rs`).
fn mark_existential(rule: &GRule, ops: &mut [Op]) {
    let order: Vec<usize> = ops
        .iter()
        .map(|op| match *op {
            Op::Scan { lit, .. } | Op::Check { lit } | Op::Distinct { lit } => lit,
        })
        .collect();
    for (op, e) in ops
        .iter_mut()
        .zip(super::semijoin::existential(rule, &order))
    {
        if let Op::Scan { exists, .. } = op {
            *exists = e;
        }
    }
}

struct JoinCtx<'r> {
    rule: &'r GRule,
    ops: &'r [Op],
    delta: (u32, u32),
    limit: &'r [u32],
    relaxed: bool,
    head: &'r mut Args,
    added: usize,
}

fn hash_vals(vals: &[TermId]) -> u64 {
    let mut h = FxHasher::default();
    for v in vals {
        h.write_u32(v.0);
    }
    h.finish()
}

fn key_hash(args: &[TermId], mask: u32) -> u64 {
    let mut h = FxHasher::default();
    for (k, v) in args.iter().enumerate() {
        if k < 32 && mask >> k & 1 == 1 {
            h.write_u32(v.0);
        }
    }
    h.finish()
}
