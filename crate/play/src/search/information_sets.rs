//! Information sets of a traced search in a GDL-II game: the nodes where
//! the searching role chooses that it cannot tell apart, because along the
//! way from the root it made the same moves and perceived the same
//! percepts (the lecture tree draws them joined by a dashed line).
//!
//! The trace records states and move labels, not joint moves: each edge's
//! joint move is found again among the parent's joint moves (the one with
//! the edge's label that leads to the child's state), and the role's
//! percepts computed for it.

use crate::reasoner::{joint_moves, state_of, EvalError, StateMachine};
use crate::trace::{joint_label, Event, NodeKind};
use rustc_hash::FxHashMap;

/// One entered node, as the events give it.
struct Entered<'e> {
    parent: Option<u32>,
    ply: u32,
    kind: NodeKind,
    label: Option<&'e str>,
    state: usize,
    reply: bool,
}

/// The information sets of `role` among the nodes of `events` (states as
/// in the trace's `states`): groups of at least two nodes where `role`
/// chooses, at one ply, after the same own moves and percepts. Each group
/// in the order the search entered its nodes; groups by their first node.
pub fn information_sets<M: StateMachine>(
    m: &mut M,
    role: usize,
    events: &[Event],
    states: &[Vec<String>],
) -> Result<Vec<Vec<u32>>, EvalError> {
    let mut nodes: FxHashMap<u32, Entered> = FxHashMap::default();
    let mut order = Vec::new();
    for e in events {
        if let Event::Enter {
            node,
            parent,
            ply,
            kind,
            mv,
            state,
            reply,
            ..
        } = e
        {
            nodes.insert(
                *node,
                Entered {
                    parent: *parent,
                    ply: *ply,
                    kind: *kind,
                    label: mv.as_deref(),
                    state: *state,
                    reply: *reply,
                },
            );
            order.push(*node);
        }
    }
    // What the role saw on the way to each node, in entering order (a
    // parent is entered before its children).
    let mut history: FxHashMap<u32, String> = FxHashMap::default();
    let mut groups: FxHashMap<(u32, String), Vec<u32>> = FxHashMap::default();
    for &id in &order {
        let n = &nodes[&id];
        let seen = match n.parent {
            None => String::new(),
            Some(p) => {
                let before = history.get(&p).cloned().unwrap_or_default();
                if n.reply {
                    // Our move alone: its replies' joint moves repeat it.
                    before
                } else {
                    let step = observed(m, role, states, nodes[&p].state, n)?;
                    format!("{before}|{step}")
                }
            }
        };
        if n.kind == NodeKind::Max && !n.reply {
            groups.entry((n.ply, seen.clone())).or_default().push(id);
        }
        history.insert(id, seen);
    }
    let mut sets: Vec<Vec<u32>> = groups.into_values().filter(|g| g.len() > 1).collect();
    sets.sort_by_key(|g| g[0]);
    Ok(sets)
}

/// The role's own move and percepts on the edge into `n` from the state
/// `from` (an index into `states`).
fn observed<M: StateMachine>(
    m: &mut M,
    role: usize,
    states: &[Vec<String>],
    from: usize,
    n: &Entered,
) -> Result<String, EvalError> {
    let bad = |what: &str| EvalError::BadMove(format!("information sets: {what}"));
    let parent = state_of(m, &states[from]).map_err(|b| bad(&b.error.to_string()))?;
    let legal = m.all_legal_moves(&parent)?;
    for joint in joint_moves(&legal)? {
        if n.label
            .is_some_and(|l| l != joint_label(&*m, &legal, &joint))
        {
            continue;
        }
        let child = m.next_state(&parent, &joint)?;
        let mut fluents: Vec<String> = m
            .fluents(&child)
            .iter()
            .map(|&f| m.terms().display(f))
            .collect();
        fluents.sort();
        if fluents != states[n.state] {
            continue;
        }
        let mut seen: Vec<String> = m.percepts(&parent, &joint)?[role]
            .iter()
            .map(|&p| m.terms().display(p))
            .collect();
        seen.sort();
        return Ok(format!(
            "{} / {}",
            m.terms().display(joint[role]),
            seen.join(" ")
        ));
    }
    Err(bad("no joint move leads to a traced state"))
}
