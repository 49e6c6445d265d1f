//! Goal distance by fuzzy evaluation of the goal and terminal formulas
//! (Schiffel & Thielscher 2007, lecture 004).
//!
//! **Building.** The `goal` and `terminal` relations are unrolled into
//! ground formulas over fluents: every derived relation they use is
//! replaced by the disjunction of its rule bodies, instantiated over the
//! atoms that can ever hold. Those atoms come from a *relaxed* version of
//! the game (negation of state-dependent literals dropped, `true` = any
//! `init` or `next` fluent, `does` = any `legal` move) evaluated to its
//! fixpoint by the interpreter as if it were static — the syntax-based
//! reachability analysis of thesis 4.3. Static relations are evaluated
//! exactly and become constants. Recursive derived relations are cut where
//! they would call themselves (the cut literal counts as false).
//!
//! **Evaluating** a state `z` (product t-norm with threshold):
//! - a fluent is worth `p` if true in `z`, `1 - p` otherwise — raised
//!   towards 0.5 when a fluent of the same kind is *near* (ordered boards
//!   and counters, lecture 004 "Von Strukturen zur Evaluationsfunktion"):
//!   arguments whose values all lie on one successor chain (a static binary
//!   relation that is functional, injective and acyclic, such as
//!   `(succ 1 2) (succ 2 3) ...`) are coordinates; a false fluent such as
//!   `(cellholds 3 8 white)` is worth `(1-p) + 0.9·(p - 0.5)·(1 - d)`, where
//!   `d` is the smallest mean normalised distance to a true fluent that
//!   agrees on the other arguments (a white pawn on `(4 6)`); so pushing a
//!   pawn forward, or a counter nearing its limit, changes the estimate;
//! - `not f` is `1 - eval(f)`;
//! - `and` is the product `a1·…·an`, `or` the dual `1 - (1-a1)·…·(1-an)`;
//!   the threshold then puts a satisfied formula into `[t, 1]` and an
//!   unsatisfied one into `[0, 1 - t]` (`t + (1-t)·x` resp. `(1-t)·x`), so
//!   satisfied formulas are worth at least `t > 0.5` and unsatisfied ones at
//!   most `1 - t`, as with the lecture's `T'`. Deviation: the lecture clamps
//!   (`max(T, t)`), we rescale. With clamping, every unsatisfied disjunction
//!   of many small values sits at exactly `1 - t` — connect four's goal, an
//!   `or` of 69 lines, would then be worth the same in every position and
//!   the heuristic would be flat; rescaling keeps the order;
//! - for each goal value `gv` of a role: `h(gv, z) = eval(goal(gv) ∨
//!   terminal)` if `goal(gv)` holds in `z` (then reaching the end is good),
//!   else `eval(goal(gv) ∧ ¬terminal)` (avoid ending before it holds);
//! - `h(z) = Σ gv·h(gv, z) / Σ gv`, in `[0, 1]`.
//!
//! With more than one role the estimate is relative, `(1 + h_us − max h_other)
//! / 2`, so that the opponents' progress (which a weight-0 goal such as
//! "lose" never shows) counts against us; the result is scaled to `[1, 99]`.

//!
//! The formulas are built in `formulas` from the interpreter's compiled
//! rules and its unification (`reasoner::compile`), over the rows the
//! interpreter derives for the relaxed game; the board geometry (chains,
//! coordinates, distances) is the structure module's
//! (`structure::geometry`). The `Heuristic` adapter lives with the
//! other heuristics (`super::heuristics`), so this module does not depend
//! on them.

mod formulas;

use super::scale;
use crate::program::Program;
use crate::reasoner::{Interpreter, Limits, StateMachine};
use crate::structure::geometry::Geometry;
use crate::terms::{kw, TermId, TermStore};
use formulas::{relax, Grounder, Key};
use rustc_hash::FxHashMap;

pub use crate::terms::copy_term;

/// Truth value of a true fluent.
pub const P: f64 = 0.6;
/// Threshold of the t-norm.
pub const T: f64 = 0.55;

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Node {
    Leaf(u32),
    Const(bool),
    Not(u32),
    And(Vec<u32>),
    Or(Vec<u32>),
}

