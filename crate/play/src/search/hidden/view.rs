//! What one role knows of the state: the fluents that hold in every state
//! consistent with its moves and percepts, and those that hold in some,
//! each with its chance. The page draws a seat's board from it (the known
//! fluents, the uncertain ones marked), npm's `Game.belief` returns it.

use super::Belief;
use crate::program::parse_ground_term;
use crate::reasoner::{sort_by_text, StateMachine};
use crate::terms::TermId;
use crate::EvalError;
use rustc_hash::FxHashMap;
use serde::Serialize;

/// One role's view of the state (JS: `game.belief(role, steps)`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase")
)]
pub struct BeliefView {
    /// Consistent states held (all of them when `exact`).
    pub states: usize,
    /// Every consistent state is held; else a sample of them.
    pub exact: bool,
    /// Fluents true in every state held, sorted.
    pub known: Vec<String>,
    /// Fluents true in some states held but not all, sorted, each with
    /// the chance that it holds (the states' weights: the other roles
    /// and `random` picking uniformly).
    pub uncertain: Vec<Uncertain>,
}

/// A fluent that may hold, with its chance (0 to 1).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS))]
pub struct Uncertain {
    pub fluent: String,
    pub chance: f64,
}

/// A role's belief after steps given as text (its move and its percepts
/// per step, as the page and npm hold them), kept so that a longer history
/// with the same beginning only observes the new steps.
pub struct BeliefTracker<S> {
    role: usize,
    steps: Vec<(String, Vec<String>)>,
    belief: Belief<S>,
}

impl<S: Clone + Eq + std::hash::Hash> BeliefTracker<S> {
    /// The view of `role` after `steps`, reusing `cache` when it is the
    /// same role's belief over a prefix of `steps` (else it starts again).
    /// A move or percept that is no term is a [`EvalError::BadMove`]; so is
    /// a history no state is consistent with.
    pub fn view<M: StateMachine<State = S>>(
        cache: &mut Option<BeliefTracker<S>>,
        m: &mut M,
        role: usize,
        steps: &[(String, Vec<String>)],
    ) -> Result<BeliefView, EvalError> {
        let reusable = cache.as_ref().is_some_and(|t| {
            t.role == role && t.steps.len() <= steps.len() && t.steps[..] == steps[..t.steps.len()]
        });
        if !reusable {
            *cache = None;
            // Seeded by the role: the same history gives the same sample.
            let belief = Belief::new(m, role, role as u64)?;
            *cache = Some(BeliefTracker {
                role,
                steps: Vec::new(),
                belief,
            });
        }
        let t = cache.as_mut().expect("set above");
        for (i, (own, seen)) in steps.iter().enumerate().skip(t.steps.len()) {
            let parse = |m: &mut M, what: &str, text: &str| {
                parse_ground_term(m.terms_mut(), text).map_err(|e| {
                    EvalError::BadMove(format!("step {}: {what} `{text}`: {e}", i + 1))
                })
            };
            let own_id = parse(m, "move", own)?;
            let seen_ids = seen
                .iter()
                .map(|p| parse(m, "percept", p))
                .collect::<Result<Vec<_>, _>>()?;
            if let Err(e) = t.belief.observe(m, own_id, &seen_ids) {
                // The belief is spent: the next call starts again.
                *cache = None;
                return Err(e);
            }
            t.steps.push((own.clone(), seen.clone()));
        }
        Ok(summarize(m, &t.belief))
    }
}

/// The known and uncertain fluents of a belief's states.
fn summarize<M: StateMachine>(m: &M, b: &Belief<M::State>) -> BeliefView {
    let total: f64 = b.weights().iter().sum();
    let mut weight: FxHashMap<TermId, (usize, f64)> = FxHashMap::default();
    for (s, &w) in b.states().iter().zip(b.weights()) {
        for f in m.fluents(s) {
            let e = weight.entry(f).or_default();
            e.0 += 1;
            e.1 += w;
        }
    }
    let n = b.states().len();
    let mut known: Vec<TermId> = weight
        .iter()
        .filter(|(_, &(k, _))| k == n)
        .map(|(&f, _)| f)
        .collect();
    let mut uncertain: Vec<TermId> = weight
        .iter()
        .filter(|(_, &(k, _))| k < n)
        .map(|(&f, _)| f)
        .collect();
    sort_by_text(m.terms(), &mut known);
    sort_by_text(m.terms(), &mut uncertain);
    BeliefView {
        states: n,
        exact: b.is_exact(),
        known: known.iter().map(|&f| m.terms().display(f)).collect(),
        uncertain: uncertain
            .iter()
            .map(|&f| Uncertain {
                fluent: m.terms().display(f),
                chance: if total > 0.0 {
                    weight[&f].1 / total
                } else {
                    0.0
                },
            })
            .collect(),
    }
}
