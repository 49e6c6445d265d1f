//! A state evaluation learnt from playouts before the first move: the
//! pieces MCTS-Solver counts (`eval=material`) and alpha-beta's
//! `heuristic=learned`.
//!
//! Playouts from the initial state (random ones, or greedy ones for a
//! player whose own playouts are greedy) are sampled at a few points on
//! their way; each sample is the state's fluents, labelled with every
//! role's reward at the playout's end. A fluent's weight for a role is how
//! far that role's mean reward lies from the overall mean in the samples
//! where the fluent holds (shrunk towards zero when it was seen rarely), so
//! the weights form a piece-square table where the game has a board. A
//! state's raw score is the sum of its fluents' weights; one least-squares
//! line per role maps it to a reward in [0, 1].
//!
//! A material evaluation (`eval=material`, after Sancho's piece heuristic)
//! ties the weights of the fluents of a board's cells by their content:
//! every piece of a kind counts the same wherever it stands, and a kind's
//! weight for a role is the slope of that role's reward on the number of
//! such pieces. Fewer weights, learnt from the same samples, so less noise
//! where the squares matter little against the count.
//!
//! The weights are learnt on three quarters of the playouts; the line is
//! fitted, and the fit measured (R², the share of the reward's variance the
//! evaluation explains), on the other quarter. `auto` uses the evaluation
//! only where that fit shows it predicts something.

use super::latches::{Latches, Seen};
use crate::clock::now_ms;
use crate::evaluation::Heuristic;
use crate::reasoner::greedy::Enders;
use crate::reasoner::{rewards, EvalError, Playout, StateMachine};
use crate::structure::Board;
use crate::terms::{TermId, TermStore};
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// Time for learning before the first move.
pub const LEARN_MS: f64 = 500.0;
/// Playouts learnt from at least, if they fit in four times the time: on a
/// loaded machine the time alone leaves too few samples to judge a fit.
pub const MIN_PLAYOUTS: usize = 400;
/// Samples taken per playout (at evenly spread depths).
const PER_PLAYOUT: usize = 4;
/// Pseudo-samples at the mean reward added to every fluent's statistics.
const SHRINK: f64 = 20.0;
/// The R² below which `eval=auto` does not use the evaluation.
pub const MIN_FIT: f64 = 0.05;

/// The R² below which the solver leaves a material count out, as Sancho
/// drops a piece set too little correlated with the outcome: breakthrough,
/// reversi and checkers learn 0.015–0.045, knightThrough 0.004. (Where
/// every move adds a piece, connect four or tic-tac-toe, no material is
/// counted at all: the numbers follow the ply.)
pub const MATERIAL_MIN_FIT: f64 = 0.002;

/// The share of the strongest kind's correlation with the reward a kind of
/// piece needs to be counted for a side ([`material_sides`]).
const SIDE_SHARE: f64 = 0.3;

/// The learnt evaluation.
#[derive(Debug)]
pub struct LearnedEval {
    /// Per role: each fluent's weight.
    weights: Vec<FxHashMap<TermId, f64>>,
    /// Per role: the line from raw score to reward, `(mean reward, slope,
    /// mean raw score)`.
    line: Vec<(f64, f64, f64)>,
    /// The smallest R² of the roles on the held-out playouts.
    pub fit: f64,
    /// Playouts learnt from.
    pub playouts: usize,
    /// A material evaluation's pieces: none where their numbers follow
    /// the ply.
    pub material: Option<Material>,
    /// The latched pieces seen in the playouts, if any favour a role.
    pub latches: Option<Latches>,
}

/// The pieces of a material evaluation: each piece fluent's kind, and per
/// role which kinds are its own (their number raises its reward: +1) and
/// which its opponents' (−1).
#[derive(Debug)]
pub struct Material {
    kinds: FxHashMap<TermId, usize>,
    sides: Vec<Vec<f64>>,
}

impl Material {
    /// Role `r`'s material balance in a state with these fluents:
    /// `(own − theirs) / (own + theirs)`, and `own + theirs`.
    pub fn balance(&self, fluents: &[TermId], r: usize) -> (f64, f64) {
        let (mut own, mut theirs) = (0.0, 0.0);
        for f in fluents {
            if let Some(&k) = self.kinds.get(f) {
                match self.sides[r][k] {
                    s if s > 0.0 => own += 1.0,
                    s if s < 0.0 => theirs += 1.0,
                    _ => {}
                }
            }
        }
        let total = own + theirs;
        let share = if total > 0.0 {
            (own - theirs) / total
        } else {
            0.0
        };
        (share, total)
    }
}

