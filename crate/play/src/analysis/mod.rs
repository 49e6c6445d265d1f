//! Semantic validator: proves or refutes the well-formedness properties of
//! the GDL lecture ("Definition: Terminierung" to "Wohlgeformtes Spiel") on
//! the game itself, over any [`StateMachine`].
//!
//! - **Exhaustive mode**: the reachable state graph is explored breadth-first
//!   (states hashed and deduplicated, adjacency in flat vectors) while it
//!   fits [`Options::max_states`]; every property is then proved or refuted.
//! - **Sampled mode**, when the graph is larger: the breadth-first prefix
//!   already explored is kept (cycles, goal and playability violations found
//!   there are real), then random playouts with a depth limit. Universal
//!   properties are never claimed: `holds` stays `None` unless refuted, and
//!   the detail says "no counterexample in N playouts of depth ≤ D".
//!   Existential properties (weak winnability, a forced win, a one-player
//!   solution) are `true` as soon as a witness is found: a witness is a proof
//!   in either mode.
//!
//! Every refutation of a property about reachable states carries a
//! counterexample: the joint moves from the initial state (canonical move
//! text, one per role in role order) that reach the violation, which
//! `replay::replay` can check. Weak and strong winnability are refuted by
//! the absence of any winning play, so they have no sequence to show; their
//! detail explains.
//!
//! [`AnalysisJob`] is resumable: `step(budget)` does a bounded amount of work
//! and returns [`Progress`], so a Web Worker can show progress and cancel;
//! [`analyze`] runs a job to completion.
//!
//! Strong winnability is read as the lecture's "some role can reach its 100
//! whatever the others do": a strategy (an AND-OR least fixpoint where the
//! role picks its move and every combination of the others' simultaneous
//! moves must stay winning), not one fixed move list.

mod diagnostics;
mod graph;
mod report;
mod sample;

pub use diagnostics::{codes, to_diagnostics, to_diagnostics_located};
pub use report::{format_moves, Properties, Property, Report, Summary};

use crate::reasoner::{EvalError, StateMachine};
use crate::terms::TermId;
use graph::{goal_cell, Graph, Reverse, MANY_GOALS, NONE};
use sample::Sampling;
use serde::Serialize;

/// How much the analysis may do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Exhaustive mode only while the reachable states number at most this.
    pub max_states: usize,
    /// Exhaustive mode only while the edges (joint moves) number at most this.
    pub max_edges: usize,
    /// Random playouts in sampled mode.
    pub playouts: usize,
    /// Joint moves per playout at most.
    pub playout_depth: usize,
    /// Seed of the playouts (results are reproducible for a seed).
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options::with_budget(2_000_000)
    }
}

impl Options {
    /// Default options for a budget of `max_states` states, with room for
    /// 20 joint moves per state on average (at least 10,000 in all).
    pub fn with_budget(max_states: usize) -> Options {
        let max_edges = max_states
            .saturating_mul(20)
            .clamp(10_000, u32::MAX as usize - 1);
        Options {
            max_states,
            max_edges,
            playouts: 200,
            playout_depth: 1000,
            seed: 1,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "AnalysisMode"))]
pub enum Mode {
    /// The whole reachable state graph was explored: everything is settled.
    Exhaustive,
    /// The exploration did not cover the whole graph (over budget, stopped,
    /// or an evaluation limit): only refutations and witnesses are certain.
    Sampled,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Exhaustive => "exhaustive",
            Mode::Sampled => "sampled",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "AnalysisPhase")
)]
pub enum Phase {
    /// Breadth-first exploration of the reachable states.
    Exploring,
    /// Graph algorithms over the explored states (cycles, forced wins).
    Checking,
    /// Random playouts (the graph did not fit the budget).
    Sampling,
    Done,
}

/// Where a job is; cheap to produce after every step.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename_all = "camelCase", rename = "AnalysisProgress")
)]
pub struct Progress {
    pub phase: Phase,
    /// Mode as far as known (`exhaustive` until the budget is exceeded).
    pub mode: Mode,
    /// Distinct states found so far.
    pub states: u64,
    /// States expanded by the exploration.
    pub expanded: u64,
    pub terminal_states: u64,
    pub max_states: u64,
    pub playouts: u64,
    pub max_playouts: u64,
    /// Work units done (state expansions weighted by joint moves, playout steps).
    pub work: u64,
    pub done: bool,
}

