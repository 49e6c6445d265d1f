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

pub use diagnostics::{codes, to_diagnostics, to_diagnostics_located};

use crate::reasoner::{EvalError, StateMachine};
use crate::terms::TermId;
use graph::{goal_cell, Graph, Reverse, MANY_GOALS, NONE, NO_GOAL};
use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;
use serde_json::Value;

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

/// One property: proved (`Some(true)`), refuted (`Some(false)`, usually with
/// a counterexample) or not established (`None`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "AnalysisProperty")
)]
pub struct Property {
    pub holds: Option<bool>,
    /// Joint moves from the initial state to the violation (canonical move
    /// text per role, role order).
    pub counterexample: Option<Vec<Vec<String>>>,
    pub detail: String,
}

impl Property {
    fn proved(detail: impl Into<String>) -> Property {
        Property {
            holds: Some(true),
            counterexample: None,
            detail: detail.into(),
        }
    }
    fn refuted(counterexample: Option<Vec<Vec<String>>>, detail: impl Into<String>) -> Property {
        Property {
            holds: Some(false),
            counterexample,
            detail: detail.into(),
        }
    }
    fn open(detail: impl Into<String>) -> Property {
        Property {
            holds: None,
            counterexample: None,
            detail: detail.into(),
        }
    }
    pub fn refuted_here(&self) -> bool {
        self.holds == Some(false)
    }
}

/// The result of an analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub mode: Mode,
    /// Distinct reachable states found (all of them in exhaustive mode).
    pub states: u64,
    /// Of which terminal.
    pub terminal_states: u64,
    /// Exhaustive: the largest breadth-first depth (fewest joint moves to
    /// reach the farthest state). Sampled: the deepest state reached by the
    /// exploration or a playout.
    pub max_depth: u64,
    pub terminates: Property,
    pub playable: Property,
    pub goals_defined: Property,
    pub monotone: Property,
    pub weakly_winnable: Property,
    pub strongly_winnable: Property,
    /// Role names (role order).
    pub roles: Vec<String>,
    /// Per role: the shortest known joint-move sequence reaching a terminal
    /// state where the role's goal is 100.
    pub witnesses: Vec<Option<Vec<Vec<String>>>>,
    /// Roles proved to be able to force their 100.
    pub forced_winners: Vec<String>,
    /// Longest play in joint moves (exhaustive mode, acyclic graph).
    pub longest_play: Option<u64>,
    /// Set when the state machine failed (a resource limit): the properties
    /// not settled before are `None`.
    pub error: Option<String>,
}

impl Report {
    /// The six properties with their JSON names.
    pub fn properties(&self) -> [(&'static str, &Property); 6] {
        [
            ("terminates", &self.terminates),
            ("playable", &self.playable),
            ("goals_defined", &self.goals_defined),
            ("monotone", &self.monotone),
            ("weakly_winnable", &self.weakly_winnable),
            ("strongly_winnable", &self.strongly_winnable),
        ]
    }

    /// A well-formedness property (terminates, playable, goals defined,
    /// weakly winnable) is refuted. Monotonicity is only a warning.
    pub fn ill_formed(&self) -> bool {
        [
            &self.terminates,
            &self.playable,
            &self.goals_defined,
            &self.weakly_winnable,
        ]
        .iter()
        .any(|p| p.refuted_here())
    }

    /// `Some(true)` when terminates, playable, goals defined and weakly
    /// winnable all hold, `Some(false)` when one is refuted.
    pub fn well_formed(&self) -> Option<bool> {
        if self.ill_formed() {
            return Some(false);
        }
        let all = [
            &self.terminates,
            &self.playable,
            &self.goals_defined,
            &self.weakly_winnable,
        ];
        all.iter().all(|p| p.holds == Some(true)).then_some(true)
    }

    /// What `gdlkit analyze --format json` and `analyze` in JS report.
    pub fn summary(&self) -> Summary<'_> {
        Summary {
            mode: self.mode,
            states: self.states,
            terminal_states: self.terminal_states,
            max_depth: self.max_depth,
            properties: Properties {
                terminates: &self.terminates,
                playable: &self.playable,
                goals_defined: &self.goals_defined,
                monotone: &self.monotone,
                weakly_winnable: &self.weakly_winnable,
                strongly_winnable: &self.strongly_winnable,
            },
        }
    }

    /// [`Report::summary`] as JSON (the CLI's spelling).
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self.summary()).expect("plain data")
    }
}