/// Sancho's piece heuristic: a change of a balance, with `total` pieces
/// on the board, as a value in (0, 1) (0.5 for none): a sigmoid, steeper
/// with more pieces.
pub fn piece_value(change: f64, total: f64) -> f64 {
    1.0 / (1.0 + (-(total / 4.0) * change).exp())
}

/// `value` in [0, 1] displaced towards 1 when `h` is above 0.5, towards 0
/// when below, by `|2h − 1|` of the distance.
pub fn displace(value: f64, h: f64) -> f64 {
    if h > 0.5 {
        value + (1.0 - value) * (h - 0.5) * 2.0
    } else {
        value - value * (0.5 - h) * 2.0
    }
}

/// A sampled state and the rewards at its playout's end.
struct Sample {
    /// The playout it was taken in.
    playout: usize,
    /// Sorted.
    fluents: Vec<TermId>,
    rewards: Vec<f64>,
    /// Joint moves from the initial state.
    ply: usize,
}

impl LearnedEval {
    /// Learns from playouts from `m`'s initial state, for at most `max_ms`
    /// milliseconds (up to four times that for the first [`MIN_PLAYOUTS`])
    /// and `max_playouts` playouts. `None` when the game gives
    /// too little to learn from (no playout ended, or too few).
    pub fn learn<M: StateMachine>(
        m: &mut M,
        policy: &mut Policy,
        max_ms: f64,
        max_playouts: usize,
    ) -> Result<Option<LearnedEval>, EvalError> {
        LearnedEval::learn_with(m, policy, max_ms, max_playouts, None)
    }

    /// [`LearnedEval::learn`], with the weights tied by the content of
    /// these boards' cells when `material` is given (fluents off the boards
    /// then weigh nothing).
    pub fn learn_with<M: StateMachine>(
        m: &mut M,
        policy: &mut Policy,
        max_ms: f64,
        max_playouts: usize,
        material: Option<&[Board]>,
    ) -> Result<Option<LearnedEval>, EvalError> {
        let t0 = now_ms();
        let root = m.initial_state()?;
        // Half the time at most for the length: on a slow game (chess on
        // the interpreter, a second a playout) twenty playouts would hold
        // up START far past its clock.
        let length = mean_length(m, &root, policy, t0 + max_ms / 2.0)?;
        let Some(length) = length.filter(|&l| l >= 2.0) else {
            return Ok(None);
        };
        let chunk = ((length / (PER_PLAYOUT + 1) as f64).ceil() as usize).max(1);
        let (mut train, mut test) = (Vec::new(), Vec::new());
        let mut playouts = 0;
        let more = |playouts: usize, spent: f64| {
            spent < max_ms || (playouts < MIN_PLAYOUTS && spent < 4.0 * max_ms)
        };
        while playouts < max_playouts && more(playouts, now_ms() - t0) {
            let samples = sampled_playout(m, &root, policy, chunk, playouts)?;
            if playouts % 4 == 3 {
                test.extend(samples);
            } else {
                train.extend(samples);
            }
            playouts += 1;
        }
        if train.len() < 50 || test.len() < 20 {
            return Ok(None);
        }
        let roles = m.roles().len();
        let groups = material.map(|boards| piece_kinds(m.terms(), boards, &train, &test));
        let counts = groups.as_ref().map(|kinds| piece_counts(&train, kinds));
        let mut latches = find_latches(&train, &test, roles);
        if let Some(l) = &mut latches {
            // Half the learning's time again at most: every move of every
            // step is tried.
            let steps = (4.0 * length).ceil() as usize;
            l.find_moves(m, &root, &mut policy.rng, steps, now_ms() + max_ms / 2.0)?;
        }
        // Latches count only where some move is seen to gain one: a piece
        // that merely never moved in the playouts (breakthrough's back
        // row) is not one.
        let latches = latches.filter(|l| !l.moves.is_empty());
        let mut eval = LearnedEval {
            weights: Vec::new(),
            line: Vec::new(),
            fit: f64::INFINITY,
            playouts,
            material: None,
            latches,
        };
        let mut sides = Vec::new();
        for r in 0..roles {
            let weights = match (&groups, &counts) {
                (Some(groups), Some(counts)) => {
                    let per_kind = kind_moments(counts, &train, r);
                    let slopes: Vec<f64> = per_kind.iter().map(Moments::slope).collect();
                    let correlations: Vec<f64> =
                        per_kind.iter().map(Moments::correlation).collect();
                    sides.push(material_sides(&slopes, &correlations));
                    groups.iter().map(|(&f, &k)| (f, slopes[k])).collect()
                }
                _ => fluent_weights(&train, r),
            };
            let raw: Vec<f64> = test
                .iter()
                .map(|s| raw_score(&weights, &s.fluents))
                .collect();
            let ys: Vec<f64> = test.iter().map(|s| s.rewards[r]).collect();
            let (line, fit) = fit_line(&raw, &ys);
            eval.weights.push(weights);
            eval.line.push(line);
            eval.fit = eval.fit.min(fit);
        }
        let varies = counts.is_some_and(|c| counts_vary(&train, &c));
        eval.material = (groups.filter(|_| varies)).map(|kinds| Material { kinds, sides });
        Ok(Some(eval))
    }

