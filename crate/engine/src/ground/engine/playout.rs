//! Playouts run inside the network: reading a role's legal bits, drawing
//! a move by the index of a set bit, and stepping without allocation.

use super::{BitState, FastEngine, DENSE_WORDS, V};
use crate::ground::network::NONE;
use crate::reasoner::mast::Mast;
use crate::reasoner::preferred::Preferred;
use crate::reasoner::EvalError;
use crate::terms::TermId;
use smallvec::SmallVec;

impl FastEngine {
    pub(super) fn check_state(&self, s: &BitState) -> Result<(), EvalError> {
        if s.0.len() != self.cur.len() {
            return Err(EvalError::BadMove("a state of another game".into()));
        }
        Ok(())
    }

    /// The input nodes for a joint move.
    pub(super) fn input_nodes(&self, joint: &[TermId]) -> Result<SmallVec<[u32; 8]>, EvalError> {
        if joint.len() != self.t.roles.len() {
            return Err(EvalError::BadMove(format!(
                "a joint move needs one move per role ({}), got {}",
                self.t.roles.len(),
                joint.len()
            )));
        }
        let mut nodes = SmallVec::new();
        for (r, &m) in joint.iter().enumerate() {
            nodes.extend(self.input_nodes_of(r, m)?);
        }
        Ok(nodes)
    }

    /// The input node of role `r`'s move `m` (none where no rule reads it).
    pub(super) fn input_nodes_of(&self, r: usize, m: TermId) -> Result<Option<u32>, EvalError> {
        if self.pass == Some(m) {
            return Ok(None);
        }
        match self.t.move_index.get(&(r as u32, m)) {
            Some(&i) => Ok(Some(self.t.legal_input[i as usize]).filter(|&n| n != NONE)),
            None => Err(EvalError::BadMove(format!(
                "{} is not a legal move of {} in any reachable state",
                self.store.display(m),
                self.store.display(self.t.roles[r])
            ))),
        }
    }

    /// Role `r`'s legal bits, with the masks of its gates that are off,
    /// and in a subgame only those in it.
    pub(super) fn legal_bits(&mut self, r: usize) -> &[u64] {
        match self.part == NONE {
            true => self.legal_bits_in::<false>(r),
            false => self.legal_bits_in::<true>(r),
        }
    }

    /// [`Self::legal_bits`], `SUB`: in a subgame (compiled apart, so that
    /// the whole game's playouts pay nothing for subgames).
    #[inline(always)]
    pub(super) fn legal_bits_in<const SUB: bool>(&mut self, r: usize) -> &[u64] {
        let raw = &self.hooked[self.legal_word[r] as usize..self.legal_word[r + 1] as usize];
        let (a, b) = (
            self.gates.start[r] as usize,
            self.gates.start[r + 1] as usize,
        );
        if a == b && !SUB {
            return raw;
        }
        let out = &mut self.masked[..raw.len()];
        out.copy_from_slice(raw);
        for g in a..b {
            if self.ns[self.gates.node[g] as usize] & V == 0 {
                let mask = &self.gates.mask[self.gates.mask_at[g] as usize..][..raw.len()];
                for (o, m) in out.iter_mut().zip(mask) {
                    *o &= !m;
                }
            }
        }
        if let Some(parts) = self.t.subgames.as_deref().filter(|_| SUB) {
            for (o, m) in out.iter_mut().zip(&parts.legal_mask[self.part as usize][r]) {
                *o &= m;
            }
        }
        out
    }

    /// Plays in subgame `part` from now on (see
    /// [`crate::ground::subgames`]): a role's legal moves are those in it,
    /// `pass` is the move of a role without one, and the state changes in
    /// the part only. A playout ends where no role can move in the part
    /// (as if terminal).
    pub fn enter_subgame(&mut self, part: u32, pass: TermId) -> Result<(), EvalError> {
        let count = self.t.subgames.as_ref().map_or(0, |s| s.count());
        if part as usize >= count {
            return Err(EvalError::BadMove(format!("no subgame {part} of {count}")));
        }
        self.part = part;
        self.pass = Some(pass);
        Ok(())
    }

