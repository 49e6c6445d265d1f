//! Game structure from the rules (lecture 004; Kuhlmann et al. 2006,
//! Schiffel & Thielscher 2007), found once for every interface: the
//! heuristics (`features`), the CLI and npm boards ([`board`]), the page.
//!
//! Everything is found from the semantics, never from symbol names (a game
//! whose symbols are all renamed has the same structure):
//! - static (`statics`): successor relations (binary, functional,
//!   injective, acyclic: one path) and order relations (antisymmetric,
//!   transitive, along a successor) on the *evaluated* static relations;
//!   argument domains from the dependency graph of argument positions;
//! - dynamic (`simulate`), from random playouts: a fluent with at least
//!   two arguments is a *board* when some arguments (the coordinates, the
//!   lecture's input parameters) determine the others (the contents) in
//!   every sampled state; a content that is never on two cells at once is a
//!   *piece*, otherwise a *marker*; a single-valued fluent whose value lies
//!   on a successor chain is a *quantity*, and a *counter* if every step
//!   moves it one place along the chain;
//! - roles: turn-taking when no sampled state has two roles with more than
//!   one legal move (the others' single moves are the no-op moves); teams
//!   are roles with equal goals in every sampled terminal state; the goals
//!   are constant-sum when every sampled terminal state has the same sum.
//!
//! Deterministic for a seed (unless the time limit cuts the sampling
//! short); `states_sampled` says how much evidence the dynamic part has.

pub mod board;
pub mod boardsvg;
pub mod chance;
pub(crate) mod features;
pub(crate) mod geometry;
pub(crate) mod hexgrid;
pub(crate) mod lattice;
pub(crate) mod linegrid;
pub mod pieces;
pub(crate) mod ring;
pub mod scene;
pub(crate) mod shapes;
pub(crate) mod shapesvg;
pub(crate) mod simulate;
pub(crate) mod statics;

use crate::clock::Deadline;
use crate::program::{Program, Term};
use crate::reasoner::{EvalError, StateMachine};
use crate::terms::{kw, TermId, TermStore};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use simulate::{Kind, Sample};
use statics::{Domains, Position, Space, Successor};

/// How much to simulate.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub seed: u64,
    pub max_states: usize,
    pub max_ms: f64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            seed: 1,
            max_states: 1000,
            max_ms: 5000.0,
        }
    }
}