/// The report of an analysis as `gdlkit analyze --format json` prints it
/// (`AnalysisReport` in JS).
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "AnalysisReport", rename_all = "camelCase")
)]
pub struct Summary<'a> {
    pub mode: Mode,
    /// Distinct reachable states found (all of them in exhaustive mode).
    pub states: u64,
    /// Of which terminal.
    pub terminal_states: u64,
    /// The largest breadth-first depth (sampled: the deepest state reached).
    pub max_depth: u64,
    pub properties: Properties<'a>,
}

/// The six properties of an analysis (docs/analysis.md).
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(rename = "AnalysisProperties", rename_all = "camelCase")
)]
pub struct Properties<'a> {
    pub terminates: &'a Property,
    pub playable: &'a Property,
    pub goals_defined: &'a Property,
    pub monotone: &'a Property,
    pub weakly_winnable: &'a Property,
    pub strongly_winnable: &'a Property,
}

/// A counterexample as one line: `b, b` (one role) or
/// `[(mark 1 1), noop] [noop, (mark 2 2)]`.
pub fn format_moves(moves: &[Vec<String>]) -> String {
    if moves.is_empty() {
        return "(none: the initial state itself)".to_string();
    }
    if moves.iter().all(|j| j.len() == 1) {
        return moves
            .iter()
            .map(|j| j[0].as_str())
            .collect::<Vec<_>>()
            .join(", ");
    }
    moves
        .iter()
        .map(|j| format!("[{}]", j.join(", ")))
        .collect::<Vec<_>>()
        .join(" ")
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

/// "in each of the 5 reachable terminal states" / "in the reachable terminal state".
fn each(n: u64, what: &str) -> String {
    if n == 1 {
        format!("in the reachable {what} state")
    } else {
        format!("in each of the {n} reachable {what} states")
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

/// A playout in progress.
struct Walk<S> {
    state: S,
    /// States on the path → index (move count when reached).
    on_path: FxHashMap<S, usize>,
    moves: Vec<Vec<TermId>>,
    prev_goals: Vec<i64>,
}

#[derive(Default)]
struct Sampling<S> {
    playouts: u64,
    terminal_ends: u64,
    cut: u64,
    /// States seen by playouts that the exploration did not find.
    seen: FxHashSet<S>,
    seen_terminal: FxHashSet<S>,
    /// Terminal states found by playouts among the exploration's frontier.
    max_len: u64,
    walk: Option<Walk<S>>,
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
            sampling: Sampling {
                playouts: 0,
                terminal_ends: 0,
                cut: 0,
                seen: FxHashSet::default(),
                seen_terminal: FxHashSet::default(),
                max_len: 0,
                walk: None,
            },
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

    // ---- sampling -----------------------------------------------------------

    /// One step of the current random walk. Not `reasoner::random_walk`:
    /// the job is resumable, one step per call (its walk lives in
    /// `self.sampling.walk`), and draws from sorted legal moves so that the
    /// findings do not depend on the engine's move order.
    fn sample_one(&mut self) -> Result<(), EvalError> {
        if self.sampling.playouts >= self.opts.playouts as u64 {
            self.finish();
            return Ok(());
        }
        if self.sampling.walk.is_none() {
            let s0 = self.m.initial_state()?;
            let mut on_path = FxHashMap::default();
            on_path.insert(s0.clone(), 0);
            self.sampling.walk = Some(Walk {
                state: s0,
                on_path,
                moves: Vec::new(),
                prev_goals: vec![NO_GOAL; self.roles.len()],
            });
        }
        self.work += 1;
        let walk = self.sampling.walk.as_ref().expect("walk");
        let s = walk.state.clone();
        let depth = walk.moves.len();
        let terminal = self.m.is_terminal(&s)?;
        let values = self.m.goal_values(&s)?;
        // Count distinct states (the exploration's expanded states are counted there).
        let known = self.g.find(&s);
        let mut fresh = false;
        if known.is_none_or(|id| id as usize >= self.g.expanded()) {
            if known.is_none() {
                self.sampling.seen.insert(s.clone());
            }
            if terminal {
                fresh = self.sampling.seen_terminal.insert(s.clone());
            }
        }
        self.sampling.max_len = self.sampling.max_len.max(depth as u64);
        let mut moves = |job: &mut Self| {
            let walk = job.sampling.walk.as_ref().expect("walk");
            Ok(walk.moves.iter().map(|j| job.show_joint(j)).collect())
        };
        self.note_goals(terminal, fresh, &values, depth, &mut moves)?;
        // Monotone: goal lowered by the last joint move.
        let cells: Vec<i64> = values.iter().map(|v| goal_cell(v)).collect();
        if self.f.monotone.is_none() {
            let walk = self.sampling.walk.as_ref().expect("walk");
            let drop = walk
                .prev_goals
                .iter()
                .zip(&cells)
                .enumerate()
                .find(|(_, (&a, &b))| a > MANY_GOALS && b > MANY_GOALS && b < a)
                .map(|(r, (&a, &b))| (r, a, b));
            if let Some((r, a, b)) = drop {
                let moves = moves(self)?;
                let detail = format!(
                    "the goal value of role {} drops from {a} to {b} on joint move {}",
                    self.roles[r],
                    moves.len()
                );
                self.f.monotone = Some(Finding { moves, detail });
            }
        }
        self.sampling.walk.as_mut().expect("walk").prev_goals = cells;
        if terminal {
            self.sampling.terminal_ends += 1;
            self.end_walk();
            return Ok(());
        }
        if depth >= self.opts.playout_depth {
            self.sampling.cut += 1;
            self.end_walk();
            return Ok(());
        }
        let legal = sorted_legal(&mut self.m, &s)?;
        if let Some(r) = legal.iter().position(Vec::is_empty) {
            self.note_unplayable(r, depth, &mut moves)?;
            self.end_walk();
            return Ok(());
        }
        let joint: Vec<TermId> = legal
            .iter()
            .map(|l| l[crate::reasoner::random_index(&mut self.rng, l.len())])
            .collect();
        let t = self.m.next_state(&s, &joint)?;
        let walk = self.sampling.walk.as_mut().expect("walk");
        walk.moves.push(joint);
        let n = walk.moves.len();
        if let Some(&k) = walk.on_path.get(&t) {
            if self.f.cycle.as_ref().is_none_or(|c| c.moves.len() > n) {
                let moves = moves(self)?;
                let detail = cycle_text(k, n - k);
                self.f.cycle = Some(Finding { moves, detail });
            }
            self.end_walk();
            return Ok(());
        }
        walk.on_path.insert(t.clone(), n);
        walk.state = t;
        Ok(())
    }

    fn end_walk(&mut self) {
        self.sampling.walk = None;
        self.sampling.playouts += 1;
    }

    // ---- the report -----------------------------------------------------------

    fn build_report(&mut self) -> Report {
        let exhaustive = self.mode == Mode::Exhaustive && self.error.is_none() && self.f.checked;
        let nroles = self.roles.len();
        let states = self.states_found();
        let terminals = self.terminals_found();
        let non_terminal = self.g.expanded() as u64 - self.terminal_count;
        let max_depth =
            (self.g.depth.last().copied().unwrap_or(0) as u64).max(self.sampling.max_len);
        // Why a universal property is not established.
        let open = |what: &str, job: &Self| -> String {
            if let Some(e) = &job.error {
                return format!("not established: the analysis stopped ({e})");
            }
            let explored = format!(
                "{} states explored breadth-first (the budget is {}; complete to depth {})",
                job.g.len(),
                job.opts.max_states,
                job.g.complete_depth()
            );
            format!(
                "{}{what}no counterexample in {} playouts of depth ≤ {} ({} reached a terminal state) and {explored}",
                if job.stopped { "stopped early: " } else { "" },
                job.sampling.playouts,
                job.opts.playout_depth,
                job.sampling.terminal_ends
            )
        };
        let from = |f: &Option<Finding>| {
            f.as_ref()
                .map(|f| Property::refuted(Some(f.moves.clone()), f.detail.clone()))
        };

        let terminates = from(&self.f.cycle).unwrap_or_else(|| match (exhaustive, self.f.longest_play) {
            (true, Some(l)) => Property::proved(format!(
                "the reachable state graph is acyclic: every play ends after at most {l} joint move{}",
                if l == 1 { "" } else { "s" }
            )),
            _ => Property::open(open("", self)),
        });
        let playable = from(&self.f.unplayable).unwrap_or_else(|| {
            if exhaustive {
                Property::proved(format!(
                    "every role has a legal move {}",
                    each(non_terminal, "non-terminal")
                ))
            } else {
                Property::open(open("", self))
            }
        });
        let goals_defined = match &self.f.goals {
            Some(f) => Property::refuted(
                Some(f.moves.clone()),
                format!(
                    "{}; {} of the {} {} terminal states {} this problem",
                    f.detail,
                    self.f.bad_terminals,
                    terminals,
                    if exhaustive { "reachable" } else { "found" },
                    if self.f.bad_terminals == 1 {
                        "has"
                    } else {
                        "have"
                    }
                ),
            ),
            None if exhaustive => Property::proved(format!(
                "every role has exactly one goal value {}",
                each(terminals, "terminal")
            )),
            None => Property::open(open("", self)),
        };
        let monotone = from(&self.f.monotone).unwrap_or_else(|| {
            if exhaustive {
                Property::proved(format!(
                    "every role has exactly one goal value in each of the {states} reachable states, and no joint move lowers it"
                ))
            } else {
                Property::open(open("", self))
            }
        });
        let missing: Vec<usize> = (0..nroles)
            .filter(|&r| self.f.witness[r].is_none() && Some(r) != self.chance)
            .collect();
        let witness_text = |job: &Self| -> String {
            if nroles == 1 {
                let w = job.f.witness[0].as_ref().expect("witness");
                let shown = if w.len() <= 30 {
                    format!(": {}", format_moves(w))
                } else {
                    String::new()
                };
                format!(
                    "role {} reaches goal 100 after {} move{}{shown}",
                    job.roles[0],
                    w.len(),
                    if w.len() == 1 { "" } else { "s" }
                )
            } else {
                let parts: Vec<String> = (0..nroles)
                    .filter(|&r| Some(r) != job.chance)
                    .map(|r| {
                        format!(
                            "{} after {}",
                            job.roles[r],
                            job.f.witness[r].as_ref().map_or(0, Vec::len)
                        )
                    })
                    .collect();
                format!(
                    "every role can reach goal 100 (joint moves needed: {})",
                    parts.join(", ")
                )
            }
        };
        let weakly_winnable = if missing.is_empty() {
            Property::proved(witness_text(self))
        } else if exhaustive {
            let r = missing[0];
            let best = match self.f.best_terminal_goal[r] {
                Some(b) => format!("its best goal value there is {b}"),
                None => "it has no goal value in any of them".to_string(),
            };
            let detail = if terminals == 0 {
                "no terminal state is reachable, so no role can reach goal 100".to_string()
            } else {
                format!(
                    "role {} reaches goal 100 in none of the {terminals} reachable terminal states ({best})",
                    self.roles[r]
                )
            };
            Property::refuted(None, detail)
        } else {
            let names: Vec<&str> = missing.iter().map(|&r| self.roles[r].as_str()).collect();
            Property::open(open(
                &format!(
                    "no play reaching goal 100 found yet for {}; ",
                    names.join(", ")
                ),
                self,
            ))
        };
        let mut winners = self.f.winners.clone();
        if nroles == 1 && self.f.witness[0].is_some() && winners.is_empty() {
            winners.push(0); // a one-player witness is a solution
        }
        let strongly_winnable = if !winners.is_empty() {
            if nroles == 1 {
                let len = self.f.witness[0].as_ref().map_or(0, Vec::len);
                Property::proved(format!(
                    "solvable: role {} can reach goal 100 (in {len} moves)",
                    self.roles[0]
                ))
            } else {
                let names: Vec<&str> = winners.iter().map(|&r| self.roles[r].as_str()).collect();
                Property::proved(format!(
                    "{} can force goal 100 whatever the other roles do",
                    names.join(" and ")
                ))
            }
        } else if exhaustive {
            if nroles == 1 {
                Property::refuted(
                    None,
                    format!(
                        "not solvable: no reachable terminal state gives role {} goal 100",
                        self.roles[0]
                    ),
                )
            } else if nroles == 0 {
                Property::refuted(None, "the game has no roles")
            } else {
                Property::refuted(
                    None,
                    "no role can force goal 100: the other roles can always prevent it",
                )
            }
        } else {
            Property::open(open(
                "no forced win found among the explored states; ",
                self,
            ))
        };
        Report {
            mode: self.mode,
            states,
            terminal_states: terminals,
            max_depth,
            terminates,
            playable,
            goals_defined,
            monotone,
            weakly_winnable,
            strongly_winnable,
            roles: self.roles.clone(),
            witnesses: self.f.witness.clone(),
            forced_winners: winners.iter().map(|&r| self.roles[r].clone()).collect(),
            longest_play: self.f.longest_play.filter(|_| exhaustive),
            error: self.error.clone(),
        }
    }
}

#[cfg(test)]
mod tests;