    /// From now on, in a subgame, every query reads the fluents outside
    /// the part from `state` (whatever the state asked about holds there),
    /// and [`StateMachine::next_state`](crate::reasoner::StateMachine::next_state)
    /// leaves them out (false). Returns `state` with them left out: the
    /// same whatever happened outside the part, so that a search tree keyed
    /// by state finds its nodes again at the next move.
    pub fn hold_subgame(&mut self, state: &BitState) -> Result<BitState, EvalError> {
        let parts = self.t.subgames.clone().filter(|_| self.part != NONE);
        let parts = parts.ok_or_else(|| EvalError::BadMove("not in a subgame".into()))?;
        self.held = Some(state.0.to_vec());
        let mask = &parts.mask[self.part as usize];
        Ok(BitState(
            state.0.iter().zip(mask).map(|(s, m)| s & m).collect(),
        ))
    }

    /// In a subgame, `next` (a successor the hooks computed) with the
    /// fluents outside the part as in the current state: a playout goes on
    /// from the whole state.
    #[inline]
    pub(super) fn hold_outside(&self, next: &mut [u64]) {
        if let Some(parts) = self.t.subgames.as_deref().filter(|_| self.part != NONE) {
            let mask = &parts.mask[self.part as usize];
            for ((n, m), c) in next.iter_mut().zip(mask).zip(&self.cur) {
                *n = *n & m | c & !m;
            }
        }
    }

    /// In a subgame, a successor as `next_state` returns it: outside the
    /// part as in the current state, or left out where a state is held.
    pub(super) fn outside_part(&self, next: &mut [u64]) {
        if self.held.is_none() {
            return self.hold_outside(next);
        }
        if let Some(parts) = self.t.subgames.as_deref() {
            for (n, m) in next.iter_mut().zip(&parts.mask[self.part as usize]) {
                *n &= m;
            }
        }
    }

    /// Random playouts without allocation: the same moves as
    /// [`crate::reasoner::random_playout`] would pick with the same `rng`
    /// (legal moves in the order [`StateMachine::legal_moves`](crate::reasoner::StateMachine::legal_moves) returns them).
    /// Returns the number of joint moves made and whether the end is terminal.
    pub fn playout(
        &mut self,
        state: &BitState,
        rng: &mut fastrand::Rng,
        max_steps: usize,
    ) -> (usize, bool) {
        self.playout_preferring(state, rng, max_steps, &[])
    }