/// The structure of a game. Terms are canonical text.
// Read back only from JavaScript (`renderBoard`): in its camelCase.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all(deserialize = "camelCase"))]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase")
)]
pub struct Structure {
    pub roles: Vec<String>,
    pub turn_taking: bool,
    pub noop_moves: Vec<String>,
    pub teams: Vec<Vec<String>>,
    pub constant_sum: Option<i64>,
    /// Each role's goal values.
    #[cfg_attr(feature = "typescript", ts(type = "Record<string, number[]>"))]
    pub goal_values: serde_json::Map<String, serde_json::Value>,
    pub successors: Vec<SuccessorInfo>,
    pub orders: Vec<OrderInfo>,
    pub boards: Vec<Board>,
    pub counters: Vec<Counter>,
    pub quantities: Vec<Quantity>,
    /// Domain size of every fluent argument (`null`: unbounded).
    pub domains: Vec<FluentDomain>,
    /// The feature names (heuristics `feature:NAME:max|min`, `features`).
    pub features: Vec<String>,
    /// A game without a drawable board drawn as lamps, rooms or doors
    /// (`scene`), else `null`.
    #[serde(default)]
    pub scene: Option<scene::Scene>,
    pub states_sampled: usize,
    pub terminal_states_sampled: usize,
    /// Where each named relation or fluent is first defined in the text
    /// (filled by [`locate`]: the CLI's JSON, npm, the page's links).
    #[serde(default)]
    #[cfg_attr(feature = "typescript", ts(type = "Record<string, Position>"))]
    pub defined_at: serde_json::Map<String, serde_json::Value>,
    /// Every rule that defines each of those names: `[from, to]` offsets
    /// in UTF-16 code units (filled by [`locate`]: the page highlights them
    /// in the editor).
    #[serde(default)]
    #[cfg_attr(
        feature = "typescript",
        ts(type = "Record<string, [number, number][]>")
    )]
    pub rules_at: serde_json::Map<String, serde_json::Value>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "StructureSuccessor")
)]
pub struct SuccessorInfo {
    pub relation: String,
    pub chain: Vec<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "StructureOrder")
)]
pub struct OrderInfo {
    pub relation: String,
    pub successor: String,
    /// `(less 1 2)`: true; `(greater 2 1)`: false.
    pub ascending: bool,
    pub reflexive: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "StructureBoard")
)]
pub struct Board {
    pub fluent: String,
    pub arity: usize,
    /// Argument positions (0-based) of the coordinates and the contents.
    pub coordinates: Vec<usize>,
    pub contents: Vec<usize>,
    /// Number of values of each coordinate (its domain).
    pub size: Vec<usize>,
    /// Whether each coordinate is ordered by a successor relation.
    pub ordered: Vec<bool>,
    /// The successor relation ordering each coordinate.
    pub order: Vec<Option<String>>,
    /// The values of each coordinate, in order.
    pub values: Vec<Vec<String>>,
    pub pieces: Vec<String>,
    pub markers: Vec<String>,
    /// `square`, `hex` when each cell has six neighbours (`hexgrid`),
    /// `lines` when the cells are points joined by lines (`linegrid`), or
    /// `ring` when a 1-D board's places form a cycle (`ring`; its values
    /// are then in the ring's order), or `lattice` when a 1-D board's
    /// places lie on a triangular or square lattice (`lattice`; see
    /// `places`).
    #[serde(default = "square")]
    pub geometry: String,
    /// On a hex board, how far (in cells) each row lies right of the row
    /// of the previous value of the second coordinate (±0.5); else 0.
    #[serde(default)]
    pub shear: f64,
    /// How each content is drawn (`pieces`).
    #[serde(default)]
    pub drawings: Vec<pieces::Drawing>,
    /// How the board is drawn: `grid`, `pegs` (discs stacked on pegs, one
    /// per column), `mancala` (two rows of pits, a store at each end) or
    /// `stacks` (blocks on blocks on a table) (`shapes`).
    #[serde(default = "grid_shape")]
    pub shape: String,
    /// On a pegs board, the pieces from the smallest to the largest.
    #[serde(default)]
    pub sizes: Vec<String>,
    /// On a mancala board, the two stores' cells as `[column, row]`.
    #[serde(default)]
    pub stores: Vec<Vec<String>>,
    /// On a `lines` board, each line between two neighbouring points once,
    /// as `[x, y, u, v]`.
    #[serde(default)]
    pub links: Vec<Vec<String>>,
    /// On a `lattice` board, each value's position `[x, y]` in cells from
    /// the top left (neighbours one cell apart).
    #[serde(default)]
    pub places: Vec<[f64; 2]>,
}

fn grid_shape() -> String {
    shapes::GRID.to_string()
}

pub const SQUARE: &str = "square";
pub const HEX: &str = "hex";
pub const LINES: &str = "lines";
/// Places round a circle (`ring`).
pub const RING: &str = "ring";
/// Places at the points of a lattice (`lattice`).
pub const LATTICE: &str = "lattice";

fn square() -> String {
    SQUARE.to_string()
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "StructureCounter")
)]
pub struct Counter {
    pub fluent: String,
    pub argument: usize,
    pub successor: String,
    /// The largest value seen, when a terminal state was seen there.
    pub limit: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "StructureQuantity")
)]
pub struct Quantity {
    pub fluent: String,
    pub argument: usize,
    /// Arguments that select one of several quantities (a board's
    /// coordinates, e.g. the heap of `(heap a 3)`); empty for a singleton.
    pub inputs: Vec<usize>,
    pub successor: String,
    /// The values in order.
    pub values: Vec<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase")
)]
pub struct FluentDomain {
    pub fluent: String,
    pub arity: usize,
    pub sizes: Vec<Option<usize>>,
}

