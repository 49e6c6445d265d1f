//! The join engine of instantiation: a rule body is ordered (`order`) and
//! joined (`run_rule`) over the relations' rows, in both the relaxed
//! fixpoint and instantiation.

use super::{Args, AtomId, Grounder, Index, NO_ROW};
use crate::deps::RelId;
use crate::ground::rules::{GLit, GRule};
use crate::ground::GroundError;
use crate::reasoner::compile::{unify, value, Pat};
use crate::terms::TermId;
use rustc_hash::FxHasher;
use std::hash::Hasher;

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

impl Grounder<'_> {
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
}

/// Whether every variable of `p` is bound.
fn pat_bound(p: &Pat, bound: &[bool]) -> bool {
    let mut vs = Vec::new();
    crate::ground::rules::pat_vars(p, &mut vs);
    vs.iter().all(|&v| bound[v as usize])
}

/// Binds every variable of `pats`.
fn bind(pats: &[Pat], bound: &mut [bool]) {
    let mut vs = Vec::new();
    pats.iter()
        .for_each(|p| crate::ground::rules::pat_vars(p, &mut vs));
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
        .zip(crate::ground::semijoin::existential(rule, &order))
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