/// The fuzzy goal-distance heuristic of one game.
pub struct FuzzyHeuristic {
    nodes: Vec<Node>,
    leaf_of: FxHashMap<TermId, u32>,
    leaves: usize,
    /// Per role: (goal value, formula node).
    goals: Vec<Vec<(i64, u32)>>,
    terminal: u32,
    geo: Geometry,
    // Scratch and a one-state cache.
    truth: Vec<bool>,
    leaf_val: Vec<f64>,
    fz: Vec<f64>,
    crisp: Vec<bool>,
    cached: Option<(Vec<TermId>, Vec<f64>)>,
}

impl FuzzyHeuristic {
    /// Builds the formulas of `program` for machine `m` (fluents are
    /// interned into `m`'s term store).
    pub fn build<M: StateMachine>(
        program: &Program,
        m: &mut M,
    ) -> Result<FuzzyHeuristic, crate::error::HeuristicError> {
        Self::build_formulas(program, m).map_err(crate::error::HeuristicError::Fuzzy)
    }

    // The grounder's messages, made where the formulas are, become the error.
    fn build_formulas<M: StateMachine>(
        program: &Program,
        m: &mut M,
    ) -> Result<FuzzyHeuristic, String> {
        let relaxed = relax(program);
        let limits = Limits {
            max_static_rows: 2_000_000,
            max_terms: 5_000_000,
            ..Limits::default()
        };
        let mut ri = Interpreter::with_limits(&relaxed.program, limits).map_err(|d| {
            format!(
                "fuzzy heuristic: the relaxed game does not load: {}",
                d.first().map(|d| d.message.as_str()).unwrap_or("?")
            )
        })?;
        let mut g = Grounder::new(program, &mut ri, relaxed.rtrue)?;
        // Goal values per role, from the relaxed goal relation.
        let mut goal_atoms: Vec<Vec<(i64, TermId, TermId)>> = vec![Vec::new(); m.roles().len()];
        let goal_rows = g.rows(Key::Rel(kw::GOAL, 2))?;
        for (r, &role) in m.roles().to_vec().iter().enumerate() {
            let role_t = copy_term(m.terms(), role, g.store_mut());
            for row in goal_rows.rows.iter().filter(|row| row[0] == role_t) {
                if let Some(v) = g.store().as_int(row[1]) {
                    goal_atoms[r].push((v, row[0], row[1]));
                }
            }
            goal_atoms[r].sort_by_key(|x| x.0);
            goal_atoms[r].dedup_by_key(|x| x.0);
        }
        let mut goals = Vec::new();
        for atoms in &goal_atoms {
            let mut gs = Vec::new();
            for &(v, role_t, val_t) in atoms {
                let node = g.atom(kw::GOAL, &[role_t, val_t], 0)?;
                gs.push((v, node));
            }
            goals.push(gs);
        }
        let terminal = g.atom(kw::TERMINAL, &[], 0)?;
        let layout = g.layouts()?;
        // Fluents into the machine's store.
        let mut leaf_of = FxHashMap::default();
        let mut leaf_terms = Vec::new();
        for (i, &f) in g.leaf_terms.iter().enumerate() {
            let t = copy_term(g.ri.terms(), f, m.terms_mut());
            leaf_of.insert(t, i as u32);
            leaf_terms.push(t);
        }
        let mut geo = Geometry::new(g.ri.terms(), &layout, m.terms_mut());
        geo.leaf_geo = leaf_terms.iter().map(|&t| geo.info(m.terms(), t)).collect();
        let n = g.nodes.len();
        Ok(FuzzyHeuristic {
            leaves: g.leaf_terms.len(),
            nodes: std::mem::take(&mut g.nodes),
            leaf_of,
            goals,
            terminal,
            geo,
            truth: Vec::new(),
            leaf_val: Vec::new(),
            fz: vec![0.0; n],
            crisp: vec![false; n],
            cached: None,
        })
    }

    /// Size of the ground formulas (nodes, fluent leaves).
    pub fn size(&self) -> (usize, usize) {
        (self.nodes.len(), self.leaves)
    }

