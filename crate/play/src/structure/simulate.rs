//! Dynamic structures found by simulation (lecture 004, "Strukturen finden
//! durch Simulation", "Weitere Eigenschaften durch Simulationen"): random
//! playouts from the initial state give a sample of states; hypotheses
//! about fluents (which arguments are input parameters) and roles
//! (turn-taking, teams) are kept only while no sampled state refutes them.

use crate::clock::Deadline;
use crate::reasoner::{random_index, EvalError, StateMachine};
use crate::terms::copy_term;
use crate::terms::{Sym, TermId, TermStore};
use rustc_hash::{FxHashMap, FxHashSet};

/// Most argument positions whose input subsets are tried (2^n hypotheses).
const MAX_HYPOTHESIS_ARITY: usize = 6;

/// Sampled states, fluents interned into the structure's store.
pub struct Sample {
    pub states: Vec<Vec<TermId>>,
    /// The state that followed each state in its playout.
    pub next: Vec<Option<usize>>,
    pub terminal: Vec<bool>,
    /// Goal value per role of each terminal state.
    pub goals: Vec<Vec<i64>>,
    /// No sampled state had two roles with more than one legal move.
    pub turn_taking: bool,
    /// The only legal move of a role while another role chose (turn-taking).
    pub noops: Vec<TermId>,
}

/// Plays random playouts from the initial state until `max_states` states
/// are sampled or the deadline passes.
pub fn sample<M: StateMachine>(
    m: &mut M,
    store: &mut TermStore,
    seed: u64,
    max_states: usize,
    deadline: &Deadline,
) -> Result<Sample, EvalError> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut out = Sample {
        states: Vec::new(),
        next: Vec::new(),
        terminal: Vec::new(),
        goals: Vec::new(),
        turn_taking: true,
        noops: Vec::new(),
    };
    let mut cache: FxHashMap<TermId, TermId> = FxHashMap::default();
    let init = m.initial_state()?;
    // Its own walk, not `reasoner::random_walk`: it stops at the sample's
    // limit before drawing the next moves, and the generator goes on into
    // `more_terminals`, so the samples (and the structures found) stay
    // those of earlier versions.
    while out.states.len() < max_states && !deadline.passed() {
        let mut s = init.clone();
        let mut prev: Option<usize> = None;
        loop {
            let idx = out.states.len();
            let mut fl: Vec<TermId> = m
                .fluents(&s)
                .into_iter()
                .map(|f| {
                    *cache
                        .entry(f)
                        .or_insert_with(|| copy_term(m.terms(), f, store))
                })
                .collect();
            fl.sort_unstable();
            out.states.push(fl);
            out.next.push(None);
            if let Some(p) = prev {
                out.next[p] = Some(idx);
            }
            prev = Some(idx);
            let terminal = m.is_terminal(&s)?;
            out.terminal.push(terminal);
            if terminal {
                let g = m.goals(&s)?;
                out.goals.push(g.iter().map(|v| v.unwrap_or(0)).collect());
                break;
            }
            if out.states.len() >= max_states || deadline.passed() {
                break;
            }
            let legal = m.all_legal_moves(&s)?;
            if legal.iter().any(Vec::is_empty) {
                break;
            }
            note_roles(&mut out, m, store, &legal);
            let joint: Vec<TermId> = legal
                .iter()
                .map(|ms| ms[random_index(&mut rng, ms.len())])
                .collect();
            s = m.next_state(&s, &joint)?;
        }
    }
    out.noops.sort_unstable();
    out.noops.dedup();
    more_terminals(m, &init, &mut rng, &mut out, deadline)?;
    Ok(out)
}

/// Terminal states refute team hypotheses; long games (chess ends after
/// 200 moves) give few in the sample, so play on (up to
/// [`MIN_TERMINALS`] of them, within the deadline) for their goals only.
fn more_terminals<M: StateMachine>(
    m: &mut M,
    init: &M::State,
    rng: &mut fastrand::Rng,
    out: &mut Sample,
    deadline: &Deadline,
) -> Result<(), EvalError> {
    let mut tries = 0;
    while out.goals.len() < MIN_TERMINALS && tries < 2 * MIN_TERMINALS && !deadline.passed() {
        tries += 1;
        let p = m.random_playout(init, rng, 100_000)?;
        if p.terminal {
            let g = m.goals(&p.state)?;
            out.goals.push(g.iter().map(|v| v.unwrap_or(0)).collect());
        }
    }
    Ok(())
}

