//! Greedy playouts inside the network: the rules of
//! [`crate::reasoner::greedy`] (a lone mover takes a known winning move; the
//! lone choice before it, by another role, is taken back and redrawn), with
//! a move named by its legal proposition's index, so a step allocates
//! nothing and looks nothing up. With a [`Mast`], the moves are drawn by it
//! and noted on its trail (their slots are the legal indices).

use super::playout::{draw, select};
use super::{bit_positions, FastEngine, NONE};
use crate::reasoner::greedy::Enders;
use crate::reasoner::mast::Mast;
use crate::reasoner::random_index;
use smallvec::SmallVec;

type Words = SmallVec<[u64; 4]>;

/// The pick of a role that passes (no move of its in the subgame played).
const PASS: u32 = u32::MAX;

/// The last step in which one role chose alone.
#[derive(Default)]
struct Choice {
    state: Words,
    /// Per role, the legal index of its move.
    picks: SmallVec<[u32; 4]>,
    mover: usize,
    /// The mover's legal bits (kept under PPA), and those not tried yet.
    legal: Words,
    untried: Words,
    steps: usize,
    /// The length of MAST's trail before it.
    trail: usize,
}

impl FastEngine {
    /// A greedy playout from `state` of at most `max_steps` joint moves;
    /// the number of joint moves made and whether the end is terminal. The
    /// moves stay on `mast`'s trail, if given, until [`Mast::finish`].
    pub fn playout_greedy(
        &mut self,
        state: &super::BitState,
        rng: &mut fastrand::Rng,
        max_steps: usize,
        enders: &mut Enders,
        mast: Option<&mut Mast>,
    ) -> (usize, bool) {
        match self.part == NONE {
            true => self.playout_greedy_in::<false>(state, rng, max_steps, enders, mast),
            false => self.playout_greedy_in::<true>(state, rng, max_steps, enders, mast),
        }
    }

    /// [`Self::playout_greedy`]; `SUB`: in a subgame, where a role without
    /// a move there passes.
    fn playout_greedy_in<const SUB: bool>(
        &mut self,
        state: &super::BitState,
        rng: &mut fastrand::Rng,
        max_steps: usize,
        enders: &mut Enders,
        mut mast: Option<&mut Mast>,
    ) -> (usize, bool) {
        self.at(state);
        let terminal = self.t.terminal as usize;
        let roles = self.t.roles.len();
        let mut picks: SmallVec<[u32; 4]> = SmallVec::new();
        let mut bits = Words::new();
        // Under PPA: each role's legal bits, where it has several moves.
        let adapts = mast.as_deref().is_some_and(Mast::adapts);
        let mut words = Words::new();
        let mut spans: SmallVec<[(usize, usize); 4]> = SmallVec::new();
        let mut last = Choice::default();
        let mut has_last = false;
        let mut steps = 0;
        while steps < max_steps && !self.on(terminal) {
            picks.clear();
            words.clear();
            spans.clear();
            let mut movers = 0;
            let mut mover = 0;
            for r in 0..roles {
                let start = self.t.legal_start[r];
                let legal = self.legal_bits_in::<SUB>(r);
                let n: usize = legal.iter().map(|w| w.count_ones() as usize).sum();
                if n == 0 {
                    if !SUB {
                        return (steps, false);
                    }
                    // A pass, in a subgame.
                    picks.push(PASS);
                    if adapts {
                        spans.push((words.len(), words.len()));
                    }
                    continue;
                }
                if n > 1 {
                    (movers, mover) = (movers + 1, r);
                    bits.clear();
                    bits.extend_from_slice(legal);
                }
                if adapts {
                    let from = words.len();
                    if n > 1 {
                        words.extend_from_slice(legal);
                    }
                    spans.push((from, words.len()));
                }
                picks.push(start + draw(legal, n, start, rng, mast.as_deref()) as u32);
            }
            if SUB && picks.iter().all(|&p| p == PASS) {
                // No role can move in the subgame: it ends here.
                return (steps, true);
            }
            let lone = movers == 1;
            if lone {
                if let Some(win) = self.decisive(mover, &bits, &picks, enders) {
                    if has_last && last.mover != mover && self.retry(&mut last, rng) {
                        enders.tries += 1;
                        if let Some(mast) = mast.as_deref_mut() {
                            mast.truncate(last.trail);
                            let mut spans: SmallVec<[(usize, usize); 4]> =
                                SmallVec::from_elem((0, 0), roles);
                            spans[last.mover] = (0, last.legal.len());
                            let starts = &self.t.legal_start;
                            note(mast, &last.picks, starts, &last.legal, &spans);
                        }
                        steps = last.steps + 1;
                        if self.on(terminal) && self.has_top_goal(last.mover) {
                            enders.learn_index(last.picks[last.mover]);
                        }
                        continue;
                    }
                    picks[mover] = win;
                }
                last.state.clear();
                last.state.extend_from_slice(&self.cur);
                last.picks.clone_from(&picks);
                last.mover = mover;
                if adapts {
                    last.legal.clone_from(&bits);
                }
                last.untried.clone_from(&bits);
                let played = picks[mover] - self.t.legal_start[mover];
                last.untried[played as usize / 64] &= !(1 << (played % 64));
                last.steps = steps;
                last.trail = mast.as_deref().map_or(0, Mast::trail_len);
            }
            has_last = lone;
            if let Some(mast) = mast.as_deref_mut() {
                note(mast, &picks, &self.t.legal_start, &words, &spans);
            }
            self.play_in::<SUB>(&picks);
            if lone && self.on(terminal) && self.has_top_goal(mover) {
                enders.learn_index(picks[mover]);
            }
            steps += 1;
        }
        (steps, self.on(terminal))
    }