    /// What players learn before their first move: [`LEARN_MS`] of
    /// playouts (20,000 at most; [`MIN_PLAYOUTS`] at least, within four
    /// times the time), random or greedy, from a generator seeded
    /// with `seed`.
    /// `material`: the boards whose pieces are counted (a material
    /// evaluation).
    pub fn before_first_move<M: StateMachine>(
        m: &mut M,
        seed: u64,
        greedy: bool,
        material: Option<&[Board]>,
    ) -> Result<Option<LearnedEval>, EvalError> {
        let mut policy = Policy::new(seed ^ 0x1ea2, greedy);
        LearnedEval::learn_with(m, &mut policy, LEARN_MS, 20_000, material)
    }

    /// The estimated reward in [0, 1] of every role in a state with these
    /// fluents.
    pub fn rewards(&self, fluents: &[TermId]) -> Vec<f64> {
        self.weights
            .iter()
            .zip(&self.line)
            .map(|(w, &(mean, slope, raw_mean))| {
                (mean + slope * (raw_score(w, fluents) - raw_mean)).clamp(0.0, 1.0)
            })
            .collect()
    }
}

/// The evaluation as a heuristic (`heuristic=learned`), shared by the
/// threads of a parallel search.
impl<M: StateMachine> Heuristic<M> for Arc<LearnedEval> {
    fn name(&self) -> String {
        "learned".into()
    }
    fn evaluate(&mut self, m: &mut M, s: &M::State, role: usize) -> Result<f64, EvalError> {
        let r = self.rewards(&m.fluents(s));
        Ok(crate::search::scale(r.get(role).copied().unwrap_or(0.5)))
    }
}

/// How the playouts learnt from choose their moves: at random, or greedy
/// (`reasoner/greedy.rs`: their endings then say more about who stood
/// better, as in the players' own greedy playouts).
pub struct Policy {
    pub rng: fastrand::Rng,
    /// The moves seen to end games, when greedy.
    enders: Option<Enders>,
    /// Playouts run so far (a sampled playout runs in pieces, one a
    /// sample).
    pub runs: u64,
}

impl Policy {
    pub fn new(seed: u64, greedy: bool) -> Policy {
        Policy {
            rng: fastrand::Rng::with_seed(seed),
            enders: greedy.then(Enders::default),
            runs: 0,
        }
    }

    fn play<M: StateMachine>(
        &mut self,
        m: &mut M,
        state: &M::State,
        steps: usize,
    ) -> Result<Playout<M::State>, EvalError> {
        self.runs += 1;
        match &mut self.enders {
            Some(enders) => m.greedy_playout(state, &mut self.rng, steps, enders),
            None => m.random_playout(state, &mut self.rng, steps),
        }
    }
}

