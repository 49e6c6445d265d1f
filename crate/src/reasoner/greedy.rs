//! Greedy playouts: where one role moves and one of its moves wins at once,
//! the playout takes it (decisive moves), so a playout does not walk past
//! the win a real player would see. Trying every move at every step would
//! cost one successor state per move; only the moves that ended a game in
//! an earlier playout are tried ([`Enders`], learnt as playouts find
//! them: in breakthrough the steps onto the last row), so a step costs
//! about what a random step costs until the end is near. The other moves
//! are drawn uniformly, or by MAST when one is given.

use super::mast::Mast;
use super::{only_mover, random_index, rewards, EvalError, Playout, StateMachine};
use crate::terms::TermId;
use rustc_hash::FxHashSet;

/// The moves (role, move) that ended a game when made where their role
/// alone chose.
#[derive(Clone, Debug, Default)]
pub struct Enders {
    moves: FxHashSet<(u32, TermId)>,
}

impl Enders {
    fn has(&self, role: usize, mv: TermId) -> bool {
        self.moves.contains(&(role as u32, mv))
    }
    fn learn(&mut self, role: usize, mv: TermId) {
        self.moves.insert((role as u32, mv));
    }
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
    /// Forgets them (a new game).
    pub fn clear(&mut self) {
        self.moves.clear();
    }
}

/// A playout from `state` of at most `max_steps` joint moves, taking a
/// decisive move where the only role to choose has one among `enders`;
/// moves made with MAST's trail when `mast` is given (credited by
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
    for steps in 0..max_steps {
        if terminal {
            return Ok(Playout {
                state: s,
                steps,
                terminal,
            });
        }
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
                picks[r] = i;
            }
        }
        if let Some(mast) = mast.as_deref_mut() {
            for (r, &i) in picks.iter().enumerate() {
                let slot = mast.slot(r, legal[r][i]);
                mast.record(slot, r);
            }
        }
        let joint: Vec<TermId> = picks
            .iter()
            .enumerate()
            .map(|(r, &i)| legal[r][i])
            .collect();
        s = m.next_state(&s, &joint)?;
        terminal = m.is_terminal(&s)?;
        if let (true, Some(r)) = (terminal, mover) {
            enders.learn(r, joint[r]);
        }
    }
    Ok(Playout {
        state: s,
        steps: max_steps,
        terminal,
    })
}

/// Of role `r`'s moves known to end games, one that wins now (its role's
/// top reward), tried in the order from a random start.
fn decisive<M: StateMachine>(
    m: &mut M,
    s: &M::State,
    legal: &[Vec<TermId>],
    picks: &[usize],
    r: usize,
    enders: &Enders,
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
        let next = m.next_state(s, &joint)?;
        if m.is_terminal(&next)? && rewards(m, &next)?.get(r).is_some_and(|&g| g >= 1.0 - 1e-9) {
            return Ok(Some(i));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{load_engine, EngineChoice};

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

    #[test]
    fn a_learnt_winning_move_is_always_taken() {
        for choice in [EngineChoice::Interpreter, EngineChoice::Fast] {
            let mut m = load_engine(RACE, choice).expect("the race loads");
            let s0 = m.initial_state().unwrap();
            let mut rng = fastrand::Rng::with_seed(3);
            let mut enders = Enders::default();
            // Random playouts find that `(step)` can end the game.
            let mut n = 0;
            while enders.is_empty() {
                greedy_playout(&mut m, &s0, &mut rng, 50, &mut enders, None).unwrap();
                n += 1;
                assert!(n < 1000, "no playout ended the game");
            }
            // From then on `a`, to move at 2, wins at once in every playout.
            for _ in 0..200 {
                let p = greedy_playout(&mut m, &s0, &mut rng, 50, &mut enders, None).unwrap();
                assert!(p.terminal && p.steps == 1, "{choice:?}: {} steps", p.steps);
                assert_eq!(m.goals(&p.state).unwrap()[0], Some(100));
            }
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
