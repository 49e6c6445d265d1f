//! The packed solver's states and their index.
//!
//! [`States`] holds every state as the fast engine's words, one after the
//! other in breadth-first order (a state is its position). [`Index`] finds
//! a state's position: open addressing with linear probing over 4-byte
//! slots, each holding the position plus one and, in the bits the
//! positions do not need yet, a tag of the state's hash, so that most
//! probes that miss are told apart without reading the state. The
//! slots cost 4 / load bytes a state: 5.3–8 while growing by half, about
//! 4.7 once [`Index::fit`] has sized it for the states found.

/// States of `words` words each, stored back to back.
#[derive(Clone, Debug)]
pub(crate) struct States {
    words: usize,
    data: Vec<u64>,
}

impl States {
    pub fn new(words: usize) -> States {
        States {
            words,
            data: Vec::new(),
        }
    }
    pub fn words(&self) -> usize {
        self.words
    }
    pub fn len(&self) -> usize {
        self.data.len() / self.words.max(1)
    }
    pub fn get(&self, i: usize) -> &[u64] {
        &self.data[i * self.words..(i + 1) * self.words]
    }
    /// States `a..b`, back to back.
    pub fn range(&self, a: usize, b: usize) -> &[u64] {
        &self.data[a * self.words..b * self.words]
    }
    /// Room for `n` more states (a layer read back whole).
    pub fn reserve(&mut self, n: usize) {
        self.data.reserve_exact(n * self.words);
    }
    pub fn push(&mut self, s: &[u64]) {
        self.data.extend_from_slice(s);
    }
    pub fn bytes(&self) -> usize {
        self.data.capacity() * 8
    }
    pub fn shrink(&mut self) {
        self.data.shrink_to_fit();
    }
}