/// The mean number of steps of the playouts that ended, of up to twenty
/// played, after the first only until `until_ms`.
fn mean_length<M: StateMachine>(
    m: &mut M,
    root: &M::State,
    policy: &mut Policy,
    until_ms: f64,
) -> Result<Option<f64>, EvalError> {
    let mut steps = Vec::new();
    for i in 0..20 {
        if i > 0 && now_ms() >= until_ms {
            break;
        }
        let p = policy.play(m, root, 1000)?;
        if p.terminal {
            steps.push(p.steps as f64);
        }
    }
    Ok((!steps.is_empty()).then(|| steps.iter().sum::<f64>() / steps.len() as f64))
}

/// One playout from `root`, sampled every `chunk` steps (the first sample
/// at a random depth up to `chunk`, so every depth is seen), the samples
/// labelled with the rewards at its end; none if it did not end.
fn sampled_playout<M: StateMachine>(
    m: &mut M,
    root: &M::State,
    policy: &mut Policy,
    chunk: usize,
    playout: usize,
) -> Result<Vec<Sample>, EvalError> {
    let mut seen = Vec::new();
    let mut state = root.clone();
    let mut step = 1 + policy.rng.usize(..chunk);
    let mut total = 0;
    loop {
        let p = policy.play(m, &state, step)?;
        total += p.steps;
        if p.terminal {
            let r = rewards(m, &p.state)?;
            return Ok(seen
                .into_iter()
                .map(|(ply, fluents)| Sample {
                    playout,
                    fluents,
                    rewards: r.clone(),
                    ply,
                })
                .collect());
        }
        if p.steps < step || total > 1000 {
            // Stuck (a role without moves) or endless: no label.
            return Ok(Vec::new());
        }
        let mut fluents = m.fluents(&p.state);
        fluents.sort_unstable();
        seen.push((total, fluents));
        state = p.state;
        step = chunk;
    }
}

/// The latches of the samples (each list in playout order).
fn find_latches(train: &[Sample], test: &[Sample], roles: usize) -> Option<Latches> {
    let seen: Vec<Seen> = (train.iter().chain(test))
        .map(|s| Seen {
            playout: s.playout,
            fluents: &s.fluents,
            rewards: &s.rewards,
        })
        .collect();
    Latches::find(&seen, roles)
}

/// Each fluent's weight for role `r`: its samples' mean reward less the
/// overall mean, shrunk by [`SHRINK`] pseudo-samples at the mean.
fn fluent_weights(samples: &[Sample], r: usize) -> FxHashMap<TermId, f64> {
    let mean = samples.iter().map(|s| s.rewards[r]).sum::<f64>() / samples.len() as f64;
    let mut sums: FxHashMap<TermId, (f64, f64)> = FxHashMap::default();
    for s in samples {
        for &f in &s.fluents {
            let e = sums.entry(f).or_default();
            e.0 += 1.0;
            e.1 += s.rewards[r] - mean;
        }
    }
    sums.into_iter()
        .map(|(f, (n, dev))| (f, dev / (n + SHRINK)))
        .collect()
}

/// The kind of piece of every fluent in the samples that is a cell of one
/// of `boards`: the board and the cell's content.
fn piece_kinds(
    store: &TermStore,
    boards: &[Board],
    train: &[Sample],
    test: &[Sample],
) -> FxHashMap<TermId, usize> {
    let mut kinds: Vec<(usize, Vec<String>)> = Vec::new();
    let mut out = FxHashMap::default();
    for s in train.iter().chain(test) {
        for &f in &s.fluents {
            if out.contains_key(&f) {
                continue;
            }
            let name = store.symbols.name(store.functor(f));
            let args = store.args_of(f);
            let Some(b) = boards
                .iter()
                .position(|b| b.fluent == name && b.arity == args.len())
            else {
                continue;
            };
            let content = boards[b]
                .contents
                .iter()
                .map(|&i| store.display(args[i]))
                .collect();
            let key = (b, content);
            let kind = kinds.iter().position(|k| *k == key).unwrap_or_else(|| {
                kinds.push(key);
                kinds.len() - 1
            });
            out.insert(f, kind);
        }
    }
    out
}

/// Per sample, the number of pieces of each kind.
fn piece_counts(samples: &[Sample], kinds: &FxHashMap<TermId, usize>) -> Vec<Vec<f64>> {
    let n_kinds = kinds.values().max().map_or(0, |&k| k + 1);
    samples
        .iter()
        .map(|s| {
            let mut c = vec![0.0; n_kinds];
            for f in &s.fluents {
                if let Some(&k) = kinds.get(f) {
                    c[k] += 1.0;
                }
            }
            c
        })
        .collect()
}

