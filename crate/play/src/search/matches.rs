//! Matches: N games between players, roles rotated, with per-player
//! statistics (mean goal with a 95% interval, wins, draws, losses) and
//! search counters (nodes and playouts per second).
//!
//! Rotation: in game `g` (from 0), player `i` plays role `(i + g) mod n`, so
//! with two roles each player has each side in half of the games. Outcome
//! of a game for a player: a *win* if its goal value is strictly higher than
//! every other role's, a *draw* if it ties for the highest, a *loss*
//! otherwise; in one-player games a win is a goal of 100, anything else a
//! loss. The 95% interval of the mean goal is the normal approximation
//! `mean ± 1.96·s/√n`, clipped to the goal range 0..100.
//!
//! GDL-II: no player sits at the `random` role. Its moves are drawn
//! uniformly from its legal moves by a generator seeded from the match seed
//! and the game number (the same draws on every engine), and the rotation,
//! wins and draws are over the other roles. Games with `sees` record each
//! role's percepts per step.

use super::{build_player, Player, PlayerSpec, Stats};
use crate::error::MatchError;
use crate::program::Program;
use crate::reasoner::StateMachine;
use crate::terms::TermId;
use serde::Serialize;

#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub games: usize,
    pub seed: u64,
    /// Joint moves before a game is stopped (goals are then read as they are).
    pub max_steps: usize,
}

/// Most games one match plays (`gdlkit match --games`, `runMatch`).
pub const MAX_GAMES: usize = 100_000;

impl MatchConfig {
    /// The one check of a match's numbers (the CLI prefixes `--`).
    pub fn check(&self) -> Result<(), MatchError> {
        if self.games == 0 || self.games > MAX_GAMES {
            return Err(MatchError::Games {
                games: self.games,
                max: MAX_GAMES,
            });
        }
        Ok(())
    }
}

impl Default for MatchConfig {
    fn default() -> MatchConfig {
        MatchConfig {
            games: 10,
            seed: 1,
            max_steps: 1000,
        }
    }
}

/// One finished game.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "MatchGameRecord")
)]
pub struct GameRecord {
    pub game: usize,
    /// Player index for each role (GDL-II's `random` role: the number of
    /// players, as no player sits there).
    pub seats: Vec<usize>,
    /// Goal value of each role (0 when none is derivable).
    pub goals: Vec<i64>,
    pub steps: usize,
    pub terminal: bool,
    /// GDL-II games only: per joint move, what each role perceived
    /// (`sees`, role order, sorted).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "typescript", ts(optional))]
    pub percepts: Option<Vec<Vec<Vec<String>>>>,
    /// The final state's fluents (for `match --verbose` boards).
    #[serde(skip)]
    pub final_fluents: Vec<String>,
}

/// Per-player results, in the order the players were given.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerSummary {
    pub name: String,
    pub spec: String,
    pub games: usize,
    pub mean_goal: f64,
    pub ci95: [f64; 2],
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    /// Moves chosen and search counters summed over them.
    pub moves: u64,
    pub nodes: u64,
    pub playouts: u64,
    pub search_ms: f64,
    /// The mean over its moves of the deepest completed iteration
    /// (alpha-beta; MCTS: tree depth).
    pub mean_depth: f64,
}

