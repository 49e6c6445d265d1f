//! The thesis's evaluation function f_JO (3.4) and the planning distances
//! h_FF, h_add, h_max (3.3) as search heuristics, on the relaxed planning
//! problem of `crate::plan` (built once per game; each state only resets
//! the graph's counters).
//!
//! `f_JO(s) = Σ_q (q − 50) / dist(s, T_q)` over the goal values `q` of the
//! role that occur in the rules, with `dist` = h_FF to `T_q = goal(role, q) ∧
//! terminal`; an unreachable `T_q` contributes 0; in a terminal state
//! `f_JO(s) = g(s) − 50`. **Guard:** a distance of 0 in a non-terminal state
//! (the relaxed plan needs no operator that costs, e.g. `terminal` only
//! through a dropped negation) counts as 1, since at least one more joint
//! move is needed to end the game.
//!
//! As heuristics in `[1, 99]`: `fjo` maps `f_JO ∈ [−M, M]` linearly, with
//! `M = Σ_q |q − 50|`; `hff`, `hadd`, `hmax` map the distance `d` to the
//! role's best goal value as `1 / (1 + d)` (unreachable: 0).

use super::scale;
use crate::error::HeuristicError;
use crate::evaluation::Heuristic;
pub use crate::evaluation::{Details, GoalDistance};
use crate::ground::Budget as GroundBudget;
/// The action costs of the relaxed planning problem ([`PlanHeuristic::build_with`]).
pub use crate::plan::Costs;
use crate::plan::{Graph, Problem, INF};
use crate::program::Program;
use crate::reasoner::{EvalError, StateMachine};
use crate::terms::TermId;
use rustc_hash::FxHashMap;

/// The action costs `explain` and the planning heuristics can use
/// (`--costs`): `default` is thesis 4.5 ([`Costs::THESIS`]: a `next` rule
/// without `does` costs 1); `thesis` makes those rules free
/// ([`THESIS_TABLE`]), which reproduces the thesis's tic-tac-toe table (every
/// first move 25/3; `docs/planning.md`, deviation 2).
pub const COST_PRESETS: [&str; 2] = ["default", "thesis"];

/// The costs of the `thesis` preset: 4.5's, with the world's own changes
/// (turn passing, step counters) free.
pub const THESIS_TABLE: Costs = Costs {
    world: 0,
    ..Costs::THESIS
};

/// The costs of a preset of [`COST_PRESETS`].
pub fn costs_named(name: &str) -> Result<Costs, HeuristicError> {
    match name {
        "default" | "" => Ok(Costs::THESIS),
        "thesis" => Ok(THESIS_TABLE),
        other => Err(HeuristicError::UnknownCosts {
            name: other.into(),
            known: COST_PRESETS.join(", "),
        }),
    }
}

/// A planning heuristic's name with its costs: `fjo`, or `fjo-thesis` for
/// the `thesis` preset (a name, so that every `heuristic=` option, the tree
/// view's leaves included, can ask for it). None: not a planning heuristic.
pub fn parse_spec(name: &str) -> Option<(Measure, Costs)> {
    match name.strip_suffix("-thesis") {
        Some(base) => Measure::parse(base).map(|m| (m, THESIS_TABLE)),
        None => Measure::parse(name).map(|m| (m, Costs::THESIS)),
    }
}

/// `heuristic` with the costs of preset `costs` (`explain --costs`): a
/// planning heuristic's name gets `-thesis` for the `thesis` preset; other
/// heuristics have no costs and keep their name.
pub fn with_costs(heuristic: &str, costs: Option<&str>) -> Result<String, HeuristicError> {
    let Some(preset) = costs else {
        return Ok(heuristic.to_string());
    };
    let costs = costs_named(preset)?;
    Ok(match parse_spec(heuristic) {
        Some((m, _)) if costs == THESIS_TABLE => format!("{}-thesis", m.name()),
        Some((m, _)) => m.name().to_string(),
        None => heuristic.to_string(),
    })
}

/// Which number of the relaxed planning graph a [`PlanHeuristic`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    Fjo,
    Hff,
    Hadd,
    Hmax,
}