/// Whether the numbers of pieces differ between samples of the same ply
/// (`counts` from [`piece_counts`], in the order of `samples`). Where every
/// move adds one piece (connect four, tic-tac-toe, pentago) they
/// follow the ply, and a balance tells nothing the move number does not.
fn counts_vary(samples: &[Sample], counts: &[Vec<f64>]) -> bool {
    let mut at_ply: FxHashMap<usize, &Vec<f64>> = FxHashMap::default();
    (samples.iter().zip(counts)).any(|(s, c)| *at_ply.entry(s.ply).or_insert(c) != c)
}

/// For role `r`, per kind of piece: the moments of the number of pieces of
/// that kind against the reward, over the samples (`counts` from
/// [`piece_counts`], in the same order).
fn kind_moments(counts: &[Vec<f64>], samples: &[Sample], r: usize) -> Vec<Moments> {
    let n_kinds = counts.first().map_or(0, Vec::len);
    let ys: Vec<f64> = samples.iter().map(|s| s.rewards[r]).collect();
    (0..n_kinds)
        .map(|k| {
            let xs: Vec<f64> = counts.iter().map(|c| c[k]).collect();
            moments(&xs, &ys)
        })
        .collect()
}

/// Per kind: +1 where it is the role's own (its slope raises the reward),
/// −1 where its opponents', 0 where it counts for neither: a kind whose
/// correlation with the reward is under [`SIDE_SHARE`] of the strongest
/// kind's. Where a board writes its empty cells as a kind of their own
/// (`b` in checkers), their number follows the captures of both sides
/// and tells little of who wins; counted for the side of its noisy
/// slope, it would add a board's worth of pieces to one side's count.
fn material_sides(slopes: &[f64], correlations: &[f64]) -> Vec<f64> {
    let strongest = correlations.iter().fold(0.0_f64, |m, c| m.max(c.abs()));
    (slopes.iter().zip(correlations))
        .map(|(s, c)| {
            if c.abs() >= SIDE_SHARE * strongest && strongest > 0.0 {
                s.signum()
            } else {
                0.0
            }
        })
        .collect()
}

fn raw_score(weights: &FxHashMap<TermId, f64>, fluents: &[TermId]) -> f64 {
    fluents.iter().filter_map(|f| weights.get(f)).sum()
}

/// The means of two series and their sums of products of deviations.
struct Moments {
    xm: f64,
    ym: f64,
    sxy: f64,
    sxx: f64,
    syy: f64,
}

impl Moments {
    /// The least-squares slope of y on x (0 where x does not vary).
    fn slope(&self) -> f64 {
        if self.sxx > 0.0 {
            self.sxy / self.sxx
        } else {
            0.0
        }
    }

    /// The correlation of x and y (0 where either does not vary).
    fn correlation(&self) -> f64 {
        if self.sxx > 0.0 && self.syy > 0.0 {
            self.sxy / (self.sxx * self.syy).sqrt()
        } else {
            0.0
        }
    }
}

fn moments(xs: &[f64], ys: &[f64]) -> Moments {
    let n = xs.len() as f64;
    let (xm, ym) = (xs.iter().sum::<f64>() / n, ys.iter().sum::<f64>() / n);
    Moments {
        xm,
        ym,
        sxy: xs.iter().zip(ys).map(|(x, y)| (x - xm) * (y - ym)).sum(),
        sxx: xs.iter().map(|x| (x - xm).powi(2)).sum(),
        syy: ys.iter().map(|y| (y - ym).powi(2)).sum(),
    }
}