impl PlayerSummary {
    pub fn nodes_per_second(&self) -> f64 {
        if self.search_ms > 0.0 {
            self.nodes as f64 * 1000.0 / self.search_ms
        } else {
            0.0
        }
    }
    pub fn playouts_per_second(&self) -> f64 {
        if self.search_ms > 0.0 {
            self.playouts as f64 * 1000.0 / self.search_ms
        } else {
            0.0
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct MatchResult {
    pub roles: Vec<String>,
    pub players: Vec<PlayerSummary>,
    pub games: Vec<GameRecord>,
}

/// Mean and 95% interval (normal approximation, clipped to 0..100).
pub fn mean_ci(xs: &[f64]) -> (f64, [f64; 2]) {
    let n = xs.len();
    if n == 0 {
        return (0.0, [0.0, 0.0]);
    }
    let mean = xs.iter().sum::<f64>() / n as f64;
    if n < 2 {
        return (mean, [mean, mean]);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let half = 1.96 * (var / n as f64).sqrt();
    // Goal values lie in 0..100: the interval is clipped to that range.
    (mean, [(mean - half).max(0.0), (mean + half).min(100.0)])
}

/// How one role did in a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub enum RoleResult {
    Win,
    Draw,
    Loss,
}

/// A role's result from the goal values of every role: a win if its value
/// is strictly higher than every other role's, a draw if it ties for the
/// highest, a loss otherwise; alone, a win is a goal of 100.
pub fn role_result(goals: &[i64], role: usize) -> RoleResult {
    let mine = goals[role];
    if goals.len() == 1 {
        return if mine >= 100 {
            RoleResult::Win
        } else {
            RoleResult::Loss
        };
    }
    let best_other = goals
        .iter()
        .enumerate()
        .filter(|(r, _)| *r != role)
        .map(|(_, &v)| v)
        .max()
        .unwrap_or(i64::MIN);
    match mine.cmp(&best_other) {
        std::cmp::Ordering::Greater => RoleResult::Win,
        std::cmp::Ordering::Equal => RoleResult::Draw,
        std::cmp::Ordering::Less => RoleResult::Loss,
    }
}

/// The outcome of a terminal state (JS: `describe(state).outcome`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase")
)]
pub struct Outcome {
    /// The highest goal value (each role's largest derivable; a role
    /// without one counts 0).
    pub score: i64,
    /// The roles (indices) with the highest value.
    pub winners: Vec<usize>,
    /// More than one role and all of them tie.
    pub draw: bool,
    /// Per role: a win (strictly above every other role; alone: 100), a
    /// draw (tied for the top) or a loss ([`role_result`]).
    pub results: Vec<RoleResult>,
}

/// The outcome from every derivable goal value per role; `None` when no
/// role has a goal value.
pub fn outcome(goal_values: &[Vec<i64>]) -> Option<Outcome> {
    if goal_values.iter().all(Vec::is_empty) {
        return None;
    }
    let goals: Vec<i64> = goal_values
        .iter()
        .map(|g| g.iter().copied().max().unwrap_or(0))
        .collect();
    let score = goals.iter().copied().max()?;
    let winners: Vec<usize> = (0..goals.len()).filter(|&r| goals[r] == score).collect();
    Some(Outcome {
        score,
        draw: goals.len() > 1 && winners.len() == goals.len(),
        winners,
        results: (0..goals.len()).map(|r| role_result(&goals, r)).collect(),
    })
}

/// The seed of game `g`'s chance moves (GDL-II's `random` role): apart from
/// the players' seeds, so adding a player's search changes no draw.
fn chance_seed(seed: u64, g: usize) -> u64 {
    (seed ^ 0xC4A2_CE5E_ED00_0000).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ g as u64
}

/// The players of a match and their running totals.
struct Table<M: StateMachine> {
    players: Vec<Box<dyn Player<M>>>,
    names: Vec<String>,
    /// The roles players sit at (all but GDL-II's `random`).
    seated: Vec<usize>,
    chance: Option<usize>,
    totals: Vec<Stats>,
    moves: Vec<u64>,
    depths: Vec<u64>,
}

impl<M: StateMachine + Clone + Send + 'static> Table<M>
where
    M::State: Send + Sync,
{
    fn new(
        program: &Program,
        m: &mut M,
        specs: &[PlayerSpec],
        seed: u64,
    ) -> Result<Self, MatchError> {
        let n = m.roles().len();
        let chance = crate::reasoner::chance_role(m);
        let seated: Vec<usize> = (0..n).filter(|&r| Some(r) != chance).collect();
        if specs.len() != seated.len() {
            return Err(MatchError::Players {
                roles: seated.len(),
                given: specs.len(),
                chance: chance.is_some(),
            });
        }
        let mut players: Vec<Box<dyn Player<M>>> = Vec::new();
        for (i, s) in specs.iter().enumerate() {
            let seed = seed
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .wrapping_add(i as u64 + 1);
            players.push(build_player(s, program, m, seed)?);
        }
        Ok(Table {
            names: players.iter().map(|p| p.name()).collect(),
            players,
            seated,
            chance,
            totals: vec![Stats::default(); n],
            moves: vec![0; n],
            depths: vec![0; n],
        })
    }

    /// Game `g`'s seats: the player index at each role (the players rotate
    /// one role per game; `random`'s seat is the player count).
    fn seats(&self, n: usize, g: usize) -> Vec<usize> {
        let np = self.seated.len();
        let mut seats = vec![np; n];
        for (k, &r) in self.seated.iter().enumerate() {
            seats[r] = (k + np - g % np) % np;
        }
        seats
    }

    /// Plays game `g` from `init`.
    fn play_game(
        &mut self,
        m: &mut M,
        init: &M::State,
        cfg: &MatchConfig,
        g: usize,
    ) -> Result<GameRecord, MatchError> {
        let seats = self.seats(m.roles().len(), g);
        for p in self.players.iter_mut() {
            p.new_game();
        }
        let mut chance_rng = fastrand::Rng::with_seed(chance_seed(cfg.seed, g));
        let mut percepts = m.has_percepts().then(Vec::new);
        let mut s = init.clone();
        let mut steps = 0;
        let mut terminal = m.is_terminal(&s)?;
        while !terminal && steps < cfg.max_steps {
            let legal = m.all_legal_moves(&s)?;
            if legal.iter().any(Vec::is_empty) {
                break;
            }
            let joint = self.joint_move(m, &s, &legal, &seats, &mut chance_rng)?;
            if let Some(ps) = &mut percepts {
                ps.push(crate::playouts::percept_texts(m, &s, &joint)?);
                self.tell_percepts(m, &s, &joint, &seats)?;
            }
            s = m.next_state(&s, &joint)?;
            steps += 1;
            terminal = m.is_terminal(&s)?;
        }
        let goals: Vec<i64> = m.goals(&s)?.iter().map(|g| g.unwrap_or(0)).collect();
        Ok(GameRecord {
            game: g,
            seats,
            goals,
            steps,
            terminal,
            percepts,
            final_fluents: m
                .fluents(&s)
                .iter()
                .map(|&f| m.terms().display(f))
                .collect(),
        })
    }

    /// Every role's move in `s`: chance draws for `random`, the seated
    /// players' searches (a role with one legal move needs none).
    fn joint_move(
        &mut self,
        m: &mut M,
        s: &M::State,
        legal: &[Vec<TermId>],
        seats: &[usize],
        chance_rng: &mut fastrand::Rng,
    ) -> Result<Vec<TermId>, MatchError> {
        let mut joint: Vec<TermId> = Vec::with_capacity(legal.len());
        for (r, moves_r) in legal.iter().enumerate() {
            if Some(r) == self.chance {
                let mv = crate::reasoner::draw_chance_move(m, moves_r, chance_rng);
                joint.push(mv.expect("legal moves checked non-empty"));
                continue;
            }
            let p = seats[r];
            let mv = if moves_r.len() == 1 {
                moves_r[0]
            } else {
                let mv = self.players[p].select_move(m, s, r)?;
                let last = self.players[p].last_stats();
                self.totals[p].add(&last);
                self.depths[p] += last.depth as u64;
                self.moves[p] += 1;
                mv
            };
            if !moves_r.contains(&mv) {
                return Err(MatchError::IllegalMove {
                    player: self.names[p].clone(),
                    mv: m.terms().display(mv),
                });
            }
            joint.push(mv);
        }
        Ok(joint)
    }

    /// Each player is told its own move and percepts (players for hidden
    /// information track their belief with them).
    fn tell_percepts(
        &mut self,
        m: &mut M,
        s: &M::State,
        joint: &[TermId],
        seats: &[usize],
    ) -> Result<(), MatchError> {
        let seen = m.percepts(s, joint)?;
        for (r, p) in seats.iter().enumerate() {
            if Some(r) != self.chance {
                self.players[*p].observe(m, r, joint[r], &seen[r])?;
            }
        }
        Ok(())
    }

    /// Player `i`'s summary over the games played.
    fn summary(&self, i: usize, spec: &PlayerSpec, records: &[GameRecord]) -> PlayerSummary {
        let mut xs = Vec::new();
        let (mut wins, mut draws, mut losses) = (0, 0, 0);
        for rec in records {
            let Some(role) = rec.seats.iter().position(|&p| p == i) else {
                continue;
            };
            xs.push(rec.goals[role] as f64);
            // Outcomes are among the players: `random` neither wins nor loses.
            let goals: Vec<i64> = self.seated.iter().map(|&r| rec.goals[r]).collect();
            let at = self.seated.iter().position(|&r| r == role).unwrap_or(role);
            match role_result(&goals, at) {
                RoleResult::Win => wins += 1,
                RoleResult::Draw => draws += 1,
                RoleResult::Loss => losses += 1,
            }
        }
        let (mean, ci) = mean_ci(&xs);
        PlayerSummary {
            name: self.names[i].clone(),
            spec: spec.to_string(),
            games: xs.len(),
            mean_goal: mean,
            ci95: ci,
            wins,
            draws,
            losses,
            moves: self.moves[i],
            nodes: self.totals[i].nodes,
            playouts: self.totals[i].playouts,
            search_ms: self.totals[i].elapsed_ms,
            mean_depth: self.depths[i] as f64 / self.moves[i].max(1) as f64,
        }
    }
}

/// Plays `cfg.games` games between the players (one per role, in role
/// order for the first game). `progress` sees each finished game.
pub fn run_match<M: StateMachine + Clone + Send + 'static>(
    program: &Program,
    m: &mut M,
    specs: &[PlayerSpec],
    cfg: &MatchConfig,
    progress: &mut dyn FnMut(&GameRecord),
) -> Result<MatchResult, MatchError>
where
    M::State: Send + Sync,
{
    let mut table = Table::new(program, m, specs, cfg.seed)?;
    let mut records = Vec::new();
    let init = m.initial_state()?;
    for g in 0..cfg.games {
        // Out of time or Ctrl-C: the games played so far are the result.
        if g > 0 && crate::job::soft_passed() {
            break;
        }
        crate::job::progress("match: games", || format!("{g} of {} games", cfg.games));
        let rec = table.play_game(m, &init, cfg, g)?;
        progress(&rec);
        records.push(rec);
    }
    let summaries = specs
        .iter()
        .enumerate()
        .map(|(i, spec)| table.summary(i, spec, &records))
        .collect();
    let roles = m.roles().iter().map(|&r| m.terms().display(r)).collect();
    Ok(MatchResult {
        roles,
        players: summaries,
        games: records,
    })
}
