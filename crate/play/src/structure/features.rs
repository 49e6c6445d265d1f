//! Features and evaluation functions from the structure (lecture 004, "Von
//! Strukturen zu Features", Kuhlmann et al. 2006).
//!
//! | structure | features (each scaled to `V(s)` in `[0, 1]`) |
//! |---|---|
//! | ordered board with pieces | `x.B.P`, `y.B.P` (position / (size − 1)); `distance.B.P.Q` (Manhattan / its maximum); `distance-sum.B` (sum over pairs / its maximum) |
//! | board | `count.B.M`: cells holding marker `M` / number of cells |
//! | quantity | `quantity.F` or `quantity.F.K` (one per cell of a board of quantities): place in the order / (values − 1) |
//!
//! Each feature gives two evaluation functions for a role with goal values
//! in `[R⁻, R⁺]`: maximising `E(s) = 1 + R⁻ + (R⁺ − R⁻ − 2)·V(s)` and
//! minimising `E(s) = 1 + R⁻ + (R⁺ − R⁻ − 2)·(1 − V(s))`, so a real win
//! beats and a real loss is worse than every estimate. As heuristics they
//! are named `feature:NAME:max` and `feature:NAME:min`.

use super::{Board, Options, Structure};
use crate::error::HeuristicError;
use crate::evaluation::Heuristic;
use crate::program::Program;
use crate::reasoner::{EvalError, StateMachine};
use crate::terms::{TermId, TermStore};
use rustc_hash::FxHashMap;

/// One feature of a game.
#[derive(Clone, Debug, PartialEq)]
pub enum Feature {
    /// Place of piece `piece` of board `board` along coordinate `axis`.
    Coordinate {
        board: usize,
        piece: String,
        axis: usize,
    },
    Distance {
        board: usize,
        a: String,
        b: String,
    },
    DistanceSum {
        board: usize,
    },
    Count {
        board: usize,
        marker: String,
    },
    /// Quantity number `quantity` of the structure; `cell`: the values of
    /// its inputs (empty for a singleton).
    Quantity {
        quantity: usize,
        cell: Vec<String>,
    },
}

/// The features of a game and how to compute them on states.
pub struct FeatureSet {
    pub names: Vec<String>,
    pub features: Vec<Feature>,
    boards: Vec<Board>,
    quantities: Vec<super::Quantity>,
    /// Per fluent (of the machine's store): which board cell or quantity it is.
    cache: FxHashMap<TermId, Option<Place>>,
}

/// Where a fluent sits: `(board, coordinate places, content text)`, or a
/// quantity `(index, inputs text, place of the value)`.
#[derive(Clone, Debug)]
enum Place {
    Cell(usize, Vec<usize>, String),
    Amount(usize, Vec<String>, usize),
}

const AXES: [&str; 3] = ["x", "y", "z"];

fn part(text: &str) -> String {
    text.chars()
        .filter(|c| *c != '(' && *c != ')')
        .map(|c| if c.is_whitespace() { '_' } else { c })
        .collect()
}

impl FeatureSet {
    /// The features the lecture's table derives from `st`.
    pub fn new(st: &Structure) -> FeatureSet {
        let mut names = Vec::new();
        let mut features = Vec::new();
        let mut add = |n: String, f: Feature| {
            if !names.contains(&n) {
                names.push(n);
                features.push(f);
            }
        };
        for (bi, b) in st.boards.iter().enumerate() {
            let bn = part(&b.fluent);
            if b.ordered.iter().all(|&o| o) && !b.pieces.is_empty() {
                for p in &b.pieces {
                    for axis in 0..b.coordinates.len() {
                        let an = AXES
                            .get(axis)
                            .map_or(format!("c{}", axis + 1), |a| a.to_string());
                        let f = Feature::Coordinate {
                            board: bi,
                            piece: p.clone(),
                            axis,
                        };
                        add(format!("{an}.{bn}.{}", part(p)), f);
                    }
                }
                for (i, p) in b.pieces.iter().enumerate() {
                    for q in &b.pieces[i + 1..] {
                        let f = Feature::Distance {
                            board: bi,
                            a: p.clone(),
                            b: q.clone(),
                        };
                        add(format!("distance.{bn}.{}.{}", part(p), part(q)), f);
                    }
                }
                if b.pieces.len() >= 2 {
                    add(
                        format!("distance-sum.{bn}"),
                        Feature::DistanceSum { board: bi },
                    );
                }
            }
            for mk in &b.markers {
                let f = Feature::Count {
                    board: bi,
                    marker: mk.clone(),
                };
                add(format!("count.{bn}.{}", part(mk)), f);
            }
        }
        for (qi, q) in st.quantities.iter().enumerate() {
            let cells: Vec<Vec<String>> = if q.inputs.is_empty() {
                vec![Vec::new()]
            } else {
                board_cells(st, q)
            };
            for cell in cells {
                let mut n = format!("quantity.{}", part(&q.fluent));
                for c in &cell {
                    n.push('.');
                    n.push_str(&part(c));
                }
                add(n, Feature::Quantity { quantity: qi, cell });
            }
        }
        FeatureSet {
            names,
            features,
            boards: st.boards.clone(),
            quantities: st.quantities.clone(),
            cache: FxHashMap::default(),
        }
    }