/// Runs an analysis to completion.
pub fn analyze<M: StateMachine>(m: M, options: Options) -> Report {
    let mut job = AnalysisJob::new(m, options);
    while !job.step(1 << 20).done {}
    job.report().cloned().expect("a finished job has a report")
}

/// Every role's legal moves, sorted by term id and deduplicated, so the
/// joint-move order of a state does not depend on evaluation order.
fn sorted_legal<M: StateMachine>(m: &mut M, s: &M::State) -> Result<Vec<Vec<TermId>>, EvalError> {
    let mut legal = m.all_legal_moves(s)?;
    for moves in &mut legal {
        moves.sort_unstable();
        moves.dedup();
    }
    Ok(legal)
}

/// Number of joint moves (saturating).
fn joint_count(legal: &[Vec<TermId>]) -> u64 {
    legal
        .iter()
        .fold(1u64, |acc, l| acc.saturating_mul(l.len() as u64))
}

/// Joint move number `j` of the cartesian product (first role slowest).
fn joint_at(legal: &[Vec<TermId>], mut j: u64, out: &mut Vec<TermId>) {
    out.clear();
    out.resize(legal.len(), TermId::NONE);
    for r in (0..legal.len()).rev() {
        let c = legal[r].len() as u64;
        out[r] = legal[r][(j % c) as usize];
        j /= c;
    }
}

