//! `gdlkit ground GAME.kif`: what instantiation (grounding) did to a game
//! ([`crate::ground::report`]): ground atoms per relation, the rules that
//! grew most, the network's size and depth, or where and why it stopped;
//! a small game's ground rules. Text or JSON.

use super::options::{FormatArg, SecondsArg};
use super::{read_checked, Fail, Host, Output, EXIT_OK};
use crate::ground::estimate::short;
use crate::ground::report::{self, GroundReport, Outcome};
use std::fmt::Write as _;

#[derive(clap::Args, Debug)]
#[command(
    long_about = "Grounds the game as the fast engine does and reports what instantiation did: \
                  ground atoms per relation, the rules that produced the most instances, \
                  the network's size and depth; for a game that does not ground, where and \
                  why it stopped, and when its moves ground without its end tests, the \
                  network of the hybrid engine that runs it; for a small game (at most 300 ground rules) the ground \
                  rules themselves. --seconds is the grounding's time budget."
)]
pub struct GroundArgs {
    /// The game's rules
    #[arg(value_name = "GAME.kif")]
    game: String,
    #[command(flatten)]
    format: FormatArg,
    #[command(flatten)]
    pub seconds: SecondsArg,
}

pub fn run(args: GroundArgs, host: &mut dyn Host, out: &mut Output) -> Result<i32, Fail> {
    let text = read_checked(host, &args.game)?;
    let program = gdlkit_lang::parse_program(&text);
    let mut budget = crate::ground::Budget::default();
    let seconds = args
        .seconds
        .seconds
        .unwrap_or(super::default_seconds("ground"));
    budget.max_ms = seconds * 1000.0;
    let r = report::report(&program, &text, budget);
    out.stdout = if args.format.json() {
        format!(
            "{}\n",
            serde_json::to_string_pretty(&r).expect("plain data")
        )
    } else {
        describe(&args.game, &r)
    };
    Ok(EXIT_OK)
}

/// The report as readable text.
pub fn describe(path: &str, r: &GroundReport) -> String {
    let mut s = String::new();
    let outcome = match r.outcome {
        Outcome::Grounded => "grounded",
        Outcome::Refused => "not grounded (refused by the size estimate)",
        Outcome::Stopped => "not grounded (stopped)",
    };
    let _ = writeln!(s, "{path}: {outcome} in {:.0} ms", r.ms);
    if let Some(stop) = &r.stop {
        let _ = writeln!(s, "why: {}", stop.reason);
        if let (Some(rule), Some(line)) = (&stop.rule, stop.line) {
            let n = stop
                .estimated_instances
                .map(|n| format!(", about {} instances", short(n)))
                .unwrap_or_default();
            let _ = writeln!(s, "where: the rule for {rule} at line {line}{n}");
        }
    }
    if let Some(h) = &r.hybrid {
        let _ = writeln!(
            s,
            "hybrid: the moves ground without the end tests; the interpreter answers {h}, \
             and what follows is the network of the rest"
        );
    }
    if let Some(n) = &r.network {
        let _ = writeln!(
            s,
            "network: {} propositions ({} base, {} inputs, {} legal), {} gates, {} links, \
             depth {}, {} cyclic components, {} rule instances with {} literals",
            n.atoms,
            n.base,
            n.inputs,
            n.legals,
            n.gates,
            n.links,
            n.depth,
            n.cyclic_components,
            n.instances,
            n.literals
        );
        if n.guard_candidates > 0 {
            let _ = writeln!(
                s,
                "guarded ANDs: {} kept of {} guards tried, guarding {} ANDs",
                n.guards, n.guard_candidates, n.guarded_ands
            );
        }
        if !n.subgames.is_empty() {
            let parts: Vec<String> = (n.subgames.iter())
                .map(|p| {
                    format!(
                        "{} base, {} legal, {} roles moving",
                        p.base, p.legals, p.movers
                    )
                })
                .collect();
            let _ = writeln!(
                s,
                "subgames: {} parts the moves change apart: {}",
                parts.len(),
                parts.join("; ")
            );
        }
    }
    if !r.relations.is_empty() {
        let _ = writeln!(s, "ground atoms per relation:");
        for c in &r.relations {
            let _ = writeln!(s, "  {:>8}  {}", c.atoms, c.relation);
        }
        let _ = writeln!(s, "  {:>8}  auxiliary (split rules)", r.auxiliary_atoms);
        let _ = writeln!(
            s,
            "decomposed: {} auxiliary rules, {} exclusions, {} counting rules, {} folds",
            r.auxiliary_rules, r.exclusions, r.counting_rules, r.folds
        );
    }
    if !r.top_rules.is_empty() {
        let _ = writeln!(s, "rules that grew most (instances):");
        for t in &r.top_rules {
            let _ = writeln!(
                s,
                "  {:>8}  {} ({} rule{}, line {}): {}",
                t.instances,
                t.head,
                t.rules,
                if t.rules == 1 { "" } else { "s" },
                t.line,
                t.text
            );
        }
    }
    if !r.ground_rules.is_empty() {
        let _ = writeln!(s, "ground rules ({}):", r.ground_rule_count);
        for g in &r.ground_rules {
            let _ = writeln!(s, "  {g}");
        }
    }
    s
}
