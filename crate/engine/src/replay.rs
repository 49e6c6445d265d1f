//! Replays a sequence of joint moves and reports every step in the
//! conformance format (`shared/conformance/README.md`): canonical lowercase
//! terms, every list sorted by code point.

pub use crate::error::{MovesError, ReplayError};
use crate::program::parse_ground_term;
use crate::reasoner::{EvalError, StateMachine};
use serde::Serialize;
use serde_json::Value;

/// One step of a replay, in canonical text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub state: Vec<String>,
    pub terminal: bool,
    /// Per role (role order): legal moves, sorted.
    pub legal: Vec<Vec<String>>,
    /// Per role: goal values, sorted numerically.
    pub goals: Vec<Vec<i64>>,
    /// GDL-II games, every step after the first: per role, what it
    /// perceived (`sees`) on the joint move that led here, sorted.
    pub percepts: Option<Vec<Vec<String>>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    pub roles: Vec<String>,
    pub steps: Vec<Step>,
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort_unstable();
    v
}

/// Describes one state canonically.
pub fn describe<M: StateMachine>(m: &mut M, state: &M::State) -> Result<Step, EvalError> {
    let terms = m.fluents(state);
    let state_text = sorted(terms.iter().map(|&t| m.terms().display(t)).collect());
    let terminal = m.is_terminal(state)?;
    let legal = m
        .all_legal_moves(state)?
        .into_iter()
        .map(|ms| sorted(ms.into_iter().map(|t| m.terms().display(t)).collect()))
        .collect();
    let goals = m.goal_values(state)?;
    Ok(Step {
        state: state_text,
        terminal,
        legal,
        goals,
        percepts: None,
    })
}

/// Replays joint moves (given as term text) from the initial state.
pub fn replay<M: StateMachine>(
    m: &mut M,
    joint_moves: &[Vec<String>],
) -> Result<Replay, ReplayError> {
    let roles: Vec<String> = m.roles().iter().map(|&r| m.terms().display(r)).collect();
    let mut state = m.initial_state()?;
    let mut steps = vec![describe(m, &state)?];
    for (i, joint) in joint_moves.iter().enumerate() {
        let here = steps.last().expect("initial step");
        if here.terminal {
            return Err(ReplayError::Illegal {
                index: i,
                message: format!("step {}: the state is terminal, no move can be made", i + 1),
            });
        }
        if joint.len() != roles.len() {
            return Err(ReplayError::Illegal {
                index: i,
                message: format!(
                    "step {}: {} moves given for {} roles",
                    i + 1,
                    joint.len(),
                    roles.len()
                ),
            });
        }
        let mut ids = Vec::with_capacity(joint.len());
        for (r, text) in joint.iter().enumerate() {
            let id = parse_ground_term(m.terms_mut(), text).map_err(|e| ReplayError::Illegal {
                index: i,
                message: format!("step {}: {e}", i + 1),
            })?;
            let canonical = m.terms().display(id);
            if here.legal[r].binary_search(&canonical).is_err() {
                return Err(ReplayError::Illegal {
                    index: i,
                    message: format!(
                        "step {}: move {canonical} of role {} is not legal",
                        i + 1,
                        roles[r]
                    ),
                });
            }
            ids.push(id);
        }
        let percepts = if m.has_percepts() {
            let mut ps = crate::playouts::percept_texts(m, &state, &ids)?;
            ps.iter_mut().for_each(|p| p.sort_unstable());
            Some(ps)
        } else {
            None
        };
        state = m.next_state(&state, &ids)?;
        let mut step = describe(m, &state)?;
        step.percepts = percepts;
        steps.push(step);
    }
    Ok(Replay { roles, steps })
}

impl Replay {
    /// The replay in the conformance format (`ReplayResult` in JS).
    pub fn conformance(&self) -> Conformance<'_> {
        Conformance {
            roles: &self.roles,
            steps: self
                .steps
                .iter()
                .map(|s| ConformanceStep {
                    state: &s.state,
                    terminal: s.terminal,
                    legal: ByRole(&self.roles, &s.legal),
                    goals: ByRole(&self.roles, &s.goals),
                    percepts: s.percepts.as_ref().map(|p| ByRole(&self.roles, p)),
                })
                .collect(),
        }
    }

    /// The conformance JSON object `{"roles": [...], "steps": [...]}`.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self.conformance()).expect("plain data")
    }
}

/// A replay in the conformance format.
#[derive(Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "ReplayResult", rename_all = "camelCase")
)]
pub struct Conformance<'a> {
    pub roles: &'a [String],
    pub steps: Vec<ConformanceStep<'a>>,
}

/// One step of a replay: `legal` and `goals` keyed by role name.
#[derive(Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "ReplayStep", rename_all = "camelCase")
)]
pub struct ConformanceStep<'a> {
    /// The state's fluents, sorted.
    pub state: &'a [String],
    pub terminal: bool,
    #[cfg_attr(
        feature = "typescript",
        ts(as = "std::collections::BTreeMap<String, Vec<String>>")
    )]
    pub legal: ByRole<'a, Vec<String>>,
    #[cfg_attr(
        feature = "typescript",
        ts(as = "std::collections::BTreeMap<String, Vec<i64>>")
    )]
    pub goals: ByRole<'a, Vec<i64>>,
    /// GDL-II games only: per role, what it perceived on the joint move
    /// that led to this step (absent at the initial step).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "typescript",
        ts(
            as = "Option<std::collections::BTreeMap<String, Vec<String>>>",
            optional
        )
    )]
    pub percepts: Option<ByRole<'a, Vec<String>>>,
}

/// Per-role values as an object keyed by role name, in role order.
pub struct ByRole<'a, T>(&'a [String], &'a [T]);

impl<T: Serialize> Serialize for ByRole<'_, T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().zip(self.1))
    }
}

/// Reads `MOVES.json`: a playout object with `joint_moves`, or a bare list.
pub fn parse_moves_json(text: &str) -> Result<Vec<Vec<String>>, MovesError> {
    let v: Value = serde_json::from_str(text)?;
    parse_moves(&v)
}

/// Joint moves from a list of them or an object with `joint_moves` (the
/// conformance files' spelling) or `jointMoves` (JavaScript's).
pub fn parse_moves(v: &Value) -> Result<Vec<Vec<String>>, MovesError> {
    let list = match v {
        Value::Array(_) => v,
        Value::Object(o) => o
            .get("joint_moves")
            .or_else(|| o.get("jointMoves"))
            .ok_or(MovesError::NotMoves)?,
        _ => return Err(MovesError::NotMoves),
    };
    let Value::Array(items) = list else {
        return Err(MovesError::NotAList);
    };
    items
        .iter()
        .enumerate()
        .map(|(i, jm)| match jm {
            Value::Array(ms) => ms
                .iter()
                .map(|m| {
                    m.as_str()
                        .map(str::to_string)
                        .ok_or(MovesError::NotStrings(i + 1))
                })
                .collect(),
            _ => Err(MovesError::NotAJointMove(i + 1)),
        })
        .collect()
}
