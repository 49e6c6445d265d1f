//! Evaluation functions built from the rules alone (lecture 004): mobility,
//! inverse mobility, novelty, and goal distance by fuzzy evaluation
//! ([`super::fuzzy`]). Every heuristic maps a non-terminal state to
//! `[1, 99]` for a role, so a real win (100) beats and a real loss (0) is
//! worse than any estimate (Kuhlmann et al.'s scaling); searches score
//! terminal states with their real goal values and never ask a heuristic.

use super::fuzzy::FuzzyHeuristic;
pub use super::scale;
use crate::error::HeuristicError;
pub use crate::evaluation::{BoxedHeuristic, Heuristic};
use crate::program::Program;
use crate::reasoner::{EvalError, StateMachine};
use crate::terms::TermId;
use rustc_hash::FxHashSet;
use serde::Serialize;

/// One evaluation function of the registry [`HEURISTICS`] (`heuristics()`
/// in JS: the tree view's leaf evaluations, the play view's Why? panel).
#[derive(Clone, Copy, Debug, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "HeuristicInfo", rename_all = "camelCase")
)]
pub struct HeuristicInfo {
    /// The name for `heuristic=` options (`feature:NAME:max|min` is a
    /// pattern).
    pub name: &'static str,
    /// The name for people.
    pub label: &'static str,
    pub description: &'static str,
    /// `explain` reports a distance for it (h_FF, h_add, h_max): lower is
    /// better.
    pub distance: bool,
    /// The Why? panel offers it: the planning heuristics and the two a
    /// beginner compares them with (not the constant, not a pattern).
    pub explain: bool,
}

const fn heuristic(
    name: &'static str,
    label: &'static str,
    (distance, explain): (bool, bool),
    description: &'static str,
) -> HeuristicInfo {
    HeuristicInfo {
        name,
        label,
        description,
        distance,
        explain,
    }
}

/// `(distance, explain)` of [`heuristic`].
const VALUE: (bool, bool) = (false, false);
const EXPLAINED: (bool, bool) = (false, true);
const DISTANCE: (bool, bool) = (true, true);

/// The heuristics for `heuristic=` options, the one list.
pub const HEURISTICS: &[HeuristicInfo] = &[
    heuristic(
        "fuzzy",
        "fuzzy goal distance",
        EXPLAINED,
        "goal distance: fuzzy evaluation of the goal and terminal formulas (Schiffel & Thielscher)",
    ),
    heuristic(
        "mobility",
        "mobility",
        EXPLAINED,
        "more legal moves than the other roles is better",
    ),
    heuristic(
        "inverse-mobility",
        "inverse mobility",
        VALUE,
        "fewer legal moves than the other roles is better",
    ),
    heuristic(
        "novelty",
        "novelty",
        VALUE,
        "states that differ more from the current one are better",
    ),
    heuristic(
        "learned",
        "learned from playouts",
        VALUE,
        "each fluent's weight learnt from random playouts before the first move (a piece-square table on boards)",
    ),
    heuristic(
        "none",
        "none (50)",
        VALUE,
        "every non-terminal state is worth 50",
    ),
    // Relaxed planning (thesis 3.3–3.5, `super::fjo`).
    heuristic(
        "fjo",
        "f_JO (thesis)",
        EXPLAINED,
        "the thesis's f_JO: goal values weighted by 1 / h_FF distance to each goal",
    ),
    heuristic(
        "hff",
        "h_FF distance",
        DISTANCE,
        "relaxed-plan length (h_FF) to the role's best goal",
    ),
    heuristic(
        "hadd",
        "h_add distance",
        DISTANCE,
        "additive relaxed distance (h_add) to the role's best goal",
    ),
    heuristic(
        "hmax",
        "h_max distance",
        DISTANCE,
        "relaxed plan depth (h_max) to the role's best goal",
    ),
    heuristic(
        "feature:NAME:max|min",
        "structure feature",
        VALUE,
        "maximise or minimise one feature of the game's structure (`gdlkit structure` lists them)",
    ),
];

