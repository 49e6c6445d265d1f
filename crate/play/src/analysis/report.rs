//! The report of an analysis: its properties, proved, refuted or open, with
//! the detail and counterexample of each, and the JSON summary the CLI and
//! JS print.

use super::{AnalysisJob, Finding, Mode};
use crate::reasoner::StateMachine;
use serde::Serialize;
use serde_json::Value;

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
    pub(super) fn proved(detail: impl Into<String>) -> Property {
        Property {
            holds: Some(true),
            counterexample: None,
            detail: detail.into(),
        }
    }
    pub(super) fn refuted(
        counterexample: Option<Vec<Vec<String>>>,
        detail: impl Into<String>,
    ) -> Property {
        Property {
            holds: Some(false),
            counterexample,
            detail: detail.into(),
        }
    }
    pub(super) fn open(detail: impl Into<String>) -> Property {
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

/// "in each of the 5 reachable terminal states" / "in the reachable terminal state".
fn each(n: u64, what: &str) -> String {
    if n == 1 {
        format!("in the reachable {what} state")
    } else {
        format!("in each of the {n} reachable {what} states")
    }
}

/// A finding as a refuted property.
fn refutation(f: &Option<Finding>) -> Option<Property> {
    f.as_ref()
        .map(|f| Property::refuted(Some(f.moves.clone()), f.detail.clone()))
}

/// What the report's properties are built from.
struct Counts {
    /// Everything was explored and checked without an error.
    exhaustive: bool,
    states: u64,
    terminals: u64,
}

impl<M: StateMachine> AnalysisJob<M> {
    pub(super) fn build_report(&mut self) -> Report {
        let c = Counts {
            exhaustive: self.mode == Mode::Exhaustive && self.error.is_none() && self.f.checked,
            states: self.states_found(),
            terminals: self.terminals_found(),
        };
        let max_depth =
            (self.g.depth.last().copied().unwrap_or(0) as u64).max(self.sampling.max_len);
        let terminates = self.terminates(&c);
        let playable = self.playable(&c);
        let goals_defined = self.goals_defined(&c);
        let monotone = self.monotone(&c);
        let weakly_winnable = self.weakly_winnable(&c);
        let mut winners = self.f.winners.clone();
        if self.roles.len() == 1 && self.f.witness[0].is_some() && winners.is_empty() {
            winners.push(0); // a one-player witness is a solution
        }
        let strongly_winnable = self.strongly_winnable(&c, &winners);
        Report {
            mode: self.mode,
            states: c.states,
            terminal_states: c.terminals,
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
            longest_play: self.f.longest_play.filter(|_| c.exhaustive),
            error: self.error.clone(),
        }
    }

    /// Why a universal property is not established (`what` comes first).
    fn open_text(&self, what: &str) -> String {
        if let Some(e) = &self.error {
            return format!("not established: the analysis stopped ({e})");
        }
        let explored = format!(
            "{} states explored breadth-first (the budget is {}; complete to depth {})",
            self.g.len(),
            self.opts.max_states,
            self.g.complete_depth()
        );
        format!(
            "{}{what}no counterexample in {} playouts of depth ≤ {} ({} reached a terminal state) and {explored}",
            if self.stopped { "stopped early: " } else { "" },
            self.sampling.playouts,
            self.opts.playout_depth,
            self.sampling.terminal_ends
        )
    }

    fn terminates(&self, c: &Counts) -> Property {
        refutation(&self.f.cycle).unwrap_or_else(|| match (c.exhaustive, self.f.longest_play) {
            (true, Some(l)) => Property::proved(format!(
                "the reachable state graph is acyclic: every play ends after at most {l} joint move{}",
                if l == 1 { "" } else { "s" }
            )),
            _ => Property::open(self.open_text("")),
        })
    }

    fn playable(&self, c: &Counts) -> Property {
        let non_terminal = self.g.expanded() as u64 - self.terminal_count;
        refutation(&self.f.unplayable).unwrap_or_else(|| {
            if c.exhaustive {
                Property::proved(format!(
                    "every role has a legal move {}",
                    each(non_terminal, "non-terminal")
                ))
            } else {
                Property::open(self.open_text(""))
            }
        })
    }

    fn goals_defined(&self, c: &Counts) -> Property {
        match &self.f.goals {
            Some(f) => Property::refuted(
                Some(f.moves.clone()),
                format!(
                    "{}; {} of the {} {} terminal states {} this problem",
                    f.detail,
                    self.f.bad_terminals,
                    c.terminals,
                    if c.exhaustive { "reachable" } else { "found" },
                    if self.f.bad_terminals == 1 {
                        "has"
                    } else {
                        "have"
                    }
                ),
            ),
            None if c.exhaustive => Property::proved(format!(
                "every role has exactly one goal value {}",
                each(c.terminals, "terminal")
            )),
            None => Property::open(self.open_text("")),
        }
    }

    fn monotone(&self, c: &Counts) -> Property {
        let states = c.states;
        refutation(&self.f.monotone).unwrap_or_else(|| {
            if c.exhaustive {
                Property::proved(format!(
                    "every role has exactly one goal value in each of the {states} reachable states, and no joint move lowers it"
                ))
            } else {
                Property::open(self.open_text(""))
            }
        })
    }

    fn weakly_winnable(&self, c: &Counts) -> Property {
        let terminals = c.terminals;
        let missing: Vec<usize> = (0..self.roles.len())
            .filter(|&r| self.f.witness[r].is_none() && Some(r) != self.chance)
            .collect();
        if missing.is_empty() {
            Property::proved(self.witness_text())
        } else if c.exhaustive {
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
            Property::open(self.open_text(&format!(
                "no play reaching goal 100 found yet for {}; ",
                names.join(", ")
            )))
        }
    }

    /// The witnesses of weak winnability, every role having one.
    fn witness_text(&self) -> String {
        let nroles = self.roles.len();
        if nroles == 1 {
            let w = self.f.witness[0].as_ref().expect("witness");
            let shown = if w.len() <= 30 {
                format!(": {}", format_moves(w))
            } else {
                String::new()
            };
            format!(
                "role {} reaches goal 100 after {} move{}{shown}",
                self.roles[0],
                w.len(),
                if w.len() == 1 { "" } else { "s" }
            )
        } else {
            let parts: Vec<String> = (0..nroles)
                .filter(|&r| Some(r) != self.chance)
                .map(|r| {
                    format!(
                        "{} after {}",
                        self.roles[r],
                        self.f.witness[r].as_ref().map_or(0, Vec::len)
                    )
                })
                .collect();
            format!(
                "every role can reach goal 100 (joint moves needed: {})",
                parts.join(", ")
            )
        }
    }

    fn strongly_winnable(&self, c: &Counts, winners: &[usize]) -> Property {
        let nroles = self.roles.len();
        if !winners.is_empty() {
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
        } else if c.exhaustive {
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
            Property::open(self.open_text("no forced win found among the explored states; "))
        }
    }
}
