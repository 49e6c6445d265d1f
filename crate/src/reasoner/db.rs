//! Relation storage for the interpreter: flat rows of term ids, a hash set
//! for deduplication and membership tests, and hash indexes on bound
//! argument positions that are extended lazily before each rule runs.

use crate::terms::TermId;
use hashbrown::HashTable;
use rustc_hash::{FxHashMap, FxHasher};
use std::hash::Hasher;

/// Row index within a relation.
pub type Row = u32;

/// Below this many rows a scan beats building an index.
const INDEX_THRESHOLD: usize = 8;

const NO_ROW: Row = Row::MAX;

fn hash_row(row: &[TermId]) -> u64 {
    let mut h = FxHasher::default();
    for t in row {
        h.write_u32(t.0);
    }
    h.finish()
}

/// Hashes the values at an index's bound positions, in position order.
#[derive(Default)]
pub struct KeyHasher(FxHasher);

impl KeyHasher {
    pub fn add(&mut self, t: TermId) {
        self.0.write_u32(t.0);
    }
    pub fn finish(&self) -> u64 {
        self.0.finish()
    }
}

/// Hash of a sequence of values (as [`KeyHasher`] computes it).
pub fn hash_key(values: impl Iterator<Item = TermId>) -> u64 {
    let mut h = KeyHasher::default();
    values.for_each(|t| h.add(t));
    h.finish()
}

/// A chained hash index on the argument positions in `mask`.
#[derive(Clone, Debug, Default)]
struct Index {
    mask: u32,
    /// Rows indexed so far (`rows[..covered]`).
    covered: usize,
    heads: FxHashMap<u64, Row>,
    /// `chain[r]` is the previous row with the same key as row `r`.
    chain: Vec<Row>,
}

#[derive(Clone, Debug, Default)]
pub struct Relation {
    pub arity: usize,
    rows: Vec<TermId>,
    len: usize,
    set: HashTable<Row>,
    indexes: Vec<Index>,
}

impl Relation {
    pub fn new(arity: usize) -> Relation {
        Relation { arity, ..Relation::default() }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn row(&self, r: Row) -> &[TermId] {
        let a = self.arity;
        &self.rows[r as usize * a..(r as usize + 1) * a]
    }

    /// Removes all rows, keeping allocations and registered indexes.
    pub fn clear(&mut self) {
        self.rows.clear();
        self.len = 0;
        self.set.clear();
        for ix in &mut self.indexes {
            ix.covered = 0;
            ix.heads.clear();
            ix.chain.clear();
        }
    }

    pub fn contains(&self, row: &[TermId]) -> bool {
        let h = hash_row(row);
        self.set.find(h, |&r| self.row(r) == row).is_some()
    }

    /// Adds a row; returns false if it was already present.
    pub fn insert(&mut self, row: &[TermId]) -> bool {
        debug_assert_eq!(row.len(), self.arity);
        let h = hash_row(row);
        let (rows, arity) = (&self.rows, self.arity);
        let get = |r: Row| &rows[r as usize * arity..(r as usize + 1) * arity];
        if self.set.find(h, |&r| get(r) == row).is_some() {
            return false;
        }
        let id = self.len as Row;
        self.rows.extend_from_slice(row);
        self.len += 1;
        let (rows, arity) = (&self.rows, self.arity);
        self.set.insert_unique(h, id, |&r| hash_row(&rows[r as usize * arity..(r as usize + 1) * arity]));
        true
    }

    /// Declares that lookups on `mask` will happen.
    pub fn register_index(&mut self, mask: u32) {
        if mask != 0 && !self.indexes.iter().any(|ix| ix.mask == mask) {
            self.indexes.push(Index { mask, ..Index::default() });
        }
    }

    /// Brings the registered indexes up to date (only for relations large
    /// enough to profit).
    pub fn refresh_indexes(&mut self) {
        if self.len < INDEX_THRESHOLD {
            return;
        }
        let arity = self.arity;
        for ix in &mut self.indexes {
            ix.chain.resize(self.len, NO_ROW);
            for r in ix.covered..self.len {
                let row = &self.rows[r * arity..(r + 1) * arity];
                let key = hash_key((0..arity).filter(|i| ix.mask >> i & 1 == 1).map(|i| row[i]));
                let prev = ix.heads.insert(key, r as Row).unwrap_or(NO_ROW);
                ix.chain[r] = prev;
            }
            ix.covered = self.len;
        }
    }

    /// Rows in `lo..hi` whose masked positions may hash to `key` (callers
    /// still compare the values). Falls back to all rows in range when no
    /// up-to-date index exists.
    pub fn candidates(&self, mask: u32, key: u64, lo: Row, hi: Row) -> Candidates<'_> {
        if mask != 0 {
            if let Some(ix) = self.indexes.iter().find(|ix| ix.mask == mask && ix.covered == self.len && self.len > 0) {
                let head = ix.heads.get(&key).copied().unwrap_or(NO_ROW);
                return Candidates::Chain { chain: &ix.chain, next: head, lo, hi };
            }
        }
        Candidates::Range { next: lo, hi }
    }
}

