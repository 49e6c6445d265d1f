//! Latched pieces: fluents that no move was seen to remove once they held,
//! and whose presence favours one role (reversi's corners). After Sancho's
//! majority heuristic, which counts the latched propositions of the goal's
//! piece count: a move that gains such a piece is tried first and seeded
//! as a win for its side (`solver/tree.rs`, `settle`), and playouts take
//! the moves that always gain one ([`Latches::find_moves`]).
//!
//! Found from the samples the learnt evaluation takes: consecutive samples
//! of one playout show which fluents stayed and which went. A fluent is
//! latched when it stayed at least `MIN_STAYED` times and never went.
//! Its owner is the role whose mean reward is highest where it holds, by
//! at least `MIN_LEAD` over the mean, while every other role's is below.

use super::probe;
use crate::reasoner::{EvalError, StateMachine};
use crate::terms::TermId;
use rustc_hash::{FxHashMap, FxHashSet};

/// Times a fluent must be seen to stay between samples of one playout.
const MIN_STAYED: u32 = 50;
/// How far above its overall mean an owner's mean reward must be where
/// the fluent holds.
const MIN_LEAD: f64 = 0.05;

/// One sample for [`Latches::find`]: its playout, fluents (sorted), and
/// the rewards at the playout's end.
pub struct Seen<'a> {
    pub playout: usize,
    pub fluents: &'a [TermId],
    pub rewards: &'a [f64],
}

/// The latched fluents and the role each favours.
#[derive(Debug, Default)]
pub struct Latches {
    pub(super) owner: FxHashMap<TermId, usize>,
    /// The moves that gain their role a latched piece wherever they are
    /// legal ([`Latches::find_moves`]).
    pub moves: Vec<(usize, TermId)>,
}

impl Latches {
    /// The latches in `samples` (in playout order), none if nothing is
    /// latched or nothing latched favours a role.
    pub fn find(samples: &[Seen], roles: usize) -> Option<Latches> {
        let mut stayed: FxHashMap<TermId, u32> = FxHashMap::default();
        let mut went: FxHashSet<TermId> = FxHashSet::default();
        for pair in samples.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            if a.playout != b.playout {
                continue;
            }
            for f in a.fluents {
                if b.fluents.binary_search(f).is_ok() {
                    *stayed.entry(*f).or_default() += 1;
                } else {
                    went.insert(*f);
                }
            }
        }
        let latched: FxHashSet<TermId> = (stayed.into_iter())
            .filter(|&(f, n)| n >= MIN_STAYED && !went.contains(&f))
            .map(|(f, _)| f)
            .collect();
        if latched.is_empty() {
            return None;
        }
        let owner: FxHashMap<TermId, usize> = leads(samples, roles, &latched)
            .into_iter()
            .filter_map(|(f, lead)| owner_of(&lead).map(|r| (f, r)))
            .collect();
        (!owner.is_empty()).then_some(Latches {
            owner,
            moves: Vec::new(),
        })
    }

    /// Notes in `moves` the moves that gained their role a latched piece
    /// (beyond any other role) every time they were legal along random
    /// probe playouts from `root` ([`probe::moves_that_always_gain`]):
    /// reversi's corner moves, but not dots and boxes' lines, which close
    /// a box only sometimes. Stops probing at `until_ms`. Playouts take
    /// them where they can (`solver/walker.rs`), so that leaving the
    /// opponent a corner costs in a playout as it does in a game.
    pub fn find_moves<M: StateMachine>(
        &mut self,
        m: &mut M,
        root: &M::State,
        rng: &mut fastrand::Rng,
        max_steps: usize,
        until_ms: f64,
    ) -> Result<(), EvalError> {
        let roles = m.roles().len();
        let counts = |m: &mut M, s: &M::State| Ok(self.counts(&m.fluents(s), roles));
        let found = probe::moves_that_always_gain(m, root, rng, max_steps, until_ms, counts)?;
        self.moves = found.moves;
        Ok(())
    }

    /// Latched fluents found.
    pub fn len(&self) -> usize {
        self.owner.len()
    }

    pub fn is_empty(&self) -> bool {
        self.owner.is_empty()
    }

    /// Per role, the latched pieces it owns among `fluents`.
    pub fn counts(&self, fluents: &[TermId], roles: usize) -> Vec<i64> {
        let mut c = vec![0; roles];
        for f in fluents {
            if let Some(&r) = self.owner.get(f) {
                c[r] += 1;
            }
        }
        c
    }
}