/// Finds the structure of `program`, simulating on `m` (any engine).
pub fn find<M: StateMachine>(
    program: &Program,
    m: &mut M,
    options: Options,
) -> Result<Structure, EvalError> {
    let mut store = TermStore::new(program.symbols.clone());
    let (succs, orders) = statics::successors_and_orders(program, &mut store);
    let domains = statics::domains(program, &mut store);
    let deadline = Deadline::after_ms(options.max_ms);
    let sample = simulate::sample(m, &mut store, options.seed, options.max_states, &deadline)?;
    let roles: Vec<String> = m.roles().iter().map(|&r| m.terms().display(r)).collect();
    let found = Found {
        store: &store,
        succs: &succs,
        domains: &domains,
        sample: &sample,
    };
    let hyps = simulate::input_hypotheses(&store, &sample);
    let mut kinds: Vec<Kind> = hyps.keys().copied().collect();
    kinds.sort_by(|a, b| (store.symbols.name(a.0), a.1).cmp(&(store.symbols.name(b.0), b.1)));
    let mut boards = Vec::new();
    let mut counters = Vec::new();
    let mut quantities = Vec::new();
    for &kind in &kinds {
        let masks = &hyps[&kind];
        if masks.contains(&0) {
            found.singleton(kind, &mut counters, &mut quantities);
        } else if kind.1 >= 2 {
            if let Some(coords) = found.coordinates(kind, masks) {
                let mut b = found.board(kind, coords);
                let before = quantities.len();
                found.board_quantities(&b, kind, coords, &mut quantities);
                if quantities.len() > before {
                    // Cells holding amounts (nim's heaps): no markers.
                    b.pieces.clear();
                    b.markers.clear();
                }
                boards.push(b);
            }
        }
    }
    hexgrid::detect(program, &mut boards);
    linegrid::detect(program, &mut boards);
    let relations = ring::place_relations(program, &boards);
    ring::detect(&mut boards, &relations);
    lattice::detect(&mut boards, &relations);
    shapes::detect(program, &store, &sample, &mut boards);
    for b in &mut boards {
        b.drawings = pieces::drawings(b, &roles);
        shapes::disc_drawings(b);
        if b.shape == shapes::STACKS {
            shapes::block_drawings(b);
        }
        if shapes::hands(b, &roles) {
            b.shape = shapes::HANDS.to_string();
            shapes::card_drawings(b);
        }
        shapes::agent_drawings(b, &roles);
    }
    let scene = match board::main_board(&boards) {
        Some(_) => None,
        None => scene::find(program, &store, &sample, &counters),
    };
    let (teams, constant_sum) = teams(&roles, &sample);
    let mut st = Structure {
        turn_taking: sample.turn_taking,
        noop_moves: if sample.turn_taking {
            sample.noops.iter().map(|&t| store.display(t)).collect()
        } else {
            Vec::new()
        },
        teams,
        constant_sum,
        goal_values: goal_values(program, &roles, &sample),
        successors: succs
            .iter()
            .map(|s| SuccessorInfo {
                relation: store.symbols.name(s.relation).to_string(),
                chain: s.chain.iter().map(|&t| store.display(t)).collect(),
            })
            .collect(),
        orders: orders
            .iter()
            .map(|o| OrderInfo {
                relation: store.symbols.name(o.relation).to_string(),
                successor: store.symbols.name(succs[o.successor].relation).to_string(),
                ascending: o.ascending,
                reflexive: o.reflexive,
            })
            .collect(),
        boards,
        counters,
        quantities,
        scene,
        domains: fluent_domains(&store, &domains),
        features: Vec::new(),
        defined_at: serde_json::Map::new(),
        rules_at: serde_json::Map::new(),
        states_sampled: sample.states.len(),
        terminal_states_sampled: sample.goals.len(),
        roles,
    };
    st.features = features::FeatureSet::new(&st).names;
    Ok(st)
}

/// A shorter simulation, for drawing boards (`gdlkit play`, `match
/// --verbose`, npm `renderBoard`).
pub const DISPLAY_OPTIONS: Options = Options {
    seed: 1,
    max_states: 300,
    max_ms: 1500.0,
};

/// What the dynamic analysis reads.
struct Found<'a> {
    store: &'a TermStore,
    succs: &'a [Successor],
    domains: &'a Domains,
    sample: &'a Sample,
}