    /// [`Self::playout`] where each role takes a move of `prefer` (a mask
    /// of the legal words, [`Self::prefer_mask`]) whenever it has one; an
    /// empty `prefer` prefers nothing.
    pub fn playout_preferring(
        &mut self,
        state: &BitState,
        rng: &mut fastrand::Rng,
        max_steps: usize,
        prefer: &[u64],
    ) -> (usize, bool) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has `popcnt`, checked just above.
            return unsafe { self.playout_popcnt(state, rng, max_steps, prefer) };
        }
        // Halving did not pay in wasm (`bench/wasm-ab.mjs`, BENCHMARKS.md).
        self.playout_in::<false>(state, rng, max_steps, prefer)
    }

    /// [`Self::playout_preferring`] compiled with the `popcnt` instruction:
    /// counting and selecting legal moves took a tenth of a breakthrough
    /// step (perf), and x86-64's baseline (which the release build keeps,
    /// to run anywhere) counts bits in a dozen instructions.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn playout_popcnt(
        &mut self,
        state: &BitState,
        rng: &mut fastrand::Rng,
        max_steps: usize,
        prefer: &[u64],
    ) -> (usize, bool) {
        self.playout_in::<true>(state, rng, max_steps, prefer)
    }

    /// The playout body for this game part and preference.
    #[inline(always)]
    fn playout_in<const HALVING: bool>(
        &mut self,
        state: &BitState,
        rng: &mut fastrand::Rng,
        max_steps: usize,
        prefer: &[u64],
    ) -> (usize, bool) {
        let (s, r, n) = (state, rng, max_steps);
        match (self.part == NONE, prefer.is_empty()) {
            (true, true) => self.playout_body::<HALVING, false, false>(s, r, n, prefer),
            (false, true) => self.playout_body::<HALVING, true, false>(s, r, n, prefer),
            (true, false) => self.playout_body::<HALVING, false, true>(s, r, n, prefer),
            (false, false) => self.playout_body::<HALVING, true, true>(s, r, n, prefer),
        }
    }

    /// `HALVING`: bit counts are one instruction, so a move is selected by
    /// halving (see [`select`]). `SUB`: in a subgame, where a role without a
    /// move there passes. `PREFER`: a role with a legal move in `prefer`
    /// (a mask of the legal words, [`Self::prefer_mask`]) draws among those.
    #[inline(always)]
    fn playout_body<const HALVING: bool, const SUB: bool, const PREFER: bool>(
        &mut self,
        state: &BitState,
        rng: &mut fastrand::Rng,
        max_steps: usize,
        prefer: &[u64],
    ) -> (usize, bool) {
        self.at(state);
        let first_word = self.legal_word[0] as usize;
        let mut liked: SmallVec<[u64; 8]> = SmallVec::new();
        let mut nodes: SmallVec<[u32; 8]> = SmallVec::new();
        let terminal = self.t.terminal as usize;
        for steps in 0..=max_steps {
            if self.on(terminal) {
                return (steps, true);
            }
            if steps == max_steps {
                break;
            }
            nodes.clear();
            let mut moved = false;
            for r in 0..self.t.roles.len() {
                let at = self.legal_word[r] as usize - first_word;
                let bits = self.legal_bits_in::<SUB>(r);
                let n: usize = bits.iter().map(|w| w.count_ones() as usize).sum();
                if n == 0 {
                    if !SUB {
                        return (steps, false);
                    }
                    continue; // a pass, in a subgame
                }
                moved = true;
                let mut pick = usize::MAX;
                if PREFER {
                    let mask = &prefer[at..at + bits.len()];
                    liked.clear();
                    liked.extend(bits.iter().zip(mask).map(|(b, m)| b & m));
                    let k: usize = liked.iter().map(|w| w.count_ones() as usize).sum();
                    if k > 0 {
                        pick = select::<HALVING>(&liked, crate::reasoner::random_index(rng, k));
                    }
                }
                if pick == usize::MAX {
                    pick = select::<HALVING>(bits, crate::reasoner::random_index(rng, n));
                }
                let i = self.t.legal_start[r] as usize + pick;
                let node = self.t.legal_input[i];
                if node != NONE {
                    nodes.push(node);
                }
            }
            if SUB && !moved {
                return (steps, true); // no role can move in the subgame
            }
            self.play_step_in::<SUB>(&nodes);
        }
        (max_steps, false)
    }

    /// Fills `prefer`'s mask: per legal word (from role 0's first), the
    /// bits of its moves. A move never legal has no bit.
    pub fn prefer_mask(&self, prefer: &mut Preferred) {
        let words = self.legal_word[self.t.roles.len()] - self.legal_word[0];
        let mut mask = vec![0u64; words as usize];
        for &(r, mv) in &prefer.moves {
            let Some(&i) = self.t.move_index.get(&(r as u32, mv)) else {
                continue;
            };
            let pos = (i - self.t.legal_start[r]) as usize;
            let word = (self.legal_word[r] - self.legal_word[0]) as usize + pos / 64;
            mask[word] |= 1 << (pos % 64);
        }
        prefer.mask = mask;
    }

    /// The MAST slot of a role's move: its legal index (one slot past
    /// them for a move that is never legal).
    pub fn move_slot(&self, role: usize, mv: TermId) -> u32 {
        self.t
            .move_index
            .get(&(role as u32, mv))
            .copied()
            .unwrap_or(self.t.legal_move.len() as u32)
    }

    /// The move whose legal index is `slot` ([`FastEngine::move_slot`]).
    pub fn slot_move(&self, slot: u32) -> Option<TermId> {
        self.t.legal_move.get(slot as usize).copied()
    }

    /// A MAST playout in the network (see [`crate::reasoner::mast`]): a
    /// move's slot is its legal index, so the statistics need no lookup.
    /// The moves stay on `mast`'s trail until [`Mast::finish`].
    pub fn playout_mast(
        &mut self,
        state: &BitState,
        rng: &mut fastrand::Rng,
        max_steps: usize,
        mast: &mut Mast,
    ) -> (usize, bool) {
        match self.part == NONE {
            true => self.playout_mast_in::<false>(state, rng, max_steps, mast),
            false => self.playout_mast_in::<true>(state, rng, max_steps, mast),
        }
    }

    /// [`Self::playout_mast`]; `SUB`: in a subgame.
    fn playout_mast_in<const SUB: bool>(
        &mut self,
        state: &BitState,
        rng: &mut fastrand::Rng,
        max_steps: usize,
        mast: &mut Mast,
    ) -> (usize, bool) {
        self.at(state);
        let mut nodes: SmallVec<[u32; 8]> = SmallVec::new();
        let terminal = self.t.terminal as usize;
        for steps in 0..=max_steps {
            if self.on(terminal) {
                return (steps, true);
            }
            if steps == max_steps {
                break;
            }
            nodes.clear();
            let mut moved = false;
            for r in 0..self.t.roles.len() {
                let start = self.t.legal_start[r];
                let bits = self.legal_bits_in::<SUB>(r);
                let n: usize = bits.iter().map(|w| w.count_ones() as usize).sum();
                if n == 0 {
                    if !SUB {
                        return (steps, false);
                    }
                    continue; // a pass, in a subgame
                }
                moved = true;
                let pick = draw(bits, n, start, rng, Some(mast));
                let i = start as usize + pick;
                let among = bit_positions(bits).map(|pos| start + pos as u32);
                mast.record_among(i as u32, r, among.filter(|_| n > 1));
                let node = self.t.legal_input[i];
                if node != NONE {
                    nodes.push(node);
                }
            }
            if SUB && !moved {
                return (steps, true); // no role can move in the subgame
            }
            self.play_step_in::<SUB>(&nodes);
        }
        (max_steps, false)
    }

    /// One step of a playout inside the network: the chosen moves' input
    /// nodes in, the successor state (read from the hooks) becomes the
    /// current one. `spare` is reused so the step allocates nothing.
    /// `SUB`: in a subgame, where the fluents outside it stay as they are.
    #[inline(always)]
    pub(super) fn play_step_in<const SUB: bool>(&mut self, nodes: &[u32]) {
        self.set_inputs(nodes);
        if !self.t.queries_use_does && self.cur.len() > DENSE_WORDS && !SUB {
            self.set_state_to_next();
            return;
        }
        // Clearing the moves changes the successor the hooks hold, and so
        // does setting a small state word by word: copy it.
        let mut next = std::mem::take(&mut self.spare);
        next.copy_from_slice(&self.hooked[..self.cur.len()]);
        if SUB {
            self.hold_outside(&mut next);
        }
        if self.t.queries_use_does {
            self.set_inputs(&[]);
        }
        self.set_state(&next);
        self.spare = next;
    }

    /// The state the network holds (e.g. the end of the last playout).
    pub fn current_state(&self) -> BitState {
        BitState(SmallVec::from_slice(&self.cur))
    }

    pub fn num_nodes(&self) -> usize {
        self.net.len()
    }
}

