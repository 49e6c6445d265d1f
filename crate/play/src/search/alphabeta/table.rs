//! The transposition table's entries and the table a search reads and
//! writes: its own map, or one shared by the threads of a parallel search.

use crate::reasoner::content_keys::Key;
use crate::search::table::SharedTable;
use rustc_hash::FxHashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Flag {
    Exact,
    Lower,
    Upper,
}

impl Flag {
    /// The bound a fail-soft value `best` is of the window
    /// `(alpha0, beta0)` it was searched with.
    #[inline]
    pub(super) fn of(best: f64, alpha0: f64, beta0: f64) -> Flag {
        if best <= alpha0 {
            Flag::Upper
        } else if best >= beta0 {
            Flag::Lower
        } else {
            Flag::Exact
        }
    }
}

#[derive(Clone, Debug)]
pub struct Entry {
    pub(super) value: f64,
    pub(super) depth: u32,
    pub(super) flag: Flag,
    pub(super) solved: bool,
    /// The best joint move, by the moves' content keys.
    pub(super) best: Option<Box<[Key]>>,
}

impl Entry {
    /// Whether the entry answers a node of remaining `depth` searched with
    /// the window `(alpha0, beta0)`: of the same depth or solved, and its
    /// bound decides the node.
    #[inline]
    pub(super) fn answers(&self, depth: u32, alpha0: f64, beta0: f64) -> bool {
        (self.solved || self.depth == depth)
            && match self.flag {
                Flag::Exact => true,
                Flag::Lower => self.value >= beta0,
                Flag::Upper => self.value <= alpha0,
            }
    }
}

/// The table a search reads and writes.
pub(super) enum Table<'a> {
    Own(&'a mut FxHashMap<Key, Entry>),
    Shared(&'a SharedTable<Key, Entry>),
}

impl Table<'_> {
    /// The entry of the state of key `k`.
    #[inline]
    pub(super) fn get(&self, k: Key) -> Option<Entry> {
        match self {
            Table::Own(tt) => tt.get(&k).cloned(),
            Table::Shared(tt) => tt.get(&k),
        }
    }

    /// Stores `e` for key `k`; an own table is cleared first when it holds
    /// `capacity` entries.
    #[inline]
    pub(super) fn insert(&mut self, k: Key, e: Entry, capacity: usize) {
        match self {
            Table::Own(tt) => {
                if tt.len() >= capacity && !tt.contains_key(&k) {
                    tt.clear();
                }
                tt.insert(k, e);
            }
            Table::Shared(tt) => tt.insert(k, e),
        }
    }
}