/// The least-squares line `y ≈ mean + slope·(x − x̄)` and its R² (0 when
/// the rewards do not vary).
fn fit_line(xs: &[f64], ys: &[f64]) -> ((f64, f64, f64), f64) {
    let m = moments(xs, ys);
    let (xm, ym, syy, slope) = (m.xm, m.ym, m.syy, m.slope());
    let sse: f64 = xs
        .iter()
        .zip(ys)
        .map(|(x, y)| (y - (ym + slope * (x - xm)).clamp(0.0, 1.0)).powi(2))
        .sum();
    let fit = if syy > 0.0 { 1.0 - sse / syy } else { 0.0 };
    ((ym, slope, xm), fit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{load_engine, EngineChoice};

    #[test]
    fn a_line_through_exact_points_explains_everything() {
        let xs = [0.0, 1.0, 2.0, 3.0];
        let ys = [0.1, 0.3, 0.5, 0.7];
        let ((mean, slope, xm), fit) = fit_line(&xs, &ys);
        assert!((mean - 0.4).abs() < 1e-12 && (slope - 0.2).abs() < 1e-12 && xm == 1.5);
        assert!((fit - 1.0).abs() < 1e-12);
        // Rewards that do not vary: nothing to explain.
        assert_eq!(fit_line(&xs, &[0.5; 4]).1, 0.0);
    }

    #[test]
    fn greedy_playouts_teach_breakthrough_better_than_random_ones() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games/breakthrough.kif");
        let text = std::fs::read_to_string(path).expect("the game file");
        let mut m = load_engine(&text, EngineChoice::Fast).expect("the game grounds");
        let mut fit = |greedy| {
            let mut policy = Policy::new(5, greedy);
            let eval = LearnedEval::learn(&mut m, &mut policy, 60_000.0, 2000)
                .unwrap()
                .expect("breakthrough's playouts end");
            assert_eq!(eval.playouts, 2000);
            eval.fit
        };
        let (random, greedy) = (fit(false), fit(true));
        // Random breakthrough is decided by whoever stumbles through
        // first; greedy endings follow who stood better.
        assert!(
            greedy > random && greedy > MIN_FIT,
            "R² greedy {greedy:.3}, random {random:.3}"
        );
    }

    #[test]
    fn the_length_is_measured_within_the_learning_time() {
        // With no time the length takes one playout and no sample is
        // drawn: a slow game's twenty playouts cannot hold up the start.
        let (mut m, _) = with_structure("breakthrough");
        let mut policy = Policy::new(5, true);
        let eval = LearnedEval::learn(&mut m, &mut policy, 0.0, 2000).unwrap();
        assert!(eval.is_none());
        assert_eq!(policy.runs, 1);
        // Given the time, twenty for the length, then the samples (each
        // run in pieces).
        let mut policy = Policy::new(5, true);
        let eval = LearnedEval::learn(&mut m, &mut policy, 60_000.0, 100).unwrap();
        assert_eq!(eval.expect("breakthrough's playouts end").playouts, 100);
        assert!(policy.runs >= 20 + 100, "{} runs", policy.runs);
    }

    /// The game `games/NAME.kif` on the fast engine, and its structure.
    fn with_structure(name: &str) -> (crate::engine::Engine, crate::structure::Structure) {
        let path = format!("{}/../../games/{name}.kif", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).expect("the game file");
        let crate::Game {
            program,
            mut engine,
        } = crate::Game::load(&text, EngineChoice::Fast).expect("the game grounds");
        let options = crate::structure::features::HEURISTIC_OPTIONS;
        let st = crate::structure::find(&program, &mut engine, options).unwrap();
        (engine, st)
    }

    #[test]
    fn no_material_where_the_counts_follow_the_ply() {
        // Connect four adds one piece a move: for every seed the counts
        // are those of the ply, so nothing is counted (the fit alone had
        // let some seeds count it).
        let (mut engine, st) = with_structure("connectFour");
        assert!(!st.boards.is_empty(), "connect four's board is found");
        for seed in 1..=4 {
            let mut policy = Policy::new(seed, true);
            let boards = Some(&st.boards[..]);
            let eval = LearnedEval::learn_with(&mut engine, &mut policy, 60_000.0, 500, boards)
                .unwrap()
                .expect("connect four's playouts end");
            assert_eq!(eval.playouts, 500);
            assert!(eval.material.is_none(), "seed {seed}");
        }
    }

    #[test]
    fn breakthrough_material_counts_each_side_for_its_role() {
        let (mut engine, st) = with_structure("breakthrough");
        let mut policy = Policy::new(5, true);
        let eval =
            LearnedEval::learn_with(&mut engine, &mut policy, 60_000.0, 2000, Some(&st.boards))
                .unwrap()
                .expect("breakthrough's playouts end");
        let material = eval.material.as_ref().expect("a material evaluation");
        let s0 = engine.initial_state().unwrap();
        let mut fluents = engine.fluents(&s0);
        // At the start: 10 pieces each, so an even balance for both roles.
        for r in 0..2 {
            assert_eq!(material.balance(&fluents, r), (0.0, 20.0), "role {r}");
        }
        // Without one white piece (white is the first role), white is
        // behind by exactly that piece and black ahead.
        let white = parse(&mut engine, "(cellholds 1 1 white)");
        fluents.retain(|&f| f != white);
        let (w, total) = material.balance(&fluents, 0);
        assert_eq!(total, 19.0);
        assert!((w + 1.0 / 19.0).abs() < 1e-12, "white's balance {w}");
        assert!((material.balance(&fluents, 1).0 - 1.0 / 19.0).abs() < 1e-12);
        // The tied weights rate the position as the balance does.
        let (fewer, full) = (eval.rewards(&fluents), eval.rewards(&engine.fluents(&s0)));
        assert!(
            fewer[0] < full[0] && fewer[1] > full[1],
            "{fewer:?} against {full:?}"
        );
    }

    /// The material learnt from `games/NAME.kif`'s greedy playouts.
    fn material_of(name: &str) -> (crate::engine::Engine, LearnedEval) {
        let (mut engine, st) = with_structure(name);
        let mut policy = Policy::new(5, true);
        let eval =
            LearnedEval::learn_with(&mut engine, &mut policy, 60_000.0, 2000, Some(&st.boards))
                .unwrap()
                .expect("the playouts end");
        assert!(eval.material.is_some(), "{name} counts material");
        (engine, eval)
    }

    #[test]
    fn empty_cells_count_for_neither_side() {
        // Both write empty cells as a kind of their own (`b`); counted for
        // a side, the start's total would be the whole board (36).
        for (name, pieces) in [("checkers", 12.0), ("reversi", 4.0)] {
            let (mut engine, eval) = material_of(name);
            let s0 = engine.initial_state().unwrap();
            let fluents = engine.fluents(&s0);
            let material = eval.material.as_ref().unwrap();
            for r in 0..2 {
                assert_eq!(
                    material.balance(&fluents, r),
                    (0.0, pieces),
                    "{name}, role {r}"
                );
            }
        }
    }

    fn parse<M: StateMachine>(m: &mut M, text: &str) -> TermId {
        crate::program::parse_ground_term(m.terms_mut(), text).unwrap()
    }

    #[test]
    fn tic_tac_toe_learns_that_the_centre_is_worth_having() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../games/ticTacToe.kif");
        let text = std::fs::read_to_string(path).expect("the game file");
        let mut m = load_engine(&text, EngineChoice::Interpreter).expect("the game loads");
        let mut policy = Policy::new(5, false);
        let eval = LearnedEval::learn(&mut m, &mut policy, 60_000.0, 3000)
            .unwrap()
            .expect("random tic-tac-toe gives enough to learn from");
        assert_eq!(eval.playouts, 3000);
        assert!(
            eval.fit > 0.0,
            "the evaluation explains something: {}",
            eval.fit
        );
        // After x's first move and o's answer: x in the centre against x in
        // a corner (o in the other's place).
        let mut state = |x: (u8, u8), o: (u8, u8)| -> Vec<TermId> {
            let mut fluents = Vec::new();
            for row in 1..=3 {
                for col in 1..=3 {
                    let mark = if (row, col) == x {
                        "x"
                    } else if (row, col) == o {
                        "o"
                    } else {
                        "blank"
                    };
                    fluents.push(format!("(cell {row} {col} {mark})"));
                }
            }
            fluents.push("(control x)".into());
            fluents
                .iter()
                .map(|f| crate::program::parse_ground_term(m.terms_mut(), f).unwrap())
                .collect()
        };
        let centre = eval.rewards(&state((2, 2), (1, 1)));
        let corner = eval.rewards(&state((1, 1), (2, 2)));
        assert!(
            centre[0] > corner[0],
            "x: centre {centre:?}, corner {corner:?}"
        );
        assert!(
            centre[1] < corner[1],
            "o: centre {centre:?}, corner {corner:?}"
        );
    }
}
