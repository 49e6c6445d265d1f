//! The lecture trace: what a minimax or alpha-beta search did, step by step.
//!
//! A [`Trace`] is a list of [`Event`]s (enter a node, leaf value, bound
//! update, cut-off, return, best move) plus a table of the states seen (each
//! a sorted list of canonical fluent strings, so a page can draw the board at
//! any node). It is deterministic (same game, same options, same events),
//! bounded (after `node_cap` nodes nothing more is recorded and a
//! [`Event::Truncated`] marker is appended; the search itself goes on), and
//! serialises to JSON with serde. [`replay`] recomputes the root value from
//! the events alone, so a page can step forward and back without searching.
//!
//! Besides GDL games, searches run on abstract trees written as nested lists
//! of leaf values, `((3 12 8) (2 4 6) (14 5 2))`, with MAX at the root:
//! [`TreeGame`] turns such a tree into a two-role [`StateMachine`] (roles
//! `max` and `min`, moves `1`, `2`, ... numbering the children, states named
//! by their path `(node 2 1)`), so the same search code runs on both.
//!
//! JSON numbers: values are plain numbers (integers print without `.0`);
//! an unbounded alpha or beta is the string `"-inf"` or `"inf"`.

use crate::error::TraceError;
use crate::reasoner::StateMachine;
use crate::terms::TermId;
use rustc_hash::FxHashMap;
use serde::{Serialize, Serializer};

/// Who chooses at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "TraceNodeKind")
)]
pub enum NodeKind {
    /// The searching role chooses (maximises).
    Max,
    /// The other roles choose (minimise the searching role's value).
    Min,
    /// GDL-II's `random` chooses, uniformly: the value is the mean of the
    /// children's (expectimax).
    Chance,
    /// Nobody has a choice: one child.
    Forced,
    /// A leaf: terminal, at the depth limit, or answered by the table.
    Leaf,
}

/// A pruned child of a cut-off.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "PrunedMove"))]
pub struct Pruned {
    #[serde(rename = "move")]
    pub mv: String,
}

/// One step of a search.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "TraceEvent"))]
pub enum Event {
    /// Iterative deepening starts an iteration with this depth limit.
    Iteration { depth: u32 },
    /// A node is entered. `move` is the move leading to it from `parent`
    /// (our move for a reply node, the joint move otherwise); `state`
    /// indexes [`Trace::states`] (a reply node has its parent's state);
    /// `reply` marks the inner node of a simultaneous move (our move is
    /// fixed, the others reply).
    Enter {
        node: u32,
        parent: Option<u32>,
        ply: u32,
        kind: NodeKind,
        #[serde(rename = "move")]
        mv: Option<String>,
        state: usize,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        #[cfg_attr(feature = "typescript", ts(type = "true", optional))]
        reply: bool,
        #[serde(serialize_with = "ser_opt_value")]
        #[cfg_attr(feature = "typescript", ts(type = "SearchValue | null"))]
        alpha: Option<f64>,
        #[serde(serialize_with = "ser_opt_value")]
        #[cfg_attr(feature = "typescript", ts(type = "SearchValue | null"))]
        beta: Option<f64>,
    },
    /// A leaf's value: `terminal` (real goal value) or a heuristic estimate
    /// at the depth limit.
    Leaf {
        node: u32,
        #[serde(serialize_with = "ser_value")]
        #[cfg_attr(feature = "typescript", ts(type = "SearchValue"))]
        value: f64,
        terminal: bool,
    },
    /// A node's alpha (at MAX) or beta (at MIN) improved.
    Bound {
        node: u32,
        bound: BoundKind,
        #[serde(serialize_with = "ser_value")]
        #[cfg_attr(feature = "typescript", ts(type = "SearchValue"))]
        value: f64,
    },
    /// The window closed at `node` (`value` ≥ beta at MAX, ≤ alpha at MIN):
    /// the remaining children are not searched.
    Cutoff {
        node: u32,
        #[serde(serialize_with = "ser_value")]
        #[cfg_attr(feature = "typescript", ts(type = "SearchValue"))]
        alpha: f64,
        #[serde(serialize_with = "ser_value")]
        #[cfg_attr(feature = "typescript", ts(type = "SearchValue"))]
        beta: f64,
        #[serde(serialize_with = "ser_value")]
        #[cfg_attr(feature = "typescript", ts(type = "SearchValue"))]
        value: f64,
        pruned: Vec<Pruned>,
    },
    /// The transposition table answered for this node.
    TtHit {
        node: u32,
        #[serde(serialize_with = "ser_value")]
        #[cfg_attr(feature = "typescript", ts(type = "SearchValue"))]
        value: f64,
    },
    /// A node's value is final.
    Return {
        node: u32,
        #[serde(serialize_with = "ser_value")]
        #[cfg_attr(feature = "typescript", ts(type = "SearchValue"))]
        value: f64,
    },
    /// The chosen move at the root.
    BestMove {
        node: u32,
        #[serde(rename = "move")]
        mv: String,
        #[serde(serialize_with = "ser_value")]
        #[cfg_attr(feature = "typescript", ts(type = "SearchValue"))]
        value: f64,
    },
    /// The node cap was reached: later nodes are not recorded.
    Truncated { nodes: u32 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "TraceBound"))]
