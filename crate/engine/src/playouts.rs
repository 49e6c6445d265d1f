//! Seeded random playouts: `gdlkit play --seed S` plays one, JS
//! `game.playouts({count, seed, maxSteps})` plays many. Playout `i` of a
//! run with seed `S` is the game `gdlkit play --seed S+i` prints: one
//! function ([`play`]) plays both, with the reasoner's random playout
//! ([`crate::reasoner::random_walk`]).

use crate::reasoner::{random_walk, EvalError, StateMachine};
use crate::terms::TermId;
use serde::Serialize;

/// Default step cap of a playout (`--max-steps`, `maxSteps`).
pub const DEFAULT_MAX_STEPS: usize = 1000;

/// One random game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "PlayedGame"))]
pub struct Played {
    /// The joint moves made (one move per role, in role order).
    pub joint_moves: Vec<Vec<String>>,
    /// The last state is terminal.
    pub terminal: bool,
    /// Stopped because a role had no legal move.
    pub stuck: bool,
    /// Every goal value per role in the last state.
    pub goals: Vec<Vec<i64>>,
    /// GDL-II games only: per joint move, what each role perceived
    /// (`sees`, role order, sorted).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub percepts: Option<Vec<Vec<Vec<String>>>>,
    /// The last state's fluents, sorted.
    #[serde(skip)]
    pub last: Vec<TermId>,
}

/// Plays uniformly random joint moves from `from` with a generator seeded
/// by `seed` (each role draws in role order) until a terminal state, a
/// role without legal moves, or `max_steps` joint moves. GDL-II's `random`
/// role draws like every other role: uniformly among its legal moves.
pub fn play<M: StateMachine>(
    m: &mut M,
    from: &M::State,
    seed: u64,
    max_steps: usize,
) -> Result<Played, EvalError> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut joint_moves = Vec::new();
    let mut percepts = m.has_percepts().then(Vec::new);
    let end = random_walk(m, from, &mut rng, max_steps, |m, s, _, joint| {
        joint_moves.push(joint.iter().map(|&t| m.terms().display(t)).collect());
        if let Some(ps) = &mut percepts {
            ps.push(percept_texts(m, s, joint)?);
        }
        Ok(true)
    })?;
    Ok(Played {
        joint_moves,
        terminal: end.terminal,
        // The playout stops short of the cap, not terminal: a role had no move.
        stuck: !end.terminal && end.steps < max_steps,
        goals: m.goal_values(&end.state)?,
        percepts,
        last: m.fluents(&end.state),
    })
}

/// Each role's percepts for `joint` in `s`, as text (role order, sorted).
pub fn percept_texts<M: StateMachine>(
    m: &mut M,
    s: &M::State,
    joint: &[TermId],
) -> Result<Vec<Vec<String>>, EvalError> {
    Ok(m.percepts(s, joint)?
        .into_iter()
        .map(|ps| ps.into_iter().map(|p| m.terms().display(p)).collect())
        .collect())
}

/// What a run of playouts found (JS: `game.playouts()`'s result).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "PlayoutSummary")
)]
pub struct Summary {
    pub roles: Vec<String>,
    /// Playouts played.
    pub playouts: usize,
    /// Playouts that reached a terminal state.
    pub terminal: usize,
    pub mean_steps: f64,
    /// Per role the mean goal value (the largest derivable, 0 if none) over
    /// the terminal states reached; null before any.
    pub mean_goals: Vec<Option<f64>>,
    /// The games themselves, with `record: true`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub games: Option<Vec<Played>>,
    #[serde(skip)]
    steps: usize,
    #[serde(skip)]
    goal_sums: Vec<f64>,
}

/// A run of `count` playouts from one state, played a few at a time (so a
/// worker can report progress and stop between two calls of [`Run::step`]).
#[derive(Clone, Debug)]
pub struct Run {
    pub count: usize,
    pub seed: u64,
    pub max_steps: usize,
    pub summary: Summary,
}

impl Run {
    pub fn new<M: StateMachine>(
        m: &M,
        count: usize,
        seed: u64,
        max_steps: usize,
        record: bool,
    ) -> Run {
        let roles: Vec<String> = m.roles().iter().map(|&r| m.terms().display(r)).collect();
        Run {
            count,
            seed,
            max_steps,
            summary: Summary {
                mean_goals: vec![None; roles.len()],
                goal_sums: vec![0.0; roles.len()],
                roles,
                playouts: 0,
                terminal: 0,
                mean_steps: 0.0,
                games: record.then(Vec::new),
                steps: 0,
            },
        }
    }

    pub fn done(&self) -> bool {
        self.summary.playouts >= self.count
    }

    /// Plays up to `n` more playouts from `from`; true when the run is done.
    pub fn step<M: StateMachine>(
        &mut self,
        m: &mut M,
        from: &M::State,
        n: usize,
    ) -> Result<bool, EvalError> {
        for _ in 0..n {
            if self.done() {
                break;
            }
            let seed = self.seed.wrapping_add(self.summary.playouts as u64);
            let game = play(m, from, seed, self.max_steps)?;
            self.add(game);
        }
        Ok(self.done())
    }

    fn add(&mut self, game: Played) {
        let s = &mut self.summary;
        s.playouts += 1;
        s.steps += game.joint_moves.len();
        s.mean_steps = s.steps as f64 / s.playouts as f64;
        if game.terminal {
            s.terminal += 1;
            for (r, g) in game.goals.iter().enumerate() {
                s.goal_sums[r] += g.iter().copied().max().unwrap_or(0) as f64;
            }
            let t = s.terminal as f64;
            s.mean_goals = s.goal_sums.iter().map(|&x| Some(x / t)).collect();
        }
        if let Some(games) = &mut s.games {
            games.push(game);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_is_its_games_played_one_seed_each() {
        let text = include_str!("../../../games/ticTacToe.kif");
        let mut m = crate::load_game(text).unwrap();
        let root = m.initial_state().unwrap();
        let mut run = Run::new(&m, 5, 7, DEFAULT_MAX_STEPS, true);
        assert!(!run.step(&mut m, &root, 2).unwrap());
        assert!(run.step(&mut m, &root, 10).unwrap());
        let games = run.summary.games.clone().unwrap();
        assert_eq!(games.len(), 5);
        for (i, g) in games.iter().enumerate() {
            assert_eq!(
                *g,
                play(&mut m, &root, 7 + i as u64, DEFAULT_MAX_STEPS).unwrap()
            );
            assert!(g.terminal && !g.stuck && (5..=9).contains(&g.joint_moves.len()));
        }
        assert_eq!(run.summary.terminal, 5);
        let x: f64 = games.iter().map(|g| g.goals[0][0] as f64).sum::<f64>() / 5.0;
        assert_eq!(run.summary.mean_goals[0], Some(x));
    }
}