impl Found<'_> {
    fn name(&self, kind: Kind) -> String {
        self.store.symbols.name(kind.0).to_string()
    }

    /// The values of a fluent argument: its domain when bounded, else the
    /// values seen in the sample.
    fn values(&self, kind: Kind, arg: usize) -> Vec<TermId> {
        let p = Position {
            space: Space::Fluent,
            sym: kind.0,
            arity: kind.1 as u32,
            arg: arg as u32,
        };
        // Seen values belong to the domain even where the analysis (which
        // skips nested terms) missed them.
        let mut vals: Vec<TermId> = self
            .sample
            .states
            .iter()
            .flatten()
            .filter(|&&f| self.store.functor(f) == kind.0 && self.store.arity(f) == kind.1)
            .map(|&f| self.store.args_of(f)[arg])
            .collect();
        if let Some(set) = self.domains.get(&p) {
            vals.extend(set.iter().copied());
        }
        vals.sort_unstable();
        vals.dedup();
        vals
    }

    /// The successor whose chain holds all `vals` (the shortest such: ranks
    /// 1..8 follow `nextrank` rather than a step counter's 1..200), and the
    /// values in chain order.
    fn ordered(&self, vals: &[TermId]) -> Option<(usize, Vec<TermId>)> {
        if vals.len() < 2 {
            return None;
        }
        let fits = self.succs.iter().enumerate().filter_map(|(i, s)| {
            let in_chain: Vec<TermId> = s
                .chain
                .iter()
                .copied()
                .filter(|t| vals.contains(t))
                .collect();
            (in_chain.len() == vals.len()).then_some((i, in_chain))
        });
        fits.min_by_key(|(i, _)| (self.succs[*i].chain.len(), *i))
    }

    /// Which arguments of `kind` are a board's coordinates, among the sets
    /// that determine the rest in every sampled state: those whose every
    /// argument runs along a successor chain (the eight-puzzle's columns
    /// and rows, not its tiles, each of which is also on one cell), then
    /// the fewest.
    fn coordinates(&self, kind: Kind, masks: &[u32]) -> Option<u32> {
        let ordered = |mask: u32| {
            (0..kind.1)
                .filter(|i| mask & (1 << i) != 0)
                .all(|i| self.ordered(&self.values(kind, i)).is_some())
        };
        masks
            .iter()
            .copied()
            .min_by_key(|&m| (!ordered(m), m.count_ones(), m))
    }

    fn board(&self, kind: Kind, coords: u32) -> Board {
        let (mut size, mut ordered, mut order, mut values) = (vec![], vec![], vec![], vec![]);
        let coordinates: Vec<usize> = (0..kind.1).filter(|i| coords & (1 << i) != 0).collect();
        let contents: Vec<usize> = (0..kind.1).filter(|i| coords & (1 << i) == 0).collect();
        for &c in &coordinates {
            let vals = self.values(kind, c);
            let (vals, succ) = match self.ordered(&vals) {
                Some((s, in_order)) => (in_order, Some(s)),
                None => (sorted_text(self.store, &vals), None),
            };
            size.push(vals.len());
            ordered.push(succ.is_some());
            order.push(succ.map(|s| self.store.symbols.name(self.succs[s].relation).to_string()));
            values.push(vals.iter().map(|&t| self.store.display(t)).collect());
        }
        let most = simulate::most_cells(self.store, self.sample, kind, coords);
        let mut contents_seen: Vec<(String, usize)> = most
            .into_iter()
            .map(|(c, n)| (content_text(self.store, &c), n))
            .collect();
        contents_seen.sort();
        let pieces = contents_seen.iter().filter(|(_, n)| *n <= 1);
        let markers = contents_seen.iter().filter(|(_, n)| *n > 1);
        Board {
            fluent: self.name(kind),
            arity: kind.1,
            coordinates,
            contents,
            size,
            ordered,
            order,
            values,
            pieces: pieces.map(|(c, _)| c.clone()).collect(),
            markers: markers.map(|(c, _)| c.clone()).collect(),
            geometry: square(),
            shear: 0.0,
            drawings: Vec::new(),
            shape: grid_shape(),
            sizes: Vec::new(),
            stores: Vec::new(),
            links: Vec::new(),
            places: Vec::new(),
        }
    }

    /// Ordered contents of a board are quantities per cell (nim's heaps).
    fn board_quantities(&self, b: &Board, kind: Kind, coords: u32, out: &mut Vec<Quantity>) {
        for &c in &b.contents {
            let vals = self.values(kind, c);
            if let Some((s, in_order)) = self.ordered(&vals) {
                out.push(Quantity {
                    fluent: b.fluent.clone(),
                    argument: c,
                    inputs: (0..kind.1).filter(|i| coords & (1 << i) != 0).collect(),
                    successor: self.store.symbols.name(self.succs[s].relation).to_string(),
                    values: in_order.iter().map(|&t| self.store.display(t)).collect(),
                });
            }
        }
    }

    /// A single-valued fluent: a counter or a quantity for each argument
    /// whose values lie on a successor chain.
    fn singleton(&self, kind: Kind, counters: &mut Vec<Counter>, quantities: &mut Vec<Quantity>) {
        for arg in 0..kind.1 {
            let vals = self.values(kind, arg);
            let Some((s, in_order)) = self.ordered(&vals) else {
                continue;
            };
            let succ_name = self.store.symbols.name(self.succs[s].relation).to_string();
            match self.counter_limit(kind, arg, &self.succs[s].chain) {
                Some(limit) => counters.push(Counter {
                    fluent: self.name(kind),
                    argument: arg,
                    successor: succ_name,
                    limit: limit.map(|t| self.store.display(t)),
                }),
                None => quantities.push(Quantity {
                    fluent: self.name(kind),
                    argument: arg,
                    inputs: Vec::new(),
                    successor: succ_name,
                    values: in_order.iter().map(|&t| self.store.display(t)).collect(),
                }),
            }
        }
    }

    /// `Some(limit)` when every sampled step moves the argument one place
    /// along `chain`; the limit is the largest value seen, if a terminal
    /// state was seen with it.
    fn counter_limit(&self, kind: Kind, arg: usize, chain: &[TermId]) -> Option<Option<TermId>> {
        let pos: FxHashMap<TermId, usize> =
            chain.iter().enumerate().map(|(i, &t)| (t, i)).collect();
        let value = |state: &[TermId]| -> Option<usize> {
            state
                .iter()
                .find(|&&f| self.store.functor(f) == kind.0 && self.store.arity(f) == kind.1)
                .and_then(|&f| pos.get(&self.store.args_of(f)[arg]).copied())
        };
        let mut steps = 0;
        let mut top: Option<(usize, bool)> = None;
        for (i, state) in self.sample.states.iter().enumerate() {
            let v = value(state);
            if let Some(v) = v {
                let terminal = self.sample.terminal[i];
                top = match top {
                    Some((t, term)) if t > v => Some((t, term)),
                    Some((t, term)) if t == v => Some((t, term || terminal)),
                    _ => Some((v, terminal)),
                };
            }
            if let Some(j) = self.sample.next[i] {
                match (v, value(&self.sample.states[j])) {
                    (Some(a), Some(b)) if b == a + 1 => steps += 1,
                    _ => return None,
                }
            }
        }
        if steps == 0 {
            return None;
        }
        Some(top.filter(|t| t.1).map(|t| chain[t.0]))
    }
}