/// Iterator over candidate rows.
pub enum Candidates<'a> {
    Range { next: Row, hi: Row },
    /// Walks an index chain (newest row first), keeping rows in `lo..hi`.
    Chain { chain: &'a [Row], next: Row, lo: Row, hi: Row },
}

impl Iterator for Candidates<'_> {
    type Item = Row;
    fn next(&mut self) -> Option<Row> {
        match self {
            Candidates::Range { next, hi } => {
                if *next < *hi {
                    *next += 1;
                    Some(*next - 1)
                } else {
                    None
                }
            }
            Candidates::Chain { chain, next, lo, hi } => loop {
                let r = *next;
                if r == NO_ROW || r < *lo {
                    return None;
                }
                *next = chain[r as usize];
                if r < *hi {
                    return Some(r);
                }
            },
        }
    }
}

/// A database: one relation per relation id.
#[derive(Clone, Debug, Default)]
pub struct Db {
    pub rels: Vec<Relation>,
}

impl Db {
    pub fn new(arities: &[usize]) -> Db {
        Db { rels: arities.iter().map(|&a| Relation::new(a)).collect() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(i: u32) -> TermId {
        TermId(i)
    }

    #[test]
    fn dedups_and_indexes_lazily() {
        let mut r = Relation::new(2);
        r.register_index(0b01);
        for i in 0..20 {
            assert!(r.insert(&[t(i % 5), t(i)]));
        }
        assert!(!r.insert(&[t(0), t(0)]));
        assert!(r.contains(&[t(3), t(8)]));
        r.refresh_indexes();
        let key = hash_key([t(2)].into_iter());
        let mut rows: Vec<_> = r.candidates(0b01, key, 0, 20).map(|x| r.row(x)[1].0).collect();
        rows.sort();
        assert_eq!(rows, vec![2, 7, 12, 17]);
        // A row range restricts the chain walk (semi-naive deltas).
        let rows: Vec<_> = r.candidates(0b01, key, 5, 15).map(|x| r.row(x)[1].0).collect();
        assert_eq!(rows, vec![12, 7]);
        // Rows added after the refresh: no stale index is used.
        r.insert(&[t(2), t(99)]);
        assert_eq!(r.candidates(0b01, key, 0, 21).count(), 21);
        r.clear();
        assert_eq!(r.len(), 0);
        assert!(!r.contains(&[t(3), t(8)]));
    }

    #[test]
    fn zero_arity_relation_is_a_flag() {
        let mut r = Relation::new(0);
        assert!(!r.contains(&[]));
        assert!(r.insert(&[]));
        assert!(!r.insert(&[]));
        assert_eq!(r.len(), 1);
        assert!(r.contains(&[]));
    }
}