fn plural(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// Detail of a cycle found after `prefix` joint moves, `len` moves long.
fn cycle_text(prefix: usize, len: usize) -> String {
    let start = if prefix == 0 {
        "the initial state".to_string()
    } else {
        format!("the state after joint move {prefix}")
    };
    format!(
        "{start} is reached again after joint move {}: a cycle of {} through non-terminal states, so a play can go on forever",
        prefix + len,
        plural(len as u64, "joint move", "joint moves")
    )
}

/// Builds a counterexample on demand (only when a finding is new).
type MovesFn<'a, J> = dyn FnMut(&mut J) -> Result<Vec<Vec<String>>, EvalError> + 'a;

/// A refutation found on the way.
#[derive(Clone, Debug)]
struct Finding {
    moves: Vec<Vec<String>>,
    detail: String,
}

/// What exploration and playouts found; first (shallowest) finding wins.
#[derive(Default)]
struct Findings {
    cycle: Option<Finding>,
    unplayable: Option<Finding>,
    goals: Option<Finding>,
    /// Terminal states seen with a goal problem.
    bad_terminals: u64,
    monotone: Option<Finding>,
    witness: Vec<Option<Vec<Vec<String>>>>,
    /// Best goal value seen per role in a terminal state.
    best_terminal_goal: Vec<Option<i64>>,
    /// Roles whose forced win is proved.
    winners: Vec<usize>,
    /// Set by the check of a complete graph.
    longest_play: Option<u64>,
    checked: bool,
}

/// A resumable analysis. Owns the state machine ([`AnalysisJob::machine_mut`]
/// gives it back, e.g. to replay a counterexample).
pub struct AnalysisJob<M: StateMachine> {
    m: M,
    opts: Options,
    roles: Vec<String>,
    /// GDL-II's `random` role: it has no goals, and winning is not its
    /// concern, so goal and winnability checks skip it.
    chance: Option<usize>,
    phase: Phase,
    mode: Mode,
    g: Graph<M::State>,
    terminal_count: u64,
    f: Findings,
    sampling: Sampling<M::State>,
    rng: fastrand::Rng,
    work: u64,
    error: Option<String>,
    stopped: bool,
    report: Option<Report>,
}

impl<M: StateMachine> AnalysisJob<M> {
    pub fn new(m: M, opts: Options) -> AnalysisJob<M> {
        let roles: Vec<String> = m.roles().iter().map(|&r| m.terms().display(r)).collect();
        let n = roles.len();
        let rng = fastrand::Rng::with_seed(opts.seed);
        AnalysisJob {
            chance: crate::reasoner::chance_role(&m),
            m,
            opts,
            phase: Phase::Exploring,
            mode: Mode::Exhaustive,
            g: Graph::new(n),
            terminal_count: 0,
            f: Findings {
                witness: vec![None; n],
                best_terminal_goal: vec![None; n],
                ..Findings::default()
            },
            sampling: Sampling::new(),
            rng,
            work: 0,
            error: None,
            stopped: false,
            report: None,
            roles,
        }
    }

    pub fn machine_mut(&mut self) -> &mut M {
        &mut self.m
    }

    pub fn into_machine(self) -> M {
        self.m
    }

    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// The report, once done.
    pub fn report(&self) -> Option<&Report> {
        self.report.as_ref()
    }

    pub fn progress(&self) -> Progress {
        Progress {
            phase: self.phase,
            mode: self.mode,
            states: self.states_found(),
            expanded: self.g.expanded() as u64,
            terminal_states: self.terminals_found(),
            max_states: self.opts.max_states as u64,
            playouts: self.sampling.playouts,
            max_playouts: if self.mode == Mode::Sampled {
                self.opts.playouts as u64
            } else {
                0
            },
            work: self.work,
            done: self.phase == Phase::Done,
        }
    }

    fn states_found(&self) -> u64 {
        self.g.len() as u64 + self.sampling.seen.len() as u64
    }

    fn terminals_found(&self) -> u64 {
        self.terminal_count + self.sampling.seen_terminal.len() as u64
    }

    /// Does about `budget` units of work (at least one): a state expansion
    /// costs 1 + its joint moves, a playout step 1, the graph checks 3.
    /// Returns early when the phase changes, so a progress display sees
    /// every phase.
    pub fn step(&mut self, budget: u64) -> Progress {
        let start = self.work;
        let phase = self.phase;
        while self.phase == phase
            && self.phase != Phase::Done
            && (self.work == start || self.work - start < budget)
        {
            let r = match self.phase {
                Phase::Exploring => self.explore_one(),
                Phase::Checking => self.check_graph(),
                Phase::Sampling => self.sample_one(),
                Phase::Done => Ok(()),
            };
            if let Err(e) = r {
                self.fail(e);
            }
        }
        self.progress()
    }

    /// Ends the breadth-first exploration early (its share of the time is
    /// used up): the states found so far are checked and random playouts
    /// follow, as when the state budget is exceeded.
    pub fn end_exploration(&mut self) {
        if self.phase == Phase::Exploring {
            self.mode = Mode::Sampled;
            self.phase = Phase::Checking;
        }
    }

    /// Cancels the job but keeps what it found: checks the states explored
    /// so far (linear time) and finishes with a report in which every
    /// property not refuted or witnessed yet is not established.
    pub fn stop(&mut self) -> Progress {
        if self.phase == Phase::Done {
            return self.progress();
        }
        self.stopped = true;
        if self.phase == Phase::Exploring {
            self.mode = Mode::Sampled;
            self.phase = Phase::Checking;
        }
        if self.phase == Phase::Checking {
            if let Err(e) = self.check_graph() {
                self.fail(e);
            }
        }
        if self.phase != Phase::Done {
            self.finish();
        }
        self.progress()
    }

    /// An evaluation error ends the job; an unfinished exploration is not
    /// exhaustive.
    fn fail(&mut self, e: EvalError) {
        self.error = Some(e.to_string());
        if self.phase == Phase::Exploring || (self.phase == Phase::Checking && !self.f.checked) {
            self.mode = Mode::Sampled;
        }
        self.finish();
    }

    fn finish(&mut self) {
        self.phase = Phase::Done;
        self.sampling.walk = None;
        self.report = Some(self.build_report());
    }

    // ---- conversions ------------------------------------------------------

    fn show_joint(&self, joint: &[TermId]) -> Vec<String> {
        joint.iter().map(|&t| self.m.terms().display(t)).collect()
    }

    /// Canonical text of the joint moves along a graph path.
    fn path_moves(&mut self, path: &[(u32, u32)]) -> Result<Vec<Vec<String>>, EvalError> {
        let mut out = Vec::with_capacity(path.len());
        let mut joint = Vec::new();
        for &(v, j) in path {
            let s = self.g.states[v as usize].clone();
            let legal = sorted_legal(&mut self.m, &s)?;
            joint_at(&legal, j as u64, &mut joint);
            out.push(self.show_joint(&joint));
        }
        Ok(out)
    }

    fn where_(moves: usize) -> String {
        match moves {
            0 => "in the initial state".to_string(),
            1 => "after 1 joint move".to_string(),
            n => format!("after {n} joint moves"),
        }
    }

    /// Records the first reachable non-terminal state where `role` has no
    /// legal move; `moves` builds the counterexample only when needed.
    fn note_unplayable(
        &mut self,
        role: usize,
        depth: usize,
        moves: &mut MovesFn<'_, Self>,
    ) -> Result<(), EvalError> {
        if self.f.unplayable.is_none() {
            let detail = format!(
                "role {} has no legal move in a reachable non-terminal state ({})",
                self.roles[role],
                Self::where_(depth)
            );
            self.f.unplayable = Some(Finding {
                moves: moves(self)?,
                detail,
            });
        }
        Ok(())
    }

    /// Records what the goal values of a reachable state show; `moves` builds
    /// the counterexample only when needed.
    fn note_goals(
        &mut self,
        terminal: bool,
        fresh: bool,
        values: &[Vec<i64>],
        depth: usize,
        moves: &mut MovesFn<'_, Self>,
    ) -> Result<(), EvalError> {
        let chance = self.chance;
        let bad = (0..values.len()).find(|&r| values[r].len() != 1 && Some(r) != chance);
        let describe = |roles: &[String], r: usize, v: &[i64]| -> String {
            if v.is_empty() {
                format!("role {} has no goal value", roles[r])
            } else {
                let vals: Vec<String> = v.iter().map(i64::to_string).collect();
                format!(
                    "role {} has {} goal values ({})",
                    roles[r],
                    v.len(),
                    vals.join(", ")
                )
            }
        };
        if let Some(r) = bad {
            if terminal {
                self.f.bad_terminals += fresh as u64;
                if self.f.goals.is_none() {
                    let detail = format!(
                        "{} in a reachable terminal state ({})",
                        describe(&self.roles, r, &values[r]),
                        Self::where_(depth)
                    );
                    self.f.goals = Some(Finding {
                        moves: moves(self)?,
                        detail,
                    });
                }
            }
            if self.f.monotone.is_none() {
                let detail = format!(
                    "{} in a reachable state ({})",
                    describe(&self.roles, r, &values[r]),
                    Self::where_(depth)
                );
                self.f.monotone = Some(Finding {
                    moves: moves(self)?,
                    detail,
                });
            }
        }
        if terminal {
            for (r, vals) in values.iter().enumerate() {
                let best = vals.iter().copied().max();
                if best > self.f.best_terminal_goal[r] {
                    self.f.best_terminal_goal[r] = best;
                }
                if best == Some(100) && self.f.witness[r].as_ref().is_none_or(|w| w.len() > depth) {
                    self.f.witness[r] = Some(moves(self)?);
                }
            }
        }
        Ok(())
    }

    // ---- exhaustive exploration ---------------------------------------------

    fn explore_one(&mut self) -> Result<(), EvalError> {
        if self.g.len() == 0 {
            let s0 = self.m.initial_state()?;
            self.g.intern(s0, NONE, 0);
        }
        let v = self.g.expanded();
        if v == self.g.len() {
            self.phase = Phase::Checking;
            return Ok(());
        }
        let s = self.g.states[v].clone();
        let terminal = self.m.is_terminal(&s)?;
        let values = self.m.goal_values(&s)?;
        let cells: Vec<i64> = values.iter().map(|v| goal_cell(v)).collect();
        let depth = self.g.depth[v] as usize;
        let mut moves = |job: &mut Self| {
            let path = job.g.path_to(v as u32);
            job.path_moves(&path)
        };
        self.note_goals(terminal, true, &values, depth, &mut moves)?;
        if terminal {
            self.g
                .begin_expand(true, &cells, &vec![0; self.roles.len()]);
            self.g.end_expand();
            self.terminal_count += 1;
            self.work += 1;
            return Ok(());
        }
        let legal = sorted_legal(&mut self.m, &s)?;
        let counts: Vec<u32> = legal.iter().map(|l| l.len() as u32).collect();
        if let Some(r) = legal.iter().position(Vec::is_empty) {
            self.note_unplayable(r, depth, &mut moves)?;
            self.g.begin_expand(false, &cells, &counts);
            self.g.end_expand();
            self.work += 1;
            return Ok(());
        }
        let n = joint_count(&legal);
        if self.g.edges.len() as u64 + n > self.opts.max_edges as u64 || n >= u32::MAX as u64 {
            return self.over_budget();
        }
        self.g.begin_expand(false, &cells, &counts);
        let mut joint = Vec::with_capacity(legal.len());
        for j in 0..n {
            joint_at(&legal, j, &mut joint);
            let t = self.m.next_state(&s, &joint)?;
            let (id, _) = self.g.intern(t, v as u32, j as u32);
            self.g.edges.push(id);
        }
        self.g.end_expand();
        self.work += 1 + n;
        if self.g.len() > self.opts.max_states {
            return self.over_budget();
        }
        Ok(())
    }

    fn over_budget(&mut self) -> Result<(), EvalError> {
        self.mode = Mode::Sampled;
        self.phase = Phase::Checking;
        Ok(())
    }

    // ---- graph checks -------------------------------------------------------

    fn check_graph(&mut self) -> Result<(), EvalError> {
        let complete = self.mode == Mode::Exhaustive;
        let exp = self.g.expanded();
        let nroles = self.roles.len();
        // Monotone: no transition lowers a goal value.
        if self.f.monotone.is_none() {
            'scan: for s in 0..exp as u32 {
                for (pos, &t) in self.g.succ(s).iter().enumerate() {
                    if t as usize >= exp {
                        continue;
                    }
                    for r in 0..nroles {
                        let (a, b) = (self.g.goal(s, r), self.g.goal(t, r));
                        if a > MANY_GOALS && b > MANY_GOALS && b < a {
                            let mut path = self.g.path_to(s);
                            path.push((s, pos as u32));
                            let moves = self.path_moves(&path)?;
                            let detail = format!(
                                "the goal value of role {} drops from {a} to {b} on joint move {}",
                                self.roles[r],
                                moves.len()
                            );
                            self.f.monotone = Some(Finding { moves, detail });
                            break 'scan;
                        }
                    }
                }
            }
        }
        self.work += 1;
        // Termination: a cycle among explored states is a real one.
        let (comp, cyclic) = self.g.sccs();
        if let Some(v) = (0..self.g.len() as u32)
            .find(|&v| comp[v as usize] != NONE && cyclic[comp[v as usize] as usize])
        {
            if let Some(cycle) = self.g.shortest_cycle(v, &comp) {
                let mut path = self.g.path_to(v);
                let prefix = path.len();
                path.extend_from_slice(&cycle);
                let moves = self.path_moves(&path)?;
                let detail = cycle_text(prefix, cycle.len());
                self.f.cycle = Some(Finding { moves, detail });
            }
        } else if complete {
            self.f.longest_play = Some(self.g.longest_play(&comp));
        }
        drop(comp);
        self.work += 1;
        // Strong winnability: AND-OR fixpoint per role.
        if nroles > 0 && exp > 0 {
            let rev = Reverse::build(&self.g);
            for r in (0..nroles).filter(|&r| Some(r) != self.chance) {
                let win = self.g.forced_wins(r, &rev);
                if win[0] {
                    self.f.winners.push(r);
                }
            }
        }
        self.work += 1;
        self.f.checked = true;
        if complete {
            self.finish();
        } else {
            self.phase = Phase::Sampling;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