    /// Plays the joint move given by legal indices.
    fn play(&mut self, picks: &[u32]) {
        match self.part == NONE {
            true => self.play_in::<false>(picks),
            false => self.play_in::<true>(picks),
        }
    }

    /// [`Self::play`]; `SUB`: in a subgame.
    #[inline(always)]
    fn play_in<const SUB: bool>(&mut self, picks: &[u32]) {
        let nodes: SmallVec<[u32; 8]> = (picks.iter())
            .filter(|&&i| !SUB || i != PASS)
            .map(|&i| self.t.legal_input[i as usize])
            .filter(|&n| n != NONE)
            .collect();
        self.play_step_in::<SUB>(&nodes);
    }

    /// Of role `r`'s legal moves (`legal`, its bits) known to win games,
    /// one that wins now (goal 100); the current state is kept.
    fn decisive(
        &mut self,
        r: usize,
        legal: &[u64],
        picks: &[u32],
        enders: &mut Enders,
    ) -> Option<u32> {
        let start = self.t.legal_start[r];
        let here: Words = SmallVec::from_slice(&self.cur);
        let mut joint: SmallVec<[u32; 4]> = SmallVec::from_slice(picks);
        for (w, &word) in legal.iter().enumerate() {
            let mut x = word;
            while x != 0 {
                let i = start + (w * 64) as u32 + x.trailing_zeros();
                x &= x - 1;
                if !enders.has_index(i) {
                    continue;
                }
                joint[r] = i;
                enders.tries += 1;
                self.play(&joint);
                let wins = self.on(self.t.terminal as usize) && self.has_top_goal(r);
                self.set_state(&here);
                if wins {
                    return Some(i);
                }
            }
        }
        None
    }

    fn has_top_goal(&mut self, r: usize) -> bool {
        self.sweep_lazy();
        self.t.goals[r]
            .iter()
            .any(|&(v, n)| v >= 100 && self.on(n as usize))
    }

    /// Takes `c`'s move back and plays another of its mover's untried
    /// moves from its state; false when none is left.
    fn retry(&mut self, c: &mut Choice, rng: &mut fastrand::Rng) -> bool {
        let n: usize = c.untried.iter().map(|w| w.count_ones() as usize).sum();
        if n == 0 {
            return false;
        }
        let pos = select::<false>(&c.untried, random_index(rng, n));
        c.untried[pos / 64] &= !(1 << (pos % 64));
        c.picks[c.mover] = self.t.legal_start[c.mover] + pos as u32;
        self.set_state(&c.state);
        self.play(&c.picks);
        true
    }
}

/// Notes a joint move, given by legal indices, on MAST's trail; under PPA
/// with the moves each role chose among (`spans[r]`: role `r`'s legal
/// bits in `words`, empty where it had one move; `starts`: each role's
/// first legal index).
fn note(mast: &mut Mast, picks: &[u32], starts: &[u32], words: &[u64], spans: &[(usize, usize)]) {
    for (r, &i) in picks.iter().enumerate().filter(|(_, &i)| i != PASS) {
        let (from, to) = spans.get(r).copied().unwrap_or((0, 0));
        let among = bit_positions(&words[from..to]).map(|pos| starts[r] + pos as u32);
        mast.record_among(i, r, among);
    }
}
