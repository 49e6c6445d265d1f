//! The order of the BDD variables. `Grounder`: the grounder's order of the
//! base propositions. `Cells`: the propositions sorted by relation, then
//! by their arguments but the last (numbers as numbers), then by the last:
//! a board's cells in row order, each cell's possible contents side by
//! side, so the propositions a line of cells reads stay close.

use crate::ground::GroundProgram;
use crate::terms::TermId;
use serde::Serialize;

/// Which variable order (docs/solve.md has them measured).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "SymbolicOrder", rename_all = "kebab-case")
)]
pub enum VarOrder {
    Grounder,
    #[default]
    Cells,
}

impl VarOrder {
    pub fn name(self) -> &'static str {
        match self {
            VarOrder::Grounder => "grounder",
            VarOrder::Cells => "cells",
        }
    }

    pub fn from_name(s: &str) -> Option<VarOrder> {
        [VarOrder::Grounder, VarOrder::Cells]
            .into_iter()
            .find(|o| o.name() == s)
    }
}

/// An argument's sort key: numbers first, by value, then names.
type ArgKey = (bool, i64, String);

fn arg_key(gp: &GroundProgram, t: TermId) -> ArgKey {
    match gp.store.as_int(t) {
        Some(v) => (false, v, String::new()),
        None => (true, 0, gp.store.display(t)),
    }
}

/// Per base proposition, its position in `order`.
pub fn positions(gp: &GroundProgram, order: VarOrder) -> Vec<usize> {
    let n = gp.fluents.len();
    let mut ranked: Vec<usize> = (0..n).collect();
    if order == VarOrder::Cells {
        let key = |i: usize| {
            let f = gp.fluents[i];
            let args = gp.store.args_of(f);
            let head = gp.store.symbols.name(gp.store.functor(f)).to_string();
            let (rest, last) = match args.split_last() {
                Some((last, rest)) => (rest, Some(arg_key(gp, *last))),
                None => (&[][..], None),
            };
            let rest: Vec<ArgKey> = rest.iter().map(|&a| arg_key(gp, a)).collect();
            (head, rest, last)
        };
        ranked.sort_by_cached_key(|&i| key(i));
    }
    let mut position = vec![0; n];
    for (p, &i) in ranked.iter().enumerate() {
        position[i] = p;
    }
    position
}

/// What the state variables mean, as a short text: the number of base
/// propositions and an FNV-1a hash of their names in variable order. Two
/// solves with the same fingerprint read a saved BDD the same way.
pub fn fingerprint(gp: &GroundProgram, positions: &[usize]) -> String {
    let mut by_position = vec![String::new(); positions.len()];
    for (i, &p) in positions.iter().enumerate() {
        by_position[p] = gp.store.display(gp.fluents[i]);
    }
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in by_position.join(" ").bytes() {
        h = (h ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{}-{h:016x}", positions.len())
}