pub enum BoundKind {
    Alpha,
    Beta,
}

/// A value as JSON: integral values without a fraction, infinities as
/// strings.
pub fn value_json(v: f64) -> serde_json::Value {
    if v.is_infinite() {
        serde_json::Value::String(if v > 0.0 { "inf" } else { "-inf" }.into())
    } else if v.fract() == 0.0 && v.abs() < 9.0e15 {
        serde_json::Value::from(v as i64)
    } else {
        serde_json::Value::from((v * 1000.0).round() / 1000.0)
    }
}

pub(crate) fn ser_value<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    value_json(*v).serialize(s)
}

fn ser_opt_value<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(v) => value_json(*v).serialize(s),
        None => s.serialize_none(),
    }
}

/// Default node cap of a trace.
pub const DEFAULT_NODE_CAP: u32 = 5000;

/// A recorded search.
#[derive(Clone, Debug, Serialize)]
pub struct Trace {
    pub events: Vec<Event>,
    /// States by index; each is the sorted canonical fluents.
    pub states: Vec<Vec<String>>,
    pub truncated: bool,
    pub node_cap: u32,
    #[serde(skip)]
    nodes: u32,
    #[serde(skip)]
    state_index: FxHashMap<Vec<TermId>, usize>,
}

impl Trace {
    pub fn new(node_cap: u32) -> Trace {
        Trace {
            events: Vec::new(),
            states: Vec::new(),
            truncated: false,
            node_cap,
            nodes: 0,
            state_index: FxHashMap::default(),
        }
    }

    /// Nodes recorded so far.
    pub fn nodes(&self) -> u32 {
        self.nodes
    }

    /// Interns a state's fluents (sorted by their printed form).
    pub fn state<M: StateMachine>(&mut self, m: &M, s: &M::State) -> usize {
        let mut fl = m.fluents(s);
        fl.sort_unstable();
        if let Some(&i) = self.state_index.get(&fl) {
            return i;
        }
        let mut text: Vec<String> = fl.iter().map(|&f| m.terms().display(f)).collect();
        text.sort();
        self.states.push(text);
        self.state_index.insert(fl, self.states.len() - 1);
        self.states.len() - 1
    }

    /// Records entering a node; `None` once the cap is reached (then the
    /// caller records nothing for this node and its subtree).
    #[allow(clippy::too_many_arguments)]
    pub fn enter(
        &mut self,
        parent: Option<u32>,
        ply: u32,
        kind: NodeKind,
        mv: Option<String>,
        state: usize,
        reply: bool,
        alpha: Option<f64>,
        beta: Option<f64>,
    ) -> Option<u32> {
        if self.truncated {
            return None;
        }
        if self.nodes >= self.node_cap {
            self.truncated = true;
            self.events.push(Event::Truncated { nodes: self.nodes });
            return None;
        }
        let node = self.nodes;
        self.nodes += 1;
        self.events.push(Event::Enter {
            node,
            parent,
            ply,
            kind,
            mv,
            state,
            reply,
            alpha,
            beta,
        });
        Some(node)
    }

    pub fn push(&mut self, e: Event) {
        self.events.push(e);
    }
}