/// A state's 64-bit hash: the words folded by multiplication, then
/// murmur3's finaliser so that every bit depends on every word.
pub(crate) fn hash(s: &[u64]) -> u64 {
    let mut h: u64 = 0x9e37_79b9_7f4a_7c15;
    for &w in s {
        h = (h ^ w).wrapping_mul(0xff51_afd7_ed55_8ccd).rotate_left(29);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ h >> 33
}

/// Asks the processor to bring `x`'s cache line in: a hint with no
/// effect on the program's meaning.
fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing the program sees and cannot fault.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(x).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// Whether two states are equal: compared inline, word by word (states
/// are a few words long, too short for a call to `memcmp` to pay).
fn same(a: &[u64], b: &[u64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// Where a looked-up state is.
pub(crate) enum Found {
    At(u32),
    /// Not there: slot `slot` is where it would go.
    Absent(usize),
}

/// Positions of [`States`] by content.
#[derive(Clone, Debug)]
pub(crate) struct Index {
    slots: Vec<u32>,
    /// Bits of a slot that hold the position plus one; the rest is tag.
    pos_bits: u32,
    len: usize,
}

/// The load at which the index grows (by half).
const MAX_LOAD: f64 = 0.75;
/// How many lookups ahead [`Index::prefetch_ahead`] fetches a state (and
/// twice as many its slot).
pub(crate) const PREFETCH: usize = 8;
/// How many states ahead a rebuild fetches the slots it will write.
const REBUILD_AHEAD: usize = 16;
/// The load [`Index::fit`] aims at.
const FIT_LOAD: f64 = 0.85;

impl Index {
    pub fn new() -> Index {
        Index::with_capacity(1024)
    }

    /// An index of `cap` slots: for up to 3/4 of `cap` states without
    /// growing.
    pub fn with_capacity(cap: usize) -> Index {
        let cap = cap.max(16);
        // Room for positions up to the capacity (never more states).
        let pos_bits = (usize::BITS - cap.leading_zeros()).min(32);
        Index {
            slots: vec![0; cap],
            pos_bits,
            len: 0,
        }
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn bytes(&self) -> usize {
        self.slots.capacity() * 4
    }

    fn tag(&self, h: u64) -> u32 {
        if self.pos_bits >= 32 {
            0
        } else {
            (h as u32) >> self.pos_bits << self.pos_bits
        }
    }

    fn pos_mask(&self) -> u32 {
        if self.pos_bits >= 32 {
            u32::MAX
        } else {
            (1 << self.pos_bits) - 1
        }
    }

    /// The first slot to probe: the hash's high bits scaled to the size.
    /// (Up to 2^32 slots, the hash's high half times the size fits in 64
    /// bits: wasm has no 128-bit multiply.)
    fn home(&self, h: u64) -> usize {
        let n = self.slots.len() as u64;
        if n <= 1 << 32 {
            (((h >> 32) * n) >> 32) as usize
        } else {
            ((u128::from(h) * u128::from(n)) >> 64) as usize
        }
    }

    /// Asks the processor to fetch the slot where a lookup of hash `h`
    /// starts: the index is far larger than the caches, so a lookup
    /// issued a few states ahead finds its slot already loaded.
    pub fn prefetch(&self, h: u64) {
        prefetch(&self.slots[self.home(h)]);
    }

    /// Fetches the state that the first slot for hash `h` names when its
    /// tag matches (the slot itself should have been fetched by
    /// [`Self::prefetch`] some lookups before).
    pub fn prefetch_state(&self, states: &States, h: u64) {
        let (slot, mask) = (self.slots[self.home(h)], self.pos_mask());
        if slot != 0 && slot & !mask == self.tag(h) {
            let at = ((slot & mask) - 1) as usize;
            prefetch(&states.data[at * states.words]);
        }
    }

    /// Prefetches for the lookups of `hashes[k + PREFETCH]` (its state)
    /// and `hashes[k + 2 * PREFETCH]` (its slot), while `hashes[k]` is
    /// looked up: the index and the states outgrow the caches.
    pub fn prefetch_ahead(&self, states: &States, hashes: &[u64], k: usize) {
        if let Some(&h) = hashes.get(k + 2 * PREFETCH) {
            self.prefetch(h);
        }
        if let Some(&h) = hashes.get(k + PREFETCH) {
            self.prefetch_state(states, h);
        }
    }

    /// Looks up the state `s` (hash `h`) among `states`.
    pub fn find(&self, states: &States, s: &[u64], h: u64) -> Found {
        let (tag, mask) = (self.tag(h), self.pos_mask());
        let n = self.slots.len();
        let mut i = self.home(h);
        loop {
            let slot = self.slots[i];
            if slot == 0 {
                return Found::Absent(i);
            }
            if slot & !mask == tag {
                let at = (slot & mask) - 1;
                if same(states.get(at as usize), s) {
                    return Found::At(at);
                }
            }
            i += 1;
            if i == n {
                i = 0;
            }
        }
    }

    /// Records that state `pos` (hash `h`) is in slot `slot` (from
    /// [`Found::Absent`]); grows when the load passes [`MAX_LOAD`].
    pub fn insert_at(&mut self, states: &States, slot: usize, pos: u32, h: u64) {
        self.slots[slot] = self.tag(h) | (pos + 1);
        self.len += 1;
        if self.len as f64 > self.slots.len() as f64 * MAX_LOAD {
            let cap = self.slots.len() + self.slots.len() / 2;
            self.rebuild(states, cap);
        }
    }

    /// Sizes the index for the states it holds (at [`FIT_LOAD`]).
    pub fn fit(&mut self, states: &States) {
        let cap = (self.len as f64 / FIT_LOAD).ceil() as usize + 1;
        if cap < self.slots.len() {
            self.rebuild(states, cap);
        }
    }

    /// Every state again into `cap` slots.
    fn rebuild(&mut self, states: &States, cap: usize) {
        let mut next = Index::with_capacity(cap);
        next.slots.shrink_to_fit();
        let ahead = |pos: usize| (pos < self.len).then(|| hash(states.get(pos)));
        let mut window: std::collections::VecDeque<u64> =
            (0..REBUILD_AHEAD).filter_map(ahead).collect();
        for pos in 0..self.len {
            if let Some(h) = ahead(pos + REBUILD_AHEAD) {
                next.prefetch(h);
                window.push_back(h);
            }
            let h = window.pop_front().expect("a hash per position");
            let n = next.slots.len();
            let mut i = next.home(h);
            while next.slots[i] != 0 {
                i = if i + 1 == n { 0 } else { i + 1 };
            }
            next.slots[i] = next.tag(h) | (pos as u32 + 1);
        }
        next.len = self.len;
        *self = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_what_was_inserted_across_growth() {
        let mut states = States::new(2);
        let mut index = Index::new();
        for k in 0..50_000u64 {
            let s = [k * 7919, k % 3];
            let h = hash(&s);
            match index.find(&states, &s, h) {
                Found::At(_) => panic!("{k} was not inserted yet"),
                Found::Absent(slot) => {
                    states.push(&s);
                    index.insert_at(&states, slot, k as u32, h);
                }
            }
        }
        index.fit(&states);
        assert_eq!(index.len(), 50_000);
        for k in (0..50_000u64).step_by(7) {
            let s = [k * 7919, k % 3];
            assert!(matches!(index.find(&states, &s, hash(&s)), Found::At(p) if p as u64 == k));
        }
        let s = [1, 1];
        assert!(matches!(
            index.find(&states, &s, hash(&s)),
            Found::Absent(_)
        ));
        assert!(index.bytes() as f64 / 50_000.0 < 4.0 / FIT_LOAD + 0.1);
    }
}
