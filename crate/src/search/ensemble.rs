//! The ensemble player (lecture 004, "Verteilte Suche"): a master runs
//! several alpha-beta searches, each with one evaluation function, plus one
//! without evaluation (the exhaustive search, whose values are exact when it
//! finishes), and picks one of their moves.
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
//! This is the one core every platform shares: the members run one after
//! the other, each for its share of the time (`ms / workers`). The parallel
//! schedulers (threads natively, Web Workers, Node worker threads) that
//! would run the members at once are not built yet; the rule and the
//! members would stay the same.

use super::alphabeta::{AlphaBeta, Config};
use super::heuristics;
use super::{no_move, Budget, Player, SearchResult, Stats};
use crate::program::Program;
use crate::reasoner::{EvalError, StateMachine};
use crate::terms::TermId;

/// One member: its evaluation function's name and its search.
struct Member<M: StateMachine> {
    heuristic: String,
    search: AlphaBeta<M>,
}

pub struct Ensemble<M: StateMachine> {
    members: Vec<Member<M>>,
    ms: f64,
    stats: Stats,
    /// Which member's move was played last (for reports).
    pub last_choice: Option<String>,
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

impl<M: StateMachine + 'static> Ensemble<M> {
    /// `workers` members from `heuristics` (the first is the exhaustive
    /// search when it is `none`); `ms` per move in all.
    pub fn new(
        program: &Program,
        m: &mut M,
        heuristic_names: &[String],
        workers: usize,
        ms: f64,
    ) -> Result<Ensemble<M>, String> {
        let mut members = Vec::new();
        for name in heuristic_names.iter().take(workers.max(1)) {
            let h = heuristics::build(name, program, m)?;
            let cfg = Config {
                budget: Budget::ms(ms / workers.max(1) as f64),
                ..Config::default()
            };
            members.push(Member {
                heuristic: name.clone(),
                search: AlphaBeta::new(h, cfg),
            });
        }
        Ok(Ensemble {
            members,
            ms,
            stats: Stats::default(),
            last_choice: None,
        })
    }
}

/// The lecture's choice among the members' results (see the module docs);
/// `evaluated[i]`: member `i` has an evaluation function. Returns the index
/// of the result followed.
pub fn choose(results: &[SearchResult], evaluated: &[bool]) -> Option<usize> {
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
        .filter(|&i| evaluated.get(i).copied().unwrap_or(true))
        .collect();
    if voters.is_empty() {
        voters = with_move;
    }
    let weight = |i: usize| -> u64 {
        voters
            .iter()
            .filter(|&&j| results[j].best_move == results[i].best_move)
            .map(|&j| 1 + results[j].stats.depth as u64)
            .sum()
    };
    voters
        .iter()
        .copied()
        .max_by(|&a, &b| weight(a).cmp(&weight(b)).then(b.cmp(&a)))
}

impl<M: StateMachine + 'static> Player<M> for Ensemble<M> {
    fn name(&self) -> String {
        format!(
            "ensemble({} workers, {} ms: {})",
            self.members.len(),
            self.ms,
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
        let mut results = Vec::new();
        let mut stats = Stats::default();
        for member in &mut self.members {
            let r = member.search.search(m, state, role, None)?;
            stats.add(&r.stats);
            results.push(r);
        }
        self.stats = stats;
        let evaluated: Vec<bool> = self.members.iter().map(|m| m.heuristic != "none").collect();
        let i = choose(&results, &evaluated).ok_or_else(|| no_move(role))?;
        self.last_choice = Some(self.members[i].heuristic.clone());
        results[i].best_move.ok_or_else(|| no_move(role))
    }
    fn last_stats(&self) -> Stats {
        self.stats.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(value: f64, mv: u32, solved: bool, depth: u32) -> SearchResult {
        SearchResult {
            value,
            best_move: Some(TermId(mv)),
            solved,
            stats: Stats {
                depth,
                ..Stats::default()
            },
            iterations: Vec::new(),
        }
    }

    #[test]
    fn a_proven_result_is_followed_even_when_shallower() {
        let all = [true; 3];
        let rs = [
            r(60.0, 1, false, 9),
            r(50.0, 2, true, 3),
            r(99.0, 3, false, 9),
        ];
        assert_eq!(choose(&rs, &all), Some(1));
        // Among proven results, the highest value.
        let rs = [r(0.0, 1, true, 3), r(100.0, 2, true, 2)];
        assert_eq!(choose(&rs, &all), Some(1));
    }

    #[test]
    fn otherwise_deeper_searches_weigh_more() {
        let all = [true; 3];
        let rs = [
            r(60.0, 1, false, 3),
            r(40.0, 2, false, 5),
            r(70.0, 3, false, 4),
        ];
        assert_eq!(choose(&rs, &all), Some(1));
        let rs = [
            r(60.0, 1, false, 7),
            r(40.0, 2, false, 4),
            r(70.0, 2, false, 4),
        ];
        assert_eq!(choose(&rs, &all), Some(1), "move 2: weight 10 against 8");
        let rs = [r(60.0, 1, false, 5), r(40.0, 2, false, 5)];
        assert_eq!(choose(&rs, &all), Some(0), "a tie goes to the first member");
        assert_eq!(choose(&[], &all), None);
    }

    #[test]
    fn the_unfinished_exhaustive_search_does_not_vote() {
        let rs = [r(50.0, 1, false, 12), r(60.0, 2, false, 3)];
        assert_eq!(choose(&rs, &[false, true]), Some(1));
        assert_eq!(choose(&rs[..1], &[false]), Some(0), "alone, it still moves");
    }
}
