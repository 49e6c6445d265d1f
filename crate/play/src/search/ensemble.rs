//! The ensemble player (lecture 004, "Verteilte Suche"): a master runs
//! several alpha-beta searches at once, each with one evaluation function,
//! plus one without evaluation (the exhaustive search, whose values are
//! exact when it finishes), and picks one of their moves.
//!
//! **The rule** (the lecture's, written down):
//! 1. a *proven* result (a search whose root value no estimate influenced,
//!    normally the exhaustive one) is followed; among several, the highest
//!    proven value;
//! 2. otherwise the searches *with* an evaluation function vote, each
//!    with the depth it completed, so moves from deeper searches are
//!    preferred and agreement counts; the move with the most weight wins,
//!    ties going to the first member. The unfinished exhaustive search
//!    votes only when no other member exists: its values are all equal
//!    (no evaluation), so its move says nothing.
//!
//! **One core, thin schedulers.** Every platform builds its members with
//! [`member`] and combines their results with [`choose`]. Natively the
//! members search at once on threads ([`super::parallel::run_all`]), each
//! for the whole `ms`, on its own copy of the game; the page's Web Workers
//! and Node's worker threads run one member each (`crate::wasm::ensemble`,
//! `js/parallel.js`). Inside a single wasm thread, where no threads exist,
//! the members run one after the other for `ms / workers` each.

use super::alphabeta::{AlphaBeta, Config};
use super::heuristics;
use super::parallel::{has_threads, run_all, Job};
use super::{Budget, Player, SearchResult, Stats};
use crate::error::HeuristicError;
use crate::program::Program;
use crate::reasoner::{EvalError, StateMachine};
use crate::terms::TermId;
use serde::{Deserialize, Serialize};

/// One member: its evaluation function's name and its search.
struct Member<M: StateMachine> {
    heuristic: String,
    search: AlphaBeta<M>,
}

pub struct Ensemble<M: StateMachine> {
    members: Vec<Member<M>>,
    /// The limit per move, for the name (`300 ms`, `2000 nodes`).
    limit: String,
    /// Members on threads (native) or one after the other (wasm).
    parallel: bool,
    stats: Stats,
    /// Which member's move was played last (for reports).
    pub last_choice: Option<String>,
    /// The members' results of the last move, in member order.
    pub last_results: Vec<MemberResult<TermId>>,
}

/// What the master needs from one member's search: the move (a `TermId`
/// natively, its text across workers), the root value, whether it is
/// proven, and the depth completed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(
    feature = "typescript",
    derive(ts_rs::TS),
    ts(concrete(Mv = String), rename = "EnsembleMemberMove")
)]
pub struct MemberResult<Mv> {
    /// The member's evaluation function (`none`: the exhaustive search).
    pub heuristic: String,
    /// Its move (`null` when the role has none).
    #[serde(rename = "move")]
    pub best_move: Option<Mv>,
    /// The root value on the 0..100 scale.
    pub value: f64,
    /// No estimate influenced the value.
    pub solved: bool,
    /// The deepest iteration completed.
    pub depth: u32,
}

impl MemberResult<TermId> {
    pub fn of(heuristic: &str, r: &SearchResult) -> MemberResult<TermId> {
        MemberResult {
            heuristic: heuristic.to_string(),
            best_move: r.best_move,
            value: r.value,
            solved: r.solved,
            depth: r.stats.depth,
        }
    }
}

/// Whether a member's heuristic is an evaluation (the exhaustive search's
/// `none` is not).
fn evaluates(heuristic: &str) -> bool {
    !matches!(heuristic, "none" | "constant")
}

/// The evaluation functions tried, in order, when none are given: the
/// exhaustive search, fuzzy goal distance, mobility, then the game's
/// features (maximised, then minimised).
pub fn default_heuristics<M: StateMachine>(program: &Program, m: &mut M) -> Vec<String> {
    let mut out = vec!["none".to_string(), "fuzzy".into(), "mobility".into()];
    if let Ok(st) =
        crate::structure::find(program, m, crate::structure::features::HEURISTIC_OPTIONS)
    {
        for f in &st.features {
            out.push(format!("feature:{f}:max"));
        }
        for f in &st.features {
            out.push(format!("feature:{f}:min"));
        }
    }
    out
}

/// The heuristics of an ensemble with `workers` members: the given list
/// (`heuristics=a+b+...`) or [`default_heuristics`], cut to `workers`.
pub fn member_heuristics<M: StateMachine>(
    program: &Program,
    m: &mut M,
    given: Option<&str>,
    workers: usize,
) -> Vec<String> {
    let names: Vec<String> = match given {
        Some(list) => list.split('+').map(|s| s.trim().to_string()).collect(),
        None => default_heuristics(program, m),
    };
    names.into_iter().take(workers.max(1)).collect()
}

