//! Greedy playouts: where one role moves and one of its moves wins at once,
//! the playout takes it (decisive moves), so a playout does not walk past
//! the win a real player would see. And where that win was handed over by
//! the previous move of another role that chose alone, that role takes
//! back its move and tries another one (anti-decisive moves), as long as it
//! has untried moves left: a playout does not walk into a loss in one
//! either. Trying every move at every step would cost one successor state
//! per move; only the moves that won a game for their mover in an earlier
//! playout are tried ([`Enders`], learnt as playouts find them: in
//! breakthrough the steps onto the last row), so a step costs about what a
//! random step costs until the end is near. A move that ended a game in a
//! draw is not learnt: where a step counter ends most playouts (draughts'
//! twenty king moves), it would make nearly every move an ender and each
//! step try them all. The other moves are drawn uniformly, or by MAST when
//! one is given.

use super::mast::Mast;
use super::{only_mover, random_index, won, EvalError, Playout, StateMachine};
use crate::terms::TermId;
use rustc_hash::FxHashSet;

/// The moves (role, move) that ended a game with their role's top reward
/// when made where their role alone chose.
#[derive(Clone, Debug, Default)]
pub struct Enders {
    moves: FxHashSet<(u32, TermId)>,
    /// The same, as bits of legal-proposition indices (the fast engine).
    index: Vec<u64>,
    /// Successor states computed besides the playouts' own steps: moves
    /// tried for a win, and moves taken back and redrawn.
    pub tries: u64,
}

impl Enders {
    pub(crate) fn has_index(&self, i: u32) -> bool {
        self.index
            .get(i as usize / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }
    pub(crate) fn learn_index(&mut self, i: u32) {
        let w = i as usize / 64;
        if w >= self.index.len() {
            self.index.resize(w + 1, 0);
        }
        self.index[w] |= 1 << (i % 64);
    }
    fn has(&self, role: usize, mv: TermId) -> bool {
        self.moves.contains(&(role as u32, mv))
    }
    fn learn(&mut self, role: usize, mv: TermId) {
        self.moves.insert((role as u32, mv));
    }
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty() && self.index.iter().all(|&w| w == 0)
    }
    /// The moves, as terms of `m` (the machine that learnt them).
    pub fn terms<M: StateMachine>(&self, m: &M) -> Vec<TermId> {
        let mast = Mast::new(1.0);
        let bits = (self.index.iter().enumerate()).flat_map(|(w, &bits)| {
            (0..64)
                .filter(move |b| bits & (1 << b) != 0)
                .map(move |b| (w * 64 + b) as u32)
        });
        let indexed = bits.filter_map(|i| m.slot_move(&mast, i));
        self.moves
            .iter()
            .map(|&(_, mv)| mv)
            .chain(indexed)
            .collect()
    }
    /// Forgets them (a new game).
    pub fn clear(&mut self) {
        self.moves.clear();
        self.index.clear();
    }
}

/// The last step of a playout in which one role chose alone: what a later
/// step needs to take that choice back.
struct Choice<S> {
    state: S,
    legal: Vec<Vec<TermId>>,
    picks: Vec<usize>,
    mover: usize,
    /// The mover's moves not tried yet (filled on the first take-back).
    untried: Option<Vec<usize>>,
    /// Steps before it, and the length of MAST's trail before it.
    steps: usize,
    trail: usize,
}

impl<S> Choice<S> {
    /// Another of the mover's moves, drawn at random, if one is left.
    fn retry(&mut self, rng: &mut fastrand::Rng) -> Option<usize> {
        let (n, played) = (self.legal[self.mover].len(), self.picks[self.mover]);
        let untried = self
            .untried
            .get_or_insert_with(|| (0..n).filter(|&i| i != played).collect());
        if untried.is_empty() {
            return None;
        }
        let i = untried.swap_remove(random_index(rng, untried.len()));
        self.picks[self.mover] = i;
        Some(i)
    }
}