/// Terminal states wanted for the role properties (teams, constant sum).
pub const MIN_TERMINALS: usize = 30;

/// Turn-taking: at most one role with more than one legal move; the others'
/// single moves are the no-op moves.
fn note_roles<M: StateMachine>(
    out: &mut Sample,
    m: &M,
    store: &mut TermStore,
    legal: &[Vec<TermId>],
) {
    let choosers = legal.iter().filter(|l| l.len() > 1).count();
    if choosers > 1 {
        out.turn_taking = false;
    }
    if choosers == 1 && legal.len() > 1 {
        for l in legal.iter().filter(|l| l.len() == 1) {
            let t = copy_term(m.terms(), l[0], store);
            if !out.noops.contains(&t) {
                out.noops.push(t);
            }
        }
    }
}

/// A kind of fluent: functor and arity.
pub type Kind = (Sym, usize);

/// The fluents of each kind in a state, as argument lists.
pub fn by_kind(store: &TermStore, state: &[TermId]) -> FxHashMap<Kind, Vec<Vec<TermId>>> {
    let mut out: FxHashMap<Kind, Vec<Vec<TermId>>> = FxHashMap::default();
    for &f in state {
        let args = store.args_of(f);
        out.entry((store.functor(f), args.len()))
            .or_default()
            .push(args.to_vec());
    }
    out
}

/// Per fluent kind, the input-parameter hypotheses (bit masks over the
/// arguments) that no sampled state refutes: the inputs determine the
/// outputs (no two fluents agree on the inputs and differ elsewhere). The
/// empty mask survives when the fluent is single-valued (a singleton).
pub fn input_hypotheses(store: &TermStore, sample: &Sample) -> FxHashMap<Kind, Vec<u32>> {
    let mut alive: FxHashMap<Kind, Vec<u32>> = FxHashMap::default();
    for state in &sample.states {
        for (kind, rows) in by_kind(store, state) {
            let n = kind.1;
            if n == 0 || n > MAX_HYPOTHESIS_ARITY {
                continue;
            }
            let masks = alive
                .entry(kind)
                .or_insert_with(|| (0..(1u32 << n) - 1).collect());
            if rows.len() < 2 {
                continue;
            }
            masks.retain(|&mask| determines(&rows, mask));
        }
    }
    alive
}

/// Whether the arguments in `mask` determine the others among `rows`.
fn determines(rows: &[Vec<TermId>], mask: u32) -> bool {
    let mut seen: FxHashSet<Vec<TermId>> = FxHashSet::default();
    rows.iter().all(|r| {
        let key: Vec<TermId> = r
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, &a)| a)
            .collect();
        // Distinct fluents (the state is a set), so a repeated input
        // projection means two different outputs.
        seen.insert(key)
    })
}

/// The largest number of cells any content occupies in one sampled state,
/// for a board kind with the given coordinate mask.
pub fn most_cells(
    store: &TermStore,
    sample: &Sample,
    kind: Kind,
    coords: u32,
) -> FxHashMap<Vec<TermId>, usize> {
    let mut most: FxHashMap<Vec<TermId>, usize> = FxHashMap::default();
    for state in &sample.states {
        let mut here: FxHashMap<Vec<TermId>, usize> = FxHashMap::default();
        for &f in state {
            if store.functor(f) != kind.0 || store.arity(f) != kind.1 {
                continue;
            }
            let content: Vec<TermId> = store
                .args_of(f)
                .iter()
                .enumerate()
                .filter(|(i, _)| coords & (1 << i) == 0)
                .map(|(_, &a)| a)
                .collect();
            *here.entry(content).or_default() += 1;
        }
        for (c, n) in here {
            let e = most.entry(c).or_default();
            *e = (*e).max(n);
        }
    }
    most
}