/// Per latched fluent, each role's mean reward where it holds less its
/// overall mean.
fn leads(samples: &[Seen], roles: usize, latched: &FxHashSet<TermId>) -> Vec<(TermId, Vec<f64>)> {
    let n = samples.len().max(1) as f64;
    let mean: Vec<f64> = (0..roles)
        .map(|r| samples.iter().map(|s| s.rewards[r]).sum::<f64>() / n)
        .collect();
    let mut sums: FxHashMap<TermId, (f64, Vec<f64>)> = FxHashMap::default();
    for s in samples {
        for f in s.fluents.iter().filter(|f| latched.contains(f)) {
            let e = sums.entry(*f).or_insert_with(|| (0.0, vec![0.0; roles]));
            e.0 += 1.0;
            for (acc, (x, m)) in e.1.iter_mut().zip(s.rewards.iter().zip(&mean)) {
                *acc += x - m;
            }
        }
    }
    sums.into_iter()
        .map(|(f, (k, devs))| (f, devs.into_iter().map(|d| d / k).collect()))
        .collect()
}

/// The role a fluent with these leads favours: the one leading by at least
/// `MIN_LEAD`, every other below its mean.
fn owner_of(lead: &[f64]) -> Option<usize> {
    let (r, &best) = lead.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1))?;
    let others_below = lead.iter().enumerate().all(|(i, &l)| i == r || l < 0.0);
    (best >= MIN_LEAD && others_below).then_some(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{load_engine, EngineChoice};
    use crate::search::mcts::learned;

    fn t(i: u32) -> TermId {
        TermId(i)
    }

    #[test]
    fn a_fluent_that_stays_and_wins_is_latched_for_its_winner() {
        // Fluent 1 stays and comes with role 0's wins; 2 stays but tells
        // nothing; 3 comes with wins but goes again.
        let (win, loss) = ([1.0, 0.0], [0.0, 1.0]);
        let with = [t(1), t(2), t(3)];
        let without = [t(2)];
        let mut samples = Vec::new();
        for p in 0..100 {
            let (f, r) = if p % 2 == 0 {
                (&with[..], &win)
            } else {
                (&without[..], &loss)
            };
            samples.push(Seen {
                playout: p,
                fluents: f,
                rewards: r,
            });
            let later: &[TermId] = if p % 2 == 0 { &with[..2] } else { f };
            samples.push(Seen {
                playout: p,
                fluents: later,
                rewards: r,
            });
        }
        let latches = Latches::find(&samples, 2).expect("fluent 1 is latched");
        assert_eq!(latches.len(), 1);
        assert_eq!(latches.counts(&[t(1), t(2), t(3)], 2), vec![1, 0]);
    }

    #[test]
    fn samples_of_different_playouts_are_not_compared() {
        // Fluent 1 held in one playout's last sample and not in the next
        // playout's first: it did not go.
        let samples: Vec<Seen> = (0..60)
            .map(|i| Seen {
                playout: i / 2,
                fluents: if i % 2 == 0 { &[] } else { &[TermId(1)] },
                rewards: if i % 2 == 0 { &[0.5, 0.5] } else { &[1.0, 0.0] },
            })
            .collect();
        assert!(Latches::find(&samples, 2).is_none(), "never seen to stay");
    }

    #[test]
    fn reversis_latched_pieces_are_its_corners_for_their_colour() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games/reversi.kif");
        let text = std::fs::read_to_string(path).expect("the game file");
        let mut m = load_engine(&text, EngineChoice::Fast).expect("the game grounds");
        let mut policy = learned::Policy::new(3, false);
        let eval = learned::LearnedEval::learn(&mut m, &mut policy, 60_000.0, 1500)
            .unwrap()
            .expect("reversi's playouts end");
        let latches = eval.latches.expect("corners are latched");
        let roles: Vec<String> = m.roles().iter().map(|&r| m.terms().display(r)).collect();
        let mut found = Vec::new();
        for (&f, &r) in &latches.owner {
            let shown = m.terms().display(f);
            // The project's reversi is played on six by six cells.
            let corner = ["1 1", "1 6", "6 1", "6 6"]
                .iter()
                .any(|c| shown.contains(c));
            assert!(
                corner && shown.ends_with(&format!("{})", roles[r])),
                "{shown} for {}",
                roles[r]
            );
            found.push(shown);
        }
        // Four corners, two colours: nearly all seen within the playouts.
        assert!(found.len() >= 6, "{found:?}");
        // The moves that take a corner, and only those, are preferred.
        let corner_moves: Vec<String> = (latches.moves.iter())
            .map(|&(r, mv)| format!("{} {}", roles[r], m.terms().display(mv)))
            .collect();
        for shown in &corner_moves {
            let corner = ["1 1)", "1 6)", "6 1)", "6 6)"];
            assert!(corner.iter().any(|c| shown.ends_with(c)), "{shown}");
        }
        assert!(corner_moves.len() >= 4, "{corner_moves:?}");
    }
}
