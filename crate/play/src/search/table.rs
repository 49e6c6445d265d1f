//! A transposition table that several threads share (parallel alpha-beta,
//! [`super::alphabeta_parallel`]): the states are spread over shards by
//! their hash, each shard behind its own lock, so two threads rarely wait
//! for each other. Lookups return a copy of the entry (no lock is held
//! while searching). Each shard is cleared when it is full, as the
//! one-thread table is.

use rustc_hash::{FxBuildHasher, FxHashMap};
use std::hash::{BuildHasher, Hash};
use std::sync::Mutex;

const SHARDS: usize = 64;

pub struct SharedTable<S, E> {
    shards: Vec<Mutex<FxHashMap<S, E>>>,
    shard_capacity: usize,
}

impl<S: Hash + Eq, E: Clone> SharedTable<S, E> {
    /// A table of about `capacity` entries in all.
    pub fn new(capacity: usize) -> Self {
        SharedTable {
            shards: (0..SHARDS)
                .map(|_| Mutex::new(FxHashMap::default()))
                .collect(),
            shard_capacity: (capacity / SHARDS).max(1),
        }
    }

    fn shard(&self, s: &S) -> std::sync::MutexGuard<'_, FxHashMap<S, E>> {
        // Middle bits: the maps inside use the low bits (bucket) and the top
        // seven (tag) of the same hash.
        let i = ((FxBuildHasher.hash_one(s) >> 32) as usize) % SHARDS;
        // A poisoned lock means another search thread panicked (a bug); its
        // entries are still whole values, so keep using them.
        self.shards[i].lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn get(&self, s: &S) -> Option<E> {
        self.shard(s).get(s).cloned()
    }

    pub fn insert(&self, s: S, e: E) {
        let cap = self.shard_capacity;
        let mut shard = self.shard(&s);
        if shard.len() >= cap && !shard.contains_key(&s) {
            shard.clear();
        }
        shard.insert(s, e);
    }

    pub fn clear(&self) {
        for s in &self.shards {
            s.lock().unwrap_or_else(|e| e.into_inner()).clear();
        }
    }

    pub fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.lock().unwrap_or_else(|e| e.into_inner()).len())
            .sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_come_back_and_full_shards_are_cleared() {
        let t: SharedTable<u64, u32> = SharedTable::new(SHARDS * 4);
        for i in 0..100u64 {
            t.insert(i, i as u32 * 2);
        }
        assert_eq!(t.get(&99), Some(198));
        assert!(t.len() <= SHARDS * 4 && !t.is_empty());
        t.clear();
        assert_eq!(t.get(&99), None);
    }

    #[test]
    fn threads_share_it() {
        let t: SharedTable<u64, u64> = SharedTable::new(1 << 16);
        std::thread::scope(|s| {
            for k in 0..4u64 {
                let t = &t;
                s.spawn(move || (0..1000).for_each(|i| t.insert(k * 1000 + i, i)));
            }
        });
        assert_eq!(t.len(), 4000);
        assert_eq!(t.get(&3999), Some(999));
    }
}