    /// Puts a raw value into the band of its truth value.
    fn band(raw: f64, crisp: bool) -> f64 {
        if crisp {
            T + (1.0 - T) * raw
        } else {
            (1.0 - T) * raw
        }
    }

    fn product(vals: impl Iterator<Item = f64>) -> f64 {
        vals.fold(1.0, |a, v| a * v)
    }

    /// Evaluates every node for a set of true fluents.
    fn run(&mut self, store: &TermStore, fluents: &[TermId]) {
        self.truth.clear();
        self.truth.resize(self.leaves, false);
        for f in fluents {
            if let Some(&l) = self.leaf_of.get(f) {
                self.truth[l as usize] = true;
            }
        }
        self.geo
            .leaf_values(store, fluents, &self.truth, P, &mut self.leaf_val);
        for i in 0..self.nodes.len() {
            let (fz, crisp) = match &self.nodes[i] {
                Node::Leaf(l) => (self.leaf_val[*l as usize], self.truth[*l as usize]),
                Node::Const(b) => (if *b { 1.0 } else { 0.0 }, *b),
                Node::Not(c) => (1.0 - self.fz[*c as usize], !self.crisp[*c as usize]),
                Node::And(cs) => {
                    let b = cs.iter().all(|&c| self.crisp[c as usize]);
                    (
                        Self::band(Self::product(cs.iter().map(|&c| self.fz[c as usize])), b),
                        b,
                    )
                }
                Node::Or(cs) => {
                    let b = cs.iter().any(|&c| self.crisp[c as usize]);
                    (
                        Self::band(
                            1.0 - Self::product(cs.iter().map(|&c| 1.0 - self.fz[c as usize])),
                            b,
                        ),
                        b,
                    )
                }
            };
            self.fz[i] = fz;
            self.crisp[i] = crisp;
        }
    }

    /// `h(z)` in `[0, 1]` for every role.
    pub fn absolute(&mut self, store: &TermStore, fluents: &[TermId]) -> Vec<f64> {
        self.run(store, fluents);
        let term = self.fz[self.terminal as usize];
        self.goals
            .iter()
            .map(|gs| {
                let (mut num, mut den) = (0.0, 0.0);
                for &(gv, node) in gs {
                    let g = self.fz[node as usize];
                    // goal ∨ terminal if the goal holds, else goal ∧ ¬terminal.
                    let h = if self.crisp[node as usize] {
                        Self::band(1.0 - (1.0 - g) * (1.0 - term), true)
                    } else {
                        Self::band(g * (1.0 - term), false)
                    };
                    num += gv as f64 * h;
                    den += gv as f64;
                }
                if den > 0.0 {
                    num / den
                } else {
                    0.5
                }
            })
            .collect()
    }

    /// The heuristic value of every role, in `[1, 99]`.
    pub fn values(&mut self, store: &TermStore, fluents: &[TermId]) -> Vec<f64> {
        let h = self.absolute(store, fluents);
        if h.len() < 2 {
            return h.into_iter().map(scale).collect();
        }
        (0..h.len())
            .map(|r| {
                let other = (0..h.len())
                    .filter(|&o| o != r)
                    .map(|o| h[o])
                    .fold(0.0, f64::max);
                scale((1.0 + h[r] - other) / 2.0)
            })
            .collect()
    }

    /// Forgets the last state's values and the geometry of fluents interned
    /// since the build (see `Heuristic::forget_terms`).
    pub fn forget_terms(&mut self) {
        self.cached = None;
        self.geo.forget_terms();
    }

    /// The value for `role` of the state whose fluents are `fl` (sorted),
    /// in `[1, 99]`; the last state's values are kept (a search asks for
    /// one state once per role).
    pub fn value_for(&mut self, store: &TermStore, fl: Vec<TermId>, role: usize) -> f64 {
        if let Some((f, v)) = &self.cached {
            if *f == fl {
                return v.get(role).copied().unwrap_or(50.0);
            }
        }
        let v = self.values(store, &fl);
        let out = v.get(role).copied().unwrap_or(50.0);
        self.cached = Some((fl, v));
        out
    }
}
