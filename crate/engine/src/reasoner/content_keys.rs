//! Keys that name a term or a state by its content, the same in every copy
//! of a game. Term ids are not: each copy of the interpreter interns the
//! terms it meets in its own order, so after two copies of one game
//! searched different moves, one id can name `(cell 1 1 x)` in one and
//! `(cell 3 3 x)` in the other. What the copies share (the transposition
//! table of parallel alpha-beta) is therefore keyed by these keys
//! ([`super::StateMachine::state_key`], [`super::StateMachine::term_key`]).
//!
//! A term's key is a 128-bit hash of its symbol's name and its arguments'
//! keys; a state's key is the wrapping sum of its fluents' keys (a set: the
//! order of the fluents is the order of their ids, which differs between
//! copies). Two different states get one key with a probability of about
//! 2^-128 per pair, far below a hardware fault.

use crate::terms::{TermId, TermStore};
use std::hash::{Hash, Hasher};

/// A 128-bit content key.
pub type Key = u128;

/// A 128-bit SipHash of `v`: two 64-bit runs told apart by a prefix.
pub fn hash128<T: Hash + ?Sized>(v: &T) -> Key {
    let lane = |prefix: u8| {
        let mut h = std::hash::DefaultHasher::new();
        prefix.hash(&mut h);
        v.hash(&mut h);
        h.finish()
    };
    (u128::from(lane(1)) << 64) | u128::from(lane(2))
}

/// The key of a state made of these fluents' keys.
pub fn state_of(fluent_keys: impl IntoIterator<Item = Key>) -> Key {
    fluent_keys.into_iter().fold(0, Key::wrapping_add)
}

/// The key of term `t` of `store`, computed afresh (iteratively: terms may
/// nest deeply).
pub fn term_key(store: &TermStore, t: TermId) -> Key {
    ContentKeys::default().term(store, t)
}

/// Term keys remembered by id, for one copy of a game (the ids of another
/// copy mean other terms: every copy has its own).
#[derive(Clone, Debug, Default)]
pub struct ContentKeys {
    /// `keys[id]`, 0 while not computed.
    keys: Vec<Key>,
}

impl ContentKeys {
    pub fn term(&mut self, store: &TermStore, t: TermId) -> Key {
        if let Some(&k) = self.keys.get(t.0 as usize) {
            if k != 0 {
                return k;
            }
        }
        // Children before parents, as `terms::copy_term` walks.
        let mut stack = vec![(t, false)];
        while let Some((u, done)) = stack.pop() {
            if self.known(u) {
                continue;
            }
            let args = store.args_of(u);
            if !done {
                stack.push((u, true));
                stack.extend(args.iter().map(|&a| (a, false)));
                continue;
            }
            let arg_keys: Vec<Key> = args.iter().map(|&a| self.keys[a.0 as usize]).collect();
            // Never 0, which marks "not computed".
            let k = hash128(&(store.symbols.name(store.functor(u)), arg_keys)).max(1);
            let i = u.0 as usize;
            if self.keys.len() <= i {
                self.keys.resize(store.len().max(i + 1), 0);
            }
            self.keys[i] = k;
        }
        self.keys[t.0 as usize]
    }

    /// The key of the state whose fluents are `fluents`.
    pub fn state(&mut self, store: &TermStore, fluents: &[TermId]) -> Key {
        state_of(fluents.iter().map(|&f| self.term(store, f)))
    }

    fn known(&self, t: TermId) -> bool {
        self.keys.get(t.0 as usize).is_some_and(|&k| k != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::terms::SymbolTable;

    /// `(f a (g b))` built in a store where other terms came first.
    fn build(store: &mut TermStore, noise: &[&str]) -> TermId {
        for n in noise {
            let s = store.symbols.intern(n);
            store.constant(s);
        }
        let [f, g, a, b] = ["f", "g", "a", "b"].map(|n| store.symbols.intern(n));
        let (a, b) = (store.constant(a), store.constant(b));
        let gb = store.app(g, &[b]);
        store.app(f, &[a, gb])
    }

    #[test]
    fn a_term_has_one_key_whatever_its_id() {
        let mut s1 = TermStore::new(SymbolTable::new());
        let mut s2 = TermStore::new(SymbolTable::new());
        let t1 = build(&mut s1, &[]);
        let t2 = build(&mut s2, &["x", "y", "z"]);
        assert_ne!(t1, t2);
        let (mut k1, mut k2) = (ContentKeys::default(), ContentKeys::default());
        assert_eq!(k1.term(&s1, t1), k2.term(&s2, t2));
        assert_eq!(k1.term(&s1, t1), term_key(&s1, t1));
        // Another term, another key; a state is a set of fluents.
        let a = s1.symbols.get("a").unwrap();
        let a = s1.constant(a);
        assert_ne!(k1.term(&s1, a), k1.term(&s1, t1));
        assert_eq!(k1.state(&s1, &[a, t1]), k1.state(&s1, &[t1, a]));
        assert_ne!(k1.state(&s1, &[a, t1]), k1.state(&s1, &[t1]));
    }

    #[test]
    fn deep_terms_do_not_recurse() {
        let mut s = TermStore::new(SymbolTable::new());
        let (f, z) = (s.symbols.intern("s"), s.symbols.intern("0"));
        let mut t = s.constant(z);
        for _ in 0..100_000 {
            t = s.app(f, &[t]);
        }
        assert_ne!(term_key(&s, t), 0);
    }
}