/// The members' heuristics and the time per move of an `ensemble` spec
/// (options `workers`, default 4; `ms`; `heuristics=a+b+...`): the one
/// reading of the spec for the native player and the workers.
pub fn from_spec<M: StateMachine>(
    spec: &super::EnsembleSpec,
    program: &Program,
    m: &mut M,
) -> (Vec<String>, f64) {
    (
        member_heuristics(program, m, spec.heuristics.as_deref(), spec.workers),
        spec.ms,
    )
}

/// One member's search: alpha-beta with heuristic `name` and `ms` per move
/// (the same on every platform).
pub fn member<M: StateMachine + 'static>(
    program: &Program,
    m: &mut M,
    name: &str,
    ms: f64,
) -> Result<AlphaBeta<M>, HeuristicError> {
    member_with_budget(program, m, name, Budget::ms(ms))
}

/// [`member`] with any budget (a node budget makes it reproducible).
pub fn member_with_budget<M: StateMachine + 'static>(
    program: &Program,
    m: &mut M,
    name: &str,
    budget: Budget,
) -> Result<AlphaBeta<M>, HeuristicError> {
    let h = heuristics::build(name, program, m)?;
    let cfg = Config {
        budget,
        ..Config::default()
    };
    Ok(AlphaBeta::new(h, cfg))
}

impl<M: StateMachine + 'static> Ensemble<M> {
    /// One member per name in `heuristic_names` (the first is the
    /// exhaustive search when it is `none`); `ms` per move. Natively the
    /// members run at once, each for `ms`; without threads (wasm without
    /// shared memory) one after the other, each for `ms / members`.
    pub fn new(
        program: &Program,
        m: &mut M,
        heuristic_names: &[String],
        ms: f64,
    ) -> Result<Ensemble<M>, HeuristicError> {
        let share = if !has_threads() {
            ms / heuristic_names.len().max(1) as f64
        } else {
            ms
        };
        let mut e = Ensemble::with_budget(program, m, heuristic_names, Budget::ms(share))?;
        e.limit = format!("{ms} ms");
        Ok(e)
    }

    /// [`Ensemble::new`] with `budget` for every member (a node or depth
    /// budget makes the members' searches reproducible: tests).
    pub fn with_budget(
        program: &Program,
        m: &mut M,
        heuristic_names: &[String],
        budget: Budget,
    ) -> Result<Ensemble<M>, HeuristicError> {
        let mut members = Vec::new();
        for name in heuristic_names {
            members.push(Member {
                heuristic: name.clone(),
                search: member_with_budget(program, m, name, budget)?,
            });
        }
        let limit = budget.limits("nodes").into_iter().next();
        let limit = limit.unwrap_or_else(|| "no limit".into());
        Ok(Ensemble {
            members,
            limit,
            parallel: has_threads(),
            stats: Stats::default(),
            last_choice: None,
            last_results: Vec::new(),
        })
    }
}

/// The lecture's choice among the members' results (see the module docs).
/// Returns the index of the result followed (`None` when no member has a
/// move). The one rule of every platform.
pub fn choose<Mv: PartialEq>(results: &[MemberResult<Mv>]) -> Option<usize> {
    let with_move: Vec<usize> = (0..results.len())
        .filter(|&i| results[i].best_move.is_some())
        .collect();
    let proven = with_move
        .iter()
        .copied()
        .filter(|&i| results[i].solved)
        .max_by(|&a, &b| {
            results[a]
                .value
                .total_cmp(&results[b].value)
                .then(b.cmp(&a))
        });
    if proven.is_some() {
        return proven;
    }
    let mut voters: Vec<usize> = with_move
        .iter()
        .copied()
        .filter(|&i| evaluates(&results[i].heuristic))
        .collect();
    if voters.is_empty() {
        voters = with_move;
    }
    let weight = |i: usize| -> u64 {
        voters
            .iter()
            .filter(|&&j| results[j].best_move == results[i].best_move)
            .map(|&j| 1 + results[j].depth as u64)
            .sum()
    };
    voters
        .iter()
        .copied()
        .max_by(|&a, &b| weight(a).cmp(&weight(b)).then(b.cmp(&a)))
}