/// Text of a board content (one or more arguments).
pub fn content_text(store: &TermStore, c: &[TermId]) -> String {
    c.iter()
        .map(|&t| store.display(t))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Unordered values: numbers by value, then the rest by text.
fn sorted_text(store: &TermStore, vals: &[TermId]) -> Vec<TermId> {
    let mut v = vals.to_vec();
    v.sort_by_key(|&t| (store.as_int(t).is_none(), store.as_int(t), store.display(t)));
    v
}

/// Teams (roles with equal goals in every sampled terminal state, the
/// lecture's "assume all play together, split when refuted") and the
/// constant sum of the goals.
fn teams(roles: &[String], sample: &Sample) -> (Vec<Vec<String>>, Option<i64>) {
    let mut teams: Vec<Vec<usize>> = Vec::new();
    for r in 0..roles.len() {
        let same = |t: &Vec<usize>| sample.goals.iter().all(|g| g[t[0]] == g[r]);
        match teams.iter_mut().find(|t| same(t)) {
            Some(t) => t.push(r),
            None => teams.push(vec![r]),
        }
    }
    let sums: Vec<i64> = sample.goals.iter().map(|g| g.iter().sum()).collect();
    let constant = sums
        .first()
        .copied()
        .filter(|s| sums.iter().all(|x| x == s));
    let named = teams
        .into_iter()
        .map(|t| t.into_iter().map(|r| roles[r].clone()).collect())
        .collect();
    (named, constant)
}

/// The goal values of each role: the constants of the `goal` rules (a
/// variable role stands for every role) and the values seen in the sample.
fn goal_values(
    program: &Program,
    roles: &[String],
    sample: &Sample,
) -> serde_json::Map<String, serde_json::Value> {
    let mut per: Vec<Vec<i64>> = vec![Vec::new(); roles.len()];
    for rule in program.rules.iter().filter(|r| r.head.rel == kw::GOAL) {
        let [who, value] = rule.head.args.as_slice() else {
            continue;
        };
        let Term::Const(v, _) = value else { continue };
        let Ok(v) = program.symbols.name(*v).parse::<i64>() else {
            continue;
        };
        for (i, r) in roles.iter().enumerate() {
            let applies = match who {
                Term::Const(s, _) => program.symbols.name(*s) == r,
                Term::Var(..) => true,
                Term::App { .. } => false,
            };
            if applies {
                per[i].push(v);
            }
        }
    }
    for g in &sample.goals {
        for (i, &v) in g.iter().enumerate() {
            per[i].push(v);
        }
    }
    roles
        .iter()
        .zip(per)
        .map(|(r, mut v)| {
            v.sort_unstable();
            v.dedup();
            (r.clone(), serde_json::json!(v))
        })
        .collect()
}

fn fluent_domains(store: &TermStore, domains: &Domains) -> Vec<FluentDomain> {
    let mut by: FxHashMap<(String, usize), Vec<Option<usize>>> = FxHashMap::default();
    for (p, set) in &domains.of {
        if p.space != Space::Fluent {
            continue;
        }
        let e = by
            .entry((store.symbols.name(p.sym).to_string(), p.arity as usize))
            .or_insert_with(|| vec![None; p.arity as usize]);
        e[p.arg as usize] = set.as_ref().map(|s| s.len());
    }
    let mut out: Vec<FluentDomain> = by
        .into_iter()
        .map(|((fluent, arity), sizes)| FluentDomain {
            fluent,
            arity,
            sizes,
        })
        .collect();
    out.sort_by(|a, b| (&a.fluent, a.arity).cmp(&(&b.fluent, b.arity)));
    out
}

/// Fills `defined_at`: for every board, counter and quantity fluent its
/// first `init` or `next` rule, for every successor and order relation its
/// first fact or rule, as `{line, column, utf16}` in `text`; and `rules_at`:
/// the UTF-16 ranges of all those rules.
pub fn locate(st: &mut Structure, program: &Program, text: &str) {
    let index = crate::diagnostic::LineIndex::new(text);
    let fluents: Vec<&str> = st
        .boards
        .iter()
        .map(|b| b.fluent.as_str())
        .chain(st.counters.iter().map(|c| c.fluent.as_str()))
        .chain(st.quantities.iter().map(|q| q.fluent.as_str()))
        .collect();
    let relations: Vec<&str> = st
        .successors
        .iter()
        .map(|s| s.relation.as_str())
        .chain(st.orders.iter().map(|o| o.relation.as_str()))
        .collect();
    let mut out = serde_json::Map::new();
    let mut rules = serde_json::Map::new();
    for rule in &program.rules {
        let head = &rule.head;
        let name = match (head.rel, head.args.first()) {
            (kw::INIT | kw::NEXT, Some(Term::App { functor, .. })) => {
                let n = program.symbols.name(*functor);
                fluents.contains(&n).then_some(n)
            }
            (rel, _) => {
                let n = program.symbols.name(rel);
                relations.contains(&n).then_some(n)
            }
        };
        if let Some(n) = name {
            if !out.contains_key(n) {
                let p = index.position(rule.span.start as usize);
                out.insert(n.to_string(), serde_json::json!(p));
            }
            let from = index.position(rule.span.start as usize).utf16;
            let to = index.position(rule.span.end as usize).utf16;
            let spans = rules
                .entry(n.to_string())
                .or_insert_with(|| serde_json::json!([]));
            if let Some(list) = spans.as_array_mut() {
                list.push(serde_json::json!([from, to]));
            }
        }
    }
    st.defined_at = out;
    st.rules_at = rules;
}