/// Display text of a joint move: the moves of the roles that had a choice
/// (all of them if nobody had), space-separated.
pub fn joint_label<M: StateMachine>(m: &M, legal: &[Vec<TermId>], joint: &[TermId]) -> String {
    let choosing: Vec<usize> = (0..joint.len())
        .filter(|&r| legal.get(r).is_some_and(|l| l.len() > 1))
        .collect();
    let shown: Vec<usize> = if choosing.is_empty() {
        (0..joint.len()).collect()
    } else {
        choosing
    };
    shown
        .iter()
        .map(|&r| m.terms().display(joint[r]))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The principal variation of the first search in a trace, as node ids
/// from its root: each node's first returned child (in search order) whose
/// value is the node's own, else its best returned child for the node's
/// kind. What the lecture tree highlights.
pub fn principal_variation(events: &[Event]) -> Vec<u32> {
    let mut children: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
    let mut kinds: FxHashMap<u32, NodeKind> = FxHashMap::default();
    let mut values: FxHashMap<u32, f64> = FxHashMap::default();
    let mut root = None;
    for e in events {
        match e {
            Event::Enter {
                node, parent, kind, ..
            } => {
                root.get_or_insert(*node);
                if let Some(p) = parent {
                    children.entry(*p).or_default().push(*node);
                }
                kinds.insert(*node, *kind);
            }
            Event::Return { node, value } => {
                values.insert(*node, *value);
                if root == Some(*node) {
                    break;
                }
            }
            _ => {}
        }
    }
    let mut pv = Vec::new();
    let mut at = root;
    while let Some(n) = at {
        pv.push(n);
        // Nobody chooses at chance: the variation ends there.
        if kinds.get(&n) == Some(&NodeKind::Chance) {
            break;
        }
        let returned: Vec<(u32, f64)> = children
            .get(&n)
            .into_iter()
            .flatten()
            .filter_map(|c| values.get(c).map(|&v| (*c, v)))
            .collect();
        let target = values.get(&n).copied();
        let min = kinds.get(&n) == Some(&NodeKind::Min);
        at = returned
            .iter()
            .find(|(_, v)| Some(*v) == target)
            .or_else(|| {
                returned.iter().reduce(|a, b| {
                    let better = if min { b.1 < a.1 } else { b.1 > a.1 };
                    if better {
                        b
                    } else {
                        a
                    }
                })
            })
            .map(|(c, _)| *c);
    }
    pv
}

/// Recomputes the value of the last complete search in a trace from its
/// events: leaves and table hits give values, each node is the max (MAX) or
/// min (MIN, forced: the only child) of the children it returned from, and
/// every `return` must agree. Returns the root's value.
pub fn replay(events: &[Event]) -> Result<f64, TraceError> {
    struct N {
        kind: NodeKind,
        children: Vec<f64>,
        fixed: Option<f64>,
    }
    let mut stack: Vec<(u32, N)> = Vec::new();
    let mut root_value = None;
    for e in events {
        match e {
            Event::Truncated { .. } => return Err(TraceError::Truncated),
            Event::Iteration { .. } => {
                stack.clear();
                root_value = None;
            }
            Event::Enter { node, kind, .. } => stack.push((
                *node,
                N {
                    kind: *kind,
                    children: Vec::new(),
                    fixed: None,
                },
            )),
            Event::Leaf { node, value, .. } | Event::TtHit { node, value } => {
                match stack.last_mut() {
                    Some((n, rec)) if n == node => rec.fixed = Some(*value),
                    _ => return Err(TraceError::ValueOutside(*node)),
                }
            }
            Event::Return { node, value } => {
                let Some((n, rec)) = stack.pop() else {
                    return Err(TraceError::ReturnUnopened(*node));
                };
                if n != *node {
                    return Err(TraceError::ReturnMismatch {
                        node: *node,
                        open: n,
                    });
                }
                let computed = match rec.fixed {
                    Some(v) => v,
                    None => {
                        let it = rec.children.iter().copied();
                        match rec.kind {
                            NodeKind::Max => it.fold(f64::NEG_INFINITY, f64::max),
                            NodeKind::Min => it.fold(f64::INFINITY, f64::min),
                            NodeKind::Chance => {
                                let n = rec.children.len().max(1) as f64;
                                it.sum::<f64>() / n
                            }
                            NodeKind::Forced | NodeKind::Leaf => {
                                it.fold(f64::NEG_INFINITY, f64::max)
                            }
                        }
                    }
                };
                if (computed - value).abs() > 1e-9 {
                    return Err(TraceError::WrongValue {
                        node: *node,
                        value: *value,
                        computed,
                    });
                }
                match stack.last_mut() {
                    Some((_, parent)) => parent.children.push(*value),
                    None => root_value = Some(*value),
                }
            }
            Event::Bound { .. } | Event::Cutoff { .. } | Event::BestMove { .. } => {}
        }
    }
    if !stack.is_empty() {
        return Err(TraceError::Unfinished);
    }
    root_value.ok_or(TraceError::NoSearch)
}

mod tree;
pub use tree::{Label, ShapeNode, Tree, TreeGame, MAX_TREE_NODES};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_print_as_integers_or_infinities() {
        assert_eq!(value_json(3.0).to_string(), "3");
        assert_eq!(value_json(f64::NEG_INFINITY).to_string(), "\"-inf\"");
        assert_eq!(value_json(2.5).to_string(), "2.5");
    }
}