/// Builds a heuristic by name.
pub fn build<M: StateMachine + 'static>(
    name: &str,
    program: &Program,
    m: &mut M,
) -> Result<Box<dyn Heuristic<M>>, HeuristicError> {
    match name {
        "fuzzy" | "goal" | "goal-distance" => Ok(Box::new(FuzzyHeuristic::build(program, m)?)),
        "mobility" => Ok(Box::new(Mobility { inverse: false })),
        "inverse-mobility" | "inverse_mobility" | "inversemobility" => {
            Ok(Box::new(Mobility { inverse: true }))
        }
        "novelty" => Ok(Box::new(Novelty::default())),
        "none" | "constant" => Ok(Box::new(Constant)),
        "learned" => {
            let eval = super::mcts::learned::LearnedEval::before_first_move(m, 0, false, None)
                .map_err(HeuristicError::Learned)?
                .ok_or(HeuristicError::NothingLearnt)?;
            Ok(Box::new(std::sync::Arc::new(eval)))
        }
        name if super::fjo::parse_spec(name).is_some() => {
            let (measure, costs) = super::fjo::parse_spec(name).expect("checked");
            Ok(Box::new(super::fjo::PlanHeuristic::build_with(
                program, measure, m, costs,
            )?))
        }
        // Features of the game's structure (lecture 004), e.g.
        // `feature:count.cell.red:max`.
        other if other.starts_with("feature:") => Ok(Box::new(
            crate::structure::features::FeatureHeuristic::build(&other[8..], program, m)?,
        )),
        other => {
            let names: Vec<&str> = HEURISTICS.iter().map(|h| h.name).collect();
            Err(HeuristicError::Unknown {
                name: other.into(),
                known: names.join(", "),
            })
        }
    }
}

/// The fuzzy goal distance ([`super::fuzzy`]) as a heuristic.
impl<M: StateMachine> Heuristic<M> for FuzzyHeuristic {
    fn name(&self) -> String {
        "fuzzy".into()
    }
    fn evaluate(&mut self, m: &mut M, s: &M::State, role: usize) -> Result<f64, EvalError> {
        let mut fl = m.fluents(s);
        fl.sort_unstable();
        Ok(self.value_for(m.terms(), fl, role))
    }
    fn forget_terms(&mut self) {
        FuzzyHeuristic::forget_terms(self);
    }
}

/// Every non-terminal state is worth 50.
pub struct Constant;

impl<M: StateMachine> Heuristic<M> for Constant {
    fn name(&self) -> String {
        "none".into()
    }
    fn evaluate(&mut self, _m: &mut M, _s: &M::State, _role: usize) -> Result<f64, EvalError> {
        Ok(50.0)
    }
}

/// Mobility: our legal moves against the most any other role has,
/// `ours / (ours + theirs)`; one-player games: `ours / (ours + 1)`.
/// Inverse mobility is `1 -` that.
pub struct Mobility {
    pub inverse: bool,
}

impl<M: StateMachine> Heuristic<M> for Mobility {
    fn name(&self) -> String {
        if self.inverse {
            "inverse-mobility"
        } else {
            "mobility"
        }
        .into()
    }
    fn evaluate(&mut self, m: &mut M, s: &M::State, role: usize) -> Result<f64, EvalError> {
        let legal = m.all_legal_moves(s)?;
        let ours = legal.get(role).map_or(0, Vec::len) as f64;
        let theirs = legal
            .iter()
            .enumerate()
            .filter(|(r, _)| *r != role)
            .map(|(_, l)| l.len())
            .max()
            .unwrap_or(1) as f64;
        let x = if ours + theirs == 0.0 {
            0.5
        } else {
            ours / (ours + theirs)
        };
        Ok(scale(if self.inverse { 1.0 - x } else { x }))
    }
}

/// Novelty: the share of fluents that changed since the search root
/// (symmetric difference over union).
#[derive(Default)]
pub struct Novelty {
    root: FxHashSet<TermId>,
}

impl<M: StateMachine> Heuristic<M> for Novelty {
    fn name(&self) -> String {
        "novelty".into()
    }
    fn set_root(&mut self, m: &mut M, root: &M::State) -> Result<(), EvalError> {
        self.root = m.fluents(root).into_iter().collect();
        Ok(())
    }
    fn evaluate(&mut self, m: &mut M, s: &M::State, _role: usize) -> Result<f64, EvalError> {
        let fl = m.fluents(s);
        let common = fl.iter().filter(|f| self.root.contains(f)).count();
        let union = fl.len() + self.root.len() - common;
        let changed = union - common;
        Ok(scale(if union == 0 {
            0.0
        } else {
            changed as f64 / union as f64
        }))
    }
    fn state_only(&self) -> bool {
        false
    }
}