impl Measure {
    pub fn parse(name: &str) -> Option<Measure> {
        Some(match name {
            "fjo" | "f_jo" | "coolerjo" => Measure::Fjo,
            "hff" | "h_ff" | "ff" => Measure::Hff,
            "hadd" | "h_add" => Measure::Hadd,
            "hmax" | "h_max" => Measure::Hmax,
            _ => return None,
        })
    }
    pub fn name(self) -> &'static str {
        match self {
            Measure::Fjo => "fjo",
            Measure::Hff => "hff",
            Measure::Hadd => "hadd",
            Measure::Hmax => "hmax",
        }
    }
}

/// f_JO, h_FF, h_add or h_max as a heuristic.
pub struct PlanHeuristic {
    pub measure: Measure,
    /// The measure's name, `-thesis` added with the `thesis` costs.
    name: String,
    pub problem: Problem,
    graph: Graph,
    /// The machine's fluent ids → the problem's variables (`u32::MAX`: none).
    var_of: FxHashMap<TermId, u32>,
    vars: Vec<u32>,
}

fn opt(d: u32) -> Option<u32> {
    (d != INF).then_some(d)
}

impl PlanHeuristic {
    /// Grounds `program` into the relaxed problem (thesis costs).
    pub fn build<M: StateMachine>(
        program: &Program,
        measure: Measure,
        m: &mut M,
    ) -> Result<PlanHeuristic, HeuristicError> {
        PlanHeuristic::build_with(program, measure, m, Costs::THESIS)
    }

    /// [`PlanHeuristic::build`] with other operator costs.
    pub fn build_with<M: StateMachine>(
        program: &Program,
        measure: Measure,
        m: &mut M,
        costs: Costs,
    ) -> Result<PlanHeuristic, HeuristicError> {
        let plan_error = |message: String| HeuristicError::Plan {
            measure: measure.name(),
            message,
        };
        let problem = Problem::build(program, GroundBudget::default(), costs)
            .map_err(|e| plan_error(e.to_string()))?;
        if problem.roles.len() != m.roles().len() {
            return Err(plan_error("roles differ".into()));
        }
        let graph = Graph::new(&problem);
        Ok(PlanHeuristic {
            name: if costs == THESIS_TABLE {
                format!("{}-thesis", measure.name())
            } else {
                measure.name().to_string()
            },
            measure,
            problem,
            graph,
            var_of: FxHashMap::default(),
            vars: Vec::new(),
        })
    }

    /// The graph (to read distances of other variables after an evaluation).
    pub fn graph(&mut self) -> (&Problem, &mut Graph) {
        (&self.problem, &mut self.graph)
    }

    /// Evaluations of the planning graph so far.
    pub fn evaluations(&self) -> u64 {
        self.graph.evaluations
    }

    /// Loads a state's fluents into the graph.
    pub fn load<M: StateMachine>(&mut self, m: &M, s: &M::State) {
        self.vars.clear();
        for f in m.fluents(s) {
            let v = *self.var_of.entry(f).or_insert_with(|| {
                let t = crate::terms::copy_term(m.terms(), f, &mut self.problem.store);
                self.problem.fluent_var.get(&t).copied().unwrap_or(u32::MAX)
            });
            if v != u32::MAX {
                self.vars.push(v);
            }
        }
        self.graph.set_state(&self.vars);
    }

    /// Raw f_JO of a non-terminal state (after `load`).
    fn fjo_loaded(&mut self, role: usize) -> f64 {
        self.graph.run_hmax(&self.problem);
        self.graph.run_hadd(&self.problem);
        let mut sum = 0.0;
        for i in 0..self.problem.goals[role].len() {
            let (q, t) = self.problem.goals[role][i];
            let d = self.graph.hff(&self.problem, t, None);
            if d != INF {
                sum += (q - 50) as f64 / d.max(1) as f64;
            }
        }
        sum
    }

    /// Raw f_JO of a non-terminal state.
    pub fn fjo<M: StateMachine>(&mut self, m: &M, s: &M::State, role: usize) -> f64 {
        self.load(m, s);
        self.fjo_loaded(role)
    }

