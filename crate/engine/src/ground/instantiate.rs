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
use crate::reasoner::compile::{value, Pat};
use crate::terms::{TermId, TermStore};
use hashbrown::HashTable;
use rustc_hash::{FxHashMap, FxHasher};
use smallvec::SmallVec;
use std::hash::{Hash, Hasher};

mod join;

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