/// A playout from `state` of at most `max_steps` joint moves, taking a
/// decisive move where the only role to choose has one among `enders`, and
/// taking back the move before it where that move was another role's lone
/// choice; moves made with MAST's trail when `mast` is given (credited by
/// [`Mast::finish`]).
pub fn greedy_playout<M: StateMachine>(
    m: &mut M,
    state: &M::State,
    rng: &mut fastrand::Rng,
    max_steps: usize,
    enders: &mut Enders,
    mut mast: Option<&mut Mast>,
) -> Result<Playout<M::State>, EvalError> {
    let roles = m.roles().len();
    let mut s = state.clone();
    let mut terminal = m.is_terminal(&s)?;
    let mut steps = 0;
    let mut last: Option<Choice<M::State>> = None;
    while steps < max_steps && !terminal {
        let mut legal = Vec::with_capacity(roles);
        for r in 0..roles {
            let moves = m.legal_moves(&s, r)?;
            if moves.is_empty() {
                return Ok(Playout {
                    state: s,
                    steps,
                    terminal,
                });
            }
            legal.push(moves);
        }
        let mut picks: Vec<usize> = (0..roles)
            .map(|r| match mast.as_deref_mut() {
                Some(mast) => mast.choose(rng, r, &legal[r]),
                None => random_index(rng, legal[r].len()),
            })
            .collect();
        let mover = only_mover(&legal);
        if let Some(r) = mover {
            if let Some(i) = decisive(m, &s, &legal, &picks, r, enders)? {
                // Anti-decisive: the role that chose before takes it back.
                if let Some(c) = last.as_mut().filter(|c| c.mover != r) {
                    if c.retry(rng).is_some() {
                        enders.tries += 1;
                        if let Some(mast) = mast.as_deref_mut() {
                            mast.truncate(c.trail);
                        }
                        s = step(m, &c.state, &c.legal, &c.picks, mast.as_deref_mut())?;
                        steps = c.steps + 1;
                        terminal = m.is_terminal(&s)?;
                        if terminal && won(m, &s, c.mover)? {
                            enders.learn(c.mover, c.legal[c.mover][c.picks[c.mover]]);
                        }
                        continue;
                    }
                }
                picks[r] = i;
            }
        }
        let trail = mast.as_deref().map_or(0, Mast::trail_len);
        let next = step(m, &s, &legal, &picks, mast.as_deref_mut())?;
        let from = std::mem::replace(&mut s, next);
        terminal = m.is_terminal(&s)?;
        if let (true, Some(r)) = (terminal, mover) {
            if won(m, &s, r)? {
                enders.learn(r, legal[r][picks[r]]);
            }
        }
        last = mover.map(|r| Choice {
            state: from,
            legal,
            picks,
            mover: r,
            untried: None,
            steps,
            trail,
        });
        steps += 1;
    }
    Ok(Playout {
        state: s,
        steps,
        terminal,
    })
}

/// The state after the joint move `picks` from `s`, noted on MAST's trail.
fn step<M: StateMachine>(
    m: &mut M,
    s: &M::State,
    legal: &[Vec<TermId>],
    picks: &[usize],
    mast: Option<&mut Mast>,
) -> Result<M::State, EvalError> {
    if let Some(mast) = mast {
        for (r, &i) in picks.iter().enumerate() {
            mast.note(r, &legal[r], i);
        }
    }
    let joint: Vec<TermId> = picks
        .iter()
        .enumerate()
        .map(|(r, &i)| legal[r][i])
        .collect();
    m.next_state(s, &joint)
}

