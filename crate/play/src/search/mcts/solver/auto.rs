//! What the player settles from the game before its first move, from
//! playouts of the initial state: the exploration constant (`c=auto`),
//! whether its playouts are greedy (`greedy=auto`) and whether the game
//! ends at a set length (then neither greedy playouts nor the tactical
//! check are used). They count playouts rather than time them below a
//! time cap, so a seed gives one answer on every machine and under any
//! load.

use crate::clock::now_ms;
use crate::reasoner::greedy::Enders;
use crate::reasoner::{EvalError, StateMachine};

/// The lengths of random playouts from the initial state, in joint moves.
#[derive(Clone, Copy, Debug)]
pub struct Lengths {
    pub mean: f64,
    pub sd: f64,
    pub shortest: f64,
    pub longest: f64,
}

/// The standard deviation of playout lengths, as a share of their mean,
/// within which a game ends at a set length ([`Lengths::fixed`]): reversi
/// 0.01–0.02, chinese checkers for three 0.1, breakthrough 0.25.
const FIXED_SPREAD: f64 = 0.05;

impl Lengths {
    /// At most `playouts` random playouts from the initial state and
    /// `max_ms`: counted, not timed, below that, so a seed gives one
    /// answer everywhere.
    pub fn measure<M: StateMachine>(
        m: &mut M,
        seed: u64,
        playouts: usize,
        max_ms: f64,
    ) -> Result<Lengths, EvalError> {
        let t0 = now_ms();
        let s0 = m.initial_state()?;
        let mut rng = fastrand::Rng::with_seed(seed ^ 0xc0a5);
        let mut lengths = Vec::with_capacity(playouts);
        while lengths.len() < playouts && (lengths.is_empty() || now_ms() - t0 < max_ms) {
            lengths.push(m.random_playout(&s0, &mut rng, 1000)?.steps as f64);
        }
        let n = lengths.len() as f64;
        let mean = lengths.iter().sum::<f64>() / n;
        let sd = (lengths.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / n).sqrt();
        let (shortest, longest) = lengths
            .iter()
            .fold((f64::MAX, f64::MIN), |(a, b), &l| (a.min(l), b.max(l)));
        Ok(Lengths {
            mean,
            sd,
            shortest,
            longest,
        })
    }

    /// Whether the playouts end at about one length (8×8 reversi: 60 to
    /// 63 joint moves, when the board is full). There, nothing ends
    /// before the last plies: a greedy step finds no win to take, and the
    /// tactical check no forced win, until then.
    pub fn fixed(&self) -> bool {
        self.sd <= FIXED_SPREAD * self.mean
    }
}

/// The exploration constant `c=auto` (the default) picks from the game's
/// length, after Sancho's rule: a game whose random playouts from the
/// initial state last `L` joint moves gets `15 / L + 0.4` in [0.5, 1.2],
/// times 0.7 with material (Sancho found piece games like less
/// exploration), over √2 for this UCB1's form. `L` is the mean length
/// moved towards the middle of the shortest and longest by the spread
/// (Sancho's correction for skewed lengths). Breakthrough gets about 0.3,
/// connect four about 0.7; in self-play 0.4 beat 0.7 in breakthrough, and
/// 0.7 beat 0.3 in connect four.
pub fn auto_exploration(lengths: &Lengths, material: bool) -> f64 {
    let Lengths {
        mean,
        sd,
        shortest,
        longest,
    } = *lengths;
    let length = (mean + ((shortest + longest) / 2.0 - mean) * sd / mean.max(1.0)).max(1.0);
    let bias = (15.0 / length + 0.4).clamp(0.5, 1.2);
    let bias = if material { 0.7 * bias } else { bias };
    bias / std::f64::consts::SQRT_2
}

/// The most successor states a greedy playout may compute per step besides
/// its own move (the winning moves tried, the moves taken back) for
/// `greedy=auto` to keep it.
pub const GREEDY_MAX_TRIES: f64 = 20.0;

/// `greedy=auto` (the default player's): greedy playouts unless they are
/// dear. A greedy step tries each legal move that won an earlier
/// playout, so where most moves can win the game (tic-tac-toe on a 4×4×4
/// cube: every cell) a step costs a successor state per legal move, and
/// the tree sees a few playouts where it could have seen many. The first
/// half of at most `playouts` greedy playouts from the initial state learn
/// the moves that win games; the second half counts the extra successor
/// states per step, which must stay within `GREEDY_MAX_TRIES` (20). At most
/// `max_ms` (the first playout always runs).
pub fn auto_greedy<M: StateMachine>(
    m: &mut M,
    seed: u64,
    playouts: usize,
    max_ms: f64,
) -> Result<bool, EvalError> {
    let t0 = now_ms();
    let s0 = m.initial_state()?;
    let mut rng = fastrand::Rng::with_seed(seed ^ 0x9eed);
    let mut enders = Enders::default();
    // (steps, tries) over all playouts, and over the second half.
    let (mut all, mut late) = ((0, 0), (0, 0));
    for n in 0..playouts {
        if n > 0 && now_ms() - t0 >= max_ms {
            break;
        }
        let before = enders.tries;
        let steps = m.greedy_playout(&s0, &mut rng, 1000, &mut enders)?.steps;
        let count = (steps, enders.tries - before);
        all = (all.0 + count.0, all.1 + count.1);
        if n >= playouts / 2 {
            late = (late.0 + count.0, late.1 + count.1);
        }
    }
    let (steps, tries) = if late.0 > 0 { late } else { all };
    let per_step = tries as f64 / steps.max(1) as f64;
    Ok(per_step <= GREEDY_MAX_TRIES)
}
