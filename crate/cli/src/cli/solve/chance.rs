//! `gdlkit solve GAME.kif` on a GDL-II game: the value over information
//! sets ([`crate::solve::solve_gdl2`]): expectimax for one role against
//! chance, CFR+ for two zero-sum roles.

use super::{Fail, Output};
use crate::solve::{self, ChanceLimits, ChanceSolution};
use crate::Engine;
use std::fmt::Write as _;

/// Information sets of the policy printed in the text output.
const POLICY_SHOWN: usize = 12;

pub(super) fn run(
    path: &str,
    mut engine: Engine,
    limits: &ChanceLimits,
    json: bool,
    out: &mut Output,
) -> Result<i32, Fail> {
    let s =
        solve::solve_gdl2(&mut engine, limits).map_err(|r| Fail::game(format!("{path}: {r}")))?;
    Ok(super::write_result(
        &s,
        json,
        || text(path, &s),
        s.complete,
        out,
    ))
}

fn values_text(roles: &[String], values: &[f64]) -> String {
    let parts: Vec<String> = roles
        .iter()
        .zip(values)
        .map(|(r, v)| format!("{r} {v:.3}"))
        .collect();
    parts.join(", ")
}

fn text(path: &str, s: &ChanceSolution) -> String {
    let mut o = String::new();
    let status = match &s.stopped {
        None => "complete".to_string(),
        Some(why) => format!("PARTIAL: {why}"),
    };
    let what = if s.roles.len() == 1 {
        "one role against chance, expectimax over information sets"
    } else {
        "two zero-sum roles with chance and hidden information, CFR+"
    };
    let _ = writeln!(o, "{path}: solved ({status}), {what}, {} engine", s.engine);
    if s.roles.len() == 1 {
        let _ = writeln!(
            o,
            "  value: {} (expected goal under the best policy)",
            values_text(&s.roles, &s.values)
        );
    } else {
        let _ = writeln!(
            o,
            "  value: {} (expected goals under the average strategy)",
            values_text(&s.roles, &s.values)
        );
        let br = s.best_responses.as_deref().unwrap_or_default();
        let _ = writeln!(
            o,
            "  exploitability: {:.5} goal points after {} iterations (best responses: {})",
            s.exploitability,
            s.iterations,
            values_text(&s.roles, br)
        );
    }
    let _ = writeln!(
        o,
        "  tree: {} nodes ({} terminal), {} information sets with a choice",
        s.nodes, s.terminal, s.information_sets
    );
    let _ = writeln!(
        o,
        "  policy ({} of {} information sets reached):",
        s.policy.len().min(POLICY_SHOWN),
        s.policy_sets
    );
    for e in s.policy.iter().take(POLICY_SHOWN) {
        let moves: Vec<String> = e
            .moves
            .iter()
            .map(|m| {
                if m.probability > 1.0 - 1e-9 {
                    m.r#move.clone()
                } else {
                    format!("{} {:.3}", m.r#move, m.probability)
                }
            })
            .collect();
        let _ = writeln!(
            o,
            "    {} step {}, {}: {}",
            e.role,
            e.step,
            e.history,
            moves.join(", ")
        );
    }
    let _ = writeln!(o, "  {:.2} s", s.seconds);
    o
}