    fn place(&mut self, store: &TermStore, f: TermId) -> Option<Place> {
        if let Some(p) = self.cache.get(&f) {
            return p.clone();
        }
        let name = store.symbols.name(store.functor(f));
        let args = store.args_of(f);
        let texts: Vec<String> = args.iter().map(|&a| store.display(a)).collect();
        let mut found = None;
        for (bi, b) in self.boards.iter().enumerate() {
            if b.fluent != name || b.arity != args.len() {
                continue;
            }
            let places: Option<Vec<usize>> = b
                .coordinates
                .iter()
                .zip(&b.values)
                .map(|(&c, vals)| vals.iter().position(|v| *v == texts[c]))
                .collect();
            if let Some(places) = places {
                let content: Vec<String> = b.contents.iter().map(|&c| texts[c].clone()).collect();
                found = Some(Place::Cell(bi, places, content.join(" ")));
            }
        }
        if found.is_none() {
            for (qi, q) in self.quantities.iter().enumerate() {
                if q.fluent != name || q.argument >= args.len() {
                    continue;
                }
                if let Some(at) = q.values.iter().position(|v| *v == texts[q.argument]) {
                    let inputs = q.inputs.iter().map(|&i| texts[i].clone()).collect();
                    found = Some(Place::Amount(qi, inputs, at));
                }
            }
        }
        self.cache.insert(f, found.clone());
        found
    }

    fn value(&self, i: usize, places: &[Place]) -> f64 {
        let cell_of = |board: usize, piece: &str| {
            places.iter().find_map(|p| match p {
                Place::Cell(b, at, c) if *b == board && c == piece => Some(at.clone()),
                _ => None,
            })
        };
        let span = |board: usize| -> f64 {
            self.boards[board]
                .size
                .iter()
                .map(|&s| s.saturating_sub(1) as f64)
                .sum::<f64>()
                .max(1.0)
        };
        let manhattan = |a: &[usize], b: &[usize]| -> f64 {
            a.iter().zip(b).map(|(x, y)| x.abs_diff(*y) as f64).sum()
        };
        match &self.features[i] {
            Feature::Coordinate { board, piece, axis } => {
                let size = self.boards[*board].size[*axis];
                cell_of(*board, piece).map_or(0.0, |at| {
                    at[*axis] as f64 / size.saturating_sub(1).max(1) as f64
                })
            }
            Feature::Distance { board, a, b } => match (cell_of(*board, a), cell_of(*board, b)) {
                (Some(p), Some(q)) => manhattan(&p, &q) / span(*board),
                _ => 0.0,
            },
            Feature::DistanceSum { board } => {
                let at: Vec<Vec<usize>> = self.boards[*board]
                    .pieces
                    .iter()
                    .filter_map(|p| cell_of(*board, p))
                    .collect();
                let pairs = at.len() * at.len().saturating_sub(1) / 2;
                if pairs == 0 {
                    return 0.0;
                }
                let mut sum = 0.0;
                for (k, p) in at.iter().enumerate() {
                    for q in &at[k + 1..] {
                        sum += manhattan(p, q);
                    }
                }
                sum / (pairs as f64 * span(*board))
            }
            Feature::Count { board, marker } => {
                let cells: usize = self.boards[*board].size.iter().product();
                let n = places
                    .iter()
                    .filter(|p| matches!(p, Place::Cell(b, _, c) if b == board && c == marker))
                    .count();
                n as f64 / cells.max(1) as f64
            }
            Feature::Quantity { quantity, cell } => {
                let len = self.quantities[*quantity].values.len();
                places
                    .iter()
                    .find_map(|p| match p {
                        Place::Amount(q, inputs, at) if q == quantity && inputs == cell => {
                            Some(*at as f64 / len.saturating_sub(1).max(1) as f64)
                        }
                        _ => None,
                    })
                    .unwrap_or(0.0)
            }
        }
    }
}