/// Position of the `k`-th set bit. With `HALVING`, within its word by
/// [`select_in_word`], else by clearing the `k` lower bits (a loop whose
/// random length the branch predictor cannot guess, but without cheap bit
/// counts the cheaper one).
#[inline(always)]
pub(super) fn select<const HALVING: bool>(bits: &[u64], mut k: usize) -> usize {
    for (w, &word) in bits.iter().enumerate() {
        let c = word.count_ones() as usize;
        if k < c {
            if HALVING {
                return w * 64 + select_in_word(word, k as u32) as usize;
            }
            let mut x = word;
            for _ in 0..k {
                x &= x - 1;
            }
            return w * 64 + x.trailing_zeros() as usize;
        }
        k -= c;
    }
    unreachable!("k < number of set bits")
}

/// Position of the `k`-th set bit of `x` (`k < x.count_ones()`): the
/// window holding it halves six times, each step a bit count and
/// conditional moves, no branch to mispredict.
#[inline(always)]
pub(super) fn select_in_word(mut x: u64, mut k: u32) -> u32 {
    let mut pos = 0;
    for half in [32, 16, 8, 4, 2, 1] {
        let low = x & ((1u64 << half) - 1);
        let c = low.count_ones();
        let up = k >= c;
        k -= if up { c } else { 0 };
        x = if up { x >> half } else { low };
        pos += if up { half } else { 0 };
    }
    pos
}

