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
        Relation {
            arity,
            ..Relation::default()
        }
    }

    pub fn len(&self) -> usize {
        self.len
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
        self.set.insert_unique(h, id, |&r| {
            hash_row(&rows[r as usize * arity..(r as usize + 1) * arity])
        });
        true
    }

    /// Appends to `out` the rows in `lo..hi` whose positions in `mask` may
    /// hold the values hashed into `key` (callers still compare values).
    /// Builds or extends the index for `mask` on first use; small relations
    /// and `mask == 0` yield the whole range.
    pub fn lookup(&mut self, mask: u32, key: u64, lo: Row, hi: Row, out: &mut impl Extend<Row>) {
        if mask == 0 || self.len < INDEX_THRESHOLD {
            out.extend(lo..hi);
            return;
        }
        let i = match self.indexes.iter().position(|ix| ix.mask == mask) {
            Some(i) => i,
            None => {
                self.indexes.push(Index {
                    mask,
                    ..Index::default()
                });
                self.indexes.len() - 1
            }
        };
        let arity = self.arity;
        let ix = &mut self.indexes[i];
        if ix.covered < self.len {
            ix.chain.resize(self.len, NO_ROW);
            for r in ix.covered..self.len {
                let row = &self.rows[r * arity..(r + 1) * arity];
                let k = hash_key(
                    (0..arity)
                        .filter(|p| *p < 32 && ix.mask >> p & 1 == 1)
                        .map(|p| row[p]),
                );
                ix.chain[r] = ix.heads.insert(k, r as Row).unwrap_or(NO_ROW);
            }
            ix.covered = self.len;
        }
        // The chain runs newest row first.
        let mut r = ix.heads.get(&key).copied().unwrap_or(NO_ROW);
        let mut rows: smallvec::SmallVec<[Row; 16]> = smallvec::SmallVec::new();
        while r != NO_ROW && r >= lo {
            if r < hi {
                rows.push(r);
            }
            r = ix.chain[r as usize];
        }
        out.extend(rows.into_iter().rev());
    }
}

/// A database: one relation per relation id.
#[derive(Clone, Debug, Default)]
pub struct Db {
    pub rels: Vec<Relation>,
}

impl Db {
    pub fn new(arities: &[usize]) -> Db {
        Db {
            rels: arities.iter().map(|&a| Relation::new(a)).collect(),
        }
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
        for i in 0..20 {
            assert!(r.insert(&[t(i % 5), t(i)]));
        }
        assert!(!r.insert(&[t(0), t(0)]));
        assert!(r.contains(&[t(3), t(8)]));
        let key = hash_key([t(2)].into_iter());
        let mut rows = Vec::new();
        r.lookup(0b01, key, 0, 20, &mut rows);
        assert_eq!(
            rows.iter().map(|&x| r.row(x)[1].0).collect::<Vec<_>>(),
            vec![2, 7, 12, 17]
        );
        // A row range restricts the result (semi-naive deltas).
        rows.clear();
        r.lookup(0b01, key, 5, 15, &mut rows);
        assert_eq!(
            rows.iter().map(|&x| r.row(x)[1].0).collect::<Vec<_>>(),
            vec![7, 12]
        );
        // Rows added later are indexed on the next lookup.
        r.insert(&[t(2), t(99)]);
        rows.clear();
        r.lookup(0b01, key, 0, 21, &mut rows);
        assert_eq!(rows.len(), 5);
        r.clear();
        assert_eq!(r.len(), 0);
        assert!(!r.contains(&[t(3), t(8)]));
        rows.clear();
        r.lookup(0b01, key, 0, 0, &mut rows);
        assert!(rows.is_empty());
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