/// The cells of a board of quantities: every combination of its inputs'
/// values (from the board with the same fluent).
fn board_cells(st: &Structure, q: &super::Quantity) -> Vec<Vec<String>> {
    let Some(b) = st.boards.iter().find(|b| b.fluent == q.fluent) else {
        return Vec::new();
    };
    let mut cells: Vec<Vec<String>> = vec![Vec::new()];
    for vals in &b.values {
        cells = cells
            .into_iter()
            .flat_map(|c| {
                vals.iter().map(move |v| {
                    let mut c = c.clone();
                    c.push(v.clone());
                    c
                })
            })
            .take(10_000)
            .collect();
    }
    cells
}

/// The lecture's evaluation function: `1 + R⁻ + (R⁺ − R⁻ − 2)·V` (with
/// `1 − V` when minimising).
pub fn evaluation(v: f64, r_min: f64, r_max: f64, minimise: bool) -> f64 {
    let v = v.clamp(0.0, 1.0);
    let v = if minimise { 1.0 - v } else { v };
    1.0 + r_min + (r_max - r_min - 2.0) * v
}

/// A feature as a heuristic: `feature:NAME:max|min`.
pub struct FeatureHeuristic {
    set: FeatureSet,
    index: usize,
    minimise: bool,
    /// `(R⁻, R⁺)` per role.
    range: Vec<(f64, f64)>,
}

/// Simulation used when a heuristic is built (kept short: players build
/// their heuristic before their first move).
pub const HEURISTIC_OPTIONS: Options = Options {
    seed: 1,
    max_states: 400,
    max_ms: 2000.0,
};

impl FeatureHeuristic {
    /// Builds `NAME:max` / `NAME:min` (the text after `feature:`).
    pub fn build<M: StateMachine>(
        spec: &str,
        program: &Program,
        m: &mut M,
    ) -> Result<FeatureHeuristic, HeuristicError> {
        let (name, dir) = spec
            .rsplit_once(':')
            .ok_or_else(|| HeuristicError::FeatureSpec(spec.into()))?;
        let minimise = match dir {
            "max" => false,
            "min" => true,
            d => return Err(HeuristicError::FeatureDirection(d.into())),
        };
        let st = super::find(program, m, HEURISTIC_OPTIONS)?;
        let set = FeatureSet::new(&st);
        let index = set.names.iter().position(|n| n == name).ok_or_else(|| {
            HeuristicError::UnknownFeature {
                name: name.into(),
                known: if set.names.is_empty() {
                    "none".to_string()
                } else {
                    set.names.join(", ")
                },
            }
        })?;
        let range = st
            .roles
            .iter()
            .map(|r| {
                let vals: Vec<f64> = st.goal_values[r]
                    .as_array()
                    .map(|a| a.iter().filter_map(|v| v.as_f64()).collect())
                    .unwrap_or_default();
                let lo = vals.iter().copied().fold(f64::INFINITY, f64::min);
                let hi = vals.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                if lo.is_finite() && hi > lo {
                    (lo, hi)
                } else {
                    (0.0, 100.0)
                }
            })
            .collect();
        Ok(FeatureHeuristic {
            set,
            index,
            minimise,
            range,
        })
    }

    /// `V(s)` of this heuristic's feature.
    pub fn feature_value(&mut self, store: &TermStore, fluents: &[TermId]) -> f64 {
        let places: Vec<Place> = fluents
            .iter()
            .filter_map(|&f| self.set.place(store, f))
            .collect();
        self.set.value(self.index, &places)
    }
}

impl<M: StateMachine> Heuristic<M> for FeatureHeuristic {
    fn name(&self) -> String {
        format!(
            "feature:{}:{}",
            self.set.names[self.index],
            if self.minimise { "min" } else { "max" }
        )
    }
    fn forget_terms(&mut self) {
        self.set.cache.clear();
    }
    fn evaluate(&mut self, m: &mut M, s: &M::State, role: usize) -> Result<f64, EvalError> {
        let fluents = m.fluents(s);
        let v = self.feature_value(m.terms(), &fluents);
        let (lo, hi) = self.range.get(role).copied().unwrap_or((0.0, 100.0));
        Ok(evaluation(v, lo, hi, self.minimise))
    }
}