    /// Every goal distance of a state (non-terminal) for `role`, and the
    /// value of the measure.
    pub fn details<M: StateMachine>(&mut self, m: &M, s: &M::State, role: usize) -> Details {
        self.load(m, s);
        self.graph.run_hmax(&self.problem);
        self.graph.run_hadd(&self.problem);
        let mut goals = Vec::new();
        let mut fjo = 0.0;
        for i in 0..self.problem.goals[role].len() {
            let (q, t) = self.problem.goals[role][i];
            let mut plan = Vec::new();
            let ff = self.graph.hff(&self.problem, t, Some(&mut plan));
            if ff != INF {
                fjo += (q - 50) as f64 / ff.max(1) as f64;
            }
            let p = &self.problem;
            goals.push(GoalDistance {
                goal: q,
                q: q - 50,
                h_max: opt(self.graph.hmax(t)),
                h_add: opt(self.graph.hadd(t)),
                h_ff: opt(ff),
                plan: plan
                    .iter()
                    .map(|st| {
                        let mv = p.store.display(st.mv);
                        if st.role as usize == role {
                            mv
                        } else {
                            format!("{}: {mv}", p.store.display(p.roles[st.role as usize]))
                        }
                    })
                    .collect(),
                plan_cells: Vec::new(),
            });
        }
        let best = goals.iter().max_by_key(|g| g.goal);
        let value = match self.measure {
            Measure::Fjo => Some(fjo),
            Measure::Hff => best.and_then(|g| g.h_ff).map(f64::from),
            Measure::Hadd => best.and_then(|g| g.h_add).map(f64::from),
            Measure::Hmax => best.and_then(|g| g.h_max).map(f64::from),
        };
        Details { value, goals }
    }

    /// Distance to the role's best goal value under the measure (loaded).
    fn best_distance(&mut self, role: usize) -> u32 {
        let Some(&(_, t)) = self.problem.goals[role].iter().max_by_key(|g| g.0) else {
            return INF;
        };
        self.graph.run_hmax(&self.problem);
        match self.measure {
            Measure::Hmax => self.graph.hmax(t),
            Measure::Hadd => {
                self.graph.run_hadd(&self.problem);
                self.graph.hadd(t)
            }
            _ => {
                self.graph.run_hadd(&self.problem);
                self.graph.hff(&self.problem, t, None)
            }
        }
    }

    /// `M = Σ_q |q − 50|`, the bound of |f_JO| for the role.
    fn fjo_bound(&self, role: usize) -> f64 {
        self.problem.goals[role]
            .iter()
            .map(|&(q, _)| (q - 50).abs() as f64)
            .sum()
    }
}

impl<M: StateMachine> Heuristic<M> for PlanHeuristic {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn forget_terms(&mut self) {
        self.var_of.clear();
    }
    fn evaluate(&mut self, m: &mut M, s: &M::State, role: usize) -> Result<f64, EvalError> {
        self.load(m, s);
        Ok(match self.measure {
            Measure::Fjo => {
                let bound = self.fjo_bound(role);
                if bound == 0.0 {
                    scale(0.5)
                } else {
                    scale((self.fjo_loaded(role) + bound) / (2.0 * bound))
                }
            }
            _ => {
                let d = self.best_distance(role);
                scale(if d == INF {
                    0.0
                } else {
                    1.0 / (1.0 + d as f64)
                })
            }
        })
    }
    fn details(
        &mut self,
        m: &mut M,
        s: &M::State,
        role: usize,
    ) -> Result<Option<Details>, EvalError> {
        Ok(Some(PlanHeuristic::details(self, m, s, role)))
    }
}

/// The thesis's player CoolerJo (4.6) with f_JO: best-first search
/// (3.2.1) for one role; alpha-beta with iterative deepening for more, in
/// the `auto` mode (two-player zero-sum: minimax; two-player turn-taking
/// otherwise: each mover maximises its own f_JO, the thesis's 3.2.3;
/// more roles or simultaneous moves: paranoid, where the thesis refused).
pub fn coolerjo<M: StateMachine + 'static>(
    program: &Program,
    m: &mut M,
    budget: super::Budget,
) -> Result<Box<dyn super::Player<M>>, HeuristicError> {
    let h = Box::new(PlanHeuristic::build(program, Measure::Fjo, m)?);
    if m.roles().len() == 1 {
        return Ok(Box::new(super::bestfirst::BestFirst::new(h, budget)));
    }
    let cfg = super::alphabeta::Config {
        budget,
        mode: super::alphabeta::Mode::Auto,
        ..super::alphabeta::Config::default()
    };
    Ok(Box::new(super::alphabeta::AlphaBeta::new(h, cfg)))
}