/// Of role `r`'s moves known to win games, one that wins now (its role's
/// top reward), tried in the order from a random start.
fn decisive<M: StateMachine>(
    m: &mut M,
    s: &M::State,
    legal: &[Vec<TermId>],
    picks: &[usize],
    r: usize,
    enders: &mut Enders,
) -> Result<Option<usize>, EvalError> {
    if enders.is_empty() {
        return Ok(None);
    }
    let mut joint: Vec<TermId> = picks
        .iter()
        .enumerate()
        .map(|(q, &i)| legal[q][i])
        .collect();
    for (i, &mv) in legal[r].iter().enumerate() {
        if !enders.has(r, mv) {
            continue;
        }
        joint[r] = mv;
        enders.tries += 1;
        let next = m.next_state(s, &joint)?;
        if m.is_terminal(&next)? && won(m, &next, r)? {
            return Ok(Some(i));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{load_engine, EngineChoice};
    use crate::reasoner::mast::{Rule, ALPHA};
    use crate::reasoner::rewards;

    /// A race: `a` moves first and wins by stepping to 3 (from 2); `b`
    /// wins by stepping to 3 on its own line; each may also wait.
    const RACE: &str = "(role a) (role b) (init (pos a 2)) (init (pos b 0)) (init (control a))
        (succ 0 1) (succ 1 2) (succ 2 3)
        (<= (legal ?r (step)) (true (control ?r)))
        (<= (legal ?r wait) (true (control ?r)))
        (<= (legal a noop) (true (control b))) (<= (legal b noop) (true (control a)))
        (<= (next (pos ?r ?y)) (does ?r (step)) (true (pos ?r ?x)) (succ ?x ?y))
        (<= (next (pos ?r ?x)) (true (pos ?r ?x)) (not (does ?r (step))))
        (<= (next (control a)) (true (control b))) (<= (next (control b)) (true (control a)))
        (<= terminal (true (pos ?r 3)))
        (<= (goal a 100) (true (pos a 3))) (<= (goal a 0) (not (true (pos a 3))))
        (<= (goal b 100) (true (pos b 3))) (<= (goal b 0) (not (true (pos b 3))))";

    /// The moves that end games, learnt by greedy playouts from `s0` until
    /// one is known (fewer than 1,000 playouts).
    fn learn_enders<M: StateMachine>(m: &mut M, s0: &M::State, rng: &mut fastrand::Rng) -> Enders {
        let mut enders = Enders::default();
        for _ in 0..999 {
            m.greedy_playout(s0, rng, 50, &mut enders).unwrap();
            if !enders.is_empty() {
                return enders;
            }
        }
        panic!("no playout ended the game");
    }

    #[test]
    fn a_learnt_winning_move_is_always_taken() {
        for choice in [EngineChoice::Interpreter, EngineChoice::Fast] {
            let mut m = load_engine(RACE, choice).expect("the race loads");
            let s0 = m.initial_state().unwrap();
            let mut rng = fastrand::Rng::with_seed(3);
            // Random playouts find that `(step)` can end the game.
            let mut enders = learn_enders(&mut m, &s0, &mut rng);
            // From then on `a`, to move at 2, wins at once in every playout.
            for _ in 0..200 {
                let p = m.greedy_playout(&s0, &mut rng, 50, &mut enders).unwrap();
                assert!(p.terminal && p.steps == 1, "{choice:?}: {} steps", p.steps);
                assert_eq!(m.goals(&p.state).unwrap()[0], Some(100));
            }
        }
    }

    /// `b` wins by stepping from 2 to 3 unless `a`, to move first, blocks
    /// it (one of its six moves); otherwise `a` wins after four plies.
    const BLOCK: &str = "(role a) (role b) (init (pos b 2)) (init (control a)) (init (t 0))
        (succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (n 1) (n 2) (n 3) (n 4) (n 5)
        (<= (legal a (wait ?n)) (true (control a)) (n ?n))
        (<= (legal a block) (true (control a)))
        (<= (legal b (step)) (true (control b)) (not (true blocked)))
        (<= (legal b wait) (true (control b)))
        (<= (legal a noop) (true (control b))) (<= (legal b noop) (true (control a)))
        (<= (next blocked) (does a block)) (<= (next blocked) (true blocked))
        (<= (next (pos b 3)) (does b (step)))
        (<= (next (pos b 2)) (true (pos b 2)) (not (does b (step))))
        (<= (next (t ?y)) (true (t ?x)) (succ ?x ?y))
        (<= (next (control a)) (true (control b))) (<= (next (control b)) (true (control a)))
        (<= terminal (true (pos b 3))) (<= terminal (true (t 4)))
        (<= (goal a 100) (not (true (pos b 3)))) (<= (goal a 0) (true (pos b 3)))
        (<= (goal b 100) (true (pos b 3))) (<= (goal b 0) (not (true (pos b 3))))";

    /// The race from 0 for both, where either role may also `quit` when to
    /// move: a draw.
    fn race_with_quits() -> String {
        RACE.replace("(pos a 2)", "(pos a 0)")
            .replace(
                "(<= terminal",
                "(<= (legal ?r quit) (true (control ?r)))
            (<= (next quitted) (does ?r quit)) (<= terminal (true quitted))
            (<= (goal ?r 50) (role ?r) (true quitted)) (<= terminal",
            )
            .replace(
                "(not (true (pos a 3))))",
                "(not (true (pos a 3))) (not (true quitted)))",
            )
            .replace(
                "(not (true (pos b 3))))",
                "(not (true (pos b 3))) (not (true quitted)))",
            )
    }

    #[test]
    fn moves_that_end_games_in_draws_are_not_learnt() {
        for choice in [EngineChoice::Interpreter, EngineChoice::Fast] {
            let mut m = load_engine(&race_with_quits(), choice).expect("the race loads");
            let s0 = m.initial_state().unwrap();
            let mut rng = fastrand::Rng::with_seed(5);
            let mut enders = Enders::default();
            let mut draws = 0;
            for _ in 0..300 {
                let p = m.greedy_playout(&s0, &mut rng, 50, &mut enders).unwrap();
                draws += usize::from(m.goals(&p.state).unwrap() == [Some(50), Some(50)]);
            }
            assert!(draws >= 30, "{choice:?}: only {draws} playouts quit");
            let mut learnt: Vec<String> = (enders.terms(&m).iter())
                .map(|&t| m.terms().display(t))
                .collect();
            learnt.dedup();
            assert_eq!(learnt, ["step"], "{choice:?}");
        }
    }

    #[test]
    fn a_move_that_loses_at_once_is_taken_back() {
        for choice in [EngineChoice::Interpreter, EngineChoice::Fast] {
            let mut m = load_engine(BLOCK, choice).expect("the game loads");
            let s0 = m.initial_state().unwrap();
            let mut rng = fastrand::Rng::with_seed(5);
            let mut enders = learn_enders(&mut m, &s0, &mut rng);
            // Random play blocks one time in six; greedy play always.
            for _ in 0..200 {
                let p = m.greedy_playout(&s0, &mut rng, 50, &mut enders).unwrap();
                assert!(p.terminal && p.steps == 4, "{choice:?}: {} steps", p.steps);
                assert_eq!(m.goals(&p.state).unwrap()[0], Some(100), "{choice:?}");
            }
        }
    }

    /// Plays `trail`'s joint moves (one slot per role and step, as
    /// [`StateMachine::move_slot`] numbers them) from `s0`.
    fn replay<M: StateMachine>(m: &mut M, s0: &M::State, mast: &mut Mast) -> M::State {
        let trail: Vec<(u32, u32)> = mast.trail().collect();
        let mut s = s0.clone();
        for (k, step) in trail.chunks(m.roles().len()).enumerate() {
            let mut joint = Vec::new();
            for (q, &(slot, r)) in step.iter().enumerate() {
                let legal = m.legal_moves(&s, r as usize).unwrap();
                if mast.adapts() {
                    // PPA notes the slots of the moves it chose among.
                    let mut among = mast.among(k * step.len() + q).to_vec();
                    let mut slots: Vec<u32> = (legal.iter())
                        .map(|&mv| m.move_slot(mast, r as usize, mv))
                        .collect();
                    among.sort_unstable();
                    slots.sort_unstable();
                    if slots.len() == 1 {
                        slots.clear();
                    }
                    assert_eq!(among, slots, "the alternatives of move {k}");
                }
                let mv = legal
                    .into_iter()
                    .find(|&mv| m.move_slot(mast, r as usize, mv) == slot);
                joint.push(mv.expect("the noted move is legal where it was made"));
            }
            s = m.next_state(&s, &joint).unwrap();
        }
        s
    }

    #[test]
    fn the_trail_holds_the_moves_made_after_take_backs() {
        for choice in [EngineChoice::Interpreter, EngineChoice::Fast] {
            let mut m = load_engine(BLOCK, choice).expect("the game loads");
            let s0 = m.initial_state().unwrap();
            let mut rng = fastrand::Rng::with_seed(7);
            let mut enders = learn_enders(&mut m, &s0, &mut rng);
            for rule in [Rule::Greedy(1.0), Rule::Adapt(ALPHA)] {
                let mut mast = Mast::with_rule(rule);
                for _ in 0..100 {
                    let p = m
                        .greedy_mast_playout(&s0, &mut rng, 50, &mut enders, &mut mast)
                        .unwrap();
                    assert_eq!(mast.trail_len(), 2 * p.steps, "{choice:?}");
                    let end = replay(&mut m, &s0, &mut mast);
                    assert!(end == p.state, "{choice:?}: the trail leads elsewhere");
                    let r = rewards(&mut m, &p.state).unwrap();
                    mast.finish(&r);
                }
            }
        }
    }

    /// One move decides: `a` picks 1 (it wins) or 2 or 3 (`b` wins).
    const PICK: &str = "(role a) (role b) (init start) (n 1) (n 2) (n 3)
        (<= (legal a (pick ?n)) (true start) (n ?n)) (<= (legal b noop) (true start))
        (<= (next (picked ?n)) (does a (pick ?n)))
        (<= terminal (true (picked ?n)))
        (<= (goal a 100) (true (picked 1))) (<= (goal a 0) (not (true (picked 1))))
        (<= (goal b 0) (true (picked 1))) (<= (goal b 100) (not (true (picked 1))))";

    #[test]
    fn ppa_learns_to_make_the_winning_pick() {
        for choice in [EngineChoice::Interpreter, EngineChoice::Fast] {
            let mut m = load_engine(PICK, choice).expect("the game loads");
            let s0 = m.initial_state().unwrap();
            let mut rng = fastrand::Rng::with_seed(4);
            let mut mast = Mast::with_rule(Rule::Adapt(ALPHA));
            let mut wins = 0;
            for i in 0..300 {
                let p = m.mast_playout(&s0, &mut rng, 5, &mut mast).unwrap();
                let r = rewards(&mut m, &p.state).unwrap();
                wins += usize::from(i >= 200 && r[0] == 1.0);
                mast.finish(&r);
            }
            let [one, two, three] = ["(pick 1)", "(pick 2)", "(pick 3)"].map(|t| {
                let mv = crate::program::parse_ground_term(m.terms_mut(), t).unwrap();
                let slot = m.move_slot(&mut mast, 0, mv);
                mast.weight(slot)
            });
            assert!(
                one > 1.0 && two < 0.0 && three < 0.0,
                "{choice:?}: {one} {two} {three}"
            );
            // Uniform play wins one time in three (75 in 100 is nine
            // standard deviations above); the learnt policy far more often.
            assert!(wins > 75, "{choice:?}: {wins} of 100");
        }
    }

    #[test]
    fn with_mast_the_moves_are_credited() {
        let mut m = load_engine(RACE, EngineChoice::Interpreter).unwrap();
        let s0 = m.initial_state().unwrap();
        let mut rng = fastrand::Rng::with_seed(1);
        let (mut enders, mut mast) = (Enders::default(), Mast::new(0.4));
        for _ in 0..100 {
            let p =
                greedy_playout(&mut m, &s0, &mut rng, 50, &mut enders, Some(&mut mast)).unwrap();
            assert!(p.terminal);
            let r = rewards(&mut m, &p.state).unwrap();
            mast.finish(&r);
        }
        let step = crate::program::parse_ground_term(m.terms_mut(), "(step)").unwrap();
        let slot = mast.slot(0, step);
        assert!(
            mast.value(slot) > 0.9,
            "a's step wins: {}",
            mast.value(slot)
        );
    }
}
