//! Where an explanation lies on the board, so that the page draws it
//! without reading a term: the cells each move changes (the board cells
//! that differ between the state and the move's successor), the cells each
//! relaxed plan's action names.

use super::fjo::GoalDistance;
use crate::program::Program;
use crate::reasoner::StateMachine;
use crate::structure::{self, board, Board};
use std::collections::HashMap;

/// A cell's coordinates as the page keys it: `[column, row]`, or `[column,
/// row, layer]` on a 3-D board (the format of [`board::MoveCells`]).
pub type CellCoordinates = Vec<String>;

/// The board a state of this game is drawn with (a short simulation, as
/// the page's and `gdlkit play`'s drawings); None without one.
pub fn find<M: StateMachine>(program: &Program, m: &mut M) -> Option<Board> {
    let st = structure::find(program, m, structure::DISPLAY_OPTIONS).ok()?;
    board::main_board(&st.boards).cloned()
}

/// The board's cells in a state: coordinates → content.
fn contents<M: StateMachine>(
    b: &Board,
    m: &M,
    s: &M::State,
) -> Option<HashMap<CellCoordinates, String>> {
    let cells = board::cells(b, &board::Fluent::of_terms(m.terms(), &m.fluents(s)))?;
    let three = !cells.zs.is_empty();
    Some(
        cells
            .cells
            .into_iter()
            .map(|c| {
                let mut k = vec![c.x, c.y];
                if three {
                    k.push(c.z);
                }
                (k, c.content)
            })
            .collect(),
    )
}

/// The cells whose content differs between `before` and `after`, in the
/// board's order (column, then row, then layer).
pub fn changed<M: StateMachine>(
    b: &Board,
    m: &M,
    before: &M::State,
    after: &M::State,
) -> Vec<CellCoordinates> {
    let (Some(x), Some(y)) = (contents(b, m, before), contents(b, m, after)) else {
        return Vec::new();
    };
    let mut out: Vec<CellCoordinates> = x
        .keys()
        .chain(y.keys())
        .filter(|k| x.get(*k) != y.get(*k))
        .cloned()
        .collect();
    let order = |k: &CellCoordinates| -> Vec<usize> {
        k.iter()
            .zip(&b.values)
            .map(|(v, values)| values.iter().position(|x| x == v).unwrap_or(0))
            .collect()
    };
    out.sort_by_key(order);
    out.dedup();
    out
}

/// Fills each goal's `plan_cells`: the cells each plan action's move names
/// (`role: move` for another role's action).
pub fn locate_plans(b: &Board, goals: &mut [GoalDistance]) {
    for g in goals {
        g.plan_cells = g
            .plan
            .iter()
            .map(|step| {
                let mv = match step.split_once(": ") {
                    Some((_, mv)) if !step.starts_with('(') => mv,
                    _ => step.as_str(),
                };
                let named = board::move_cells(b, mv);
                if named.column {
                    Vec::new()
                } else {
                    named.cells
                }
            })
            .collect();
    }
}
