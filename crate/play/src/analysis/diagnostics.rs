//! The analysis report as diagnostics (codes `GDL2xx`, documented in
//! `docs/diagnostics.md`, section "Semantic checks"), so it merges into the
//! same list as the static checks.

use super::{format_moves, Mode, Property, Report};
use crate::diagnostic::{Diagnostic, Severity, Span};
use crate::program::Program;
use crate::terms::kw;

/// The semantic-check codes.
pub mod codes {
    /// A reachable cycle of non-terminal states: the game does not terminate.
    pub const NOT_TERMINATING: &str = "GDL201";
    /// A role without a legal move in a reachable non-terminal state.
    pub const NOT_PLAYABLE: &str = "GDL202";
    /// A reachable terminal state where a role has no goal value or several.
    pub const GOALS_UNDEFINED: &str = "GDL203";
    /// Not monotone (warning): a reachable state without exactly one goal
    /// value per role, or a joint move lowering a goal value.
    pub const NOT_MONOTONE: &str = "GDL204";
    /// A role reaches goal 100 in no reachable terminal state.
    pub const NOT_WEAKLY_WINNABLE: &str = "GDL205";
    /// No role can force its goal 100 (info; multi-player games only, for
    /// one-player games GDL205 says it).
    pub const NOT_STRONGLY_WINNABLE: &str = "GDL206";
    /// The analysis stopped on an evaluation limit.
    pub const ANALYSIS_STOPPED: &str = "GDL207";
    /// The state space exceeded the budget: properties were sampled.
    pub const SAMPLED: &str = "GDL208";
}

/// Per property: the property, its code, severity, message and hint.
type Check<'a> = (
    &'a Property,
    &'static str,
    Severity,
    &'static str,
    &'static str,
);

/// The refuted properties of `report` as diagnostics, without source
/// locations (span `0..0`); see [`to_diagnostics_located`].
pub fn to_diagnostics(report: &Report) -> Vec<Diagnostic> {
    let checks: [Check<'_>; 6] = [
        (
            &report.terminates,
            codes::NOT_TERMINATING,
            Severity::Error,
            "the game does not terminate",
            "make every play end, e.g. with a step counter in the state and a `terminal` rule on it",
        ),
        (
            &report.playable,
            codes::NOT_PLAYABLE,
            Severity::Error,
            "the game is not playable",
            "give every role a legal move (e.g. `noop`) in every non-terminal state, or make that state terminal",
        ),
        (
            &report.goals_defined,
            codes::GOALS_UNDEFINED,
            Severity::Error,
            "goal values are not defined in every terminal state",
            "every role needs exactly one `goal` value in every terminal state",
        ),
        (
            &report.monotone,
            codes::NOT_MONOTONE,
            Severity::Warning,
            "the game is not monotone",
            "common in real games; monotone goals (exactly one value per role in every state, never lower) help players",
        ),
        (
            &report.weakly_winnable,
            codes::NOT_WEAKLY_WINNABLE,
            Severity::Error,
            "the game is not weakly winnable",
            "every role needs some play that ends with its goal value 100",
        ),
        (
            &report.strongly_winnable,
            codes::NOT_STRONGLY_WINNABLE,
            Severity::Info,
            "the game is not strongly winnable",
            "fine for competitive games; one-player games must be solvable",
        ),
    ];
    // One-player games: GDL205 already says the game is not solvable.
    let multi = report.roles.len() > 1;
    let mut out: Vec<Diagnostic> = checks
        .into_iter()
        .filter(|&(p, code, ..)| {
            p.refuted_here() && (multi || code != codes::NOT_STRONGLY_WINNABLE)
        })
        .map(|(p, code, severity, what, hint)| refutation(p, code, severity, what, hint))
        .collect();
    out.extend(incomplete(report));
    out
}

/// The diagnostic of the refuted property `p`, with its counterexample.
fn refutation(
    p: &Property,
    code: &'static str,
    severity: Severity,
    what: &str,
    hint: &str,
) -> Diagnostic {
    let message = format!("{what}: {}", p.detail);
    let mut d = Diagnostic::error(code, Span::default(), message).with_hint(hint);
    d.severity = severity;
    if let Some(moves) = &p.counterexample {
        d = d.with_related(
            Span::default(),
            format!(
                "counterexample ({} joint move{} from the initial state): {}",
                moves.len(),
                if moves.len() == 1 { "" } else { "s" },
                format_moves(moves)
            ),
        );
    }
    d
}

/// Why the analysis settled less than it could: it stopped, or it sampled.
fn incomplete(report: &Report) -> Option<Diagnostic> {
    if let Some(e) = &report.error {
        Some(
            Diagnostic::warning(
                codes::ANALYSIS_STOPPED,
                Span::default(),
                format!("the semantic analysis stopped: {e}"),
            )
            .with_hint("the properties not settled before are unknown"),
        )
    } else if report.mode == Mode::Sampled {
        let mut d = Diagnostic::error(
            codes::SAMPLED,
            Span::default(),
            format!(
                "the reachable state space exceeds the analysis budget: properties were sampled, not proved ({} states seen)",
                report.states
            ),
        )
        .with_hint("raise the budget (`gdlkit analyze --budget N`) to prove them");
        d.severity = Severity::Info;
        Some(d)
    } else {
        None
    }
}

/// Like [`to_diagnostics`], with each diagnostic placed on the first rule
/// defining the relation it is about (`terminal`, `legal` or `goal`; else
/// the first rule) so editors can underline something.
pub fn to_diagnostics_located(report: &Report, program: &Program) -> Vec<Diagnostic> {
    let anchor_of = |code: &str| match code {
        codes::NOT_TERMINATING | codes::ANALYSIS_STOPPED | codes::SAMPLED => kw::TERMINAL,
        codes::NOT_PLAYABLE => kw::LEGAL,
        _ => kw::GOAL,
    };
    let first_rule = program.rules.first().map(|r| r.span).unwrap_or_default();
    to_diagnostics(report)
        .into_iter()
        .map(|mut d| {
            let rel = anchor_of(d.code);
            let span = program
                .rules
                .iter()
                .find(|r| r.head.rel == rel)
                .map_or(first_rule, |r| r.head.span);
            d.span = span;
            for r in &mut d.related {
                r.span = span;
            }
            d
        })
        .collect()
}