/// A move among `legal`'s `n` bits, as an offset from the role's first
/// legal index `start`: uniform, or drawn by MAST's rule.
pub(super) fn draw(
    legal: &[u64],
    n: usize,
    start: u32,
    rng: &mut fastrand::Rng,
    mast: Option<&Mast>,
) -> usize {
    let drawn = match mast {
        Some(mast) if n > 1 => {
            let set = bit_positions(legal).map(|pos| (pos, start + pos as u32));
            mast.pick(rng, set)
        }
        _ => None,
    };
    drawn.unwrap_or_else(|| select::<false>(legal, crate::reasoner::random_index(rng, n)))
}

/// The positions of the set bits of `words`, in order.
pub(crate) fn bit_positions(words: &[u64]) -> impl Iterator<Item = usize> + Clone + '_ {
    words.iter().enumerate().flat_map(|(w, &word)| {
        let mut x = word;
        std::iter::from_fn(move || {
            (x != 0).then(|| {
                let pos = w * 64 + x.trailing_zeros() as usize;
                x &= x - 1;
                pos
            })
        })
    })
}

/// Steps of the walk that tries the base propositions' guards, and the
/// propagation work it may take (`work_done`: 30-200 ms natively in most
/// of the corpus's largest networks, about 0.5 s in the amazons'), so a
/// large network's walk is shorter.
const GUARD_TRIAL_STEPS: usize = 2_000;
const GUARD_TRIAL_WORK: u64 = 2_000_000;

impl FastEngine {
    /// The guards whose list costs less than a quarter of the counts it
    /// saves, along seeded random playouts from the initial state (`None`
    /// when that is all of them): a guard saves one count per guarded AND
    /// at each of its flips, and costs a visit per listed AND at each flip
    /// and a settling each time the rest of an AND becomes true.
    pub(super) fn cheap_guards(&mut self) -> Option<Vec<u32>> {
        let Ok(init) = crate::reasoner::StateMachine::initial_state(self) else {
            return None;
        };
        let mut rng = fastrand::Rng::with_seed(0x6775_6172);
        let budget = self.work_done + GUARD_TRIAL_WORK;
        let mut steps = 0;
        while steps < GUARD_TRIAL_STEPS && self.work_done < budget {
            steps += self.playout(&init, &mut rng, 200).0 + 1;
        }
        let mut size = vec![0u64; self.guard_nodes.len()];
        for &g in self.guard_of.iter().filter(|&&g| g != NONE) {
            size[g as usize] += 1;
        }
        let cheap: Vec<u32> = (0..size.len())
            .filter(|&k| self.guard_work[k] * 4 < self.guard_flips[k] * size[k])
            .map(|k| self.guard_nodes[k])
            .collect();
        (cheap.len() < size.len()).then_some(cheap)
    }
}