impl<M: StateMachine + Clone + Send + 'static> Ensemble<M>
where
    M::State: Send + Sync,
{
    /// Every member's search from `state` (in member order): at once on
    /// threads, the first member on `m`, the others on copies of it made
    /// after the root's moves are interned, so the moves' ids agree.
    fn search_all(
        &mut self,
        m: &mut M,
        state: &M::State,
        role: usize,
    ) -> Result<Vec<SearchResult>, EvalError> {
        if !self.parallel || self.members.len() <= 1 {
            let mut out = Vec::new();
            for member in &mut self.members {
                out.push(member.search.search(m, state, role, None)?);
            }
            return Ok(out);
        }
        m.legal_moves(state, role)?;
        let mut forks: Vec<M> = (1..self.members.len()).map(|_| m.clone()).collect();
        let mut machines: Vec<&mut M> = vec![m];
        machines.extend(forks.iter_mut());
        let jobs: Vec<Job<Result<SearchResult, EvalError>>> = self
            .members
            .iter_mut()
            .zip(machines)
            .enumerate()
            .map(|(i, (member, mm))| {
                Box::new(move || {
                    // A fresh copy interns new terms under its own ids: the
                    // states kept from the last copy would not match.
                    if i > 0 {
                        member.search.forget_states();
                    }
                    member.search.search(mm, state, role, None)
                }) as Job<_>
            })
            .collect();
        run_all(jobs).into_iter().collect()
    }
}

impl<M: StateMachine + Clone + Send + 'static> Player<M> for Ensemble<M>
where
    M::State: Send + Sync,
{
    fn name(&self) -> String {
        format!(
            "ensemble({} workers, {}: {})",
            self.members.len(),
            self.limit,
            self.members
                .iter()
                .map(|m| m.heuristic.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        )
    }
    fn select_move(
        &mut self,
        m: &mut M,
        state: &M::State,
        role: usize,
    ) -> Result<TermId, EvalError> {
        let results = self.search_all(m, state, role)?;
        let mut stats = Stats::default();
        for r in &results {
            stats.add(&r.stats);
        }
        if self.parallel {
            // Wall time, not the sum of the members' times.
            stats.elapsed_ms = results
                .iter()
                .map(|r| r.stats.elapsed_ms)
                .fold(0.0, f64::max);
        }
        self.stats = stats;
        let parts: Vec<MemberResult<TermId>> = self
            .members
            .iter()
            .zip(&results)
            .map(|(mem, r)| MemberResult::of(&mem.heuristic, r))
            .collect();
        let i = choose(&parts).ok_or_else(|| super::no_move(role))?;
        self.last_choice = Some(self.members[i].heuristic.clone());
        let mv = parts[i].best_move.ok_or_else(|| super::no_move(role));
        self.last_results = parts;
        mv
    }
    fn last_stats(&self) -> Stats {
        self.stats.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(value: f64, mv: u32, solved: bool, depth: u32) -> MemberResult<TermId> {
        MemberResult {
            heuristic: "fuzzy".into(),
            best_move: Some(TermId(mv)),
            value,
            solved,
            depth,
        }
    }

    fn none(mut x: MemberResult<TermId>) -> MemberResult<TermId> {
        x.heuristic = "none".into();
        x
    }

    #[test]
    fn a_proven_result_is_followed_even_when_shallower() {
        let rs = [
            r(60.0, 1, false, 9),
            r(50.0, 2, true, 3),
            r(99.0, 3, false, 9),
        ];
        assert_eq!(choose(&rs), Some(1));
        // Among proven results, the highest value.
        let rs = [r(0.0, 1, true, 3), r(100.0, 2, true, 2)];
        assert_eq!(choose(&rs), Some(1));
    }

    #[test]
    fn otherwise_deeper_searches_weigh_more() {
        let rs = [
            r(60.0, 1, false, 3),
            r(40.0, 2, false, 5),
            r(70.0, 3, false, 4),
        ];
        assert_eq!(choose(&rs), Some(1));
        let rs = [
            r(60.0, 1, false, 7),
            r(40.0, 2, false, 4),
            r(70.0, 2, false, 4),
        ];
        assert_eq!(choose(&rs), Some(1), "move 2: weight 10 against 8");
        let rs = [r(60.0, 1, false, 5), r(40.0, 2, false, 5)];
        assert_eq!(choose(&rs), Some(0), "a tie goes to the first member");
        assert_eq!(choose::<TermId>(&[]), None);
    }

    #[test]
    fn the_unfinished_exhaustive_search_does_not_vote() {
        let rs = [none(r(50.0, 1, false, 12)), r(60.0, 2, false, 3)];
        assert_eq!(choose(&rs), Some(1));
        assert_eq!(choose(&rs[..1]), Some(0), "alone, it still moves");
    }

    #[test]
    fn moves_as_text_choose_like_moves_as_ids() {
        // The workers' results carry move text: the same rule, the same index.
        let ids = [
            none(r(50.0, 1, false, 12)),
            r(60.0, 2, false, 3),
            r(55.0, 3, false, 4),
            r(52.0, 2, false, 2),
        ];
        let texts: Vec<MemberResult<String>> = ids
            .iter()
            .map(|x| MemberResult {
                heuristic: x.heuristic.clone(),
                best_move: x.best_move.map(|m| format!("move{}", m.0)),
                value: x.value,
                solved: x.solved,
                depth: x.depth,
            })
            .collect();
        assert_eq!(choose(&ids), Some(1));
        assert_eq!(choose(&texts), choose(&ids));
    }
}
